"""What a log records of one hand: its statements, filed by kind as the hand is grouped."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.judge.unread import Unread
from referee.log.events import Deal, HandStart, Kitty, Pass, Span, Trick

__all__ = ["HandRecord"]


@dataclass(slots=True)
class HandRecord:
    """The statements of one hand, names resolved to seats."""

    number: int
    start: HandStart | None = None
    deals: dict[int, Deal] = field(default_factory=dict)
    kitty: Kitty | None = None
    passes: dict[int, Pass] = field(default_factory=dict)
    tricks: list[Trick] = field(default_factory=list)
    moon: object | None = None
    score: object | None = None
    total: object | None = None
    span: Span | None = None
    unread: list[Unread] = field(default_factory=list)  # its unreadable lines
    gaps: list[int] = field(default_factory=list)  # unreadable tricks: the index they precede
    # a `pass DIRECTION` header that is not the one due, as written (already reported, R3.3)
    wrong_direction: str | None = None

    @property
    def has_play(self) -> bool:
        return bool(self.deals or self.kitty or self.passes or self.tricks or self.gaps)

    def lost(self, kind: str) -> Unread | None:
        """The first unreadable line of ``kind`` ('score', 'trick', ...) in this hand, or None."""
        return next((unread for unread in self.unread if unread.kind == kind), None)

    @property
    def scored(self) -> bool:
        """Whether the hand has a score line, readable or not."""
        return self.score is not None or self.lost("score") is not None

    @property
    def totalled(self) -> bool:
        return self.total is not None or self.lost("total") is not None
