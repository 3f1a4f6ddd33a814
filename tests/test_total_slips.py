"""A slip in one total line is one fault: the next total is right whether the table carried
the slip forward (the sheet's own arithmetic) or went on from the true total.  Expected
verdicts written by hand from examples/logs/clean-6-players.log (hand 1 total: Beth 5;
hand 2: Beth scores 43, total 48)."""

from __future__ import annotations

from pathlib import Path

from referee.run.single import check_text

CLEAN = (Path(__file__).resolve().parents[1] / "examples/logs/clean-6-players.log").read_text(
    "utf-8")


def _faults(text: str) -> list[tuple[str, int, str]]:
    return [(d.kind, d.line, d.message) for d in check_text(text).diagnostics]


def test_a_slip_the_next_total_ignores_is_reported_once():
    text = CLEAN.replace("total: Al 4, Beth 5,", "total: Al 4, Beth 6,", 1)
    assert _faults(text) == [
        ("total-mismatch", 38, "Beth's total is written as 6, but 0 + 5 = 5")]


def test_a_slip_carried_forward_is_reported_once():
    text = CLEAN.replace("total: Al 4, Beth 5,", "total: Al 4, Beth 6,", 1).replace(
        "total: Al 4, Beth 48,", "total: Al 4, Beth 49,", 1).replace(
        "total: Al 8, Beth 48,", "total: Al 8, Beth 49,", 1)
    assert _faults(text) == [
        ("total-mismatch", 38, "Beth's total is written as 6, but 0 + 5 = 5")]


def test_a_later_total_wrong_on_both_bases_is_its_own_fault():
    text = CLEAN.replace("total: Al 4, Beth 5,", "total: Al 4, Beth 6,", 1).replace(
        "total: Al 4, Beth 48,", "total: Al 4, Beth 50,", 1)
    assert [(k, line) for k, line, _ in _faults(text)] == [
        ("total-mismatch", 38), ("total-mismatch", 72)]
