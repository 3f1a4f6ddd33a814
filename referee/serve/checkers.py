"""This module runs the checker processes and their jobs: check a log, make its report page,
audit its score sheet, each on the log's bytes (read with no folder: it may name a bundled
ruleset only), returning plain values.  A job past its time limit cannot be interrupted inside
Python, so the module kills its process and a fresh one takes its place; a checker whose server
dies reads the end of its pipe and ends too.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
from multiprocessing.connection import Connection

from referee.rules.ruleset import Ruleset

WARM_SECONDS = 60.0
LABEL = "<log>"  # a label that names no folder: nothing is looked for beside it


def warm() -> None:
    """Import what the jobs use, so that the first request waits for no import."""
    for module in ("referee.output.html", "referee.proofs.audit", "referee.run.single"):
        importlib.import_module(module)


def bundled(name: str) -> Ruleset | None:
    """Return the bundled ruleset ``name`` (checked again before any loading), or None for the
    log's own choice."""
    from referee.rules.ruleset import load_ruleset
    from referee.rules.ruleset_files import bundled_names

    if name and name not in bundled_names():
        raise ValueError(name)
    return load_ruleset(name) if name else None


def check(data: bytes, language: str, ruleset: str) -> dict:
    """Check one log and return its verdict, a one-line summary, and the rest as ``check
    --format json`` has it."""
    from referee.output.render import more_diagnostics, report_json, verdict_text, violations
    from referee.run.single import check_bytes

    report = check_bytes(data, LABEL, base_dir=None, ruleset=bundled(ruleset))
    document = report_json(report, language)
    return {"verdict": report.verdict,
            "summary": verdict_text(report.verdict, violations(report), language),
            "diagnostics": document["diagnostics"], "error": document["error"],
            "more": [more_diagnostics(kind, left, language)
                     for kind, left in report.suppressed.items()]}


def report(data: bytes, language: str, ruleset: str, name: str = LABEL
           ) -> tuple[str, str | None]:
    """Make the report page and return (the report page, None), or (why the bytes are not a
    log, the reason's place).  ``name`` is the log's name on the page, and nothing else."""
    from referee.log.decode import UnreadableLog
    from referee.output.html import render_html, report_view
    from referee.output.render import reason_in

    try:
        view, _verdict = report_view(data, name, base_dir=None, ruleset=bundled(ruleset),
                                     language=language)
    except UnreadableLog as problem:
        return reason_in(problem, language), f"{problem.line}:{problem.column}"
    return render_html(view, language), None


def audit(data: bytes, language: str, ruleset: str) -> dict:
    """Audit a score sheet and return its answer's text, whether the sheet is consistent, and
    the setup faults it assumed past (each ``line:column: message``)."""
    from referee.judge import codes
    from referee.log.decode import UnreadableLog
    from referee.log.parser import log_text
    from referee.output.render import localized_diagnostic, reason_in
    from referee.proofs.audit import open_sheet
    from referee.util.i18n import translate
    from referee.util.message import msg

    try:
        sheet = open_sheet(log_text(data), LABEL)
    except UnreadableLog as problem:
        return {"text": reason_in(problem, language), "consistent": False,
                "faults": [], "readable": False}
    found = sheet.audit(ruleset=bundled(ruleset), max_solutions=2)
    faults = sorted((d for d in found.findings.items if d.kind == codes.BAD_SETUP),
                    key=lambda d: (d.line, d.column))
    lines = [f"{d.line}:{d.column}: {localized_diagnostic(d, language).message}" for d in faults]
    if found.table is None or found.result is None:
        return {"text": translate(msg("the log has no Players tag"), language),
                "consistent": False, "faults": lines, "readable": True}
    return {"text": translate(found.result.text(), language), "readable": True,
            "consistent": bool(found.result.consistent and not faults), "faults": lines}


JOBS = {"check": check, "report": report, "audit": audit, "warm": warm}


class Overrun(Exception):
    """Overrun says that a job ran past its time limit (its checker was replaced)."""


class Busy(Exception):
    """Busy says that no checker became free in time, or that too many requests wait for one
    already."""


def _serve(conn: Connection) -> None:
    """Run a checker's loop: take a job in, send its answer out, until the server's end
    closes."""
    while True:
        try:
            name, args = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            answer = ("ok", JOBS[name](*args))
        except Exception as failure:  # noqa: BLE001 - said to the server, which answers 500
            answer = ("failed", f"{type(failure).__name__}: {failure}")
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


class Checker:
    """A Checker holds one checker process and the server's end of its pipe."""

    def __init__(self, context) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True,
                                       name="referee-checker")
        self.process.start()
        child.close()

    def run(self, name: str, args: tuple, seconds: float):
        """Run the job and return its answer; raise Overrun past ``seconds`` (the process is then
        killed)."""
        try:
            self.conn.send((name, args))
            if self.conn.poll(seconds):
                return self.conn.recv()
        except (EOFError, OSError):  # the process died (out of memory, killed)
            pass
        self.stop()
        raise Overrun(name)

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class Checkers:
    """Checkers holds ``size`` checker processes; :meth:`run` waits for a free one (at most
    ``wait`` seconds, behind at most ``queue`` other requests) and gives it the job."""

    def __init__(self, size: int, wait: float, queue: int = 64) -> None:
        self.size, self.wait, self.queue = size, wait, queue
        self.waiting = 0
        self.context = multiprocessing.get_context("spawn")
        self.free: asyncio.Queue[Checker] | None = None
        self.all: list[Checker] = []
        self.pending: set[asyncio.Future] = set()

    async def start(self) -> None:
        self.free = asyncio.Queue()
        started = await asyncio.gather(*(asyncio.to_thread(Checker, self.context)
                                         for _ in range(self.size)))
        self.all = list(started)
        for checker in started:
            self.free.put_nowait(checker)
        await asyncio.gather(*(self.run("warm", (), WARM_SECONDS) for _ in started),
                             return_exceptions=True)

    async def run(self, name: str, args: tuple, seconds: float):
        """Run job ``name`` and return its answer; raise Busy, Overrun, or RuntimeError when the
        job failed."""
        assert self.free is not None, "the checkers are not started"
        if self.waiting >= self.queue:
            raise Busy(name)
        self.waiting += 1
        try:
            checker = await asyncio.wait_for(self.free.get(), self.wait)
        except TimeoutError:
            raise Busy(name) from None
        finally:
            self.waiting -= 1
        work = asyncio.ensure_future(asyncio.to_thread(checker.run, name, args, seconds))
        # the checker is free once it has answered, even when the request is gone before
        work.add_done_callback(lambda done: self._release(checker, done))
        status, answer = await asyncio.shield(work)
        if status != "ok":
            raise RuntimeError(answer)
        return answer

    def _release(self, checker: Checker, done: asyncio.Future) -> None:
        """Make ``checker`` free again; replace one that was killed in the background (the
        answer that killed it does not wait for that)."""
        assert self.free is not None
        if not done.cancelled():
            done.exception()  # retrieved: an overrun after its request left says nothing
        if checker.process.is_alive() and not checker.conn.closed:
            self.free.put_nowait(checker)
            return
        if checker in self.all:
            self.all.remove(checker)
        task = asyncio.ensure_future(self._replace(checker))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _replace(self, dead: Checker) -> None:
        await asyncio.to_thread(dead.stop)
        fresh = await asyncio.to_thread(Checker, self.context)
        self.all.append(fresh)
        try:
            await asyncio.to_thread(fresh.run, "warm", (), WARM_SECONDS)
        except Overrun:
            pass  # a checker that cannot even import is replaced after its first job
        assert self.free is not None
        self.free.put_nowait(fresh)

    async def stop(self) -> None:
        for task in list(self.pending):
            task.cancel()
        await asyncio.gather(*self.pending, return_exceptions=True)
        for checker in self.all:
            await asyncio.to_thread(checker.stop)
        self.all = []
