"""A log read in blocks of lines, so that a check need not hold the whole file's events.

The blocks of a text, joined, are exactly :func:`~referee.log.parser.parse_log`'s result: every
statement is one line, so a cut between two lines changes nothing."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from referee.log.events import Event

__all__ = ["BLOCK_CHARS", "STOP_FAILED", "STOP_TOO_MANY", "Block", "Segment", "cut"]

# about 20 hands of a played log: one block's events are a small fraction of a megabyte,
# and a block costs one call of the line reader (blocks of 2,000 characters read as fast)
BLOCK_CHARS = 1 << 15

Segment = tuple[str, int, int, int]  # ("text" or "long", start, end, first line)

# why a reading stopped before the end (the last issue of its last block says so)
STOP_TOO_MANY = "too many unreadable lines"
STOP_FAILED = "failed"  # an internal error


class Block(NamedTuple):
    """The events and issues of a run of whole lines, which starts at ``start`` of the text
    (the line numbered ``line``).  A block whose ``stop`` is not None is the last: its last
    issue says why the rest was not read."""

    events: tuple[Event, ...]
    issues: tuple  # of referee.log.parser.SyntaxIssue (which is defined beside the reading)
    start: int
    line: int
    stop: str | None = None  # STOP_TOO_MANY or STOP_FAILED


def cut(text: str, segments: Iterable[Segment], size: int) -> Iterator[Segment]:
    """The ``segments`` of ``text`` (parser._segments), each run of lines cut after the first
    newline at or past ``size`` characters from the run's start.  Linear: each newline found
    is counted once."""
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
