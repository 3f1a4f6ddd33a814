"""One fault, one diagnostic, no false accusation: a clean log with one fault injected.

Each case takes a clean example log, rewrites one or two of its lines (the original text is
checked first, so a change to the example shows here), and asserts that the report holds
exactly one diagnostic, of the expected kind, on the expected line and column.  The
expected values are worked out by hand from the log (the comments say how).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.run.single import check_text

LOGS = Path(__file__).resolve().parent.parent / "examples" / "logs"
SIX = "clean-6-players.log"  # hand 1: lines 6-38, Eve deals, pass left, kitty 2H 7D

# hand 1 of clean-6-players, as written (the lines a case rewrites)
TRICK_1 = "trick 1: Fay 2S, Al 3S, Beth 6S, Charlie 3S, Dave 4S, Eve 2S -> Beth"
TRICK_2 = "trick 2: Beth 2C, Charlie 3C, Dave 7C, Eve 5C, Fay 6C, Al 3C -> Dave"
TRICK_4 = "trick 4: Dave 7D, Eve 2D, Fay 6D, Al 8D, Beth 10D, Charlie QD -> Charlie"
TRICK_6 = "trick 6: Eve 9D, Fay 6D, Al 8D, Beth JD, Charlie JH, Dave 10D -> Beth"
DEAL_BETH = "deal Beth: 6S 9S JS KS KS 10H JH 4D 10D JD QD AD 2C 4C 4C 10C AC"
SCORE_1 = "score: Al 4, Beth 5, Charlie 4, Dave 7, Eve 26, Fay 6"
TOTAL_1 = "total: Al 4, Beth 5, Charlie 4, Dave 7, Eve 26, Fay 6"


def injected(name: str, edits: dict[int, tuple[str, str]], *, upto: int | None = None) -> str:
    """The log with line N's text ``old`` replaced by ``new`` (``upto``: only its first lines)."""
    rows = (LOGS / name).read_text("utf-8").split("\n")
    for line, (old, new) in edits.items():
        assert rows[line - 1] == old, (line, rows[line - 1])
        rows[line - 1] = new
    return "\n".join(rows[:upto] if upto else rows) + "\n"


def only(text: str):
    report = check_text(text, "t.log")
    found = [(d.kind, d.line, d.column, d.message) for d in report.diagnostics]
    assert len(found) == 1, found
    return report, report.diagnostics[0]


CASES = {
    # -- unreadable lines: one syntax diagnostic, nothing after it accused ----------------
    # trick 6's line is unreadable (";"): the trick keeps its number, tricks 7-17 are judged
    # on holdings that lost one unknown card each, and nobody is accused for it
    "unreadable trick": (SIX, {25: (TRICK_6, TRICK_6.replace("JH,", "JH;"))},
                         ("syntax", 25, None)),
    "misspelt trick": (SIX, {25: (TRICK_6, TRICK_6.replace("trick", "trik"))},
                       ("syntax", 25, None)),
    # Beth's deal line has "10X": her holding is inferred from her plays
    "unreadable deal": (SIX, {8: (DEAL_BETH, DEAL_BETH.replace("10C", "10X"))},
                        ("syntax", 8, None)),
    "unreadable pass": (SIX, {15: ("pass Beth: 10H JH AC", "pass Beth: 10H JH AX")},
                        ("syntax", 15, None)),
    # the kitty is then the two cards the six deals leave out
    "unreadable kitty": (SIX, {13: ("kitty: 2H 7D", "kitty: 2H 7Q")}, ("syntax", 13, None)),
    "unreadable score": (SIX, {37: (SCORE_1, SCORE_1.replace("Charlie 4", "Charlie four"))},
                         ("syntax", 37, None)),
    "unreadable total": (SIX, {38: (TOTAL_1, TOTAL_1.replace("total:", "totl:"))},
                         ("syntax", 38, None)),
    "unreadable hand line": ("clean-standard.log", {6: ("hand 1 dealer Dave pass left",
                                                        "hnad 1 dealer Dave pass left")},
                             ("syntax", 6, None)),
    # -- a fault named once, not its consequences ------------------------------------------
    # hand 1 passes left under cancellation; the cards move left, so every play stands
    "wrong pass header": (SIX, {6: ("hand 1 dealer Eve pass left", "hand 1 dealer Eve pass right")},
                          ("bad-pass", 6, 24)),
    # the deals hold both 8D (Al twice): the kitty's 8D is the third; the kitty is then the
    # cards the deals leave out (2H 7D), and Al's later 8D plays stand
    "kitty third copy": (SIX, {13: ("kitty: 2H 7D", "kitty: 2H 8D")}, ("bad-deal", 13, 11)),
    # -- the kinds of play and setup fault -------------------------------------------------
    # Charlie's 3S (trick 1) and JH (trick 6) swapped: JH to a spade lead while holding 10S;
    # in trick 6 Charlie is void in diamonds, so the 3S is a discard; Beth wins both anyway
    "revoke": (SIX, {20: (TRICK_1, TRICK_1.replace("Charlie 3S", "Charlie JH")),
                     25: (TRICK_6, TRICK_6.replace("Charlie JH", "Charlie 3S"))},
               ("revoke", 20, 42)),
    # Al plays 7D, which he was not dealt; with the kitty's and Dave's it is a third copy;
    # the two 7Ds cancel and Charlie's QD still wins
    "card not held": (SIX, {23: (TRICK_4, TRICK_4.replace("Al 8D", "Al 7D"))},
                      ("card-not-held", 23, 38)),
    # the 2S and 3S pairs cancel: Beth's 6S wins, Dave's 4S is not cancelled
    "wrong winner": (SIX, {20: (TRICK_1, TRICK_1.replace("-> Beth", "-> Dave"))},
                     ("wrong-winner", 20, 62)),
    # Fay's 2S was cancelled by Eve's
    "miscounted cancellation": (SIX, {20: (TRICK_1, TRICK_1.replace("-> Beth", "-> Fay"))},
                                ("miscounted-cancellation", 20, 62)),
    # trick 2 written from Charlie on, in seating order: Beth won trick 1 and leads it
    "wrong leader": (SIX, {21: (TRICK_2, TRICK_2.replace("Beth 2C, ", "").replace(
        " -> Dave", ", Beth 2C -> Dave"))}, ("wrong-leader", 21, 10)),
    "out of turn": (SIX, {21: (TRICK_2, TRICK_2.replace("Charlie 3C, Dave 7C",
                                                        "Dave 7C, Charlie 3C"))},
                    ("out-of-turn", 21, 19)),
    # Fay deals hand 2 (Eve dealt hand 1); Al leads its first trick, left of Fay
    "wrong dealer": (SIX, {40: ("hand 2 dealer Fay pass right", "hand 2 dealer Al pass right")},
                     ("wrong-dealer", 40, 15)),
    # Al's deal one card short: his holding is inferred from his plays
    "bad deal": (SIX, {7: ("deal Al: 3S 5S 6S 3H 6H 7H 9H AH 3D 8D 8D KD 3C 7C 8C 9C KC",
                           "deal Al: 3S 5S 6S 3H 6H 7H 9H AH 3D 8D 8D KD 3C 7C 8C 9C")},
                 ("bad-deal", 7, 1)),
    # passing left, Charlie's pass goes to Dave; the cards still go to Dave
    "bad pass": (SIX, {16: ("pass Charlie: QS KH AH", "pass Charlie -> Eve: QS KH AH")},
                 ("bad-pass", 16, 17)),
    # "Bet" is read as Beth, who has no other entry on the line: her score and total are judged
    "misspelt name on a score line": (SIX, {37: (SCORE_1, SCORE_1.replace("Beth", "Bet"))},
                                      ("bad-setup", 37, 14)),
    "misspelt name on a total line": (SIX, {38: (TOTAL_1, TOTAL_1.replace("Beth", "Beht"))},
                                      ("bad-setup", 38, 14)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_one_fault_is_one_diagnostic(case):
    name, edits, expected = CASES[case]
    _, diag = only(injected(name, edits))
    kind, line, column = expected
    assert (diag.kind, diag.line) == (kind, line), diag.message
    if column is not None:  # a syntax diagnostic's column is the reader's to choose
        assert diag.column == column, diag.message


def test_a_misspelt_name_s_entry_is_still_judged_as_the_name_it_resembles():
    text = injected(SIX, {37: (SCORE_1, SCORE_1.replace("Beth 5", "Bet 6"))})
    found = [(d.kind, d.line, d.player) for d in check_text(text, "t.log").diagnostics]
    assert found == [("bad-setup", 37, None), ("score-mismatch", 37, "Beth")]


def test_a_name_like_none_seated_is_read_as_the_one_seat_without_an_entry():
    # the only name not seated, and the only seat with no entry: one fault, Zed's 5 is Beth's
    text = injected(SIX, {37: (SCORE_1, SCORE_1.replace("Beth", "Zed"))})
    found = [(d.kind, d.line, d.hint) for d in check_text(text, "t.log").diagnostics]
    assert found == [("bad-setup", 37, "did you mean 'Beth'?")]


def test_the_clean_logs_are_clean():
    for name in (SIX, "clean-standard.log"):
        assert check_text((LOGS / name).read_text("utf-8")).diagnostics == []


def test_an_illegal_lead_in_a_log_that_stops_after_it():
    # Beth leads a heart in trick 2 (hearts unbroken; she holds 9S, her 6S went in trick 1);
    # everyone follows with a heart they hold, and Fay's QH wins
    lead = "trick 2: Beth 9H, Charlie 6H, Dave 4H, Eve 3H, Fay QH, Al 2H -> Fay"
    _, diag = only(injected(SIX, {21: (TRICK_2, lead)}, upto=21))
    assert (diag.kind, diag.line, diag.column, diag.rule) == ("illegal-lead", 21, 15, "R4.3")
    assert diag.message == ("Beth led 9H in trick 2: hearts have not been broken; Beth held 9S "
                            "(dealt on line 8); the kitty's 2H, collected with trick 1, did not "
                            "break hearts: cards collected are not played")


def test_an_unreadable_trick_keeps_its_number_and_leaves_the_hand_unscored():
    report, _ = only(injected(SIX, {25: (TRICK_6, TRICK_6.replace("JH,", "JH;"))}))
    assert ("hand 1: trick 6 cannot be read, so the cards played there are unknown, later "
            "plays are judged only on what is known, and the hand's scores are not checked"
            in report.unchecked)
    first = report.hands[0]
    assert not first.complete
    # the scores are taken as written, the totals added up from them
    assert first.points == {"Al": 4, "Beth": 5, "Charlie": 4, "Dave": 7, "Eve": 26, "Fay": 6}
    assert report.hands[1].complete


def test_after_an_unreadable_trick_a_fault_the_record_proves_is_still_found():
    # trick 6 unreadable, and in trick 7 (clubs led) Al plays 6S where he played 8C: as
    # recorded he still holds 7C 8C KC (3C and 9C went in tricks 2 and 5), and trick 6 took
    # one card of his, so he held a club
    trick_7 = "trick 7: Beth 4C, Charlie 6C, Dave JC, Eve QH, Fay 9C, Al 8C -> Dave"
    text = injected(SIX, {25: (TRICK_6, TRICK_6.replace("JH,", "JH;")),
                          26: (trick_7, trick_7.replace("Al 8C", "Al 6S"))}, upto=26)
    report = check_text(text)
    found = [(d.kind, d.line, d.column) for d in report.diagnostics]
    assert [(kind, line) for kind, line, _ in found] == [("syntax", 25), ("revoke", 26)]
    assert found[1][2] == 59
    assert report.diagnostics[1].message == (
        "Al played 6S to a club lead while holding 7C 8C KC as recorded, of which the "
        "unreadable trick took at most 1")


def test_after_an_unreadable_trick_a_card_never_held_is_still_not_held():
    # Al was never dealt nor passed a 7D: an unknown trick only takes cards away
    trick_7 = "trick 7: Beth 4C, Charlie 6C, Dave JC, Eve QH, Fay 9C, Al 8C -> Dave"
    text = injected(SIX, {25: (TRICK_6, TRICK_6.replace("JH,", "JH;")),
                          26: (trick_7, trick_7.replace("Al 8C", "Al 7D"))}, upto=26)
    found = [(d.kind, d.line, d.column) for d in check_text(text).diagnostics]
    assert found[1:] == [("card-not-held", 26, 59)] and found[0][:2] == ("syntax", 25)


def test_after_an_unreadable_trick_whoever_leads_may():
    # Beth won trick 6 and led trick 7; with trick 6 unknown, a trick 7 led by anyone (here
    # Charlie, the order kept) is not a wrong lead
    trick_7 = "trick 7: Beth 4C, Charlie 6C, Dave JC, Eve QH, Fay 9C, Al 8C -> Dave"
    moved = "trick 7: Charlie 6C, Dave JC, Eve QH, Fay 9C, Al 8C, Beth 4C -> Dave"
    text = injected(SIX, {25: (TRICK_6, TRICK_6.replace("JH,", "JH;")), 26: (trick_7, moved)},
                    upto=26)
    assert [d.kind for d in check_text(text).diagnostics] == ["syntax"]


def test_a_score_line_that_cannot_be_read_leaves_its_total_unchecked_not_accused():
    # the total differs from the points taken (Al took 4), but the unreadable score line
    # may say 5: the total is noted as not checked, not reported
    report, diag = only(injected(SIX, {37: (SCORE_1, "scroe: Al 5"),
                                       38: (TOTAL_1, TOTAL_1.replace("Al 4", "Al 5"))},
                                 upto=38))
    assert (diag.kind, diag.line) == ("syntax", 37)
    assert ("hand 1: the total line is not checked: the score line it adds up (line 37) "
            "cannot be read") in report.unchecked


def test_a_total_line_that_cannot_be_read_leaves_the_next_total_unchecked():
    total_2 = "total: Al 4, Beth 48, Charlie 4, Dave 7, Eve 31, Fay 10"
    report, diag = only(injected(SIX, {38: (TOTAL_1, "totl: Al 5"),
                                       72: (total_2, total_2.replace("Al 4", "Al 5"))},
                                 upto=72))
    assert (diag.kind, diag.line) == ("syntax", 38)
    assert ("hand 2: the total line is not checked: the previous total line it adds up "
            "(line 38) cannot be read") in report.unchecked


def test_the_wrong_pass_header_names_the_direction_due():
    _, diag = only(injected(SIX, {6: ("hand 1 dealer Eve pass left",
                                      "hand 1 dealer Eve pass right")}))
    assert diag.message == ("hand 1 passes left under cancellation, not right; the cards are "
                            "taken to move left")


PASSES_1 = {  # hand 1's pass lines of clean-6-players.log, by line number
    14: "pass Al: 7H 9H AH", 15: "pass Beth: 10H JH AC", 16: "pass Charlie: QS KH AH",
    17: "pass Dave: 5H 8H QH", 18: "pass Eve: QS QH KH", 19: "pass Fay: 2H 8H KD",
}
RIGHT_OF = {"Al": "Fay", "Beth": "Al", "Charlie": "Beth", "Dave": "Charlie", "Eve": "Dave",
            "Fay": "Eve"}


def _passed_right(line: str) -> str:
    who = line.split()[1].rstrip(":")
    return line.replace(f"pass {who}:", f"pass {who} -> {RIGHT_OF[who]}:")


def test_pass_lines_that_follow_a_wrong_header_are_the_header_s_one_fault():
    # the header says right and every pass line names the seat to the right: one slip, the
    # header's; nobody is accused of passing to the wrong seat
    edits = {6: ("hand 1 dealer Eve pass left", "hand 1 dealer Eve pass right")}
    edits.update({n: (line, _passed_right(line)) for n, line in PASSES_1.items()})
    _, diag = only(injected(SIX, edits))
    assert (diag.kind, diag.line) == ("bad-pass", 6)


def test_a_pass_line_against_both_the_header_and_the_direction_due_is_its_own_fault():
    edits = {6: ("hand 1 dealer Eve pass left", "hand 1 dealer Eve pass right")}
    edits.update({n: (line, _passed_right(line)) for n, line in PASSES_1.items()})
    edits[15] = (PASSES_1[15], "pass Beth -> Dave: 10H JH AC")
    report = check_text(injected(SIX, edits), "t.log")
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == [
        ("bad-pass", 6, None), ("bad-pass", 15, "Beth")]
    assert report.diagnostics[1].message == (
        "in hand 1 Beth passes to Dave, but passing left goes to Charlie")


def test_a_card_dealt_beyond_the_decks_settles_none_of_its_deals():
    # Al's 3S written as 4S: Dave and Fay hold the two 4S, Fay's line is the third copy;
    # which of the three deals is wrong the record does not say, so Al's missing 3S, played
    # in trick 1, is not "not held", nor is his later heart to a spade lead a revoke
    deal = "deal Al: 3S 5S 6S 3H 6H 7H 9H AH 3D 8D 8D KD 3C 7C 8C 9C KC"
    _, diag = only(injected(SIX, {7: (deal, deal.replace("3S", "4S"))}))
    assert (diag.kind, diag.line, diag.column) == ("bad-deal", 12, 14)


@pytest.mark.parametrize("ruleset,players,seed", [("cancellation", 7, 1), ("cancellation", 11, 2),
                                                  ("standard", 4, 3)])
def test_any_unreadable_statement_of_a_generated_game_costs_one_diagnostic(ruleset, players,
                                                                            seed):
    import random

    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset

    rows = write(generate_game(load_ruleset(ruleset), players, seed=seed, hands=3)).split("\n")
    statements = [i for i, row in enumerate(rows) if row.split(" ", 1)[0].rstrip(":") in (
        "hand", "deal", "kitty", "pass", "trick", "score", "total")]
    rng = random.Random(seed)
    for index in rng.sample(statements, 12):
        broken = list(rows)
        broken[index] = rows[index].replace(",", ";", 1) if "," in rows[index] else (
            rows[index].replace(" ", "_", 1))  # "hand_2 dealer ...", "kitty:_2H 7D"
        found = [(d.kind, d.line) for d in check_text("\n".join(broken)).diagnostics]
        assert found == [("syntax", index + 1)], (broken[index], found)


def test_a_singular_player_tag_is_one_syntax_error_and_no_missing_seating():
    # the seating is on the unreadable line, so its syntax error is the one fault; the
    # missing [Players] tag that follows from it is a note, not a second violation
    report = check_text('[Player "Al Beth Charlie Dave Eve Fay"]\nhand 1 dealer Al\n')
    assert [(d.kind, d.line, d.column) for d in report.diagnostics] == [("syntax", 1, 2)]
    assert "did you mean: [Players" in report.diagnostics[0].hint
    assert any("no seating could be read" in note for note in report.unchecked)


def test_a_log_without_any_seating_is_still_a_setup_fault():
    report = check_text("hand 1 dealer Al\n")
    assert [(d.kind, d.line) for d in report.diagnostics] == [("bad-setup", 1)]


@pytest.mark.parametrize(("line", "old", "new", "column"), [
    # a kitty card that is a third copy (the decks hold two 4C: Beth's)
    (13, "kitty: 2H 7D", "kitty: 2H 4C", 11),
    # a card dealt beyond the decks (Dave and Fay hold the two 4S)
    (7, "deal Al: 3S 5S 6S 3H 6H 7H 9H AH 3D 8D 8D KD 3C 7C 8C 9C KC",
     "deal Al: 4S 5S 6S 3H 6H 7H 9H AH 3D 8D 8D KD 3C 7C 8C 9C KC", None),
])
def test_a_faulty_deal_is_one_fault_with_the_invariants_too(line, old, new, column):
    # the z3 laws read the deal as written, so their failures in that hand follow from the
    # one fault the check names: recorded in report.invariants, not reported again
    from referee.run.single import check_text as check_with

    report = check_with(injected(SIX, {line: (old, new)}), "t.log", invariants=True)
    assert [d.kind for d in report.diagnostics] == ["bad-deal"]
    if column is not None:
        assert (report.diagnostics[0].line, report.diagnostics[0].column) == (line, column)
    assert any(i["status"] == "violated" for i in report.invariants)
