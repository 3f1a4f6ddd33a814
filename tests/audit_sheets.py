"""Scoresheets for the audit's tests and benchmark: the players, a real game's hand scores, and
sheets written from scores and totals, with the slips a scorer makes."""

from __future__ import annotations

from referee.rules.ruleset import load_ruleset

EIGHT = ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay", "Gus", "Hana"]
# the first eight hands of examples/logs/scoresheet-game.log, every one summing to 52
GAME = [[0, 0, 0, 23, 11, 0, 15, 3], [0, 15, 2, 0, 6, 11, 0, 18], [45, 0, 0, 0, 0, 2, 5, 0],
        [0, 1, 0, 2, 20, 13, 16, 0], [19, 14, 0, 0, 18, 0, 1, 0], [15, 14, 0, 1, 10, 0, 10, 2],
        [2, 0, 12, 17, 7, 0, 0, 14], [13, 10, 0, 17, 0, 7, 0, 5]]
CANCELLATION = load_ruleset("cancellation")


def written(names, scores, totals) -> str:
    lines = [f'[Players "{" ".join(names)}"]']
    for score, total in zip(scores, totals):
        lines.append("score: " + ", ".join(f"{n} {v}" for n, v in zip(names, score)))
        lines.append("total: " + ", ".join(f"{n} {v}" for n, v in zip(names, total)))
    return "\n".join(lines) + "\n"


def running(scores):
    out, totals = [], [0] * len(scores[0])
    for score in scores:
        totals = [t + s for t, s in zip(totals, score)]
        out.append(totals)
    return out


def three_slips() -> str:
    """The 8-player game with three slips a scorer makes."""
    scores = [list(row) for row in GAME]
    totals = [list(row) for row in running(GAME)]
    scores[1][1], scores[1][2] = 2, 15  # hand 2: Beth's 15 and Charlie's 2 swapped
    for hand in range(3, 8):  # Gus's hand 4 total added up to 37, not 36, and carried on
        totals[hand][6] += 1
    scores[7][4] = 8  # hand 8: Eve's 0 written as 8, her total right
    return written(EIGHT, scores, totals)


SIX = ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]
ROWS = [[10, 14, 0, 5, 13, 10], [0, 15, 20, 2, 13, 2], [26, 0, 0, 13, 0, 13],
        [4, 4, 4, 20, 10, 10], [1, 2, 3, 4, 5, 37]]
