"""This module checks many files, in this process or in worker processes, and gives the reports
in input order.

Checking a file is a pure function of its path, so workers share nothing; a bounded window of
files in flight keeps memory flat.  A file that crashes or hangs a worker gets a report saying
so, and the run goes on with a fresh pool.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import chain, islice
from pathlib import Path

from referee.judge.diagnostics import Report, not_checked_report, unreadable_report
from referee.judge.table import DEFAULT_MAX_DIAGNOSTICS
from referee.rules.ruleset import Ruleset
from referee.util.message import msg, msgn
from referee.util.terminal import escaped

DEFAULT_TIMEOUT = 120.0
MAX_TIMEOUT = 7 * 24 * 3600.0  # seconds: a week; past it a timeout is no limit, and overflows
MAX_JOBS_PER_CORE = 4  # workers beyond this only wait for the cores
LOG_SUFFIXES = (".log", ".txt", ".hearts")
# found in a folder, a file of this suffix with no log line in it is someone's notes (a club
# keeps its notes beside its logs): it is passed over, not taken for an unreadable log
NOTES_SUFFIX = ".txt"
RECORD_SUFFIX = ".json"
# a record declares its format (spec/game-record.md); other JSON (expected verdicts, settings)
# in the same folders is not a game
_RECORD_MARK = re.compile(rb'"format"\s*:\s*"referee-game-record"')
_SNIFF_BYTES = 1 << 20  # the members of a record may come in any order


def files_in(directory: Path) -> list[Path]:
    """Find the files ``check DIR`` judges, sorted: every log (by suffix) under ``directory``,
    and every ``.json`` file that declares itself a game record in its first MiB."""
    return sorted(p for p in directory.rglob("*") if p.is_file() and (
        p.suffix in LOG_SUFFIXES or p.suffix == RECORD_SUFFIX and _declares_record(p)))


def _declares_record(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            head = file.read(_SNIFF_BYTES)
    except OSError:
        return True  # judged, so that check says why it cannot be read
    return _RECORD_MARK.search(head) is not None


@cache
def _no_log_line_reasons() -> frozenset[str]:
    """Ask the parser for the templates of its reasons for text with no log line (not binary,
    undecodable or too big: those stay unreadable)."""
    from referee.log.parser import SyntaxIssue, log_text, nothing_read
    from referee.log.decode import UnreadableLog

    reasons = [nothing_read(None).message, nothing_read(SyntaxIssue(1, 1, 1, 2, "")).message]
    try:
        log_text(b"")
    except UnreadableLog as err:
        reasons.append(err.message)
    return frozenset(reason.template for reason in reasons)


def passing_over(reports: Iterable[Report], notes: set[str], passed: list[str],
                 verdicts: Counter) -> Iterator[Report]:
    """Yield ``reports`` less those of the files in ``notes`` (found in a folder, maybe
    someone's notes) that hold no log line, whose paths go to ``passed``; count each verdict."""
    for report in reports:
        if report.path in notes and report.unreadable is not None and getattr(
                report.unreadable, "template", None) in _no_log_line_reasons():
            passed.append(report.path)
        else:
            verdicts[report.verdict] += 1
            yield report


def passed_over_note(passed: list[str], shown: int = 10):
    """Write the one note on the files a run passed over, naming the first ``shown``."""
    names = ", ".join(map(escaped, passed[:shown])) + (", ..." if len(passed) > shown else "")
    # TRANSLATORS: {files} is a list of file names; the files are not checked, not counted
    return msgn("passed over {n} file with no log line in it (not counted): {files}",
                "passed over {n} files with no log line in them (not counted): {files}",
                len(passed), n=len(passed), files=names)


def check_one(path: str, invariants: bool = False,
              max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS, ruleset: Ruleset | None = None,
              allowed_dirs: tuple[str, ...] = ()) -> Report:
    """Check one file (``-``: standard input) as :func:`referee.run.single.check_path` does
    (every argument pickles, for workers)."""
    from referee.run.single import check_bytes, check_path
    from referee.util.reading import UnreadableFile, read_input

    options = {"invariants": invariants, "max_diagnostics": max_diagnostics,
               "ruleset": ruleset, "allowed_dirs": allowed_dirs}
    if path != "-":
        return check_path(path, **options)
    try:
        return check_bytes(read_input(path), "<stdin>", **options)
    except UnreadableFile as err:
        return unreadable_report("<stdin>", str(err))


def in_order(items: Iterable, submit: Callable, window: int,
             pending: deque | None = None) -> Iterator[tuple[object, object]]:
    """Yield (item, ``submit(item)``) of each of ``items`` in input order, at most ``window``
    submitted ahead; ``pending`` holds those (a caller may submit them again)."""
    pending = deque() if pending is None else pending
    items = iter(items)
    while True:
        pending.extend((item, submit(item)) for item in islice(items, window - len(pending)))
        if not pending:
            return
        yield pending.popleft()


def check_many(paths: Iterable[str], *, jobs: int = 1, timeout: float = DEFAULT_TIMEOUT,
               check: Callable[[str], Report] = check_one) -> Iterator[Report]:
    """Check ``paths`` in ``jobs`` processes (never more than there are files, nor than
    :data:`MAX_JOBS_PER_CORE` per core) and yield the reports in input order."""
    jobs = min(jobs, MAX_JOBS_PER_CORE * default_jobs())
    paths = iter(paths)
    head = list(islice(paths, jobs)) if jobs > 1 else []  # (a worker per file, at most)
    jobs = min(jobs, len(head))
    paths = chain(head, paths)
    if jobs <= 1:
        for path in paths:
            try:
                yield check(path)
            except Exception as err:  # a bug must not end a bulk run; the file is reported
                yield _failed(path, err)
        return
    import signal
    from concurrent.futures.process import BrokenProcessPool

    pool, pending = _Pool(jobs, check), deque()
    # a run ended by SIGTERM stops its workers as one ended by Ctrl-C does (the default
    # handler would leave them running, orphaned)
    with handling(_exit_on_sigterm, signal.SIGTERM), contextlib.closing(pool):
        for path, future in in_order(paths, pool.submit, jobs * 4, pending):
            try:
                report = future.result(timeout=timeout)
            except BrokenProcessPool:
                # a crash fails every file in flight: find out whether it was this one, alone
                pool.restart(pending)
                report = _isolated(path, check, timeout)
            except Exception as err:
                report = _failed(path, err, timeout)
                if isinstance(err, TimeoutError):
                    pool.restart(pending)
            yield report


@contextlib.contextmanager
def handling(handler, *numbers: int):
    """Install ``handler`` for the signals ``numbers`` in the block and put the previous
    handlers back after it (in the main thread only: elsewhere nothing is installed)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        numbers = ()
    previous = [signal.signal(number, handler) for number in numbers]
    try:
        yield
    finally:
        for number, old in zip(numbers, previous):
            if old is not None:
                signal.signal(number, old)


class _Pool:
    """A _Pool holds a process pool that can be replaced when a worker crashes or hangs."""

    def __init__(self, jobs: int, check):
        from concurrent.futures import ProcessPoolExecutor

        self.jobs, self.check = jobs, check
        self.executor = ProcessPoolExecutor(max_workers=jobs)

    def submit(self, path: str):
        from concurrent.futures.process import BrokenProcessPool

        try:
            return self.executor.submit(self.check, path)
        except BrokenProcessPool:
            self.restart(deque())
            return self.executor.submit(self.check, path)

    def restart(self, pending: deque) -> None:
        """Kill the workers, start fresh ones and resubmit the files still in flight."""
        from concurrent.futures import ProcessPoolExecutor

        self.close()
        self.executor = ProcessPoolExecutor(max_workers=self.jobs)
        for index, (path, _) in enumerate(pending):
            pending[index] = (path, self.executor.submit(self.check, path))

    def close(self) -> None:
        """Kill the workers, then wait for the executor's manager thread to end (left running,
        it could outlive the pipes it is woken through, and the exit printed an ignored
        OSError)."""
        for process in list((getattr(self.executor, "_processes", None) or {}).values()):
            process.kill()
        self.executor.shutdown(wait=True, cancel_futures=True)


def _exit_on_sigterm(signum, frame):
    raise SystemExit(128 + signum)


def _isolated(path: str, check, timeout: float) -> Report:
    from concurrent.futures.process import BrokenProcessPool

    with contextlib.closing(_Pool(1, check)) as pool:
        try:
            return pool.submit(path).result(timeout=timeout)
        except BrokenProcessPool:
            return not_checked_report(path, msg("checking this file crashed a worker process"))
        except Exception as err:
            return _failed(path, err, timeout)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)


def _failed(path: str, err: Exception, timeout: float | None = None) -> Report:
    """Make the report of a file a worker did not check within ``timeout`` or failed on."""
    if timeout is not None and isinstance(err, TimeoutError):
        return not_checked_report(path, _timed_out(timeout))
    # TRANSLATORS: {error} is a Python exception as the program shows it (ValueError('...'))
    return not_checked_report(path, msg("internal error while checking this file: {error}",
                                        error=repr(err)))


def _timed_out(timeout: float):
    return msg("checking this file took longer than {seconds:g} s", seconds=timeout)
