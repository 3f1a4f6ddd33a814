"""The diagnostics of the check (plays, claims, the game's course, seats) are messages a
catalog can translate: each text is a ``msg()``/``msgn()`` whose template the extractor finds,
its word arguments messages too, and its English text as it was (written here by hand)."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

import pytest

from referee.judge.diagnostics import Report
from referee.rules.ruleset_files import reason
from referee.judge.walk import judge_bytes
from referee.judge.table import Findings
from referee.log.decode import UnreadableLog
from referee.rules.cards import CLUBS, SPADES, SUIT_NAMES, SUIT_SINGULAR
from referee.rules.legality import Fault
from referee.rules.ruleset import load_ruleset, with_options
from referee.util.message import Message, msg

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "examples" / "logs"
RULESETS = ROOT / "examples" / "rulesets"
OREGONIAN_GAME = (RULESETS / "cancellation-oregonian-hearts-game.log").read_text("utf-8")
SIX = '[Players "Al Beth Charlie Dave Eve Fay"]\nhand 1 dealer Fay\n'
TRICK_1 = "trick 1: Al 2C, Beth 3C, Charlie 5C, Dave KC, Eve 9C, Fay 4C -> Dave\n"
# spades led; the two 2S cancel: under the default rules the trick is set aside
TRICK_2 = "trick 2: Dave 2S, Eve 2S, Fay 3D, Al 4D, Beth 5D, Charlie 6D -> {claim}\n"
# hand 5, trick 10 of the Oregonian game: the KH makes hearts the lead suit, the two KH
# cancel, and nothing of hearts survives: its leader Eve wins it
OREGONIAN_TRICK_10 = "trick 10: Eve 7D, Fay 10D, Al 9D, Beth 9D, Charlie KH, Dave KH -> Eve"


@cache
def templates() -> tuple[frozenset, frozenset]:
    """(the singular templates, the (singular, plural) pairs) that scripts/i18n.py extracts."""
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    singular, plural = set(), set()
    for entry in script.extracted():
        if isinstance(entry.id, tuple):
            plural.add(tuple(entry.id))
        elif entry.id:
            singular.add(entry.id)
    return frozenset(singular), frozenset(plural)


def assert_extracted(text) -> None:
    """``text`` is a message whose template (and every word argument's) is extracted."""
    assert isinstance(text, Message), f"plain text, not a message: {text!r}"
    singular, plural = templates()
    if text.plural is None:
        assert text.template in singular, f"not extracted: {text.template!r}"
    else:
        assert (text.template, text.plural) in plural, f"not extracted: {text.template!r}"
    for value in text.args.values():
        if isinstance(value, Message):
            assert_extracted(value)


def assert_translatable(report: Report) -> None:
    assert report.diagnostics or report.unchecked
    for diagnostic in report.diagnostics:
        assert_extracted(diagnostic.message)
        if diagnostic.hint is not None:
            assert_extracted(diagnostic.hint)
        for related in diagnostic.related:
            assert_extracted(related.note)


def check(text: str, **options) -> Report:
    return judge_bytes(text.encode("utf-8"), "t.log", **options)


def messages(report: Report) -> list[str]:
    return [d.message for d in report.diagnostics]


# -- the example logs ---------------------------------------------------------------------------
EXAMPLES = {
    "revoke.log": "Charlie played AD to a club lead while holding AC (dealt on line 10)",
    "illegal-lead.log": ("Dave led 6H in trick 2: hearts have not been broken; Dave held 2S "
                         "(dealt on line 11)"),
    "illegal-play.log": ("Charlie played 10H to trick 1: no points may be played to the first "
                         "trick while holding 3S (dealt on line 10)"),
    "card-not-held.log": ("Beth played 9C, but the decks hold 2 and they are gone: Charlie "
                          "played one in trick 1 (line 21); Eve played one in trick 1 (line 21)"),
    "out-of-turn.log": "Fay plays where Eve is next in seating order",
    "wrong-leader.log": ("Charlie led trick 5, but Beth won trick 4 and leads next (unless the "
                         "trick is only written from Charlie's column: read from Beth, it is the "
                         "same trick)"),
    "wrong-winner.log": "trick 3 is claimed for Beth, but Dave wins it with KC",
    "miscounted-cancellation.log": ("trick 4 is claimed for Dave, whose AS was cancelled by its "
                                    "twin; Beth wins it with QS"),
    "wrong-dealer.log": "Charlie deals hand 2, but the deal moves to Al",
    "game-end.log": "the winner is claimed as Beth, but the lowest total is Dave (15)",
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_example_logs_diagnostic_is_a_message_with_its_english_text(name):
    report = judge_bytes((LOGS / name).read_bytes(), name)
    assert messages(report) == [EXAMPLES[name]]
    assert_translatable(report)


def test_where_a_record_stops_is_a_message():
    report = judge_bytes((LOGS / "stops-mid-trick.log").read_bytes(), "stops-mid-trick.log")
    assert report.unchecked == [
        "the record stops in hand 2 at trick 5: Dave to play (legal: 6S QS)"]
    assert_extracted(report.unchecked[0])


def test_a_scoresheet_without_play_says_so_in_a_message():
    report = judge_bytes((LOGS / "scoresheet-only.log").read_bytes(), "scoresheet-only.log")
    assert report.unchecked[0].startswith("no play is recorded, so scores are checked against")
    assert_extracted(report.unchecked[0])


def test_the_target_not_reached_names_the_highest_total():
    name = "049-standard-4p-game-end.log"
    report = judge_bytes((ROOT / "examples" / "corpus" / name).read_bytes(), name)
    assert messages(report) == [("the game is claimed over, but no total has reached the target "
                                "100 (highest: Dave (19))")]
    assert_translatable(report)


def test_the_dead_end_lists_why_each_card_is_illegal():
    name = "DoubleDeckCancellationHearts-dead-end.log"
    report = judge_bytes((RULESETS / name).read_bytes(), name, base_dir=RULESETS)
    [dead_end] = report.diagnostics
    assert dead_end.message.startswith(
        "the record stops in hand 1 at trick 1 with Beth to play, and no card is legal here under "
        "DoubleDeckCancellationHearts (QS: no points may be played to the first trick")
    assert_translatable(report)
    assert report.unchecked[-1] == ("the record stops in hand 1 at trick 1: Beth to play (no card "
                                    "is legal here)")
    assert_extracted(report.unchecked[-1])


# -- small hand-written logs -------------------------------------------------------------------
def test_a_revoke_proven_by_a_later_play_has_a_translatable_related_note():
    report = check(SIX + "trick 1: Al 2C, Beth 9H, Charlie 5C, Dave KC, Eve 9C, Fay 3C -> Dave\n"
                   "trick 2: Dave 4D, Eve 5D, Fay 6D, Al 7D, Beth 3C, Charlie 8D -> Charlie\n")
    [revoke] = report.diagnostics
    assert revoke.message == ("Beth played 9H to a club lead while holding 3C, which Beth played "
                              "in trick 2 (line 4)")
    assert revoke.message.args["suit"] is SUIT_SINGULAR[CLUBS]  # the suit is a word to translate
    assert [r.note for r in revoke.related] == ["Beth played 3C in trick 2"]
    assert_translatable(report)


@pytest.mark.parametrize("text, expected", [
    (SIX + TRICK_1.replace("-> Dave", "-> Dav"),
     "'Dav' is not seated at this table (players: Al, Beth, Charlie, Dave, Eve, Fay)"),
    (SIX + TRICK_1 + "trick 1: Dave 2D, Eve 3D, Fay 4D, Al 5D, Beth 6D, Charlie 7D -> Charlie\n",
     "trick 1 is recorded where trick 2 is due"),
    (SIX + TRICK_1 + "trick 3: Dave 2D, Eve 3D, Fay 4D, Al 5D, Beth 6D, Charlie 7D -> Charlie\n",
     "trick 2 is not recorded: trick 3 follows trick 1, so the cards played in trick 2 are "
     "unknown"),
    (SIX + TRICK_1 + "trick 4: Dave 2D, Eve 3D, Fay 4D, Al 5D, Beth 6D, Charlie 7D -> Charlie\n",
     "tricks 2 to 3 are not recorded: trick 4 follows trick 1, so the cards played in them are "
     "unknown"),
    (SIX + TRICK_1 + TRICK_1, "trick 1 is written twice (lines 3 and 4); it is counted once"),
    (SIX + "trick 2: Dave 2D, Eve 3D, Fay 4D, Al 5D, Beth 6D, Charlie 7D -> Charlie\n" + TRICK_1,
     "trick 2 is written before trick 1; they are taken in their numbered order"),
    (SIX + "trick 1:\n" + TRICK_2.format(claim="none"),
     "trick 1 is written with no card, and play goes on after it, so the cards played in it are "
     "unknown"),
    (SIX + TRICK_1 + "score: Al 0, Beth 0, Charlie 0, Dave 0, Eve 0, Fay 0\n",
     "tricks 2 to 17 of hand 1 are not recorded before its score, so the cards played in them "
     "are unknown"),
    (SIX + TRICK_1.replace("Fay 4C", "Eve 4C") + TRICK_2.format(claim="none"),
     "trick 1 has two cards from Eve and none from Fay; 4C, written where Fay plays, is not "
     "counted"),
    (SIX + TRICK_1.replace("Al 2C, Beth 3C", "Beth 3C, Al 2C"),
     "Beth plays where Al is next in seating order"),
    (SIX + TRICK_1.replace(", Fay 4C", "") + "trick 2: Dave 2D, Eve 3D, Fay 4D, Al 5D, Beth 6D, "
     "Charlie 7D -> Charlie\n", "trick 1 has no card from Fay"),
    (SIX + TRICK_1.replace("Fay 4C", "Eve 4C"),
     "Eve plays a second card to trick 1 (4C); it is not counted"),
    (SIX + TRICK_1.replace("Fay 4C", "Fay 4C, Al 6C"),
     "trick 1 already has a card from each of the 6 players; Al's 6C is one too many"),
    (SIX + TRICK_1.replace("-> Dave", "-> none"),
     "trick 1 is claimed as set aside, but an uncancelled club survives: Dave wins it with KC"),
    (SIX + TRICK_1.replace("Fay 4C -> Dave", "Fay 3C -> none"),
     ("trick 1 is claimed as set aside, but an uncancelled club survives (3C cancelled): Dave "
     "wins it with KC")),
    (SIX + TRICK_1 + TRICK_2.format(claim="Dave"),
     "trick 2 is claimed for Dave, but every spade in it cancelled (2S): it is set aside"),
    (SIX + "trick 1: Beth 2C, Charlie 3C, Dave 5C, Eve KC, Fay 9C, Al 4C -> Eve\n",
     "Beth led trick 1, but the first trick is led by Al, left of the dealer Fay"),
])
def test_the_checks_diagnostics_keep_their_english_text(text, expected):
    report = check(text)
    assert messages(report) == [expected]
    assert_translatable(report)


def test_an_unknown_name_gets_a_translatable_hint():
    report = check(SIX + TRICK_1.replace("-> Dave", "-> Dav"))
    assert report.diagnostics[0].hint == "did you mean 'Dave'?"
    assert_translatable(report)


def test_a_leader_after_a_set_aside_trick_is_named_in_a_message():
    report = check(SIX + TRICK_1 + TRICK_2.format(claim="none")
                   + "trick 3: Eve 3S, Fay 4S, Al 5S, Beth 6S, Charlie 7S, Dave 8S -> Dave\n")
    wrong = [d.message for d in report.diagnostics if d.kind == "wrong-leader"]
    assert wrong == ["Eve led trick 3, but trick 2 was set aside, so its leader Dave leads again "
                     "(unless the trick is only written from Eve's column: read from Dave, it is "
                     "the same trick)"]
    assert_translatable(report)  # with the revokes trick 3 proves


def test_an_unreadable_trick_is_noted_in_a_message_with_its_number_counted():
    report = check(SIX + TRICK_1 + TRICK_2.format(claim="Dave").replace("Eve 2S", "Eve ZZ"))
    lost = [n for n in report.unchecked if "cannot be read" in n]
    assert lost == [("hand 1: trick 2 cannot be read, so the cards played there are unknown, "
                     "later plays are judged only on what is known, and the hand's scores are "
                     "not checked")]
    assert lost[0].plural is not None and lost[0].number == 1
    assert_extracted(lost[0])
    stops = report.unchecked[-1]
    assert stops == "the record stops in hand 1 at trick 3: Dave to play"
    assert_extracted(stops)


def test_a_record_stopping_mid_trick_names_the_led_suit_as_a_word():
    report = check(SIX + TRICK_1 + "trick 2: Dave 2S, Eve 3S\n")
    stops = report.unchecked[-1]
    assert stops == "the record stops in hand 1 at trick 2: Fay to play (spades led)"
    assert stops.args["suit"] is SUIT_NAMES[SPADES]
    assert_extracted(stops)


def test_notes_past_the_limit_are_counted_in_a_plural_message():
    findings = Findings(limit=1)
    for hand in (1, 2, 3):
        findings.note(msg("hand {hand}: the moon line is not checked (no play recorded)",
                          hand=hand))
    last = findings.notes()[-1]
    assert last == ("and 2 more notes of what was not checked (--max-diagnostics N shows more)")
    assert_extracted(last)
    findings = Findings(limit=1)
    findings.note("a")
    findings.note("b")
    assert findings.notes()[-1] == ("and 1 more note of what was not checked (--max-diagnostics "
                                    "N shows more)")


# -- the game's course (judge/walk.py) ---------------------------------------------------------
def test_a_game_claimed_over_too_early_counts_its_hands_in_a_message():
    head = OREGONIAN_GAME.split("\nhand 6 ")[0] + "\nwinner: Dave\n"
    report = judge_bytes(head.encode(), "oregonian.log", base_dir=RULESETS)
    assert messages(report) == ["the game is claimed over, but only 5 hands of 6 have been played"]
    assert_translatable(report)


def test_a_hand_after_the_end_says_how_the_game_ended():
    extra = "\nhand 7 dealer Al pass hold\nscore: Al 0, Beth 0, Charlie 0, Dave 0, Eve 0, Fay 0\n"
    report = judge_bytes((OREGONIAN_GAME.split("\nwinner:")[0] + extra).encode(), "oregonian.log",
                         base_dir=RULESETS)
    ended = [d.message for d in report.diagnostics if d.kind == "game-end"]
    assert ended == [("hand 7 is played after the game ended: the game is 6 hands long and ended "
                     "in hand 6")]
    assert_translatable(report)


def test_a_winner_claimed_under_the_highest_total_names_it_as_a_word():
    text = OREGONIAN_GAME.replace("winner: Dave", "winner: Fay")
    report = judge_bytes(text.encode(), "oregonian.log", base_dir=RULESETS)
    [end] = report.diagnostics
    assert end.message.startswith("the winner is claimed as Fay, but the highest total is Dave (")
    assert end.message.args["which"] == "highest" and isinstance(end.message.args["which"], Message)
    assert_translatable(report)


# -- nothing_survives = "leader_wins": no trick is ever set aside -------------------------------
def oregonian_game_claiming(claim: str) -> Report:
    text = OREGONIAN_GAME.replace(OREGONIAN_TRICK_10, OREGONIAN_TRICK_10.replace("-> Eve", claim))
    assert text != OREGONIAN_GAME
    return judge_bytes(text.encode(), "oregonian.log", base_dir=RULESETS)


def test_a_set_aside_claim_under_leader_wins_says_the_leader_wins():
    report = oregonian_game_claiming("-> none")
    assert [(d.kind, d.line, d.rule) for d in report.diagnostics] == [
        ("miscounted-cancellation", 158, "R6.4")]
    assert messages(report) == [
        ("trick 10 is claimed as set aside, but no trick is set aside under "
        "cancellation-oregonian-hearts: every heart in it cancelled (KH), so its leader Eve "
        "wins it")]
    assert_translatable(report)


def test_another_winner_claimed_under_leader_wins_is_told_why_the_leader_wins():
    assert messages(oregonian_game_claiming("-> Fay")) == [
        ("trick 10 is claimed for Fay, but every heart in it cancelled (KH), so its leader Eve "
        "wins it")]
    report = oregonian_game_claiming("-> Charlie")
    assert messages(report) == [
        ("trick 10 is claimed for Charlie, whose KH was cancelled by its twin; every heart in it "
        "cancelled (KH), so its leader Eve wins it")]
    assert_translatable(report)


def test_leader_wins_with_two_pairs_names_the_pairs():
    rules = with_options(load_ruleset("cancellation"), nothing_survives="leader_wins",
                         set_aside_when="two_pairs")
    trick = "trick 2: Dave 2S, Eve 2S, Fay 3S, Al 4D, Beth 4D, Charlie 6D -> none\n"
    report = check(SIX + TRICK_1 + trick, ruleset=rules)
    assert messages(report) == [
        ("trick 2 is claimed as set aside, but no trick is set aside under cancellation: 2 pairs "
        "cancelled (2S, 4D), so its leader Dave wins it")]
    assert_translatable(report)


def test_leader_wins_with_a_surviving_card_keeps_the_surviving_wording():
    rules = with_options(load_ruleset("cancellation"), nothing_survives="leader_wins")
    trick = "trick 2: Dave 2S, Eve 2S, Fay 3S, Al 4D, Beth 5D, Charlie 6D -> none\n"
    assert messages(check(SIX + TRICK_1 + trick, ruleset=rules)) == [
        ("trick 2 is claimed as set aside, but an uncancelled spade survives (2S cancelled): Fay "
        "wins it with 3S")]


def test_under_a_lead_suit_switch_the_suit_named_is_the_final_lead_suit():
    # spades led, Fay's 3D makes diamonds the lead suit: Charlie's 6D wins, not a spade
    rules = with_options(load_ruleset("cancellation"), lead_suit_switch=True)
    report = check(SIX + TRICK_1 + TRICK_2.format(claim="none"), ruleset=rules)
    assert messages(report) == [
        ("trick 2 is claimed as set aside, but an uncancelled diamond survives (2S cancelled): "
        "Charlie wins it with 6D")]


# -- the tables of words -----------------------------------------------------------------------
def test_the_engines_fault_texts_are_messages():
    assert len(set(Fault)) == 10  # no two faults alike (an enum would make one an alias)
    for fault in Fault:
        assert isinstance(fault.text, Message)
        assert_extracted(fault.text)


def test_the_suit_names_are_messages_and_still_their_english_words():
    assert SUIT_NAMES == ("spades", "hearts", "diamonds", "clubs")
    assert SUIT_SINGULAR == ("spade", "heart", "diamond", "club")
    for word in SUIT_NAMES + SUIT_SINGULAR:
        assert_extracted(word)


def test_an_unreadable_files_reason_keeps_its_message():
    reason_given = msg("no hands are recorded")
    assert reason(UnreadableLog(reason_given, 3, 4)) is reason_given
    assert reason(UnreadableLog("plain words")) == "plain words"
