"""`check` of a JSON game record: its peak memory grows with the record by a few MB per MB
(the events, which the check holds, and the text), not by the decoder's place of every value
and the whole decoded document as well (36 MB per MB when they were)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from referee.check.replay import check_path

ROOT = Path(__file__).resolve().parents[1]
PEAK = """
import sys
from referee.check.replay import check_path
report = check_path(sys.argv[1])
assert report.verdict == "clean", report.verdict
print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))
"""
BLOCK = 12  # hands: a whole number of rounds of dealers and of pass directions at 6 seats


def _peak_mb(path: Path) -> float:
    done = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    return int(done.stdout.strip()) * 1024 / 1e6


def _record(hands: int) -> str:
    """A clean record of ``hands`` played hands: one generated block of hands over and over,
    numbered on, without the running totals (which would go on from block to block)."""
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset, with_options
    from referee.run.convert import convert

    rules = with_options(load_ruleset("cancellation"), target=10**9)
    document = json.loads(convert(write(generate_game(rules, 6, seed=5, hands=BLOCK)))[0])
    block = [{key: value for key, value in hand.items() if key != "total"}
             for hand in document["hands"]]
    document["hands"] = [dict(block[i % BLOCK], number=i + 1) for i in range(hands)]
    return json.dumps(document, indent=1)


def test_the_record_made_here_is_a_clean_game(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(_record(2 * BLOCK), "utf-8")
    report = check_path(path)
    assert report.verdict == "clean" and len(report.to_json()["hands"]) == 2 * BLOCK


def test_peak_memory_of_a_record_grows_by_a_few_mb_per_mb(tmp_path):
    # measured: about 6 MB per MB of a played record (its events: a play and its two spans
    # for each 80 bytes of JSON), where the whole decoded document and a JSON pointer per
    # value, then the whole file's events, cost 36
    sizes, peaks = [], []
    for hands in (50, 250):
        path = tmp_path / f"{hands}.json"
        path.write_text(_record(hands), "utf-8")
        sizes.append(path.stat().st_size / 1e6)
        peaks.append(_peak_mb(path))
    growth = (peaks[1] - peaks[0]) / (sizes[1] - sizes[0])
    assert sizes[1] - sizes[0] > 1.5  # enough for the growth to stand out of the noise
    assert growth < 12, (sizes, peaks)
