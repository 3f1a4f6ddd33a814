"""Proved invariants of a checked log (issue 5, section 1): `referee check --invariants`.

For every hand the laws below are written as z3 formulas over what the log records and z3 is
asked for a counterexample (the law's negation).  "proved" means z3 found none; "violated"
means it found one, and the failing instance (the card, the player) is the evidence; "skipped"
means the record does not hold what the law is about.  One z3 solver serves the whole log and
each hand is checked inside ``push``/``pop``.  The laws, their clauses and their bounds are in
spec/verification.md.

* ``cards-dealt`` (R2.4): the deals and the kitty hold every card identity exactly ``decks``
  times.
* ``cards-played`` (R5.4): each player whose holding is known plays exactly the cards held
  after passing (no more than them while the hand is unfinished); with holdings unknown, the
  plays and the kitty hold every identity ``decks`` times.
* ``points-conserved`` (R7.2): the points taken plus the points lost equal
  ``rules.points_per_hand``, derived from the decks (52 with two, 26 with one), never a constant.
* ``score-sum`` (R7.2, R8.2): the ``score:`` line sums to the points taken (the conserved total
  less any lost points), or is a moon pattern the ruleset allows.
* ``totals`` (R7.4): each ``total:`` entry is the previous total plus the hand scores since.
* ``holdings-exist`` (R5): when holdings are only partly recorded, some assignment of the
  unrecorded cards makes every recorded play legal (:mod:`referee.partial`).

z3 is imported only when :func:`attach_invariants` runs.
"""

from __future__ import annotations

from .diagnostics import Report, make
from .handfacts import HandFacts, gather, hand_records, table_for
from .invariant_laws import Law, Sheet, hand_laws
from .parser import ParseResult, parse_log
from .table import Table

PLAY_KINDS = frozenset({"revoke", "illegal-lead", "illegal-play", "card-not-held"})


def attach_invariants(report: Report, parsed: ParseResult | None = None) -> None:
    """Prove the per-hand invariants of an already-checked report (see the module doc)."""
    if report.unreadable is not None or not report.players:
        return
    if parsed is None:
        parsed = parse_log(report.source)
    table = table_for(parsed, report.path)
    if table is None:
        return
    records = hand_records(table, parsed)
    prover = _Prover()
    sheet = Sheet(table, report)
    for index, record in enumerate(records):
        summary = report.hands[index] if index < len(report.hands) else None
        facts = gather(table, record)
        lets, laws = hand_laws(table, facts, summary, sheet)
        prover.decide(lets, laws)
        for law in laws:
            _record(report, law, facts.number)
        if facts.prefix and not all(facts.holding_known(s) for s in range(table.size)):
            _holdings_exist(report, table, facts)
    report.diagnostics.sort(key=lambda d: (d.line, d.column))


# -- z3 ---------------------------------------------------------------------------------------
class _Prover:
    """One solver per log; each check is ``push``, one self-contained assertion, ``pop``."""

    def __init__(self) -> None:
        import z3

        self.z3 = z3
        self.solver = z3.Solver()

    def refutable(self, lets: list[tuple[str, str]], formulas: list[str]) -> bool:
        """True when z3 finds a model of the negation: some formula can be false."""
        negation = "(not (and " + " ".join(formulas) + " true))"
        for name, value in reversed(lets):
            negation = f"(let (({name} {value})) {negation})"
        self.solver.push()
        try:
            self.solver.from_string(f"(assert {negation})")
            return self.solver.check() == self.z3.sat
        finally:
            self.solver.pop()

    def decide(self, lets, laws: list[Law]) -> None:
        open_laws = [law for law in laws if law.status is None and law.groups]
        for law in laws:
            if law.status is None and not law.groups:
                law.status = "skipped"
        if not open_laws:
            return
        if not self.refutable(lets, [g.smt for law in open_laws for g in law.groups]):
            for law in open_laws:
                law.status = "proved"
            return
        for law in open_laws:  # something fails: find which law and which instances
            if not self.refutable(lets, [g.smt for g in law.groups]):
                law.status = "proved"
                continue
            law.status = "violated"
            for group in law.groups:
                if self.refutable(lets, [group.smt]):
                    law.failures += [i for i in group.expand() if self.refutable(lets, [i.smt])]


# -- results ----------------------------------------------------------------------------------
def _record(report: Report, law: Law, hand: int) -> None:
    status = law.status or "skipped"
    detail = law.detail
    if status == "proved" and law.partial:
        status = "skipped"
    if status == "violated":
        first = law.failures[0]
        more = f" (and {len(law.failures) - 1} more)" if len(law.failures) > 1 else ""
        detail = first.say + more
        if any(d.line == first.span.line and d.kind != "invariant" for d in report.diagnostics):
            # the replay already reported a fault on this line: the law's failure is its
            # consequence, recorded in report.invariants but not reported a second time
            report.invariants.append({"name": law.name, "hand": hand, "status": status,
                                      "detail": detail})
            return
        report.diagnostics.append(make(
            "invariant", first.span, f"{law.name} is violated in hand {hand}: {detail}",
            rule=law.clause, hand=hand, related=first.related))
    report.invariants.append({"name": law.name, "hand": hand, "status": status,
                              "detail": detail})


def _holdings_exist(report: Report, table: Table, facts: HandFacts) -> None:
    from .partial import check_hand

    verdict = check_hand(table, facts)
    if verdict.conflict is None:
        report.invariants.append({
            "name": "holdings-exist", "hand": facts.number,
            "status": "proved" if verdict.consistent else "skipped", "detail": verdict.detail})
        return
    conflict = verdict.conflict
    already = [d for d in report.diagnostics if d.kind in PLAY_KINDS and d.line in conflict.lines]
    detail = conflict.message
    if already:
        detail += f" (already reported on line {already[0].line})"
    else:
        report.diagnostics.append(conflict.to_diagnostic())
    report.invariants.append({"name": "holdings-exist", "hand": facts.number,
                              "status": "violated", "detail": detail})
