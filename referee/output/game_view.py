"""The game as the referee saw it, as plain data (dicts, lists, strings, numbers): the one
view model behind ``referee report`` (HTML) and ``referee replay --format json``.

It reads what the check already records (the report, the finished tricks and the hand
records, kept by a watch as the replay goes) and judges nothing: which card won and where the
cards went are the engine's, what is wrong is the report's.  The shape is documented in
spec/json-output.md ("The replay as JSON").
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from referee.judge.diagnostics import HandSummary, Report
from referee.judge.hand_record import HandRecord, Unread
from referee.judge.stream import Watch
from referee.judge.table import Table, TracedTrick
from referee.log.events import Comment, Event, Tag
from referee.log.parser import ParseResult, parse_blocks, parse_text
from referee.log.recognise import looks_like_record
from referee.output.marks import Marks, explanations
from referee.output.sheet_view import (
    Kept,
    LaterHands,
    SheetLines,
    Totals,
    hand_line,
    moon_line,
    setup_rows,
    sheet_row,
    summary_finder,
    undrawn,
)
from referee.rules.cards import card_text, sort_key
from referee.rules.ruleset import Ruleset

VIEW_VERSION = 1
MAX_NOTES = 200  # comments and tags shown from one log
MAX_DRAWN_HANDS = 200  # hands drawn trick by trick; later ones are on the score sheet only


def referee_game(parsed: ParseResult | str, path: str, *, base_dir: Path | None = None,
                 ruleset: Ruleset | None = None, allowed_dirs: tuple = ()
                 ) -> tuple[Report, list[TracedTrick], list]:
    """Check a log and keep what the views need: the report, the finished tricks and the
    hand records (of a parsed log every one, :class:`WholeWatch`; of a log's decoded text
    what :class:`GameWatch` keeps).  Raises UnreadableLog."""
    from referee.judge.walk import check_parsed, judge_decoded

    # the last watch made followed the replay the report is of (a stream read again is
    # followed by a new one)
    made: list = []
    keeping = GameWatch if isinstance(parsed, str) else WholeWatch

    def watch(table: Table) -> Watch:
        made.append(keeping())
        return made[-1]

    judge = judge_decoded if isinstance(parsed, str) else check_parsed
    report = judge(parsed, path, base_dir=base_dir, watch=watch, ruleset=ruleset,
                   allowed_dirs=allowed_dirs)
    if not made:  # the setup failed: no hand was replayed (a text's notes are still shown)
        return report, [], Kept(notes=_notes_of(parsed)) if isinstance(parsed, str) else []
    return report, made[-1].traced, made[-1].records


class GameWatch(Watch):
    """What the views keep of a replay as it goes (:class:`referee.judge.stream.Watch`): the
    first :data:`MAX_DRAWN_HANDS` hands with their finished tricks, the score sheet lines
    of the later ones, and the first :data:`MAX_NOTES` comments and tags."""

    def __init__(self) -> None:
        self.trace = self  # the replay appends each finished trick
        self.traced: list[TracedTrick] = []
        self.notes: list[Event] = []
        self.records = Kept(notes=self.notes)

    def append(self, entry: TracedTrick) -> None:
        if entry.hand <= MAX_DRAWN_HANDS:  # (hands are numbered from 1 as recorded)
            self.traced.append(entry)

    def statements(self, events: Iterable[Event | Unread]) -> Iterator[Event | Unread]:
        notes = self.notes
        for event in events:
            if isinstance(event, (Comment, Tag)) and len(notes) < MAX_NOTES:
                notes.append(event)
            yield event

    def hand(self, record: HandRecord, summary: HandSummary) -> None:
        self.records.append(record if record.number <= MAX_DRAWN_HANDS
                            else SheetLines(record.number, record.score, record.total))


class WholeWatch(Watch):
    """Every hand record and every finished trick of a replay, in order: what the views keep
    of a parsed log, which is held whole anyway."""

    def __init__(self) -> None:
        self.traced: list[TracedTrick] = []
        self.trace = self.traced  # the replay appends each finished trick
        self.records: list[HandRecord] = []

    def hand(self, record: HandRecord, summary: HandSummary) -> None:
        self.records.append(record)


def _notes_of(text: str) -> list[Event]:
    """The first :data:`MAX_NOTES` comments and tags of a log, read a block at a time."""
    if looks_like_record(text):
        return [e for e in parse_text(text).events if isinstance(e, (Comment, Tag))][:MAX_NOTES]
    notes: list[Event] = []
    for block in parse_blocks(text):
        notes += [e for e in block.events if isinstance(e, (Comment, Tag))][:MAX_NOTES - len(notes)]
        if len(notes) >= MAX_NOTES:
            break
    return notes


class SourceLines:
    """The lines of a log's text by index, as ``text.split("\n")`` gives them, without
    holding them: the offsets of the line starts only, found when a line is first asked for."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: array | None = None

    @property
    def starts(self) -> array:
        if self.found is None:
            text, starts = self.text, array("q", [0])
            find, at = text.find, text.find("\n")
            while at >= 0:
                starts.append(at + 1)
                at = find("\n", at + 1)
            self.found = starts
        return self.found

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, index: int) -> str:
        starts = self.starts
        start = starts[index]
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(self.text)
        return self.text[start:end]


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
              names: list[str], marks: Marks, source_lines: list[str] | SourceLines) -> dict:
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


def game_view(report: Report, trace: list[TracedTrick], records: list,
              parsed: ParseResult | None = None) -> dict:
    """The whole game as plain data; the comments and tags shown are ``parsed``'s, else
    those kept with ``records`` (:func:`referee_game` of a log's text)."""
    view = GameView(report, trace, records, parsed)
    return view.document(list(view.hands()))


class GameView:
    """:func:`game_view` in two steps, for a writer that does not hold every hand's view:
    :meth:`hands` one at a time, then :meth:`document`, the rest (which must come after:
    what a hand's elements mark is not marked again on a note)."""

    def __init__(self, report: Report, trace: list[TracedTrick], records: list,
                 parsed: ParseResult | None = None) -> None:
        self.report, self.records = report, records
        self.marks = Marks(report.diagnostics)
        self.names = list(report.players)
        self.by_hand: dict[int, list[TracedTrick]] = {}
        for entry in trace:
            self.by_hand.setdefault(entry.hand, []).append(entry)
        self.events = parsed.events if parsed is not None else getattr(records, "notes", ())

    def hands(self) -> Iterator[dict]:
        names, marks = self.names, self.marks
        source_lines = SourceLines(self.report.source)
        find = summary_finder(self.report.hands)
        for index, record in enumerate(self.records):
            summary = find(index, record.number)
            if index < MAX_DRAWN_HANDS:
                yield hand_view(record, summary, self.by_hand.get(record.number, []), names,
                                marks, source_lines)
            else:
                yield undrawn(record, summary, names, marks)

    def page(self) -> dict:
        """:meth:`document` for a page, which reads the hands and the totals more than once:
        of the later hands only those that mark a diagnostic are held (:class:`LaterHands`)."""
        held, marked, placed = [], {}, self.marks.placed
        before = len(placed)
        for index, view in enumerate(self.hands()):
            if view["drawn"]:
                held.append(view)
            elif len(placed) > before:  # its making placed a diagnostic
                marked[index] = view
            before = len(placed)
        later = LaterHands(held, marked, self.records, self.report.hands, self.names)
        return self.document(later, Totals(self.report.hands))

    def document(self, hands: Iterable[dict], totals: Iterable[dict] | None = None) -> dict:
        report, marks, names = self.report, self.marks, self.names
        notes = []
        for event in self.events:
            if isinstance(event, (Comment, Tag)) and len(notes) < MAX_NOTES:
                notes.append({"line": event.span.line, "tag": getattr(event, "name", None),
                              "text": event.text if isinstance(event, Comment) else event.value,
                              "marks": marks.rest_of_line(event.span.line, None)})
        return {
            "version": VIEW_VERSION, "path": report.path, "ruleset": report.ruleset,
            "players": names, "verdict": report.verdict, "winners": report.winners,
            "notes": notes, "hands": hands,
            "totals": totals if totals is not None else [
                {"hand": s.number, "totals": dict(s.totals)} for s in report.hands],
            "diagnostics": explanations(report.diagnostics, marks),
            "suppressed": dict(report.suppressed), "unchecked": list(report.unchecked),
        }
