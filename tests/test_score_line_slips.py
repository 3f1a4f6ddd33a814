"""Scorers' slips on a score, total or moon line are one fault each, and the game's end is
taken from the reading that explains the sheet with the fewest faults.  Expected verdicts
written by hand from the bundled clean logs:

- clean-8-players, hand 14 (lines 465-467): Beth takes every point, ``moon Beth add``, every
  other score 26, totals built on them; the game ends in hand 15, won by Hana (78).
- clean-6-players, hand 2 (line 71): Al 0, Beth 43 (...); Dave wins.
- scoresheet-game, hand 2 (lines 8-9): Al 0, Beth 15, Charlie 2, ...; Charlie wins (26).
"""

from __future__ import annotations

import pytest

import re
from pathlib import Path

from referee.run.single import check_text

LOGS = Path(__file__).resolve().parent.parent / "examples" / "logs"
C6, C8, SG = "clean-6-players.log", "clean-8-players.log", "scoresheet-game.log"


def rows(name: str) -> list[str]:
    return (LOGS / name).read_text("utf-8").split("\n")


def edit(lines: list[str], line: int, old: str, new: str) -> None:
    assert old in lines[line - 1], (line, lines[line - 1])
    lines[line - 1] = lines[line - 1].replace(old, new)


def verdict(lines: list[str]) -> tuple[list[tuple[str, int, str | None]], list[str] | None]:
    report = check_text("\n".join(lines), "t.log")
    return [(d.kind, d.line, d.player) for d in report.diagnostics], report.winners


def ann_anna() -> list[str]:
    """scoresheet-game with Al called Ann and Beth Anna (still clean)."""
    return [re.sub(r"\bBeth\b", "Anna", re.sub(r"\bAl\b", "Ann", row)) for row in rows(SG)]


def test_the_logs_the_cases_edit_are_clean():
    for lines in (rows(C6), rows(C8), rows(SG), ann_anna()):
        found, winners = verdict(lines)
        assert found == [] and winners


def test_a_moon_line_whose_choice_the_scores_and_totals_do_not_follow():
    # scores and both later totals follow "add": the moon line is the one fault, Hana wins
    lines = rows(C8)
    edit(lines, 465, "moon Beth add", "moon Beth subtract")
    found, winners = verdict(lines)
    assert found == [("bad-moon", 465, "Beth")]
    assert winners == ["Hana"]
    report = check_text("\n".join(lines), "t.log")
    assert report.diagnostics[0].message == (
        "the moon line says subtract, but the scores are written for add")


def test_scores_written_for_subtract_where_the_totals_add():
    # no moon line; the score line follows subtract, its total line and the later ones add
    lines = rows(C8)
    del lines[464]
    lines[464] = "score: Al 0, Beth -26, Charlie 0, Dave 0, Eve 0, Fay 0, Gus 0, Hana 0"
    found, winners = verdict(lines)
    assert found == [("bad-moon", 465, "Beth")]
    assert winners == ["Hana"]


def test_a_moon_line_and_totals_that_agree_leave_the_score_line_the_slip():
    # moon subtract, totals built on subtract (Beth 121 - 26 = 95, others unchanged), the scores
    # written for add: one fault, on the score line; the later total lines then follow subtract
    lines = rows(C8)
    edit(lines, 465, "moon Beth add", "moon Beth subtract")
    lines[466] = "total: Al 67, Beth 95, Charlie 100, Dave 113, Eve 87, Fay 90, Gus 53, Hana 45"
    found, _ = verdict(lines[:467])
    assert found == [("bad-moon", 466, "Beth")]


def test_a_name_written_twice_in_the_place_of_the_seat_with_no_entry():
    # Al's 0 written under Beth's name, in Al's place: read as Al's, Beth's 43 stands
    lines = rows(C6)
    edit(lines, 71, "score: Al 0, Beth 43", "score: Beth 0, Beth 43")
    found, winners = verdict(lines)
    assert found == [("score-mismatch", 71, "Beth")]
    assert winners == ["Dave"]
    diag = check_text("\n".join(lines), "t.log").diagnostics[0]
    assert (diag.message, diag.hint) == ("Beth appears twice on this line",
                                         "did you mean 'Al'?")


def test_a_name_written_twice_on_a_sheet_of_similar_names():
    lines = ann_anna()
    edit(lines, 8, "Ann 0, Anna 15", "Anna 0, Anna 15")
    found, winners = verdict(lines)
    assert found == [("score-mismatch", 8, "Anna")]
    assert winners == ["Charlie"]


@pytest.mark.parametrize("sheet, old, new, hint", [
    # 'Ana' is as like Hana as Anna, but Hana has an entry on the line and Anna none
    ("ann_anna", "Anna 15", "Ana 15", "did you mean 'Anna'?"),
    # a name like none seated, where one seat has no entry
    ("SG", "Beth 15", "Zed 15", "did you mean 'Beth'?"),
])
def test_a_name_not_seated_is_read_as_the_likeliest_seat_with_no_entry(sheet, old, new, hint):
    lines = ann_anna() if sheet == "ann_anna" else rows(SG)
    edit(lines, 8, old, new)
    report = check_text("\n".join(lines), "t.log")
    assert [(d.kind, d.line, d.player, d.hint) for d in report.diagnostics] == [
        ("bad-setup", 8, None, hint)]
    assert report.winners == ["Charlie"]


def test_two_names_not_seated_are_not_guessed_into_seats_unlike_them():
    lines = rows(SG)
    edit(lines, 8, "Beth 15, Charlie 2", "Zed 15, Yul 2")
    found, _ = verdict(lines)
    assert found[:3] == [("score-mismatch", 8, None), ("bad-setup", 8, None),
                         ("bad-setup", 8, None)]


def test_a_hand_left_off_the_sheet():
    # hand 2's score and total lines skipped: the next totals include it (Al 0, Beth 15,
    # Charlie 2, ...); every later total has Charlie lowest
    lines = rows(SG)
    del lines[7:9]
    found, winners = verdict(lines)
    assert found == [("total-mismatch", 9, None)]
    assert winners == ["Charlie"]
    assert check_text("\n".join(lines), "t.log").diagnostics[0].message == (
        "hand 2's totals include the scores of a hand that is not on the sheet: Al 0, Beth 15, "
        "Charlie 2, Dave 0, Eve 6, Fay 11, Gus 0, Hana 18")


def test_a_hand_s_scores_added_twice_are_no_hand_left_off():
    lines = rows(SG)
    edit(lines, 9, "total: Al 0, Beth 15, Charlie 2, Dave 23, Eve 17, Fay 11, Gus 15, Hana 21",
         "total: Al 0, Beth 30, Charlie 4, Dave 23, Eve 23, Fay 22, Gus 15, Hana 39")
    found, _ = verdict(lines[:9])
    assert found == [("total-mismatch", 9, p) for p in ("Beth", "Charlie", "Eve", "Fay", "Hana")]


def test_one_score_slip_in_a_moon_hand_with_no_moon_line():
    # no moon line, Charlie's 26 written 25: the scores are nearest "add", which the totals follow
    lines = rows(C8)
    del lines[464]
    edit(lines, 465, "Charlie 26", "Charlie 25")
    found, winners = verdict(lines)
    assert found == [("bad-moon", 465, "Beth"), ("score-mismatch", 465, "Charlie")]
    assert winners == ["Hana"]


def test_one_score_slip_under_a_wrong_moon_line():
    # moon subtract, the scores add but for Charlie's 25, the totals add: two faults
    lines = rows(C8)
    edit(lines, 465, "moon Beth add", "moon Beth subtract")
    edit(lines, 466, "Charlie 26", "Charlie 25")
    found, winners = verdict(lines)
    assert found == [("bad-moon", 465, "Beth"), ("score-mismatch", 466, "Charlie")]
    assert winners == ["Hana"]
