"""`check` of a JSON game record: its peak memory grows with the record by a few MB per MB
(the events, which the check holds, and the text), not by the decoder's place of every value
and the whole decoded document as well (36 MB per MB when they were)."""

from __future__ import annotations

import json

from peak_memory import growth, run_measured

import pytest

from referee.check.replay import check_path

pytestmark = pytest.mark.slow  # peak memory of child processes on logs of several megabytes

CHECK = ("import sys\nfrom referee.check.replay import check_path\n"
         "report = check_path(sys.argv[1])\nassert report.verdict == 'clean', report.verdict")
BLOCK = 12  # hands: a whole number of rounds of dealers and of pass directions at 6 seats


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
    sizes, peaks, slope = growth(tmp_path, _record, (50, 250),
                                 lambda path: run_measured(CHECK, str(path)).peak_mb, ".json")
    assert sizes[1] - sizes[0] > 1.5  # enough for the growth to stand out of the noise
    assert slope < 12, (sizes, peaks)
