"""A whole trick written in seating order from another seat than its leader.

A scorer may write a trick from the first column, the dealer or the last column rather than
from the player who led it; read as written, the lead looks out of turn and followers look as
if they revoked.  When the same cards read from the seat due to lead make a legal trick whose
claim holds, while the written order breaks a rule or the claim, the line is taken as written
out of order (R10.8): one fault of the record, charged to no player.

When both readings fit, the trick is read from its leader only when it has a claim and is
written from a column a scorer starts from; otherwise the written order stands and its lead
is judged as a lead out of turn.  A reading that changes who leads the next trick does not
fit."""

from __future__ import annotations

from referee.judge import codes
from referee.judge.holdings import Knowledge, SeatedPlay
from referee.judge.table import Table
from referee.log.events import Trick
from referee.rules import engine
from referee.rules.legality import Fault
from referee.rules.state import State
from referee.util.message import msg

__all__ = ["BOTH", "TAKEN", "from_a_pad_column", "read_from_leader"]


# what :func:`read_from_leader` made of a trick written from another seat than its leader
TAKEN = "taken"  # read from its leader: the one fault is the record's
BOTH = "both"  # either reading fits: the written order stands (its wrong-leader says so)


def read_from_leader(table: Table, state: State, know: Knowledge, trick: Trick, index: int,
                     hand: int) -> str | None:
    """Whether trick ``index``, whole and in seating order from another seat than
    ``state.leader``, is read from its leader instead (:data:`TAKEN`, with ``know.tricks[index]``
    reordered and the diagnostic reported), or could be (:data:`BOTH`, the written order stands);
    else None."""
    plays = know.tricks[index]
    n, leader = table.size, state.leader
    if len(plays) != n or plays[0][0] == leader:
        return None
    start = next((p for p, (seat, _, _) in enumerate(plays) if seat == leader), None)
    if start is None:
        return None
    rotated = plays[start:] + plays[:start]
    # the seat written first in the next trick: who the reading must leave to lead it
    following = know.tricks[index + 1][0][0] if index + 1 < len(know.tricks) and \
        know.tricks[index + 1] else None
    fits, faults = _reading(table, state, know, trick, rotated, following)
    if not fits or faults:
        return None
    written = plays[0][0]
    written_fits, written_faults = _reading(table, state._replace(leader=written), know,
                                            trick, plays, following)
    same = written_fits and not written_faults
    if same and not (index and _claimed(table, trick) and
                     from_a_pad_column(written, n, state.dealer)):
        return BOTH  # the record's order stands (a lead out of turn)
    know.tricks[index] = rotated
    first, due = table.name(written), table.name(leader)
    if same:
        # TRANSLATORS: {first} is the player written first, {leader} the one due to lead
        message = msg("trick {trick} is written from {first}, in seating order, but {leader} "
                      "leads it: read from {leader}, it is the same trick and the claim holds, "
                      "so it is taken as written out of order, not as a lead out of turn",
                      trick=state.trick_number, first=first, leader=due)
    else:
        # TRANSLATORS: {first} is the player written first, {leader} the one due to lead
        message = msg("trick {trick} is written from {first}, in seating order, but {leader} "
                      "leads it: read from {leader}, every play is legal and the claim holds, "
                      "so it is judged in that order", trick=state.trick_number, first=first,
                      leader=due)
    table.findings.add(codes.OUT_OF_TURN, plays[0][2].span, message, hand=hand,
                       trick=state.trick_number, rule="R10.8")
    return TAKEN


def from_a_pad_column(seat: int, players: int, dealer: int) -> bool:
    """Whether a scorer may write a trick from ``seat``: the first or the last column of the
    pad, or the dealer's (R10.8)."""
    return seat in (0, players - 1, dealer)


def _claimed(table: Table, trick: Trick) -> bool:
    """Whether the trick has a claim that names its winner (a seated player, or none)."""
    claim = trick.claim
    return claim is not None and (claim.player is None or
                                  claim.player.casefold() in table.seats)


def _reading(table: Table, state: State, know: Knowledge, trick: Trick,
             plays: list[SeatedPlay], following: int | None) -> tuple[bool, int]:
    """(the claim holds, the faults: plays that break a rule on a holding known for certain,
    and a next trick led by another seat than this reading leaves to lead it) when the trick
    is played in the order of ``plays`` from ``state``."""
    faults = 0
    for seat, card, _ in plays:
        if know.known[seat] and not know.uncertain(seat):
            fault = engine.play_fault(state, seat, card)
            if fault is not None and fault is not Fault.NOT_HELD:
                faults += 1
        state = engine.play(state, seat, card, check=False)
    if following is not None and not state.trick and state.leader != following:
        faults += 1
    claim = trick.claim
    if claim is None or state.trick:
        return True, faults
    if claim.player is None:
        return state.last_trick.winner is None, faults
    claimed = table.seats.get(claim.player.casefold())
    return claimed is None or claimed == state.last_trick.winner, faults
