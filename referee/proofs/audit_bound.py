"""The audit's answer within a budget of time and memory that is really kept.

z3's optimizer does not always stop at the timeout it is given, and no Python code can stop
a solver that does not return; so the answer is worked out in a child process (a fork of
this one, which holds the sheet's question already), whose address space is limited to
what it holds plus :data:`referee.proofs.budgets.AUDIT_MEMORY_BYTES`.  The parent waits at
most the budget's seconds for the pickled answer; past it the child is killed and reaped,
and the answer says that the audit was not decided within that time.  A child that runs
out of memory or fails is an undecided audit too, never a half-found correction.

Where a process cannot fork, the answer is worked out in this process with z3's own time
budget only.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from typing import TypeVar

from referee.proofs.budgets import AUDIT_MEMORY_BYTES

__all__ = ["bounded"]

T = TypeVar("T")


def bounded(work: Callable[[], T], undecided: Callable[[], T], seconds: float) -> T:
    """``work()`` when it returns within ``seconds`` and the memory budget, else
    ``undecided()``."""
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
    """Everything the child writes before it closes the pipe, or None past ``deadline``."""
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
    """Kill the child if it still runs, and reap it."""
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
