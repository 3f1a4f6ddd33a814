"""``referee replay``: the game trick by trick, as the referee saw it."""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from referee.judge.diagnostics import HandSummary, Report
from referee.judge.hand_record import HandRecord
from referee.judge.stream import Watch
from referee.judge.table import TracedTrick
from referee.output.game_view import (
    VIEW_VERSION,
    GameView,
    GameWatch,
    Kept,
    notes_of,
    watched,
)
from referee.rules import engine
from referee.rules.cards import card_text, counts_of, sort_key
from referee.rules.state import IllegalAction, State
from referee.rules.legality import legal_cards
from referee.rules.ruleset import Ruleset, card_points, direction_offset
from referee.rules.ruleset_files import RulesetError
from referee.util.terminal import escaped, escaped_values

SPOOL_BYTES = 1 << 20  # what is spooled in memory; past it, in a temporary file


def trick_row(names: list[str], entry: TracedTrick) -> str:
    """One finished trick as a line of text; cancelled cards are shown as ~10S~."""
    _, record, pile, *_ = entry
    cancelled = record.outcome.cancelled
    cards = ", ".join(
        f"{names[seat]} {'~' + card_text(card) + '~' if card in cancelled else card_text(card)}"
        for seat, card in record.plays)
    if record.winner is not None:
        extra = len(record.collected) - len(record.plays)
        carried = f" with {extra} carried card{'s' * (extra != 1)}" if extra > 0 else ""
        points = f"{record.points} point{'s' * (record.points != 1)}"
        outcome = f"-> {names[record.winner]} takes {points}{carried}"
    elif record.points:
        outcome = f"-> set aside, {record.points} points lost (R6.6)"
    else:
        waiting = sum(card_points(c) for c in pile)
        outcome = f"-> set aside (pile now {len(pile)} cards, {waiting} points)"
    return f"trick {record.number:>2}  {cards}  {outcome}"


# the spool of the text replay: one line a row, its first character what it is
_HAND, _ROW, _FOOTER = "H", "R", "F"


class _Rows(Watch):
    """The text replay's rows as the tricks finish, a hand at a time, into a spool (a file
    past :data:`SPOOL_BYTES`): the setup faults printed above them may be found as late as
    the last hand."""

    def __init__(self, names: list[str]) -> None:
        self.trace = self  # the replay appends each finished trick
        self.names = names
        self.rows: list[str] = []  # the current hand's
        # closed by lines(), or with the watch when this reading of the log is dropped
        self.spool = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            SPOOL_BYTES, mode="w+", encoding="utf-8", newline="\n")

    def append(self, entry: TracedTrick) -> None:
        self.rows.append(trick_row(self.names, entry))

    def hand(self, record: HandRecord, summary: HandSummary) -> None:
        if not self.rows:  # a hand with no finished trick is not shown
            return
        write = self.spool.write
        write(f"{_HAND}{record.number}\n")
        for row in self.rows:
            write(f"{_ROW}{row}\n")
        self.rows = []
        footer = _footer(summary)
        if footer is not None:
            write(f"{_FOOTER}{footer}\n")

    def lines(self) -> Iterator[tuple[str, str]]:
        self.spool.seek(0)
        for line in self.spool:
            yield line[0], line[1:-1]
        self.spool.close()


def _game(path: str, as_json: bool, ruleset: Ruleset | None,
          allowed_dirs: tuple[str | Path, ...]) -> tuple[Report, GameView | _Rows | None]:
    """The check of ``path`` with what the replay shows of it kept: the view of the game,
    its plays given their legal cards (:class:`LegalView`), or the text rows.  Raises
    UnreadableFile, UnreadableLog."""
    from referee.judge.walk import judge_decoded
    from referee.log.parser import log_text
    from referee.util.reading import read_input

    text = log_text(read_input(path))
    options = {"base_dir": None if path == "-" else Path(path).parent, "ruleset": ruleset,
               "allowed_dirs": allowed_dirs}
    if not as_json:
        return watched(judge_decoded, text, path, lambda table: _Rows(list(table.names)),
                       **options)
    report, kept = watched(judge_decoded, text, path, lambda table: GameWatch(table.rules),
                           **options)
    if kept is None:  # the setup failed: no hand was replayed; the view keeps the notes
        return report, GameView(report, [], Kept(notes=notes_of(text)))
    return report, LegalView(report, kept.traced, kept.records, kept.rules)


class LegalView(GameView):
    """The view of a game whose every play that stood also has ``legal``: the cards the
    engine allows the seat at that moment (:func:`legal_cards_played`)."""

    def __init__(self, report: Report, trace: list[TracedTrick], records: list,
                 rules: Ruleset) -> None:
        super().__init__(report, trace, records)
        self.rules = rules

    def hands(self) -> Iterator[dict]:
        for record, view in zip(self.records, super().hands()):
            if view["drawn"]:
                traced = self.by_hand.get(record.number, [])
                legal = legal_cards_played(self.rules, len(self.names), record, traced)
                finished = {id(entry.written): entry for entry in traced}
                for trick, shown in zip(record.tricks, view["tricks"]):
                    entry = finished.get(id(trick))
                    if entry is None:
                        continue
                    lists = legal.get(id(entry.written), [])
                    for index, play in enumerate(shown["plays"]):
                        cards = lists[index] if index < len(lists) else None
                        play["legal"] = None if cards is None else [
                            card_text(c) for c in sorted(cards, key=sort_key)]
            yield view


def _holdings_in_play(rules: Ruleset, players: int, record: HandRecord) -> State | None:
    """The engine's state at the first lead of a hand, from its recorded deals and passes;
    None when the record does not give every holding (a deal or a due pass not recorded,
    a passed card not dealt, an unreadable trick)."""
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
    """For each finished trick of a hand (by ``id`` of its written trick), the legal cards
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


def show_replay(path: str, *, color: bool | None = None, stream: IO[str] | None = None,
                ruleset: Ruleset | None = None, allowed_dirs: tuple[str | Path, ...] = (),
                as_json: bool = False) -> int:
    """Print the game as the referee replays it, a setup fault first (it changes the game
    shown); ``as_json``: the game's view model as one JSON document."""
    from rich.console import Console

    from referee.judge import codes
    from referee.log.decode import UnreadableLog
    from referee.output.render import diagnostic_line
    from referee.util.reading import UnreadableFile

    console = Console(file=stream, no_color=color is False, highlight=False, soft_wrap=True)
    try:
        report, shown = _game(path, as_json, ruleset, allowed_dirs)
    except (UnreadableFile, UnreadableLog) as err:
        line, column = getattr(err, "line", 1), getattr(err, "column", 1)
        if as_json:
            _print_json({"version": VIEW_VERSION, "path": path, "error": str(err), "line": line,
                         "column": column}, stream)
        else:
            console.print(escaped(f"{path}:{line}:{column}: {err}"), markup=False)
        return 2
    count = len(report.diagnostics)
    if isinstance(shown, GameView):
        _write_view(shown, stream)
        return 1 if count else 0
    for diag in report.diagnostics:
        if diag.kind == codes.BAD_SETUP:
            console.print(diagnostic_line(path, diag), style="yellow", markup=False)
    for kind, text in (shown.lines() if shown is not None else ()):
        if kind == _HAND:
            console.print(f"[bold]hand {text}[/]")
        else:
            console.print(("  " + escaped(text)) if kind == _ROW else escaped(text),
                          markup=False)
    for note in report.unchecked:
        console.print(escaped(note), style="yellow", markup=False, highlight=False)
    console.print(escaped(f"{count} violation{'s' * (count != 1)} (referee check {path} lists "
                          "them)") if count else "no violations", markup=False)
    return 1 if count else 0


def _write_view(view: GameView, stream: IO[str] | None) -> None:
    """:func:`_print_json` of the game's view, a hand at a time: the hands (spooled, as the
    notes before them in the document are known only after them), then the rest around."""
    import json

    target = sys.stdout if stream is None else stream
    with tempfile.SpooledTemporaryFile(SPOOL_BYTES, mode="w+", encoding="utf-8") as hands:
        for index, hand in enumerate(view.hands()):
            # as json.dumps(indent=2) writes an element of a list in an object: 4 spaces in
            text = json.dumps(escaped_values(hand), ensure_ascii=False, indent=2)
            hands.write((",\n    " if index else "\n    ") + text.replace("\n", "\n    "))
        head, tail = json.dumps(escaped_values(view.document([])), ensure_ascii=False,
                                indent=2).split(_NO_HANDS, 1)
        target.write(head)
        if hands.tell():
            target.write('\n  "hands": [')
            hands.seek(0)
            shutil.copyfileobj(hands, target)
            target.write("\n  ]")
        else:
            target.write(_NO_HANDS)
        target.write(tail + "\n")


# the empty list of hands in the document: where the hands go (no string holds a newline)
_NO_HANDS = '\n  "hands": []'


def _print_json(data: dict, stream: IO[str] | None) -> None:
    import json

    target = sys.stdout if stream is None else stream
    target.write(json.dumps(escaped_values(data), ensure_ascii=False, indent=2) + "\n")


def _footer(summary: HandSummary | None) -> str | None:
    if summary is None or not summary.points:
        return None
    points = ", ".join(f"{name} {value}" for name, value in summary.points.items())
    return f"  points: {points}" + (f"  (moon: {summary.shooter})" if summary.shooter else "")
