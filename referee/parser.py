"""The written game log -> events.

``parse_log(text)`` reads a whole log with the LALR grammar ``grammars/log.lark`` (shipped as
``referee.grammars``) and returns the events of every readable line plus one
:class:`SyntaxIssue` for every unreadable one; it never raises.  ``parse_bytes`` first decodes
(``decode_log``) and raises :class:`UnreadableLog` only for input that is not a log at all.

How it goes fast: the grammar's terminals are coarse (a statement head such as ``trick 12:``
is one token, so are all the plays of the trick), no parse tree is built (the rule callbacks
below run inside the LALR parser and append events to a list), and the pieces of a coarse
token are cut up by :mod:`referee.logbody`.  How it recovers: when the parser rejects a line,
the line is diagnosed on its own (:mod:`referee.logerrors`) and parsing restarts at the next
line with a fresh parser, so the cost of an error is proportional to its line.
"""

from __future__ import annotations

import gc
import re
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput
from lark.lexer import LexerState, LineCounter
from lark.utils import TextSlice

from . import logbody
from .events import (
    NO_SPAN, Claim, Comment, Deal, Event, GameOver, HandStart, Kitty, Moon, Pass, Score, Tag, Total,
    Trick,
)
from .logbody import BodyError, span
from .logerrors import diagnose
from .ruleset import canonical_direction

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


def _end(token: Token) -> int:
    """End column of a token, trailing blanks excluded."""
    return token.column + len(token.value.rstrip())


class _Builder(Transformer):
    """Rule callbacks, run by the LALR parser itself as it reduces each statement: they
    append events (or a syntax issue) to lists, so no tree is ever built.  The common
    statements receive their children as a list [HEAD, REST] (no argument unpacking)."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[Event] = []
        self.issues: list[SyntaxIssue] = []
        self.patterns: _Patterns | None = None

    def _issue(self, line: int, err: BodyError) -> None:
        self.add_issue(SyntaxIssue(line, err.column, line, err.end_column, err.message, err.hint))

    def add_issue(self, issue: SyntaxIssue) -> None:
        self.issues.append(issue)
        if len(self.issues) >= MAX_ISSUES:
            raise _TooManyIssues(issue.line)

    # -- rare statements, word by word ---------------------------------------------------------
    @v_args(inline=True)
    def comment(self, tok):
        self.events.append(Comment(tok.value[1:].strip(), span(tok.line, tok.column, _end(tok))))

    @v_args(inline=True)
    def tag(self, lsqb, name, value, rsqb):
        self.events.append(Tag(name.value, logbody.unquote(value), span(lsqb.line, lsqb.column, rsqb.end_column)))

    @v_args(inline=True)
    def direction(self, first, second=None):
        text = first.value if second is None else f"{first.value} {second.value}"
        last = second or first
        return canonical_direction(text), span(first.line, first.column, last.end_column)

    @v_args(inline=True)
    def hand(self, kw, number, dealer_kw, dealer, pass_kw, direction):
        line = kw.line
        last = direction[1].end_column if direction else (dealer or number).end_column
        self.events.append(HandStart(
            int(number), logbody.name_value(dealer.value) if dealer else None,
            direction[0] if direction else None,
            span(line, kw.column, last),
            span(line, dealer.column, dealer.end_column) if dealer else NO_SPAN,
            direction[1] if direction else NO_SPAN,
        ))

    @v_args(inline=True)
    def moon(self, kw, name, choice):
        line = kw.line
        self.events.append(Moon(
            logbody.name_value(name.value), choice.value.casefold(),
            span(line, kw.column, choice.end_column), span(line, name.column, name.end_column),
        ))

    # -- common statements: HEAD and REST ------------------------------------------------------
    def deal(self, children):
        head, rest = children
        line, col = head.line, head.column
        body = _cards_part(rest.value)
        try:
            run = logbody.card_run(body, line, rest.column)
        except BodyError as err:
            return self._issue(line, err)
        name, offset = logbody.head_name(head.value, 4)
        name_col = col + offset
        self.events.append(make_deal(
            logbody.name_value(name), run, make_span(line, col, line, rest.column + len(body.rstrip())),
            make_span(line, name_col, line, name_col + len(name)),
        ))

    def kitty(self, children):
        head, rest = children
        line, col = head.line, head.column
        body = _cards_part(rest.value).rstrip()
        try:
            run = logbody.card_run(body, line, rest.column) if body else logbody.EMPTY_RUN
        except BodyError as err:
            return self._issue(line, err)
        self.events.append(Kitty(run, span(line, col, rest.column + len(body) if body else _end(head))))

    def passing(self, children):
        head, rest = children
        line, col = head.line, head.column
        body = _cards_part(rest.value)
        try:
            run = logbody.card_run(body, line, rest.column)
        except BodyError as err:
            return self._issue(line, err)
        name, offset, to, to_offset = logbody.pass_head(head.value)
        self.events.append(make_pass(
            logbody.name_value(name), run, logbody.name_value(to) if to else None,
            make_span(line, col, line, rest.column + len(body.rstrip())),
            make_span(line, col + offset, line, col + offset + len(name)),
            make_span(line, col + to_offset, line, col + to_offset + len(to)) if to else NO_SPAN,
        ))

    def trick(self, children):
        head, rest = children
        line, rcol = head.line, rest.column
        body, claim, claim_at = self._split(rest.value, self.patterns.trick_rest)
        try:
            plays = logbody.plays(body, line, rcol) if body else ()
        except BodyError as err:
            return self._issue(line, err)
        value = head.value
        number = int(value[5 : value.rindex(":")])
        self.events.append(make_trick(
            number, plays, _claim(claim, line, rcol + claim_at) if claim else None, None,
            make_span(line, head.column, line, _statement_end(head, rest, body, claim, claim_at)), NO_SPAN,
        ))

    def compact_trick(self, children):
        head, rest = children
        line, col, rcol = head.line, head.column, rest.column
        body, claim, claim_at = self._split(rest.value, self.patterns.compact_rest)
        try:
            run = logbody.card_run(body, line, rcol) if body else logbody.EMPTY_RUN
        except BodyError as err:
            return self._issue(line, err)
        h = logbody.HEAD_NUMBER_NAME.match(head.value)
        self.events.append(make_trick(
            int(h.group(1)), logbody.compact_plays(run), _claim(claim, line, rcol + claim_at) if claim else None,
            logbody.name_value(h.group(2)),
            span(line, col, _statement_end(head, rest, body, claim, claim_at)),
            span(line, col + h.start(2), col + h.end(2)),
        ))

    @staticmethod
    def _split(rest: str, pattern: re.Pattern) -> tuple[str, str, int]:
        """(body, claim, claim offset) of a trick REST token."""
        if '"' in rest or "#" in rest:  # quotes or a comment may hide '->': use the grammar's regex
            m = pattern.match(rest)
            return m.group(1) or "", m.group(2) or "", m.start(2)
        cut = rest.find("->")
        if cut < 0:
            return rest, "", -1
        return rest[:cut], rest[cut:].rstrip(), cut

    def _list_body(self, rest: Token) -> str:
        value = rest.value
        if '"' in value or "#" in value:
            return self.patterns.list.match(value).group()
        return value

    def score(self, children):
        self._entries(Score, children)

    def total(self, children):
        self._entries(Total, children)

    def _entries(self, cls, children):
        head, rest = children
        line = head.line
        body = self._list_body(rest)
        try:
            entries = logbody.entries(body, line, rest.column)
        except BodyError as err:
            return self._issue(line, err)
        self.events.append(cls(entries, span(line, head.column, rest.column + len(body.rstrip()))))

    def winner(self, children):
        head, rest = children
        line = head.line
        body = self._list_body(rest)
        try:
            names = logbody.names(body, line, rest.column)
        except BodyError as err:
            return self._issue(line, err)
        self.events.append(GameOver(names, span(line, head.column, rest.column + len(body.rstrip()))))


make_trick = logbody.fast(Trick)
make_deal = logbody.fast(Deal)
make_pass = logbody.fast(Pass)
make_claim = logbody.fast(Claim)
make_span = logbody.make_span


def _statement_end(head: Token, rest: Token, body: str, claim: str, claim_at: int) -> int:
    if claim:
        return rest.column + claim_at + len(claim)
    if body.strip():
        return rest.column + len(body.rstrip())
    return _end(head)


def _cards_part(rest: str) -> str:
    """The cards of a CARDS_REST or KITTY_REST token: up to a comment or the end."""
    cut = rest.find("#")
    return rest if cut < 0 else rest[:cut]


def _claim(text: str, line: int, column: int) -> Claim:
    """``-> Dave`` / ``-> none`` at ``column``."""
    return make_claim(logbody.claim_player(text), make_span(line, column, line, column + len(text)))


class _TooManyIssues(Exception):
    """Raised (and caught by parse_log) when the input is mostly not a log."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


class _Patterns:
    """Regexes that cut REST tokens, made from the grammar's own terminals."""

    def __init__(self, lark: Lark) -> None:
        def pattern(name: str) -> str:
            return lark.get_terminal(name).pattern.to_regexp()

        list_, cards = pattern("LIST"), pattern("CARDS")
        claim = f"(?:{pattern('ARROW')})[^\\S\\n]*(?:{pattern('NAME')})"  # CLAIM in the grammar
        self.trick_rest = re.compile(f"({list_})?({claim})?")
        self.compact_rest = re.compile(f"({cards})?({claim})?")
        self.list = re.compile(list_)


_LOCK = threading.RLock()
_STATE: dict[str, object] = {}


def _parser() -> tuple[Lark, _Builder]:
    """The process-wide Lark parser (built on first use) and its callback object."""
    built = _STATE.get("parser")
    if built is None:
        builder = _Builder()
        lark = Lark(grammar_text(), parser="lalr", lexer="contextual", start=["start", "line"],
                    transformer=builder, maybe_placeholders=True)
        builder.patterns = _Patterns(lark)
        built = _STATE["parser"] = (lark, builder)
    return built  # type: ignore[return-value]


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


def _run(lark: Lark, builder: _Builder, text: str, start: int, end: int, line: int) -> None:
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


def _flush(err: UnexpectedInput, builder: _Builder, line: int) -> None:
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


def _bad_line(lark: Lark, builder: _Builder, line_text: str, line: int) -> None:
    events, builder.events = builder.events, []  # the diagnosis must not add events
    try:
        column, end, message, hint = diagnose(lark, line_text)
    finally:
        builder.events = events
    builder.add_issue(SyntaxIssue(line, column, line, end, message, hint))


def parse_log(text: str) -> ParseResult:
    """Events and syntax issues of a log; never raises for any ``str``."""
    text = _normalise(text)
    with _LOCK:
        lark, builder = _parser()
        builder.events, builder.issues = [], []
        # The events are acyclic; collecting while thousands of them are being created only
        # rescans the ones already made (it tripled the parse time of a 3 MB log).
        collecting = gc.isenabled()
        gc.disable()
        try:
            # Every line, the last one too, ends with a newline (the REST tokens include it).
            source = text if text.endswith("\n") else text + "\n"
            for kind, start, end, line in _segments(source):
                if kind == "long":
                    builder.add_issue(SyntaxIssue(
                        line, 1, line, end - start + 1,
                        f"line is {end - start} characters long; the longest statement is far shorter",
                    ))
                else:
                    _run(lark, builder, source, start, end, line)
        except _TooManyIssues as stop:
            builder.issues.append(SyntaxIssue(
                stop.line, 1, stop.line, 2,
                f"{MAX_ISSUES} unreadable lines: this does not look like a game log, the rest was not read",
            ))
        except Exception as err:  # noqa: BLE001 - last resort: a bug must not crash the referee
            line = (builder.issues[-1].line if builder.issues else 1)
            builder.issues.append(SyntaxIssue(line, 1, line, 2, f"internal error while reading the log: {err!r}"))
        finally:
            if collecting:
                gc.enable()
        events, issues = tuple(builder.events), builder.issues
        builder.events, builder.issues = [], []
    issues.sort(key=lambda i: i.line)  # stable: already in order but for the final "stop"
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
