"""referee.testing: games played to the end (``game_logs(hands=None)``) and their ``target``.

A whole game played to a ruleset's own target takes 10-20 hands; a failing property over such
games must still shrink to one short hand, so the strategy draws the target too."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from referee.log.events import GameOver, HandStart, Tag, Trick
from referee.rules.ruleset import load_ruleset, with_options
from referee.testing import assert_events_legal, game_logs

CANCELLATION = load_ruleset("cancellation")
SOME = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHRINK = settings(database=None, deadline=None, max_examples=200,
                  phases=[Phase.generate, Phase.shrink])


def _winner_without_cancellation(plays) -> str:
    """A mutated trick rule: the highest card of the led suit wins, twins cancelling or not."""
    led = plays[0].card.suit
    return max((p for p in plays if p.card.suit == led), key=lambda p: p.card.rank).player


def _mutated_engine_disagrees(log) -> bool:
    return any(isinstance(e, Trick) and _winner_without_cancellation(e.plays) != e.claim.player
               for e in log.events)


def _target_tag(log) -> str:
    return next(e.value for e in log.events if isinstance(e, Tag) and e.key.lower() == "target")


@pytest.mark.parametrize("seed", [0, 1])
def test_a_failing_whole_game_property_shrinks_to_a_one_hand_game(seed):
    log = find(game_logs(rules="cancellation", hands=None), _mutated_engine_disagrees,
               settings=SHRINK, random=Random(seed))
    assert _mutated_engine_disagrees(log)
    assert (log.players, log.hands, len(log.seed), log.rules.target) == (6, None, 1, 1)
    assert sum(isinstance(e, HandStart) for e in log.events) == 1
    assert isinstance(log.events[-1], GameOver) and _target_tag(log) == "1"
    # 4 tags, a blank line, the hand line, 6 deals, the kitty, 6 passes, 17 tricks, score,
    # total, game over: 39 lines (a game to 150 is 300-400)
    assert len(log.text.splitlines()) <= 39


@SOME
@given(log=game_logs(rules="cancellation", players=6, hands=None, target=40))
def test_a_given_target_is_played_to(log):
    report = assert_events_legal(log.text)
    assert report.winners and log.rules.target == 40 and _target_tag(log) == "40"
    before = report.hands[-2].totals.values() if len(report.hands) > 1 else [0]
    assert max(report.hands[-1].totals.values()) >= 40 > max(before)


@SOME
@given(log=game_logs(rules="standard", hands=None))
def test_a_drawn_target_is_at_most_the_rulesets_own_and_is_named(log):
    report = assert_events_legal(log.text)
    assert 1 <= log.rules.target <= 100 and _target_tag(log) == str(log.rules.target)
    assert report.winners and log.rules == with_options(load_ruleset("standard"),
                                                        target=log.rules.target)


def test_whole_games_reach_the_rulesets_own_target_too():
    targets = set()

    @settings(max_examples=60, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(game_logs(rules=with_options(CANCELLATION, target=30), players=11, hands=None,
                     strategy="random"))
    def collect(log):
        targets.add(log.rules.target)

    collect()
    assert 30 in targets and min(targets) <= 26


@SOME
@given(log=game_logs(rules="cancellation", hands=st.integers(1, 2)))
def test_a_game_of_some_hands_keeps_the_rulesets_target(log):
    assert log.rules == CANCELLATION and _target_tag(log) == "150"


@pytest.mark.parametrize("strategy", [
    game_logs(rules="cancellation", hands=None, target=0),
    game_logs(rules="cancellation", hands=None, target="40"),
    game_logs(rules="examples/rulesets/cancellation-hearts.toml", hands=None, target=40),
], ids=["zero", "text", "file-ruleset"])
def test_impossible_targets_are_refused(strategy):
    @settings(max_examples=1, database=None, deadline=None)
    @given(strategy)
    def draw(value):
        pass

    with pytest.raises(InvalidArgument):
        draw()
