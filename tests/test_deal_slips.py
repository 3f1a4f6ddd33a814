"""A slip in a deal line is one fault, and no player is accused of what only follows from it.
Expected verdicts written by hand from examples/logs/clean-6-players.log, hand 1 (deals on
lines 7 to 12: Al, Beth, Charlie, Dave, Eve, Fay; the kitty 2H 7D on line 13)."""

from __future__ import annotations

from pathlib import Path

from referee.judge.walk import judge_text

CLEAN = (Path(__file__).resolve().parents[1] / "examples" / "logs" /
         "clean-6-players.log").read_text("utf-8")


def _edited(number: int, old: str, new: str) -> str:
    lines = CLEAN.split("\n")
    assert old in lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old, new, 1)
    return "\n".join(lines)


def _said(text: str) -> list[tuple]:
    return [(d.kind, d.line, d.player, str(d.message)) for d in judge_text(text).diagnostics]


def test_a_card_too_many_in_a_deal_is_the_deal_s_size_alone():
    # 4S is then dealt three times (Dave and Fay hold the others): the size says why
    assert _said(_edited(7, "3S 5S", "3S 4S 5S")) == [
        ("bad-deal", 7, "Al", "Al was dealt 18 cards; with 6 players each gets 17")]


def test_a_third_copy_names_every_line_that_deals_it_and_no_player():
    # Al's 3S written 2S: Eve and Fay were dealt the two 2S; which deal is wrong is not known
    assert _said(_edited(7, "3S 5S", "2S 5S")) == [
        ("bad-deal", 12, None, "2S is dealt more often than the 2 decks hold (lines 7, 11, 12)")]


def test_a_third_copy_in_the_kitty_settles_none_of_the_deals_of_that_card():
    # Al's 3H written 2H: the kitty's 2H is the copy too many as written; trusting Al's deal
    # put the deals' leftover 3H in the kitty, and Al's play of 3H was "not held"
    said = _said(_edited(7, "3S 5S 6S 3H", "3S 5S 6S 2H"))
    assert said == [("bad-deal", 13, None,
                     "2H in the kitty is one copy more than the decks hold")]


def test_a_card_too_many_whose_copy_too_many_is_the_kitty_s_is_the_deal_s_size_alone():
    # Al dealt a 2H too (the kitty holds the second 2H, Fay the first)
    assert _said(_edited(7, "6S 3H", "6S 2H 3H")) == [
        ("bad-deal", 7, "Al", "Al was dealt 18 cards; with 6 players each gets 17")]


def test_a_kitty_with_two_copies_of_a_card_dealt_once_settles_none_of_its_deals():
    # the kitty's 7D written 2H: the decks' two 2H are Fay's and the kitty's other; which of
    # the three lines is wrong is not known, so Fay's deal settles nothing either (it did:
    # the copy too many was looked for only where the deals held every copy already)
    from referee.judge.holdings import gather
    from referee.judge.setup import group_hands, setup_table
    from referee.judge.table import Findings
    from referee.log.parser import parse_log

    text = _edited(13, "kitty: 2H 7D", "kitty: 2H 2H")
    assert _said(text) == [("bad-deal", 13, None,
                            "2H in the kitty is one copy more than the decks hold")]
    parsed = parse_log(text)
    table = setup_table(parsed.events, Findings(), None)
    first = group_hands(table, parsed.events)[0][0]
    know = gather(table, first, table.rules.pass_direction(1))
    assert know.known == [True, True, True, True, True, False]  # Fay's holding is inferred
