"""Slips a tester types into a log's setup and grouping are one fault each, read the way that
explains the record with the fewest faults.  Expected verdicts written by hand from
examples/logs/clean-6-players.log (C6: tags on lines 1-4, hand 1 on line 6 dealt by Eve, deals
on lines 7-12 and passes on lines 14-19 in the order Al, Beth, Charlie, Dave, Eve, Fay, hand 2
on line 40; 379 lines, 11 hands, won by Dave) and examples/logs/scoresheet-game.log (SG: the
Players tag on line 4, score and total lines only; 29 lines, won by Charlie)."""

from __future__ import annotations

from pathlib import Path

from referee.judge.walk import judge_parsed, judge_text
from referee.log.parser import parse_text

LOGS = Path(__file__).resolve().parents[1] / "examples" / "logs"
C6 = (LOGS / "clean-6-players.log").read_text("utf-8")
SG = (LOGS / "scoresheet-game.log").read_text("utf-8")


def _edited(text: str, number: int, old: str, new: str) -> str:
    lines = text.split("\n")
    assert old in lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(old, new, 1)
    return "\n".join(lines)


def _verdict(text: str) -> tuple[list[tuple], list[str]]:
    """The (kind, line, player) of each diagnostic and the winners, the same whether the log is
    read a block at a time or parsed whole."""
    streamed, parsed = judge_text(text), judge_parsed(parse_text(text), "<string>")
    said = [(d.kind, d.line, d.player) for d in streamed.diagnostics]
    assert said == [(d.kind, d.line, d.player) for d in parsed.diagnostics]
    assert streamed.winners == parsed.winners and streamed.players == parsed.players
    return said, streamed.winners


def _messages(text: str) -> list[str]:
    return [str(d.message) for d in judge_text(text).diagnostics]


def test_the_bundled_logs_are_clean():
    assert _verdict(C6) == ([], ["Dave"])
    assert _verdict(SG) == ([], ["Charlie"])


# 1. the Players tag spelt otherwise than every line
def test_a_name_misspelt_in_the_players_tag_is_one_fault_at_the_tag():
    log = _edited(C6, 3, "Charlie", "Charly")  # was 263 diagnostics, Charlie's deals dropped
    assert _verdict(log) == ([("bad-setup", 3, None)], ["Dave"])
    assert _messages(log) == ["the [Players] tag seats 'Charly', but the lines name 'Charlie' "
                              "instead; 'Charlie' is read as that seat"]
    assert judge_text(log).players == ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]


def test_a_name_misspelt_in_the_players_tag_of_a_sheet_is_one_fault_at_the_tag():
    log = _edited(SG, 4, "Charlie", "Charly")  # was 20 diagnostics
    assert _verdict(log) == ([("bad-setup", 4, None)], ["Charlie"])


def test_a_name_misspelt_on_one_line_is_still_that_line_s_fault():
    # the tag's name is written on the other lines: the line is the slip
    log = _edited(C6, 9, "deal Charlie:", "deal Charly:")
    assert _verdict(log) == ([("bad-setup", 9, None)], ["Dave"])


# 2. a wrong name on a pass or deal line
def test_a_pass_line_with_the_next_player_s_name_is_the_missing_player_s():
    log = _edited(C6, 14, "pass Al:", "pass Beth:")  # was 3 bad-pass and a second pass, Beth's
    assert _verdict(log) == ([("bad-pass", 14, None)], ["Dave"])
    assert _messages(log) == ["Beth is written where Al is due: Al has no `pass` line in hand 1, "
                              "and Beth has one on line 15; this line is read as Al's"]


def test_the_later_of_two_pass_lines_may_be_the_slip():
    assert _verdict(_edited(C6, 15, "pass Beth:", "pass Al:")) == (
        [("bad-pass", 15, None)], ["Dave"])
    assert _verdict(_edited(C6, 19, "pass Fay:", "pass Al:")) == (
        [("bad-pass", 19, None)], ["Dave"])


def test_a_deal_line_with_the_next_player_s_name_is_the_missing_player_s():
    log = _edited(C6, 7, "deal Al:", "deal Beth:")  # was a bad-deal on line 8 and 3 bad-pass
    assert _verdict(log) == ([("bad-deal", 7, None)], ["Dave"])


def test_a_misnamed_pass_whose_cards_do_not_fit_is_not_used_and_accuses_nobody():
    # Beth's pass written twice, the first where Al's is due: not Al's cards
    log = _edited(C6, 14, "pass Al: 7H 9H AH", "pass Beth: 10H JH AC")
    assert _verdict(log) == ([("bad-pass", 14, None)], ["Dave"])
    assert _messages(log)[0].endswith("this line is not used")


def test_a_pass_line_written_twice_is_still_the_player_s_second_pass():
    lines = C6.split("\n")
    lines.insert(15, lines[14])  # Beth's pass again, on line 16
    assert _verdict("\n".join(lines)) == ([("bad-pass", 16, "Beth")], ["Dave"])


# 3. the same game pasted twice
def test_a_game_pasted_twice_is_one_fault_and_its_copy_is_not_judged():
    said, winners = _verdict(C6 + C6)  # was 33 violations
    assert (said, winners) == ([("bad-setup", 382, None)], ["Dave"])
    assert len(judge_text(C6 + C6).hands) == 11


def test_a_sheet_pasted_twice_is_one_fault():
    assert _verdict(SG + SG) == ([("bad-setup", 30, None)], ["Charlie"])


def test_a_second_tag_after_play_began_is_still_reported_where_the_game_goes_on():
    log = _edited(C6, 40, "hand 2", '[Target "150"]\nhand 2')
    assert _verdict(log) == ([("bad-setup", 40, None)], ["Dave"])
    assert _messages(log) == ["a second [Target] tag (the first is on line 4); the first counts"]


# 4. a hand number typed wrong
def test_a_double_tap_on_a_hand_number_is_one_fault():
    log = _edited(C6, 40, "hand 2", "hand 22")  # was 10 bad-setup
    assert _verdict(log) == ([("bad-setup", 40, None)], ["Dave"])


def test_hand_numbers_that_skip_go_on_from_the_written_one():
    lines = C6.split("\n")
    lines = [f"hand {int(line.split()[1]) + 2} " + line.split(" ", 2)[2]
             if line.startswith("hand ") and line.split()[1] != "1" else line for line in lines]
    assert _verdict("\n".join(lines)) == ([("bad-setup", 40, None)], ["Dave"])


# 5. lines written out of their place
def test_a_block_of_deal_lines_written_after_the_tricks_is_one_fault():
    lines = C6.split("\n")
    block = lines[40:46]  # hand 2's deals (lines 41-46), written after its trick 5 (line 58)
    rest = lines[:40] + lines[46:]
    at = rest.index(lines[57]) + 1
    log = "\n".join(rest[:at] + block + rest[at:])  # was 6 bad-setup, one a line
    assert _verdict(log) == ([("bad-setup", 53, None)], ["Dave"])
    assert _messages(log) == ["a deal line after a trick line of hand 2"]



def test_a_pass_count_of_many_digits_is_still_judged_as_seats_travelled():
    # 1000000000 left is 4 left at six seats, where hand 2 passes right (5 left)
    found, winners = _verdict(_edited(C6, 40, "pass right", "pass 1000000000 left"))
    assert found == [("bad-pass", 40, None)] and winners == ["Dave"]
    found, _ = _verdict(_edited(C6, 40, "pass right", "pass 0000000005 left"))
    assert found == []


def test_a_dealer_slip_in_hand_1_under_a_two_of_clubs_lead_is_one_wrong_dealer():
    # the first lead (the 2C) cannot tell who dealt hand 1; hand 2's written dealer, where the
    # rotation from the slip says Beth, is the one fault, and the table's own rotation goes on
    text = (LOGS / "clean-standard.log").read_text("utf-8")
    found, winners = _verdict(_edited(text, 6, "dealer Dave", "dealer Al"))
    assert found == [("wrong-dealer", 31, "Al")] and winners == ["Dave"]


def _doubled(text: str, number: int) -> str:
    lines = text.split("\n")
    return "\n".join(lines[:number] + [lines[number - 1]] + lines[number:])


def test_a_sheet_s_total_or_score_line_written_twice_is_one_fault_not_a_hand():
    # SG without hand lines: line 9 is hand 2's total line, line 8 its score line, line 25 the
    # last total line
    assert _verdict(_doubled(SG, 9)) == ([("bad-setup", 10, None)], ["Charlie"])
    assert _verdict(_doubled(SG, 8)) == ([("bad-setup", 9, None)], ["Charlie"])
    assert _verdict(_doubled(SG, 25)) == ([("bad-setup", 26, None)], ["Charlie"])


def test_score_lines_alike_with_no_total_lines_are_hands_alike():
    lines = ['[Players "Al Beth Charlie Dave Eve Fay"]'] + [
        "score: Al 10, Beth 14, Charlie 0, Dave 5, Eve 13, Fay 10"] * 3
    report = judge_text("\n".join(lines) + "\n")
    assert len(report.hands) == 3 and report.diagnostics == []


def test_a_dealer_slip_follows_on_by_the_ruleset_s_own_rotation():
    # the deal moves right: hand 2's written dealer is the one fault, and hand 3's written dealer
    # follows on from it to the right; a dealer one seat to the left of the slip is a fault, and
    # hand 4's dealer, the one due, is none
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset, with_options

    rules = with_options(load_ruleset("standard"), dealer_moves="right")
    text = write(generate_game(rules, 4, seed=3, strategy="simple", hands=4))
    assert judge_text(text, ruleset=rules).diagnostics == []
    slip = text.replace("hand 2 dealer Al", "hand 2 dealer Dave")
    follows = slip.replace("hand 3 dealer Dave", "hand 3 dealer Charlie").replace(
        "hand 4 dealer Charlie", "hand 4 dealer Beth")
    said = [(d.kind, d.line, d.player) for d in judge_text(follows, ruleset=rules).diagnostics]
    assert said == [("wrong-dealer", 31, "Dave")]
    left = slip.replace("hand 3 dealer Dave", "hand 3 dealer Al")
    said = [(d.kind, d.line, d.player) for d in judge_text(left, ruleset=rules).diagnostics]
    assert said == [("wrong-dealer", 31, "Dave"), ("wrong-dealer", 56, "Al")]
