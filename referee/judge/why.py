"""Why a hand score is what it is, where the set-aside piles make it hard to see (R6.5, R6.6).

When a written score differs from the referee's, the diagnostic says where the player's points
came from when a pile is among them, or where the points the score counts went instead.  The
tricks are played again only for a score found wrong, so a clean hand costs nothing here.  A
heart led unbroken by the player who took a kitty with hearts in it is told the kitty broke
nothing (R4.3)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.judge.score_words import points
from referee.judge.table import Table
from referee.rules import engine
from referee.rules.cards import HEARTS, NUM_RANKS, QUEEN_OF_SPADES, cards_text
from referee.rules.ruleset import card_points
from referee.rules.state import State, TrickRecord
from referee.util.message import msg

__all__ = ["Tricks", "kitty_breaks_nothing", "played_tricks", "pile_reason"]

# the hand's finished tricks as the engine records them, played again when first asked for
Tricks = Callable[[], Sequence[TrickRecord]]


def played_tricks(state: State, tricks: Sequence[Sequence[tuple]]) -> Tricks:
    """The records of the whole ``tricks`` (seat, card, ...) played from ``state``, the
    start of play, each from the seat written first, as the replay took them."""
    done: list[TrickRecord] = []

    def records() -> Sequence[TrickRecord]:
        if not done:
            current = state
            for plays in tricks:
                if len(plays) != current.players or current.phase is not engine.Phase.PLAY:
                    break
                current = engine.play_cards(current._replace(leader=plays[0][0]),
                                            [(seat, card) for seat, card, *_ in plays])
                done.append(current.last_trick)
        return done
    return records


def pile_reason(table: Table, state: State, tricks: Tricks, seat: int,
                value: int) -> tuple[str, str]:
    """(how ``seat`` came by its points when a set-aside pile is among them, where the points its
    written ``value`` counts went instead), each "" when no pile or lost points are involved."""
    records = [r for r in tricks() if r.points or r.winner is None]
    set_aside = [r.number for r in records if r.winner is None]
    own = _collected(table, state, records, set_aside, seat)
    if own:
        # TRANSLATORS: {parts} lists the player's tricks with points, as above
        return msg(" ({parts})", parts=", ".join(own)), ""
    result = state.history[-1]
    difference = value - result.taken[seat]
    for record in records:
        pile = _pile_points(state, record)
        if record.winner is not None and pile and pile == difference:
            # TRANSLATORS: {points} set aside from tricks {tricks} went with trick {trick}
            return "", msg("; the {points} set aside from trick {tricks} went to {player} with "
                           "trick {trick}", points=pile, tricks=_before(set_aside, record.number),
                           player=table.name(record.winner), trick=record.number)
    if result.lost and difference == result.lost:
        return "", msg("; nobody takes the {points} of the set-aside last trick {trick} (R6.6)",
                       points=points(result.lost), trick=state.tricks_per_hand)
    return "", ""


def _collected(table: Table, state: State, records: list[TrickRecord], set_aside: list[int],
               seat: int) -> list[str]:
    """Where the seat's points came from, trick by trick, when a pile is among them."""
    parts, with_pile = [], False
    for record in records:
        if record.winner != seat:
            continue
        own = sum(card_points(card) for _, card in record.plays)
        pile = _pile_points(state, record)
        if pile:
            with_pile = True
            # TRANSLATORS: "4 in trick 12 and the 4 set aside from trick 11 that Al collected
            # with it"
            parts.append(msg("{own} in trick {trick} and the {pile} set aside from trick "
                             "{tricks} that {player} collected with it", own=own,
                             trick=record.number, pile=pile, player=table.name(seat),
                             tricks=_before(set_aside, record.number)))
        elif own:
            parts.append(msg("{own} in trick {trick}", own=own, trick=record.number))
    return parts if with_pile else []


def _pile_points(state: State, record: TrickRecord) -> int:
    """The points a won trick carried besides its own cards and the kitty: the pile's."""
    if record.winner is None:
        return 0
    kitty = list(state.kitty) if state.kitty_taken is not None and \
        state.kitty_taken[1] == record.number else []
    rest = list(record.collected)
    for card in [c for _, c in record.plays] + kitty:
        if card in rest:
            rest.remove(card)
    return sum(card_points(card) for card in rest)


def _before(set_aside: list[int], trick: int) -> str:
    """The set-aside tricks whose pile the won ``trick`` collected: those just before it."""
    run = []
    for number in range(trick - 1, 0, -1):
        if number not in set_aside:
            break
        run.append(number)
    run.reverse()
    return ", ".join(map(str, run)) if run else str(trick - 1)


def kitty_breaks_nothing(state: State) -> str:
    """The clause "; the kitty's 2H, collected with trick 1, did not break hearts: cards
    collected are not played" when the leader collected a kitty that holds a heart or Black
    Maria, and may have thought it broke them; "" otherwise."""
    if state.kitty_taken is None or state.kitty_taken[0] != state.leader:
        return ""
    breakers = [c for c in state.kitty
                if c // NUM_RANKS == HEARTS
                or (c == QUEEN_OF_SPADES and state.rules.queen_breaks_hearts)]
    if not breakers:
        return ""
    # TRANSLATORS: {cards} are the kitty's hearts; the kitty is collected, never played
    return msg("; the kitty's {cards}, collected with trick {trick}, did not break hearts: "
               "cards collected are not played", cards=cards_text(breakers),
               trick=state.kitty_taken[1])
