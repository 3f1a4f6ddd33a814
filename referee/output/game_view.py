"""The game as the referee saw it, as plain data (dicts, lists, strings, numbers): the one
view model behind ``referee report`` (HTML) and ``referee replay --format json``.

It reads what the check already records, the report, the trace of finished tricks and the
hand records, and judges nothing: which card won, which cancelled, where the set-aside
cards and the kitty went are the engine's (``TrickRecord``); what is wrong is the report's.
The shape is documented in spec/json-output.md ("The replay as JSON").
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from referee.check.diagnostics import HandSummary, Report
from referee.check.holdings import HandRecord
from referee.check.table import TracedTrick
from referee.log.events import Comment, Tag
from referee.log.parser import ParseResult
from referee.output.marks import Marks, explanations
from referee.output.sheet_view import hand_line, moon_line, setup_rows, sheet_row
from referee.rules.cards import card_text, sort_key
from referee.rules.ruleset import Ruleset

VIEW_VERSION = 1
MAX_NOTES = 200  # comments and tags shown from one log
MAX_DRAWN_HANDS = 200  # hands drawn trick by trick; later ones are on the score sheet only


def referee_game(parsed: ParseResult, path: str, *, base_dir: Path | None = None,
                 ruleset: Ruleset | None = None, allowed_dirs: tuple = ()
                 ) -> tuple[Report, list[TracedTrick], list[HandRecord]]:
    """Check a parsed log and keep what the views need: the report, every finished trick
    and the hand records (handed over by the hook that runs after the replay)."""
    from referee.check.replay import check_parsed

    trace: list[TracedTrick] = []
    kept: list[list[HandRecord]] = []
    report = check_parsed(parsed, path, base_dir=base_dir, trace=trace, ruleset=ruleset,
                          allowed_dirs=allowed_dirs,
                          prove=lambda _report, _parsed, _table, records: kept.append(records))
    return report, trace, kept[0] if kept else []


def _cards(cards) -> list[str]:
    return [card_text(c) for c in sorted(cards, key=sort_key)]


class _Flow:
    """Where the set-aside cards and the kitty of one hand wait and go, read off the
    engine's records: cards a trick collects beyond its own and the waiting tricks' are the
    kitty's."""

    def __init__(self) -> None:
        self.waiting: list[int] = []  # set-aside tricks whose cards wait for a winner
        self.cards: Counter = Counter()
        self.kitty_waits = False
        self.kitty: dict = {"cards": [], "taken_by": None, "trick": None, "joined": None}

    def follow(self, entry: TracedTrick, names: list[str]) -> dict:
        record = entry.record
        own = Counter(card for _, card in record.plays)
        if record.winner is not None:
            gone = Counter(record.collected)
        else:
            gone = Counter(entry.pile)
        joined = gone - own - self.cards
        if joined and self.kitty["joined"] is None:
            self.kitty["joined"] = record.number
            self.kitty_waits = True
        carried = {"tricks": list(self.waiting), "kitty": self.kitty_waits,
                   "cards": sum(gone.values()) - sum(own.values())}
        if record.winner is not None:
            if self.kitty_waits:
                self.kitty.update(taken_by=names[record.winner], trick=record.number)
            self.waiting, self.cards, self.kitty_waits = [], Counter(), False
            return {"takes": carried, "pile": [], "lost": None}
        if entry.pile:  # set aside: its cards wait with the others
            self.waiting.append(record.number)
            self.cards = Counter(entry.pile)
            return {"takes": None, "pile": _cards(entry.pile), "lost": None}
        # the last trick set aside: what waited goes to nobody
        lost = {"tricks": list(self.waiting), "kitty": self.kitty_waits, "points": record.points}
        self.waiting, self.cards, self.kitty_waits = [], Counter(), False
        return {"takes": None, "pile": [], "lost": lost}


def _plays(entry: TracedTrick, names: list[str], marks: Marks, hand: int) -> list[dict]:
    record = entry.record
    stood = len(record.plays)
    cancelled = record.outcome.cancelled
    out = []
    for index, (seat, card, play) in enumerate(entry.plays):
        span = play.card_span
        out.append({
            "player": names[seat], "seat": seat, "card": card_text(card),
            "stood": index < stood, "cancelled": index < stood and card in cancelled,
            "wins": index == record.outcome.winner, "line": span.line, "column": span.column,
            "marks": marks.take(span, hand) + marks.take(play.span, hand),
            "evidence": marks.evidence(play.span) + marks.evidence(span),
        })
    return out


def trick_view(entry: TracedTrick, names: list[str], marks: Marks, flow: _Flow) -> dict:
    """One finished trick: the plays as written and what stood, the written claim beside
    the engine's resolution, and where its cards went."""
    hand, record, written = entry.hand, entry.record, entry.written
    plays = _plays(entry, names, marks, hand)
    claim = None
    if written.claim is not None:
        claim = {"player": written.claim.player, "set_aside": written.claim.player is None,
                 "line": written.claim.span.line, "column": written.claim.span.column,
                 "marks": marks.take(written.claim.span, hand)}
    view = {
        "number": record.number, "written_number": written.number,
        "leader": names[record.leader], "plays": plays, "claim": claim,
        "winner": names[record.winner] if record.winner is not None else None,
        "set_aside": record.outcome.winner is None,
        "cancelled": _cards(record.outcome.cancelled),
        "points": record.points if record.winner is not None else 0,
        "line": written.span.line,
        **flow.follow(entry, names),
    }
    view["marks"] = marks.take(written.span, hand) + marks.rest_of_line(written.span.line, hand)
    return view


def _unplayed_trick(trick, source_lines: list[str], marks: Marks, hand: int) -> dict:
    """A written trick the replay did not finish (the log stops in it, or it is one too
    many): shown as written."""
    line = trick.span.line
    text = source_lines[line - 1] if 0 < line <= len(source_lines) else ""
    for play in trick.plays:
        marks.take(play.card_span, hand)
    return {"number": trick.number, "line": line, "text": text,
            "marks": marks.take(trick.span, hand) + marks.rest_of_line(line, hand)}


def hand_view(record: HandRecord, summary: HandSummary | None, traced: list[TracedTrick],
              names: list[str], marks: Marks, source_lines: list[str]) -> dict:
    hand = record.number
    view = {"number": hand, "drawn": True, "start": hand_line(record, marks),
            "setup": setup_rows(record, names, marks)}
    flow, finished = _Flow(), {id(entry.written): entry for entry in traced}
    tricks = []
    for trick in record.tricks:
        entry = finished.get(id(trick))
        tricks.append(trick_view(entry, names, marks, flow) if entry is not None
                      else {"unplayed": _unplayed_trick(trick, source_lines, marks, hand)})
    if traced:
        flow.kitty["cards"] = _cards(traced[0].kitty)
    view.update(tricks=tricks, kitty=flow.kitty if traced else None,
                moon=moon_line(record, marks), sheet=sheet_row(record, summary, names, marks))
    return view


def _undrawn(record: HandRecord, summary: HandSummary | None, names: list[str],
             marks: Marks) -> dict:
    """A hand past :data:`MAX_DRAWN_HANDS`: its score sheet lines only (a page, or a JSON
    document, of a log of thousands of hands stays readable)."""
    return {"number": record.number, "drawn": False, "start": None, "setup": [], "tricks": [],
            "kitty": None, "moon": None, "sheet": sheet_row(record, summary, names, marks)}


def game_view(report: Report, trace: list[TracedTrick], records: list[HandRecord],
              parsed: ParseResult | None = None) -> dict:
    """The whole game as plain data."""
    marks = Marks(report.diagnostics)
    names = list(report.players)
    source_lines = report.source.split("\n")
    by_hand: dict[int, list[TracedTrick]] = {}
    for entry in trace:
        by_hand.setdefault(entry.hand, []).append(entry)
    summaries = {s.number: s for s in report.hands}
    hands = [hand_view(record, summaries.get(record.number), by_hand.get(record.number, []),
                       names, marks, source_lines) if index < MAX_DRAWN_HANDS
             else _undrawn(record, summaries.get(record.number), names, marks)
             for index, record in enumerate(records)]
    notes = []
    for event in (parsed.events if parsed is not None else ()):
        if isinstance(event, (Comment, Tag)) and len(notes) < MAX_NOTES:
            notes.append({"line": event.span.line, "tag": getattr(event, "name", None),
                          "text": event.text if isinstance(event, Comment) else event.value,
                          "marks": marks.rest_of_line(event.span.line, None)})
    return {
        "version": VIEW_VERSION, "path": report.path, "ruleset": report.ruleset,
        "players": names, "verdict": report.verdict, "winners": report.winners,
        "notes": notes, "hands": hands,
        "totals": [{"hand": s.number, "totals": dict(s.totals)} for s in report.hands],
        "diagnostics": explanations(report.diagnostics, marks),
        "suppressed": dict(report.suppressed), "unchecked": list(report.unchecked),
    }
