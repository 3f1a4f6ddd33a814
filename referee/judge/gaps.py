"""What a hand's record leaves out, and what is then not judged: tricks whose line cannot be
read, and tricks closed without a card from some seat.  Each is one fault, reported once;
nothing that follows from it is reported as another."""

from __future__ import annotations

from functools import lru_cache

from referee.judge import codes
from referee.judge.holdings import Knowledge, SeatedPlay
from referee.judge.table import Table
from referee.log.events import Trick
from referee.rules import engine
from referee.rules.cards import card_text
from referee.rules.state import Phase, State
from referee.util.message import msg, msgn

__all__ = ["close_short", "in_seating_order", "note_unjudged", "rotation", "second_cards",
           "skipped_seats", "stops_in", "swapped_plays", "unknown_tricks"]


def stops_in(state: State, know: Knowledge, index: int, count: int) -> bool:
    """Whether the record of the hand stops in its ``index``-th trick of ``count``: the last
    written, unless it is the hand's last trick and a score or total line follows (then a
    trick short of cards there has a card left out, as anywhere else)."""
    if index < count - 1:
        return False
    record = know.record
    return state.trick_number < state.tricks_per_hand or (record.score is None and
                                                          record.total is None)


def note_unjudged(table: Table, hand: int, lost: list[int], short: list[int],
                  absent: list[int] = ()) -> None:
    """What the tricks that cannot be read, those not recorded, and those without every card,
    leave unjudged."""
    if absent:
        table.findings.note(msgn(
            "hand {hand}: no card of trick {tricks} is recorded, so the cards played there are "
            "unknown, later plays are judged only on what is known, and the hand's scores are "
            "not checked",
            "hand {hand}: no card of tricks {tricks} is recorded, so the cards played there are "
            "unknown, later plays are judged only on what is known, and the hand's scores are "
            "not checked",
            len(absent), hand=hand, tricks=", ".join(map(str, absent))))
    if lost:
        table.findings.note(msgn(
            "hand {hand}: trick {tricks} cannot be read, so the cards played there are unknown, "
            "later plays are judged only on what is known, and the hand's scores are not checked",
            "hand {hand}: tricks {tricks} cannot be read, so the cards played there are unknown, "
            "later plays are judged only on what is known, and the hand's scores are not checked",
            len(lost), hand=hand, tricks=", ".join(map(str, lost))))
    if short:
        table.findings.note(msgn(
            "hand {hand}: trick {tricks} is recorded without every player's card, so who won "
            "it, what it carried and whether it broke hearts are unknown: the next lead and the "
            "hand's scores are not judged by it",
            "hand {hand}: tricks {tricks} are recorded without every player's card, so who won "
            "them, what they carried and whether they broke hearts are unknown: the next leads "
            "and the hand's scores are not judged by them",
            len(short), hand=hand, tricks=", ".join(map(str, short))))


def unknown_tricks(state: State, know: Knowledge, count: int, lost: list[int]) -> State:
    """``count`` tricks whose line cannot be read: each keeps its number, every holding loses
    one unknown card (``know.missing``), and nothing is known of who won or whether hearts
    were broken there (so a later heart lead is not judged)."""
    for _ in range(count):
        if state.phase is not Phase.PLAY:
            break
        lost.append(state.trick_number)
        know.missing += 1
        last = state.trick_number >= state.tricks_per_hand
        state = state._replace(
            trick=(), hearts_broken=True, last_trick=None,
            trick_number=state.trick_number + (0 if last else 1),
            phase=Phase.SCORING if last else state.phase)
    return state


def skipped_seats(leader: int, plays: list[SeatedPlay], n: int) -> frozenset[int] | None:
    """The seats the plays of a trick leave out when they are otherwise in seating order from
    ``leader`` (the plays after the gap are then not out of turn); None otherwise."""
    if len(plays) >= n:  # (every trick the record gives whole: nothing to look at)
        return None
    steps = [(seat - leader) % n for seat, _, _ in plays]
    if any(later <= earlier for earlier, later in zip(steps, steps[1:])):
        return None
    return frozenset(range(n)) - {seat for seat, _, _ in plays}


def in_seating_order(plays: list[SeatedPlay], n: int) -> bool:
    """Whether the plays run in seating order from the first, one a seat (so that no seat
    plays twice and no two plays are in each other's place): as nearly every trick does."""
    return _in_order([seat for seat, _, _ in plays], n)


@lru_cache(maxsize=None)
def rotation(n: int, first: int) -> list[int]:
    """The seats of a whole trick in seating order from ``first``."""
    return [(first + step) % n for step in range(n)]


def second_cards(table: Table, know: Knowledge, index: int, hand: int, number: int, *,
                 last_in_log: bool) -> frozenset[int]:
    """A second card from one seat in one trick is one fault, reported at it, and not taken as
    played: counted, it would push a later player's card out of the trick.  The trick's plays
    without it replace ``know.tricks[index]``; the seats whose card the trick then lacks are
    named in the same diagnostic."""
    plays = know.tricks[index]
    n = table.size
    seats = [seat for seat, _, _ in plays]
    if len(set(seats)) == len(seats):
        return frozenset()
    missing = [s for s in range(n) if s not in seats]
    if last_in_log:  # where the record stops, only a seat before a later play is left out
        order = [(seats[0] + step) % n for step in range(n)]
        reached = max(order.index(seat) for seat in seats)
        missing = [s for s in missing if order.index(s) < reached]
    drop = _dropped(seats, missing, n)
    if not missing and drop >= n:  # past a whole trick: "one too many", as any card there
        return frozenset()
    if len(missing) > 1:  # which seat's card it may be is not known: the trick says the rest
        missing = []
    know.tricks[index] = [play for position, play in enumerate(plays) if position != drop]
    seat, card, play = plays[drop]
    who = table.name(seat)
    if missing:
        # TRANSLATORS: {players} are the seats the trick has no card from; {card} one card
        message = msg("trick {trick} has two cards from {player} and none from {players}; "
                      "{card}, written where {players} plays, is not counted", trick=number,
                      player=who, card=card_text(card), players=", ".join(map(table.name, missing)))
    else:
        message = msg("{player} plays a second card to trick {trick} ({card}); it is not "
                      "counted", player=who, trick=number, card=card_text(card))
    table.findings.add(codes.OUT_OF_TURN, play.span, message, hand=hand, trick=number,
                       player=who)
    return frozenset(missing)


def swapped_plays(table: Table, know: Knowledge, index: int, hand: int, number: int,
                  leaders: tuple[int, ...] | None) -> bool:
    """Two neighbouring plays of a whole trick written in each other's place are one fault,
    reported at the first of them, and the trick is judged in seating order, so that the lead
    suit is the one the table saw (``leaders``: the seats that may lead, None: any).  Whether
    the trick was so written."""
    plays, n = know.tricks[index], table.size
    if len(plays) != n:
        return False
    seats = [seat for seat, _, _ in plays]
    if _in_order(seats, n):
        return False
    for i in range(n - 1):
        order = seats[:i] + [seats[i + 1], seats[i]] + seats[i + 2:]
        if _in_order(order, n) and (leaders is None or order[0] in leaders):
            know.tricks[index] = plays[:i] + [plays[i + 1], plays[i]] + plays[i + 2:]
            table.findings.add(codes.OUT_OF_TURN, plays[i][2].span, msg(
                "{player} plays where {next} is next in seating order",
                player=table.name(seats[i]), next=table.name(seats[i + 1])),
                hand=hand, trick=number, player=table.name(seats[i]))
            return True
    return False


def _in_order(seats: list[int], n: int) -> bool:
    """Whether ``seats`` run one by one in seating order from the first (none twice)."""
    return not seats or seats == rotation(n, seats[0])[:len(seats)]


def _dropped(seats: list[int], missing: list[int], n: int) -> int:
    """Which play of a seat that plays twice is not counted: the one that stands where the
    seat the trick lacks would play (a card written under the wrong name), else the later."""
    seen: dict[int, int] = {}
    for position, seat in enumerate(seats):
        if seat in seen:
            first, later = seen[seat], position
            break
        seen[seat] = position
    if len(missing) == 1:
        for candidate in (first, later):
            if _in_order(seats[:candidate] + missing + seats[candidate + 1:], n):
                return candidate
    return later


def close_short(table: Table, state: State, trick: Trick, batch: list[tuple[int, int]],
                 hand: int, know: Knowledge, *, last_in_log: bool,
                 said: frozenset[int] = frozenset()) -> tuple[State, bool]:
    """A trick short of cards is closed as it is, unless the log stops there; whether it was
    (each seat without a card in it then holds one the record does not show).  ``said``:
    seats whose card the trick's diagnostic of a second card already says is missing."""
    if not state.trick or last_in_log:
        return state, False
    seated = {seat for seat, _ in batch}
    missing = [s for s in range(table.size) if s not in seated]
    know.unrecorded.update(missing)
    missing = [s for s in missing if s not in said]
    if not missing:
        return engine.close_trick(state), True
    table.findings.add(codes.OUT_OF_TURN, trick.span, msg(
        "trick {trick} has no card from {players}", trick=state.trick_number,
        players=", ".join(map(table.name, missing))), hand=hand, trick=state.trick_number)
    return engine.close_trick(state), True
