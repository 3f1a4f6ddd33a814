"""Scoresheet audit, and partial records (in :mod:`referee.proofs.partial`, re-exported here).

A club's paper scoresheet is a log of ``score:`` and ``total:`` lines only.  The audit finds
the fewest written entries whose correction makes the whole sheet satisfy its laws (R7.2 each
hand's scores sum to the points per hand, less points lost in a set-aside last trick, or
follow a moon pattern the ruleset allows, as :func:`referee.rules.scoring.sheet_law` states
it; R7.4 every total is the previous total plus the hand score); among those, the one that
assumes the fewest lost points, then the one nearest the written values.  When several
corrections of that size exist, up to ``max_solutions`` are listed.  Lines other than scores
and totals are ignored here (the replay checks them).

The answer comes from a search hand by hand (:mod:`referee.proofs.sheet_search`, no z3),
shown to be the smallest by a branch and bound (:mod:`referee.proofs.sheet_exact`, no z3) or
else by z3; or for what the search does not cover from z3's optimizer
(:mod:`referee.proofs.audit_z3`, imported only then); all in a child process held to a time and memory budget (:mod:`referee.proofs.audit_bound`):
past it the audit says it was not decided, and claims no correction.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from referee.judge.hand_record import HandRecord
from referee.judge.scoring import explain, loss_possible, sum_fact
from referee.judge.setup import hands_of
from referee.judge.table import Findings, Table
from referee.log.parser import ParseResult
from referee.proofs import sheet_exact, sheet_search
from referee.proofs.audit_answer import AuditResult, Fix, count_entries, seated
from referee.proofs.audit_bound import bounded
from referee.proofs.budgets import (
    AUDIT_MAX_ENTRIES,
    AUDIT_MAX_HANDS,
    AUDIT_SECONDS,
    size_detail,
)
from referee.rules import scoring
from referee.rules.ruleset import Ruleset
from referee.util.message import msg

__all__ = ["SheetQuestion", "audit_scoresheet"]


def audit_scoresheet(parsed: ParseResult, rules: Ruleset, players: list[str], *,
                     max_solutions: int = 3, allow_lost: bool | None = None,
                     seconds: float = AUDIT_SECONDS) -> AuditResult:
    """Find the fewest entries whose correction makes the sheet satisfy R7.2, R7.4 and R8.

    ``allow_lost`` (default: the ruleset can lose points, ``set_aside_last = "nobody"``) lets
    a hand sum to less than the points per hand, where its record does not show the last trick
    won; among equally small corrections those that assume fewer lost points come first.  No
    entry is corrected to a score no seat can have (:func:`seat_ranges`).
    """
    question = SheetQuestion(Table(rules, list(players), Findings()), allow_lost)
    for record, _claims in hands_of(question.table, parsed.events):
        if record is not None:
            question.add(record)
    return question.answer(max_solutions, seconds)


class _Lines(NamedTuple):
    """What the audit's terms need of a hand: its lines, and whether points may be lost."""

    number: int
    score: object
    total: object
    may_lose: bool


class SheetQuestion:
    """The audit's question (:func:`audit_scoresheet`), put a hand at a time, so that a sheet
    read a block at a time (:mod:`referee.proofs.audit_read`) is never held whole: within the
    size budgets each hand's score and total lines are kept for z3; past them, only what the
    answer says (the written entries and hands counted, the facts of hands no play could
    give), and z3 is not asked."""

    def __init__(self, table: Table, allow_lost: bool | None = None) -> None:
        rules = table.rules
        self.table = table
        self.allow_lost = rules.set_aside_last == "nobody" if allow_lost is None else allow_lost
        self.result = AuditResult(True, [], rules.points_per_hand, rules)
        self.written = 0  # entries written, counted past the size budgets too
        self.held: list[_Lines] | None = []  # None past the size budgets

    def add(self, record: HandRecord) -> None:
        """One hand, in the order of the sheet (lines other than scores and totals ignored)."""
        if record.score is None and record.total is None:
            return
        table, result, allow_lost = self.table, self.result, self.allow_lost
        result.hands += 1
        may_lose, why = loss_possible(table, record)
        # a clean-hand pool's shares: no line alone is judged
        if scoring.has_score_law(table.rules):
            why = why if not may_lose else "" if allow_lost else msg("the audit assumes none lost")
            _fact(table, record, may_lose and allow_lost, why, result)
        self.written += count_entries(table, record.score) + count_entries(table, record.total)
        if self.held is not None and self._oversize():
            self.held = None  # not asked: only the counts and the facts go on
        if self.held is not None:
            self.held.append(_Lines(record.number, record.score, record.total,
                                    allow_lost and may_lose))

    def _oversize(self) -> str:
        """The size budget the sheet so far exceeds (z3 would not answer in time), or ""."""
        if self.written > AUDIT_MAX_ENTRIES:
            return size_detail(msg("written entries"), self.written, AUDIT_MAX_ENTRIES)
        if self.result.hands > AUDIT_MAX_HANDS:
            # TRANSLATORS: the hands of a sheet that have a score or total line, counted
            return size_detail(msg("hands"), self.result.hands, AUDIT_MAX_HANDS)
        return ""

    def answer(self, max_solutions: int = 3, seconds: float = AUDIT_SECONDS) -> AuditResult:
        """The audit of the hands added (asked once), decided within ``seconds`` and the
        memory budget (:mod:`referee.proofs.audit_bound`) or said to be undecided."""
        result, held = self.result, self.held
        if not result.hands:
            return result
        oversize = self._oversize()
        if oversize or held is None:
            result.consistent = False
            result.cut_short = oversize
            return result
        if not any(count_entries(self.table, line) for hand in held for line in (hand.score,
                                                                         hand.total)):
            return result  # nothing written that the audit reads: consistent
        deadline = time.monotonic() + seconds
        return bounded(lambda: self._decided(held, max_solutions, deadline, seconds),
                       lambda: self._undecided(seconds), seconds)

    def _undecided(self, seconds: float) -> AuditResult:
        self.result.consistent = False
        self.result.undecided = seconds
        return self.result

    def _decided(self, held: list[_Lines], max_solutions: int, deadline: float,
                 seconds: float) -> AuditResult:
        result = self.result
        try:
            found, more = self._searched(held, max_solutions)
        except sheet_search.Unsupported:
            found = None
        if found is None or not self._smallest(held, found[0], deadline):
            from referee.proofs.audit_z3 import optimised

            return optimised(self, held, max_solutions, deadline, seconds)
        _described(self.table, held, found, more, result)
        return result

    def _rows(self, held: list[_Lines]):
        table, rules = self.table, self.table.rules
        scores = [_row(table, hand.score) for hand in held]
        totals = [_row(table, hand.total) for hand in held]
        lost = [rules.points_per_hand if hand.may_lose else 0 for hand in held]
        return scores, totals, lost

    def _searched(self, held: list[_Lines], max_solutions: int):
        """The search without z3 (:mod:`referee.proofs.sheet_search`) over the held hands."""
        rules = self.table.rules
        return sheet_search.search(rules, rules.start_total, *self._rows(held), max_solutions)

    def _smallest(self, held: list[_Lines], found: sheet_search.Found,
                  deadline: float) -> bool:
        """Whether the search's correction is the smallest (fewest entries, then fewest
        points lost): it assumes no points lost and no correction of fewer entries exists
        (:mod:`referee.proofs.sheet_exact`, within half the time left), or else z3 finds
        none smaller."""
        if not found.changes:
            return True
        rules = self.table.rules
        if not any(found.lost):
            left = deadline - time.monotonic()
            fewer = sheet_exact.fewer_exists(
                rules, rules.start_total, *self._rows(held), found.changes,
                lambda values, lost: explain(rules, values, lost) is not None,
                time.monotonic() + left / 2)
            if fewer is False:
                return True
        from referee.proofs.audit_z3 import smaller_exists

        return smaller_exists(self, held, found.changes, sum(found.lost), deadline) is False


def _row(table: Table, line) -> list[int | None]:
    """A score or total line's values by seat (None: not written)."""
    values: list[int | None] = [None] * table.size
    for seat, entry in seated(table, line):
        values[seat] = entry.value
    return values


def _described(table: Table, held: list[_Lines], found: list, more: bool,
               result: AuditResult) -> None:
    """The search's corrections as the audit's answer."""
    if not found:  # cannot happen: any entry may change
        result.consistent = False
        result.notes.append(msg("no correction found"))
        return
    first = found[0]
    result.changes = first.changes
    result.consistent = first.changes == 0
    result.lost = {hand.number: lost for hand, lost in zip(held, first.lost) if lost}
    result.moons = [hand.number for hand, moon in zip(held, first.moons) if moon]
    if not first.changes:
        return
    result.more = more
    for correction in found:
        fixes, running = [], [table.rules.start_total] * table.size
        for hand, scores in zip(held, correction.scores):
            running = [t + s for t, s in zip(running, scores)]
            for line, kind, values in ((hand.score, "score", scores), (hand.total, "total",
                                                                      running)):
                fixes += [Fix(hand.number, table.name(seat), kind, entry.value, values[seat],
                              entry.span.line, entry.span.column)
                          for seat, entry in seated(table, line)
                          if entry.value != values[seat]]
        result.suggestions.append(fixes)


def _fact(table: Table, record, may_lose: bool, why: str, result: AuditResult) -> None:
    """The plain fact about a score line as written that no play could give."""
    found = {}
    for entry in record.score.entries if record.score is not None else ():
        seat = table.seats.get(entry.player.casefold())
        if seat is not None:
            found.setdefault(seat, entry.value)
    if len(found) != table.size:
        return
    values = [found[s] for s in range(table.size)]
    max_lost = table.rules.points_per_hand if may_lose else 0
    if explain(table.rules, values, max_lost) is None:
        result.facts.append(sum_fact(table.rules, record.number, values, why))


