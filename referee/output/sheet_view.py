"""The written lines of a hand around its tricks, as plain data: the hand line, deals, kitty,
passes, moon, and the score sheet beside the referee's figures.  Each card and entry carries
the diagnostics marked on it (:mod:`referee.output.marks`)."""

from __future__ import annotations

from referee.check.diagnostics import HandSummary
from referee.check.holdings import HandRecord
from referee.log.events import CardRun, Span
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
    hand, rows = record.number, []
    for seat in sorted(record.deals):
        deal = record.deals[seat]
        cards = card_row(deal.run, deal.span, marks, hand)
        rows.append({"what": "deal", "player": names[seat], "to": None, "cards": cards,
                     "line": deal.span.line, "marks": marks.rest_of_line(deal.span.line, hand)})
    if record.kitty is not None:
        kitty = record.kitty
        cards = card_row(kitty.run, kitty.span, marks, hand)
        rows.append({"what": "kitty", "player": None, "to": None, "cards": cards,
                     "line": kitty.span.line, "marks": marks.rest_of_line(kitty.span.line, hand)})
    for seat in sorted(record.passes):
        passed = record.passes[seat]
        cards = card_row(passed.run, passed.span, marks, hand)
        rows.append({"what": "pass", "player": names[seat], "to": passed.to, "cards": cards,
                     "line": passed.span.line,
                     "marks": marks.rest_of_line(passed.span.line, hand)})
    return rows


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
