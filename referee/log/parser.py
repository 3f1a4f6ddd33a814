"""The written game log -> events.

``parse_log(text)`` reads a whole log with the LALR grammar ``grammars/log.lark`` (shipped as
``referee.log.grammars``) and returns the events of every readable line plus one
:class:`SyntaxIssue` for every unreadable one; it never raises.  ``parse_bytes`` first decodes
(``decode_log``) and raises :class:`UnreadableLog` only for input that is not a log at all.

How it goes fast: the grammar's terminals are coarse (a statement head such as ``trick 12:``
is one token, so is the rest of the line with all the plays of the trick), no parse tree is
built (the rule callbacks of :mod:`referee.log.build` run inside the LALR parser and append
events to a list), and the pieces of a coarse token are cut up by :mod:`referee.log.body`.
The lines of a well-formed log skip even Lark's lexer and parser: :mod:`referee.log.fast`
matches them with the grammar's own terminals and calls the same callbacks; the other lines
(anything unusual or malformed) are parsed by Lark, a run of lines at a time.  The terminals
are cached (:func:`_line_reader`), so Lark is imported only when a line needs it.
How it recovers: when the parser rejects a line, the line is diagnosed on its own
(:mod:`referee.log.errors`) and parsing restarts at the next line with a fresh parser reading
the same string, so the cost of an error is the cost of its line.

Relies on Lark >= 1.2 (``TextSlice``; the lexer state of an interactive parser is replaced
to start at any line without copying the text or recounting its lines).
"""

from __future__ import annotations

import os
import stat
import threading
from functools import partial
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from referee.log import body as logbody
from referee.log import fast as logfast
from referee.log.build import EventBuilder, TooManyProblems
from referee.log.events import Comment, Event
from referee.log.fast import LineReader
from referee.util.collector import collector_paused
from referee.util.record import Record, record

if TYPE_CHECKING:
    from lark import Lark

__all__ = [
    "SyntaxIssue", "ParseResult", "UnreadableLog", "decode_log", "parse_log", "parse_bytes",
    "split_players", "MAX_LINE",
]

MAX_LINE = 4096  # characters; longer lines are reported and skipped unread
MAX_ISSUES = 1000  # after this many unreadable lines the rest of the input is not read


@record
class SyntaxIssue(Record):
    """One unreadable line; becomes a ``syntax`` diagnostic.  1-based, columns in characters."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    hint: str | None = None

    def __init__(self, line: int, column: int, end_line: int, end_column: int, message: str,
                 hint: str | None = None) -> None:
        self._fill(line, column, end_line, end_column, message, hint)


@record
class ParseResult(Record):
    """The events of the readable lines, an issue for each unreadable one, and the text."""

    events: tuple[Event, ...]
    issues: tuple[SyntaxIssue, ...]
    text: str  # the decoded, newline-normalised text (for caret excerpts)

    def __init__(self, events: tuple[Event, ...], issues: tuple[SyntaxIssue, ...], text: str) -> None:
        self._fill(events, issues, text)


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
        return resources.files("referee.log.grammars").joinpath("log.lark").read_text("utf-8")
    except ModuleNotFoundError:  # running from a source checkout that is not installed
        return (Path(__file__).resolve().parents[2] / "grammars" / "log.lark").read_text("utf-8")


_LOCK = threading.RLock()
_STATE: dict[str, object] = {}


def _cache_folder() -> str | None:
    """A private cache directory (created if need be), or None when there is no safe place:
    never a shared temporary directory, since Lark's caches are pickles."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "referee")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)  # a symbolic link here is refused, not followed
        if (not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid()
                or info.st_mode & 0o022):
            return None
    except (OSError, AttributeError):
        return None
    return folder


def _builder() -> EventBuilder:
    """The process-wide rule callbacks, shared by Lark and the line reader."""
    builder = _STATE.get("builder")
    if builder is None:
        builder = _STATE["builder"] = EventBuilder(MAX_ISSUES)
    return builder  # type: ignore[return-value]


def _parser() -> tuple[Lark, EventBuilder]:
    """The process-wide Lark parser (imported and built on first use) and its callbacks.

    Building the LALR tables takes about 35 ms, so they are cached (Lark ``cache=``, keyed by
    grammar and Lark version) in the private cache directory, if there is one.
    """
    built = _STATE.get("parser")
    if built is None:
        import hashlib

        import lark as lark_module

        folder = _cache_folder()
        text = grammar_text()
        key = hashlib.sha256((text + lark_module.__version__).encode("utf-8")).hexdigest()
        cache = os.path.join(folder, f"log-grammar-{key[:16]}.lark-cache") if folder else False
        builder = _builder()
        lark = lark_module.Lark(text, parser="lalr", lexer="contextual", start=["start", "line"],
                                transformer=builder, maybe_placeholders=True, cache=cache)
        built = _STATE["parser"] = (lark, builder)
    return built


def _line_reader() -> LineReader:
    """The process-wide fast line reader (logfast.py), built on first use; it also gives the
    rule callbacks the terminals they cut REST tokens with.

    Importing Lark and loading its tables takes about 35 ms, a third of a one-file check, but
    the reader needs only the grammar's terminals and rules (:func:`logfast.grammar_facts`).
    They are cached beside the LALR tables, so a log whose every line the reader reads is
    read without Lark.  Any other grammar or Lark, a corrupt or unreadable cache file, or no
    cache directory at all: they are taken from Lark (and written again).
    """
    reader = _STATE.get("reader")
    if reader is None:
        text, version, folder = grammar_text(), logfast.lark_version(), _cache_folder()
        path = logfast.facts_path(folder, text, version) if folder and version else None
        facts = logfast.read_facts(path, text, version) if path else None
        try:
            reader = _reader_of(facts) if facts else None
        except Exception:  # noqa: BLE001 - a cache that reads but is not what it says
            reader = None
        if reader is None:
            import lark

            facts = logfast.grammar_facts(_parser()[0])
            reader = _reader_of(facts)
            if path and version == lark.__version__:
                logfast.write_facts(path, text, version, facts)
        _STATE["reader"] = reader
    return reader  # type: ignore[return-value]


def _reader_of(facts) -> LineReader:
    terminals, rules = facts
    builder = _builder()
    builder.use_terminals(terminals)
    return LineReader(terminals, rules, builder)


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


def _run(text: str, start: int, end: int, line: int) -> None:
    """Parse text[start:end] with Lark (whole lines, the first is ``line``), resuming after
    bad lines.

    A fresh parser starts at the line after each bad one, reading the same string in place
    (no copy, no recount of earlier lines): the cost of an error is the cost of its line.
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput
    from lark.lexer import LexerState, LineCounter
    from lark.utils import TextSlice

    lark, builder = _parser()
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


def _flush(err, builder: EventBuilder, line: int) -> None:
    """Finish the statement before the bad line (the parser holds it until it sees the next
    token) and drop anything of the bad line that finishing may have produced."""
    from lark.exceptions import UnexpectedInput

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
    from referee.log.errors import diagnose

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
    compare the two readings)."""
    text = _normalise(text)
    with _LOCK:
        reader = _line_reader()
        builder = reader.builder
        builder.events, builder.problems = [], []
        stop: str | None = None
        try:
            with collector_paused():
                # Every line, the last one too, ends with a newline (the REST tokens include it).
                source = text if text.endswith("\n") else text + "\n"
                for kind, start, end, line in _segments(source):
                    if kind == "long":
                        builder.problem(line, 1, end - start + 1, f"line is {end - start} "
                                        "characters long; the longest statement is far shorter")
                    elif fast_lines:
                        reader.read(source, start, end, line, partial(_run, source))
                    else:
                        _run(source, start, end, line)
        except TooManyProblems as too_many:
            stop = f"{MAX_ISSUES} unreadable lines: this does not look like a game log, the rest was not read"
            stop_line = too_many.line
        except Exception as err:  # noqa: BLE001 - last resort: a bug must not crash the referee
            stop = f"internal error while reading the log: {err!r}"
            stop_line = builder.problems[-1][0] if builder.problems else 1
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
