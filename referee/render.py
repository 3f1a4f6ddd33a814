"""Renderers: reports to text (rich) or JSON.  They know nothing about the rules.

rich is imported only by the text renderer, so JSON output and library use stay light.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import IO

from .codes import BY_KIND
from .diagnostics import Diagnostic, Report

EXCERPT_WIDTH = 100


def to_json(reports: Iterable[Report]) -> str:
    return json.dumps({"files": [r.to_json() for r in reports]}, ensure_ascii=False, indent=2)


def to_jsonl_line(report: Report) -> str:
    return json.dumps(report.to_json(), ensure_ascii=False, separators=(",", ":"))


def diagnostic_line(path: str, diag: Diagnostic) -> str:
    """``game.log:42:14: CH201 revoke  Beth played ... [R5.2]`` — stable, grep-friendly."""
    text = f"{path}:{diag.line}:{diag.column}: {diag.code} {diag.kind}  {diag.message} [{diag.rule}]"
    if diag.hint:
        text += f" ({diag.hint})"
    return text


def excerpt(source_lines: list[str], line: int, column: int, end_column: int | None) -> list[str]:
    """The source line with a caret under the span, clipped around the column."""
    if not 1 <= line <= len(source_lines):
        return []
    text = source_lines[line - 1].replace("\t", " ")
    start = max(0, column - 1 - EXCERPT_WIDTH // 2) if len(text) > EXCERPT_WIDTH else 0
    shown = text[start:start + EXCERPT_WIDTH]
    prefix = "…" if start else ""
    offset = len(prefix) + max(0, column - 1 - start)
    width = max(1, min((end_column or column + 1) - column, len(shown) - (column - 1 - start)))
    gutter = f"{line:>5} | "
    return [gutter + prefix + shown, " " * (len(gutter) - 2) + "| " + " " * offset + "^" * width]


def render_text(reports: Iterable[Report], *, stream: IO[str] | None = None,
                color: bool | None = None, width: int | None = None) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(file=stream, no_color=color is False, force_terminal=color or None,
                      highlight=False, width=width, soft_wrap=False)
    for report in reports:
        lines = report.source.splitlines()
        for diag in report.diagnostics:
            head = Text(diagnostic_line(report.path, diag))
            head.stylize("bold red" if diag.severity == "error" else "bold yellow", 0,
                         len(report.path) + len(str(diag.line)) + len(str(diag.column)) + 3)
            console.print(head, soft_wrap=True)
            end = diag.end_column if diag.end_line == diag.line else None
            for row in excerpt(lines, diag.line, diag.column, end):
                console.print(Text(row, style="dim" if "|" in row[:8] else ""), soft_wrap=True)
            for rel in diag.related:
                console.print(Text(f"      = {rel.note} (line {rel.line})", style="cyan"),
                              soft_wrap=True)
                for row in excerpt(lines, rel.line, rel.column, None)[:1]:
                    console.print(Text(row, style="dim"), soft_wrap=True)
        console.print(summary_title(report), soft_wrap=True)
        if report.unreadable is None and report.players:
            console.print(summary_table(report))
        if report.invariants:
            console.print(invariants_line(report), soft_wrap=True)
        for note in report.unchecked:
            console.print(Text(f"  not checked: {note}", style="yellow"), soft_wrap=True)


def invariants_line(report: Report) -> str:
    counts = Counter(item["status"] for item in report.invariants)
    text = ", ".join(f"{counts[s]} {s}" for s in ("proved", "violated", "skipped") if counts[s])
    broken = sorted({f"{i['name']} (hand {i['hand']})" for i in report.invariants
                     if i["status"] == "violated"})
    return f"  invariants (z3): {text}" + (f": {', '.join(broken[:6])}" if broken else "")


def summary_title(report: Report) -> str:
    hands = len(report.hands)
    count = len(report.diagnostics)
    verdict = {"clean": "[green]clean[/]", "violations": f"[red]{count} violation{'s' * (count != 1)}[/]",
               "unreadable": "[red]unreadable[/]"}[report.verdict]
    if report.unreadable is not None:
        return f"[bold]{report.path}[/]: {verdict}: {report.unreadable}"
    end = ("game over, won by " + " and ".join(report.winners) if report.winners
           else "game not finished")
    return (f"[bold]{report.path}[/]: {verdict}; ruleset {report.ruleset or '-'}, "
            f"{len(report.players)} players, {hands} hand{'s' * (hands != 1)}, {end}")


def summary_table(report: Report):
    """Computed totals per player beside the violations by kind."""
    from rich.table import Table

    table = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 2, 0, 0))
    counts = Counter(d.kind for d in report.diagnostics)
    last = next((h.totals for h in reversed(report.hands) if h.totals), {})
    winners = set(report.winners or ())
    table.add_column("player")
    table.add_column("total", justify="right")
    table.add_column("")
    table.add_column("violations by kind")
    kinds = [f"{BY_KIND[k].code} {k}: {n}" for k, n in sorted(counts.items())]
    for row in range(max(len(report.players), len(kinds))):
        player = report.players[row] if row < len(report.players) else ""
        total = str(last.get(player, "?")) if player else ""
        mark = "winner" if player in winners else ""
        table.add_row(player, total, mark, kinds[row] if row < len(kinds) else "")
    return table
