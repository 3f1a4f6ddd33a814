"""More scorers' slips on the sheet, each one fault: a moon hand's score line written in the wrong
form, a sheet's moon line the scores contradict, a winner line naming a player twice, a total line
not updated, and a name written twice as an inline correction.  Expected verdicts written by hand
from the bundled clean logs:

- clean-8-players (C8), hand 14 (lines 465-467): Beth takes every point, ``moon Beth add``, every
  other score 26, totals built on them; the game ends in hand 15, won by Hana (78).
- ``s8``: C8 reduced to its Players, Ruleset and Target tags and its score, total, moon and winner
  lines, a scoresheet without play (its hand 14: moon line 30, score line 31).
- clean-6-players (C6): hand 1's score line 37 (Fay 6), hand 3's total line 106 (hand 2's is
  line 72, Al 4, Beth 48, ...); Dave wins.
- scoresheet-game (SG): hand 3's score line 10 and total line 11 (Al 45, ...); Charlie wins.
"""

from __future__ import annotations

from pathlib import Path

from referee.run.single import check_text

LOGS = Path(__file__).resolve().parent.parent / "examples" / "logs"
C6, C8, SG = "clean-6-players.log", "clean-8-players.log", "scoresheet-game.log"
TAKEN = "score: Al 0, Beth 52, Charlie 0, Dave 0, Eve 0, Fay 0, Gus 0, Hana 0"
HALF = "score: Al 0, Beth 26, Charlie 0, Dave 0, Eve 0, Fay 0, Gus 0, Hana 0"
SUBTRACT = "score: Al 0, Beth -26, Charlie 0, Dave 0, Eve 0, Fay 0, Gus 0, Hana 0"
ADD = "score: Al 26, Beth 0, Charlie 26, Dave 26, Eve 26, Fay 26, Gus 26, Hana 26"


def rows(name: str) -> list[str]:
    return (LOGS / name).read_text("utf-8").split("\n")


def s8() -> list[str]:
    keep = ("[Players", "[Ruleset", "[Target", "score", "total", "moon", "winner")
    return [row for row in rows(C8) if row.startswith(keep)]


def put(lines: list[str], line: int, old: str, new: str) -> list[str]:
    assert lines[line - 1] == old, (line, lines[line - 1])
    return lines[:line - 1] + [new] + lines[line:]


def verdict(lines: list[str]) -> tuple[list[tuple[str, int, str | None]], list[str] | None]:
    report = check_text("\n".join(lines), "t.log")
    return [(d.kind, d.line, d.player) for d in report.diagnostics], report.winners


def message(lines: list[str]) -> str:
    return check_text("\n".join(lines), "t.log").diagnostics[0].message


def test_the_sheet_the_cases_edit_is_clean_and_its_moon_line_judged():
    report = check_text("\n".join(s8()), "t.log")
    assert report.diagnostics == [] and report.winners == ["Hana"]
    assert not any("moon line" in note for note in report.unchecked)


# -- 1. a moon hand's score line in the wrong form --------------------------------------------
def test_a_played_moon_hand_s_scores_written_as_the_points_taken():
    lines = put(rows(C8), 466, ADD, TAKEN)
    assert verdict(lines) == ([("bad-moon", 466, "Beth")], ["Hana"])
    assert message(lines) == (
        "Beth shot the moon, so the hand scores are Al 26, Beth 0, Charlie 26, Dave 26, Eve 26, "
        "Fay 26, Gus 26, Hana 26 (add), not the points taken")


def test_a_played_moon_hand_s_scores_written_as_the_shooter_s_26_alone():
    assert verdict(put(rows(C8), 466, ADD, HALF)) == ([("bad-moon", 466, "Beth")], ["Hana"])


def test_the_points_taken_with_no_moon_line_follow_the_totals_choice():
    lines = put(rows(C8), 466, ADD, TAKEN)
    del lines[464]  # the moon line
    assert verdict(lines) == ([("bad-moon", 465, "Beth")], ["Hana"])


def test_a_played_moon_hand_s_scores_written_for_subtract_under_moon_add():
    assert verdict(put(rows(C8), 466, ADD, SUBTRACT)) == ([("bad-moon", 466, "Beth")], ["Hana"])


def test_a_sheet_s_moon_scores_written_as_the_points_taken():
    for written in (TAKEN, HALF):
        lines = put(s8(), 31, ADD, written)
        assert verdict(lines) == ([("bad-moon", 31, "Beth")], ["Hana"]), written


def test_a_sheet_s_moon_scores_written_for_the_choice_the_totals_do_not_follow():
    lines = put(s8(), 31, ADD, SUBTRACT)
    assert verdict(lines) == ([("bad-moon", 31, "Beth")], ["Hana"])
    assert message(lines) == (
        "the scores are written for the moon choice subtract, but the totals for add")


# -- 2. a sheet's moon line, a winner line's name twice ---------------------------------------
def test_a_sheet_s_moon_line_for_the_wrong_player():
    for moon in ("moon Al subtract", "moon Al add"):
        lines = put(s8(), 30, "moon Beth add", moon)
        assert verdict(lines) == ([("bad-moon", 30, "Al")], ["Hana"]), moon
        assert message(lines) == "Beth shot the moon, not Al"


def test_a_sheet_s_moon_line_for_the_wrong_choice():
    lines = put(s8(), 30, "moon Beth add", "moon Beth subtract")
    assert verdict(lines) == ([("bad-moon", 30, "Beth")], ["Hana"])
    assert message(lines) == "the moon line says subtract, but the scores are written for add"


def test_a_moon_line_on_a_sheet_hand_no_moon_explains_is_noted_not_judged():
    lines = s8()
    lines.insert(32, "moon Al add")  # before hand 15's score line (Al 1, Beth 0, ...)
    report = check_text("\n".join(lines), "t.log")
    assert report.diagnostics == [] and report.winners == ["Hana"]
    assert "hand 15: the moon line is not checked (no play recorded)" in report.unchecked


def test_a_winner_written_twice():
    lines = put(rows(SG), 26, "winner: Charlie", "winner: Charlie Charlie")
    assert verdict(lines) == ([("game-end", 26, None)], ["Charlie"])
    assert message(lines) == "Charlie appears twice on this line"
    lines = put(rows(C8), 501, "winner: Hana", "winners: Hana, Hana")
    assert verdict(lines) == ([("game-end", 501, None)], ["Hana"])


def test_a_wrong_winner_claim_with_a_name_twice_is_the_one_wrong_claim():
    lines = put(rows(C8), 501, "winner: Hana", "winners: Beth, Eve, Beth")
    assert verdict(lines) == ([("game-end", 501, None)], ["Hana"])
    assert message(lines).startswith("the winner is claimed as Beth, Eve, but")


# -- 3. a total line not updated --------------------------------------------------------------
C6_TOTAL_2 = "total: Al 4, Beth 48, Charlie 4, Dave 7, Eve 31, Fay 10"
C6_TOTAL_3 = "total: Al 8, Beth 48, Charlie 25, Dave 34, Eve 31, Fay 10"


def test_a_total_line_that_repeats_the_previous_totals():
    lines = put(rows(C6), 106, C6_TOTAL_3, C6_TOTAL_2)
    assert verdict(lines) == ([("total-mismatch", 106, None)], ["Dave"])
    assert message(lines) == ("hand 3's totals repeat the totals of hand 2: each total is the "
                              "previous total plus the hand score")


def test_a_sheet_s_total_line_that_repeats_the_previous_totals():
    lines = rows(SG)
    lines = put(lines, 11, lines[10], lines[8])
    assert verdict(lines) == ([("total-mismatch", 11, None)], ["Charlie"])


def test_a_total_line_that_repeats_the_hand_s_scores():
    lines = rows(SG)
    lines = put(lines, 11, lines[10], lines[9].replace("score:", "total:"))
    assert verdict(lines) == ([("total-mismatch", 11, None)], ["Charlie"])
    assert message(lines) == ("hand 3's totals repeat its scores: each total is the previous "
                              "total plus the hand score")
    lines = rows(C6)
    lines = put(lines, 106, C6_TOTAL_3, lines[104].replace("score:", "total:"))
    assert verdict(lines) == ([("total-mismatch", 106, None)], ["Dave"])


# -- 4. a name written twice as an inline correction ------------------------------------------
C6_SCORE_1 = "score: Al 4, Beth 5, Charlie 4, Dave 7, Eve 26, Fay 6"


def test_the_later_of_a_name_written_twice_with_nobody_missing_is_the_correction():
    lines = put(rows(C6), 37, C6_SCORE_1, C6_SCORE_1.replace("Fay 6", "Fay 9, Fay 6"))
    assert verdict(lines) == ([("score-mismatch", 37, "Fay")], ["Dave"])
    assert message(lines) == "Fay appears twice on this line"


# -- a moon hand's totals carried with the other choice ---------------------------------------
TOTAL_14 = "total: Al 93, Beth 121, Charlie 126, Dave 139, Eve 113, Fay 116, Gus 79, Hana 71"
SUBTRACTED = "total: Al 67, Beth 95, Charlie 100, Dave 113, Eve 87, Fay 90, Gus 53, Hana 45"


def test_totals_that_subtract_where_the_moon_line_and_the_scores_add():
    # the moon line and the scores agree (add): the total line is the one fault
    lines = put(rows(C8), 467, TOTAL_14, SUBTRACTED)
    assert verdict(lines) == ([("bad-moon", 467, "Beth")], ["Hana"])
    assert message(lines) == ("the totals add the scores of the moon choice subtract, but the "
                              "scores are written for add")
    assert verdict(put(s8(), 32, TOTAL_14, SUBTRACTED)) == ([("bad-moon", 32, "Beth")], ["Hana"])


def test_a_sheet_whose_score_and_total_lines_give_the_shooter_the_points_taken():
    # moon Beth add, and Beth's 52 points written on the score line and added to her total: the
    # score line is the one fault, and the game's end is judged by the moon's scores
    lines = put(s8(), 31, ADD, TAKEN)
    lines = put(lines, 32, TOTAL_14, "total: Al 67, Beth 173, Charlie 100, Dave 113, Eve 87, "
                "Fay 90, Gus 53, Hana 45")
    assert verdict(lines) == ([("bad-moon", 31, "Beth")], ["Hana"])
