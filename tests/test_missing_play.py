"""A play left out of a trick line is one slip: one diagnostic, the trick that has no card from
that player, and nothing that follows from it (the player's card still seemingly held, the
trick's winner and points, who leads next, the plays after the gap) is reported as a fault.
Expected verdicts written by hand from examples/logs/clean-6-players.log, hand 1."""

from __future__ import annotations

from pathlib import Path

from referee.judge.walk import judge_text

CLEAN = (Path(__file__).resolve().parents[1] / "examples" / "logs" /
         "clean-6-players.log").read_text("utf-8")


def _edited(*edits: tuple[int, str, str]) -> str:
    """The clean log with ``old`` made ``new`` on each (line number, old, new)."""
    lines = CLEAN.split("\n")
    for number, old, new in edits:
        assert old in lines[number - 1], (number, lines[number - 1])
        lines[number - 1] = lines[number - 1].replace(old, new, 1)
    return "\n".join(lines)


def _said(text: str) -> list[tuple]:
    return [(d.kind, d.line, d.column, str(d.message)) for d in judge_text(text).diagnostics]


def test_the_clean_log_is_clean():
    assert _said(CLEAN) == []


def test_a_card_left_out_in_the_middle_of_a_trick_is_the_one_fault():
    # Fay's QH won trick 10 (hearts): without it Charlie's 10H would win, yet Fay leads
    # trick 11 as the claim says; her QH seems held to the end, and her score includes it
    text = _edited((29, "Fay QH, ", ""))
    assert _said(text) == [("out-of-turn", 29, 1, "trick 10 has no card from Fay")]


def test_a_leader_s_card_left_out_is_the_one_fault():
    # Dave led 9D to trick 13; without it Eve's 8H reads as the lead, and Fay's 5D, Al's KD
    # and Beth's QD as discards to a heart lead by players who hold hearts
    text = _edited((32, "Dave 9D, ", ""))
    assert _said(text) == [("out-of-turn", 32, 1, "trick 13 has no card from Dave")]


def test_the_card_left_out_of_the_last_trick_of_a_hand():
    text = _edited((36, ", Al 2H", ""))
    assert _said(text) == [("out-of-turn", 36, 1, "trick 17 has no card from Al")]


def test_two_plays_swapped_are_still_out_of_turn():
    text = _edited((31, "Eve 9H, Fay 7S", "Fay 7S, Eve 9H"))
    assert _said(text) == [("out-of-turn", 31, 32, "Fay plays where Eve is next in seating "
                                                   "order")]


def test_a_later_revoke_by_that_player_is_reported_when_a_later_play_proves_it():
    # Fay's QH left out of trick 10; then in trick 12 (spades led) she plays KH, the heart she
    # really played to trick 15, and 7S in trick 15 instead: she held the 7S she plays there
    text = _edited((29, "Fay QH, ", ""), (31, "Fay 7S", "Fay KH"), (34, "Fay KH", "Fay 7S"))
    assert _said(text) == [
        ("out-of-turn", 29, 1, "trick 10 has no card from Fay"),
        ("revoke", 31, 44, "Fay played KH to a spade lead while holding 7S, which Fay played "
                           "in trick 15 (line 34)")]


def test_a_later_revoke_the_left_out_card_may_explain_is_not_reported():
    # Fay led 2C, her last club, to trick 11; left out, the record still gives it to her when
    # she plays KH to Al's club lead in trick 15: that 2C may be (and is) the one she led
    text = _edited((30, "Fay 2C, ", ""))
    assert _said(text) == [("out-of-turn", 30, 1, "trick 11 has no card from Fay")]


def test_the_hand_s_scores_are_noted_as_not_checked():
    text = _edited((29, "Fay QH, ", ""))
    notes = [str(note) for note in judge_text(text).unchecked]
    assert any(note.startswith("hand 1: trick 10 is recorded without every player's card")
               for note in notes), notes


def test_a_trick_s_last_card_left_out_under_a_lead_suit_switch():
    # the written plays are all in seating order: the card left out is the trick's last, so
    # the switched lead suit is known for each of them (this was a StopIteration)
    from referee.run.single import check_text as check_with
    from referee.rules.ruleset import load_ruleset, with_options

    switch = with_options(load_ruleset("cancellation"), lead_suit_switch=True)
    text = ('[Players "Al Beth Charlie Dave Eve Fay"]\n'
            "hand 1 dealer Fay\n"
            "trick 1: Al 3C, Beth 2C, Charlie KC, Dave QC, Eve JC\n"
            "trick 2: Charlie 4D, Dave 5D, Eve 6D, Fay 7D, Al 8D, Beth 9D\n")
    for written in (text, text.replace("trick 1: Al 3C, Beth 2C, Charlie KC, Dave QC, Eve JC",
                                       "trick 1 Al: 3C 2C KC QC JC")):
        report = check_with(written, ruleset=switch)
        assert [(d.kind, d.line, str(d.message)) for d in report.diagnostics] == [
            ("out-of-turn", 3, "trick 1 has no card from Fay")]
