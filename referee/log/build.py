"""This module makes the events of a parse as the grammar's rules are reduced (no parse tree is
built).

:class:`EventBuilder` holds the rule callbacks Lark calls; each makes its event with a method
the line reader calls too, of plain values or of a match's words.  A common statement's body,
one coarse token, is cut here into pieces with the column of each: a fast path (one
``findall``), else a linear walk piece by piece, the only place errors are worded.  Nothing
here imports Lark."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import partial, wraps
from itertools import count, repeat

from referee.log import words
from referee.log.events import (NO_SPAN, CardRun, Claim, Comment, Deal, Entry, Event, GameOver,
                                HandStart, Kitty, Moon, Pass, Play, Score, Span, Tag, Total, Trick)
from referee.log.words import (BARE_NAME_RE, NAME_CACHE, NAME_RE, QUOTED_PATTERN, QUOTES,
                               name_value, shown)
from referee.rules.cards import CARD_BY_TEXT, Card, CardError, not_a_card, parse_card
from referee.rules.ruleset import canonical_direction
from referee.util.message import msg
from referee.util.record import lazy

EMPTY_RUN = CardRun((), ())

# Fast-path pieces are bounded so that a failed attempt costs O(1): no quadratic rescans.
# Inside a body '->' cannot occur outside quotes (the grammar ends LIST there), so a plain
# hyphen is safe here and keeps the pattern a single character class.
_FAST_BARE = r"[^\W\d_][\w'’\u0300-\u036f-]{0,47}"
_FAST_QUOTED = r'"(?:[^"\\\n]|\\.){0,47}"'
_FAST_NAME = f"{_FAST_BARE}|{_FAST_QUOTED}"
_CARD = r"(?:10|[2-9TtJjQqKkAa])[SHDCshdc♠♥♦♣][\ufe0e\ufe0f]?"
_END = r"(?![^\s,])"  # a piece ends at a space, a comma or the end
# The separators before a piece: taken whole (possessive), and only from the start of their
# run (the lookbehind).  ``findall`` tries a match at every position; without these, each
# position inside a run of n commas that leads to no piece would rescan the rest of the run
# (n*n/2 steps: a line of commas before a bad play took seconds).  On the pieces of a
# well-formed body, which follow each other, the matches are the same.
_SEP_RUN = r"(?<![\s,])([\s,]*+)"
_PLAYS_FAST = re.compile(rf"{_SEP_RUN}({_FAST_NAME})([^\S\n]+)({_CARD}){_END}")
MAX_POINT_DIGITS = 9  # as a JSON record's points (jsonrecord.py); keeps every sum printable
_ENTRIES_FAST = re.compile(
    rf"{_SEP_RUN}({_FAST_NAME})([^\S\n]+)([+-]?[0-9]{{1,{MAX_POINT_DIGITS}}}){_END}")
_NAMES_FAST = re.compile(rf"{_SEP_RUN}({_FAST_NAME}){_END}")
_CARDS_FAST = re.compile(rf"{_SEP_RUN}([^\s,]+)")
_SEPS_TO_END = re.compile(r"[\s,]*\Z")
_SEPS = re.compile(r"[\s,]*")
_SPACE = re.compile(r"[^\S\n]+")
_ITEM = re.compile(rf"{QUOTED_PATTERN}|[^\s,]+")
# These read points as people write them: after the name a blank, ':' or '=' ("Al 0", "Al: 0",
# "Al=0"), and a sign that may be the typographic minus or the en dash ("−26", "–26").
_ENTRY_GAP = re.compile(r"[^\S\n]*[:=][^\S\n]*|[^\S\n]+")
_INTEGER = re.compile(r"[+\-−–]?[0-9]+(?![^\s,])")
_MINUS = str.maketrans("−–", "--")

_new_play = partial(tuple.__new__, Play)  # Play((player, card, finder, index)), in C
make_entry = lazy(Entry, "player", "value", "_at")  # the span made when first read
make_run = lazy(CardRun, "cards", "_source")  # the spans made when first read


def span(line: int, column: int, end_column: int) -> Span:
    """Make a one-line span."""
    return Span(line, column, line, end_column)


# ---- errors --------------------------------------------------------------------------------
class BodyError(Exception):
    """BodyError points at a piece of a coarse token that is not what the statement needs
    (absolute columns)."""

    def __init__(self, column: int, end_column: int, message: str, hint: str | None = None):
        super().__init__(message)
        self.column = column
        self.end_column = max(end_column, column + 1)
        self.message = message
        self.hint = hint


_QUOTES_HINT = msg('a name with a space is written in double quotes: "Mary Ann"')
_ODD_QUOTES = ("'", "‘", "”", "„")  # quotes a name in a statement cannot start with
_COMPACT_HINT = msg("a trick written as cards only names its leader before the colon: "
                    "'trick 3 Beth: 2C 5C ...'")


def _card_or_error(item: str, column: int, after: str | None) -> Card:
    try:
        return parse_card(item)
    except CardError:
        looks_like_name = item.startswith(QUOTES) or (
            len(item) > 3 and BARE_NAME_RE.fullmatch(item) is not None)
        if after is not None and looks_like_name:
            # TRANSLATORS: {name} is the player's name, {item} what follows it instead of a card
            message = msg("expected a card like 10S or QS after '{name}', not '{item}'",
                          name=shown(after), item=shown(item))
            raise BodyError(column, column + len(item), message) from None
        raise BodyError(column, column + len(item), not_a_card(item)) from None


def _item_at(value: str, pos: int) -> str:
    m = _ITEM.match(value, pos)
    return m.group() if m else value[pos : pos + 1]


# ---- card runs -----------------------------------------------------------------------------
def card_run(value: str, line: int, column: int, *,
             _card=CARD_BY_TEXT.__getitem__) -> CardRun:
    """Read ``AS KS 10S`` (blanks and/or commas between cards) into a CardRun.  The spans of
    its cards are built when first asked for (:func:`run_spans`)."""
    try:  # str.split() splits at exactly the characters that \s matches
        cards = tuple(map(_card, (value.replace(",", " ") if "," in value else value).split()))
    except KeyError:  # an unusual spelling, or not a card: card by card
        return CardRun(*_card_run_walk(value, line, column))
    return make_run(cards, (run_spans, line, column, value))


def run_spans(line: int, column: int, value: str) -> tuple[Span, ...]:
    """Find the span of every card of ``value`` (a card run read at ``line``, ``column``)."""
    return _card_run_walk(value, line, column)[1]


def _card_run_walk(value: str, line: int, column: int, *, _findall=_CARDS_FAST.findall,
                   _get=CARD_BY_TEXT.get) -> tuple[tuple[Card, ...], tuple[Span, ...]]:
    """Read the cards and their spans card by card; say which piece is not a card
    (BodyError)."""
    cards: list[Card] = []
    spans: list[Span] = []
    pos = column
    for sep, item in _findall(value):
        pos += len(sep)
        card = _get(item)
        cards.append(_card_or_error(item, pos, None) if card is None else card)
        spans.append(Span(line, pos, line, pos + len(item)))
        pos += len(item)
    return tuple(cards), tuple(spans)


# ---- plays ---------------------------------------------------------------------------------
# A trick line as the writer writes it (ASCII): "trick 3: Al 2C, Beth 10S -> Beth" and blank
# lines, matched whole by the line reader; str.split reads its plays, in C (others: _PLAYS_FAST).
_PLAIN_NAME = r"[A-Za-z][A-Za-z0-9_'-]{0,47}"  # within NAME: no '>' can follow a '-' here
_PLAIN_PLAY = rf"{_PLAIN_NAME} (?:10|[2-9JQKA])[SHDC]"
PLAIN_TRICK_LINE = (rf"(?P<head_plain>trick (?P<number_plain>[0-9]+): )(?P<rest_plain>"
                    rf"(?P<plays_plain>(?:{_PLAIN_PLAY}, )*{_PLAIN_PLAY})(?: (?P<claim_plain>"
                    rf"-> (?P<winner_plain>{_PLAIN_NAME})))?\n(?:[^\S\n]*\n)*)")


# The line reader matches deal and pass lines as the writer writes them whole, like the trick
# line: HEAD and REST as the grammar's terminals cut them.
_PLAIN_CARDS = r"(?:10|[2-9JQKA])[SHDC](?: (?:10|[2-9JQKA])[SHDC])*\n(?:[^\S\n]*\n)*"
PLAIN_LINES = {  # the builder's method: its line, in groups head_NAME_plain and rest_NAME_plain
    "deal": rf"(?P<head_deal_plain>deal {_PLAIN_NAME}: )(?P<rest_deal_plain>{_PLAIN_CARDS})",
    "passing": rf"(?P<head_passing_plain>pass {_PLAIN_NAME}(?: -> {_PLAIN_NAME})?: )"
               rf"(?P<rest_passing_plain>{_PLAIN_CARDS})",
}


class _TrickPlaces:
    """A _TrickPlaces tells where each play of a written trick is: it finds them when a span is
    first asked for."""

    __slots__ = ("line", "column", "value", "_places")

    def __init__(self, line: int, column: int, value: str) -> None:
        self.line, self.column, self.value, self._places = line, column, value, None

    def place(self, index: int) -> tuple[Span, Span]:
        if self._places is None:
            line, at, places = self.line, self.column, []
            for sep, name, gap, card in _PLAYS_FAST.findall(self.value):
                start = at + len(sep)
                card_start = start + len(name) + len(gap)
                at = card_start + len(card)
                places.append((Span(line, start, line, at), Span(line, card_start, line, at)))
            self._places = places
        return self._places[index]


def plain_plays(value: str, line: int, column: int, *, _cards=CARD_BY_TEXT.__getitem__,
                _names=NAME_CACHE.get) -> tuple[Play, ...]:
    """Make the plays of a :data:`PLAIN_TRICK_LINE`'s ``plays_plain`` without a call per
    card."""
    words = value.replace(",", "").split()
    names = words[0::2]
    return tuple(map(_new_play, zip(map(_names, names, names), map(_cards, words[1::2]),
                                    repeat(_TrickPlaces(line, column, value)), count())))


def plays(value: str, line: int, column: int, *, _findall=_PLAYS_FAST.findall,
          _cards=CARD_BY_TEXT, _names=NAME_CACHE) -> tuple[Play, ...]:
    """Read ``Beth 2C, Charlie 5C`` into plays; a play's span covers "NAME CARD" (found when
    asked)."""
    places = _TrickPlaces(line, column, value)
    out: list[Play] = []
    at = column
    for index, (sep, name, gap, card) in enumerate(_findall(value)):
        at += len(sep) + len(name) + len(gap) + len(card)
        out.append(_new_play((_names.get(name) or name_value(name), _cards[card], places, index)))
    if at - column == len(value) or _SEPS_TO_END.match(value, at - column):
        return tuple(out)
    return _plays_slow(value, line, column)


def _plays_slow(value: str, line: int, column: int) -> tuple[Play, ...]:
    try:
        return _plays_walk(value, line, column)
    except BodyError:
        items = [m.group() for m in _ITEM.finditer(value)]
        if len(items) > 1 and all(item in CARD_BY_TEXT for item in items):  # a compact trick
            raise _name_error(value, _ITEM.search(value).start(), column) from None
        raise


def _name_error(value: str, pos: int, column: int) -> BodyError:
    item = _item_at(value, pos)
    col = column + pos
    if item.startswith(QUOTES):
        return BodyError(col, col + len(item), _closing(item))
    if item in CARD_BY_TEXT:
        return BodyError(col, col + len(item),
                         msg("expected a player name before the card '{card}'", card=item),
                         _COMPACT_HINT)
    hint = _QUOTES_HINT if item.startswith(_ODD_QUOTES) else None
    return BodyError(col, col + len(item), _not_a_name(item), hint)


def _not_a_name(item: str) -> str:
    return msg("expected a player name, not '{item}'", item=shown(item))


def _closing(item: str) -> str:
    closing = "”" if item.startswith("“") else '"'
    # TRANSLATORS: {quote} is the quotation mark that closes the one written (" or ”)
    return msg("a quoted player name needs its closing '{quote}'", quote=closing)


def _name_at(value: str, pos: int, column: int):
    """Read the player name at ``pos`` (or make the error): where it starts and ends, and the
    blanks after it (a match, or None): the common first step of the slow walks below."""
    m = NAME_RE.match(value, pos)
    if m is None:
        raise _name_error(value, pos, column)
    start, end = m.span()
    return m.group(), start, end, _SPACE.match(value, end)


def _plays_walk(value: str, line: int, column: int) -> tuple[Play, ...]:
    out: list[Play] = []
    n = len(value)
    pos = _SEPS.match(value, 0).end()
    while pos < n:
        name_token, name_start, pos, gap = _name_at(value, pos, column)
        after = gap.end() if gap is not None else pos
        if gap is None or after >= n or value[after] in ",\n":  # no card: a comma, the end
            where = column + (after if after < n and value[after] == "," else pos)
            raise BodyError(where, where + 1, msg("expected a card like 10S or QS after '{name}'",
                                                  name=shown(name_token)))
        pos = gap.end()
        item = _item_at(value, pos)
        card = _card_or_error(item, column + pos, name_token)
        end = pos + len(item)
        card_span = span(line, column + pos, column + end)
        out.append(Play(name_value(name_token), card,
                        span(line, column + name_start, column + end), card_span))
        pos = _SEPS.match(value, end).end()
    return tuple(out)


# ---- score entries -------------------------------------------------------------------------
def entries(value: str, line: int, column: int, *, _findall=_ENTRIES_FAST.findall,
            _names=NAME_CACHE) -> tuple[Entry, ...]:
    """Read ``Al 0, Beth 13, Cy -26`` into entries with signed values."""
    out: list[Entry] = []
    at = column
    for sep, name, gap, number in _findall(value):  # as in plays()
        start = at + len(sep)
        at = start + len(name) + len(gap) + len(number)
        out.append(make_entry(_names.get(name) or name_value(name), int(number),
                              (line, start, at)))
    if at - column == len(value) or _SEPS_TO_END.match(value, at - column):
        return tuple(out)
    return _entries_slow(value, line, column)


def _entries_slow(value: str, line: int, column: int) -> tuple[Entry, ...]:
    out: list[Entry] = []
    n = len(value)
    pos = _SEPS.match(value, 0).end()
    while pos < n:
        name_token, name_start, pos, _ = _name_at(value, pos, column)
        gap = _ENTRY_GAP.match(value, pos)
        number = _INTEGER.match(value, gap.end()) if gap is not None else None
        if number is None:
            where = gap.end() if gap is not None else pos
            item = _item_at(value, where).strip() if where < n else ""
            col = column + (where if item else pos)
            name = shown(name_token)
            message = (msg("expected points (a whole number) after '{name}', not '{item}'",
                           name=name, item=shown(item)) if item else
                       msg("expected points (a whole number) after '{name}'", name=name))
            raise BodyError(col, col + max(len(item), 1), message)
        if len(number.group().lstrip("+-−–")) > MAX_POINT_DIGITS:
            # TRANSLATORS: {count} is how many digits a written number of points has
            raise BodyError(column + number.start(), column + number.end(), msg(
                "{count} digits is too long for points: write at most nine digits",
                count=len(number.group().lstrip("+-−–"))))
        pos = number.end()
        points = int(number.group().translate(_MINUS))
        out.append(make_entry(name_value(name_token), points,
                              (line, column + name_start, column + pos)))
        pos = _SEPS.match(value, pos).end()
    return tuple(out)


# ---- names ---------------------------------------------------------------------------------
def names(value: str, line: int, column: int) -> tuple[str, ...]:
    """Read ``Al Beth`` or ``Al, "Mary Ann"`` into names (for ``winner:``; 'none' is
    refused)."""
    out: list[str] = []
    pos = 0
    for sep, name in _NAMES_FAST.findall(value):
        pos += len(sep) + len(name)
        out.append(name_value(name))
    if ((pos == len(value) or _SEPS_TO_END.match(value, pos))
            and all(n.casefold() != "none" for n in out)):
        return tuple(out)
    return _names_slow(value, line, column)


def _names_slow(value: str, line: int, column: int) -> tuple[str, ...]:
    out: list[str] = []
    n = len(value)
    pos = _SEPS.match(value, 0).end()
    while pos < n:
        m = NAME_RE.match(value, pos)
        col = column + pos
        if m is None or (m.end() < n and not value[m.end()].isspace() and value[m.end()] != ","):
            item = _item_at(value, pos)
            if item.startswith(QUOTES) and m is None:
                raise BodyError(col, col + len(item), _closing(item))
            raise BodyError(col, col + len(item), _not_a_name(item))
        name = name_value(m.group())
        if name.casefold() == "none":  # "nobody" is read as a name: a player may be so called
            message = msg("'none' cannot be a winner's name: name the player(s) with the best "
                          "total")
            raise BodyError(col, col + len(m.group()), message)
        out.append(name)
        pos = _SEPS.match(value, m.end()).end()
    return tuple(out)


# ---- the builder ---------------------------------------------------------------------------
Problem = tuple[int, int, int, str, "str | None"]  # line, column, end column, message, hint

# a deal or pass whose name spans are made when first read, from (line, start, end, ...)
make_deal = lazy(Deal, "player", "run", "span", "_at")
make_pass = lazy(Pass, "player", "run", "to", "span", "_at")


class TooManyProblems(Exception):
    """TooManyProblems says that the input is mostly not a log: stop reading (it is raised
    through the parser)."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


def statement(method):
    """Make a common statement's callback, called by Lark with [HEAD, REST] tokens; ``method``
    builds the event from plain values (and is what the line reader calls)."""

    @wraps(method)
    def callback(self: EventBuilder, children: list) -> None:
        head, rest = children
        try:
            self.events.append(method(self, head.line, head.column, head.value, rest.column,
                                      rest.value))
        except BodyError as err:
            self.problem(head.line, err.column, err.end_column, err.message, err.hint)

    callback.build = method
    return callback


def _end(column: int, text: str) -> int:
    """Return the end column of ``text`` at ``column``, trailing blanks excluded."""
    return column + len(text.rstrip())


def _cards_part(rest: str) -> str:
    """Cut the cards of a CARDS_REST or KITTY_REST token: up to a comment or the end."""
    cut = rest.find("#")
    return rest if cut < 0 else rest[:cut]


class Words(dict):
    """Words holds a Lark rule's tokens by the names of the line reader's groups, to be read
    as its match is."""

    def span(self, name: str) -> tuple[int, int]:
        token = self.get(name)
        return (-1, -1) if token is None else (token.column - 1, token.end_column - 1)

    def group(self, *names: str):
        values = tuple(self[name].value for name in names)
        return values if len(values) > 1 else values[0]


class EventBuilder:
    """An EventBuilder holds the rule callbacks of one parse (Lark calls them with the rule's
    children, the line reader with values), and what they have built: ``events`` and
    ``problems``.  ``terminals`` (regular expressions by name) cut REST tokens with quotes or a
    comment; ``max_problems`` end the parse (:class:`TooManyProblems`)."""

    def __init__(self, terminals: Mapping[str, str], max_problems: int) -> None:
        self.events: list[Event] = []
        self.problems: list[Problem] = []
        self.max_problems = max_problems
        claim = f"(?:{terminals['ARROW']})[^\\S\\n]*(?:{terminals['NAME']})"  # CLAIM in the grammar
        self.trick_rest = f"({terminals['LIST']})?({claim})?"
        self.compact_rest = f"({terminals['CARDS']})?({claim})?"
        self.list_body = terminals["LIST"]

    def problem(self, line: int, column: int, end_column: int, message: str,
                hint: str | None = None) -> None:
        self.problems.append((line, column, end_column, message, hint))
        if len(self.problems) >= self.max_problems:
            raise TooManyProblems(line)

    # ---- rare statements, word by word --------------------------------------------------------
    # Each is read from the words of a match at offset ``at`` of its line: the line reader's
    # own, or a Lark rule's tokens as :class:`Words` (at 0).
    def comment(self, children):
        self.comment_line(Words(COMMENT=children[0]), children[0].line, 0)

    def tag(self, children):
        self.tag_line(Words(zip(("LSQB", "TAG_NAME", "STRING", "RSQB"), children)),
                      children[0].line, 0)

    def direction(self, children):
        return dict(zip(("DIRECTION",) if len(children) == 1 else ("COUNT", "SIDE"), children))

    def hand(self, children):
        kw, number, _, dealer, _, direction = children
        self.hand_line(Words(HAND=kw, NUMBER=number, DEALER_NAME=dealer, **(direction or {})),
                       kw.line, 0)

    def moon(self, children):
        self.moon_line(Words(zip(("MOON", "MOON_NAME", "CHOICE"), children)), children[0].line, 0)

    def comment_line(self, m, line: int, at: int) -> None:
        text, column = m.group("COMMENT"), m.span("COMMENT")[0] - at + 1
        self.events.append(Comment(text[1:].strip(), span(line, column, _end(column, text))))

    def tag_line(self, m, line: int, at: int) -> None:
        self.events.append(Tag(m.group("TAG_NAME"), words.unquote(m.group("STRING")),
                               span(line, m.span("LSQB")[0] - at + 1, m.span("RSQB")[1] - at + 1)))

    def hand_line(self, m, line: int, at: int) -> None:
        """Read ``hand N [dealer NAME] [pass DIRECTION]``; the direction's words: 'left',
        '2 right'."""
        start, end = m.span("DEALER_NAME")
        dealer = m.group("DEALER_NAME") if start >= 0 else None
        dealer_span = span(line, start - at + 1, end - at + 1) if dealer else NO_SPAN
        if m.span("DIRECTION")[0] >= 0:
            direction, (start, end) = m.group("DIRECTION"), m.span("DIRECTION")
        elif m.span("COUNT")[0] >= 0:
            direction = f"{m.group('COUNT')} {m.group('SIDE')}"
            start, end = m.span("COUNT")[0], m.span("SIDE")[1]
        else:
            direction, end = None, end if dealer else m.span("NUMBER")[1]
        self.events.append(HandStart(
            int(m.group("NUMBER")), name_value(dealer) if dealer else None,
            canonical_direction(direction) if direction else None,
            span(line, m.span("HAND")[0] - at + 1, end - at + 1), dealer_span,
            span(line, start - at + 1, end - at + 1) if direction else NO_SPAN))

    def moon_line(self, m, line: int, at: int) -> None:
        (start, end), name, choice = m.span("MOON_NAME"), *m.group("MOON_NAME", "CHOICE")
        whole = span(line, m.span("MOON")[0] - at + 1, m.span("CHOICE")[1] - at + 1)
        self.events.append(Moon(name_value(name), choice.casefold(), whole,
                                span(line, start - at + 1, end - at + 1)))

    # ---- common statements: HEAD and REST ----------------------------------------------------
    # Each is called with the line, the column and text of the HEAD token and the column and
    # text of the REST token (whose newline and trailing blank lines do not matter).
    @statement
    def deal(self, line, col, head, rest_col, rest):
        return _deal(line, col, rest_col, _cards_part(rest), *words.pass_head(head)[:2])

    @statement
    def kitty(self, line, col, head, rest_col, rest):
        body = _cards_part(rest).rstrip()
        run = card_run(body, line, rest_col) if body else EMPTY_RUN
        return Kitty(run, span(line, col, _end(rest_col, body) if body else _end(col, head)))

    @statement
    def passing(self, line, col, head, rest_col, rest):
        return _pass(line, col, rest_col, _cards_part(rest), *words.pass_head(head))

    @statement
    def trick(self, line, col, head, rest_col, rest):
        body, claim, claim_at = _split(rest, self.trick_rest)
        return Trick(
            int(head[5 : head.rindex(":")].strip()),  # strip(): int() refuses some blanks
            plays(body, line, rest_col) if body else (),
            _claim(claim, line, rest_col + claim_at), None,
            Span(line, col, line, _statement_end(col, head, rest_col, body, claim, claim_at)),
            NO_SPAN,
        )

    @statement
    def compact_trick(self, line, col, head, rest_col, rest):
        body, claim, claim_at = _split(rest, self.compact_rest)
        run = card_run(body, line, rest_col) if body else EMPTY_RUN
        m = words.HEAD_NUMBER_NAME.match(head)
        return Trick(
            int(m.group(1)), tuple(Play(None, card, s, s) for card, s in zip(run.cards, run.spans)),
            _claim(claim, line, rest_col + claim_at),  # (no names: the card's span for both)
            name_value(m.group(2)),
            Span(line, col, line, _statement_end(col, head, rest_col, body, claim, claim_at)),
            Span(line, col + m.start(2), line, col + m.end(2)),
        )

    @statement
    def score(self, line, col, head, rest_col, rest, kind=Score, read=entries):
        """Make the event of a score line, or of a total or winner line (``kind``), its LIST
        read by ``read``."""
        body = self._list(rest)
        return kind(read(body, line, rest_col), span(line, col, _end(rest_col, body)))

    total = statement(partial(score.build, kind=Total))
    winner = statement(partial(score.build, kind=GameOver, read=names))

    @statement
    def players(self, line, col, head, rest_col, rest):
        """Read ``Players: Al Beth``, the [Players "Al Beth"] tag on a line of its own."""
        body = _cards_part(rest).rstrip()
        return Tag("Players", body, span(line, col, _end(rest_col, body)))

    def _list(self, rest: str) -> str:
        """Cut the LIST of a LIST_REST token (a comment or quotes need the grammar's regex)."""
        return re.match(self.list_body, rest).group() if '"' in rest or "#" in rest else rest


def plain_trick_event(line: int, column: int, number: str, rest_column: int, body: str,
                      claim: str | None, winner: str | None) -> Trick:
    """Read a trick line as the writer writes it (:data:`PLAIN_TRICK_LINE`), as
    :meth:`EventBuilder.trick` reads it: number, plays ``body``, "-> Beth" ``claim`` of
    ``winner``."""
    end = rest_column + len(body)
    if claim is not None:
        start, end = end + 1, end + 1 + len(claim)
        claim = Claim(None if winner.casefold() in words.NOBODY else name_value(winner),
                           Span(line, start, line, end))
    return Trick(int(number), plain_plays(body, line, rest_column), claim, None,
                      Span(line, column, line, end), NO_SPAN)


def _deal(line: int, col: int, rest_col: int, body: str, name: str, at: int) -> Deal:
    """Make a deal of the cards ``body`` and NAME token ``name`` (at ``at`` in the HEAD)."""
    return make_deal(name_value(name), card_run(body, line, rest_col),
                     Span(line, col, line, _end(rest_col, body)),
                     (line, col + at, col + at + len(name)))


def _pass(line: int, col: int, rest_col: int, body: str, name: str, at: int, to: str | None,
          to_at: int) -> Pass:
    """Make a pass of the cards ``body``, from ``name`` to ``to`` (NAME tokens, offsets in the
    HEAD)."""
    return make_pass(
        name_value(name), card_run(body, line, rest_col), name_value(to) if to else None,
        Span(line, col, line, _end(rest_col, body)),
        (line, col + at, col + at + len(name), col + to_at, col + to_at + len(to)) if to else
        (line, col + at, col + at + len(name), None, None),
    )


def plain_deal(builder: EventBuilder, line: int, col: int, head: str, rest_col: int,
               rest: str) -> Deal:
    """Read a line as the writer writes it (:data:`PLAIN_LINES`) as :meth:`EventBuilder.deal`
    does."""
    return _deal(line, col, rest_col, rest, head[5:-2], 5)


def plain_pass(builder: EventBuilder, line: int, col: int, head: str, rest_col: int,
               rest: str) -> Pass:
    """Read a line as the writer writes it as :meth:`EventBuilder.passing` does."""
    name, _, to = head[5:-2].partition(" -> ")
    return _pass(line, col, rest_col, rest, name, 5, to or None, 9 + len(name))


def _split(rest: str, pattern: str) -> tuple[str, str, int]:
    """Split a TRICK_REST or COMPACT_REST token into (body, claim, claim offset)."""
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
    """Read ``-> Dave`` / ``-> none`` at ``column``."""
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
