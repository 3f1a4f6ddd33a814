"""What a hand's record leaves out, and what is then not judged: tricks whose line cannot be
read (every holding loses an unknown card, nothing is known of who won them), and tricks closed
without a card from some seat (that seat's card is unknown; who won, what the trick carried and
whether it broke hearts too).  Each is one fault, reported once; nothing that follows from it is
reported as another."""

from __future__ import annotations

from referee.check import codes
from referee.check.holdings import Knowledge, SeatedPlay
from referee.check.table import Table
from referee.log.events import Trick
from referee.rules import engine
from referee.rules.engine import Phase, State
from referee.util.message import msg, msgn

__all__ = ["close_short", "note_unjudged", "skipped_seats", "stops_in", "unknown_tricks"]


def stops_in(state: State, know: Knowledge, index: int, count: int) -> bool:
    """Whether the record of the hand stops in its ``index``-th trick of ``count``: the last
    written, unless it is the hand's last trick and a score or total line follows (then a
    trick short of cards there has a card left out, as anywhere else)."""
    if index < count - 1:
        return False
    record = know.record
    return state.trick_number < state.tricks_per_hand or (record.score is None and
                                                          record.total is None)


def note_unjudged(table: Table, hand: int, lost: list[int], short: list[int]) -> None:
    """What the tricks that cannot be read, and those without every card, leave unjudged."""
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
    ``leader`` (a card left out of the record: the trick that has no card from them says
    so, and the plays after the gap are not out of turn); None when they are not, or when
    they leave no one out."""
    if len(plays) >= n:  # (every trick the record gives whole: nothing to look at)
        return None
    steps = [(seat - leader) % n for seat, _, _ in plays]
    if any(later <= earlier for earlier, later in zip(steps, steps[1:])):
        return None
    return frozenset(range(n)) - {seat for seat, _, _ in plays}


def close_short(table: Table, state: State, trick: Trick, batch: list[tuple[int, int]],
                 hand: int, know: Knowledge, *, last_in_log: bool) -> tuple[State, bool]:
    """A trick short of cards is closed as it is, unless the log stops there; whether it was
    (each seat without a card in it then holds one the record does not show)."""
    if not state.trick or last_in_log:
        return state, False
    seated = {seat for seat, _ in batch}
    missing = [s for s in range(table.size) if s not in seated]
    know.unrecorded.update(missing)
    table.findings.add(codes.OUT_OF_TURN, trick.span, msg(
        "trick {trick} has no card from {players}", trick=state.trick_number,
        players=", ".join(map(table.name, missing))), hand=hand, trick=state.trick_number)
    return engine.close_trick(state), True
