"""Event records: what a written log says, one record per statement, with source spans.

Events are plain frozen values.  Spans do not take part in equality, so a log and its
canonical rewrite (``writer.write``) parse to equal event lists.

Two spans are made only when asked for (the parser creates hundreds of thousands of events
and they are rarely needed): the spans of the cards of a :class:`CardRun` and the
``card_span`` of a :class:`Play`.  The parser leaves those slots empty and records where the
pieces are (``_source``, ``_card_column``); the first read of the attribute builds the
spans from that and keeps them.  To everything else they are ordinary fields: the same
values, constructors, ``dataclasses.fields`` and ``replace``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .cards import Card


@dataclass(frozen=True, slots=True)
class Span:
    """1-based line and column of the first character; end is exclusive."""

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


@dataclass(frozen=True, slots=True)
class Tag:
    """``[Name "value"]``; names compare case-insensitively through :attr:`key`."""

    name: str
    value: str
    span: Span = _span()

    @property
    def key(self) -> str:
        return self.name.casefold()


@dataclass(frozen=True, slots=True)
class HandStart:
    """``hand N [dealer NAME] [pass DIRECTION]``; direction is canonical text or None."""

    number: int
    dealer: str | None = None
    direction: str | None = None
    span: Span = _span()
    dealer_span: Span = _span()
    direction_span: Span = _span()


@dataclass(frozen=True, slots=True)
class CardRun:
    """A run of cards on one line, with the span of each card for pointed diagnostics."""

    cards: tuple[Card, ...]
    spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)
    # (line, column, text) of the cards as written, when ``spans`` is still to be built
    _source: tuple[int, int, str] | None = field(
        default=None, init=False, compare=False, repr=False)

    def span_of(self, index: int, fallback: Span) -> Span:
        return self.spans[index] if index < len(self.spans) else fallback

    def __getattr__(self, name: str):  # only called while a slot is empty: the lazy spans
        if name == "spans" and self._source is not None:
            from .logbody import run_spans

            spans = run_spans(*self._source)
            object.__setattr__(self, "spans", spans)
            return spans
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


@dataclass(frozen=True, slots=True)
class Deal:
    """``deal NAME: cards`` — the hand as dealt, before passing."""

    player: str
    run: CardRun
    span: Span = _span()
    player_span: Span = _span()


@dataclass(frozen=True, slots=True)
class Kitty:
    """``kitty: cards`` — the undealt cards of this hand."""

    run: CardRun
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Pass:
    """``pass NAME [-> NAME]: cards``; ``to`` is None when the recipient is left implicit."""

    player: str
    run: CardRun
    to: str | None = None
    span: Span = _span()
    player_span: Span = _span()
    to_span: Span = _span()


@dataclass(frozen=True, slots=True)
class Play:
    """One card in a trick.  ``player`` is None in the compact form (seating order implied)."""

    player: str | None
    card: Card
    span: Span = _span()
    card_span: Span = _span()
    # first column of the card when ``card_span`` is still to be built (it ends with ``span``)
    _card_column: int = field(default=0, init=False, compare=False, repr=False)

    def __getattr__(self, name: str):  # only called while a slot is empty: the lazy card span
        if name == "card_span":
            whole = self.span
            card_span = Span(whole.line, self._card_column, whole.end_line, whole.end_column)
            object.__setattr__(self, "card_span", card_span)
            return card_span
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


@dataclass(frozen=True, slots=True)
class Claim:
    """``-> NAME`` (a winner) or ``-> none`` (``player`` None: the trick was set aside)."""

    player: str | None
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Trick:
    """``trick N: NAME CARD, ... [-> claim]`` or compact ``trick N LEADER: CARD ...``."""

    number: int
    plays: tuple[Play, ...]
    claim: Claim | None = None
    leader: str | None = None
    span: Span = _span()
    leader_span: Span = _span()

    @property
    def compact(self) -> bool:
        return self.leader is not None


@dataclass(frozen=True, slots=True)
class Moon:
    """``moon NAME subtract|add`` — the shooter's choice."""

    player: str
    choice: str
    span: Span = _span()
    player_span: Span = _span()


@dataclass(frozen=True, slots=True)
class Entry:
    """``NAME VALUE`` inside a score or total line."""

    player: str
    value: int
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Score:
    """``score: NAME N, ...`` — the hand's points as written on the scoresheet."""

    entries: tuple[Entry, ...]
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Total:
    """``total: NAME N, ...`` — running totals as written."""

    entries: tuple[Entry, ...]
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class GameOver:
    """``winner: NAME ...`` — the log claims the game is over and names its winner(s)."""

    players: tuple[str, ...]
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Comment:
    """A whole-line ``# comment``, kept so that ``referee fmt`` does not lose it."""

    text: str
    span: Span = _span()


Event = Comment | Tag | HandStart | Deal | Kitty | Pass | Trick | Moon | Score | Total | GameOver

# Pass directions in canonical text: "left", "right", "across", "hold", or "N left"/"N right".
DIRECTION_WORDS = ("left", "right", "across", "hold")


# ---- fast construction, for the parser -----------------------------------------------------
# A frozen dataclass sets each field through object.__setattr__, and that dominated the time
# to read a log (a span per card).  These build the same objects by writing their slots
# directly: equal, half the cost.  If a record ever stops being a plain slotted dataclass,
# fast() returns the class itself and nothing changes but the speed.
def fast(cls: type):
    """A constructor taking every init field of ``cls`` positionally, bypassing the frozen
    checks; fields that are not init arguments get their defaults, as in ``__init__``."""
    every = fields(cls)
    names = [f.name for f in every if f.init]
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        return cls  # pragma: no cover
    args = ", ".join(names)
    body = "".join(f"    _set_{f.name}(obj, {f.name if f.init else '_default_' + f.name})\n"
                   for f in every)
    namespace = {"_new": object.__new__, "_cls": cls,
                 **{f"_set_{f.name}": cls.__dict__[f.name].__set__ for f in every},
                 **{f"_default_{f.name}": f.default for f in every if not f.init}}
    source = f"def make({args}):\n    obj = _new(_cls)\n{body}    return obj\n"
    exec(source, namespace)  # noqa: S102
    make = namespace["make"]
    make.__doc__ = f"{cls.__name__}({args}) without the frozen-dataclass overhead."
    return make


def setters(cls: type, *names: str) -> tuple:
    """The slot setters of fields ``names`` of ``cls``: ``set(obj, value)``, frozen or not."""
    return tuple(cls.__dict__[name].__set__ for name in names)
