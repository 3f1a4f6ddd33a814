"""The written game log -> events.

``parse_log(text)`` reads a whole log with the LALR grammar ``grammars/log.lark`` (shipped as
``referee.grammars``) and returns the events of every readable line plus one
:class:`SyntaxIssue` for every unreadable one; it never raises.  ``parse_bytes`` first decodes
(``decode_log``) and raises :class:`UnreadableLog` only for input that is not a log at all.

How it goes fast: the grammar's terminals are coarse (a statement head such as ``trick 12:``
is one token, so is the rest of the line with all the plays of the trick), no parse tree is
built (the rule callbacks of :mod:`referee.logbuild` run inside the LALR parser and append
events to a list), and the pieces of a coarse token are cut up by :mod:`referee.logbody`.
The common lines skip even Lark's lexer and parser: :mod:`referee.logfast` matches them
with the grammar's own terminals and calls the same callbacks; the other lines (tags,
comments, anything unusual or malformed) are parsed by Lark, a run of lines at a time.
How it recovers: when the parser rejects a line, the line is diagnosed on its own
(:mod:`referee.logerrors`) and parsing restarts at the next line with a fresh parser reading
the same string, so the cost of an error is the cost of its line.

Relies on Lark >= 1.2 (``TextSlice``; the lexer state of an interactive parser is replaced
to start at any line without copying the text or recounting its lines).
"""

from __future__ import annotations

import gc
import threading
from dataclasses import dataclass
from functools import partial
from importlib import resources
from pathlib import Path

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedInput
from lark.lexer import LexerState, LineCounter
from lark.utils import TextSlice

from . import logbody
from .events import Comment, Event
from .logbuild import EventBuilder, TooManyProblems
from .logerrors import diagnose
from .logfast import LineReader

__all__ = [
    "SyntaxIssue", "ParseResult", "UnreadableLog", "decode_log", "parse_log", "parse_bytes",
    "split_players", "MAX_LINE",
]

MAX_LINE = 4096  # characters; longer lines are reported and skipped unread
MAX_ISSUES = 1000  # after this many unreadable lines the rest of the input is not read


@dataclass(frozen=True, slots=True)
class SyntaxIssue:
    """One unreadable line; becomes a ``syntax`` diagnostic.  1-based, columns in characters."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    hint: str | None = None


@dataclass(frozen=True, slots=True)
class ParseResult:
    events: tuple[Event, ...]
    issues: tuple[SyntaxIssue, ...]
    text: str  # the decoded, newline-normalised text (for caret excerpts)


class UnreadableLog(Exception):
    """The input cannot be read as a log at all (binary, not UTF-8, empty, nothing log-like)."""

    def __init__(self, message: str, line: int = 1, column: int = 1):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


# ---- decoding ------------------------------------------------------------------------------
def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and character column of byte ``offset`` (the bytes before it are UTF-8)."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
    return line, column


def decode_log(data: bytes) -> str:
    """UTF-8 bytes -> text: BOM stripped, CRLF and CR turned into LF.

    Raises UnreadableLog for a binary file (NUL bytes), UTF-16 text or invalid UTF-8, with the
    line and column of the first offending byte.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UnreadableLog("the file is UTF-16 text; save the log as UTF-8", 1, 1)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    nul = data.find(b"\x00")
    if nul >= 0:
        line, column = _position(data, nul)
        raise UnreadableLog("this is a binary file, not a text log (it contains NUL bytes)", line, column)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, column = _position(data, err.start)
        raise UnreadableLog(
            f"the file is not UTF-8 text: byte 0x{data[err.start]:02x} cannot be read; save the log as UTF-8",
            line, column,
        ) from None
    return _normalise(text)


def _normalise(text: str) -> str:
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


# ---- the grammar ---------------------------------------------------------------------------
def grammar_text() -> str:
    """The text of grammars/log.lark, from the installed package or the source checkout."""
    try:
        return resources.files("referee.grammars").joinpath("log.lark").read_text("utf-8")
    except ModuleNotFoundError:  # running from a source checkout that is not installed
        return (Path(__file__).resolve().parent.parent / "grammars" / "log.lark").read_text("utf-8")


_LOCK = threading.RLock()
_STATE: dict[str, object] = {}


def _cache_file() -> str | bool:
    """A private cache file for the parser tables, or False when there is no safe place."""
    import hashlib
    import os

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "referee")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.stat(folder)
        if info.st_uid != os.getuid() or info.st_mode & 0o022:
            return False
    except (OSError, AttributeError):
        return False
    import lark as lark_module

    key = hashlib.sha256((grammar_text() + lark_module.__version__).encode("utf-8")).hexdigest()
    return os.path.join(folder, f"log-grammar-{key[:16]}.lark-cache")


def _parser() -> tuple[Lark, EventBuilder]:
    """The process-wide Lark parser (built on first use) and its rule callbacks.

    Building the LALR tables takes about 35 ms, a large part of a one-file check's cold
    start, so they are cached (Lark ``cache=``, keyed by grammar and Lark version) in a
    directory only this user can write: never in a shared temporary directory, since Lark
    caches are pickles.  Without such a directory the tables are simply built.
    """
    built = _STATE.get("parser")
    if built is None:
        builder = EventBuilder(MAX_ISSUES)
        lark = Lark(grammar_text(), parser="lalr", lexer="contextual", start=["start", "line"],
                    transformer=builder, maybe_placeholders=True, cache=_cache_file())
        builder.use_grammar(lark)
        built = _STATE["parser"] = (lark, builder)
    return built  # type: ignore[return-value]


# Compiling the line reader's expression takes about 3 ms, what Lark takes to read some 200
# lines, so a process that has only read short logs (a one-file check) does without.
FAST_READER_LINES = 200


def _line_reader() -> LineReader:
    """The process-wide fast line reader (logfast.py), built on first use."""
    reader = _STATE.get("reader")
    if reader is None:
        reader = _STATE["reader"] = LineReader(*_parser())
    return reader  # type: ignore[return-value]


# ---- parsing -------------------------------------------------------------------------------
def _segments(text: str):
    """Yield ("text", start, end, line) for runs of lines and ("long", start, end, line) for
    lines longer than MAX_LINE, in order.  Linear: jumps MAX_LINE characters at a time."""
    n = len(text)
    pos = seg_start = 0
    line = seg_line = 1
    while n - pos > MAX_LINE:
        newline = text.rfind("\n", pos, pos + MAX_LINE + 1)
        if newline >= 0:
            line += text.count("\n", pos, newline + 1)
            pos = newline + 1
            continue
        end = text.find("\n", pos)
        end = n if end < 0 else end
        if seg_start < pos:
            yield "text", seg_start, pos, seg_line
        yield "long", pos, end, line
        pos = seg_start = min(end + 1, n)
        line += 1
        seg_line = line
        if end == n:
            return
    if seg_start < n:
        yield "text", seg_start, n, seg_line


def _run(lark: Lark, builder: EventBuilder, text: str, start: int, end: int, line: int) -> None:
    """Parse text[start:end] (whole lines, the first is ``line``), resuming after bad lines.

    A fresh parser starts at the line after each bad one, reading the same string in place
    (no copy, no recount of earlier lines): the cost of an error is the cost of its line.
    """
    while start < end:
        ip = lark.parse_interactive("", start="start")
        counter = LineCounter("\n")
        counter.char_pos = counter.line_start_pos = start
        counter.line = line
        ip.lexer_thread.state = LexerState(TextSlice(text, start, end), counter)
        try:
            ip.resume_parse()
            return
        except UnexpectedInput as err:
            if isinstance(err, UnexpectedCharacters):
                pos, line = err.pos_in_stream, err.line
            elif err.token.type == "$END":
                pos, line = end - 1, text.count("\n", start, end - 1) + line
            else:
                pos, line = err.token.start_pos, err.token.line
            _flush(err, builder, line)
        line_start = max(text.rfind("\n", start, pos) + 1, start)
        line_end = text.find("\n", pos, end)
        line_end = end if line_end < 0 else line_end
        _bad_line(lark, builder, text[line_start:line_end], line)
        start = line_end + 1
        line += 1


def _flush(err: UnexpectedInput, builder: EventBuilder, line: int) -> None:
    """Finish the statement before the bad line (the parser holds it until it sees the next
    token) and drop anything of the bad line that finishing may have produced."""
    parser = getattr(err, "interactive_parser", None)
    if parser is not None:
        try:
            parser.feed_eof()
        except UnexpectedInput:
            pass
    events = builder.events
    while events and events[-1].span.line >= line:
        events.pop()


def _bad_line(lark: Lark, builder: EventBuilder, line_text: str, line: int) -> None:
    events, builder.events = builder.events, []  # the diagnosis must not add events
    try:
        column, end, message, hint = diagnose(lark, line_text)
    finally:
        builder.events = events
    builder.problem(line, column, end, message, hint)


def parse_log(text: str) -> ParseResult:
    """Events and syntax issues of a log; never raises for any ``str``."""
    return _parse(text)


def _parse(text: str, fast_lines: bool = True) -> ParseResult:
    """parse_log; with ``fast_lines`` False every line goes through Lark (for the tests that
    compare the two readings).  The fast line reader is used once it is built: by the first
    log of at least FAST_READER_LINES lines."""
    text = _normalise(text)
    with _LOCK:
        lark, builder = _parser()
        reader = _STATE.get("reader")
        builder.events, builder.problems = [], []
        stop: str | None = None
        # The events are acyclic; collecting while thousands of them are being created only
        # rescans the ones already made (it tripled the parse time of a 3 MB log).
        collecting = gc.isenabled()
        gc.disable()
        try:
            if fast_lines and reader is None and text.count("\n") >= FAST_READER_LINES:
                reader = _line_reader()
            # Every line, the last one too, ends with a newline (the REST tokens include it).
            source = text if text.endswith("\n") else text + "\n"
            for kind, start, end, line in _segments(source):
                if kind == "long":
                    builder.problem(line, 1, end - start + 1,
                                    f"line is {end - start} characters long; the longest statement is far shorter")
                elif fast_lines and reader is not None:
                    reader.read(source, start, end, line, partial(_run, lark, builder, source))
                else:
                    _run(lark, builder, source, start, end, line)
        except TooManyProblems as too_many:
            stop = f"{MAX_ISSUES} unreadable lines: this does not look like a game log, the rest was not read"
            stop_line = too_many.line
        except Exception as err:  # noqa: BLE001 - last resort: a bug must not crash the referee
            stop = f"internal error while reading the log: {err!r}"
            stop_line = builder.problems[-1][0] if builder.problems else 1
        finally:
            if collecting:
                gc.enable()
        events, problems = tuple(builder.events), builder.problems
        builder.events, builder.problems = [], []
    issues = [SyntaxIssue(line, column, line, end, message, hint) for line, column, end, message, hint in problems]
    issues.sort(key=lambda issue: issue.line)  # stable; they come in order but for safety
    if stop is not None:
        issues.append(SyntaxIssue(stop_line, 1, stop_line, 2, stop))
    return ParseResult(events, tuple(issues), text)


def parse_bytes(data: bytes) -> ParseResult:
    """decode_log + parse_log; raises UnreadableLog for input that is not a log at all."""
    text = decode_log(data)
    if not text.strip():
        raise UnreadableLog("the log is empty", 1, 1)
    result = parse_log(text)
    if not any(not isinstance(event, Comment) for event in result.events):
        if result.issues:
            first = result.issues[0]
            raise UnreadableLog(
                f"nothing in this file reads as a log statement (line {first.line}: {first.message})",
                first.line, first.column,
            )
        raise UnreadableLog("nothing in this file reads as a log statement, only comments", 1, 1)
    return result


def split_players(value: str) -> list[str]:
    """The names of a ``[Players "..."]`` tag: separated by blanks (or commas); a name with
    spaces in single or double quotes: ``Al 'Mary Ann' "Jo Jo"``.  O'Neil needs no quotes."""
    return [m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
            for m in logbody.PLAYER_WORD.finditer(value)]
