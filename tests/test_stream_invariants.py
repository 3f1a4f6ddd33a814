"""`check --invariants` follows the check hand by hand (referee.proofs.invariants.InvariantWatch):
the report is the one a single z3 call over the whole log gives, whatever the batch of hands,
what the check already reported is not reported again, and memory grows with the text only."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from peak_memory import growth, played_log, run_measured

from referee.judge import codes
from referee.judge.walk import judge_bytes
from referee.conformance.generate import generate_game
from referee.conformance.inject import violating_game
from referee.log.writer import write
from referee.proofs.invariants import InvariantWatch
from referee.rules.ruleset import load_ruleset, with_options

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "logs").glob("*.log"))

SHEET = """[Ruleset "cancellation"]
[Players "Al Beth Charlie Dave Eve Fay"]
[Target "1000"]

hand 1
score: Al 0, Beth 13, Charlie 0, Dave 13, Eve 0, Fay 26
total: Al 0, Beth 13, Charlie 0, Dave 13, Eve 0, Fay 26
hand 2
score: Al 0, Beth 13, Charlie 0, Dave 13, Eve 0, Fay 26
total: Al 0, Beth 26, Charlie 0, Dave 26, Eve 0, Fay 52
hand 3
score: Al 0, Beth 13, Charlie 0, Dave 13, Eve 0, Fay 26
total: Al 0, Beth 39, Charlie 0, Dave 39, Eve 0, Fay 80
hand 4
score: Al 0, Beth 13, Charlie 0, Dave 13, Eve 0, Fay 26
total: Al 0, Beth 52, Charlie 0, Dave 52, Eve 0, Fay 106
"""


def _checked(data: bytes, batch: int, path: str = "x.log") -> dict:
    return judge_bytes(data, path, watch=partial(InvariantWatch, batch=batch)).to_json()


def test_a_total_the_check_reports_is_not_reported_again_by_its_law():
    # hand 3: Fay's total 80 where 52 + 26 = 78; the check reports it (line 13); the totals
    # law of hand 3 is violated, recorded, and not reported a second time; hand 4 builds on
    # the written 80, so its 106 is right
    for batch in (1, 2, 100):
        report = _checked(SHEET.encode(), batch)
        assert [(d["kind"], d["line"]) for d in report["diagnostics"]] == [
            (codes.TOTAL_MISMATCH, 13)]
        totals = [(i["hand"], i["status"]) for i in report["invariants"] if i["name"] == "totals"]
        assert totals == [(1, "proved"), (2, "proved"), (3, "violated"), (4, "proved")]
        assert [i["detail"] for i in report["invariants"]
                if i["name"] == "totals" and i["hand"] == 3] == [
            "Fay's total is 80, but 52 + 26 = 78"]


def _long_game(hands: int, seed: int) -> bytes:
    rules = with_options(load_ruleset("cancellation"), target=10**9)
    return write(generate_game(rules, 6, seed=seed, hands=hands)).encode()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_gives_one_report_whatever_the_batch(path):
    data = path.read_bytes()
    whole = _checked(data, 10**6, str(path))  # every hand in one z3 call, as before
    assert _checked(data, 1, str(path)) == whole
    assert _checked(data, 3, str(path)) == whole


@pytest.mark.parametrize("kind", [codes.REVOKE, codes.SCORE_MISMATCH, codes.TOTAL_MISMATCH,
                                  codes.BAD_DEAL])
def test_a_fault_in_one_batch_of_many_gives_one_report_whatever_the_batch(kind):
    # a generated game of 12 hands with one injected fault, checked with batches that cut it
    # before, at and after the faulty hand
    text = violating_game(load_ruleset("cancellation"), 6, seed=3, kind=kind, hands=12)[0]
    whole = _checked(text.encode(), 10**6)
    assert whole["invariants"]
    for batch in (1, 5, 7):
        assert _checked(text.encode(), batch) == whole


def test_a_game_of_many_batches_proves_every_law_of_every_hand():
    report = _checked(_long_game(25, seed=4), 4)
    assert report["diagnostics"] == []
    laws = {(i["name"], i["hand"]): i["status"] for i in report["invariants"]}
    assert {hand for _, hand in laws} == set(range(1, 26))
    assert all(laws[("cards-dealt", hand)] == "proved" for hand in range(1, 26))
    assert all(laws[("totals", hand)] == "proved" for hand in range(1, 26))


# ---- memory --------------------------------------------------------------------------------
PROVED = ("import sys\nfrom referee.run.single import check_path\n"
          "check_path(sys.argv[1], invariants=True)")


@pytest.mark.slow
def test_peak_memory_of_the_invariants_grows_with_the_text_not_with_its_hands(tmp_path):
    # every hand's facts and laws in one z3 call over the whole file's events: about 38 MB
    # per MB of log; a batch of hands at a time, about 5
    sizes, peaks, slope = growth(tmp_path, played_log, (60, 300),
                                 lambda path: run_measured(PROVED, str(path)).peak_mb)
    assert sizes[1] - sizes[0] > 0.4  # far enough apart for the growth to stand out
    assert slope < 14, (sizes, peaks)
