"""This module runs a program under test as a process with bounded lines and bounded time, and
always reaps it.

Each program runs in its own process group (a new session), so that :meth:`Program.close`
kills whatever it started too, and a Ctrl-C at the terminal reaches the referee only, which
then closes every program.  What a program starts in a session of its own escapes the group;
under :func:`adopting_orphans` (Linux) it is adopted here once its parent dies, and killed by
the mark it inherits in its environment. Reads and writes never block past their deadline: a program that
stops reading its input, writes an endless line or never answers is a fault, not a hang.
"""

from __future__ import annotations

import ctypes
import itertools
import json
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from contextlib import contextmanager, suppress

MAX_LINE = 64 * 1024  # bytes of one message from a program (spec/protocol.md)
CLOSE_GRACE = 0.5  # seconds a program has to exit by itself once its input is closed
MARK = "REFEREE_PROGRAM"  # set in each program's environment, inherited by all it starts
PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37  # prctl(2)
_serial = itertools.count()


class ProgramFault(Exception):
    """ProgramFault says that a program broke the protocol; ``reason`` is one of spec/protocol.md's
    fault reasons."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


class Processes:
    """Processes holds every program running for a match, so that an interrupt can kill them all
    at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: set[Program] = set()
        self.adopting = False  # under adopting_orphans: each close kills its program's escapes

    def add(self, program: Program) -> None:
        with self._lock:
            self._live.add(program)

    def discard(self, program: Program) -> None:
        with self._lock:
            self._live.discard(program)

    def kill_all(self) -> None:
        """Kill every live program's process group; each game's own close() reaps it."""
        with self._lock:
            live = list(self._live)
        for program in live:
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(program.process.pid, signal.SIGKILL)


class Program:
    """A Program is one running program, which the referee speaks to one JSON object per line."""

    def __init__(self, command: Sequence[str], *, cwd: str | None = None,
                 registry: Processes | None = None):
        self.command = list(command)
        self.mark = f"{os.getpid()}-{next(_serial)}"
        try:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, cwd=cwd, start_new_session=True, bufsize=0,
                env={**os.environ, MARK: self.mark})
        except OSError as err:
            raise ProgramFault("crashed", f"cannot start {self.command[0]!r}: "
                                          f"{err.strerror or err}") from None
        os.set_blocking(self.process.stdin.fileno(), False)
        os.set_blocking(self.process.stdout.fileno(), False)
        self._buffer = bytearray()
        self._pending: list[bytes] = []  # messages posted, written with the next one sent
        self._selector = selectors.DefaultSelector()
        self.closed = False
        self.registry = registry
        if registry is not None:
            registry.add(self)

    def post(self, line: bytes) -> None:
        """Queue an encoded message (:func:`encoded`) that asks for no answer; :meth:`send`
        writes it with the next message sent, so a card played costs each program no write of
        its own."""
        self._pending.append(line)

    def send(self, message: dict, timeout: float) -> None:
        """Write the queued messages and ``message``, one line each, within ``timeout`` seconds."""
        self._pending.append(encoded(message))
        data = b"".join(self._pending)
        self._pending.clear()
        deadline = time.monotonic() + timeout
        fd = self.process.stdin.fileno()
        view = memoryview(data)
        while view:
            try:
                written = os.write(fd, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError, ValueError):
                raise self._gone("stopped reading its input") from None
            view = view[written:]
            if view and not self._wait(fd, selectors.EVENT_WRITE, deadline):
                raise ProgramFault("timeout", f"did not read its input within {timeout:g} s")

    def receive(self, timeout: float) -> dict:
        """Read the next line, as a JSON object, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                return _decoded(line)
            if len(self._buffer) > MAX_LINE:
                raise ProgramFault("oversized", f"wrote a line longer than {MAX_LINE // 1024} KiB")
            if not self._wait(fd, selectors.EVENT_READ, deadline):
                raise ProgramFault("timeout", f"no answer within {timeout:g} s")
            try:
                chunk = os.read(fd, MAX_LINE + 1)
            except BlockingIOError:
                continue
            if not chunk:
                raise self._gone("closed its output")
            self._buffer += chunk

    def ask(self, message: dict, answer: str, timeout: float) -> dict:
        """Send ``message`` and return the answer, which must be of type ``answer``."""
        self.send(message, timeout)
        reply = self.receive(timeout)
        if reply.get("type") != answer:
            raise ProgramFault("malformed", f"answered {_shown(reply.get('type'))} to "
                                            f"{message['type']}, not {answer!r}")
        return reply

    def close(self) -> None:
        """Close its input, give it a moment to exit, then kill its process group; reap it."""
        if self.closed:
            return
        self.closed = True
        with suppress(OSError):
            self.process.stdin.close()
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(CLOSE_GRACE)
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process.stdout.close()
        self._selector.close()
        if self.registry is not None:
            self.registry.discard(self)
            if self.registry.adopting:
                kill_adopted(self.mark)

    def _wait(self, fd: int, event: int, deadline: float) -> bool:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        self._selector.register(fd, event)
        try:
            return bool(self._selector.select(left))
        finally:
            self._selector.unregister(fd)

    def _gone(self, what: str) -> ProgramFault:
        try:
            code = self.process.wait(CLOSE_GRACE)
        except subprocess.TimeoutExpired:
            return ProgramFault("closed", what)
        if code == 0:
            return ProgramFault("closed", f"{what} and exited")
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return ProgramFault("crashed", f"was killed by {name}")
        return ProgramFault("crashed", f"exited with status {code}")


@contextmanager
def adopting_orphans(registry: Processes):
    """Make this process, for the block, the parent of the orphans its programs leave (Linux's
    child subreaper), and kill the adopted ones that carry a program's mark at each close and at
    the end of the block; elsewhere do nothing."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        prctl = None
    before = ctypes.c_int()
    if prctl is None or prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(before), 0, 0, 0) != 0 \
            or prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        yield
        return
    registry.adopting = True
    try:
        yield
    finally:
        registry.adopting = False
        kill_adopted()
        kill_adopted(wait=0.05)  # a grandchild is adopted only once its parent has died
        prctl(PR_SET_CHILD_SUBREAPER, before.value, 0, 0, 0)


def kill_adopted(mark: str | None = None, wait: float = 0.0) -> None:
    """Kill and reap this process's children whose environment holds ``mark`` (None: any
    program's mark), after ``wait`` seconds."""
    time.sleep(wait)
    wanted = f"{MARK}={mark}".encode() if mark else f"{MARK}=".encode()
    for pid in _children():
        try:
            with open(f"/proc/{pid}/environ", "rb") as file:
                environment = file.read().split(b"\0")
        except OSError:
            continue
        if any(item == wanted if mark else item.startswith(wanted) for item in environment):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _children() -> list[int]:
    """List this process's children (Linux's /proc/self/task/*/children)."""
    pids: list[int] = []
    with suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with suppress(OSError), open(f"/proc/self/task/{task}/children") as file:
                pids += map(int, file.read().split())
    return pids


def encoded(message: dict) -> bytes:
    """Encode a message as the line the protocol sends: compact JSON, ASCII, a newline at its
    end."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def _decoded(line: bytes) -> dict:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        raise ProgramFault("malformed", f"wrote {_shown(line[:60])}, which is not JSON") from None
    if not isinstance(value, dict):
        raise ProgramFault("malformed", f"wrote {_shown(line[:60])}, which is not a JSON object")
    return value


def _shown(value) -> str:
    """Render what a program said as short, printable text."""
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else repr(value)
    text = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)
    return repr(text[:60]) if isinstance(value, bytes) else text[:60]
