"""Hostile input costs time linear in its size: a test at two sizes for each known blow-up."""

from __future__ import annotations

import time

from referee.replay import check_text

GROWTH = 4  # the larger input is this many times the smaller
LINEAR_LIMIT = 2.2 * GROWTH  # quadratic work would take GROWTH ** 2 times as long


def _cpu_seconds(text: str) -> float:
    best = float("inf")
    for _ in range(2):
        start = time.process_time()
        check_text(text)
        best = min(best, time.process_time() - start)
    return best


def _ratio(make) -> float:
    small = _cpu_seconds(make(1))
    large = _cpu_seconds(make(GROWTH))
    return large / small


def test_many_hands_of_one_play_each_grow_linearly():
    # every hand adds the same "not checked" notes; finding a note must not scan the others
    def log(scale: int) -> str:
        hands = 1500 * scale
        return '[Players "A B C D E F"]\n' + "".join(
            f"hand {i}\ntrick 1: A 2C\n" for i in range(1, hands + 1))

    assert _ratio(log) < LINEAR_LIMIT
