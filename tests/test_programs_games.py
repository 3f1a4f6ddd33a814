"""Games under the three public programs' ruleset files (examples/rulesets/), both directions.

Each program's game checks clean with the hand scores and totals it wrote; each fault it (or a
table) makes is reported once, with the verdict written here by hand from the log and the
program's rules (its ruleset file in examples/rulesets/, spec/rules.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.judge import codes
from referee.judge.walk import judge_bytes

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "examples" / "rulesets"
DOUBLE_DECK_GAME = "DoubleDeckCancellationHearts-game.log"
DOUBLE_DECK_KITTY = "DoubleDeckCancellationHearts-kitty-unscored.log"
DOUBLE_DECK_DEAD_END = "DoubleDeckCancellationHearts-dead-end.log"
CANCELLATION_HEARTS_GAME = "cancellation-hearts-game.log"
OREGONIAN_GAME = "cancellation-oregonian-hearts-game.log"


def text_of(name: str) -> str:
    return (RULESETS / name).read_text("utf-8")


def check(text: str):
    """Check a log whose [Ruleset "X.toml"] names a file beside the shipped games."""
    return judge_bytes(text.encode("utf-8"), "game.log", base_dir=RULESETS)


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def upto(text: str, line: str) -> str:
    """The log up to and including the line that starts with ``line`` (the first such)."""
    head, _, rest = text.partition("\n" + line)
    return head + "\n" + line + rest.split("\n", 1)[0] + "\n"


def kinds(report) -> list[tuple[str, int]]:
    return [(d.kind, d.line) for d in report.diagnostics]


# -- DoubleDeckCancellationHearts ------------------------------------------------------------
def test_double_deck_game_checks_clean_with_the_scores_it_wrote():
    report = check(text_of(DOUBLE_DECK_GAME))
    assert report.ruleset == "DoubleDeckCancellationHearts" and kinds(report) == []
    assert [h.points for h in report.hands] == [
        dict(Al=3, Beth=22, Charlie=10, Dave=0, Eve=15, Fay=2),
        dict(Al=19, Beth=0, Charlie=5, Dave=28, Eve=0, Fay=0),
        dict(Al=0, Beth=2, Charlie=11, Dave=28, Eve=11, Fay=0)]
    assert report.hands[-1].totals == dict(Al=22, Beth=24, Charlie=26, Dave=56, Eve=26, Fay=2)


def test_double_deck_first_leaders_follow_the_last_winner_and_no_dealer_is_written():
    text = text_of(DOUBLE_DECK_GAME)
    assert " dealer " not in text
    # hand 1: the first seat (Al) leads; Beth won hand 1's last trick, so Charlie leads hand 2;
    # Dave won hand 2's last trick, so Eve leads hand 3
    assert "trick 1: Al 2D" in text and "trick 1: Charlie 2C" in text and "trick 1: Eve 2S" in text
    # a dealer written anyway is not judged
    assert kinds(check(edit(text, "hand 2 pass right", "hand 2 dealer Al pass right"))) == []


def test_double_deck_wrong_first_leader_of_a_later_hand_is_reported():
    # hand 3 led by Dave (the last winner himself) instead of Eve, the seat to his left
    text = edit(text_of(DOUBLE_DECK_GAME),
                "trick 1: Eve 2S, Fay 4S, Al 3S, Beth 9S, Charlie 8S, Dave JS",
                "trick 1: Dave JS, Eve 2S, Fay 4S, Al 3S, Beth 9S, Charlie 8S")
    report = check(upto(text, "trick 1: Dave JS"))
    assert kinds(report) == [(codes.WRONG_LEADER, 88)]
    assert "left of Dave" in report.diagnostics[0].message


def test_double_deck_hand_after_one_recorded_as_scores_only_takes_its_first_leader_as_written():
    # hand 1 as its score lines only: who won its last trick is unknown, so hand 2's first
    # lead (Charlie) cannot be judged
    lines = text_of(DOUBLE_DECK_GAME).splitlines()
    hand_2 = lines.index("hand 2 pass right")
    shown = lines[:6] + lines[36:38] + lines[38:hand_2 + 33]
    report = check("\n".join(shown) + "\n")
    assert kinds(report) == []
    # ... and so can any other first lead of hand 2 (Dave's, here)
    rotated = edit("\n".join(shown) + "\n", "trick 1: Charlie 2C, Dave 3C, Eve 6C, Fay 9C, Al 7C, "
                   "Beth 8C -> Fay", "trick 1: Dave 3C, Eve 6C, Fay 9C, Al 7C, Beth 8C, "
                   "Charlie 2C -> Fay")
    assert kinds(check(upto(rotated, "trick 1: Dave 3C"))) == []


def test_double_deck_kitty_left_unscored_when_trick_1_is_set_aside_is_reported_naming_the_kitty():
    report = check(text_of(DOUBLE_DECK_KITTY))
    assert kinds(report) == [(codes.SCORE_MISMATCH, 39)]
    message = report.diagnostics[0].message
    assert message.startswith("Eve's hand 1 score is written as 0")
    assert "kitty" in message and "set-aside trick 1" in message and "score is 1" in message


def test_double_deck_kitty_scored_with_the_next_won_trick_checks_clean():
    text = text_of(DOUBLE_DECK_KITTY)
    text = edit(text, "score: Al 0, Beth 30, Charlie 2, Dave 13, Eve 0, Fay 6\n"
                "total: Al 0, Beth 30, Charlie 2, Dave 13, Eve 0, Fay 6",
                "score: Al 0, Beth 30, Charlie 2, Dave 13, Eve 1, Fay 6\n"
                "total: Al 0, Beth 30, Charlie 2, Dave 13, Eve 1, Fay 6")
    text = edit(text, "Dave 22, Eve 0, Fay 34", "Dave 22, Eve 1, Fay 34")
    assert kinds(check(text)) == []


def test_double_deck_log_that_stops_at_the_trick_1_dead_end_says_no_card_is_legal_there():
    report = check(text_of(DOUBLE_DECK_DEAD_END))
    assert kinds(report) == [(codes.NO_LEGAL_CARD, 20)]
    diag = report.diagnostics[0]
    assert diag.player == "Beth" and diag.rule == "R5.6" and diag.code == "CH207"
    assert "no card is legal here" in diag.message
    assert "QS: no points may be played to the first trick" in diag.message
    assert any("no card is legal here" in note for note in report.unchecked)


def test_the_dead_end_log_exits_1_on_the_command_line():
    done = subprocess.run([sys.executable, "-m", "referee", "check",
                           str(RULESETS / DOUBLE_DECK_DEAD_END)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1 and "CH207 no-legal-card" in done.stdout


@pytest.mark.parametrize("card, kind", [("QS", codes.ILLEGAL_PLAY), ("2D", codes.REVOKE)])
def test_double_deck_card_played_at_the_dead_end_breaks_the_rule_it_breaks(card, kind):
    text = edit(text_of(DOUBLE_DECK_DEAD_END), "trick 1: Al 7S", f"trick 1: Al 7S, Beth {card}")
    assert kinds(check(text)) == [(kind, 20)]


# -- cancellation-hearts --------------------------------------------------------------------
def test_cancellation_hearts_game_checks_clean_including_a_two_player_moon():
    report = check(text_of(CANCELLATION_HEARTS_GAME))
    assert report.ruleset == "cancellation-hearts" and kinds(report) == []
    # hand 2: Al and Charlie took all 52 points between them: they score 0, the others +26
    assert report.hands[1].points == dict(Al=0, Beth=26, Charlie=0, Dave=26, Eve=26, Fay=26,
                                          Gus=26, Hana=26)
    assert report.hands[2].totals == dict(Al=3, Beth=26, Charlie=13, Dave=52, Eve=59, Fay=35,
                                          Gus=41, Hana=31)


def test_cancellation_hearts_pair_moon_scored_as_points_taken_is_reported():
    text = edit(text_of(CANCELLATION_HEARTS_GAME),
                "score: Al 0, Beth 26, Charlie 0, Dave 26, Eve 26, Fay 26, Gus 26, Hana 26",
                "score: Al 0, Beth 26, Charlie 0, Dave 26, Eve 26, Fay 26, "
                "Gus 26, Hana 0")
    report = check(upto(text, "score: Al 0, Beth 26"))
    assert kinds(report) == [(codes.SCORE_MISMATCH, 69)]


HAND_1_TRICK_1 = ("trick 1: Dave 2C, Eve 5C, Fay 2C, Gus 10C, Hana 7C, Al 8C, Beth JC, Charlie 9C "
                  "-> Beth")


def test_cancellation_hearts_passing_the_2c_is_reported():
    # Dave passes his 2C to Eve (left) and keeps JH; Eve, now the first 2C holder from the
    # dealer Beth's left, leads it, and Fay plays the other
    text = edit(text_of(CANCELLATION_HEARTS_GAME), "pass Dave: JH QH KH", "pass Dave: 2C QH KH")
    text = edit(text, HAND_1_TRICK_1, "trick 1: Eve 2C, Fay 2C, Gus 10C, Hana 7C, Al 8C, Beth JC, "
                "Charlie 9C, Dave 6C -> Beth")
    report = check(upto(text, "trick 1: Eve 2C"))
    assert kinds(report) == [(codes.BAD_PASS, 18)]
    assert "2C, which may not be passed" in report.diagnostics[0].message


def test_cancellation_hearts_a_pass_reports_the_card_kept_from_passing_before_the_card_not_held():
    # Dave was dealt no AS: of the two faults of his pass, a limit of one keeps the 2C's (R3.1)
    text = edit(text_of(CANCELLATION_HEARTS_GAME), "pass Dave: JH QH KH", "pass Dave: AS 2C JH")
    report = judge_bytes(upto(text, "pass Dave").encode("utf-8"), "game.log",
                         base_dir=RULESETS, max_diagnostics=1)
    assert kinds(report) == [(codes.BAD_PASS, 18)]
    assert report.diagnostics[0].message == ("Dave passed 2C, which may not be passed under "
                                             "cancellation-hearts")


def test_cancellation_hearts_both_2c_dealt_to_one_player_is_reported():
    text = edit(text_of(CANCELLATION_HEARTS_GAME),
                "deal Dave: 3S 9S 9H 9H JH QH KH 8D 9D 2C 6C 10C AC",
                "deal Dave: 3S 9S 9H 9H JH QH KH 8D 9D 2C 2C 10C AC")
    text = edit(text, "deal Fay: 4S 5S QS QS AS AS 3H KH 4D 9D KD 2C KC",
                "deal Fay: 4S 5S QS QS AS AS 3H KH 4D 9D KD 6C KC")
    text = edit(text, HAND_1_TRICK_1, HAND_1_TRICK_1.replace("Fay 2C", "Fay 6C"))
    report = check(upto(text, "trick 1: Dave 2C"))
    assert kinds(report) == [(codes.BAD_DEAL, 10)]
    assert "both 2C" in report.diagnostics[0].message


def test_cancellation_hearts_the_second_2c_holder_must_play_it_to_trick_1():
    text = edit(text_of(CANCELLATION_HEARTS_GAME), HAND_1_TRICK_1,
                HAND_1_TRICK_1.replace("Fay 2C", "Fay KC").replace("-> Beth", "-> Fay"))
    report = check(upto(text, "trick 1: Dave 2C"))
    assert kinds(report) == [(codes.ILLEGAL_PLAY, 23)]
    assert report.diagnostics[0].player == "Fay"


# -- cancellation-oregonian-hearts ----------------------------------------------------------
def test_oregonian_game_checks_clean_and_the_highest_total_wins():
    report = check(text_of(OREGONIAN_GAME))
    assert report.ruleset == "cancellation-oregonian-hearts" and kinds(report) == []
    # totals start at 100; hand 1: everybody took points, so the pool of 52 carries;
    # hand 2: Charlie and Dave took none and share 52 + 52
    assert report.hands[0].totals == dict(Al=99, Beth=90, Charlie=83, Dave=79, Eve=99, Fay=98)
    assert report.hands[1].points == dict(Al=-30, Beth=-5, Charlie=52, Dave=52, Eve=-2, Fay=-15)
    assert len(report.hands) == 6 and report.winners == ["Dave"]


def test_oregonian_a_share_of_the_pool_left_out_is_reported():
    text = edit(text_of(OREGONIAN_GAME), "score: Al -3, Beth -21, Charlie -1, Dave 52,",
                "score: Al -3, Beth -21, Charlie -1, Dave 0,")
    text = edit(text, "Dave 183,", "Dave 131,")
    report = check(upto(text, "total: Al 66"))
    assert kinds(report) == [(codes.SCORE_MISMATCH, 98)]


def test_oregonian_a_winner_read_from_the_first_led_suit_is_reported():
    # spades were led, Al's QH (void in spades) made hearts the lead suit: Beth's AH wins
    text = edit(text_of(OREGONIAN_GAME),
                "trick 2: Dave 2S, Eve 3S, Fay 3S, Al QH, Beth AH, Charlie 7H -> Beth",
                "trick 2: Dave 2S, Eve 3S, Fay 3S, Al QH, Beth AH, Charlie 7H -> Dave")
    report = check(upto(text, "trick 2: Dave 2S"))
    assert kinds(report) == [(codes.WRONG_WINNER, 14)]


def test_oregonian_not_following_the_switched_lead_suit_is_a_revoke():
    # Charlie still holds 2H 2H 7H when hearts became the lead suit; JS follows only the led
    # suit. As written, the JS makes spades the lead suit again and wins (the 3S cancelled)
    text = edit(text_of(OREGONIAN_GAME), "Al QH, Beth AH, Charlie 7H -> Beth",
                "Al QH, Beth AH, Charlie JS -> Charlie")
    report = check(upto(text, "trick 2: Dave 2S"))
    assert kinds(report) == [(codes.REVOKE, 14)]
    assert "to a heart lead" in report.diagnostics[0].message


def test_oregonian_a_winner_claimed_by_the_lowest_total_is_reported():
    text = edit(text_of(OREGONIAN_GAME), "winner: Dave", "winner: Fay")
    report = check(text)
    assert kinds(report) == [(codes.GAME_END, 202)]
    assert "highest total" in report.diagnostics[0].message


def test_oregonian_a_game_claimed_over_before_its_sixth_hand_is_reported():
    text = text_of(OREGONIAN_GAME)
    head = text.split("\nhand 6 ")[0] + "\nwinner: Dave\n"
    report = check(head)
    assert [d.kind for d in report.diagnostics] == [codes.GAME_END]
    assert "5 hands of 6" in report.diagnostics[0].message
