"""This module defines the event records: one per statement of a log, with source spans (not
part of equality).

Some spans are found when first read: the parser makes hundreds of thousands of events and
their spans are rarely needed."""

from __future__ import annotations

from dataclasses import field
from operator import itemgetter

from referee.rules.cards import Card
from referee.util.record import Record, record


@record
class Span(Record):
    """A Span holds the 1-based line and column of the first character; its end is exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, line: int, column: int, width: int = 1) -> Span:
        return cls(line, column, line, column + width)


NO_SPAN = Span(0, 0, 0, 0)


def _span() -> Span:
    return field(default=NO_SPAN, compare=False, repr=False)


def _places():
    """Make the field ``_at``: None, or the line and the start and end columns of each span
    still to be made (a start None: no span)."""
    return field(default=None, init=False, compare=False, repr=False)


def found_span(self, name: str):
    """Make a span slot left empty by the reader from ``self._at`` on its first read
    (``__getattr__`` is only called while a slot is empty); ``_lazy`` gives its index in
    ``_at``."""
    at = self._lazy.get(name) if name != "_at" else None
    if at is not None and self._at is not None:
        where = self._at
        start = where[at]
        made = NO_SPAN if start is None else Span(where[0], start, where[0], where[at + 1])
        object.__setattr__(self, name, made)
        return made
    raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


@record
class Tag(Record):
    """A Tag holds ``[Name "value"]``; names compare case-insensitively through :attr:`key`."""

    name: str
    value: str
    span: Span = _span()

    @property
    def key(self) -> str:
        return self.name.casefold()


@record
class HandStart(Record):
    """A HandStart holds ``hand N [dealer NAME] [pass DIRECTION]``; direction is canonical text
    or None."""

    number: int
    dealer: str | None = None
    direction: str | None = None
    span: Span = _span()
    dealer_span: Span = _span()
    direction_span: Span = _span()


@record
class CardRun(Record):
    """A CardRun holds a run of cards on one line, with the span of each card for pointed
    diagnostics."""

    cards: tuple[Card, ...]
    spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)
    # (the reader's span maker, its arguments...) while ``spans`` is still to be built
    _source: tuple | None = field(
        default=None, init=False, compare=False, repr=False)

    def span_of(self, index: int, fallback: Span) -> Span:
        return self.spans[index] if index < len(self.spans) else fallback

    def __getattr__(self, name: str):  # only called while a slot is empty: the lazy spans
        if name == "spans" and self._source is not None:
            make_spans, *where = self._source
            spans = make_spans(*where)
            object.__setattr__(self, "spans", spans)
            return spans
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


@record
class Deal(Record):
    """A Deal holds ``deal NAME: cards``: the hand as dealt, before passing."""

    player: str
    run: CardRun
    span: Span = _span()
    player_span: Span = _span()
    _at: tuple | None = _places()
    _lazy = {"player_span": 1}
    __getattr__ = found_span


@record
class Kitty(Record):
    """A Kitty holds ``kitty: cards``: the undealt cards of this hand."""

    run: CardRun
    span: Span = _span()


@record
class Pass(Record):
    """A Pass holds ``pass NAME [-> NAME]: cards``; ``to`` is None when the recipient is left
    implicit."""

    player: str
    run: CardRun
    to: str | None = None
    span: Span = _span()
    player_span: Span = _span()
    to_span: Span = _span()
    _at: tuple | None = _places()
    _lazy = {"player_span": 1, "to_span": 3}
    __getattr__ = found_span


class Play(tuple):
    """A Play holds one card in a trick; ``player`` is None in a compact trick.  It is a tuple
    ``(player, card, a, b)`` made without a Python call per card: ``a`` and ``b`` are the spans,
    or the trick's finder and the play's index.  Equality, hash and repr use ``player`` and
    ``card`` only."""

    __slots__ = ()

    def __new__(cls, player: str | None, card: Card, span: Span = NO_SPAN,
                card_span: Span = NO_SPAN) -> Play:
        return tuple.__new__(cls, (player, card, span, card_span))

    player = property(itemgetter(0), doc="Return the player's name; None in a compact trick.")
    card = property(itemgetter(1), doc="Return the card played.")

    @property
    def span(self) -> Span:
        """Tell where "NAME CARD" (or the card of a compact trick) is written."""
        where = self[2]
        return where if where.__class__ is Span else where.place(self[3])[0]

    @property
    def card_span(self) -> Span:
        """Tell where the card is written."""
        where = self[2]
        return self[3] if where.__class__ is Span else where.place(self[3])[1]

    def __eq__(self, other):
        if other.__class__ is Play:
            return self[0] == other[0] and self[1] == other[1]
        return NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((self[0], self[1]))

    def __repr__(self) -> str:
        return f"Play(player={self[0]!r}, card={self[1]!r})"

    def __getnewargs__(self):
        return self[0], self[1], self.span, self.card_span


@record
class Claim(Record):
    """A Claim holds ``-> NAME`` (a winner) or ``-> none`` (``player`` None: the trick was set
    aside)."""

    player: str | None
    span: Span = _span()


@record
class Trick(Record):
    """A Trick holds ``trick N: NAME CARD, ... [-> claim]`` or compact ``trick N LEADER: CARD
    ...``."""

    number: int
    plays: tuple[Play, ...]
    claim: Claim | None = None
    leader: str | None = None
    span: Span = _span()
    leader_span: Span = _span()


@record
class Moon(Record):
    """A Moon holds ``moon NAME subtract|add``: the shooter's choice."""

    player: str
    choice: str
    span: Span = _span()
    player_span: Span = _span()


@record
class Entry(Record):
    """An Entry holds ``NAME VALUE`` inside a score or total line."""

    player: str
    value: int
    span: Span = _span()
    _at: tuple | None = _places()
    _lazy = {"span": 1}
    __getattr__ = found_span


@record
class Score(Record):
    """A Score holds ``score: NAME N, ...``: the hand's points as written on the scoresheet."""

    entries: tuple[Entry, ...]
    span: Span = _span()


@record
class Total(Record):
    """A Total holds ``total: NAME N, ...``: the running totals as written."""

    entries: tuple[Entry, ...]
    span: Span = _span()


@record
class GameOver(Record):
    """A GameOver holds ``winner: NAME ...``: the log claims the game is over and names its
    winner(s)."""

    players: tuple[str, ...]
    span: Span = _span()


@record
class Comment(Record):
    """A Comment holds a whole-line ``# comment``, kept so that ``referee fmt`` does not lose it."""

    text: str
    span: Span = _span()


Event = Comment | Tag | HandStart | Deal | Kitty | Pass | Trick | Moon | Score | Total | GameOver
