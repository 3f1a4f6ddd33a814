"""This module shows the game as the referee saw it, as plain data.

This is the view model behind ``referee report`` (HTML) and ``referee replay --format json``
(spec/json-output.md).  A diagnostic is marked on the element whose first character is its
place, else on the row of its line, else only listed.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

from referee.judge.codes import BY_KIND
from referee.judge.diagnostics import Diagnostic, HandSummary, Report
from referee.judge.hand_record import HandRecord, Unread
from referee.judge.stream import Watch
from referee.judge.table import CheckTable, TracedTrick
from referee.judge.walk import judge_decoded
from referee.log.decode import Lines
from referee.log.events import CardRun, Comment, Event, Score, Span, Tag, Total
from referee.log.parser import parse_blocks, parse_text
from referee.log.recognise import looks_like_record
from referee.rules import engine
from referee.rules.cards import card_text, counts_of, sort_key
from referee.rules.legality import legal_cards
from referee.rules.rulebook import clause_quote
from referee.rules.ruleset import Ruleset, direction_offset
from referee.rules.ruleset_files import RulesetError
from referee.rules.state import IllegalAction, State

VIEW_VERSION = 1
MAX_NOTES = 200  # comments and tags shown from one log
MAX_DRAWN_HANDS = 200  # hands drawn trick by trick; later ones are on the score sheet only


class Marks:
    """Marks holds the diagnostics of one report, by place, and where each has been
    marked."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.ids = [f"d{index + 1}" for index in range(len(diagnostics))]
        self.at: dict[tuple[int, int], list[str]] = {}
        self.on_line: dict[int, list[str]] = {}
        self.evidence_at: dict[tuple[int, int], list[str]] = {}
        for ident, diag in zip(self.ids, diagnostics):
            self.at.setdefault((diag.line, diag.column), []).append(ident)
            self.on_line.setdefault(diag.line, []).append(ident)
            for rel in diag.related:
                self.evidence_at.setdefault((rel.line, rel.column), []).append(ident)
        self.placed: dict[str, int | None] = {}  # diagnostic id -> hand it is marked in

    def _place(self, idents: Iterable[str], hand: int | None) -> list[str]:
        found = [i for i in idents if i not in self.placed]
        self.placed.update(dict.fromkeys(found, hand))
        return found

    def take(self, span: Span | None, hand: int | None) -> list[str]:
        """Take the diagnostics at the first character of ``span``, and mark them there."""
        if span is None:
            return []
        return self._place(self.at.get((span.line, span.column), ()), hand)

    def evidence(self, span: Span | None) -> list[str]:
        """Find the diagnostics whose evidence includes the element at ``span``."""
        return list(self.evidence_at.get((span.line, span.column), ())) if span else []

    def row(self, line: int, hand: int | None, *spans: Span | None) -> list[str]:
        """Take the diagnostics at each of ``spans`` first, then mark on its row those on ``line``
        that no element of it took."""
        taken = [ident for span in spans for ident in self.take(span, hand)]
        return taken + self._place(self.on_line.get(line, ()), hand)


def explanations(diagnostics: list[Diagnostic], marks: Marks) -> list[dict]:
    """List each diagnostic with its explanation, the clause quoted, and where it is
    marked."""
    out = []
    for ident, diag in zip(marks.ids, diagnostics):
        entry = BY_KIND.get(diag.kind)
        quote = clause_quote(diag.rule)  # the clause as plain text, without markdown
        out.append({
            "id": ident, "code": diag.code, "kind": diag.kind, "severity": diag.severity,
            "line": diag.line, "column": diag.column, "message": diag.message,
            "hint": diag.hint, "hand": diag.hand, "trick": diag.trick, "player": diag.player,
            "summary": entry.summary if entry else "", "why": entry.why if entry else "",
            "clause": {key: quote[key] for key in ("id", "title", "text")},
            "related": [{"line": r.line, "column": r.column, "note": r.note}
                        for r in diag.related],
            "marked": ident in marks.placed,
            "shown_in_hand": marks.placed.get(ident, diag.hand),
        })
    return out


def card_row(run: CardRun, fallback: Span, marks: Marks, hand: int) -> list[dict]:
    """List the cards of a run, each with its place and its marks."""
    out = []
    for index, card in enumerate(run.cards):
        span = run.span_of(index, fallback)
        out.append({"card": card_text(card), "line": span.line, "column": span.column,
                    "marks": marks.take(span, hand), "evidence": marks.evidence(span)})
    return out


def setup_rows(record: HandRecord, names: list[str], marks: Marks) -> list[dict]:
    """List the hand's deal, kitty and pass lines as written, in seating order."""
    written = [("deal", names[seat], None, record.deals[seat]) for seat in sorted(record.deals)]
    if record.kitty is not None:
        written.append(("kitty", None, None, record.kitty))
    written += [("pass", names[seat], record.passes[seat].to, record.passes[seat])
                for seat in sorted(record.passes)]
    hand = record.number
    # the cards take their marks before the rest of their line does
    return [{"what": what, "player": player, "to": to,
             "cards": card_row(line.run, line.span, marks, hand), "line": line.span.line,
             "marks": marks.row(line.span.line, hand)}
            for what, player, to, line in written]


def hand_line(record: HandRecord, marks: Marks) -> dict | None:
    """Show ``hand N dealer NAME pass DIRECTION`` as written, with its marks."""
    start = record.start
    if start is None:
        return None
    return {"number": start.number, "dealer": start.dealer, "direction": start.direction,
            "line": start.span.line,
            "marks": marks.row(start.span.line, record.number,
                               start.dealer_span if start.dealer else None,
                               start.direction_span if start.direction else None)}


def moon_line(record: HandRecord, marks: Marks) -> dict | None:
    moon = record.moon
    if moon is None:
        return None
    return {"player": moon.player, "choice": moon.choice, "line": moon.span.line,
            "marks": marks.row(moon.span.line, record.number, moon.player_span)}


def _entries(line, names: list[str], marks: Marks, hand: int) -> dict | None:
    """Show a score or total line: each entry under its player's name, with its marks."""
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
            "marks": marks.row(line.span.line, hand, line.span)}


def sheet_row(record: HandRecord | SheetLines, summary: HandSummary | None, names: list[str],
              marks: Marks) -> dict:
    """Show the hand's score and total lines as written beside the referee's points and
    totals."""
    summary = summary or _NO_SUMMARY
    return {"score": _entries(record.score, names, marks, record.number),
            "total": _entries(record.total, names, marks, record.number),
            "points": summary.points, "totals": summary.totals, "complete": summary.complete,
            "shooter": summary.shooter, "lost": summary.lost}


_NO_SUMMARY = HandSummary.seated(0, (), None, None, False)


def undrawn(record: HandRecord | SheetLines, summary: HandSummary | None, names: list[str],
            marks: Marks) -> dict:
    """Show a hand past the drawn ones: its score sheet lines only."""
    return {"number": record.number, "drawn": False, "start": None, "setup": [], "tricks": [],
            "kitty": None, "moon": None, "sheet": sheet_row(record, summary, names, marks)}


class SheetLines(NamedTuple):
    """SheetLines holds all a hand past the drawn ones is shown by: its score and total
    lines."""

    number: int
    score: Score | None
    total: Total | None


class Reread:
    """A Reread yields what ``make(*args)`` yields, made again at each iteration (a long game's
    views are not held), and is ``size`` long when a size is given."""

    def __init__(self, make: Callable[..., Iterator], *args, size: int | None = None) -> None:
        self.make, self.args, self.size = make, args, size

    def __len__(self) -> int:
        if self.size is None:
            raise TypeError("this view was made without its length")
        return self.size

    def __iter__(self) -> Iterator:
        return self.make(*self.args)


def summary_finder(summaries: list[HandSummary]) -> Callable[[int, int], HandSummary | None]:
    """Make ``find(index, number)``, which finds the summary of hand ``number``, the
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


def watched(judge, source, path: str, make, **options) -> tuple[Report, Watch | None]:
    """Return the report of ``judge(source, path, ...)`` and the watch ``make(table)`` made for
    the check it follows (the last one made: a stream read again gets a new one), or None."""
    made: list = []

    def watch(table: CheckTable) -> Watch:
        made.append(make(table))
        return made[-1]

    report = judge(source, path, watch=watch, **options)
    return report, made[-1] if made else None


def referee_game(text: str, path: str, *, base_dir: Path | None = None,
                 ruleset: Ruleset | None = None, allowed_dirs: tuple = ()
                 ) -> tuple[Report, list[TracedTrick], GameWatch]:
    """Check a log's decoded text and keep what the views need (a :class:`GameWatch`): the
    report, the finished tricks and the hand records.  Raise UnreadableLog."""
    report, kept = watched(judge_decoded, text, path, lambda table: GameWatch(table.rules),
                           base_dir=base_dir, ruleset=ruleset, allowed_dirs=allowed_dirs)
    if kept is None:  # the setup failed: no hand was judged (the notes are still shown)
        kept = GameWatch(notes=notes_of(text))
    return report, kept.traced, kept


class GameWatch(Watch):
    """A GameWatch keeps what the views need of a check as it goes, and the hand records they read:
    the first :data:`MAX_DRAWN_HANDS` hands with their finished tricks, then a :class:`SheetLines`
    of each later hand, made as it is read; and the first :data:`MAX_NOTES` comments and tags."""

    def __init__(self, rules: Ruleset | None = None, notes: list[Event] | None = None) -> None:
        self.rules = rules
        self.traced: list[TracedTrick] = []
        self.notes = [] if notes is None else notes
        self.drawn: list[HandRecord] = []
        self.numbers = array("q")  # of the later hands
        self.lines: dict[int, tuple] = {}  # a later hand's (score, total), by its index there

    @property
    def trace(self) -> GameWatch:
        """Return this watch, which the check appends each finished trick to (a property: an
        attribute holding the watch itself would make it a garbage cycle)."""
        return self

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
        if record.number <= MAX_DRAWN_HANDS:
            self.drawn.append(record)  # (the drawn hands come first)
            return
        if record.score is not None or record.total is not None:
            self.lines[len(self.numbers)] = (record.score, record.total)
        self.numbers.append(record.number)

    def __len__(self) -> int:
        return len(self.drawn) + len(self.numbers)

    def __iter__(self) -> Iterator[HandRecord | SheetLines]:
        yield from self.drawn
        lines, blank = self.lines, (None, None)
        for later, number in enumerate(self.numbers):
            yield SheetLines(number, *lines.get(later, blank))


def notes_of(text: str) -> list[Event]:
    """Read the first :data:`MAX_NOTES` comments and tags of a log, a block at a time."""
    if looks_like_record(text):
        return [e for e in parse_text(text).events if isinstance(e, (Comment, Tag))][:MAX_NOTES]
    notes: list[Event] = []
    for block in parse_blocks(text):
        notes += [e for e in block.events if isinstance(e, (Comment, Tag))][:MAX_NOTES - len(notes)]
        if len(notes) >= MAX_NOTES:
            break
    return notes


def _cards(cards) -> list[str]:
    return [card_text(c) for c in sorted(cards, key=sort_key)]


class _Flow:
    """A _Flow tells where the set-aside cards and the kitty of one hand wait and go, read off
    the engine's records: cards a trick collects beyond its own and the waiting tricks' are the
    kitty's."""

    def __init__(self) -> None:
        self.waiting: list[int] = []  # set-aside tricks whose cards wait for a winner
        self.cards: Counter = Counter()
        self.kitty_waits = False
        self.kitty: dict = {"cards": [], "taken_by": None, "trick": None, "joined": None}

    def follow(self, entry: TracedTrick, names: list[str]) -> dict:
        record = entry.record
        own = Counter(card for _, card in record.plays)
        gone = Counter(record.collected if record.winner is not None else entry.pile)
        if (gone - own - self.cards) and self.kitty["joined"] is None:
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


def _holdings_in_play(rules: Ruleset, players: int, record: HandRecord) -> State | None:
    """Rebuild the engine's state at the first lead of a hand from its recorded deals and passes;
    return None when the record does not give every holding (a deal or a due pass not recorded, a
    passed card not dealt, an unreadable trick)."""
    if len(record.deals) != players or record.gaps or not all(
            0 <= seat < players for seat in record.deals):
        return None
    try:  # (a table the ruleset does not allow, or a hand number no pass rule reaches)
        state = engine.new_game(rules, players)._replace(hand_number=max(record.number, 1))
        passing = direction_offset(state.pass_direction, players)
    except (IllegalAction, RulesetError):
        return None
    holdings = [list(counts_of(record.deals[seat].run.cards)) for seat in range(players)]
    if passing:
        if len(record.passes) != players:
            return None
        for seat, given in record.passes.items():
            to = engine.pass_recipient(state, seat)
            for card in given.run.cards:
                if not holdings[seat][card]:
                    return None
                holdings[seat][card] -= 1
                holdings[to][card] += 1
    elif record.passes:
        return None
    kitty = tuple(record.kitty.run.cards) if record.kitty is not None else ()
    return engine.begin_play(state, [tuple(h) for h in holdings], kitty)


def legal_cards_played(rules: Ruleset, players: int, record: HandRecord,
                       traced: list[TracedTrick]) -> dict[int, list[tuple[int, ...] | None]]:
    """Find, for each finished trick of a hand (by ``id`` of its written trick), the legal cards
    of the seat at each play that stood, from the recorded deals, passes and earlier plays;
    None for a play whose holding the record does not give."""
    state = _holdings_in_play(rules, players, record)
    unknown: set[int] = set()
    out: dict[int, list[tuple[int, ...] | None]] = {}
    for entry in traced:
        played = entry.record.plays
        lists: list[tuple[int, ...] | None] = []
        if state is not None:
            state = state._replace(leader=entry.record.leader, trick=(),
                                   trick_number=entry.record.number, phase=engine.Phase.PLAY)
        for seat, card in played:
            if state is None or seat in unknown:
                lists.append(None)
            else:
                lists.append(legal_cards(
                    rules, state.holdings[seat], state.trick_cards,
                    first_trick=state.trick_number == 1, hearts_broken=state.hearts_broken,
                    lowest=state.lowest_club))
                if not state.holdings[seat][card]:
                    unknown.add(seat)
            if state is not None:
                state = engine.play(state, seat, card, check=False)
        out[id(entry.written)] = lists
        if len(played) < players:  # closed short: what it did to hearts is not known
            state = None
    return out


def _plays(entry: TracedTrick, names: list[str], marks: Marks, hand: int,
           legal: list | None) -> list[dict]:
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
        if legal is not None:  # (the JSON replay's)
            cards = legal[index] if index < len(legal) else None
            out[-1]["legal"] = None if cards is None else _cards(cards)
    return out


def trick_view(entry: TracedTrick, names: list[str], marks: Marks, flow: _Flow,
               legal: list | None = None) -> dict:
    """Show one finished trick: the plays as written and what stood, the written claim beside
    the engine's resolution, and where its cards went."""
    hand, record, written = entry.hand, entry.record, entry.written
    plays = _plays(entry, names, marks, hand, legal)
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
    view["marks"] = marks.row(written.span.line, hand, written.span)
    return view


def _unplayed_trick(trick, source_lines: Lines, marks: Marks, hand: int) -> dict:
    """Show a written trick the check did not finish (the log stops in it, or one too
    many)."""
    line = trick.span.line
    for play in trick.plays:
        marks.take(play.card_span, hand)
    return {"number": trick.number, "line": line, "text": source_lines.line(line),
            "marks": marks.row(line, hand, trick.span)}


def hand_view(record: HandRecord, summary: HandSummary | None, traced: list[TracedTrick],
              names: list[str], marks: Marks, source_lines: Lines,
              rules: Ruleset | None = None) -> dict:
    """Show one drawn hand; with ``rules``, each play that stood also has its legal cards."""
    hand = record.number
    view = {"number": hand, "drawn": True, "start": hand_line(record, marks),
            "setup": setup_rows(record, names, marks)}
    legal = legal_cards_played(rules, len(names), record, traced) if rules is not None \
        else None
    flow, finished = _Flow(), {id(entry.written): entry for entry in traced}
    tricks = []
    for trick in record.tricks:
        entry = finished.get(id(trick))
        if entry is None:
            tricks.append({"unplayed": _unplayed_trick(trick, source_lines, marks, hand)})
        else:
            lists = None if legal is None else legal.get(id(trick), [])
            tricks.append(trick_view(entry, names, marks, flow, lists))
    if traced:
        flow.kitty["cards"] = _cards(traced[0].kitty)
    view.update(tricks=tricks, kitty=flow.kitty if traced else None,
                moon=moon_line(record, marks), sheet=sheet_row(record, summary, names, marks))
    return view


class GameView:
    """A GameView gives the whole game as plain data, for a writer that does not hold every hand's
    view: :meth:`hands` one at a time, then :meth:`document`, the rest (which must come after: what
    a hand's elements mark is not marked again on a note).  With ``rules``, each play that stood
    also has the cards the engine allowed (``referee replay --format json``)."""

    def __init__(self, report: Report, trace: list[TracedTrick], records: Iterable,
                 rules: Ruleset | None = None) -> None:
        self.report, self.records, self.rules = report, records, rules
        self.marks = Marks(report.diagnostics)
        self.names = list(report.players)
        self.by_hand: dict[int, list[TracedTrick]] = {}
        for entry in trace:
            self.by_hand.setdefault(entry.hand, []).append(entry)
        self.events = getattr(records, "notes", ())  # the comments and tags shown (a few)

    def hands(self) -> Iterator[dict]:
        names, marks = self.names, self.marks
        source_lines = Lines(self.report.source)
        find = summary_finder(self.report.hands)
        for index, record in enumerate(self.records):
            summary = find(index, record.number)
            if index < MAX_DRAWN_HANDS:
                yield hand_view(record, summary, self.by_hand.get(record.number, []), names,
                                marks, source_lines, self.rules)
            else:
                yield undrawn(record, summary, names, marks)

    def page(self) -> dict:
        """Make what :meth:`document` makes, for a page, which reads the hands and the totals more
        than once: of the later hands only the views that mark a diagnostic are held."""
        held, marked, placed = [], {}, self.marks.placed
        before = len(placed)
        for index, view in enumerate(self.hands()):
            if view["drawn"]:
                held.append(view)
            elif len(placed) > before:  # its making placed a diagnostic
                marked[index] = view
            before = len(placed)
        summaries, names = self.report.hands, self.names

        def later_hands() -> Iterator[dict]:
            yield from held
            find, unmarked = summary_finder(summaries), Marks([])
            for index, record in enumerate(self.records):
                if index >= len(held):
                    yield marked.get(index) or undrawn(record, find(index, record.number),
                                                       names, unmarked)

        totals = Reread(lambda: ({"hand": s.number, "totals": s.totals} for s in summaries),
                        size=len(summaries))
        return self.document(Reread(later_hands, size=len(self.records)), totals)

    def document(self, hands: Iterable[dict], totals: Iterable[dict] | None = None) -> dict:
        report, marks, names = self.report, self.marks, self.names
        notes = [{"line": event.span.line, "tag": getattr(event, "name", None),
                  "text": event.text if isinstance(event, Comment) else event.value,
                  "marks": marks.row(event.span.line, None)} for event in self.events]
        return {
            "version": VIEW_VERSION, "path": report.path, "ruleset": report.ruleset,
            "players": names, "verdict": report.verdict, "winners": report.winners,
            "notes": notes, "hands": hands,
            "totals": totals if totals is not None else [
                {"hand": s.number, "totals": dict(s.totals)} for s in report.hands],
            "diagnostics": explanations(report.diagnostics, marks),
            "suppressed": dict(report.suppressed), "unchecked": list(report.unchecked),
        }
