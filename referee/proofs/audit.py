"""Scoresheet audit, and partial records (in :mod:`referee.proofs.partial`, re-exported here).

A club's paper scoresheet is a log of ``score:`` and ``total:`` lines only.  The audit states
the sheet's laws in z3 over one variable per entry (R7.2 each hand's scores sum to the points
per hand, less points lost in a set-aside last trick, or follow a moon pattern the ruleset
allows, as :func:`referee.rules.scoring.sheet_law` states it; R7.4 every total is the previous
total plus the hand score) and asks z3's optimizer for
the fewest written entries whose correction makes the whole sheet satisfy them.  When several
corrections of that size exist, up to ``max_solutions`` are listed.  Lines other than scores
and totals are ignored here (the replay checks them).  z3 is imported only when an audit runs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import NamedTuple

from referee.check.holdings import HandRecord
from referee.check.scoring import explain, loss_possible, seat_ranges, sum_fact
from referee.check.setup import hands_of
from referee.check.table import Findings, Table
from referee.log.parser import ParseResult
from referee.proofs.budgets import (
    AUDIT_MAX_ENTRIES,
    AUDIT_MAX_HANDS,
    AUDIT_NEAREST_MS,
    AUDIT_SOLUTIONS_MS,
    AUDIT_TIMEOUT_MS,
    size_detail,
    time_detail,
)
from referee.proofs.partial import Conflict, partial_record_conflicts  # noqa: F401  (one import for both)
from referee.proofs.properties import z3_bool
from referee.proofs.rulemodel import Z3Ops
from referee.proofs.wording import and_list, or_list, semicolon_list, sheet_law_words
from referee.rules import scoring
from referee.rules.ruleset import Ruleset
from referee.util.message import msg, msgn

__all__ = ["Fix", "AuditResult", "SheetQuestion", "audit_scoresheet", "partial_record_conflicts",
           "Conflict"]


@dataclass(frozen=True)
class Fix:
    """One written entry to change."""

    hand: int
    player: str
    field: str  # "score" or "total"
    old: int
    new: int
    line: int
    column: int

    def text(self) -> str:
        if self.field == "total":
            return msg("change {player}'s hand {hand} total from {old} to {new}",
                       player=self.player, hand=self.hand, old=self.old, new=self.new)
        return msg("change {player}'s hand {hand} score from {old} to {new}",
                   player=self.player, hand=self.hand, old=self.old, new=self.new)


@dataclass
class AuditResult:
    consistent: bool  # the sheet as written satisfies every law
    suggestions: list[list[Fix]]  # the smallest corrections (each a list of changes)
    points_per_hand: int
    rules: Ruleset  # whose law the sheet is audited against (its words say that law)
    changes: int = 0  # entries changed by each suggestion
    more: bool = False  # further corrections of the same size exist
    lost: dict[int, int] = field(default_factory=dict)  # hand -> points lost, when assumed
    moons: list[int] = field(default_factory=list)  # hands read as a moon
    hands: int = 0
    notes: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)  # hands as written that no play could give
    cut_short: str = ""  # which budget stopped the search; the answer is the best found by then

    def _then(self) -> str:
        return sheet_law_words(self.rules, self.moons, self.lost)

    def text(self) -> str:
        """Sentences for a person: what to change, or that the sheet is consistent; and when a
        budget cut the search short, that the answer is only the best found by then."""
        body = self._text()
        if not self.cut_short:
            return body
        # TRANSLATORS: {answer} is the audit's answer, {reason} which budget stopped it
        return msg("{answer}\nthe search was cut short ({reason})", answer=body,
                   reason=self.cut_short)

    def _text(self) -> str:
        body = self._answer()
        return semicolon_list([*self.facts, body]) if self.facts else body

    def _answer(self) -> str:
        if self.cut_short and not self.suggestions and not self.consistent:
            return msg("no correction was found within the budgets")
        if not self.hands:
            return msg("the log holds no score or total lines to audit")
        if self.consistent:
            return msg("the scoresheet is consistent: {law}", law=self._then())
        fixes = [and_list([f.text() for f in fix]) for fix in self.suggestions]
        if len(fixes) == 1:
            # TRANSLATORS: {fix} is what to change ("change Beth's hand 2 score from 14 to
            # 15"), {law} the law the sheet then satisfies ("every hand sums to 52 and ...")
            return msg("{fix}; then {law}", fix=fixes[0], law=self._then())
        listed = or_list([msg("({number}) {fix}", number=i, fix=text)
                          for i, text in enumerate(fixes, 1)])
        if self.more:
            # TRANSLATORS: {count} corrections (and more exist), each changing {changes}
            # entries; {fixes} lists them "(1) change ... or (2) change ..."
            return msgn("{count}+ corrections of {changes} entry each make the sheet "
                        "consistent: {fixes}; more exist; then {law}",
                        "{count}+ corrections of {changes} entries each make the sheet "
                        "consistent: {fixes}; more exist; then {law}", self.changes,
                        count=len(fixes), changes=self.changes, fixes=listed, law=self._then())
        return msgn("{count} corrections of {changes} entry each make the sheet consistent: "
                    "{fixes}; then {law}",
                    "{count} corrections of {changes} entries each make the sheet consistent: "
                    "{fixes}; then {law}", self.changes,
                    count=len(fixes), changes=self.changes, fixes=listed, law=self._then())


@dataclass
class _Entry:
    hand: int
    seat: int
    field: str
    value: int
    line: int
    column: int
    var: object = None


def audit_scoresheet(parsed: ParseResult, rules: Ruleset, players: list[str], *,
                     max_solutions: int = 3, allow_lost: bool | None = None) -> AuditResult:
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
    return question.answer(max_solutions)


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
        self.written += _count(table, record.score) + _count(table, record.total)
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

    def answer(self, max_solutions: int = 3) -> AuditResult:
        """The audit of the hands added (asked once)."""
        result, held = self.result, self.held
        if not result.hands:
            return result
        oversize = self._oversize()
        if oversize or held is None:
            result.consistent = False
            result.cut_short = oversize
            return result
        import z3

        table = self.table
        opt, ops = z3.Optimize(), Z3Ops()
        entries: list[_Entry] = []
        previous = [z3.IntVal(table.rules.start_total)] * table.size
        lost_terms, moon_flags = [], {}
        for hand in held:
            scores, previous, lost, moon = _hand(ops, opt, table, hand.number, previous,
                                                 hand.may_lose)
            for line, kind, variables in ((hand.score, "score", scores),
                                          (hand.total, "total", previous)):
                entries += _entries(table, hand.number, line, kind, variables)
            lost_terms.append((hand.number, lost))
            moon_flags[hand.number] = moon
        changed = [z3.If(e.var != e.value, 1, 0) for e in entries]
        count = z3.Sum(changed) if changed else z3.IntVal(0)
        opt.minimize(count)
        lost_sum = z3.Sum([lost for _, lost in lost_terms]) if lost_terms else z3.IntVal(0)
        opt.minimize(lost_sum)
        model = _optimum(z3, opt, result)
        if model is not None and not result.cut_short:
            model = _nearest(z3, opt, model, entries, count, lost_sum)
        if model is None:
            result.consistent = False
            if not result.cut_short:  # cannot happen: every entry may change
                result.notes.append(msg("no correction found"))
            return result
        best = model.eval(count, model_completion=True).as_long()
        result.consistent = best == 0 and not result.cut_short
        result.changes = best
        _describe(z3, model, result, lost_terms, moon_flags)
        if best:
            opt.add(count == best)
            _suggest(z3, opt, model, table, entries, result, max_solutions)
        return result


def _optimum(z3, opt, result: AuditResult):
    """The optimizer's model, or when its time budget ran out the best one it had found (and
    ``result.cut_short`` says so); None without any."""
    opt.set("timeout", AUDIT_TIMEOUT_MS)
    answer = opt.check()
    if answer == z3.sat:
        return opt.model()
    if answer == z3.unsat:
        return None
    result.cut_short = msg("{budget}; the correction may not be the smallest",
                           budget=time_detail(AUDIT_TIMEOUT_MS))
    try:
        return opt.model()  # z3 keeps the best solution of an interrupted optimisation
    except z3.Z3Exception:
        return None


def _nearest(z3, opt, model, entries: list, count, lost_sum):
    """Among the smallest corrections, the one nearest the written values (a typo of 53 for
    52 is 52, not the moon -26), asked as a question of its own: folded into the first
    optimisation, the distance made z3 miss its budget on easy sheets.  When this question
    runs out of time, the first answer stands (as small, perhaps not as near)."""
    nearest = z3.Optimize()
    nearest.add(opt.assertions())
    nearest.add(count == model.eval(count, model_completion=True),
                lost_sum == model.eval(lost_sum, model_completion=True))
    nearest.minimize(z3.Sum([z3.If(e.var >= e.value, e.var - e.value, e.value - e.var)
                             for e in entries]))
    nearest.set("timeout", AUDIT_NEAREST_MS)
    if nearest.check() == z3.sat:
        return nearest.model()
    return model


def _hand(ops: Z3Ops, opt, table: Table, h: int, previous: list, allow_lost: bool):
    """One hand's variables and laws: (scores, totals, points lost, read as a moon)."""
    z3, rules, n = ops.z3, table.rules, table.size
    scores = [z3.Int(f"s{h}_{p}") for p in range(n)]
    totals = [z3.Int(f"t{h}_{p}") for p in range(n)]
    for p in range(n):
        opt.add(totals[p] == previous[p] + scores[p])  # R7.4
    lost = z3.Int(f"lost{h}")
    opt.add(lost >= 0, lost <= (rules.points_per_hand if allow_lost else 0))
    bonus = _bonus(ops, opt, rules, n, h)
    moon = z3.Bool(f"moon{h}")
    if not scoring.has_score_law(rules):  # R7.5: the pool's shares are not on the sheet
        opt.add(z3.Not(moon))
        return scores, totals, lost, moon
    opt.add(moon == z3_bool(z3, scoring.moon_law(ops, rules, scores, lost, bonus)))  # R8.2
    opt.add(z3.Or(z3_bool(z3, scoring.sum_law(ops, rules, scores, lost, bonus)), moon))  # R7.2
    (low, high), (moon_low, moon_high) = seat_ranges(rules, n)
    for score in scores:  # a score some seat can have: never below 0 or past the decks' points
        opt.add(z3.Or(z3.And(low <= score, score <= high),
                      z3.And(moon, moon_low <= score, score <= moon_high)))
    return scores, totals, lost, moon


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


def _entries(table: Table, h: int, line, kind: str, variables: list) -> list[_Entry]:
    """The written entries of a score or total line, each tied to its variable."""
    return [_Entry(h, seat, kind, entry.value, entry.span.line, entry.span.column,
                   variables[seat]) for seat, entry in _seated(table, line)]


def _count(table: Table, line) -> int:
    """How many entries of a score or total line (None: no line) the audit reads."""
    return sum(1 for _ in _seated(table, line))


def _seated(table: Table, line):
    """(seat, entry) of a line's entries that the audit reads: the first of each seat's,
    names not seated left out."""
    if line is None:
        return
    seen = set()
    for entry in line.entries:
        seat = table.seats.get(entry.player.casefold())
        if seat is None or seat in seen:
            continue
        seen.add(seat)
        yield seat, entry


def _suggest(z3, opt, model, table: Table, entries: list[_Entry], result: AuditResult,
             max_solutions: int) -> None:
    """List up to ``max_solutions`` corrections of the smallest size, each a new set of entries.

    The search shares one time budget; when it runs out the corrections found so far stand."""
    deadline = time.monotonic() + AUDIT_SOLUTIONS_MS / 1000
    for _ in range(max_solutions + 1):
        picked = [e for e in entries if model.eval(e.var != e.value, model_completion=True)]
        fix = [Fix(e.hand, table.name(e.seat), e.field, e.value,
                   model.eval(e.var, model_completion=True).as_long(), e.line, e.column)
               for e in picked]
        if len(result.suggestions) == max_solutions:
            result.more = True
            break
        result.suggestions.append(fix)
        opt.add(z3.Or([e.var == e.value for e in picked]))  # another set of entries next
        answer = _check_until(z3, opt, deadline)
        if answer != z3.sat:
            if answer != z3.unsat and not result.cut_short:
                result.more = False  # unknown: neither "more exist" nor "no more" is known
                result.cut_short = msg("{budget} while looking for further corrections of "
                                       "this size", budget=time_detail(AUDIT_SOLUTIONS_MS))
            break
        model = opt.model()


def _check_until(z3, opt, deadline: float):
    """``opt.check()`` with the time left before ``deadline`` (``unknown`` when none is left)."""
    left = int((deadline - time.monotonic()) * 1000)
    if left <= 0:
        return z3.unknown
    opt.set("timeout", left)
    return opt.check()


def _bonus(ops: Z3Ops, opt, rules: Ruleset, n: int, h: int):
    """What the ruleset's bonuses can add to one hand's scores (:func:`scoring.bonus_range`)."""
    if not scoring.has_bonus(rules):
        return 0
    jacks, empty = ops.z3.Int(f"jacks{h}"), ops.z3.Int(f"empty{h}")
    bounds, amount = scoring.bonus_range(ops, rules, n, jacks, empty)
    opt.add(*bounds)
    return amount


def _describe(z3, model, result: AuditResult, lost_terms, moon_flags) -> None:
    result.lost = {h: model.eval(v, model_completion=True).as_long() for h, v in lost_terms
                   if model.eval(v, model_completion=True).as_long()}
    result.moons = [h for h, flag in moon_flags.items()
                    if z3.is_true(model.eval(flag, model_completion=True))]
