"""The written lines of a hand around its tricks, as plain data: the hand line, deals, kitty,
passes, moon, and the score sheet beside the referee's figures.  Each card and entry carries
the diagnostics marked on it (:mod:`referee.output.marks`).

A log of many hands is shown by their score sheet lines past the drawn ones, held as little as
it can be (:class:`Kept`, :class:`LaterHands`, :class:`Totals`)."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import pairwise
from typing import NamedTuple

from referee.judge.diagnostics import HandSummary
from referee.judge.hand_record import HandRecord
from referee.log.events import CardRun, Event, Score, Span, Total
from referee.output.marks import Marks
from referee.rules.cards import card_text


def card_row(run: CardRun, fallback: Span, marks: Marks, hand: int) -> list[dict]:
    """The cards of a run, each with its place and its marks."""
    out = []
    for index, card in enumerate(run.cards):
        span = run.span_of(index, fallback)
        out.append({"card": card_text(card), "line": span.line, "column": span.column,
                    "marks": marks.take(span, hand), "evidence": marks.evidence(span)})
    return out


def setup_rows(record: HandRecord, names: list[str], marks: Marks) -> list[dict]:
    """The hand's deal, kitty and pass lines as written, in seating order."""
    written = [("deal", names[seat], None, record.deals[seat]) for seat in sorted(record.deals)]
    if record.kitty is not None:
        written.append(("kitty", None, None, record.kitty))
    written += [("pass", names[seat], record.passes[seat].to, record.passes[seat])
                for seat in sorted(record.passes)]
    hand = record.number
    # the cards take their marks before the rest of their line does
    return [{"what": what, "player": player, "to": to,
             "cards": card_row(line.run, line.span, marks, hand), "line": line.span.line,
             "marks": marks.rest_of_line(line.span.line, hand)}
            for what, player, to, line in written]


def hand_line(record: HandRecord, marks: Marks) -> dict | None:
    """``hand N dealer NAME pass DIRECTION`` as written, with its marks."""
    start = record.start
    if start is None:
        return None
    taken = marks.take(start.dealer_span, record.number) if start.dealer else []
    taken += marks.take(start.direction_span, record.number) if start.direction else []
    return {"number": start.number, "dealer": start.dealer, "direction": start.direction,
            "line": start.span.line,
            "marks": taken + marks.rest_of_line(start.span.line, record.number)}


def moon_line(record: HandRecord, marks: Marks) -> dict | None:
    moon = record.moon
    if moon is None:
        return None
    taken = marks.take(moon.player_span, record.number)
    return {"player": moon.player, "choice": moon.choice, "line": moon.span.line,
            "marks": taken + marks.rest_of_line(moon.span.line, record.number)}


def _entries(line, names: list[str], marks: Marks, hand: int) -> dict | None:
    """A score or total line: each entry under its player's name, with its marks."""
    if line is None:
        return None
    seats = {name.casefold(): name for name in names}
    cells, unplaced = {}, []
    for entry in line.entries:
        name = seats.get(entry.player.casefold())
        cell = {"value": entry.value, "written_name": entry.player, "line": entry.span.line,
                "column": entry.span.column, "marks": marks.take(entry.span, hand)}
        if name is None or name in cells:
            unplaced.append(cell)
        else:
            cells[name] = cell
    return {"line": line.span.line, "cells": cells, "unplaced": unplaced,
            "marks": marks.take(line.span, hand) + marks.rest_of_line(line.span.line, hand)}


def sheet_row(record: HandRecord, summary: HandSummary | None, names: list[str],
              marks: Marks) -> dict:
    """The hand's score and total lines as written beside the referee's points and totals."""
    hand = record.number
    return {
        "score": _entries(record.score, names, marks, hand),
        "total": _entries(record.total, names, marks, hand),
        "points": dict(summary.points) if summary else {},
        "totals": dict(summary.totals) if summary else {},
        "complete": summary.complete if summary else False,
        "shooter": summary.shooter if summary else None,
        "lost": summary.lost if summary else 0,
    }


def undrawn(record: HandRecord | SheetLines, summary: HandSummary | None, names: list[str],
            marks: Marks) -> dict:
    """A hand past the drawn ones: its score sheet lines only (a page, or a JSON document,
    of a log of thousands of hands stays readable)."""
    return {"number": record.number, "drawn": False, "start": None, "setup": [], "tricks": [],
            "kitty": None, "moon": None, "sheet": sheet_row(record, summary, names, marks)}


class SheetLines(NamedTuple):
    """All a hand past the drawn ones is shown by: its score and total lines."""

    number: int
    score: Score | None
    total: Total | None


class Kept(Sequence):
    """The hand records a view reads: the drawn hands' records, then a :class:`SheetLines`
    of each later hand, made as it is read; and the comments and tags it shows (``notes``)."""

    def __init__(self, records: Iterable = (), *, notes: list[Event]) -> None:
        self.notes = notes
        self.drawn: list[HandRecord] = []
        self.numbers = array("q")  # of the later hands
        self.lines: dict[int, tuple] = {}  # a later hand's (score, total), by its index there
        for record in records:
            self.append(record)

    def append(self, record: HandRecord | SheetLines) -> None:
        if not isinstance(record, SheetLines):
            self.drawn.append(record)  # (the drawn hands come first)
            return
        if record.score is not None or record.total is not None:
            self.lines[len(self.numbers)] = (record.score, record.total)
        self.numbers.append(record.number)

    def __len__(self) -> int:
        return len(self.drawn) + len(self.numbers)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index < len(self.drawn):
            return self.drawn[index]
        later = index - len(self.drawn)
        if not 0 <= later < len(self.numbers):
            raise IndexError("hand record index out of range")
        return SheetLines(self.numbers[later], *self.lines.get(later, (None, None)))

    def __iter__(self) -> Iterator[HandRecord | SheetLines]:
        yield from self.drawn
        lines, blank = self.lines, (None, None)
        for later, number in enumerate(self.numbers):
            yield SheetLines(number, *lines.get(later, blank))

    def __eq__(self, other):
        if isinstance(other, (list, Kept)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  (a list's equality, mutable)


def summary_finder(summaries: list[HandSummary]) -> Callable[[int, int], HandSummary | None]:
    """``find(index, number)``: the summary of the hand numbered ``number``, the
    ``index``-th record: at its place, or by bisection (a table only for summaries out of
    order)."""
    if all(a.number < b.number for a, b in pairwise(summaries)):
        def find(index: int, number: int) -> HandSummary | None:
            if index < len(summaries) and summaries[index].number == number:
                return summaries[index]
            at = bisect_left(summaries, number, key=lambda s: s.number)
            return summaries[at] if at < len(summaries) and summaries[at].number == number \
                else None
        return find
    by_number = {s.number: s for s in summaries}
    return lambda index, number: by_number.get(number)


class _Unmarked:
    """The marks of a view made again: every diagnostic was placed when it was first made."""

    def take(self, span: Span | None, hand: int | None) -> list[str]:
        return []

    def rest_of_line(self, line: int, hand: int | None) -> list[str]:
        return []


class LaterHands:
    """The views of a game's hands for a page, which reads them more than once: the drawn
    hands' views and the later ones that mark a diagnostic are held, the other later ones
    made again at each reading (of their number, sheet lines and summary)."""

    def __init__(self, held: list[dict], marked: dict[int, dict], records: Sequence,
                 summaries: list[HandSummary], names: list[str]) -> None:
        self.held, self.marked, self.records, self.names = held, marked, records, names
        self.find = summary_finder(summaries)

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[dict]:
        yield from self.held
        find, names, marked, unmarked = self.find, self.names, self.marked, _Unmarked()
        for index, record in enumerate(self.records):
            if index < len(self.held):
                continue
            view = marked.get(index)
            yield view if view is not None else undrawn(record, find(index, record.number),
                                                        names, unmarked)


class Totals:
    """The running totals of every hand, ``{"hand": N, "totals": {name: total}}``, made as
    they are read."""

    def __init__(self, summaries: list[HandSummary]) -> None:
        self.summaries = summaries

    def __len__(self) -> int:
        return len(self.summaries)

    def __iter__(self) -> Iterator[dict]:
        for summary in self.summaries:
            yield {"hand": summary.number, "totals": summary.totals}
