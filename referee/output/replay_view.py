"""This module runs ``referee replay``: it shows the game trick by trick, as the referee saw it."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from rich.console import Console

from referee.judge import codes
from referee.judge.diagnostics import HandSummary, Report
from referee.judge.hand_record import HandRecord
from referee.judge.stream import Watch
from referee.judge.table import TracedTrick
from referee.judge.walk import judge_decoded
from referee.log.decode import UnreadableLog
from referee.log.parser import log_text
from referee.output.game_view import VIEW_VERSION, GameView, referee_game, watched
from referee.output.render import diagnostic_line
from referee.rules.cards import card_text
from referee.rules.ruleset import Ruleset, card_points
from referee.util.reading import UnreadableFile, read_input
from referee.util.terminal import escaped, escaped_values

SPOOL_BYTES = 1 << 20  # what is spooled in memory; past it, in a temporary file


def trick_row(names: list[str], entry: TracedTrick) -> str:
    """Show one finished trick as a line of text; cancelled cards are shown as ~10S~."""
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


# a spooled line's first character: a hand's heading, or a row printed without it
_HEADING, _ROW = "H", " "


class _Rows(Watch):
    """A _Rows writes the text replay's lines as the tricks finish, a hand at a time, into a
    spool (a file past :data:`SPOOL_BYTES`), each marked by its first character: the setup
    faults printed above them may be found as late as the last hand."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.rows: list[str] = []  # the current hand's
        # closed by lines(), or with the watch when this reading of the log is dropped
        self.spool = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            SPOOL_BYTES, mode="w+", encoding="utf-8", newline="\n")

    @property
    def trace(self) -> _Rows:
        """Return this watch, which the check appends each finished trick to (a property: an
        attribute holding the watch itself would make it a garbage cycle)."""
        return self

    def append(self, entry: TracedTrick) -> None:
        self.rows.append(trick_row(self.names, entry))

    def hand(self, record: HandRecord, summary: HandSummary) -> None:
        if not self.rows:  # a hand with no finished trick is not shown
            return
        lines = [f"{_HEADING}{record.number}", *(f"{_ROW}  {row}" for row in self.rows)]
        self.rows = []
        if summary is not None and summary.points:
            points = ", ".join(f"{name} {value}" for name, value in summary.points.items())
            moon = f"  (moon: {summary.shooter})" if summary.shooter else ""
            lines.append(f"{_ROW}  points: {points}{moon}")
        self.spool.write("\n".join(lines) + "\n")

    def lines(self) -> Iterator[str]:
        self.spool.seek(0)
        for line in self.spool:
            yield line[:-1]
        self.spool.close()


def _game(path: str, as_json: bool, ruleset: Ruleset | None,
          allowed_dirs: tuple[str | Path, ...]) -> tuple[Report, GameView | _Rows | None]:
    """Check ``path`` and keep what the replay shows of it: the view of the game, its plays
    given their legal cards, or the text rows.  Raise UnreadableFile, UnreadableLog."""
    text = log_text(read_input(path))
    options = {"base_dir": None if path == "-" else Path(path).parent, "ruleset": ruleset,
               "allowed_dirs": allowed_dirs}
    if as_json:
        report, trace, kept = referee_game(text, path, **options)
        return report, GameView(report, trace, kept, kept.rules)
    return watched(judge_decoded, text, path, lambda table: _Rows(list(table.names)), **options)


def show_replay(path: str, *, color: bool | None = None, stream: IO[str] | None = None,
                ruleset: Ruleset | None = None, allowed_dirs: tuple[str | Path, ...] = (),
                as_json: bool = False) -> int:
    """Print the game as the referee replays it, a setup fault first (it changes the game
    shown); with ``as_json``, print the game's view model as one JSON document."""
    console = Console(file=stream, no_color=color is False, highlight=False, soft_wrap=True)
    try:
        report, shown = _game(path, as_json, ruleset, allowed_dirs)
    except (UnreadableFile, UnreadableLog) as err:
        line, column = getattr(err, "line", 1), getattr(err, "column", 1)
        if as_json:
            error = {"version": VIEW_VERSION, "path": path, "error": str(err), "line": line,
                     "column": column}
            print(json.dumps(escaped_values(error), ensure_ascii=False, indent=2),
                  file=sys.stdout if stream is None else stream)
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
    for line in (shown.lines() if shown is not None else ()):
        if line[0] == _HEADING:
            console.print(f"[bold]hand {line[1:]}[/]")
        else:
            console.print(escaped(line[1:]), markup=False)
    for note in report.unchecked:
        console.print(escaped(note), style="yellow", markup=False, highlight=False)
    console.print(escaped(f"{count} violation{'s' * (count != 1)} (referee check {path} lists "
                          "them)") if count else "no violations", markup=False)
    return 1 if count else 0


def _write_view(view: GameView, stream: IO[str] | None) -> None:
    """Write the game's view as one JSON document, a hand at a time: the hands (spooled, as the
    notes before them in the document are known only after them), then the rest around."""
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
