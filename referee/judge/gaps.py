"""This module finds what a hand's record of its tricks gets wrong or leaves out, reports each fault
once and nothing that follows from it as another: tricks whose line cannot be read or that lack a
card from some seat; trick numbers that slip (a line written twice, two lines in each other's place,
a line left out, numbers that skip one), whose tricks are then judged as the table played them; a
trick written on two lines; tricks whose numbers are skipped after an unreadable line (written
there: that line's one fault); and a whole trick written in seating order from another seat than
its leader, or a compact trick's cards from another seat than its header names (R10.8)."""

from __future__ import annotations

from functools import lru_cache

from referee.judge import codes
from referee.judge.holding_rule import compact_seated
from referee.judge.holdings import Knowledge, SeatedPlay, repeats_previous
from referee.judge.table import CheckTable
from referee.log.events import Trick
from referee.rules import engine
from referee.rules.cards import card_text
from referee.rules.legality import Fault
from referee.rules.state import Phase, State
from referee.util.message import msg, msgn


def stops_in(state: State, know: Knowledge, index: int) -> bool:
    """Tell whether the record of the hand stops in trick line ``index``: the last written, unless
    it is the hand's last trick and a score or total line follows."""
    record = know.record
    if index < len(record.tricks) - 1:
        return False
    return state.trick_number < state.tricks_per_hand or (record.score is None and
                                                          record.total is None)


def note_unjudged(table: CheckTable, hand: int, lost: list[int], short: list[int],
                  absent: list[int] = ()) -> None:
    """Note what the tricks unreadable, not recorded, or without every card leave unjudged."""
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
    """Step the state past ``count`` tricks whose cards are unknown: each holding loses one unknown
    card, and nothing is known of who won or whether hearts were broken there."""
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
    """Return the seats a trick's plays leave out when they are otherwise in seating order from
    ``leader``, or None otherwise.

    The plays after the gap are then not out of turn."""
    if len(plays) >= n:  # (every trick the record gives whole: nothing to look at)
        return None
    steps = [(seat - leader) % n for seat, _, _ in plays]
    if any(later <= earlier for earlier, later in zip(steps, steps[1:])):
        return None
    return frozenset(range(n)) - {seat for seat, _, _ in plays}


def put_in_order(table: CheckTable, state: State, know: Knowledge, index: int, hand: int,
                 excused_leader: int | None, *, last_in_log: bool, any_leader: bool
                 ) -> frozenset[int]:
    """Put trick ``index`` in seating order, one a seat, when it is not (as nearly no trick is):
    take a second card from a seat out, swap two plays in each other's place back (led by the seat
    due, the ``excused_leader`` or, with ``any_leader``, any), and report each one fault; return the
    seats whose missing card a diagnostic said."""
    if _in_order([seat for seat, _, _ in know.tricks[index]], table.size):
        return frozenset()
    number = state.trick_number
    said = second_cards(table, know, index, hand, number, last_in_log=last_in_log)
    leaders = None if any_leader else \
        (state.leader,) if excused_leader is None else (state.leader, excused_leader)
    swapped_plays(table, know, index, hand, number, leaders)
    return said


@lru_cache(maxsize=None)
def rotation(n: int, first: int) -> list[int]:
    """Return the seats of a whole trick in seating order from ``first``."""
    return [(first + step) % n for step in range(n)]


def second_cards(table: CheckTable, know: Knowledge, index: int, hand: int, number: int, *,
                 last_in_log: bool) -> frozenset[int]:
    """Take a second card from one seat in one trick out of ``know.tricks[index]`` and report it as
    one fault; return the seats whose missing card the diagnostic names."""
    plays = know.tricks[index]
    n = table.size
    seats = [seat for seat, _, _ in plays]
    if len(set(seats)) == len(seats):
        return frozenset()
    missing = [s for s in range(n) if s not in seats]
    if last_in_log:  # where the record stops, only a seat before a later play is left out
        order = rotation(n, seats[0])
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


def swapped_plays(table: CheckTable, know: Knowledge, index: int, hand: int, number: int,
                  leaders: tuple[int, ...] | None) -> bool:
    """Tell whether two neighbouring plays of a whole trick are written in each other's place (one
    fault, reported; the trick is then judged in seating order; ``leaders`` are the seats that may
    lead)."""
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
    """Tell whether ``seats`` run one by one in seating order from the first (none twice)."""
    return not seats or seats == rotation(n, seats[0])[:len(seats)]


def _dropped(seats: list[int], missing: list[int], n: int) -> int:
    """Find which play of a seat that plays twice is not counted: the one that stands where the seat
    the trick lacks would play (a card written under the wrong name), else the later."""
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


def close_short(table: CheckTable, state: State, trick: Trick, batch: list[tuple[int, int]],
                 hand: int, know: Knowledge, *, last_in_log: bool,
                 said: frozenset[int] = frozenset()) -> tuple[State, bool]:
    """Close a trick short of cards as it is, unless the log stops there; tell whether it was closed
    (``said``: seats whose missing card a diagnostic already says)."""
    if not state.trick or last_in_log:
        return state, False
    seated = {seat for seat, _ in batch}
    missing = [s for s in range(table.size) if s not in seated]
    know.unrecorded.update(missing)
    missing = [s for s in missing if s not in said]
    if missing and not _unreadable_after(table, know, trick):
        table.findings.add(codes.OUT_OF_TURN, trick.span, msg(
            "trick {trick} has no card from {players}", trick=state.trick_number,
            players=", ".join(map(table.name, missing))), hand=hand, trick=state.trick_number)
    return engine.close_trick(state), True


def _unreadable_after(table: CheckTable, know: Knowledge, trick: Trick) -> bool:
    """Tell whether the line after ``trick``'s cannot be read and starts no statement: the cards
    the trick lacks may be there (its rest written on a line of its own, without a header), and
    the one fault is that line's."""
    line = trick.span.end_line + 1
    return all(unread.span.line != line for unread in know.record.unread) and \
        _unreadable(table, line, line)


def _unreadable(table: CheckTable, first: int, last: int) -> bool:
    """Tell whether a line from ``first`` to ``last`` cannot be read (a syntax fault is on it)."""
    return any(item.kind == codes.SYNTAX and first <= item.line <= last
               for item in table.findings.items)


# -- trick numbers ------------------------------------------------------------------------
def in_numbered_order(table: CheckTable, know: Knowledge, hand: int) -> None:
    """Report once two neighbouring trick lines whose numbers are in each other's place, and take
    them in their numbered order (not across an unreadable line)."""
    tricks = know.record.tricks
    if know.record.gaps:
        return
    numbers = [trick.number for trick in tricks]
    pairs = len(numbers) - 1
    for i in range(pairs):
        if i == pairs:  # (two lines were joined into one)
            break
        first, second = numbers[i], numbers[i + 1]
        if first == second and _split(table, know, i, hand):
            del numbers[i + 1]
            pairs -= 1
            continue
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


def _split(table: CheckTable, know: Knowledge, index: int, hand: int) -> bool:
    """Tell whether trick lines ``index`` and the next, numbered the same, are one trick written on
    two lines: the first without a claim, between them a card from every seat, in seating order.
    They are then joined into one (and the one fault reported)."""
    tricks, seated = know.record.tricks, know.tricks
    first, second = tricks[index], tricks[index + 1]
    plays = seated[index] + seated[index + 1]
    seats = [seat for seat, _, _ in plays]
    if first.claim is not None or first.leader is not None or second.leader is not None or \
            not seated[index] or not seated[index + 1] or len(plays) != table.size or \
            not _in_order(seats, table.size):
        return False
    tricks[index] = Trick(first.number, first.plays + second.plays, second.claim, None,
                          first.span)
    seated[index] = plays
    del tricks[index + 1], seated[index + 1]
    table.findings.add(codes.BAD_SETUP, second.span, msg(
        "trick {trick} is written on two lines ({first} and {second}); it is taken as one "
        "trick", trick=first.number, first=first.span.line, second=second.span.line),
        hand=hand, trick=first.number, rule="R10.4")
    return True


class Numbering:
    """A Numbering reads one hand's trick numbers, trick by trick (:meth:`judge`)."""

    __slots__ = ("tricks", "gaps", "per_hand", "offset", "unread_before")

    def __init__(self, tricks: list[Trick], gaps: list[int], per_hand: int) -> None:
        self.tricks, self.gaps, self.per_hand = tricks, gaps, per_hand
        self.offset = 0  # how far the written numbers run ahead of the tricks' places
        self.unread_before = False  # the tricks :meth:`judge` left out are on an unreadable line

    def judge(self, table: CheckTable, state: State, index: int, hand: int) -> int | None:
        """Tell how many tricks are left out before trick line ``index`` (0: none), or None for a
        line that repeats the one before it; report each fault."""
        trick, due = self.tricks[index], state.trick_number
        written = trick.number - self.offset
        if written == due:  # (as nearly every trick is: a line that repeats one is not)
            return 0
        if index and repeats_previous(self.tricks, index):
            earlier = self.tricks[index - 1]
            table.findings.add(codes.BAD_SETUP, trick.span, msg(
                "trick {trick} is written twice (lines {first} and {second}); it is counted "
                "once", trick=trick.number, first=earlier.span.line, second=trick.span.line),
                hand=hand, trick=trick.number, rule="R10.4")
            return None
        ahead, left_out, count = written - due, 0, self._recorded()
        numbered_on = ahead > 0 and self._numbered_on(index)
        if numbered_on and count + ahead <= self.per_hand and \
                self._after_unreadable(table, index):
            self.unread_before = True  # the tricks left out are on that line: its one fault
            return ahead
        if numbered_on and count == self.per_hand:  # every trick is there: numbers slipped
            self.offset += ahead
            said = msg("trick {trick} is recorded where trick {due} is due, and the tricks after "
                       "it are numbered on from it; they are taken in their places",
                       trick=trick.number, due=due)
        elif numbered_on and count + ahead <= self.per_hand and ahead == 1:
            # the hand has room for the tricks skipped (two messages, not one with plural
            # forms: only the plural names a last trick)
            left_out = ahead
            said = msg("trick {first} is not recorded: trick {trick} follows trick {previous}, "
                       "so the cards played in trick {first} are unknown", first=due,
                       trick=trick.number, previous=due - 1)
        elif numbered_on and count + ahead <= self.per_hand:
            left_out = ahead
            # TRANSLATORS: {first} to {last} are the tricks not recorded, {trick} the one after them
            said = msg("tricks {first} to {last} are not recorded: trick {trick} follows trick "
                       "{previous}, so the cards played in them are unknown", first=due,
                       last=due + ahead - 1, trick=trick.number, previous=due - 1)
        else:
            said = msg("trick {trick} is recorded where trick {due} is due", trick=trick.number,
                       due=due)
        table.findings.add(codes.BAD_SETUP, trick.span, said, hand=hand, trick=due, rule="R10.4")
        return left_out

    def _recorded(self) -> int:
        """Count the tricks the hand records (only wanted when a number is not the one due)."""
        tricks = self.tricks
        return len(tricks) + len(self.gaps) - sum(
            1 for index in range(1, len(tricks))
            if tricks[index].number == tricks[index - 1].number and repeats_previous(tricks, index))

    def _after_unreadable(self, table: CheckTable, index: int) -> bool:
        """Tell whether trick line ``index`` comes right after an unreadable line (one taken for a
        trick, or one whose first word is none the log knows): the tricks its number skips may
        be written there, the reading of one fault."""
        if index in self.gaps:
            return True
        if not index:
            return False
        return _unreadable(table, self.tricks[index - 1].span.end_line + 1,
                           self.tricks[index].span.line - 1)

    def _numbered_on(self, index: int) -> bool:
        """Tell whether the tricks after ``index`` are numbered on, one by one, from its number."""
        if any(gap > index for gap in self.gaps):
            return False
        start = self.tricks[index].number
        return all(trick.number == start + step
                   for step, trick in enumerate(self.tricks[index:]))


def placed(table: CheckTable, state: State, know: Knowledge, numbering: Numbering, index: int,
           hand: int, unknown: tuple[list[int], list[int]]) -> tuple[State, bool, bool]:
    """Place trick line ``index``: return (the state it is judged in, whether it is judged, whether
    tricks before it are unknown; ``unknown``: the lists of the tricks not recorded and of those
    that cannot be read)."""
    trick, (absent, lost) = know.record.tricks[index], unknown
    if _past_the_last(table, state, trick, hand):
        return state, False, False
    left_out = numbering.judge(table, state, index, hand)
    if left_out is None:
        return state, False, False
    if left_out:
        state = unknown_tricks(state, know, left_out, lost if numbering.unread_before else absent)
        numbering.unread_before = False
        if _past_the_last(table, state, trick, hand):
            return state, False, True
    if know.tricks[index]:
        return state, True, bool(left_out)
    if stops_in(state, know, index):  # the record stops as this trick begins
        return state, False, bool(left_out)
    if not trick.plays:  # (a line whose names are not seated has already been reported)
        table.findings.add(codes.BAD_SETUP, trick.span, msg(
            "trick {trick} is written with no card, and play goes on after it, so the cards "
            "played in it are unknown", trick=state.trick_number), hand=hand,
            trick=state.trick_number, rule="R10.4")
    return unknown_tricks(state, know, 1, absent), False, True


def _past_the_last(table: CheckTable, state: State, trick: Trick, hand: int) -> bool:
    """Report a trick past the hand's last; return True when it is, as it is then not judged."""
    if state.phase is Phase.PLAY:
        return False
    table.findings.add(codes.BAD_SETUP, trick.span, msgn(
        "hand {hand} already has its {n} trick; trick {trick} is one too many",
        "hand {hand} already has all its {n} tricks; trick {trick} is one too many",
        state.tricks_per_hand, hand=hand, n=state.tricks_per_hand, trick=trick.number),
        hand=hand, rule="R10.4")
    return True


def ended_short(table: CheckTable, state: State, know: Knowledge, hand: int,
                absent: list[int]) -> State:
    """Report a score (or total) line after fewer tricks than the hand has as one fault, at that
    line."""
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


# -- a trick written from another seat than its leader (R10.8) ----------------------------
# Read as written, its lead looks out of turn and followers look as if they revoked.  When the
# same cards read from the seat due to lead make a legal trick whose claim holds, while the
# written order breaks a rule or the claim, the line is taken as written out of order: one fault
# of the record, charged to no player.  When both readings fit, the trick is read from its leader
# only when it has a claim and is written from a column a scorer starts from.  A reading that
# changes who leads the next trick does not fit.
# what :func:`read_from_leader` made of a trick written from another seat than its leader
TAKEN = "taken"  # read from its leader: the one fault is the record's
BOTH = "both"  # either reading fits: the written order stands (its wrong-leader says so)


def read_from_leader(table: CheckTable, state: State, know: Knowledge, index: int,
                     hand: int) -> str | None:
    """Return :data:`TAKEN` when trick ``index`` is read from its leader instead (reordered and
    reported), :data:`BOTH` when it could be; else None."""
    plays, trick = know.tricks[index], know.record.tricks[index]
    n, leader = table.size, state.leader
    if len(plays) != n or plays[0][0] == leader:
        return None
    start = next((p for p, (seat, _, _) in enumerate(plays) if seat == leader), None)
    if start is None:
        return None
    rotated = plays[start:] + plays[:start]
    following = _following(know, index)
    fits, faults = _reading(table, state, know, trick, rotated, following)
    if not fits or faults:
        return None
    written = plays[0][0]
    written_fits, written_faults = _reading(table, state._replace(leader=written), know,
                                            trick, plays, following)
    same = written_fits and not written_faults
    claim = trick.claim  # one that names the winner: a seated player, or none
    claimed = claim is not None and (claim.player is None or
                                     claim.player.casefold() in table.seats)
    if same and not (index and claimed and
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


def read_otherwise(table: CheckTable, state: State, know: Knowledge, index: int,
                   hand: int) -> str | None:
    """Read trick ``index`` from its leader when it is written from another seat (see
    :func:`read_from_leader`, :func:`read_compact`); return :data:`TAKEN`, :data:`BOTH` or
    None."""
    read = read_from_leader(table, state, know, index, hand)
    if read is None and know.record.tricks[index].leader is not None and \
            read_compact(table, state, know, index, hand):
        return TAKEN
    return read


def read_compact(table: CheckTable, state: State, know: Knowledge, index: int, hand: int) -> bool:
    """Tell whether compact trick ``index`` (``trick N LEADER: CARD ...``) is read with its cards
    in seating order from another seat than its header names (reordered and reported): its cards
    copied from a score pad's column (the first, the last, the dealer's) under the right leader,
    or in the order played under a wrong leader.  Only every holding known for certain can show
    it: read so, every card is held and every play legal, the claim holds and the next trick's
    leader leads it, while as written a play breaks a rule or the claim does not hold."""
    trick, plays, n = know.record.tricks[index], know.tricks[index], table.size
    leader = state.leader
    if len(plays) != n or not all(know.known) or know.missing or know.unrecorded:
        return False
    following, written = _following(know, index), plays[0][0]
    fits, faults = _reading(table, state._replace(leader=written), know, trick, plays,
                            following, held=True)
    if fits and not faults:
        return False
    for first in dict.fromkeys((leader, 0, n - 1, state.dealer)):
        if first == written:
            continue
        seated = compact_seated(first, [play for _, _, play in plays], n)
        start = (leader - first) % n
        rotated = seated[start:] + seated[:start]
        fits, faults = _reading(table, state, know, trick, rotated, following, held=True)
        if fits and not faults:
            break
    else:
        return False
    know.tricks[index] = rotated
    # TRANSLATORS: {first} is the player written first, {leader} the one due to lead
    message = msg("trick {trick} is written from {first}, in seating order, but {leader} "
                  "leads it: read from {leader}, every play is legal and the claim holds, "
                  "so it is judged in that order", trick=state.trick_number,
                  first=table.name(written if first == leader else first),
                  leader=table.name(leader))
    span = plays[0][2].span if first != leader else trick.leader_span
    table.findings.add(codes.OUT_OF_TURN, span, message, hand=hand, trick=state.trick_number,
                       rule="R10.8")
    return True


def _following(know: Knowledge, index: int) -> int | None:
    """Return the seat written first in the trick after ``index``: who a reading of trick
    ``index`` must leave to lead it (None: no such trick, or no card in it)."""
    if index + 1 < len(know.tricks) and know.tricks[index + 1]:
        return know.tricks[index + 1][0][0]
    return None


def from_a_pad_column(seat: int, players: int, dealer: int) -> bool:
    """Tell whether a scorer may write a trick from ``seat``: the first or the last column of the
    pad, or the dealer's (R10.8)."""
    return seat in (0, players - 1, dealer)


def _reading(table: CheckTable, state: State, know: Knowledge, trick: Trick,
             plays: list[SeatedPlay], following: int | None, *, held: bool = False
             ) -> tuple[bool, int]:
    """Play the trick in the order of ``plays`` and return (whether the claim holds, the faults:
    plays that break a rule on a holding known for certain (with ``held``, a card not held too),
    and a next trick led by another seat)."""
    faults = 0
    for seat, card, _ in plays:
        if know.known[seat] and not know.uncertain(seat):
            fault = engine.play_fault(state, seat, card)
            if fault is not None and (held or fault is not Fault.NOT_HELD):
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
