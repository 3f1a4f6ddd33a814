"""The grammar's rule callbacks: each statement the LALR parser reduces becomes an event.

The callbacks run inside the parser (Lark's ``transformer=`` option), so no parse tree is
built: they append events, or a problem for a line whose cards or names are wrong, to lists
that :mod:`referee.parser` collects.  The common statements arrive as two coarse tokens,
HEAD and REST (see grammars/log.lark); :mod:`referee.logbody` cuts them into pieces.
"""

from __future__ import annotations

import re
from functools import wraps

from lark import Lark, Token, Transformer, v_args

from . import logbody
from .events import NO_SPAN, Claim, Comment, Deal, Event, GameOver, HandStart, Kitty, Moon, Pass, Score, Tag, Total, Trick
from .logbody import BodyError, card_run, name_value, span
from .ruleset import canonical_direction

Problem = tuple[int, int, int, str, "str | None"]  # line, column, end column, message, hint

make_deal = logbody.fast(Deal)
make_pass = logbody.fast(Pass)
make_trick = logbody.fast(Trick)
make_claim = logbody.fast(Claim)
make_span = logbody.make_span


class TooManyProblems(Exception):
    """The input is mostly not a log: stop reading (raised through the parser)."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


def _statement(method):
    """A common statement: called with (HEAD, REST); returns its event or raises BodyError."""

    @wraps(method)
    def callback(self: EventBuilder, children: list[Token]) -> None:
        try:
            self.events.append(method(self, *children))
        except BodyError as err:
            self.problem(children[0].line, err.column, err.end_column, err.message, err.hint)

    return callback


def _end(token: Token) -> int:
    """End column of a token, trailing blanks excluded."""
    return token.column + len(token.value.rstrip())


def _cards_part(rest: Token) -> str:
    """The cards of a CARDS_REST or KITTY_REST token: up to a comment or the end."""
    value = rest.value
    cut = value.find("#")
    return value if cut < 0 else value[:cut]


def _upto(rest: Token, body: str) -> int:
    """End column of ``body``, the start of ``rest``, trailing blanks excluded."""
    return rest.column + len(body.rstrip())


class EventBuilder(Transformer):
    """Rule callbacks; ``events`` and ``problems`` are reset by the parser for each parse."""

    def __init__(self, max_problems: int) -> None:
        super().__init__()
        self.events: list[Event] = []
        self.problems: list[Problem] = []
        self.max_problems = max_problems
        self.trick_rest = self.compact_rest = self.list_body = re.compile("")

    def use_grammar(self, lark: Lark) -> None:
        """Compile the regexes that cut REST tokens from the grammar's own terminals."""
        def pattern(name: str) -> str:
            return lark.get_terminal(name).pattern.to_regexp()

        claim = f"(?:{pattern('ARROW')})[^\\S\\n]*(?:{pattern('NAME')})"  # CLAIM in the grammar
        self.trick_rest = re.compile(f"({pattern('LIST')})?({claim})?")
        self.compact_rest = re.compile(f"({pattern('CARDS')})?({claim})?")
        self.list_body = re.compile(pattern("LIST"))

    def problem(self, line: int, column: int, end_column: int, message: str, hint: str | None = None) -> None:
        self.problems.append((line, column, end_column, message, hint))
        if len(self.problems) >= self.max_problems:
            raise TooManyProblems(line)

    # ---- rare statements, word by word --------------------------------------------------------
    @v_args(inline=True)
    def comment(self, tok):
        self.events.append(Comment(tok.value[1:].strip(), span(tok.line, tok.column, _end(tok))))

    @v_args(inline=True)
    def tag(self, lsqb, name, value, rsqb):
        self.events.append(Tag(name.value, logbody.unquote(value), span(lsqb.line, lsqb.column, rsqb.end_column)))

    @v_args(inline=True)
    def direction(self, first, second=None):
        words = first.value if second is None else f"{first.value} {second.value}"
        return canonical_direction(words), span(first.line, first.column, (second or first).end_column)

    @v_args(inline=True)
    def hand(self, kw, number, dealer_kw, dealer, pass_kw, direction):
        line = kw.line
        self.events.append(HandStart(
            int(number), name_value(dealer.value) if dealer else None, direction[0] if direction else None,
            span(line, kw.column, direction[1].end_column if direction else (dealer or number).end_column),
            span(line, dealer.column, dealer.end_column) if dealer else NO_SPAN,
            direction[1] if direction else NO_SPAN,
        ))

    @v_args(inline=True)
    def moon(self, kw, name, choice):
        line = kw.line
        self.events.append(Moon(
            name_value(name.value), choice.value.casefold(),
            span(line, kw.column, choice.end_column), span(line, name.column, name.end_column),
        ))

    # ---- common statements: HEAD and REST ----------------------------------------------------
    @_statement
    def deal(self, head, rest):
        line, col, body = head.line, head.column, _cards_part(rest)
        name, at = logbody.head_name(head.value, 4)
        return make_deal(
            name_value(name), card_run(body, line, rest.column),
            make_span(line, col, line, _upto(rest, body)), make_span(line, col + at, line, col + at + len(name)),
        )

    @_statement
    def kitty(self, head, rest):
        line, body = head.line, _cards_part(rest).rstrip()
        run = card_run(body, line, rest.column) if body else logbody.EMPTY_RUN
        return Kitty(run, span(line, head.column, _upto(rest, body) if body else _end(head)))

    @_statement
    def passing(self, head, rest):
        line, col, body = head.line, head.column, _cards_part(rest)
        name, at, to, to_at = logbody.pass_head(head.value)
        return make_pass(
            name_value(name), card_run(body, line, rest.column), name_value(to) if to else None,
            make_span(line, col, line, _upto(rest, body)), make_span(line, col + at, line, col + at + len(name)),
            make_span(line, col + to_at, line, col + to_at + len(to)) if to else NO_SPAN,
        )

    @_statement
    def trick(self, head, rest):
        line, value = head.line, head.value
        body, claim, claim_at = _split(rest.value, self.trick_rest)
        plays = logbody.plays(body, line, rest.column) if body else ()
        return make_trick(
            int(value[5 : value.rindex(":")]), plays, _claim(claim, line, rest.column + claim_at), None,
            make_span(line, head.column, line, _statement_end(head, rest, body, claim, claim_at)), NO_SPAN,
        )

    @_statement
    def compact_trick(self, head, rest):
        line, col = head.line, head.column
        body, claim, claim_at = _split(rest.value, self.compact_rest)
        run = card_run(body, line, rest.column) if body else logbody.EMPTY_RUN
        m = logbody.HEAD_NUMBER_NAME.match(head.value)
        return make_trick(
            int(m.group(1)), logbody.compact_plays(run), _claim(claim, line, rest.column + claim_at),
            name_value(m.group(2)), make_span(line, col, line, _statement_end(head, rest, body, claim, claim_at)),
            make_span(line, col + m.start(2), line, col + m.end(2)),
        )

    @_statement
    def score(self, head, rest):
        body = self._list(rest)
        return Score(logbody.entries(body, head.line, rest.column), span(head.line, head.column, _upto(rest, body)))

    @_statement
    def total(self, head, rest):
        body = self._list(rest)
        return Total(logbody.entries(body, head.line, rest.column), span(head.line, head.column, _upto(rest, body)))

    @_statement
    def winner(self, head, rest):
        body = self._list(rest)
        return GameOver(logbody.names(body, head.line, rest.column), span(head.line, head.column, _upto(rest, body)))

    def _list(self, rest: Token) -> str:
        """The LIST of a LIST_REST token (a comment or quotes need the grammar's regex)."""
        value = rest.value
        return self.list_body.match(value).group() if '"' in value or "#" in value else value


def _split(rest: str, pattern: re.Pattern) -> tuple[str, str, int]:
    """(body, claim, claim offset) of a TRICK_REST or COMPACT_REST token."""
    if '"' in rest or "#" in rest:  # quotes or a comment may hide '->': use the grammar's regex
        m = pattern.match(rest)
        return m.group(1) or "", m.group(2) or "", m.start(2)
    cut = rest.find("->")
    if cut < 0:
        return rest, "", -1
    return rest[:cut], rest[cut:].rstrip(), cut


def _claim(text: str, line: int, column: int) -> Claim | None:
    """``-> Dave`` / ``-> none`` at ``column``."""
    if not text:
        return None
    return make_claim(logbody.claim_player(text), make_span(line, column, line, column + len(text)))


def _statement_end(head: Token, rest: Token, body: str, claim: str, claim_at: int) -> int:
    if claim:
        return rest.column + claim_at + len(claim)
    if body.strip():
        return _upto(rest, body)
    return _end(head)
