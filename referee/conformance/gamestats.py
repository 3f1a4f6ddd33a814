"""This module counts how often a generated corpus met the tricky situations (a corpus must
contain all of them)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields

from referee.rules.options import MoonChoice

CASES = (
    "void", "set-aside", "set-aside-first", "set-aside-last", "consecutive-set-aside",
    "kitty-pickup", "kitty-delayed", "lost-points", "moon-subtract", "moon-add", "game-end", "tie",
)
GAME_END = "game-end"  # the case of a game played to its end (not the diagnostic kind)
# the counts a summary gives (and the moons by choice), in its order
COUNTED = ("voids", "set_aside", "set_aside_first", "set_aside_last", "consecutive_set_aside",
           "kitty_pickups", "kitty_delayed", "lost_points", "moon_attempts")


@dataclass(slots=True)
class GameStats:
    """GameStats counts how often the tricky situations occurred (a corpus must contain all of
    them)."""

    hands: int = 0
    tricks: int = 0
    plays: int = 0
    set_aside: int = 0
    set_aside_first: int = 0
    set_aside_last: int = 0
    consecutive_set_aside: int = 0
    kitty_pickups: int = 0
    kitty_delayed: int = 0
    voids: int = 0  # plays off the led suit
    moons: Counter = field(default_factory=Counter)
    ties: int = 0
    games: int = 0
    ended: int = 0  # games played to their end
    lost_points: int = 0  # hands whose set-aside last trick lost points (R6.6)
    moon_attempts: int = 0  # hands in which a player aimed for the moon
    stopped: int = 0  # games stopped at the generator's hand limit, no total at the target

    def add(self, other: GameStats) -> None:
        for item in fields(self):  # moons: Counters add (their counts are positive)
            setattr(self, item.name, getattr(self, item.name) + getattr(other, item.name))

    def cases(self) -> list[str]:
        """List the tricky situations present (names from :data:`CASES`, in that order)."""
        present = {
            "void": self.voids, "set-aside": self.set_aside,
            "set-aside-first": self.set_aside_first, "set-aside-last": self.set_aside_last,
            "consecutive-set-aside": self.consecutive_set_aside,
            "kitty-pickup": self.kitty_pickups, "kitty-delayed": self.kitty_delayed,
            "lost-points": self.lost_points, "moon-subtract": self.moons[MoonChoice.SUBTRACT],
            "moon-add": self.moons[MoonChoice.ADD], GAME_END: self.ended, "tie": self.ties,
        }
        return [case for case in CASES if present[case]]

    def summary(self) -> dict:
        """Give the counts, and rates per 1000 hands, as plain JSON."""
        counts = {name: getattr(self, name) for name in COUNTED}
        counts.update(moons_subtract=self.moons[MoonChoice.SUBTRACT],
                      moons_add=self.moons[MoonChoice.ADD])
        hands = max(self.hands, 1)
        return {
            "games": self.games, "ended": self.ended, "ties": self.ties, "hands": self.hands,
            "tricks": self.tricks, "plays": self.plays, "counts": counts,
            "per_1000_hands": {name: round(1000 * value / hands, 1)
                               for name, value in counts.items()},
        }
