"""How the written numbers of one hand's tricks are read, so that a slip in them is one fault.

A trick line written twice, two lines in each other's place, a line left out and numbers that
skip one are each reported once, and the tricks are judged as the table played them; read by
number, every later trick would be out of place and players who followed suit would seem to
revoke."""

from __future__ import annotations

from referee.judge import codes
from referee.judge.gaps import stops_in, unknown_tricks
from referee.judge.holdings import Knowledge
from referee.judge.table import Table
from referee.log.events import Trick
from referee.rules.state import Phase, State
from referee.util.message import msg, msgn

__all__ = ["Numbering", "PLAY", "SKIP", "ended_short", "in_numbered_order", "placed"]

PLAY, SKIP = "play", "skip"  # what :meth:`Numbering.judge` says of a trick line


def in_numbered_order(table: Table, know: Knowledge, tricks: list[Trick], hand: int) -> None:
    """Two neighbouring trick lines whose numbers are in each other's place are reported once and
    taken in their numbered order, ``tricks`` and ``know.tricks`` both; not across an unreadable
    line, whose number is not known."""
    if know.record.gaps:
        return
    numbers = [trick.number for trick in tricks]
    for i in range(len(numbers) - 1):
        first, second = numbers[i], numbers[i + 1]
        if first != second + 1:
            continue
        before = i == 0 or numbers[i - 1] == second - 1
        after = i + 2 >= len(numbers) or numbers[i + 2] == first + 1
        if before and after:
            tricks[i], tricks[i + 1] = tricks[i + 1], tricks[i]
            know.tricks[i], know.tricks[i + 1] = know.tricks[i + 1], know.tricks[i]
            numbers[i], numbers[i + 1] = second, first
            table.findings.add(codes.BAD_SETUP, tricks[i + 1].span, msg(
                "trick {trick} is written before trick {other}; they are taken in their "
                "numbered order", trick=first, other=second), hand=hand, rule="R10.4")


class Numbering:
    """The reading of one hand's trick numbers, trick by trick (:meth:`judge`)."""

    __slots__ = ("tricks", "gaps", "per_hand", "offset", "count")

    def __init__(self, tricks: list[Trick], gaps: list[int], per_hand: int) -> None:
        self.tricks, self.gaps, self.per_hand = tricks, gaps, per_hand
        self.offset = 0  # how far the written numbers run ahead of the tricks' places
        self.count = len(tricks) + len(gaps) - _repeats(tricks)  # the tricks the hand records

    def judge(self, table: Table, state: State, index: int, hand: int) -> tuple[str, int]:
        """What trick line ``index`` is: (SKIP, 0) for a line that repeats the one before it,
        else (PLAY, k) with k tricks left out before it (0: none), each fault reported."""
        trick, due = self.tricks[index], state.trick_number
        written = trick.number - self.offset
        if written == due:  # (as nearly every trick is: a line that repeats one is not)
            return PLAY, 0
        if index and _repeats_previous(self.tricks, index):
            earlier = self.tricks[index - 1]
            table.findings.add(codes.BAD_SETUP, trick.span, msg(
                "trick {trick} is written twice (lines {first} and {second}); it is counted "
                "once", trick=trick.number, first=earlier.span.line, second=trick.span.line),
                hand=hand, trick=trick.number, rule="R10.4")
            return SKIP, 0
        ahead = written - due
        if ahead > 0 and self._numbered_on(index):
            if self.count == self.per_hand:  # every trick is there: only the numbers slipped
                self.offset += ahead
                table.findings.add(codes.BAD_SETUP, trick.span, msg(
                    "trick {trick} is recorded where trick {due} is due, and the tricks after "
                    "it are numbered on from it; they are taken in their places",
                    trick=trick.number, due=due), hand=hand, trick=due, rule="R10.4")
                return PLAY, 0
            if self.count + ahead <= self.per_hand:  # room for the tricks the numbers skip
                _left_out(table, trick, due, ahead, hand)
                return PLAY, ahead
        table.findings.add(codes.BAD_SETUP, trick.span, msg(
            "trick {trick} is recorded where trick {due} is due", trick=trick.number, due=due),
            hand=hand, trick=due, rule="R10.4")
        return PLAY, 0

    def _numbered_on(self, index: int) -> bool:
        """Whether the tricks after ``index`` are numbered on, one by one, from its number
        (and no unreadable line, whose number is not known, lies among them)."""
        if any(gap > index for gap in self.gaps):
            return False
        start = self.tricks[index].number
        return all(trick.number == start + step
                   for step, trick in enumerate(self.tricks[index:]))


def _left_out(table: Table, trick: Trick, due: int, count: int, hand: int) -> None:
    # (two messages, not one with plural forms: only the plural names a last trick)
    if count == 1:
        said = msg("trick {first} is not recorded: trick {trick} follows trick {previous}, so "
                   "the cards played in trick {first} are unknown", first=due,
                   trick=trick.number, previous=due - 1)
    else:
        # TRANSLATORS: {first} to {last} are the tricks not recorded, {trick} the one after them
        said = msg("tricks {first} to {last} are not recorded: trick {trick} follows trick "
                   "{previous}, so the cards played in them are unknown", first=due,
                   last=due + count - 1, trick=trick.number, previous=due - 1)
    table.findings.add(codes.BAD_SETUP, trick.span, said, hand=hand, trick=due, rule="R10.4")


def _repeats_previous(tricks: list[Trick], index: int) -> bool:
    earlier, trick = tricks[index - 1], tricks[index]
    return bool(trick.plays) and earlier.number == trick.number and \
        earlier.leader == trick.leader and \
        [(p.player, p.card) for p in earlier.plays] == [(p.player, p.card) for p in trick.plays]


def _repeats(tricks: list[Trick]) -> int:
    return sum(1 for index in range(1, len(tricks))
               if tricks[index].number == tricks[index - 1].number
               and _repeats_previous(tricks, index))


def placed(table: Table, state: State, know: Knowledge, numbering: Numbering,
           tricks: list[Trick], index: int, hand: int, absent: list[int]
           ) -> tuple[State, bool, bool]:
    """Where trick line ``index`` stands in the hand: the state it is judged in, whether it is
    judged (not past the hand's last trick, not a line written twice, not a line with no card),
    and whether tricks before it are unknown (so that whoever leads it may)."""
    trick = tricks[index]
    if _past_the_last(table, state, trick, hand):
        return state, False, False
    reading, left_out = numbering.judge(table, state, index, hand)
    if reading == SKIP:
        return state, False, False
    if left_out:
        state = unknown_tricks(state, know, left_out, absent)
        if _past_the_last(table, state, trick, hand):
            return state, False, True
    if know.tricks[index]:
        return state, True, bool(left_out)
    if stops_in(state, know, index, len(tricks)):  # the record stops as this trick begins
        return state, False, bool(left_out)
    _no_card(table, state, trick, hand)  # a trick with no card (or none from a seated name)
    return unknown_tricks(state, know, 1, absent), False, True


def _past_the_last(table: Table, state: State, trick: Trick, hand: int) -> bool:
    """Reports a trick past the hand's last (True: it is not replayed)."""
    if state.phase is Phase.PLAY:
        return False
    table.findings.add(codes.BAD_SETUP, trick.span, msgn(
        "hand {hand} already has its {n} trick; trick {trick} is one too many",
        "hand {hand} already has all its {n} tricks; trick {trick} is one too many",
        state.tricks_per_hand, hand=hand, n=state.tricks_per_hand, trick=trick.number),
        hand=hand, rule="R10.4")
    return True


def _no_card(table: Table, state: State, trick: Trick, hand: int) -> None:
    """A trick line with no card, other lines after it: its cards are unknown (a line whose
    names are not seated has already been reported)."""
    if not trick.plays:
        table.findings.add(codes.BAD_SETUP, trick.span, msg(
            "trick {trick} is written with no card, and play goes on after it, so the cards "
            "played in it are unknown", trick=state.trick_number), hand=hand,
            trick=state.trick_number, rule="R10.4")


def ended_short(table: Table, state: State, know: Knowledge, hand: int,
                absent: list[int]) -> State:
    """A hand whose score (or total) line follows fewer tricks than the hand has: the tricks
    after the last one written are left out, one fault said at that line, and their cards are
    unknown (a hand that stops without a score line is a record that stops, said as such)."""
    record = know.record
    end = record.score or record.total or record.lost("score") or record.lost("total")
    if state.phase is not Phase.PLAY or end is None:
        return state
    first, count = state.trick_number, state.tricks_per_hand - state.trick_number + 1
    if count == 1:
        said = msg("trick {first} of hand {hand} is not recorded before its score, so the cards "
                   "played in it are unknown", first=first, hand=hand)
    else:
        # TRANSLATORS: {first} to {last} are the tricks of hand {hand} the log does not show
        said = msg("tricks {first} to {last} of hand {hand} are not recorded before its score, "
                   "so the cards played in them are unknown", first=first,
                   last=first + count - 1, hand=hand)
    table.findings.add(codes.BAD_SETUP, end.span, said, hand=hand, trick=first, rule="R10.4")
    return unknown_tricks(state, know, count, absent)
