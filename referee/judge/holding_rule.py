"""This module states once who holds what in a hand: the deal, the kitty, the passes, the seats of a
trick.

The check (:mod:`referee.judge.holdings`) and the z3 hand facts (:mod:`referee.proofs.handfacts`)
read a hand into different shapes, but both take these rules from here."""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence

from referee.rules.cards import Card, Counts


def receiver(seat: int, offset: int, players: int) -> int:
    """Return the seat that ``seat``'s pass goes to."""
    return (seat + offset) % players


def sender(seat: int, offset: int, players: int) -> int:
    """Return the seat whose pass ``seat`` receives."""
    return (seat - offset) % players


def compact_seated(leader: int, plays: Sequence, players: int) -> list[tuple[int, Card, object]]:
    """Return (seat, card, play) of a compact trick's plays, in seating order from ``leader``."""
    return [((leader + position) % players, play.card, play)
            for position, play in enumerate(plays)]


def settled(seat: int, dealt: Container[int], sent: Container[int], offset: int,
            players: int) -> bool:
    """Tell whether the record settles ``seat``'s holding after passing: its deal is there and, when
    cards are passed, its own pass and the one it receives."""
    if seat not in dealt:
        return False
    return not offset or (seat in sent and sender(seat, offset, players) in sent)


def holding_of(seat: int, dealt: Mapping[int, Counts], sent: Mapping[int, Sequence[Card]],
               offset: int, players: int) -> Counts | None:
    """Return ``seat``'s holding after passing (``dealt`` by seat, the cards ``sent`` by each
    sender): the cards dealt, less those passed on, plus those received; return None where the
    record does not settle it."""
    if not settled(seat, dealt, sent, offset, players):
        return None
    if not offset:
        return dealt[seat]
    counts = list(dealt[seat])
    for card in sent[seat]:
        counts[card] -= 1
    for card in sent[sender(seat, offset, players)]:
        counts[card] += 1
    return tuple(counts)


def holdings_after_passing(dealt: Mapping[int, Counts], sent: Mapping[int, Sequence[Card]],
                           offset: int, players: int) -> tuple[Counts | None, ...]:
    """Return every seat's :func:`holding_of`."""
    return tuple(holding_of(seat, dealt, sent, offset, players) for seat in range(players))


def beyond(decks: int, counts: Sequence[int]) -> Counts:
    """Count the copies the decks hold beyond ``counts`` (none where ``counts`` has them all)."""
    return tuple(decks - count if count < decks else 0 for count in counts)


def kitty_left(decks: int, counts: Sequence[int], kitty_size: int) -> Counts | None:
    """Return the kitty when the cards beyond ``counts`` (everything dealt, or everything played in
    a finished hand) are exactly as many as it holds; return None otherwise."""
    rest = beyond(decks, counts)
    return rest if sum(rest) == kitty_size else None
