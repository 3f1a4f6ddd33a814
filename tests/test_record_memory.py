"""`check` of a JSON game record: its peak memory grows with the record by a few MB per MB
(the events, which the check holds, and the text), not by the decoder's place of every value
and the whole decoded document as well (36 MB per MB when they were)."""

from __future__ import annotations


from peak_memory import growth, run_measured
from record_texts import PLAYED_BLOCK, played_record

import pytest

from referee.judge.walk import judge_path

pytestmark = pytest.mark.slow  # peak memory of child processes on logs of several megabytes

CHECK = ("import sys\nfrom referee.judge.walk import judge_path\n"
         "report = judge_path(sys.argv[1])\nassert report.verdict == 'clean', report.verdict")



def test_the_record_made_here_is_a_clean_game(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(played_record(2 * PLAYED_BLOCK), "utf-8")
    report = judge_path(path)
    assert report.verdict == "clean" and len(report.to_json()["hands"]) == 2 * PLAYED_BLOCK


def test_peak_memory_of_a_record_grows_by_a_few_mb_per_mb(tmp_path):
    # measured: about 6 MB per MB of a played record (its events: a play and its two spans
    # for each 80 bytes of JSON), where the whole decoded document and a JSON pointer per
    # value, then the whole file's events, cost 36
    sizes, peaks, slope = growth(tmp_path, played_record, (50, 250),
                                 lambda path: run_measured(CHECK, str(path)).peak_mb, ".json")
    assert sizes[1] - sizes[0] > 1.5  # enough for the growth to stand out of the noise
    assert slope < 12, (sizes, peaks)
