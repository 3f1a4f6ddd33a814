"""This module reads the written game log into events: ``parse_log`` (it never raises: one
:class:`SyntaxIssue` per unreadable line), or ``parse_blocks`` a block of whole lines at a time.

:class:`LineReader` reads the lines of a well-formed log in one regular expression run built
from the grammar's terminals, cut into the tokens Lark's contextual lexer would make (a HEAD
ends with its blanks, so a line has one way to be cut).  Lark (LALR) reads every other line, so
the messages about malformed lines come from the grammar; after a rejected line it restarts at
the next one (Lark >= 1.2's ``TextSlice``).  Parses share only what is immutable once made."""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from referee.log.build import (PLAIN_LINES, PLAIN_TRICK_LINE, BodyError, EventBuilder,
                               TooManyProblems, plain_deal, plain_pass, plain_trick_event)
from referee.log.decode import UnreadableLog, decode_log, normalise
from referee.log.events import Comment, Event, Tag
from referee.log.recognise import looks_like_record
from referee.util.collector import collector_paused
from referee.util.message import msg, msgn
from referee.util.record import Record, record

if TYPE_CHECKING:
    from lark import Lark
    from lark.parsers.lalr_parser_state import ParseConf

__all__ = [
    "SyntaxIssue", "ParseResult", "Block", "parse_log", "parse_bytes", "parse_blocks", "parse_text",
    "log_text", "nothing_read", "tags_after", "MAX_LINE", "BLOCK_CHARS", "STOP_FAILED",
    "STOP_TOO_MANY"
]

MAX_LINE = 4096  # characters; longer lines are reported and skipped unread
MAX_ISSUES = 1000  # after this many unreadable lines the rest of the input is not read
# about 20 hands of a played log: one block's events are a small fraction of a megabyte,
# and a block costs one call of the line reader (blocks of 2,000 characters read as fast)
BLOCK_CHARS = 1 << 15
# why a reading stopped before the end (the last issue of its last block says so)
STOP_TOO_MANY = "too many unreadable lines"
STOP_FAILED = "failed"  # an internal error
START = "start"  # the grammar's entry point for whole logs
# Characters a phone or a copy leaves unseen in a line (zero-width space, word joiner, marks of
# direction, a byte order mark): Lark reads them as blanks.
INVISIBLE = re.compile("[\u200b\u200e\u200f\u2060\ufeff]")
Segment = tuple[str, int, int, int]  # ("text" or "long", start, end, first line)


@record
class SyntaxIssue(Record):
    """A SyntaxIssue tells of one unreadable line; it becomes a ``syntax`` diagnostic.  Lines and
    columns are 1-based, columns in characters."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    hint: str | None = None


@record
class ParseResult(Record):
    """A ParseResult holds the events of the readable lines, an issue for each unreadable one,
    and the text."""

    events: tuple[Event, ...]
    issues: tuple[SyntaxIssue, ...]
    text: str  # the decoded, newline-normalised text (for caret excerpts)


class Block(NamedTuple):
    """A Block holds the events and issues of a run of whole lines from ``start`` (line
    ``line``); one whose ``stop`` is not None is the last, and its last issue says why."""

    events: tuple[Event, ...]
    issues: tuple[SyntaxIssue, ...]
    start: int
    line: int
    stop: str | None = None  # STOP_TOO_MANY or STOP_FAILED


# ---- the line reader -----------------------------------------------------------------------
Slow = Callable[[int, int, int], None]  # (start, end, first line) of lines for Lark
Facts = tuple[dict[str, str], list[tuple[str, list[str]]]]  # terminals' regexps, rules


def grammar_facts(lark) -> Facts:
    """Return the regular expression of every terminal of a loaded grammar, by name, and each
    rule of a HEAD and a REST token as (name, the two terminals' names): what the package
    ships."""
    terminals = {str(t.name): str(t.pattern.to_regexp()) for t in lark.terminals}
    rules = [(str(rule.origin.name), [str(symbol.name) for symbol in rule.expansion])
             for rule in lark.rules]  # str(): names may be Lark's Token, a str subclass
    return terminals, [(name, names) for name, names in rules if len(names) == 2
                       and names[0].endswith("_HEAD") and names[1].endswith("_REST")]


class LineReader:
    """A LineReader reads the lines it can with the grammar's terminals into a builder (of any
    parse)."""

    def __init__(self, terminals: Mapping[str, str],
                 rules: Iterable[tuple[str, Sequence[str]]]) -> None:
        def terminal(name: str, group: str | None = None) -> str:  # atomic, as a lexer's token
            return f"(?>(?P<{group or name}>{terminals[name]}))"

        statements = [PLAIN_TRICK_LINE, *PLAIN_LINES.values()]
        # the plain lines, then the rules of the statements HEAD REST: (groups' name, rule)
        common = [("plain", "trick"), ("deal_plain", "deal"), ("passing_plain", "passing")]
        for name, (head, rest) in rules:
            head, rest = terminal(head, f"head_{name}"), terminal(rest, f"rest_{name}")
            statements.append(f"{head}(?!#){rest}")  # a REST starting with '#': module doc
            common.append((name, name))
        # The word-by-word statements have words separated by ignored blanks (_WS), and after
        # the last one perhaps blanks and an ignored comment (_TRAILING_COMMENT), then the
        # newline.
        blanks = f"(?:{terminals['_WS']})?+"
        end = f"{blanks}(?:{terminals['_TRAILING_COMMENT']})?+\n"
        direction = (f"(?:{terminal('DIRECTION')}"
                     f"|{terminal('NUMBER', 'COUNT')}{blanks}{terminal('SIDE')})")
        statements.append(
            f"(?P<hand>{terminal('HAND')}{blanks}{terminal('NUMBER')}"
            f"(?:{blanks}{terminal('DEALER')}{blanks}{terminal('NAME', 'DEALER_NAME')})?"
            f"(?:{blanks}{terminal('PASS')}{blanks}{direction})?{end})")
        statements.append(
            f"(?P<tag>{terminal('LSQB')}{blanks}{terminal('TAG_NAME')}{blanks}"
            f"{terminal('STRING')}{blanks}{terminal('RSQB')}{end})")
        statements.append(
            f"(?P<moon>{terminal('MOON')}{blanks}{terminal('NAME', 'MOON_NAME')}{blanks}"
            f"{terminal('CHOICE')}{end})")
        statements.append(f"(?P<comment>{terminal('COMMENT')}\n)")
        pattern = re.compile(f"(?m)^{blanks}(?:{'|'.join(statements)})")
        self.lines = pattern.finditer
        # m.lastindex is the group that closed last: a statement's REST, or the group around
        # a word-by-word statement
        groups = pattern.groupindex
        self.terminals = MappingProxyType(dict(terminals))
        head = f"(?:{terminals['_WS']})?+(?:{terminals['LSQB']}|{terminals['PLAYERS']})"
        self.tag_head, self.tag_lines = re.compile(head), re.compile(f"\n{head}")  # tags_after's
        self.common = tuple((groups[f"rest_{name}"], groups[f"head_{name}"], name, rule)
                            for name, rule in common)
        self.plain = [groups[f"{p}_plain"] for p in "rest head number plays claim winner".split()]
        self.words = MappingProxyType({groups[name]: f"{name}_line"
                                       for name in ("hand", "tag", "moon", "comment")})

    def read(self, text: str, start: int, end: int, line: int, builder: EventBuilder,
             slow: Slow) -> None:
        """Read the whole lines ``text[start:end]`` (the first is ``line``) into ``builder``;
        each run of lines not read here goes to ``slow``, in order."""
        kind, words = type(builder), self.words
        plain = {"deal_plain": plain_deal, "passing_plain": plain_pass}  # unless the builder's own
        builds = {rest: (head, plain[name]
                         if name in plain and getattr(kind, rule) is getattr(EventBuilder, rule)
                         else getattr(kind, rule).build) for rest, head, name, rule in self.common}
        rest_plain, head_plain, number, plays, claim, winner = self.plain
        if kind.trick is not EventBuilder.trick:  # the builder's own reads the plain ones too
            rest_plain = None
        events = builder.events  # the builder's own list, which slow() appends to as well
        pos = start
        for m in self.lines(text, start, end):
            at = m.start()
            if at != pos:  # lines in between: blank, or for Lark
                if not text[pos:at].isspace():
                    slow(pos, at, line)
                line += text.count("\n", pos, at)
            pos = m.end()
            group = m.lastindex
            if group == rest_plain:
                events.append(plain_trick_event(
                    line, m.start(head_plain) - at + 1, m.group(number), m.start(plays) - at + 1,
                    *m.group(plays, claim, winner)))
                line += text.count("\n", m.end(plays), pos)
                continue
            statement = builds.get(group)
            if statement is None:
                getattr(builder, words[group])(m, line, at)
                line += 1
                continue
            head_group, build = statement
            head, rest = m.group(head_group, group)
            head_at, rest_at = m.start(head_group) - at + 1, m.start(group) - at + 1
            try:
                events.append(build(builder, line, head_at, head, rest_at, rest))
            except BodyError:
                seen = INVISIBLE.sub(" ", rest)  # (a space each: the columns stay)
                try:
                    if seen == rest:
                        raise
                    events.append(build(builder, line, head_at, head, rest_at, seen))
                except BodyError as err:
                    builder.problem(line, err.column, err.end_column, err.message, err.hint)
            line += rest.count("\n")  # a REST ends with the newline and any blank lines after
        if pos < end and not text[pos:end].isspace():
            slow(pos, end, line)


# ---- the grammar ---------------------------------------------------------------------------
# The line reader's facts are not cached in the user's cache directory: any process of the user
# can write there, and what is read from there decides what a line means (a pickle would even
# run its code).  The facts are a module of the package (shipped.py, made by ``python -m
# referee.log.parser``), used only with the grammar text and Lark version they were made from;
# otherwise Lark gives them.
def lark_version() -> str | None:
    """Find the version of the Lark that ``import lark`` would load, without importing it."""
    module = sys.modules.get("lark")
    if module is not None:
        return module.__version__
    try:
        from importlib.util import find_spec

        with open(find_spec("lark").origin, encoding="utf-8") as source:
            found = re.search(r"^__version__\b[^=\n]*=\s*[\"']([^\"'\n]+)[\"']", source.read(),
                              re.M)
    except Exception:  # noqa: BLE001 - then Lark itself will say
        return None
    return found.group(1) if found else None


def grammar_key(grammar: str) -> str:
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


def shipped_facts(grammar: str, version: str | None) -> Facts | None:
    """Return the facts shipped with the package, if they were made from this grammar and Lark."""
    from referee.log import shipped

    if (shipped.GRAMMAR_SHA256, shipped.LARK_VERSION) != (grammar_key(grammar), version):
        return None
    return dict(shipped.TERMINALS), [(name, list(symbols)) for name, symbols in shipped.RULES]


def shipped_source(grammar: str, version: str, facts: Facts) -> str:
    """Write the text of referee/log/shipped.py for these facts."""
    terminals, rules = facts
    lines = ['"""This module holds the line reader\'s facts of grammars/log.lark (made by',
             '``python -m referee.log.parser``; do not edit: referee/log/parser.py says why they',
             'are shipped, not cached)."""', "",
             f"GRAMMAR_SHA256 = {grammar_key(grammar)!r}", f"LARK_VERSION = {version!r}", "",
             "TERMINALS = {"]
    lines += [f"    {name!r}: {pattern!r}," for name, pattern in sorted(terminals.items())]
    lines += ["}", "", "RULES = ("]
    lines += [f"    ({name!r}, {tuple(symbols)!r})," for name, symbols in rules]
    lines += [")", ""]
    return "\n".join(lines)


def grammar_text() -> str:
    """Read grammars/log.lark of the source checkout this module is in (an editable install of
    another checkout would give that one's), or else of the installed package."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "grammars" / "log.lark").is_file():
        return (root / "grammars" / "log.lark").read_text("utf-8")
    return resources.files("referee.log.grammars").joinpath("log.lark").read_text("utf-8")


# These make what every parse shares on first use; it never changes once made (building one
# twice, when two threads race to it, gives equal values).
@cache
def _parser() -> Lark:
    """Make the process-wide Lark parser, without callbacks; it is not cached on disk (Lark's
    cache is a pickle)."""
    import lark

    return lark.Lark(grammar_text(), parser="lalr", lexer="contextual", start=["start", "line"],
                     maybe_placeholders=True)


@cache
def _line_reader() -> LineReader:
    """Make the process-wide line reader from the facts the package ships (so that a log it
    reads whole needs no Lark), or for another grammar or Lark, from Lark."""
    return LineReader(*(shipped_facts(grammar_text(), lark_version()) or grammar_facts(_parser())))


# ---- parsing -------------------------------------------------------------------------------
def _segments(text: str):
    """Yield ("text", start, end, line) for runs of lines and ("long", ...) for lines longer
    than MAX_LINE, in order.  It takes linear time: it jumps MAX_LINE characters at a time."""
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


def _cut(text: str, segments: Iterable[Segment], size: int) -> Iterator[Segment]:
    """Cut each run of lines of the ``segments`` after the first newline ``size`` characters
    or more from its start.  It takes linear time: each newline found is counted once."""
    for kind, start, end, line in segments:
        if kind != "text":
            yield kind, start, end, line
            continue
        while end - start > size:
            newline = text.find("\n", start + size - 1, end)
            if newline < 0 or newline + 1 >= end:
                break
            yield kind, start, newline + 1, line
            line += text.count("\n", start, newline + 1)
            start = newline + 1
        yield kind, start, end, line


class _Reading:
    """A _Reading holds one parse in progress: its builder, and Lark's configuration for it
    (made when needed)."""

    __slots__ = ("builder", "reader", "_configuration")

    def __init__(self, builder: EventBuilder, reader: LineReader) -> None:
        self.builder = builder
        self.reader = reader  # (which also reads the repairs of a bad line)
        self._configuration: ParseConf | None = None

    def lark(self, text: str, start: int, end: int, line: int) -> None:
        """Parse the whole lines text[start:end] with Lark, resuming after bad lines."""
        from lark.exceptions import UnexpectedInput

        while start < end:
            try:
                self._resume(text, start, end, line)
                return
            except UnexpectedInput as err:
                pos, line = _where(err, text, start, end, line)
                self._flush(err, line)
            line_start = max(text.rfind("\n", start, pos) + 1, start)
            line_end = text.find("\n", pos, end)
            line_end = end if line_end < 0 else line_end
            self._bad_line(text[line_start:line_end], line)
            start = line_end + 1
            line += 1

    def _resume(self, text: str, start: int, end: int, line: int) -> None:
        from lark.lexer import LexerState, LineCounter
        from lark.utils import TextSlice

        from lark.parsers.lalr_parser_state import ParseConf

        parser = _parser().parse_interactive("", start=START)
        if self._configuration is None:  # the start rule's, with this builder's callbacks
            callbacks = _parser()._parse_tree_builder.create_callback(self.builder)
            self._configuration = ParseConf(parser.parser_state.parse_conf.parse_table,
                                            callbacks, START)
        parser.parser_state.parse_conf = self._configuration
        counter = LineCounter("\n")
        counter.char_pos = counter.line_start_pos = start
        counter.line = line
        parser.lexer_thread.state = LexerState(TextSlice(text, start, end), counter)
        parser.resume_parse()

    def _flush(self, err, line: int) -> None:
        """Finish the statement before the bad line (held until the next token is seen) and
        drop anything of the bad line that finishing may have produced."""
        from lark.exceptions import UnexpectedInput

        parser = getattr(err, "interactive_parser", None)
        if parser is not None:
            try:
                parser.feed_eof()
            except UnexpectedInput:
                pass
        events = self.builder.events
        while events and events[-1].span.line >= line:
            events.pop()

    def _bad_line(self, line_text: str, line: int) -> None:
        from referee.log.errors import diagnose

        column, end, message, hint = diagnose(_parser(), line_text, self.reread)
        self.builder.problem(line, column, end, message, hint)

    def reread(self, line_text: str) -> Event | None:
        """Read the one event a repair of a bad line reads as with the line reader, or return None
        (a line left to Lark shows no repair rather than a doubtful one)."""
        builder = EventBuilder(self.reader.terminals, 1_000)
        text = line_text + "\n"
        left: list[int] = []
        self.reader.read(text, 0, len(text), 1, builder,
                         lambda start, end, line: left.append(start))
        events = builder.events
        return events[0] if len(events) == 1 and not builder.problems and not left else None


def _where(err, text: str, start: int, end: int, line: int) -> tuple[int, int]:
    """Find where in ``text`` the parser gave up, and its line."""
    from lark.exceptions import UnexpectedCharacters

    if isinstance(err, UnexpectedCharacters):
        return err.pos_in_stream, err.line
    if err.token.type == "$END":
        return end - 1, text.count("\n", start, end - 1) + line
    return err.token.start_pos, err.token.line


def parse_log(text: str, builder: type[EventBuilder] = EventBuilder) -> ParseResult:
    """Read the events and syntax issues of a log (``builder``: the class of the rule
    callbacks)."""
    return _parse(text, builder=builder)


def _parse(text: str, fast_lines: bool = True,
           builder: type[EventBuilder] = EventBuilder) -> ParseResult:
    """Parse as parse_log does; with ``fast_lines`` False every line goes through Lark (for
    tests)."""
    text = normalise(text)
    (whole,) = parse_blocks(text, builder, None, fast_lines)  # one block: the whole text
    return ParseResult(whole.events, whole.issues, text)


def parse_blocks(text: str, builder: type[EventBuilder] = EventBuilder,
                 size: int | None = BLOCK_CHARS, fast_lines: bool = True) -> Iterator[Block]:
    """Parse as :func:`parse_log` does, a block of about ``size`` characters at a time, or in one
    (``size`` None); ``text`` is normalised."""
    source = text if text.endswith("\n") else text + "\n"
    reader = _line_reader()
    reading = _Reading(builder(reader.terminals, MAX_ISSUES), reader)
    made = reading.builder
    segments = _segments(source)
    groups: Iterable[tuple[int, int, Iterable[Segment]]] = [(0, 1, segments)] if size is None \
        else ((piece[1], piece[3], (piece,)) for piece in _cut(source, segments, size))
    given = 0  # the builder's problems already in a block
    for start, line, group in groups:
        made.events.clear()  # the previous block's (the last block's stay the builder's)
        stop = why = None
        try:
            with collector_paused():
                _read(source, reader, reading, fast_lines, group)
        except TooManyProblems as too_many:
            stop = msgn("{n} unreadable line: this does not look like a game log, the rest was "
                        "not read", "{n} unreadable lines: this does not look like a game log, "
                        "the rest was not read", MAX_ISSUES, n=MAX_ISSUES)
            stop_line, why = too_many.line, STOP_TOO_MANY
        except Exception as err:  # noqa: BLE001 - last resort: a bug must not crash the referee
            # TRANSLATORS: {error} is the Python exception, as the program names it
            stop = msg("internal error while reading the log: {error}", error=repr(err))
            stop_line = made.problems[-1][0] if made.problems else 1
            why = STOP_FAILED
        issues = [SyntaxIssue(line, column, line, end, message, hint)
                  for line, column, end, message, hint in made.problems[given:]]
        issues.sort(key=lambda issue: issue.line)
        if stop is not None:
            issues.append(SyntaxIssue(stop_line, 1, stop_line, 2, stop))
        given = len(made.problems)  # (kept: they count towards MAX_ISSUES)
        yield Block(tuple(made.events), tuple(issues), start, line, why)
        if stop is not None:
            return


def tags_after(text: str, start: int, line: int,
               keep: Callable[[Tag], bool]) -> tuple[Tag, ...] | None:
    """Read the tags :func:`parse_log` reads from offset ``start`` (line ``line``) on that
    ``keep`` keeps, reading only the lines that may be tags; return None when they cannot all
    be read as the whole text would be."""
    reader = _line_reader()
    reading = _Reading(EventBuilder(reader.terminals, MAX_ISSUES), reader)
    made, found = reading.builder, []
    at = start
    try:
        with collector_paused():
            for begin in _tag_lines(reader, text, start):
                line += text.count("\n", at, begin)
                at = begin
                end = text.find("\n", begin)
                if (end if end >= 0 else len(text)) - begin > MAX_LINE:
                    continue  # a long line, which parse_log reports unread
                if end >= 0:
                    _read(text, reader, reading, True, (("text", begin, end + 1, line),))
                else:  # the last line, without its newline
                    last = text[begin:] + "\n"
                    _read(last, reader, reading, True, (("text", 0, len(last), line),))
                found.extend(e for e in made.events if isinstance(e, Tag) and keep(e))
                made.events.clear()
    except Exception:  # noqa: BLE001 - TooManyProblems, or a bug: the whole text is read instead
        return None
    return tuple(found)


def _tag_lines(reader: LineReader, text: str, start: int) -> Iterator[int]:
    """Yield the starts of the lines from ``start`` on that may be tags (found by the newline
    before them)."""
    if start == 0 and reader.tag_head.match(text):
        yield 0
    for m in reader.tag_lines.finditer(text, max(start - 1, 0)):
        yield m.start() + 1


def _read(source: str, reader: LineReader, reading: _Reading, fast_lines: bool,
          segments: Iterable[Segment]) -> None:
    """Read the ``segments`` of ``source`` (every line ends with a newline) into the builder:
    report long lines, and read the others with the line reader or with Lark."""
    builder = reading.builder

    def slow(start: int, end: int, line: int) -> None:
        if INVISIBLE.search(source, start, end):  # (a space each: the columns stay)
            piece = INVISIBLE.sub(" ", source[start:end])
            reading.lark(piece, 0, len(piece), line)
        else:
            reading.lark(source, start, end, line)

    for kind, start, end, line in segments:
        if kind == "long":
            length = end - start
            builder.problem(line, 1, length + 1, msgn(
                "line is {n} character long; the longest statement is far shorter",
                "line is {n} characters long; the longest statement is far shorter",
                length, n=length))
        elif fast_lines:
            reader.read(source, start, end, line, builder, slow)
        else:
            reading.lark(source, start, end, line)


def parse_bytes(data: bytes) -> ParseResult:
    """Decode with decode_log, then parse with parse_log (a JSON game record is read as one);
    raise UnreadableLog."""
    return parse_text(log_text(data))


def log_text(data: bytes) -> str:
    """Decode as decode_log does; raise UnreadableLog for an empty log too."""
    text = decode_log(data)
    if not text or text.isspace():  # (not text.strip(), which would copy the text)
        raise UnreadableLog(msg("the log is empty"), 1, 1)
    return text


def parse_text(text: str) -> ParseResult:
    """Parse decoded text (:func:`log_text`) as parse_bytes does."""
    if looks_like_record(text):
        from referee.log.jsonrecord import read_record

        return ParseResult(read_record(text).events, (), text)
    result = parse_log(text)
    if not any(not isinstance(event, Comment) for event in result.events):
        raise nothing_read(result.issues[0] if result.issues else None)
    return result


def nothing_read(first: SyntaxIssue | None) -> UnreadableLog:
    """Say why a log with no statement (comments aside) is unreadable, from its first
    issue."""
    if first is not None:
        # TRANSLATORS: {problem} is what is wrong with line {line}, the first unreadable one
        return UnreadableLog(msg("nothing in this file reads as a log statement (line {line}: "
                                 "{problem})", line=first.line, problem=first.message),
                             first.line, first.column)
    return UnreadableLog(msg("nothing in this file reads as a log statement, only comments"),
                         1, 1)


if __name__ == "__main__":  # remake referee/log/shipped.py after a change of the grammar
    import lark as _lark

    _source = shipped_source(grammar_text(), _lark.__version__, grammar_facts(_parser()))
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "shipped.py"), "w",
              encoding="utf-8") as _file:
        _file.write(_source)
