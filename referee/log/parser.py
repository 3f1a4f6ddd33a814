"""The written game log -> events.

``parse_log(text)`` reads a whole log with the LALR grammar ``grammars/log.lark`` (shipped as
``referee.log.grammars``) and returns the events of every readable line plus one
:class:`SyntaxIssue` for every unreadable one; it never raises.  ``parse_bytes`` first decodes
(``decode_log``) and raises :class:`UnreadableLog` only for input that is not a log at all.

Each parse has its own :class:`~referee.log.build.EventBuilder` (the rule callbacks and what
they have built, as a visitor); what every parse shares is immutable once made: the line
reader's terminals and Lark's tables, made once by :func:`_line_reader` and :func:`_parser`.
So parses in several threads run at once, without a lock.

How it goes fast: the grammar's terminals are coarse (a statement head such as ``trick 12:``
is one token, so is the rest of the line with all the plays of the trick), no parse tree is
built (the rule callbacks of :mod:`referee.log.build` run inside the LALR parser and append
events to a list), and the pieces of a coarse token are cut up by :mod:`referee.log.body`.
The lines of a well-formed log skip even Lark's lexer and parser: :mod:`referee.log.fast`
matches them with the grammar's own terminals and calls the same callbacks; the other lines
(anything unusual or malformed) are parsed by Lark (:mod:`referee.log.larkread`), a run of
lines at a time, so Lark is imported only when a line needs it.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NamedTuple

from referee.log import fast as logfast
from referee.log.build import EventBuilder, TooManyProblems
from referee.log.decode import UnreadableLog, decode_log, normalise
from referee.log.events import Comment, Event
from referee.log.fast import LineReader
from referee.log.larkread import LarkLines, callbacks_maker
from referee.log.recognise import looks_like_record
from referee.log.words import split_players  # its home; parser is where callers find it
from referee.util.collector import collector_paused
from referee.util.message import msg, msgn
from referee.util.record import Record, record

if TYPE_CHECKING:
    from lark import Lark
    from lark.parsers.lalr_parser_state import ParseConf

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


# ---- the grammar ---------------------------------------------------------------------------
def grammar_text() -> str:
    """The text of grammars/log.lark, from the source checkout this module is in, or else
    from the installed package."""
    root = Path(__file__).resolve().parents[2]
    # a checkout run with PYTHONPATH beside an editable install of another checkout: the
    # package data would be that other checkout's grammar
    if (root / "pyproject.toml").is_file() and (root / "grammars" / "log.lark").is_file():
        return (root / "grammars" / "log.lark").read_text("utf-8")
    return resources.files("referee.log.grammars").joinpath("log.lark").read_text("utf-8")


# What every parse shares, made on first use; never changed once made (building one twice,
# when two threads race to it, gives equal values).
_STATE: dict[str, object] = {}


class _LarkParser(NamedTuple):
    """The Lark parser, and what gives a builder's callbacks to its ``start`` rule."""

    lark: Lark
    configuration: Callable[[EventBuilder], ParseConf]


def _parser() -> _LarkParser:
    """The process-wide Lark parser (imported and built on first use), without callbacks:
    each parse brings its own (:func:`callbacks_maker`).

    Building the LALR tables takes about 50 ms, paid only by a process that reads a line the
    line reader leaves to Lark.  They are not cached on disk: Lark's cache is a pickle, and
    a pickle from a directory other processes can write runs their code (logfast.py, at
    ``shipped_facts``, says why no check of such a file makes it safe).
    """
    built = _STATE.get("parser")
    if built is None:
        import lark as lark_module

        lark = lark_module.Lark(grammar_text(), parser="lalr", lexer="contextual",
                                start=["start", "line"], maybe_placeholders=True)
        built = _STATE["parser"] = _LarkParser(lark, callbacks_maker(lark))
    return built  # type: ignore[return-value]


def _line_reader() -> LineReader:
    """The process-wide fast line reader (logfast.py), built on first use; it also gives the
    builders the terminals they cut REST tokens with.

    Importing Lark and building its tables takes about 100 ms, most of a one-file check, but
    the reader needs only the grammar's terminals and rules (:func:`logfast.grammar_facts`).
    The package ships them (``referee.log.shipped``), so a log whose every line the reader
    reads is read without Lark.  Another grammar or Lark: they are taken from Lark.
    """
    reader = _STATE.get("reader")
    if reader is None:
        facts = logfast.shipped_facts(grammar_text(), logfast.lark_version())
        if facts is None:
            facts = logfast.grammar_facts(_parser()[0])
        reader = _STATE["reader"] = LineReader(*facts)
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


class _Reading:
    """One parse in progress: its builder, and Lark's reading into it (made when a line
    first needs Lark)."""

    __slots__ = ("builder", "reader", "_lark_lines")

    def __init__(self, builder: EventBuilder, reader: LineReader) -> None:
        self.builder = builder
        self.reader = reader  # the line reader, which also reads the repairs of a bad line
        self._lark_lines: LarkLines | None = None

    def lark_lines(self) -> LarkLines:
        if self._lark_lines is None:
            lark, configuration = _parser()
            self._lark_lines = LarkLines(lark, configuration(self.builder), self.builder, self.reader)
        return self._lark_lines


def _run(reading: _Reading, text: str, start: int, end: int, line: int) -> None:
    """Parse text[start:end] with Lark (whole lines, the first is ``line``), resuming after
    bad lines, into the builder of ``reading``, this parse's own."""
    reading.lark_lines().read(text, start, end, line)


def parse_log(text: str, builder: type[EventBuilder] = EventBuilder) -> ParseResult:
    """Events and syntax issues of a log; never raises for any ``str``.

    ``builder``: the class of the rule callbacks, one made for this parse, whose ``events``
    are the result's (a subclass of :class:`EventBuilder`, which it is called like).
    """
    return _parse(text, builder=builder)


def _parse(text: str, fast_lines: bool = True, builder: type[EventBuilder] = EventBuilder) -> ParseResult:
    """parse_log; with ``fast_lines`` False every line goes through Lark (for the tests that
    compare the two readings)."""
    text = normalise(text)
    reader = _line_reader()
    reading = _Reading(builder(reader.terminals, MAX_ISSUES), reader)
    made = reading.builder
    stop: str | None = None
    try:
        with collector_paused():
            _read(text if text.endswith("\n") else text + "\n", reader, reading, fast_lines)
    except TooManyProblems as too_many:
        stop = msgn("{n} unreadable line: this does not look like a game log, the rest was not "
                    "read", "{n} unreadable lines: this does not look like a game log, the rest "
                    "was not read", MAX_ISSUES, n=MAX_ISSUES)
        stop_line = too_many.line
    except Exception as err:  # noqa: BLE001 - last resort: a bug must not crash the referee
        # TRANSLATORS: {error} is the Python exception, as the program names it
        stop = msg("internal error while reading the log: {error}", error=repr(err))
        stop_line = made.problems[-1][0] if made.problems else 1
    issues = [SyntaxIssue(line, column, line, end, message, hint) for line, column, end, message, hint in made.problems]
    issues.sort(key=lambda issue: issue.line)  # stable; they come in order but for safety
    if stop is not None:
        issues.append(SyntaxIssue(stop_line, 1, stop_line, 2, stop))
    return ParseResult(tuple(made.events), tuple(issues), text)


def _read(source: str, reader: LineReader, reading: _Reading, fast_lines: bool) -> None:
    """Every line of ``source`` into this parse's builder: the long ones reported, the others
    read by the line reader or (all of them, when not ``fast_lines``) by Lark.  Every line, the
    last one too, ends with a newline (the REST tokens include it)."""
    builder = reading.builder

    def slow(start: int, end: int, line: int) -> None:
        _run(reading, source, start, end, line)

    for kind, start, end, line in _segments(source):
        if kind == "long":
            length = end - start
            builder.problem(line, 1, length + 1, msgn(
                "line is {n} character long; the longest statement is far shorter",
                "line is {n} characters long; the longest statement is far shorter",
                length, n=length))
        elif fast_lines:
            reader.read(source, start, end, line, builder, slow)
        else:
            _run(reading, source, start, end, line)


def parse_bytes(data: bytes) -> ParseResult:
    """decode_log + parse_log; raises UnreadableLog for input that is not a log at all.
    A JSON game record (first non-blank character ``{``) is read as one instead."""
    text = decode_log(data)
    if not text.strip():
        raise UnreadableLog(msg("the log is empty"), 1, 1)
    if looks_like_record(text):
        from referee.log.jsonrecord import read_record

        return ParseResult(read_record(text).events, (), text)
    result = parse_log(text)
    if not any(not isinstance(event, Comment) for event in result.events):
        if result.issues:
            first = result.issues[0]
            # TRANSLATORS: {problem} is what is wrong with line {line}, the first unreadable one
            raise UnreadableLog(msg("nothing in this file reads as a log statement (line {line}: "
                                    "{problem})", line=first.line, problem=first.message),
                                first.line, first.column)
        raise UnreadableLog(msg("nothing in this file reads as a log statement, only comments"),
                            1, 1)
    return result


if __name__ == "__main__":  # remake referee/log/shipped.py after a change of the grammar
    import lark as _lark

    _source = logfast.shipped_source(grammar_text(), _lark.__version__, logfast.grammar_facts(_parser().lark))
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "shipped.py"), "w",
              encoding="utf-8") as _file:
        _file.write(_source)
