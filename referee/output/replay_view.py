"""``referee replay``: the game trick by trick, as the referee saw it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO

from referee.output.game_view import VIEW_VERSION
from referee.output.render import escaped
from referee.rules.cards import card_text
from referee.rules.ruleset import Ruleset, card_points


def trick_rows(names: list[str], trace: list) -> list[tuple[int, str]]:
    """(hand, line of text) for every finished trick; cancelled cards are shown as ~10S~."""
    rows = []
    for hand, record, pile, *_ in trace:
        cancelled = record.outcome.cancelled
        cards = ", ".join(
            f"{names[seat]} {'~' + card_text(card) + '~' if card in cancelled else card_text(card)}"
            for seat, card in record.plays)
        if record.winner is not None:
            extra = len(record.collected) - len(record.plays)
            carried = f" with {extra} carried card{'s' * (extra != 1)}" if extra > 0 else ""
            outcome = f"-> {names[record.winner]} takes {record.points} point{'s' * (record.points != 1)}{carried}"
        elif record.points:
            outcome = f"-> set aside, {record.points} points lost"
        else:
            waiting = sum(card_points(c) for c in pile)
            outcome = f"-> set aside (pile now {len(pile)} cards, {waiting} points)"
        rows.append((hand, f"trick {record.number:>2}  {cards}  {outcome}"))
    return rows


def show_replay(path: str, *, color: bool | None = None, stream: IO[str] | None = None,
                ruleset: Ruleset | None = None, allowed_dirs: tuple[str | Path, ...] = (),
                as_json: bool = False) -> int:
    """Print the game as the referee replays it; a setup fault (a ruleset or target the log
    names that cannot be used) is printed first, with its place, as it changes the game shown.
    ``as_json``: the game's view model (:mod:`referee.output.game_view`) as one JSON document."""
    from rich.console import Console

    from referee.check import codes
    from referee.log.parser import UnreadableLog, parse_bytes
    from referee.output.game_view import game_view, referee_game
    from referee.output.render import diagnostic_line
    from referee.util.reading import UnreadableFile, read_input

    console = Console(file=stream, no_color=color is False, highlight=False, soft_wrap=True)
    try:
        parsed = parse_bytes(read_input(path))
    except (UnreadableFile, UnreadableLog) as err:
        line, column = getattr(err, "line", 1), getattr(err, "column", 1)
        if as_json:
            _print_json({"version": VIEW_VERSION, "path": path, "error": str(err), "line": line,
                         "column": column}, stream)
        else:
            console.print(escaped(f"{path}:{line}:{column}: {err}"), markup=False)
        return 2
    base_dir = None if path == "-" else Path(path).parent
    report, trace, records = referee_game(parsed, path, base_dir=base_dir, ruleset=ruleset,
                                          allowed_dirs=allowed_dirs)
    count = len(report.diagnostics)
    if as_json:
        _print_json(game_view(report, trace, records, parsed), stream)
        return 1 if count else 0
    for diag in report.diagnostics:
        if diag.kind == codes.BAD_SETUP:
            console.print(diagnostic_line(path, diag), style="yellow", markup=False)
    summaries = {h.number: h for h in report.hands}
    current = None
    for hand, row in trick_rows(report.players, trace):
        if hand != current:
            if current in summaries:
                _hand_footer(console, summaries[current])
            current = hand
            console.print(f"[bold]hand {hand}[/]")
        console.print("  " + escaped(row), markup=False)
    if current in summaries:
        _hand_footer(console, summaries[current])
    for note in report.unchecked:
        console.print(escaped(note), style="yellow", markup=False, highlight=False)
    console.print(escaped(f"{count} violation{'s' * (count != 1)} (referee check {path} lists "
                          "them)") if count else "no violations", markup=False)
    return 1 if count else 0


def _print_json(data: dict, stream: IO[str] | None) -> None:
    import json

    target = sys.stdout if stream is None else stream
    target.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _hand_footer(console, summary) -> None:
    if summary.points:
        points = ", ".join(f"{name} {value}" for name, value in summary.points.items())
        console.print(escaped(f"  points: {points}" + (f"  (moon: {summary.shooter})"
                                                       if summary.shooter else "")), markup=False)
