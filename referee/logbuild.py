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
from .events import (
    NO_SPAN, Claim, Comment, Deal, Event, GameOver, HandStart, Kitty, Moon, Pass, Score, Tag, Total,
    Trick, fast,
)
from .logbody import BodyError, card_run, name_value, span
from .ruleset import canonical_direction

Problem = tuple[int, int, int, str, "str | None"]  # line, column, end column, message, hint

make_deal = fast(Deal)
make_pass = fast(Pass)
make_trick = fast(Trick)
make_claim = fast(Claim)
make_span = logbody.make_span


class TooManyProblems(Exception):
    """The input is mostly not a log: stop reading (raised through the parser)."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


def _statement(method):
    """A common statement's callback: called by the parser with [HEAD, REST] tokens; the
    event is built by ``method`` from plain values (see :meth:`EventBuilder.add`)."""

    @wraps(method)
    def callback(self: EventBuilder, children: list[Token]) -> None:
        head, rest = children
        self.add(method, head.line, head.column, head.value, rest.column, rest.value)

    callback.build = method  # the line reader (logfast.py) calls it with values it cut itself
    return callback


def _end(column: int, text: str) -> int:
    """End column of a token's ``text`` that starts at ``column``, trailing blanks excluded."""
    return column + len(text.rstrip())


def _cards_part(rest: str) -> str:
    """The cards of a CARDS_REST or KITTY_REST token: up to a comment or the end."""
    cut = rest.find("#")
    return rest if cut < 0 else rest[:cut]


def _upto(rest_column: int, body: str) -> int:
    """End column of ``body``, which starts the REST token at ``rest_column``, trailing
    blanks excluded."""
    return rest_column + len(body.rstrip())


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
        end = _end(tok.column, tok.value)
        self.events.append(Comment(tok.value[1:].strip(), span(tok.line, tok.column, end)))

    @v_args(inline=True)
    def tag(self, lsqb, name, value, rsqb):
        self.events.append(Tag(name.value, logbody.unquote(value), span(lsqb.line, lsqb.column, rsqb.end_column)))

    @v_args(inline=True)
    def direction(self, first, second=None):
        words = first.value if second is None else f"{first.value} {second.value}"
        return words, first.column, (second or first).end_column

    @v_args(inline=True)
    def hand(self, kw, number, dealer_kw, dealer, pass_kw, direction):
        self.events.append(hand_event(
            kw.line, kw.column, number.value, number.end_column,
            (dealer.value, dealer.column) if dealer else None, direction))

    @v_args(inline=True)
    def moon(self, kw, name, choice):
        line = kw.line
        self.events.append(Moon(
            name_value(name.value), choice.value.casefold(),
            span(line, kw.column, choice.end_column), span(line, name.column, name.end_column),
        ))

    # ---- common statements: HEAD and REST ----------------------------------------------------
    # Each is called with the line, the column and text of the HEAD token and the column and
    # text of the REST token (whose newline and trailing blank lines do not matter).
    def add(self, build, line: int, column: int, head: str, rest_column: int, rest: str) -> None:
        """Append the event ``build`` makes of a statement, or its problem."""
        try:
            self.events.append(build(self, line, column, head, rest_column, rest))
        except BodyError as err:
            self.problem(line, err.column, err.end_column, err.message, err.hint)

    @_statement
    def deal(self, line, col, head, rest_col, rest):
        body = _cards_part(rest)
        name, at = logbody.head_name(head, 4)
        whole = make_span(line, col, line, _upto(rest_col, body))
        return make_deal(name_value(name), card_run(body, line, rest_col), whole,
                         make_span(line, col + at, line, col + at + len(name)))

    @_statement
    def kitty(self, line, col, head, rest_col, rest):
        body = _cards_part(rest).rstrip()
        run = card_run(body, line, rest_col) if body else logbody.EMPTY_RUN
        return Kitty(run, span(line, col, _upto(rest_col, body) if body else _end(col, head)))

    @_statement
    def passing(self, line, col, head, rest_col, rest):
        body = _cards_part(rest)
        name, at, to, to_at = logbody.pass_head(head)
        return make_pass(
            name_value(name), card_run(body, line, rest_col), name_value(to) if to else None,
            make_span(line, col, line, _upto(rest_col, body)),
            make_span(line, col + at, line, col + at + len(name)),
            make_span(line, col + to_at, line, col + to_at + len(to)) if to else NO_SPAN,
        )

    @_statement
    def trick(self, line, col, head, rest_col, rest):
        body, claim, claim_at = _split(rest, self.trick_rest)
        plays = logbody.plays(body, line, rest_col) if body else ()
        number = int(head[5 : head.rindex(":")].strip())  # strip(): int() refuses some blanks
        return make_trick(
            number, plays, _claim(claim, line, rest_col + claim_at), None,
            make_span(line, col, line, _statement_end(col, head, rest_col, body, claim, claim_at)),
            NO_SPAN,
        )

    @_statement
    def compact_trick(self, line, col, head, rest_col, rest):
        body, claim, claim_at = _split(rest, self.compact_rest)
        run = card_run(body, line, rest_col) if body else logbody.EMPTY_RUN
        m = logbody.HEAD_NUMBER_NAME.match(head)
        return make_trick(
            int(m.group(1)), logbody.compact_plays(run), _claim(claim, line, rest_col + claim_at),
            name_value(m.group(2)),
            make_span(line, col, line, _statement_end(col, head, rest_col, body, claim, claim_at)),
            make_span(line, col + m.start(2), line, col + m.end(2)),
        )

    @_statement
    def score(self, line, col, head, rest_col, rest):
        body = self._list(rest)
        return Score(logbody.entries(body, line, rest_col), span(line, col, _upto(rest_col, body)))

    @_statement
    def total(self, line, col, head, rest_col, rest):
        body = self._list(rest)
        return Total(logbody.entries(body, line, rest_col), span(line, col, _upto(rest_col, body)))

    @_statement
    def winner(self, line, col, head, rest_col, rest):
        body = self._list(rest)
        return GameOver(logbody.names(body, line, rest_col), span(line, col, _upto(rest_col, body)))

    def _list(self, rest: str) -> str:
        """The LIST of a LIST_REST token (a comment or quotes need the grammar's regex)."""
        return self.list_body.match(rest).group() if '"' in rest or "#" in rest else rest


def hand_event(line: int, column: int, number: str, number_end: int,
               dealer: tuple[str, int] | None, direction: tuple[str, int, int] | None) -> HandStart:
    """``hand N [dealer NAME] [pass DIRECTION]``: the NUMBER token and the column after it,
    the NAME token and its column, the direction's words ('left', '2 right') and columns."""
    end = direction[2] if direction else dealer[1] + len(dealer[0]) if dealer else number_end
    return HandStart(
        int(number), name_value(dealer[0]) if dealer else None,
        canonical_direction(direction[0]) if direction else None, span(line, column, end),
        span(line, dealer[1], dealer[1] + len(dealer[0])) if dealer else NO_SPAN,
        span(line, direction[1], direction[2]) if direction else NO_SPAN,
    )


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


def _statement_end(column: int, head: str, rest_column: int, body: str, claim: str,
                   claim_at: int) -> int:
    if claim:
        return rest_column + claim_at + len(claim)
    if body.strip():
        return _upto(rest_column, body)
    return _end(column, head)
