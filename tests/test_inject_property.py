"""Clean generated games are clean; one injected violation is reported, alone, where it is."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.conformance.generate import generate_game
from referee.conformance.inject import INJECTABLE, CannotInject, violating_game
from referee.log.writer import write
from referee import check_text
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


def test_the_generator_is_reproducible():
    one = write(generate_game(CANCELLATION, 9, seed=42, hands=3))
    two = write(generate_game(CANCELLATION, 9, seed=42, hands=3))
    assert one == two
    assert one != write(generate_game(CANCELLATION, 9, seed=43, hands=3))
