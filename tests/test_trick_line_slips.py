"""A slip in how a trick line is typed is one fault, said once, and the trick is judged as played.
Expected verdicts written by hand from examples/logs/clean-6-players.log (hand 2: trick 6 on line
59, trick 7 on line 60, ``trick 7: Eve 2S, Fay 3S, Al AD, Beth QS, Charlie 8S, Dave 6S -> Beth``,
trick 8 on line 61; Al sits first, Eve won trick 6 and leads trick 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.judge.walk import judge_text

CLEAN = (Path(__file__).resolve().parents[1] / "examples" / "logs" /
         "clean-6-players.log").read_text("utf-8")
LINES = CLEAN.split("\n")
TRICK_7 = LINES[59]  # line 60
TRICK_8 = LINES[60]  # line 61
CUT_OFF = "the record stops in hand 2 at trick 9, whose line cannot be read"


def _with(line_60: list[str]) -> list[str]:
    """The clean log with ``line_60`` written in place of line 60."""
    return LINES[:59] + line_60 + LINES[60:]


def _verdict(lines: list[str]) -> list[tuple]:
    report = judge_text("\n".join(lines))
    return [(d.kind, d.line, d.player) for d in report.diagnostics]


def _report(lines: list[str]):
    return judge_text("\n".join(lines))


def test_the_clean_log_is_clean():
    assert TRICK_7.startswith("trick 7: Eve 2S") and TRICK_8.startswith("trick 8: Beth JH")
    assert _verdict(LINES) == []


@pytest.mark.parametrize("written, first", [
    ("trick 7 Eve: AD QS 8S 6S 2S 3S", "Al"),  # the leader right, the cards from Al's column
    ("trick 7 Eve: 3S AD QS 8S 6S 2S", "Fay"),  # from the last column (Fay's, the dealer's)
    ("trick 7 Al: AD QS 8S 6S 2S 3S", "Al"),  # the whole trick from Al's column
    ("trick 7 Beth: 2S 3S AD QS 8S 6S", "Beth"),  # in play order, the winner written as leader
])
def test_a_compact_trick_written_from_another_seat_is_one_fault_of_the_record(written, first):
    report = _report(_with([written]))
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == \
        [("out-of-turn", 60, None)]
    assert str(report.diagnostics[0].message) == (
        f"trick 7 is written from {first}, in seating order, but Eve leads it: read from Eve, "
        "every play is legal and the claim holds, so it is judged in that order")
    assert report.unchecked == []  # the trick judged as played: the hand's scores too


def test_a_compact_trick_with_a_real_fault_is_not_read_another_way():
    # Eve's AD for 2S: no reading of the header makes every play legal
    assert ("card-not-held", 60, "Eve") in _verdict(_with(["trick 7 Eve: AD 3S AD QS 8S 6S"]))


def test_a_trick_written_on_two_lines_is_one_fault_and_judged_whole():
    lines = _with(["trick 7: Eve 2S, Fay 3S",
                   "trick 7: Al AD, Beth QS, Charlie 8S, Dave 6S -> Beth"])
    report = _report(lines)
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == [("bad-setup", 61, None)]
    assert str(report.diagnostics[0].message) == \
        "trick 7 is written on two lines (60 and 61); it is taken as one trick"
    assert report.unchecked == []


def test_the_rest_of_a_trick_on_a_line_without_its_header_is_one_syntax_fault():
    lines = _with(["trick 7: Eve 2S, Fay 3S", "Al AD, Beth QS, Charlie 8S, Dave 6S -> Beth"])
    assert _verdict(lines) == [("syntax", 61, None)]


@pytest.mark.parametrize("word", ["Stich", "presa", "pli"])
def test_a_trick_line_whose_first_word_is_not_read_keeps_its_place(word):
    report = _report(_with([TRICK_7.replace("trick", word, 1)]))
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == [("syntax", 60, None)]
    assert any(note.startswith("hand 2: trick 7 cannot be read") for note in report.unchecked)


def test_a_short_trick_before_an_unreadable_trick_line_is_still_short():
    # line 61 reads as trick 8: Dave's card to trick 7 is not there
    lines = _with([TRICK_7.replace(", Dave 6S", "")])
    lines[60] = lines[60].replace("Al 10D", "Al 1OD")
    assert _verdict(lines) == [("out-of-turn", 60, None), ("syntax", 61, None)]


def test_two_tricks_run_together_on_an_unreadable_line_are_its_one_fault():
    lines = LINES[:59] + [TRICK_7 + " " + TRICK_8] + LINES[61:]
    report = _report(lines)
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == [("syntax", 60, None)]
    assert any(note.startswith("hand 2: tricks 7, 8 cannot be read") for note in report.unchecked)


@pytest.mark.parametrize("seated", ["Eve", "Charlie", "Dave"])
def test_a_name_like_no_seated_one_in_the_seat_due_is_that_seat(seated):
    report = _report(_with([TRICK_7.replace(f"{seated} ", "Zed ", 1)]))
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == [("bad-setup", 60, None)]
    assert str(report.diagnostics[0].hint) == f"did you mean '{seated}'?"
    assert report.unchecked == []


def test_two_names_like_no_seated_one_leave_the_trick_short():
    verdict = _verdict(_with([TRICK_7.replace("Dave 6S", "Zed 6S, Zed 7S")]))
    assert ("out-of-turn", 60, None) in verdict  # its card from Dave is not known


def test_a_record_cut_off_inside_a_trick_line_stops_in_that_trick():
    lines = LINES[:61] + ["trick 9: Eve AS, Fay 10S, Al 5"]
    report = _report(lines)
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == [("syntax", 62, None)]
    assert report.unchecked[-1] == CUT_OFF


@pytest.mark.parametrize("name, line", [("no-claims.log", 10), ("no-claims.log", 8),
                                        ("play-only.log", 14)])
def test_a_trick_written_twice_without_deals_is_counted_once_in_the_holdings_too(name, line):
    # the repeat's cards are not a second copy in the holdings the plays show: nobody is said
    # to hold a card they played in it when they later discard
    rows = (Path(__file__).resolve().parents[1] / "examples" / "logs" / name).read_text(
        "utf-8").split("\n")
    assert rows[line - 1].startswith("trick ")
    rows.insert(line, rows[line - 1])
    assert _verdict(rows) == [("bad-setup", line + 1, None)]


def test_a_trick_on_two_lines_and_the_last_two_lines_in_each_others_place_are_two_faults():
    # trick 7 on lines 60 and 61; trick 17 written on line 70, before trick 16 (line 71)
    lines = _with(["trick 7: Eve 2S, Fay 3S",
                   "trick 7: Al AD, Beth QS, Charlie 8S, Dave 6S -> Beth"])
    assert lines[69].startswith("trick 16:") and lines[70].startswith("trick 17:")
    lines[69], lines[70] = lines[70], lines[69]
    report = _report(lines)
    assert [(d.kind, d.line) for d in report.diagnostics] == [("bad-setup", 61),
                                                              ("bad-setup", 70)]
    assert str(report.diagnostics[1].message) == \
        "trick 17 is written before trick 16; they are taken in their numbered order"
    assert report.unchecked == []
