"""The grammar's rule callbacks: each statement the LALR parser reduces becomes an event.

The callbacks run inside the parser (Lark's ``transformer=``), so no parse tree is built.  Every
callback makes its event with a function of plain values, which the fast line reader calls too;
nothing here imports Lark, so that a log the line reader reads whole is read without it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import wraps

from referee.log import body as logbody
from referee.log import words
from referee.log.body import BodyError, card_run, span
from referee.log.events import (
    NO_SPAN,
    Claim,
    Comment,
    Deal,
    Event,
    GameOver,
    HandStart,
    Kitty,
    Moon,
    Pass,
    Play,
    Score,
    Span,
    Tag,
    Total,
    Trick,
)
from referee.log.words import name_value
from referee.rules.ruleset import canonical_direction
from referee.util.record import lazy

Problem = tuple[int, int, int, str, "str | None"]  # line, column, end column, message, hint

# a deal or pass whose name spans are made when first read, from (line, start, end, ...)
make_deal = lazy(Deal, "player", "run", "span", "_at")
make_pass = lazy(Pass, "player", "run", "to", "span", "_at")


class TooManyProblems(Exception):
    """The input is mostly not a log: stop reading (raised through the parser)."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


def statement(method):
    """A common statement's callback: called by the parser with [HEAD, REST] tokens; the
    event is built by ``method`` from plain values (see :meth:`EventBuilder.add`).  A builder
    that changes how a common statement is read overrides its method with this decorator."""

    @wraps(method)
    def callback(self: EventBuilder, children: list) -> None:
        head, rest = children
        self.add(method, head.line, head.column, head.value, rest.column, rest.value)

    callback.build = method  # the line reader (parser.LineReader) calls it with values it cut itself
    return callback


def _end(column: int, text: str) -> int:
    """End column of ``text`` (a token, or the body that starts a REST) that starts at
    ``column``, trailing blanks excluded."""
    return column + len(text.rstrip())


def _cards_part(rest: str) -> str:
    """The cards of a CARDS_REST or KITTY_REST token: up to a comment or the end."""
    cut = rest.find("#")
    return rest if cut < 0 else rest[:cut]


class EventBuilder:
    """The rule callbacks of one parse, and what they have built: ``events`` and ``problems``.

    Lark calls each callback with the rule's children; the fast line reader calls the same methods
    with values.  Builders share nothing: a parse makes its own."""

    def __init__(self, terminals: Mapping[str, str], max_problems: int) -> None:
        """``terminals``: the grammar's terminals (regular expressions by name), whose
        patterns cut REST tokens that hold quotes or a comment; ``max_problems``: how many
        problems end the parse (:class:`TooManyProblems`)."""
        self.events: list[Event] = []
        self.problems: list[Problem] = []
        self.max_problems = max_problems
        claim = f"(?:{terminals['ARROW']})[^\\S\\n]*(?:{terminals['NAME']})"  # CLAIM in the grammar
        self.trick_rest = f"({terminals['LIST']})?({claim})?"
        self.compact_rest = f"({terminals['CARDS']})?({claim})?"
        self.list_body = terminals["LIST"]

    def problem(self, line: int, column: int, end_column: int, message: str, hint: str | None = None) -> None:
        self.problems.append((line, column, end_column, message, hint))
        if len(self.problems) >= self.max_problems:
            raise TooManyProblems(line)

    # ---- rare statements, word by word --------------------------------------------------------
    def comment(self, children):
        (tok,) = children
        self.comment_line(tok.line, tok.column, tok.value)

    def tag(self, children):
        lsqb, name, value, rsqb = children
        self.tag_line(lsqb.line, lsqb.column, name.value, value.value, rsqb.end_column)

    def direction(self, children):
        first, second = children if len(children) == 2 else (children[0], None)
        words = first.value if second is None else f"{first.value} {second.value}"
        return words, first.column, (second or first).end_column

    def hand(self, children):
        kw, number, dealer_kw, dealer, pass_kw, direction = children
        self.hand_line(kw.line, kw.column, number.value, number.end_column,
                       (dealer.value, dealer.column) if dealer else None, direction)

    def moon(self, children):
        kw, name, choice = children
        self.moon_line(kw.line, kw.column, name.value, name.column, choice.value, choice.column)

    # The same from values: the tokens' text and columns, as the line reader cuts them too.
    def comment_line(self, line: int, column: int, text: str) -> None:
        """A whole-line COMMENT token ``text`` (``# ...``) at ``column``."""
        self.events.append(Comment(text[1:].strip(), span(line, column, _end(column, text))))

    def tag_line(self, line: int, column: int, name: str, value: str, end_column: int) -> None:
        """``[NAME "value"]``: the TAG_NAME and STRING tokens, where ``[`` is and ``]`` ends."""
        self.events.append(Tag(name, words.unquote(value), span(line, column, end_column)))

    def hand_line(self, line: int, column: int, number: str, number_end: int,
                  dealer: tuple[str, int] | None, direction: tuple[str, int, int] | None) -> None:
        """``hand N [dealer NAME] [pass DIRECTION]``: the NUMBER token and the column after it,
        the NAME token and its column, the direction's words ('left', '2 right') and columns."""
        end = direction[2] if direction else dealer[1] + len(dealer[0]) if dealer else number_end
        self.events.append(HandStart(
            int(number), name_value(dealer[0]) if dealer else None,
            canonical_direction(direction[0]) if direction else None, span(line, column, end),
            span(line, dealer[1], dealer[1] + len(dealer[0])) if dealer else NO_SPAN,
            span(line, direction[1], direction[2]) if direction else NO_SPAN,
        ))

    def moon_line(self, line: int, column: int, name: str, name_column: int, choice: str,
                  choice_column: int) -> None:
        """``moon NAME CHOICE``: the MOON token's column, the NAME and CHOICE tokens and theirs."""
        self.events.append(Moon(name_value(name), choice.casefold(),
                                span(line, column, choice_column + len(choice)),
                                span(line, name_column, name_column + len(name))))

    # ---- common statements: HEAD and REST ----------------------------------------------------
    # Each is called with the line, the column and text of the HEAD token and the column and
    # text of the REST token (whose newline and trailing blank lines do not matter).
    def add(self, build, line: int, column: int, head: str, rest_column: int, rest: str) -> None:
        """Append the event ``build`` makes of a statement, or its problem."""
        try:
            self.events.append(build(self, line, column, head, rest_column, rest))
        except BodyError as err:
            self.problem(line, err.column, err.end_column, err.message, err.hint)

    @statement
    def deal(self, line, col, head, rest_col, rest):
        return _deal(line, col, rest_col, _cards_part(rest), *words.pass_head(head)[:2])

    @statement
    def kitty(self, line, col, head, rest_col, rest):
        body = _cards_part(rest).rstrip()
        run = card_run(body, line, rest_col) if body else logbody.EMPTY_RUN
        return Kitty(run, span(line, col, _end(rest_col, body) if body else _end(col, head)))

    @statement
    def passing(self, line, col, head, rest_col, rest):
        return _pass(line, col, rest_col, _cards_part(rest), *words.pass_head(head))

    @statement
    def trick(self, line, col, head, rest_col, rest):
        body, claim, claim_at = _split(rest, self.trick_rest)
        plays = logbody.plays(body, line, rest_col) if body else ()
        return Trick(
            int(head[5 : head.rindex(":")].strip()),  # strip(): int() refuses some blanks
            plays, _claim(claim, line, rest_col + claim_at), None,
            Span(line, col, line, _statement_end(col, head, rest_col, body, claim, claim_at)),
            NO_SPAN,
        )

    @statement
    def compact_trick(self, line, col, head, rest_col, rest):
        body, claim, claim_at = _split(rest, self.compact_rest)
        run = card_run(body, line, rest_col) if body else logbody.EMPTY_RUN
        m = words.HEAD_NUMBER_NAME.match(head)
        return Trick(
            int(m.group(1)), tuple(Play(None, card, s, s) for card, s in zip(run.cards, run.spans)),
            _claim(claim, line, rest_col + claim_at),  # (no names: the card's span for both)
            name_value(m.group(2)),
            Span(line, col, line, _statement_end(col, head, rest_col, body, claim, claim_at)),
            Span(line, col + m.start(2), line, col + m.end(2)),
        )

    @statement
    def score(self, line, col, head, rest_col, rest):
        body = self._list(rest)
        return Score(logbody.entries(body, line, rest_col), span(line, col, _end(rest_col, body)))

    @statement
    def total(self, line, col, head, rest_col, rest):
        body = self._list(rest)
        return Total(logbody.entries(body, line, rest_col), span(line, col, _end(rest_col, body)))

    @statement
    def winner(self, line, col, head, rest_col, rest):
        body = self._list(rest)
        return GameOver(logbody.names(body, line, rest_col), span(line, col, _end(rest_col, body)))

    @statement
    def players(self, line, col, head, rest_col, rest):
        """``Players: Al Beth``, the [Players "Al Beth"] tag on a line of its own."""
        body = _cards_part(rest).rstrip()
        return Tag("Players", body, span(line, col, _end(rest_col, body)))

    def _list(self, rest: str) -> str:
        """The LIST of a LIST_REST token (a comment or quotes need the grammar's regex)."""
        return re.match(self.list_body, rest).group() if '"' in rest or "#" in rest else rest


def plain_trick_event(line: int, column: int, number: str, rest_column: int, body: str,
                      claim: str | None, winner: str | None) -> Trick:
    """A trick line as the writer writes it (:data:`~referee.log.body.PLAIN_TRICK_LINE`), as
    :meth:`EventBuilder.trick` reads it: number, plays ``body``, "-> Beth" ``claim`` of ``winner``."""
    end = rest_column + len(body)
    if claim is not None:
        start, end = end + 1, end + 1 + len(claim)
        claim = Claim(None if winner.casefold() in words.NOBODY else name_value(winner),
                           Span(line, start, line, end))
    return Trick(int(number), logbody.plain_plays(body, line, rest_column), claim, None,
                      Span(line, column, line, end), NO_SPAN)


def _deal(line: int, col: int, rest_col: int, body: str, name: str, at: int) -> Deal:
    """A deal of the cards ``body`` and NAME token ``name`` (at ``at`` in the HEAD)."""
    return make_deal(name_value(name), card_run(body, line, rest_col),
                     Span(line, col, line, _end(rest_col, body)),
                     (line, col + at, col + at + len(name)))


def _pass(line: int, col: int, rest_col: int, body: str, name: str, at: int, to: str | None,
          to_at: int) -> Pass:
    """A pass of the cards ``body``, from ``name`` to ``to`` (NAME tokens, offsets in the HEAD)."""
    return make_pass(
        name_value(name), card_run(body, line, rest_col), name_value(to) if to else None,
        Span(line, col, line, _end(rest_col, body)),
        (line, col + at, col + at + len(name), col + to_at, col + to_at + len(to)) if to else
        (line, col + at, col + at + len(name), None, None),
    )


def plain_deal(builder: EventBuilder, line: int, col: int, head: str, rest_col: int, rest: str) -> Deal:
    """:meth:`EventBuilder.deal` of a line as the writer writes it (``body.PLAIN_LINES``)."""
    return _deal(line, col, rest_col, rest, head[5:-2], 5)


def plain_pass(builder: EventBuilder, line: int, col: int, head: str, rest_col: int, rest: str) -> Pass:
    """:meth:`EventBuilder.passing` of a line as the writer writes it."""
    name, _, to = head[5:-2].partition(" -> ")
    return _pass(line, col, rest_col, rest, name, 5, to or None, 9 + len(name))


def _split(rest: str, pattern: str) -> tuple[str, str, int]:
    """(body, claim, claim offset) of a TRICK_REST or COMPACT_REST token."""
    if '"' in rest or "#" in rest or "“" in rest:  # may hide '->': use the grammar's regex
        m = re.match(pattern, rest)
        return m.group(1) or "", m.group(2) or "", m.start(2)
    cut = rest.find("->")
    if cut < 0:
        other = words.ARROW_RE.search(rest)  # => → ⇒
        if other is None:
            return rest, "", -1
        cut = other.start()
    return rest[:cut], rest[cut:].rstrip(), cut


def _claim(text: str, line: int, column: int) -> Claim | None:
    """``-> Dave`` / ``-> none`` at ``column``."""
    if not text:
        return None
    return Claim(words.claim_player(text), Span(line, column, line, column + len(text)))


def _statement_end(column: int, head: str, rest_column: int, body: str, claim: str,
                   claim_at: int) -> int:
    if claim:
        return rest_column + claim_at + len(claim)
    if body.strip():
        return _end(rest_column, body)
    return _end(column, head)
