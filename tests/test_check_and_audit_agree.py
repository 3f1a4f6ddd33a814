"""`check` and `audit` blame the same entries of a scoresheet whose slip has one smallest
correction: a reader is never told by one to fix what the other calls right."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.run.single import check_path, check_text
from referee.judge.codes import SCORE_MISMATCH, TOTAL_MISMATCH
from referee.log.parser import parse_text
from referee.proofs.audit import audit_scoresheet
from referee.rules.ruleset import load_ruleset

LOGS = Path(__file__).resolve().parents[1] / "examples" / "logs"


@pytest.mark.parametrize("name", ["swapped-scores", "total-mismatch"])
def test_check_blames_the_entries_audit_corrects(name):
    path = LOGS / f"{name}.log"
    report = check_path(path)
    blamed = {(d.line, d.column) for d in report.diagnostics
              if d.kind in (SCORE_MISMATCH, TOTAL_MISMATCH)}
    parsed = parse_text(path.read_text("utf-8"))
    audit = audit_scoresheet(parsed, load_ruleset(report.ruleset), report.players, seconds=30)
    assert not audit.consistent and not audit.more and len(audit.suggestions) == 1
    assert blamed == {(fix.line, fix.column) for fix in audit.suggestions[0]}


SHEET = (LOGS / "scoresheet-game.log").read_text("utf-8")
# Each slip of the 8-player sheet (10 hands, 52 points a hand; line 12 is hand 4's score line,
# line 15 hand 5's total line) and the entries that undo it, as (line, player, written, right):
# the one smallest correction, which check blames and audit finds.
SLIPS = {
    # Gus's 16 written 19: hand 4 sums to 55, and Gus's total 36 is 20 + 16
    "a wrong score": (
        "score: Al 0, Beth 1, Charlie 0, Dave 2, Eve 20, Fay 13, Gus 16, Hana 0",
        "score: Al 0, Beth 1, Charlie 0, Dave 2, Eve 20, Fay 13, Gus 19, Hana 0",
        [(12, "Gus", 19, 16)]),
    # Eve's 20 written -20: hand 4 sums to 12, and Eve's total 37 is 17 + 20
    "a wrong sign": (
        "score: Al 0, Beth 1, Charlie 0, Dave 2, Eve 20, Fay 13, Gus 16, Hana 0",
        "score: Al 0, Beth 1, Charlie 0, Dave 2, Eve -20, Fay 13, Gus 16, Hana 0",
        [(12, "Eve", -20, 20)]),
    # Al's 64 and Beth's 30 in each other's place: 45 + 19 = 64 and 16 + 14 = 30, and hand 6's
    # totals (79, 44) build on 64 and 30
    "two totals swapped": (
        "total: Al 64, Beth 30, Charlie 2, Dave 25, Eve 55, Fay 26, Gus 37, Hana 21",
        "total: Al 30, Beth 64, Charlie 2, Dave 25, Eve 55, Fay 26, Gus 37, Hana 21",
        [(15, "Al", 30, 64), (15, "Beth", 64, 30)]),
}


@pytest.mark.parametrize("slip", SLIPS)
def test_check_blames_the_entries_audit_corrects_on_a_sheet_with_one_slip(slip):
    right, written, fixes = SLIPS[slip]
    assert right in SHEET
    text = SHEET.replace(right, written)
    report = check_text(text)
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == [
        (TOTAL_MISMATCH if written.startswith("total") else SCORE_MISMATCH, line, player)
        for line, player, _, _ in fixes]
    assert report.winners == ["Charlie"]  # Al's 158 ends the game, Charlie's 26 is lowest
    audit = audit_scoresheet(parse_text(text), load_ruleset(report.ruleset), report.players,
                             seconds=30)
    assert not audit.consistent and not audit.more and len(audit.suggestions) == 1
    (correction,) = audit.suggestions
    assert sorted((fix.line, fix.player, fix.old, fix.new) for fix in correction) == fixes
    assert {(d.line, d.column) for d in report.diagnostics} == \
        {(fix.line, fix.column) for fix in correction}


def test_a_total_carried_from_the_wrong_hand_is_the_line_audit_corrects_first():
    # hand 10's totals (line 25) add its scores (Al 38, Beth 0, Eve 0) to hand 8's totals
    # (Al 94, Beth 54, Eve 72) instead of hand 9's (Al 120, Beth 73, Eve 79): check says so in
    # one diagnostic of the line, the record's; audit's first correction (the one losing no
    # points) is those three totals.  (Its second, as small, lowers Al's score of 38 to 12,
    # 26 points lost with the last trick, and corrects Beth's and Eve's totals.)
    text = SHEET.replace(
        "total: Al 158, Beth 73, Charlie 26, Dave 60, Eve 79, Fay 33, Gus 49, Hana 42",
        "total: Al 132, Beth 54, Charlie 26, Dave 60, Eve 72, Fay 33, Gus 49, Hana 42")
    report = check_text(text)
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == [(TOTAL_MISMATCH, 25, None)]
    assert report.diagnostics[0].message == (
        "hand 10's totals add its scores to the totals of hand 8, not of hand 9: each total is "
        "the previous total plus the hand score")
    audit = audit_scoresheet(parse_text(text), load_ruleset(report.ruleset), report.players,
                             seconds=30)
    assert sorted((fix.line, fix.player, fix.old, fix.new) for fix in audit.suggestions[0]) == \
        [(25, "Al", 132, 158), (25, "Beth", 54, 73), (25, "Eve", 72, 79)]


def test_a_total_carried_from_the_wrong_hand_mid_game_is_that_lines_totals_alone():
    # hand 6's totals (line 17) add its scores to hand 4's totals (line 13) instead of hand
    # 5's, so the four seats that scored in hand 5 are short by their hand 5 score: Al 60
    # (45 + 15, not 64 + 15 = 79), Beth 30 (not 44), Eve 47 (not 65), Gus 46 (not 47).  Hand
    # 7's totals are right.  For each of the four, the hand 6 total disagrees with hand 5's
    # total plus hand 6's score and with hand 7's total less hand 7's score (Al: 79 and
    # 81 - 2 = 79); the two share that total only, so each seat needs a change of its own, and
    # only that total mends both with one.  Four entries, all on line 17, and no other four.
    right = "total: Al 79, Beth 44, Charlie 2, Dave 26, Eve 65, Fay 26, Gus 47, Hana 23"
    assert right in SHEET
    text = SHEET.replace(
        right, "total: Al 60, Beth 30, Charlie 2, Dave 26, Eve 47, Fay 26, Gus 46, Hana 23")
    report = check_text(text)
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == [(TOTAL_MISMATCH, 17, None)]
    assert report.diagnostics[0].message.startswith(
        "hand 6's totals add its scores to the totals of hand 4, not of hand 5")
    audit = audit_scoresheet(parse_text(text), load_ruleset(report.ruleset), report.players,
                             seconds=30)
    assert audit.changes == 4 and not audit.more and len(audit.suggestions) == 1
    assert [(fix.line, fix.player, fix.old, fix.new) for fix in audit.suggestions[0]] == [
        (17, "Al", 60, 79), (17, "Beth", 30, 44), (17, "Eve", 47, 65), (17, "Gus", 46, 47)]
