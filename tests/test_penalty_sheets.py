"""Scoresheets under penalties that count down (penalty_sign = -1, R7.3) and under a clean-hand
pool (R7.5), judged without play: a seat's score is -52 to 0, the decks' points sum to -52,
and a pool's shares are not judged from one line.  Expected texts written by hand."""

from __future__ import annotations

from pathlib import Path

from referee.run.single import check_path

ROOT = Path(__file__).resolve().parents[1]
PENALTIES = 'base = "cancellation"\nname = "penalties"\npenalty_sign = -1\n'
SEATS = '[Players "Al Beth Charlie Dave Eve Fay"]\n\nhand 1 dealer Fay\n'


def _check(tmp_path: Path, score: str, total: str):
    (tmp_path / "pen.toml").write_text(PENALTIES, encoding="utf-8")
    log = tmp_path / "sheet.log"
    log.write_text(f'[Ruleset "pen.toml"]\n{SEATS}score: {score}\ntotal: {total}\n', "utf-8")
    return check_path(log)


def test_a_consistent_penalty_sheet_is_clean(tmp_path):
    line = "Al -13, Beth -26, Charlie 0, Dave -13, Eve 0, Fay 0"
    report = _check(tmp_path, line, line)
    assert report.diagnostics == []
    assert report.hands[0].totals == {"Al": -13, "Beth": -26, "Charlie": 0, "Dave": -13,
                                      "Eve": 0, "Fay": 0}


def test_two_penalty_points_too_many_are_more_than_the_decks_hold(tmp_path):
    line = "Al -13, Beth -26, Charlie -2, Dave -13, Eve 0, Fay 0"
    (fault,) = _check(tmp_path, line, line).diagnostics
    assert (fault.kind, fault.line) == ("score-mismatch", 5)
    assert fault.message == "hand 1 adds up to -54, two more than the decks hold"


def test_a_positive_score_is_outside_a_penalty_hand(tmp_path):
    line = "Al -18, Beth -26, Charlie 5, Dave -13, Eve 0, Fay 0"
    (fault,) = _check(tmp_path, line, line).diagnostics
    assert fault.message == ("hand 1 adds up to -52, but its scores include 5: outside a moon "
                             "hand a score is -52 to 0, and these scores are no moon pattern")


def test_two_points_short_may_have_been_lost(tmp_path):
    line = "Al -13, Beth -26, Charlie 0, Dave -11, Eve 0, Fay 0"
    report = _check(tmp_path, line, line)
    assert report.diagnostics == []
    assert ("hand 1 adds up to -50: consistent only if 2 points were lost in a set-aside last "
            "trick (R6.6), which the record does not show") in report.unchecked


def test_the_oregonian_programs_own_sheet_is_not_accused(tmp_path):
    # program C's whole game with its play left out: the scores carry the clean-hand pool
    # (52 to each of two clean players), which no score line shows on its own
    game = (ROOT / "examples/rulesets/cancellation-oregonian-hearts-game.log").read_text("utf-8")
    kept = [line for line in game.splitlines()
            if not line.startswith(("trick", "deal", "pass ", "kitty")) and ":" not in line
            or line.startswith(("score", "total", "winner"))]
    (tmp_path / "cancellation-oregonian-hearts.toml").write_bytes(
        (ROOT / "examples/rulesets/cancellation-oregonian-hearts.toml").read_bytes())
    sheet = tmp_path / "sheet.log"
    sheet.write_text("\n".join(kept) + "\n", "utf-8")
    report = check_path(sheet)
    assert report.diagnostics == [], [d.message for d in report.diagnostics]
    assert report.winners == ["Dave"]
    assert ("a score line alone is not judged under cancellation-oregonian-hearts: its "
            "clean-hand pool shares what earlier hands carried, which the sheet does not show "
            "(R7.5); totals are checked as arithmetic") in report.unchecked
    # a total that does not add up is still found
    sheet.write_text(sheet.read_text("utf-8").replace("total: Al 99,", "total: Al 98,", 1), "utf-8")
    assert [d.kind for d in check_path(sheet).diagnostics] == ["total-mismatch"]
