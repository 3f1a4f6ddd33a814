"""Proved invariants of a checked log: `referee check --invariants`.

For every hand the laws below are written as z3 formulas over what the log records and z3 is
asked for a counterexample (the law's negation).  "proved" means z3 found none; "violated"
means it found one, and the failing instance (the card, the player) is the evidence; "skipped"
means the record does not hold what the law is about.  One z3 solver serves the whole log, which
:class:`InvariantWatch` follows as the replay goes: the solver is first asked about every
quantifier-free law of a batch of :data:`BATCH_HANDS` hands at once, and only when that finds
a counterexample (or for a law with a quantifier) hand by hand, law by law, instance by
instance, each inside ``push``/``pop``.  What is reported waits for the end of the replay
(a law's failure already reported by the replay is not reported again).  The laws, their
clauses and their bounds are in spec/verification.md.

The laws are ``cards-dealt`` (R2.4), ``cards-played`` (R5.4), ``points-conserved`` (R7.2),
``score-sum`` (R7.2, R8.2), ``totals`` (R7.4) (:mod:`referee.proofs.invariant_laws`,
:mod:`referee.proofs.sheet_laws`) and ``holdings-exist`` (R5, :mod:`referee.proofs.partial`).

z3 is imported only when :class:`InvariantWatch` or :func:`attach_invariants` runs.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

from referee.judge import codes
from referee.judge.diagnostics import HandSummary, Report, make
from referee.judge.hand_record import HandRecord
from referee.judge.stream import Watch
from referee.judge.table import Table
from referee.log.events import Span
from referee.log.parser import ParseResult, parse_log
from referee.proofs.budgets import (
    PROVER_MAX_CHARS,
    PROVER_TIMEOUT_MS,
    size_detail,
    time_detail,
    undecided,
)
from referee.proofs.handfacts import HandFacts, gather, hand_records, table_for
from referee.proofs.invariant_laws import hand_laws
from referee.proofs.sheet_laws import Sheet
from referee.proofs.smt import DEFINITIONS, Law
from referee.util.collector import collector_paused
from referee.util.message import msg

PLAY_KINDS = frozenset({codes.REVOKE, codes.ILLEGAL_LEAD, codes.ILLEGAL_PLAY, codes.CARD_NOT_HELD})
# hands whose quantifier-free laws go to z3 in one call: few calls, and only a batch's facts
# held (one call for the whole log held every hand's, 30 MB per MB of log in z3 alone)
BATCH_HANDS = 100


def attach_invariants(report: Report, parsed: ParseResult | None = None, *,
                      table: Table | None = None, records: list[HandRecord] | None = None) -> None:
    """Prove the per-hand invariants of an already-checked report (see the module doc).

    ``table`` and ``records`` (both or neither), the replay's seating and hands of this log,
    spare redoing them (:func:`referee.judge.setup.setup_table` and ``group_hands``)."""
    if report.unreadable is not None or not report.players:
        return
    if table is None or records is None:
        if parsed is None:
            parsed = parse_log(report.source)
        table = table_for(parsed, report.path)
        if table is None:
            return
        records = hand_records(table, parsed)
    with collector_paused():
        watch = InvariantWatch(table)
        for index, record in enumerate(records):
            watch.hand(record, report.hands[index] if index < len(report.hands) else None)
        watch.finish(report)


class _Hand(NamedTuple):
    """What is reported of one hand's laws once decided (its facts are not kept)."""

    number: int
    span: Span  # where a note about the whole hand points
    laws: list[Law]  # decided, their formulas dropped
    holdings: object  # the holdings-exist verdict (referee.proofs.partial.Verdict), or None


class InvariantWatch(Watch):
    """The invariants of one log as its replay goes (a :class:`referee.judge.stream.Watch`):
    each hand's laws written when the hand is replayed, decided a batch of ``batch`` hands
    at a time, and reported into the concluded report (in the order of the hands)."""

    def __init__(self, table: Table, batch: int = BATCH_HANDS) -> None:
        self.table, self.size = table, batch
        self.sheet = Sheet(table)
        self.waiting: list[tuple[HandFacts, list[Law]]] = []  # written, not yet decided
        self.decided: list[_Hand] = []

    def hand(self, record: HandRecord, summary: HandSummary | None) -> None:
        facts = gather(self.table, record)
        self.waiting.append((facts, hand_laws(self.table, facts, summary, self.sheet)))
        if len(self.waiting) >= self.size:
            self._decide()

    def _decide(self) -> None:
        hands, self.waiting = self.waiting, []
        prover = _prover()
        try:
            prover.decide([laws for _, laws in hands])
        except BaseException:
            _LOCAL.prover = None  # the next log gets a fresh solver, not one left half-way
            raise
        table = self.table
        for facts, laws in hands:
            holdings = None
            if facts.prefix and not all(facts.holding_known(s) for s in range(table.size)):
                from referee.proofs.partial import check_hand

                holdings = check_hand(table, facts)
            for law in laws:
                law.groups = []
            self.decided.append(_Hand(facts.number, _hand_span(facts), laws, holdings))

    def finish(self, report: Report) -> None:
        if self.waiting:
            self._decide()
        if report.unreadable is not None or not report.players:
            return
        for hand in self.decided:
            for law in hand.laws:
                _record(report, law, hand)
            if hand.holdings is not None:
                _holdings_exist(report, hand, hand.holdings)
        report.diagnostics.sort(key=lambda d: (d.line, d.column))


# -- z3 ---------------------------------------------------------------------------------------
_LOCAL = threading.local()


def _prover() -> _Prover:
    """The thread's prover, kept from log to log so that its solver reads each definition
    once; each thread has its own z3 context, as z3 contexts are not thread-safe."""
    prover = getattr(_LOCAL, "prover", None)
    if prover is None:
        prover = _LOCAL.prover = _Prover()
    return prover


class _Prover:
    """Each check is ``push``, one self-contained assertion, ``pop``; only the definitions
    (:data:`DEFINITIONS`) stay in the solver."""

    def __init__(self) -> None:
        import z3

        self.z3 = z3
        self.solver = z3.Solver(ctx=z3.Context())
        # a hostile log cannot hold the referee: past the budget z3 answers "unknown"
        self.solver.set("timeout", PROVER_TIMEOUT_MS)
        self.defined = 0  # how many of DEFINITIONS (which only grow) the solver has read

    def _check(self, formulas) -> object:
        if self.defined < len(DEFINITIONS):  # outside push: they stay for the next checks
            known = list(DEFINITIONS.values())
            self.solver.from_string(" ".join(known[self.defined:]))
            self.defined = len(known)
        self.solver.push()
        try:
            self.solver.from_string("(assert (not (and " + " ".join(formulas) + " true)))")
            return self.solver.check()
        finally:
            self.solver.pop()

    def refutable(self, formulas: list[str]) -> bool | None:
        """True when z3 finds a model of the negation (some formula can be false), False when
        it proves there is none, None when it gave no answer within the time budget."""
        answer = self._check(formulas)
        return True if answer == self.z3.sat else False if answer == self.z3.unsat else None

    def decide(self, hands: list[list[Law]]) -> None:
        """Set the status of every law of every hand (and the failures of a violated law)."""
        together, alone = [], []
        for laws in hands:
            open_laws = [law for law in laws if law.status is None and law.groups]
            for law in laws:
                if law.status is None and not law.groups:
                    law.status = "skipped"
            if open_laws and not _within_size(open_laws):
                continue
            if open_laws:
                ground = all(g.ground for law in open_laws for g in law.groups)
                (together if ground else alone).append(open_laws)
        # the log's quantifier-free laws at once; any doubt, and each hand is asked on its own
        atoms = dict.fromkeys(a for laws in together for law in laws for g in law.groups
                              for a in g.atoms)
        if together and self._check(list(atoms)) == self.z3.unsat:
            for laws in together:
                for law in laws:
                    law.status = "proved"
        else:
            alone += together
        for open_laws in alone:
            self._decide_hand(open_laws)

    def _decide_hand(self, open_laws: list[Law]) -> None:
        answer = self.refutable([g.smt for law in open_laws for g in law.groups])
        if answer is not True:
            for law in open_laws:
                _settle(law, "proved" if answer is False else None)
            return
        for law in open_laws:  # something fails: find which law and which instances
            answer = self.refutable([g.smt for g in law.groups])
            if answer is not True:
                _settle(law, "proved" if answer is False else None)
                continue
            for group in law.groups:
                if self.refutable([group.smt]):
                    law.failures += [i for i in group.expand() if self.refutable([i.smt])]
            # a counterexample exists, but if no instance was refuted within the budget there
            # is no evidence to show: say so rather than report a violation without one
            _settle(law, "violated" if law.failures else None)


def _settle(law: Law, status: str | None) -> None:
    """Set a law's status; None: z3 ran out of time, the law is undecided."""
    if status is None:
        law.status, law.detail = codes.UNDECIDED, time_detail(PROVER_TIMEOUT_MS)
    else:
        law.status = status


def _within_size(open_laws: list[Law]) -> bool:
    """False (and the laws undecided) when one hand's laws are too large to send to z3."""
    size = sum(len(a) for law in open_laws for g in law.groups for a in g.atoms)
    if size <= PROVER_MAX_CHARS:
        return True
    for law in open_laws:
        law.status = codes.UNDECIDED
        law.detail = size_detail(msg("formula characters"), size, PROVER_MAX_CHARS)
    return False


# -- results ----------------------------------------------------------------------------------
def _hand_span(facts: HandFacts) -> Span:
    """Where a note about a whole hand points: its ``hand`` line, else its first statement."""
    record = facts.record
    if record.span is not None:
        return record.span
    return facts.tricks[0].span if facts.tricks else Span.point(1, 1)


def _note(report: Report, facts: _Hand, name: str, detail: str) -> None:
    report.diagnostics.append(undecided(
        # TRANSLATORS: {law} is a law's name (cards-dealt, score-sum, ...), {detail} why
        facts.span, msg("{law} is undecided in hand {hand}: {detail}", law=name,
                        hand=facts.number, detail=detail), hand=facts.number))
    report.invariants.append({"name": name, "hand": facts.number, "status": codes.UNDECIDED,
                              "detail": detail})


# faults of a hand's holdings: every law of that hand reads the holdings as written
_HOLDING_FAULTS = (codes.BAD_DEAL, codes.BAD_PASS)


def _record(report: Report, law: Law, facts: _Hand) -> None:
    hand = facts.number
    status = law.status or "skipped"
    detail = law.detail
    if status == codes.UNDECIDED:
        _note(report, facts, law.name, detail)
        return
    if status == "proved" and law.partial:
        status = "skipped"
    if status == "violated":
        first = law.failures[0]
        detail = first.say
        if len(law.failures) > 1:
            # TRANSLATORS: {failure} is one instance of a broken law, {more} how many others
            detail = msg("{failure} (and {more} more)", failure=first.say,
                         more=len(law.failures) - 1)
        if any((d.line == first.span.line and d.kind != codes.INVARIANT)
               or (d.hand == hand and d.kind in _HOLDING_FAULTS)
               or (d.hand == hand and d.kind == codes.SCORE_MISMATCH and law.name == "totals")
               for d in report.diagnostics):
            # the replay already reported a fault on this line, or a deal, kitty or pass of
            # this hand that the laws read as written, or a score of this hand that the totals
            # law adds up as written: the law's failure is its consequence, recorded in
            # report.invariants but not reported a second time
            report.invariants.append({"name": law.name, "hand": hand, "status": status,
                                      "detail": detail})
            return
        report.diagnostics.append(make(
            # TRANSLATORS: {law} is a law's name (cards-dealt, score-sum, ...)
            codes.INVARIANT, first.span, msg("{law} is violated in hand {hand}: {detail}",
                                             law=law.name, hand=hand, detail=detail),
            rule=law.clause, hand=hand, related=first.related))
    report.invariants.append({"name": law.name, "hand": hand, "status": status,
                              "detail": detail})


def _holdings_exist(report: Report, facts: _Hand, verdict) -> None:
    if verdict.undecided:
        _note(report, facts, "holdings-exist", verdict.detail)
        return
    if verdict.conflict is None:
        report.invariants.append({
            "name": "holdings-exist", "hand": facts.number,
            "status": "proved" if verdict.consistent else "skipped", "detail": verdict.detail})
        return
    conflict = verdict.conflict
    already = [d for d in report.diagnostics if d.kind in PLAY_KINDS and d.line in conflict.lines]
    detail = conflict.message
    if already:
        detail = msg("{conflict} (already reported on line {line})", conflict=detail,
                     line=already[0].line)
    else:
        report.diagnostics.append(conflict.to_diagnostic())
    report.invariants.append({"name": "holdings-exist", "hand": facts.number,
                              "status": "violated", "detail": detail})
