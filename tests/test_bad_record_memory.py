"""`check` of a JSON game record with one wrong value in its last hand: its peak memory grows
with the record by a few MB per MB, as a valid record's does (only the faulty hand is decoded
with the place of every value and validated by jsonschema), where the whole record read that
way cost over 20 MB per MB, and its problem is said as before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from record_texts import played_record

import pytest

from referee.judge.walk import judge_path

pytestmark = pytest.mark.slow  # peak memory of child processes on logs of several megabytes

ROOT = Path(__file__).resolve().parents[1]
PEAK = """
import sys
from referee.judge.walk import judge_path
report = judge_path(sys.argv[1])
assert report.verdict == "unreadable", report.verdict
print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))
"""
WRONG = '"kitty": ["1S"'  # not a card


def _bad_record(hands: int) -> str:
    """A record of ``hands`` played hands, the kitty of its last hand starting with 1S."""
    text = played_record(hands)
    at = text.rindex('"kitty": [')
    first = text.index('"', at + len('"kitty": ['))
    return text[:at] + WRONG + text[text.index('"', first + 1) + 1:]


def _peak_mb(path: Path) -> float:
    done = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    return int(done.stdout.strip()) * 1024 / 1e6


def test_the_record_made_here_has_one_problem_in_its_last_hand(tmp_path):
    path = tmp_path / "game.json"
    text = _bad_record(24)
    path.write_text(text, "utf-8")
    report = judge_path(path)
    shown = report.to_json()["diagnostics"]
    at = text.rindex('"1S"')
    assert report.verdict == "unreadable" and len(shown) == 1
    assert (shown[0]["line"], shown[0]["column"]) == (text.count("\n", 0, at) + 1,
                                                      at - text.rindex("\n", 0, at))
    assert shown[0]["message"].startswith('"1S" is not a card')


def test_peak_memory_of_a_record_with_a_bad_last_hand_grows_by_a_few_mb_per_mb(tmp_path):
    # measured: about 7 MB per MB (the events of the hands before it, as for a valid
    # record), where decoding the whole record with its places and jsonschema over it all
    # cost about 23
    sizes, peaks = [], []
    for hands in (50, 250):
        path = tmp_path / f"{hands}.json"
        path.write_text(_bad_record(hands), "utf-8")
        sizes.append(path.stat().st_size / 1e6)
        peaks.append(_peak_mb(path))
    growth = (peaks[1] - peaks[0]) / (sizes[1] - sizes[0])
    assert sizes[1] - sizes[0] > 1.5  # enough for the growth to stand out of the noise
    assert growth < 12, (sizes, peaks)
