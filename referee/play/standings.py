"""Standings of a match: per program, its games, points per hand with a 95% confidence
interval, games won, forfeits by reason and conformance differences."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from referee.play.match import GameResult

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass
class Standing:
    program: int
    command: str
    games: int = 0
    won: int = 0  # games in which one of its seats is among the winners (a shared win counts)
    points: list[int] = field(default_factory=list)  # each of its seats' score in each hand
    forfeits: Counter = field(default_factory=Counter)  # by reason
    substituted: Counter = field(default_factory=Counter)  # by reason (--on-fault play)
    differences: int = 0

    @property
    def hands(self) -> int:
        return len(self.points)

    @property
    def mean(self) -> float | None:
        return sum(self.points) / len(self.points) if self.points else None

    @property
    def margin(self) -> float | None:
        """Half the width of the 95% confidence interval of :attr:`mean` (normal approximation;
        None below two hands)."""
        n = len(self.points)
        if n < 2:
            return None
        mean = sum(self.points) / n
        variance = sum((p - mean) ** 2 for p in self.points) / (n - 1)
        return Z95 * math.sqrt(variance / n)

    def to_json(self) -> dict:
        return {"program": self.program, "command": self.command, "games": self.games,
                "won": self.won, "hands": self.hands, "mean_points_per_hand": self.mean,
                "ci95": self.margin, "forfeits": dict(self.forfeits),
                "substituted": dict(self.substituted), "differences": self.differences}


def standings(commands: list[str], results: Iterable[GameResult]) -> list[Standing]:
    """One :class:`Standing` per command, in the commands' order."""
    table = [Standing(index, command) for index, command in enumerate(commands)]
    for result in results:
        for program in set(result.programs):
            table[program].games += 1
            if any(result.programs[seat] == program for seat in result.winners):
                table[program].won += 1
        for scores in result.hand_scores:
            for seat, score in enumerate(scores):
                table[result.programs[seat]].points.append(score)
        if result.forfeit is not None:
            table[result.programs[result.forfeit[0]]].forfeits[result.forfeit[1]] += 1
        for seat, reason, _ in result.substituted:
            table[result.programs[seat]].substituted[reason] += 1
        for seat, count in result.differences_counted.items():
            table[result.programs[seat]].differences += count
    return table


def standings_text(table: list[Standing], letters: list[str]) -> str:
    """The standings as aligned plain text, best mean first (lower is better in Hearts)."""
    rows = [("", "program", "games", "won", "hands", "points/hand (95% CI)", "forfeits",
             "differences")]
    order = sorted(table, key=lambda s: (s.mean is None, s.mean or 0.0))
    for s in order:
        mean = "-" if s.mean is None else f"{s.mean:.2f}"
        if s.margin is not None:
            mean += f" ± {s.margin:.2f}"
        faults = ", ".join(f"{reason} {n}" for reason, n in sorted((s.forfeits +
                                                                   s.substituted).items()))
        rows.append((letters[s.program], s.command, str(s.games), str(s.won), str(s.hands), mean,
                     faults or "0", str(s.differences)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
                     for row in rows) + "\n"
