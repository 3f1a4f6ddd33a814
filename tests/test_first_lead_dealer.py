"""Who dealt hand 1, and who leads its first trick, when one of them is written wrong or not
at all: one diagnostic, and no player accused of what only follows from it.  Expected verdicts
written by hand; tests/data/two-clubs-no-dealer.log is hand 1 of a generated 8-player game
under examples/rulesets/cancellation-hearts.toml (the first trick is led by the first holder
of the 2C from the dealer's left), its hand line without a dealer: Fay dealt, Hana led 2C."""

from __future__ import annotations

from pathlib import Path

from referee.run.single import check_text
from referee.rules.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
TWO_CLUBS = load_ruleset(str(ROOT / "examples" / "rulesets" / "cancellation-hearts.toml"))
NO_DEALER = (ROOT / "tests" / "data" / "two-clubs-no-dealer.log").read_text("utf-8")
CLEAN = (ROOT / "examples" / "logs" / "clean-6-players.log").read_text("utf-8")


def _said(text: str, **options) -> list[tuple]:
    return [(d.kind, d.line, str(d.message)) for d in check_text(text, **options).diagnostics]


def test_with_no_dealer_any_holder_of_the_lowest_club_may_lead_it():
    # the dealer was taken to be the first seat, Al, and Hana was accused: Beth holds a 2C too
    assert _said(NO_DEALER, ruleset=TWO_CLUBS) == []
    assert _said(NO_DEALER.replace("hand 1 pass left", "hand 1 dealer Fay pass left"),
                 ruleset=TWO_CLUBS) == []


def test_a_wrong_dealer_under_two_of_clubs_is_said_in_the_rule_s_own_words():
    text = NO_DEALER.replace("hand 1 pass left", "hand 1 dealer Al pass left")
    assert _said(text, ruleset=TWO_CLUBS) == [
        ("wrong-leader", 22, "Hana led trick 1, but the first trick is led by Beth, the first "
                             "holder of 2C from the left of the dealer Al")]


def test_hand_1_s_dealer_written_wrong_is_not_also_hand_2_s_fault():
    # Eve dealt hand 1 (Fay leads trick 1), Fay hand 2; hand 1's line says Dave: the first
    # lead disagrees, which is one fault, and Fay dealing hand 2 is not another
    text = CLEAN.replace("hand 1 dealer Eve", "hand 1 dealer Dave", 1)
    assert _said(text) == [("wrong-leader", 20, "Fay led trick 1, but the first trick is led "
                                                "by Eve, left of the dealer Dave")]
    # a later hand's dealer is still judged by the rotation from hand 2's
    later = text.replace("hand 3 dealer Al", "hand 3 dealer Beth", 1)
    assert ("wrong-dealer", 74, "Beth deals hand 3, but the deal moves to Al") in _said(later)
