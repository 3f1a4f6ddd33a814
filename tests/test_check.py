"""Each diagnostic kind on a small hand-written log: position, wording and rule clause."""

from __future__ import annotations

from pathlib import Path

from referee.run.single import check_text

SIX = '[Players "Al Beth Charlie Dave Eve Fay"]\nhand 1 dealer Fay\n'
CLUBS = "trick 1: Al 2C, Beth 3C, Charlie 5C, Dave KC, Eve 9C, Fay 4C"
# Al's and Beth's deals and passes (left in hand 1): Beth's holding is known
PASSES = "pass Al: 2D 4D 5D\npass Beth: 4H 5H 6H\n"
DEALT = (SIX + "deal Al: 2C 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS 2D 3D 4D 5D 6D\n"
         + "deal Beth: 9H 3C 4H 5H 6H 7H 8H 10H JH KH AH 7D 8D 9D 10D JD QD\n" + PASSES)


def only(text: str):
    report = check_text(text, "t.log")
    assert len(report.diagnostics) == 1, [(d.kind, d.message) for d in report.diagnostics]
    return report.diagnostics[0]


def test_revoke_proven_by_a_later_play_cites_both_lines():
    diag = only(SIX + "trick 1: Al 2C, Beth 9H, Charlie 5C, Dave KC, Eve 9C, Fay 3C -> Dave\n"
                "trick 2: Dave 4D, Eve 5D, Fay 6D, Al 7D, Beth 3C, Charlie 8D -> Charlie\n")
    assert (diag.kind, diag.code, diag.rule) == ("revoke", "CH201", "R5.2")
    assert (diag.line, diag.column, diag.end_column) == (3, 22, 24)
    assert (diag.hand, diag.trick, diag.player) == (1, 1, "Beth")
    assert diag.message == ("Beth played 9H to a club lead while holding 3C, which Beth played "
                            "in trick 2 (line 4)")
    assert [(r.line, r.note) for r in diag.related] == [(4, "Beth played 3C in trick 2")]


def test_revoke_from_a_recorded_deal_names_where_the_card_came_from():
    report = check_text(DEALT +
                        "trick 1: Al 2C, Beth 9H, Charlie 5C, Dave KC, Eve 9C, Fay 3C -> Dave\n")
    revokes = [d for d in report.diagnostics if d.kind == "revoke"]
    assert len(revokes) == 1
    assert revokes[0].message == "Beth played 9H to a club lead while holding 3C (dealt on line 4)"


def test_heart_led_before_hearts_are_broken():
    diag = only(SIX + CLUBS + " -> Dave\n"
                "trick 2: Dave 5H, Eve 6H, Fay 7H, Al 8H, Beth 10H, Charlie JH -> Charlie\n"
                "trick 3: Charlie 2D, Dave 3D, Eve 4D, Fay 5D, Al 6D, Beth 7D -> Beth\n")
    assert (diag.kind, diag.code, diag.rule) == ("illegal-lead", "CH202", "R4.3")
    assert (diag.line, diag.column, diag.player, diag.trick) == (4, 15, "Dave", 2)
    assert diag.message == ("Dave led 5H in trick 2: hearts have not been broken; Dave held 3D, "
                            "which Dave played in trick 3 (line 5)")


def test_heart_as_the_first_lead():
    diag = only(SIX + "trick 1: Al 2H, Beth 3H, Charlie 5H, Dave KH, Eve 9H, Fay 4H -> Dave\n"
                "trick 2: Dave 4D, Eve 5D, Fay 6D, Al 7D, Beth 3C, Charlie 8D -> Charlie\n")
    assert (diag.kind, diag.rule, diag.line, diag.column) == ("illegal-lead", "R4.2", 3, 13)


def test_wrong_winner_claim():
    diag = only(SIX + CLUBS + " -> Eve\n")
    assert (diag.kind, diag.code, diag.rule) == ("wrong-winner", "CH302", "R6.1")
    assert diag.line == 3 and diag.column == len(CLUBS) + 2
    assert diag.message == "trick 1 is claimed for Eve, but Dave wins it with KC"


def test_the_seeds_trick_is_set_aside_not_won():
    diag = only(SIX + "trick 1: Al 10S, Beth 9H, Charlie 9H, Dave 10S, Eve 4D, Fay 3D -> Dave\n")
    assert (diag.kind, diag.code, diag.rule) == ("miscounted-cancellation", "CH301", "R6.4")
    # only the led suit's pairs explain it: the cancelled 9H pair is not a spade
    assert diag.message == ("trick 1 is claimed for Dave, but every spade in it cancelled "
                            "(10S): it is set aside")


def test_claimed_card_cancelled_by_its_twin():
    diag = only(SIX + "trick 1: Al 2C, Beth KC, Charlie 5C, Dave KC, Eve 9C, Fay 4C -> Beth\n")
    assert diag.kind == "miscounted-cancellation" and diag.rule == "R6.2"
    assert "Beth, whose KC was cancelled by its twin; Eve wins it with 9C" in diag.message


def test_set_aside_claim_while_a_card_survives():
    diag = only(SIX + "trick 1: Al 2C, Beth 2C, Charlie 5C, Dave 7D, Eve 9D, Fay 4D -> none\n")
    assert diag.kind == "miscounted-cancellation" and diag.rule == "R6.3"
    assert "Charlie wins it with 5C" in diag.message


def test_after_a_set_aside_trick_its_leader_leads_again():
    diag = only(SIX + "trick 1: Al 10S, Beth 9H, Charlie 9H, Dave 10S, Eve 4D, Fay 3D -> none\n"
                "trick 2: Beth 2C, Charlie 5C, Dave KC, Eve 9C, Fay 4C, Al 3C -> Dave\n")
    assert (diag.kind, diag.code, diag.rule, diag.line, diag.column) == (
        "wrong-leader", "CH205", "R4.6", 4, 10)
    assert "trick 1 was set aside, so its leader Al leads again" in diag.message


def test_a_wrong_claim_followed_by_the_claimed_winner_leading_is_one_fault():
    report = check_text(SIX + CLUBS + " -> Eve\n"
                        "trick 2: Eve 4D, Fay 5D, Al 6D, Beth 7D, Charlie 8D, Dave 9D -> Dave\n")
    assert [d.kind for d in report.diagnostics] == ["wrong-winner"]


def test_play_out_of_seating_order():
    diag = only(SIX + "trick 1: Al 2C, Charlie 5C, Beth 3C, Dave KC, Eve 9C, Fay 4C -> Dave\n")
    assert (diag.kind, diag.code, diag.rule, diag.column) == ("out-of-turn", "CH204", "R5.1", 17)
    assert diag.message == "Charlie plays where Beth is next in seating order"


def test_a_second_card_from_one_seat_is_one_fault_and_not_counted():
    # Beth holds one 3C: counted, her second 3C would also be a card she does not hold (and,
    # in a trick with every seat, would push the last player's card out as one too many)
    deal = "deal Beth: 9H 3C 4H 5H 6H 7H 8H 10H JH KH AH 7D 8D 9D 10D JD QD\n"
    report = check_text(SIX + deal + PASSES +
                        "trick 1: Al 2C, Beth 3C, Beth 3C, Dave KC, Eve 9C, Fay 4C -> Dave\n")
    found = [(d.kind, d.line, d.column, d.message) for d in report.diagnostics]
    assert found == [
        ("out-of-turn", 6, 26, "trick 1 has two cards from Beth and none from Charlie; 3C, "
                               "written where Charlie plays, is not counted"),
    ]
    # with every seat's card there too: the extra card alone, and Fay's card stands
    report = check_text(SIX + deal + PASSES + "trick 1: Al 2C, Beth 3C, Beth 3C, Charlie 5C, "
                        "Dave KC, Eve 9C, Fay 4C -> Dave\n")
    assert [(d.kind, d.line, d.column, d.message) for d in report.diagnostics] == [
        ("out-of-turn", 6, 26, "Beth plays a second card to trick 1 (3C); it is not counted")]


def test_a_card_under_the_wrong_name_is_one_fault_where_the_missing_seat_plays():
    report = check_text(SIX + "trick 1: Al 2C, Beth 3C, Beth 5C, Dave KC, Eve 9C, Fay 4C -> Dave\n"
                        "trick 2: Dave 4D, Eve 5D, Fay 6D, Al 7D, Beth 8D, Charlie 9D\n")
    assert [(d.kind, d.line, d.column, d.message) for d in report.diagnostics] == [
        ("out-of-turn", 3, 26, "trick 1 has two cards from Beth and none from Charlie; 5C, "
                               "written where Charlie plays, is not counted")]


def test_a_second_card_with_two_seats_missing_is_said_apart_from_them():
    # whose card it may be is not known: the second card, and the trick without two cards
    report = check_text(SIX + "trick 1: Al 2C, Beth 3C, Beth 5C, Eve 9C, Fay 4C -> Dave\n"
                        "trick 2: Dave 4D, Eve 5D, Fay 6D, Al 7D, Beth 8D, Charlie 9D\n")
    assert sorted((d.kind, d.line, str(d.message)) for d in report.diagnostics) == [
        ("out-of-turn", 3, "Beth plays a second card to trick 1 (5C); it is not counted"),
        ("out-of-turn", 3, "trick 1 has no card from Charlie, Dave")]


def test_the_leader_s_card_written_second_is_one_fault_and_the_trick_judged_as_led():
    # Dave leads 9D; written after Eve's 8H, it made Eve the leader, and Fay, Al, Beth, who
    # follow diamonds, revoke against a heart lead
    report = check_text(SIX + "trick 1: Al 2C, Beth 3C, Charlie 5C, Dave KC, Eve 9C, Fay 4C -> Dave\n"
                        "trick 2: Eve 8H, Dave 9D, Fay 5D, Al KD, Beth QD, Charlie 10H -> Al\n")
    assert [(d.kind, d.line, d.column, d.message) for d in report.diagnostics] == [
        ("out-of-turn", 4, 10, "Eve plays where Dave is next in seating order")]


def test_a_card_beyond_one_from_each_player_is_one_too_many():
    diag = only(SIX + CLUBS + ", Al 6C -> Dave\n")
    assert (diag.kind, diag.line, diag.column) == ("out-of-turn", 3, len(CLUBS) + 3)
    assert diag.message == "trick 1 already has a card from each of the 6 players; Al's 6C is one too many"


def test_a_trick_without_a_card_from_one_player():
    diag = only(SIX + "trick 1: Al 2C, Beth 3C, Charlie 5C, Dave KC, Eve 9C -> Dave\n"
                "trick 2: Dave 4D, Eve 5D, Fay 6D, Al 7D, Beth 3D, Charlie 8D -> Charlie\n")
    assert (diag.kind, diag.line, diag.column) == ("out-of-turn", 3, 1)
    assert diag.message == "trick 1 has no card from Fay"


def test_a_discard_from_a_void_is_legal_and_one_from_a_held_suit_is_a_revoke():
    report = check_text(DEALT +
                        "trick 1: Al 2C, Beth 3C, Charlie 5C, Dave KC, Eve 9C, Fay 4C -> Dave\n"
                        "trick 2: Dave 7C, Eve 8C, Fay 10C, Al 3S, Beth 7D, Charlie JC -> Charlie\n"
                        "trick 3: Charlie 2S, Dave 5S, Eve 6S, Fay 7S, Al 8S, Beth 9D -> Al\n"
                        "trick 4: Al 3D, Beth 9H, Charlie 4D, Dave 5D, Eve 6D, Fay 2D -> Eve\n")
    found = [(d.kind, d.line, d.player) for d in report.diagnostics]
    assert found == [("revoke", 10, "Beth")]  # the discards in tricks 2 and 3 are from voids


def test_a_third_copy_is_not_held():
    diag = only(SIX + "trick 1: Al 2C, Beth 2C, Charlie 5C, Dave KC, Eve 9C, Fay 4C -> Dave\n"
                "trick 2: Dave 2C, Eve 3C, Fay 6C, Al 7C, Beth 8C, Charlie 10C -> Charlie\n")
    assert (diag.kind, diag.code, diag.line, diag.player) == ("card-not-held", "CH203", 4, "Dave")
    assert "Al played one in trick 1 (line 3); Beth played one in trick 1 (line 3)" in diag.message


def test_scoresheet_arithmetic():
    names = ("Al", "Beth", "Charlie", "Dave", "Eve", "Fay")
    line = lambda word, values: f"{word}: " + ", ".join(f"{n} {v}" for n, v in zip(names, values)) + "\n"  # noqa: E731
    text = ('[Players "Al Beth Charlie Dave Eve Fay"]\n' + line("score", (0, 13, 0, 5, 0, 34))
            + line("total", (0, 13, 0, 5, 0, 34)) + line("score", (1, 0, 13, 0, 38, 0))
            + line("total", (2, 13, 13, 5, 38, 34)))
    diag = only(text)
    assert (diag.kind, diag.code, diag.rule, diag.line, diag.player) == (
        "total-mismatch", "CH403", "R7.4", 5, "Al")
    assert diag.message == "Al's total is written as 2, but 0 + 1 = 1"
    # a negative hand score is taken away, not added as "+ -52"
    text = ('[Players "Al Beth Charlie Dave Eve Fay"]\n' + line("score", (0, 13, 0, 5, 0, 34))
            + line("total", (0, 13, 0, 5, 0, 34)) + line("score", (0, 0, 0, 0, 0, -52))
            + line("total", (0, 13, 0, 5, 0, -20)))
    totals = [d.message for d in check_text(text).diagnostics if d.kind == "total-mismatch"]
    assert totals == ["Fay's total is written as -20, but 34 - 52 = -18"]


def test_game_claimed_over_before_the_target():
    diag = only('[Players "Al Beth Charlie Dave Eve Fay"]\n'
                "score: Al 0, Beth 13, Charlie 0, Dave 5, Eve 0, Fay 34\nwinner: Al\n")
    assert (diag.kind, diag.code, diag.rule, diag.line) == ("game-end", "CH501", "R9.1", 3)


def test_setup_problems():
    assert only("[Event \"x\"]\n").message.startswith("the log has no [Players")
    diag = only('[Players "Al Beth Al Dave Eve Fay Gus"]\n')
    assert (diag.kind, diag.rule, diag.message) == ("bad-setup", "R10.2", "'Al' is seated twice")
    diag = only('[Players "Al Beth"]\n')
    assert diag.rule == "R1.1" and "6-11 players, not 2" in diag.message
    diag = only('[Ruleset "nonsense"]\n[Players "Al Beth Charlie Dave Eve Fay"]\n')
    assert diag.rule == "R10.3" and "unknown ruleset 'nonsense'" in diag.message


def test_unknown_player_gets_a_suggestion():
    diag = only(SIX + "trick 1: Al 2C, Bteh 3C, Charlie 5C, Dave KC, Eve 9C, Fay 4C -> Dave\n")
    assert (diag.kind, diag.rule, diag.line, diag.column) == ("bad-setup", "R10.5", 3, 17)
    assert diag.hint == "did you mean 'Beth'?"


def test_a_syntax_error_does_not_hide_the_rest():
    report = check_text(SIX + "trik 1: Al 2C\n" + CLUBS + " -> Eve\n")
    kinds = [d.kind for d in report.diagnostics]
    assert kinds == ["syntax", "wrong-winner"]
    assert report.diagnostics[0].hint == "did you mean: trick 1: Al 2C"


def test_partial_logs_say_what_was_not_checked():
    report = check_text(SIX + CLUBS + " -> Dave\ntrick 2: Dave 4D, Eve 5D\n")
    assert report.verdict == "clean"
    assert any("stops in hand 1 at trick 2: Fay to play" in note for note in report.unchecked)
    assert "hand 1: no deal lines are recorded; revokes and illegal leads are proven only from " \
        "later plays" in report.unchecked


def test_a_non_club_first_lead_under_first_lead_any_club_names_a_held_club(tmp_path):
    from referee.run.single import check_path

    (tmp_path / "anyclub.toml").write_text(
        'base = "standard"\nname = "anyclub"\nfirst_lead_any_club = true\n'
        'pass_cycle = ["hold"]\n', "utf-8")
    log = tmp_path / "t.log"
    log.write_text('[Ruleset "anyclub.toml"]\n[Players "North East South West"]\n'
                   "hand 1 dealer West pass hold\ndeal North: 2C 5C KC AH QS 9D 3S 4S 5S 6S 7S 8S 9S\n"
                   "trick 1: North 9D, East 10D, South JD, West QD -> West\n", "utf-8")
    leads = [d for d in check_path(log).diagnostics if d.kind == "illegal-lead"]
    assert [(d.line, d.column, d.rule) for d in leads] == [(5, 16, "R4.1")]
    assert leads[0].message == ("North led 9D in trick 1: the first lead must be a club; "
                                "North held 2C (dealt on line 4)")


def test_a_set_aside_claim_names_only_the_led_suits_pairs():
    # "every diamond in it cancelled (9C, JD)" named pairs of other suits
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.cards import NUM_RANKS, card_text
    from referee.rules.ruleset import load_ruleset
    from referee.rules.tricks import resolve_trick

    rules = load_ruleset("cancellation")
    for seed in range(300):  # seed 14 has one: the more players, the more twins per trick
        text = write(generate_game(rules, 11, seed=seed, hands=2))
        for line in text.splitlines():
            if not (line.startswith("trick ") and line.endswith("-> none")):
                continue
            plays = [p.split()[-1] for p in line.split(":", 1)[1].rsplit("->", 1)[0].split(",")]
            from referee.rules.cards import parse_card

            cards = [parse_card(p) for p in plays]
            outcome = resolve_trick(cards)
            led = cards[0] // NUM_RANKS
            others = [c for c in outcome.cancelled if c // NUM_RANKS != led]
            if outcome.winner is None and others:
                wrong = line[: -len("none")] + "Al"
                report = check_text(text.replace(line, wrong))
                (diag,) = [d for d in report.diagnostics if d.kind == "miscounted-cancellation"]
                named = diag.message.split("cancelled (", 1)[1].split(")", 1)[0].split(", ")
                assert sorted(named) == sorted(card_text(c) for c in outcome.cancelled
                                               if c // NUM_RANKS == led)
                assert not any(card_text(c) in named for c in others)
                return
    raise AssertionError("no set-aside trick with a cancelled pair of another suit was found")


def test_one_of_a_thing_is_singular_in_messages():
    log = (Path(__file__).resolve().parent.parent / "examples" / "logs" / "clean-6-players.log")
    text = log.read_text("utf-8")
    line = next(row for row in text.splitlines() if row.startswith("pass Al"))
    short = line.rsplit(" ", 2)[0]  # one card passed where three are due
    report = check_text(text.replace(line, short, 1))
    messages = [d.message for d in report.diagnostics if d.kind == "bad-pass"]
    assert any("Al passed 1 card, not 3" in m for m in messages), messages


def test_a_pass_direction_is_compared_as_seats_travelled_not_as_words(tmp_path):
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.run.single import check_path
    from referee.rules.ruleset import load_ruleset

    six = (Path(__file__).resolve().parent.parent / "examples" / "logs" / "clean-6-players.log")
    text = six.read_text("utf-8")
    assert "hand 2 dealer Fay pass right\n" in text
    same = text.replace("hand 2 dealer Fay pass right\n", "hand 2 dealer Fay pass 5 left\n")
    assert check_text(same).diagnostics == []
    other = text.replace("hand 2 dealer Fay pass right\n", "hand 2 dealer Fay pass 4 left\n")
    assert {d.kind for d in check_text(other).diagnostics} >= {"bad-pass"}
    # across at eleven seats is floor(11 / 2) = 5 seats to the left
    rules_file = tmp_path / "across.toml"
    rules_file.write_text('base = "cancellation"\nname = "across"\n'
                          'pass_cycle = ["left", "right", "across"]\n', "utf-8")
    log = tmp_path / "game.log"
    events = generate_game(load_ruleset(str(rules_file)), 11, seed=4, hands=3)
    written = write(events).replace('[Ruleset "across"]', '[Ruleset "across.toml"]')
    assert "pass across\n" in written
    log.write_text(written.replace("pass across\n", "pass 5 left\n"), "utf-8")
    assert check_path(log).diagnostics == []


def test_a_generated_game_with_a_target_no_one_reaches_checks_clean():
    # what bench/memory.py and authors' long runs write: a target of a billion points
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset, with_options
    from referee.run.single import check_text

    rules = with_options(load_ruleset("cancellation"), target=10**9)
    text = write(generate_game(rules, 6, seed=3, hands=3))
    assert '[Target "1000000000"]' in text
    report = check_text(text)
    assert report.diagnostics == [] and len(report.hands) == 3
