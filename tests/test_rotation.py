"""A trick whose two readings fit, the written order and the order from the seat due to lead
(as when every card follows one suit): which one is the fault, the record's or a player's.

Every expected verdict is worked out by hand in the comment beside it.  The rule
(referee/judge/gaps.py, R10.8): read from its leader, the trick is the same one and its
claim holds, so when it is written from a column a scorer starts from (the first, the last
or the dealer's) it is one fault of the record, charged to no player; without a claim, from
another column, or when the next trick shows who led, the lead out of turn is charged."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.run.single import check_text

LOGS = Path(__file__).resolve().parents[1] / "examples" / "logs"
SIX = '[Players "Al Beth Charlie Dave Eve Fay"]\nhand 1 dealer Fay\n'
# Al, left of the dealer Fay, leads; Dave's KC wins, so Dave leads trick 2 (line 4)
TRICK_1 = "trick 1: Al 2C, Beth 3C, Charlie 5C, Dave KC, Eve 9C, Fay 4C -> Dave\n"


def found(report) -> list[tuple]:
    return [(d.kind, d.line, d.column, d.player) for d in report.diagnostics]


def rewritten(players: int, line: str, new: str) -> str:
    text = (LOGS / f"clean-{players}-players.log").read_text("utf-8")
    assert line in text
    return text.replace(line, new)


# Each case: a one-suit trick of a bundled clean log (its line number), written from another
# column; in every one the cancelled twins and the highest card are the same whoever led, so
# the winner is the claimed one both ways.
ONE_SUIT = {
    # dealer Eve; Beth won trick 1.  From the first column: the 3C pair cancels, Dave's 7C wins
    "6 players, first column": (6, 21, "Al",
        "trick 2: Beth 2C, Charlie 3C, Dave 7C, Eve 5C, Fay 6C, Al 3C -> Dave",
        "trick 2: Al 3C, Beth 2C, Charlie 3C, Dave 7C, Eve 5C, Fay 6C -> Dave"),
    # dealer Al (also the first column); Gus leads.  The 5D pair cancels, Eve's JD wins
    "7 players, dealer": (7, 23, "Al",
        "trick 2: Gus 5D, Al 4D, Beth 2D, Charlie 5D, Dave 3D, Eve JD, Fay 9D -> Eve",
        "trick 2: Al 4D, Beth 2D, Charlie 5D, Dave 3D, Eve JD, Fay 9D, Gus 5D -> Eve"),
    # Gus leads.  From the last column: the 7D and 6D pairs cancel, Eve's 8D wins
    "8 players, last column": (8, 24, "Hana",
        "trick 2: Gus 2D, Hana 3D, Al 5D, Beth 7D, Charlie 6D, Dave 7D, Eve 8D, Fay 6D -> Eve",
        "trick 2: Hana 3D, Al 5D, Beth 7D, Charlie 6D, Dave 7D, Eve 8D, Fay 6D, Gus 2D -> Eve"),
    # Hana leads.  From the last column: 8S, 7S, 6S and 3S cancel in pairs, Ivo's 5S wins
    "9 players, last column": (9, 28, "Ivo",
        "trick 3: Hana 3S, Ivo 5S, Al 8S, Beth 6S, Charlie 7S, Dave 3S, Eve 6S, Fay 7S, Gus 8S "
        "-> Ivo",
        "trick 3: Ivo 5S, Al 8S, Beth 6S, Charlie 7S, Dave 3S, Eve 6S, Fay 7S, Gus 8S, Hana 3S "
        "-> Ivo"),
    # dealer Ivo (not the last column, Jo is); Dave leads.  The 3C and 6C pairs cancel,
    # Charlie's QC wins
    "10 players, dealer": (10, 64, "Ivo",
        "trick 2: Dave 2C, Eve 3C, Fay 6C, Gus 6C, Hana 8C, Ivo 5C, Jo 4C, Al 3C, Beth 7C, "
        "Charlie QC -> Charlie",
        "trick 2: Ivo 5C, Jo 4C, Al 3C, Beth 7C, Charlie QC, Dave 2C, Eve 3C, Fay 6C, Gus 6C, "
        "Hana 8C -> Charlie"),
    # dealer Dave; Kim leads.  From the first column: the 6D, 10D and QD pairs cancel, Al's KD
    # wins
    "11 players, first column": (11, 31, "Al",
        "trick 2: Kim 3D, Al KD, Beth 6D, Charlie 10D, Dave QD, Eve 9D, Fay 6D, Gus JD, Hana 7D, "
        "Ivo QD, Jo 10D -> Al",
        "trick 2: Al KD, Beth 6D, Charlie 10D, Dave QD, Eve 9D, Fay 6D, Gus JD, Hana 7D, Ivo QD, "
        "Jo 10D, Kim 3D -> Al"),
}


@pytest.mark.parametrize("case", ONE_SUIT)
def test_a_one_suit_trick_from_a_pad_column_with_its_claim_is_the_records_fault(case):
    players, line, first, before, after = ONE_SUIT[case]
    report = check_text(rewritten(players, before, after))
    assert found(report) == [("out-of-turn", line, 10, None)]
    due = before.split(": ", 1)[1].split()[0]
    number = before.split()[1].rstrip(":")
    assert report.diagnostics[0].message == (
        f"trick {number} is written from {first}, in seating order, but {due} leads it: read "
        f"from {due}, it is the same trick and the claim holds, so it is taken as written out of "
        "order, not as a lead out of turn")
    assert report.diagnostics[0].rule == "R10.8"


@pytest.mark.parametrize("case", ONE_SUIT)
def test_without_a_claim_the_lead_out_of_turn_is_charged(case):
    # nothing the table wrote corroborates the other reading: the written order stands
    players, line, first, before, after = ONE_SUIT[case]
    after = after[:after.index(" -> ")]
    report = check_text(rewritten(players, before, after))
    assert found(report) == [("wrong-leader", line, 10, first)]
    assert "(unless the trick is only written from" in report.diagnostics[0].message


def test_a_one_suit_trick_from_a_middle_column_is_a_lead_out_of_turn():
    # 11 players, dealer Dave: Eve's column is no column a scorer starts from, so Eve, written
    # first, is taken to have led where Kim was due (the message says the other reading)
    players, line, _, before, _ = ONE_SUIT["11 players, first column"]
    after = ("trick 2: Eve 9D, Fay 6D, Gus JD, Hana 7D, Ivo QD, Jo 10D, Kim 3D, Al KD, Beth 6D, "
             "Charlie 10D, Dave QD -> Al")
    report = check_text(rewritten(players, before, after))
    assert found(report) == [("wrong-leader", line, 10, "Eve")]
    assert report.diagnostics[0].message == (
        "Eve led trick 2, but Kim won trick 1 and leads next (unless the trick is only written "
        "from Eve's column: read from Kim, it is the same trick)")


# -- logs without deals: only what the plays prove is judged ---------------------------------

MIXED = "trick 2: Al 7D, Beth 8D, Charlie 9D, Dave 3S, Eve 10D, Fay JD"


def test_a_claim_only_the_written_order_fits_keeps_the_lead_out_of_turn():
    # Dave is due.  As written, Al leads 7D, Dave discards 3S and Fay's JD wins, as claimed;
    # read from Dave, his 3S leads and wins.  Al led out of turn; Fay leads trick 3
    text = SIX + TRICK_1 + MIXED + " -> Fay\n" + \
        "trick 3: Fay 2S, Al 4S, Beth 5S, Charlie 6S, Dave 7S, Eve 8S -> Eve\n"
    report = check_text(text)
    assert found(report) == [("wrong-leader", 4, 10, "Al")]
    assert report.diagnostics[0].message == "Al led trick 2, but Dave won trick 1 and leads next"


def test_a_claim_only_the_order_from_the_leader_fits_is_the_records_fault():
    # the same cards claimed for Dave: read from Dave, his 3S leads and wins (nobody is seen
    # to hold a spade, so the diamonds are discards); as written, Fay would win.  One fault of
    # the record; Dave leads trick 3
    text = SIX + TRICK_1 + MIXED + " -> Dave\n" + \
        "trick 3: Dave 6C, Eve 7C, Fay 8C, Al 10C, Beth JC, Charlie QC -> Charlie\n"
    report = check_text(text)
    assert found(report) == [("out-of-turn", 4, 10, None)]
    assert report.diagnostics[0].message == (
        "trick 2 is written from Al, in seating order, but Dave leads it: read from Dave, every "
        "play is legal and the claim holds, so it is judged in that order")


SET_ASIDE = "trick 2: Al 5D, Beth 5D, Charlie 9D, Dave 9D, Eve KD, Fay KD -> none\n"


def test_a_lead_out_of_turn_the_next_trick_shows_is_charged():
    # Dave is due.  Every diamond cancels: the trick is set aside whoever led, and its leader
    # leads again (R4.6).  Al leads trick 3, as he does only if he led trick 2
    text = SIX + TRICK_1 + SET_ASIDE + \
        "trick 3: Al 2S, Beth 4S, Charlie 5S, Dave 6S, Eve 7S, Fay 8S -> Fay\n"
    assert found(check_text(text)) == [("wrong-leader", 4, 10, "Al")]


def test_a_set_aside_trick_the_next_lead_shows_was_led_by_its_leader():
    # the same trick, and Dave leads trick 3: Dave led trick 2, written from the first column
    text = SIX + TRICK_1 + SET_ASIDE + \
        "trick 3: Dave 2S, Eve 4S, Fay 5S, Al 6S, Beth 7S, Charlie 8S -> Charlie\n"
    assert found(check_text(text)) == [("out-of-turn", 4, 10, None)]
