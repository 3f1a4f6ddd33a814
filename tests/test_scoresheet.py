"""Scoresheets checked without flags, one fault one diagnostic, and `check` and `audit`
naming the same entry: small sheets written by hand, with the verdicts worked out by hand."""

from __future__ import annotations

from pathlib import Path

from referee.judge import codes
from referee.log.parser import parse_log
from referee.proofs.audit import audit_scoresheet
from referee.run.single import check_bytes, check_text
from referee.rules.ruleset import load_ruleset, with_options

CANCELLATION = load_ruleset("cancellation")
NAMES = ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]
HEAD = '[Players "Al Beth Charlie Dave Eve Fay"]\n'
CLEAN_6 = Path(__file__).parent.parent / "examples" / "logs" / "clean-6-players.log"

# hand 1 sums to 52; hand 2 is written 0 15 20 3 13 2 (53): Dave's 3 should be 2
HAND_1 = ("score: Al 10, Beth 14, Charlie 0, Dave 5, Eve 13, Fay 10\n"
          "total: Al 10, Beth 14, Charlie 0, Dave 5, Eve 13, Fay 10\n")
HAND_2 = "score: Al 0, Beth 15, Charlie 20, Dave 3, Eve 13, Fay 2\n"


def faults(report):
    return [(d.kind, d.line, d.column, d.player) for d in report.diagnostics]


def audit(text: str, rules=CANCELLATION, **options):
    return audit_scoresheet(parse_log(text), rules, NAMES, **options)


def test_a_hand_adding_up_to_53_is_one_fault_with_the_plain_fact():
    # every total follows the written scores, so no entry is pointed at: the hand is
    text = (HEAD + HAND_1 + HAND_2
            + "total: Al 10, Beth 29, Charlie 20, Dave 8, Eve 26, Fay 12\n")
    report = check_text(text)
    assert report.verdict == "violations"
    (diag,) = report.diagnostics
    assert (diag.kind, diag.line, diag.column, diag.rule, diag.hand) == (
        codes.SCORE_MISMATCH, 4, 1, "R7.2", 2)
    assert diag.message == "hand 2 adds up to 53, one more than the decks hold"
    result = audit(text)
    assert result.text().startswith("hand 2 adds up to 53, one more than the decks hold; ")
    assert result.changes == 2  # a score and its total, whichever seat it is


def test_one_wrong_score_with_a_right_total_is_named_by_check_and_audit_alike():
    text = (HEAD + HAND_1 + HAND_2
            + "total: Al 10, Beth 29, Charlie 20, Dave 7, Eve 26, Fay 12\n")  # 5 + 2 = 7
    report = check_text(text)
    assert faults(report) == [(codes.SCORE_MISMATCH, 4, 35, "Dave")]  # not Dave's total
    assert report.diagnostics[0].message == (
        "hand 2 adds up to 53, one more than the decks hold: Dave's score is written as 3, "
        "but Dave's total 7 = 5 + 2 makes it 2")
    assert [h.points["Dave"] for h in report.hands] == [5, 2]
    result = audit(text)
    (fix,) = result.suggestions[0]
    assert (fix.line, fix.column, fix.player, fix.field, fix.old, fix.new) == (
        4, 35, "Dave", "score", 3, 2)
    assert result.text() == ("hand 2 adds up to 53, one more than the decks hold; change Dave's "
                             "hand 2 score from 3 to 2; then every hand sums to 52 and every "
                             "total adds up")


def test_a_short_hand_whose_total_shows_the_score_blames_the_score_not_lost_points():
    # 51 could be a point lost in a set-aside last trick, but Beth's total says 15, and
    # with 15 nothing is lost: both referees name Beth's score
    text = (HEAD + HAND_1 + "score: Al 0, Beth 14, Charlie 20, Dave 2, Eve 13, Fay 2\n"
            "total: Al 10, Beth 29, Charlie 20, Dave 7, Eve 26, Fay 12\n")
    assert faults(check_text(text)) == [(codes.SCORE_MISMATCH, 4, 14, "Beth")]
    (fix,) = audit(text).suggestions[0]
    assert (fix.line, fix.column, fix.new) == (4, 14, 15)


def test_a_short_hand_is_lost_points_only_where_the_record_allows():
    sheet = "score: Al 10, Beth 14, Charlie 0, Dave 5, Eve 13, Fay 9\n"  # 51
    plain = check_text(HEAD + sheet)
    assert plain.verdict == "clean"
    assert ("hand 1 adds up to 51: consistent only if 1 point was lost in a set-aside last "
            "trick (R6.6), which the record does not show") in plain.unchecked
    assert audit(HEAD + sheet).lost == {1: 1}
    # a ruleset in which the leader takes a set-aside last trick loses nothing
    keeps = with_options(CANCELLATION, set_aside_last="leader")
    (diag,) = check_bytes((HEAD + sheet).encode(), ruleset=keeps).diagnostics
    assert diag.message == ("hand 1 adds up to 51, one less than the decks hold, and no points "
                            "can have been lost: under cancellation a set-aside last trick goes "
                            "to its leader (R6.6)")
    assert not audit(HEAD + sheet, rules=keeps).consistent


def test_a_short_hand_is_not_excused_when_the_log_shows_the_last_trick_won():
    won = (HEAD + "hand 1 dealer Al\n"
           "trick 17: Beth 3H, Charlie 5H, Dave KD, Eve QC, Fay 6H, Al 5D -> Fay\n"
           "score: Al 10, Beth 14, Charlie 0, Dave 5, Eve 13, Fay 9\n")
    sums = [d for d in check_text(won).diagnostics if d.kind == codes.SCORE_MISMATCH]
    assert [(d.line, d.column) for d in sums] == [(4, 1)]
    assert sums[0].message.endswith("no points can have been lost: the log shows trick 17 won "
                                    "by Fay (line 3)")
    result = audit(won)
    assert not result.consistent and result.lost == {}
    assert result.text().startswith("hand 1 adds up to 51, one less than the decks hold")
    # the same trick written as set aside: the lost point is what the record shows
    aside = won.replace("-> Fay", "-> none")
    assert not [d for d in check_text(aside).diagnostics if d.kind == codes.SCORE_MISMATCH]
    assert audit(aside).consistent and audit(aside).lost == {1: 1}


def test_scores_no_seat_can_have_are_a_fault_even_when_the_sum_is_right():
    text = HEAD + "score: Al 60, Beth -8, Charlie 0, Dave 0, Eve 0, Fay 0\n"  # 52, no moon
    (diag,) = check_text(text).diagnostics
    assert (diag.kind, diag.line) == (codes.SCORE_MISMATCH, 2)
    assert diag.message == ("hand 1 adds up to 52, but its scores include 60: outside a moon "
                            "hand a score is 0 to 52, and these scores are no moon pattern")
    result = audit(text)
    assert not result.consistent
    assert all(0 <= f.new <= 52 for fix in result.suggestions for f in fix)


def test_audit_never_proposes_a_negative_score():
    # 53 with five zeros: only Fay's 53 can come down (no seat scores -1 outside a moon)
    text = HEAD + "score: Al 0, Beth 0, Charlie 0, Dave 0, Eve 0, Fay 53\n"
    assert faults(check_text(text)) == [(codes.SCORE_MISMATCH, 2, 1, None)]
    result = audit(text, max_solutions=6)
    assert [[(f.player, f.new) for f in fix] for fix in result.suggestions] == [[("Fay", 52)]]
    assert not result.more


def test_moon_patterns_come_from_the_ruleset():
    subtract = HEAD + "score: Al -26, Beth 0, Charlie 0, Dave 0, Eve 0, Fay 0\n"
    add = HEAD + "score: Al 0, Beth 26, Charlie 26, Dave 26, Eve 26, Fay 26\n"
    assert check_text(subtract).verdict == check_text(add).verdict == "clean"
    add_only = with_options(CANCELLATION, moon_choices=["add"])
    (diag,) = check_bytes(subtract.encode(), ruleset=add_only).diagnostics
    assert diag.message.startswith("hand 1 adds up to -26, but its scores include -26")
    assert check_bytes(add.encode(), ruleset=add_only).verdict == "clean"
    broken = HEAD + "score: Al -26, Beth 1, Charlie 0, Dave 0, Eve 0, Fay 0\n"
    assert faults(check_text(broken)) == [(codes.SCORE_MISMATCH, 2, 1, None)]


def test_standard_hearts_holds_26_in_one_deck():
    players = '[Ruleset "standard"]\n[Players "N E S W"]\n'
    (diag,) = check_text(players + "score: N 0, E 14, S 9, W 4\n").diagnostics
    assert diag.message == "hand 1 adds up to 27, one more than the deck holds"
    assert check_text(players + "score: N 26, E 26, S 0, W 26\n").verdict == "clean"


def test_a_played_hand_with_a_wrong_score_and_a_right_total_is_one_diagnostic():
    lines = CLEAN_6.read_text("utf-8").splitlines()[:38]
    assert lines[36] == "score: Al 4, Beth 5, Charlie 4, Dave 7, Eve 26, Fay 6"
    lines[36] = "score: Al 4, Beth 5, Charlie 4, Dave 7, Eve 26, Fay 2"  # Fay took 6
    report = check_text("\n".join(lines) + "\n")  # the total still says 6
    assert faults(report) == [(codes.SCORE_MISMATCH, 37, 49, "Fay")]
    assert report.diagnostics[0].message == (
        "Fay's hand 1 score is written as 2, but Fay took 6 points: the score is 6")
    lines[37] = "total: Al 4, Beth 5, Charlie 4, Dave 7, Eve 26, Fay 2"  # the slip carried on
    assert faults(check_text("\n".join(lines) + "\n")) == [(codes.SCORE_MISMATCH, 37, 49, "Fay")]
    lines[37] = "total: Al 4, Beth 5, Charlie 4, Dave 7, Eve 26, Fay 9"  # a second slip
    assert faults(check_text("\n".join(lines) + "\n")) == [
        (codes.SCORE_MISMATCH, 37, 49, "Fay"), (codes.TOTAL_MISMATCH, 38, 49, "Fay")]


def test_each_score_mismatch_names_the_wrong_claims_that_concern_its_player():
    lines = CLEAN_6.read_text("utf-8").splitlines()[:38]
    # trick 10 (6 hearts) is Fay's, claimed for Beth; trick 16 (3 hearts) is Beth's, claimed
    # for Charlie; the sheet follows the claims: Beth 5 + 6 - 3, Charlie 4 + 3, Fay 6 - 6
    lines[28] = lines[28].replace("-> Fay", "-> Beth")
    lines[34] = lines[34].replace("-> Beth", "-> Charlie")
    lines[36] = "score: Al 4, Beth 8, Charlie 7, Dave 7, Eve 26, Fay 0"
    lines[37] = "total: Al 4, Beth 8, Charlie 7, Dave 7, Eve 26, Fay 0"
    report = check_text("\n".join(lines) + "\n")
    assert faults(report) == [
        (codes.WRONG_WINNER, 29, 64, "Beth"), (codes.WRONG_WINNER, 35, 63, "Charlie"),
        (codes.SCORE_MISMATCH, 37, 14, "Beth"), (codes.SCORE_MISMATCH, 37, 22, "Charlie"),
        (codes.SCORE_MISMATCH, 37, 49, "Fay")]
    causes = [d.message.split("; ", 1)[1] for d in report.diagnostics[2:]]
    assert causes == ["the winners claimed on lines 29 and 35 were wrong",
                      "the winner claimed on line 35 was wrong",
                      "the winner claimed on line 29 was wrong"]
