"""Clean generated games are clean; one injected violation is reported, alone, where it is."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.conformance.generate import generate_game
from referee.conformance.inject import INJECTABLE, rotation_explains, violating_game
from referee.conformance.verdicts import CannotInject
from referee.log.events import Play, Trick
from referee.rules.cards import parse_card
from referee.log.writer import write
from referee.run.single import check_text
from referee.rules.ruleset import load_ruleset, with_options

CANCELLATION = load_ruleset("cancellation")
STANDARD = load_ruleset("standard")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(6, 11), seed=st.integers(0, 10**6),
       strategy=st.sampled_from(["random", "simple"]))
def test_generated_games_are_clean(players, seed, strategy):
    events = generate_game(CANCELLATION, players, seed=seed, hands=2, strategy=strategy)
    report = check_text(write(events))
    assert report.verdict == "clean", [(d.kind, d.line, d.message) for d in report.diagnostics]
    assert len(report.hands) == 2 and all(h.complete for h in report.hands)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(INJECTABLE), players=st.integers(6, 11), seed=st.integers(0, 10**6))
def test_one_injected_violation_is_reported_alone_at_its_line(kind, players, seed):
    rules, hands = CANCELLATION, 2
    if kind == "illegal-play":
        rules, players = STANDARD, 4
    if kind == "game-end":
        rules, hands = with_options(rules, target=40), None
    try:
        text, expected = violating_game(rules, players, seed=seed, kind=kind, hands=hands)
    except CannotInject:
        assume(False)
    report = check_text(text)
    found = [(d.kind, d.line) for d in report.diagnostics]
    assert found == [(expected.kind, expected.line)], [d.message for d in report.diagnostics]
    diag = report.diagnostics[0]
    if expected.hand is not None:
        assert diag.hand == expected.hand
    if expected.trick is not None:
        assert diag.trick == expected.trick
    if expected.player is not None and kind not in ("miscounted-cancellation",):
        assert diag.player == expected.player


def _trick(line: str) -> Trick:
    plays = line.split(": ", 1)[1].split(" -> ")[0]
    return Trick(0, tuple(Play(name, parse_card(card)) for name, card in
                          (play.split() for play in plays.split(", "))), None)


SIX = "Al Beth Charlie Dave Eve Fay".split()


def test_a_lead_out_of_turn_a_rotation_explains_is_one_a_scorer_may_have_written():
    # Beth is due (seat 1), Fay deals (seat 5).  Written from Fay, the last column and the
    # dealer: the 6D pair cancels, Dave's 10D wins whoever led
    same = _trick("trick 5: Fay 4D, Al 6D, Beth 9D, Charlie 7D, Dave 10D, Eve 6D -> Dave")
    assert rotation_explains(CANCELLATION, same, SIX, 1, 5)
    # the same trick written from Charlie: no column a scorer starts from
    middle = _trick("trick 5: Charlie 7D, Dave 10D, Eve 6D, Fay 4D, Al 6D, Beth 9D -> Dave")
    assert not rotation_explains(CANCELLATION, middle, SIX, 1, 5)
    # Al leads 7D and Fay's JD wins; read from Dave, his 3S leads and wins
    other = _trick("trick 2: Al 7D, Beth 8D, Charlie 9D, Dave 3S, Eve 10D, Fay JD -> Fay")
    assert not rotation_explains(CANCELLATION, other, SIX, 3, 5)


def test_the_injected_lead_out_of_turn_is_one_no_rotation_explains():
    # seed 1, six players, one hand: the first place the injector meets is trick 5, led by Fay,
    # the dealer, with diamonds every player follows (the referee reads it as written from
    # Fay's column); the next is trick 7, led by Eve where Beth (who won trick 6 with 8H, the
    # 6H and 9H pairs cancelled) is due: Eve's is no column a scorer starts from
    text, expected = violating_game(CANCELLATION, 6, seed=1, kind="wrong-leader", hands=1)
    assert (expected.line, expected.trick, expected.player) == (26, 7, "Eve")
    assert text.split("\n")[25] == ("trick 7: Eve AD, Fay 3D, Al QD, Beth 9D, Charlie 7D, "
                                     "Dave KD -> Eve")
    for seed in range(24):  # of these, the first place of 7 is explained by a rotation
        players = 6 + seed % 6
        text, expected = violating_game(CANCELLATION, players, seed=seed, kind="wrong-leader",
                                        hands=2)
        found = [(d.kind, d.line, d.player) for d in check_text(text).diagnostics]
        assert found == [("wrong-leader", expected.line, expected.player)], (seed, found)


def test_the_generator_is_reproducible():
    one = write(generate_game(CANCELLATION, 9, seed=42, hands=3))
    two = write(generate_game(CANCELLATION, 9, seed=42, hands=3))
    assert one == two
    assert one != write(generate_game(CANCELLATION, 9, seed=43, hands=3))
