"""Hostile input costs time linear in its size: a test at two sizes for each known blow-up."""

from __future__ import annotations

import time

import pytest

from referee.run.single import check_text

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


@pytest.mark.slow
def test_many_hands_of_one_play_each_grow_linearly():
    # every hand adds the same "not checked" notes; finding a note must not scan the others
    def log(scale: int) -> str:
        hands = 1500 * scale
        return '[Players "A B C D E F"]\n' + "".join(
            f"hand {i}\ntrick 1: A 2C\n" for i in range(1, hands + 1))

    assert _ratio(log) < LINEAR_LIMIT


def _one_fault_per_hand(hands: int) -> str:
    # each hand is led by the wrong seat: one wrong-leader diagnostic per hand
    return '[Players "A B C D E F"]\n' + "".join(
        f"hand {i}\ntrick 1: A 2C\n" for i in range(1, hands + 1))


def test_repeated_diagnostics_of_one_kind_collapse_into_a_count():
    from referee.judge.table import DEFAULT_MAX_DIAGNOSTICS

    report = check_text(_one_fault_per_hand(2000))
    kinds = {d.kind for d in report.diagnostics}
    assert kinds == {"wrong-leader"}
    assert len(report.diagnostics) == DEFAULT_MAX_DIAGNOSTICS
    from referee.judge.walk import judge_bytes

    everything = judge_bytes(_one_fault_per_hand(2000).encode(), "x", max_diagnostics=10**6)
    total = len(everything.diagnostics)
    assert total > DEFAULT_MAX_DIAGNOSTICS
    assert report.to_json()["suppressed"] == {"wrong-leader": total - DEFAULT_MAX_DIAGNOSTICS}
    assert len(report.unchecked) == DEFAULT_MAX_DIAGNOSTICS + 1
    assert report.unchecked[-1].startswith("and ") and "more notes" in report.unchecked[-1]


def test_the_limit_is_the_callers_and_the_first_diagnostics_are_kept():
    from referee.judge.walk import judge_bytes

    text = _one_fault_per_hand(50)
    everything = judge_bytes(text.encode(), "x", max_diagnostics=10**6)
    assert everything.suppressed == {}
    limited = judge_bytes(text.encode(), "x", max_diagnostics=5)
    assert limited.diagnostics == everything.diagnostics[:5]
    assert limited.suppressed == {"wrong-leader": len(everything.diagnostics) - 5}
    assert limited.verdict == "violations"


def test_text_output_stays_bounded_and_says_how_many_more(tmp_path):
    import io

    from referee.output.render import render_text

    sizes = []
    for hands in (1000, 4000):
        out = io.StringIO()
        render_text([check_text(_one_fault_per_hand(hands), "g.log")], stream=out, width=120)
        sizes.append(len(out.getvalue()))
        assert "g.log: and " in out.getvalue() and "more wrong-leader diagnostics" in out.getvalue()
    assert sizes[1] < sizes[0] * 1.1  # four times the faults, not four times the output


def test_max_diagnostics_on_the_command_line(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    log = tmp_path / "g.log"
    log.write_text(_one_fault_per_hand(30), "utf-8")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-m", "referee", "check", "--format", "json",
                           "--max-diagnostics", "3", str(log)], cwd=root, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    report = json.loads(done.stdout)["files"][0]
    assert len(report["diagnostics"]) == 3 and report["suppressed"]["wrong-leader"] > 0
    bad = subprocess.run([sys.executable, "-m", "referee", "check", "--max-diagnostics", "0",
                          str(log)], cwd=root, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--max-diagnostics" in bad.stderr
