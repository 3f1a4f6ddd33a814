"""Generated games under each program's ruleset file check clean (referee.testing strategies)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.judge.walk import judge_text
from referee.testing import assert_events_legal, deals, game_logs, violating_logs
from referee.log.events import Score
from referee.rules import engine

RULESETS = Path(__file__).resolve().parents[1] / "examples" / "rulesets"
PROGRAM_RULESETS = [str(RULESETS / f"{name}.toml") for name in (
    "DoubleDeckCancellationHearts", "cancellation-hearts", "cancellation-oregonian-hearts")]
FEW = settings(max_examples=6, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("path", PROGRAM_RULESETS)
@FEW
@given(data=st.data())
def test_generated_games_under_each_program_check_clean(path, data):
    log = data.draw(game_logs(rules=path, hands=None if "oregonian" in path else 2))
    report = assert_events_legal(log.text, allowed_dirs=(RULESETS,))
    assert report.ruleset == log.rules.name
    # the referee's scores are the generator's (the engine's) scores, hand by hand
    written = [e for e in log.events if isinstance(e, Score)]
    assert [h.points for h in report.hands] == [
        {entry.player: entry.value for entry in score.entries} for score in written]
    if log.rules.game_length == "one_hand_per_player":
        assert len(report.hands) == log.players and report.winners


@FEW
@given(deal=deals(rules=PROGRAM_RULESETS[1]))
def test_drawn_deals_under_cancellation_hearts_keep_the_2c_apart(deal):
    two = engine.TWO_OF_CLUBS
    assert all(hand.count(two) <= 1 for hand in deal.hands)
    assert engine.deal_problems(engine.new_game(deal.rules, deal.players), deal.action()) == []


@pytest.mark.parametrize("path", PROGRAM_RULESETS)
@FEW
@given(data=st.data())
def test_one_injected_violation_under_each_program_is_found(path, data):
    log = data.draw(violating_logs(rules=path, hands=1))
    (want,) = log.expected
    report = judge_text(log.text, allowed_dirs=(RULESETS,))
    assert [(d.kind, d.line) for d in report.diagnostics] == [(want.kind, want.line)], log.text
