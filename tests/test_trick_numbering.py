"""A slip in the lines or numbers of a hand's tricks is one fault, said where it is; the tricks
are then judged as the table played them.  Expected verdicts written by hand from
examples/logs/clean-6-players.log (hand 1: trick 1 on line 20 ... trick 17 on line 36, the
score on line 37)."""

from __future__ import annotations

import re
from pathlib import Path

from referee.judge.walk import judge_text

CLEAN = (Path(__file__).resolve().parents[1] / "examples" / "logs" /
         "clean-6-players.log").read_text("utf-8")
LINES = CLEAN.split("\n")


def _said(lines: list[str]) -> list[tuple]:
    report = judge_text("\n".join(lines))
    return [(d.kind, d.line, d.column, str(d.message)) for d in report.diagnostics]


def _notes(lines: list[str]) -> list[str]:
    return [str(note) for note in judge_text("\n".join(lines)).unchecked]


def _renumbered(line: str, by: int) -> str:
    return re.sub(r"^trick (\d+)", lambda m: f"trick {int(m.group(1)) + by}", line)


def test_a_trick_line_written_twice_is_counted_once():
    lines = LINES[:24] + [LINES[23]] + LINES[24:]
    assert _said(lines) == [("bad-setup", 25, 1, "trick 5 is written twice (lines 24 and 25); "
                                                 "it is counted once")]
    assert _notes(lines) == []  # the hand is judged whole: its scores too


def test_a_trick_line_left_out_is_a_trick_whose_cards_are_unknown():
    # its cards seemed still held: Eve "revoked" with QH on a club lead while "holding" KC
    lines = LINES[:23] + LINES[24:]
    assert _said(lines) == [("bad-setup", 24, 1, "trick 5 is not recorded: trick 6 follows "
                                                 "trick 4, so the cards played in trick 5 are "
                                                 "unknown")]
    assert _notes(lines)[0].startswith("hand 1: no card of trick 5 is recorded")


def test_a_trick_line_with_no_card_is_a_trick_whose_cards_are_unknown():
    for written in ("trick 5:", "trick 5: # Charlie 5C, Dave 8C, Eve KC, Fay 10C"):
        lines = LINES[:23] + [written] + LINES[24:]
        assert _said(lines) == [("bad-setup", 24, 1, "trick 5 is written with no card, and play "
                                                     "goes on after it, so the cards played in "
                                                     "it are unknown")]


def test_the_last_trick_left_out_before_the_score_line():
    lines = LINES[:35] + LINES[36:]
    assert _said(lines) == [("bad-setup", 36, 1, "trick 17 of hand 1 is not recorded before its "
                                                 "score, so the cards played in it are unknown")]


def test_numbers_that_skip_one_and_go_on_are_one_slip():
    lines = LINES[:23] + [_renumbered(line, 1) for line in LINES[23:36]] + LINES[36:]
    assert lines[35].startswith("trick 18:")
    assert _said(lines) == [("bad-setup", 24, 1, "trick 6 is recorded where trick 5 is due, and "
                                                 "the tricks after it are numbered on from it; "
                                                 "they are taken in their places")]
    assert _notes(lines) == []  # every trick is there: the hand is judged whole


def test_one_trick_renumbered_is_one_slip_and_the_next_is_in_place():
    lines = LINES[:23] + [_renumbered(LINES[23], 1)] + LINES[24:]  # trick 6 twice
    assert _said(lines) == [("bad-setup", 24, 1, "trick 6 is recorded where trick 5 is due")]


def test_two_trick_lines_in_each_other_s_place_are_taken_in_their_numbered_order():
    lines = LINES[:23] + [LINES[24], LINES[23]] + LINES[25:]
    assert _said(lines) == [("bad-setup", 24, 1, "trick 6 is written before trick 5; they are "
                                                 "taken in their numbered order")]
    assert _notes(lines) == []


def test_hand_numbers_that_skip_one_are_one_slip():
    lines = [re.sub(r"^hand (\d+)", lambda m: f"hand {int(m.group(1)) + 1}", line)
             if index >= 39 else line for index, line in enumerate(LINES)]
    assert lines[39].startswith("hand 3 ")
    assert _said(lines) == [("bad-setup", 40, 1, "hand 3 is recorded where hand 2 is due")]


def test_a_repeated_number_with_other_plays_is_still_said():
    # trick 4's number on trick 5's plays: one slip, the trick judged as trick 5
    lines = LINES[:23] + [LINES[23].replace("trick 5:", "trick 4:")] + LINES[24:]
    assert _said(lines) == [("bad-setup", 24, 1, "trick 4 is recorded where trick 5 is due")]


def test_after_a_hand_not_scored_from_its_play_a_clean_hand_pool_is_not_known():
    # under a clean-hand pool, hand 1 with a trick left out carries an unknown pool, so hand
    # 2's scores (which share it) are not judged: they were, with the pool carried taken as 0
    from referee.run.single import check_text as check_with
    from referee.rules.ruleset import load_ruleset, with_options

    pool = with_options(load_ruleset("cancellation"), clean_hand_pool=52)
    lines = LINES[:23] + LINES[24:]
    report = check_with("\n".join(lines), ruleset=pool)
    assert [d.kind for d in report.diagnostics if d.kind != "bad-setup"] == []
    notes = [str(note) for note in report.unchecked]
    assert "hand 2: scores not checked against play (the clean-hand pool they share is not " \
           "known: an earlier hand is not scored from its play)" in notes
