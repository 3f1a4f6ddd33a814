"""This module runs ``referee audit``: it finds the fewest entries of a scoresheet to correct
(spec/verification.md).

A correction makes the sheet satisfy R7.2, R7.4 and R8.  A sheet is read a block at a time and
put to the audit a hand at a time, in a child process held to a time and memory budget
(:func:`bounded`).  The answer comes from :mod:`.sheet_search` when :mod:`.sheet_exact` or z3
shows that no smaller correction exists, else from :mod:`.audit_z3`.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypeVar

from referee.judge.hand_record import HandRecord, Unread
from referee.judge.scoring import explain, loss_possible, sum_fact
from referee.judge.setup import hands_of, setup_table
from referee.judge.stream import Stream, add_syntax
from referee.judge.table import Findings, CheckTable
from referee.log.events import Event
from referee.log.parser import ParseResult, parse_text
from referee.log.recognise import looks_like_record
from referee.proofs import sheet_exact, sheet_search
from referee.proofs.budgets import (AUDIT_MAX_ENTRIES, AUDIT_MAX_HANDS, AUDIT_MEMORY_BYTES,
                                    AUDIT_SECONDS, size_detail)
from referee.proofs.handfacts import log_folder, seated
from referee.proofs.wording import AuditResult, Fix, fixes_of
from referee.rules import scoring
from referee.rules.options import SetAsideLast
from referee.rules.ruleset import Ruleset
from referee.util.message import msg

__all__ = ["Audit", "AuditResult", "Fix", "SheetQuestion", "audit_scoresheet", "bounded",
           "open_sheet"]

T = TypeVar("T")


def audit_scoresheet(parsed: ParseResult, rules: Ruleset, players: list[str], *,
                     max_solutions: int = 3, allow_lost: bool | None = None,
                     seconds: float = AUDIT_SECONDS) -> AuditResult:
    """Find the fewest entries whose correction makes the sheet satisfy R7.2, R7.4 and R8.

    ``allow_lost`` (default: ``set_aside_last = "nobody"``) lets a hand lose points where its
    record does not show the last trick won; among equally small corrections those that assume
    fewer lost points come first."""
    table = CheckTable(rules, list(players), Findings())
    question = SheetQuestion(table, parsed.events, allow_lost)
    return question.answer(max_solutions, seconds)


class _Lines(NamedTuple):
    number: int
    score: object
    total: object
    may_lose: bool


class SheetQuestion:
    """A SheetQuestion puts the audit's question a hand at a time; past the size budgets only
    the counts and the facts of hands no play could give go on, and it asks no question."""

    def __init__(self, table: CheckTable, events=(), allow_lost: bool | None = None) -> None:
        rules = table.rules
        self.table = table
        if allow_lost is None:
            allow_lost = rules.set_aside_last == SetAsideLast.NOBODY
        self.allow_lost = allow_lost
        self.result = AuditResult(True, [], rules)
        self.written = 0  # entries written, counted past the size budgets too
        self.held: list[_Lines] | None = []  # None past the size budgets
        for record, _claims in hands_of(table, events):
            if record is not None:
                self.add(record)

    def add(self, record: HandRecord) -> None:
        if record.score is None and record.total is None:
            return
        table, result, allow_lost = self.table, self.result, self.allow_lost
        result.hands += 1
        may_lose, why = loss_possible(table, record)
        values = _row(table, record.score)
        max_lost = table.rules.points_per_hand if may_lose and allow_lost else 0
        # note a score line as written that no play could give (a clean-hand pool shares the
        # points, so no line alone is judged there)
        if (scoring.has_score_law(table.rules) and None not in values
                and explain(table.rules, values, max_lost) is None):
            why = why if not may_lose else "" if allow_lost else msg("the audit assumes none lost")
            result.facts.append(sum_fact(table.rules, record.number, values, why))
        self.written += sum(1 for line in (record.score, record.total) for _ in seated(table, line))
        if self.held is not None and self._oversize():
            self.held = None  # not asked: only the counts and the facts go on
        if self.held is not None:
            self.held.append(_Lines(record.number, record.score, record.total,
                                    allow_lost and may_lose))

    def _oversize(self) -> str:
        """Name the size budget the sheet so far exceeds (z3 would not answer in time), or
        return ""."""
        if self.written > AUDIT_MAX_ENTRIES:
            return size_detail(msg("written entries"), self.written, AUDIT_MAX_ENTRIES)
        if self.result.hands > AUDIT_MAX_HANDS:
            # TRANSLATORS: the hands of a sheet that have a score or total line, counted
            return size_detail(msg("hands"), self.result.hands, AUDIT_MAX_HANDS)
        return ""

    def answer(self, max_solutions: int = 3, seconds: float = AUDIT_SECONDS) -> AuditResult:
        """Audit the hands added; answer undecided past ``seconds`` or the memory budget."""
        result, held = self.result, self.held
        if not result.hands:
            return result
        oversize = self._oversize()
        if oversize or held is None:
            result.consistent = False
            result.cut_short = oversize
            return result
        if not self.written:
            return result  # nothing written that the audit reads: consistent
        deadline = time.monotonic() + seconds
        return bounded(lambda: self._decided(held, max_solutions, deadline, seconds),
                       lambda: self.undecided(seconds), seconds)

    def undecided(self, seconds: float) -> AuditResult:
        self.result.consistent = False
        self.result.undecided = seconds
        return self.result

    def _decided(self, held: list[_Lines], max_solutions: int, deadline: float,
                 seconds: float) -> AuditResult:
        result = self.result
        # the search answers a sheet of 100 entries with three slips in about a second, where
        # z3's optimizer gives no answer within 20 s: z3 answers only what the search leaves
        try:
            found, more = sheet_search.search(self.table.rules, self.table.rules.start_total,
                                              *self._rows(held), max_solutions)
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

    def _smallest(self, held: list[_Lines], found: sheet_search.Found, deadline: float) -> bool:
        """Tell whether the search's correction is the smallest: the branch and bound (within
        half the time left, where no points are lost) or else z3 finds none smaller."""
        if not found.changes:
            return True
        rules = self.table.rules
        # the branch and bound decides such sheets 4 to 15 times sooner than z3's question,
        # and 250 hands with six slips that z3 does not decide within 10 s
        if not any(found.lost):
            left = deadline - time.monotonic()
            fewer = sheet_exact.fewer_exists(rules, rules.start_total, *self._rows(held),
                                             found.changes, time.monotonic() + left / 2)
            if fewer is False:
                return True
        from referee.proofs.audit_z3 import smaller_exists

        return smaller_exists(self, held, found.changes, sum(found.lost), deadline) is False


def _row(table: CheckTable, line) -> list[int | None]:
    values: list[int | None] = [None] * table.size
    for seat, entry in seated(table, line):
        values[seat] = entry.value
    return values


def _described(table: CheckTable, held: list[_Lines], found: list, more: bool,
               result: AuditResult) -> None:
    if not found:  # cannot happen: any entry may change
        result.consistent = False
        return
    first = found[0]
    result.changes = first.changes
    result.consistent = first.changes == 0
    result.lost = {hand.number: lost for hand, lost in zip(held, first.lost) if lost}
    result.moons = [hand.number for hand, moon in zip(held, first.moons) if moon]
    if not first.changes:
        return
    result.more = more
    result.suggestions += [fixes_of(table, held, correction.scores) for correction in found]


# -- the sheet read a block at a time -----------------------------------------------------
class Audit(NamedTuple):
    """An Audit holds the setup (None without a Players tag), its diagnostics, and the audit
    (None without a setup)."""

    table: CheckTable | None
    findings: Findings
    result: AuditResult | None


class SheetLog:
    """A SheetLog holds a log opened for the audit (:func:`open_sheet`); :meth:`audit` reads
    the rest."""

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.base_dir: Path | None = log_folder(path)
        self._parsed: ParseResult | None = None
        self._stream: Stream | None = None
        self._setup: list[Event] = []
        # the lines that cannot be read: the audit leaves them out, and says so
        self.unreadable = Findings()
        if looks_like_record(text):
            self._parsed = parse_text(text)
        else:
            self._stream = Stream(text, self.unreadable)
            self._setup = self._stream.setup_events()

    def audit(self, *, ruleset: Ruleset | None = None, allowed_dirs: tuple[str | Path, ...] = (),
              max_solutions: int = 3, seconds: float = AUDIT_SECONDS) -> Audit:
        """Set the log up (``ruleset``, else the one the log names) and audit its hands."""
        stream = self._stream
        if stream is not None:
            setup, self._setup = self._setup, []
            # leave its unreadable lines out, as the whole parse does
            events = (item for item in stream.statements() if not isinstance(item, Unread))
            table, findings, question = self._asked(setup, events, ruleset, allowed_dirs)
            if table is None:
                stream.drain()
        # read a record, or a stream whose reading differs from the whole file's (nothing was
        # asked yet), as the whole file at once
        if stream is None or not stream.exact:
            if self._parsed is None:
                self._parsed = parse_text(self.text)
            self.unreadable = Findings()
            add_syntax(self.unreadable, self._parsed.issues)
            events = self._parsed.events
            table, findings, question = self._asked(events, events, ruleset, allowed_dirs)
        answer = question.answer(max_solutions, seconds) if question is not None else None
        return Audit(table, findings, answer)

    def _asked(self, setup: list[Event], events, ruleset: Ruleset | None,
               allowed_dirs: tuple[str | Path, ...]
               ) -> tuple[CheckTable | None, Findings, SheetQuestion | None]:
        findings = Findings()
        table = setup_table(setup, findings, self.base_dir, ruleset=ruleset,
                            allowed_dirs=allowed_dirs)
        if table is None:
            return None, findings, None
        fresh = CheckTable(table.rules, list(table.names), Findings())
        return table, findings, SheetQuestion(fresh, events)


def open_sheet(text: str, path: str) -> SheetLog:
    """Open the decoded log ``text`` of the file ``path`` for the audit; raise UnreadableLog,
    as :func:`referee.log.parser.parse_text` does, when it is not a log."""
    return SheetLog(text, path)


# -- the budget of time and memory --------------------------------------------------------
def bounded(work: Callable[[], T], undecided: Callable[[], T], seconds: float) -> T:
    """Return ``work()`` when it returns within ``seconds`` and the memory budget, else
    ``undecided()``.  Run it in a forked child, killed and reaped past the budget: z3's
    optimizer does not always stop at its timeout, and no Python code can stop it.  A child
    that fails or runs out of memory gives undecided too."""
    if not hasattr(os, "fork"):  # pragma: no cover - every platform the referee runs on forks
        return work()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer, send, and leave without running the parent's exit code
        code = 1
        try:
            os.close(read)
            _limit_memory()
            data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as out:
                out.write(data)
            code = 0
        except BaseException:  # noqa: BLE001 - any failure is an undecided audit
            pass
        finally:
            os._exit(code)
    os.close(write)
    try:
        data = _received(read, time.monotonic() + seconds)
    finally:
        os.close(read)
        _stop(pid)
    if data is None:
        return undecided()
    try:
        return pickle.loads(data)
    except Exception:  # noqa: BLE001 - a child killed while writing
        return undecided()


def _received(read: int, deadline: float) -> bytes | None:
    """Read everything the child writes before it closes the pipe; return None past
    ``deadline``."""
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([read], [], [], left)
        if not ready:
            return None
        chunk = os.read(read, 1 << 20)
        if not chunk:
            return b"".join(chunks) if chunks else None
        chunks.append(chunk)


def _stop(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)  # a child that has exited is a zombie until reaped
    except ProcessLookupError:  # pragma: no cover - reaped by someone else
        return
    os.waitpid(pid, 0)


def _limit_memory() -> None:
    """Limit the child's address space to what it maps now plus the audit's budget."""
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = mapped + AUDIT_MEMORY_BYTES
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):  # no /proc: the time budget still holds
        pass
