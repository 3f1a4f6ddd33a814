"""This module files what a log records of one hand: its statements, filed by kind as the hand is
grouped, and its unreadable lines, as far as their first words tell what they were (``trik 5: ...``
is trick 5, whose cards are unknown): each is reported once, and the walk goes on knowing it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from heapq import merge

from referee.log.events import Deal, Event, HandStart, Kitty, Pass, Span, Trick
from referee.util.record import Record, record
from referee.util.suggest import did_you_mean


# the statements whose loss the walk accounts for (a lost tag, moon or winner line costs
# nothing beyond its own diagnostic: what it said is not used to judge anything else)
KINDS = ("hand", "deal", "kitty", "pass", "trick", "moon", "score", "total")
_HEAD = re.compile(r"\s*([^\W\d_]+)\s*(\d+)?")


@record
class Unread(Record):
    """An Unread holds one unreadable line that reads as the start of a statement of ``kind``."""

    kind: str
    span: Span
    number: int | None = None  # a trick's or hand's number as written


def classify(text: str, line: int) -> Unread | None:
    """Tell what ``text`` (one unreadable line) was meant to be; return None when its first word
    starts no statement (a tag, a comment, a line of noise)."""
    head = _HEAD.match(text)
    if head is None:
        return None
    word = head.group(1).casefold()
    kind = word if word in KINDS else did_you_mean(word, KINDS, cutoff=0.75)
    if kind is None:
        return None
    span = Span(line, 1, line, len(text) + 1)
    number = int(head.group(2)) if head.group(2) and len(head.group(2)) < 6 else None
    return Unread(kind, span, number)


def unread_lines(text: str, lines: Iterable[int], start: int = 0,
                 first: int = 1) -> tuple[Unread, ...]:
    """Find and classify the unreadable lines among ``lines`` (1-based) of ``text``.

    They are looked for from offset ``start``, where the line numbered ``first`` begins (a block of
    the log: the lines before it are not counted again)."""
    wanted = sorted(line for line in set(lines) if line > 0)
    if not wanted:
        return ()
    if wanted[0] < first:  # (only the issue of a reading that failed may be before its block)
        start, first = 0, 1
    # walk up to each wanted line, not split the whole text: a hostile file of a million
    # unreadable lines is reported after its first thousand, and no list of them is made
    find, pos, at, found = text.find, start, first, []
    for line in wanted:
        while at < line:
            pos = find("\n", pos) + 1
            if not pos:
                return tuple(found)
            at += 1
        end = find("\n", pos)
        unread = classify(text[pos:end] if end >= 0 else text[pos:], line)
        if unread is not None:
            found.append(unread)
    return tuple(found)


def with_unread(events: Sequence[Event], unread: Sequence[Unread]) -> tuple:
    """Merge the unreadable lines into the events, each in its place, in line order."""
    if not unread:
        return tuple(events)
    return tuple(merge(events, unread, key=lambda item: item.span.line))  # (a tie: event first)


@dataclass(slots=True)
class HandRecord:
    """A HandRecord holds the statements of one hand, its names resolved to seats."""

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
    # second deal or pass lines of one seat, (seat, line), judged once the hand is grouped
    doubles: list[tuple[int, Deal | Pass]] | None = None

    @property
    def has_play(self) -> bool:
        return bool(self.deals or self.kitty or self.passes or self.tricks or self.gaps)

    def lost(self, kind: str) -> Unread | None:
        """Return the first unreadable line of ``kind`` ('score', 'trick', ...) in this hand, or
        None."""
        if not self.unread:  # (as nearly every hand has none)
            return None
        return next((unread for unread in self.unread if unread.kind == kind), None)

    @property
    def scored(self) -> bool:
        """Tell whether the hand has a score line, readable or not."""
        return self.score is not None or self.lost("score") is not None

    @property
    def totalled(self) -> bool:
        return self.total is not None or self.lost("total") is not None
