"""Who deals a hand: the dealer a hand line names, judged by the rotation once it is known,
and whether a hand's first lead agrees with its dealer."""

from __future__ import annotations

from referee.judge import codes
from referee.judge.hand_record import HandRecord
from referee.judge.table import Table
from referee.rules.options import FirstLeader
from referee.rules.state import State
from referee.util.message import msg

__all__ = ["dealer_of", "led_elsewhere"]


def dealer_of(table: Table, record: HandRecord, state: State, *, known: bool, first: bool,
              played_out: bool) -> tuple[State, bool, int | None]:
    """(the state with the hand's dealer, whether the dealer is known, a wrong dealer as
    written): the first dealer named is as written, a later one must be the one due; under
    ``after_last_winner`` there is no dealer to judge (R4.1)."""
    start = record.start
    if state.rules.first_leader == FirstLeader.AFTER_LAST_WINNER:
        return state, (record.number == 1 if first else played_out), None
    if start is None or start.dealer is None:
        return state, known, None
    seat = table.seat(start.dealer, start.dealer_span, hand=record.number)
    if seat is not None and (not known or seat == state.dealer):
        return state._replace(dealer=seat), True, None
    if seat is not None:
        table.findings.add(codes.WRONG_DEALER, start.dealer_span, msg(
            "{player} deals hand {hand}, but the deal moves to {dealer}", player=table.name(seat),
            hand=record.number, dealer=table.name(state.dealer)), hand=record.number,
            player=table.name(seat))
    return state, known, seat


def led_elsewhere(table: Table, record: HandRecord, state: State) -> bool:
    """Whether a hand's first trick is led by another seat than the one left of the dealer its
    hand line names (under ``first_leader = "left_of_dealer"``)."""
    if table.rules.first_leader != FirstLeader.LEFT_OF_DEALER or not record.tricks or \
            record.gaps[:1] == [0] or record.start is None or record.start.dealer is None:
        return False
    first = record.tricks[0]
    name = first.leader if first.leader is not None else \
        (first.plays[0].player if first.plays else None)
    seat = None if name is None else table.seats.get(name.casefold())
    return seat is not None and seat != (state.dealer + 1) % table.size
