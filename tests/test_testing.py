"""referee.testing: the public Hypothesis strategies, assert_events_legal, and the example test
of spec/conformance.md (run here exactly as written there)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from referee.conformance.generate import generate_game
from referee.conformance.inject import INJECTABLE
from referee.log.events import HandStart, Trick
from referee.log.writer import write
from referee.run.single import check_text
from referee.rules.cards import QUEEN_OF_SPADES, counts_of
from referee.rules.ruleset import load_ruleset, with_options
from referee.rules.tricks import resolve_trick
from referee.testing import (
    DrawnDeal,
    GameLog,
    RefereeAssertionError,
    assert_events_legal,
    deals,
    game_logs,
    rulesets,
    violating_logs,
)

ROOT = Path(__file__).resolve().parents[1]
CANCELLATION = load_ruleset("cancellation")
STANDARD = load_ruleset("standard")
SOME = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SOME
@given(rules=rulesets(variants=True))
def test_rulesets_are_valid_and_variants_change_options(rules):
    assert rules.min_players <= rules.max_players
    assert rules.name in ("cancellation", "standard")


def test_rulesets_without_variants_are_the_bundled_ones():
    seen = set()

    @settings(max_examples=30, deadline=None)
    @given(rulesets())
    def collect(rules):
        seen.add(rules)

    collect()
    assert seen == {CANCELLATION, STANDARD}


@SOME
@given(deal=deals())
def test_deals_hold_every_card_as_often_as_the_decks(deal: DrawnDeal):
    rules, n = deal.rules, deal.players
    assert rules.allows_players(n) and 0 <= deal.dealer < n
    assert all(len(hand) == rules.cards_per_player(n) for hand in deal.hands)
    assert len(deal.kitty) == rules.kitty_size(n)
    everything = [c for hand in deal.hands for c in hand] + list(deal.kitty)
    assert counts_of(everything) == (rules.decks,) * 52
    assert deal.log_lines()[0] == f'[Ruleset "{rules.name}"]'


@SOME
@given(deal=deals(rules="standard", players=st.just(4)))
def test_deals_take_values_or_strategies(deal):
    assert deal.rules == STANDARD and deal.players == 4 and deal.kitty == ()


@SOME
@given(log=game_logs())
def test_game_logs_are_legal(log: GameLog):
    assert log.expected == () and log.kind is None and str(log) == log.text
    report = assert_events_legal(log.events)
    assert report.verdict == "clean" and len(report.hands) == log.hands
    assert check_text(log.text).verdict == "clean"


@SOME
@given(log=game_logs(rules=with_options(CANCELLATION, target=40), players=7, hands=None,
                     target=40))
def test_game_logs_to_the_end(log):
    report = assert_events_legal(log.text)
    assert report.winners and log.rules.target == 40 and log.players == 7


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(log=violating_logs())
def test_violating_logs_carry_their_one_violation(log: GameLog):
    (want,) = log.expected
    assert log.kind == want.kind in INJECTABLE
    with pytest.raises(RefereeAssertionError) as caught:
        assert_events_legal(log.text)
    error = caught.value
    assert isinstance(error, AssertionError)
    assert len(error.diagnostics) == 1 and want.matches(error.diagnostics[0])
    assert f"line {want.line}:" in str(error) and error.diagnostics[0].code in str(error)


@SOME
@given(log=violating_logs(kinds=["revoke", "miscounted-cancellation"], rules="cancellation"))
def test_violating_logs_by_kind_and_ruleset(log):
    assert log.kind in ("revoke", "miscounted-cancellation") and log.rules == CANCELLATION


def _draw_one(strategy) -> None:
    @settings(max_examples=1, database=None, deadline=None)
    @given(strategy)
    def draw(value):
        pass

    draw()


@pytest.mark.parametrize("strategy", [
    violating_logs(kinds=["illegal-play"], rules="cancellation"),
    violating_logs(kinds=["no-such-kind"]),
    deals(rules="standard", players=6),
    game_logs(rules=with_options(CANCELLATION, cancellation=False)),  # a log cannot name it
], ids=["impossible-kind", "unknown-kind", "players", "variant-log"])
def test_strategies_reject_impossible_arguments(strategy):
    with pytest.raises(InvalidArgument):
        _draw_one(strategy)


def test_assert_events_legal_reports_a_wrong_claim_from_another_engine():
    events = generate_game(CANCELLATION, 6, seed=4, hands=1)
    index = next(i for i, e in enumerate(events) if isinstance(e, Trick) and e.claim.player)
    trick = events[index]
    other = next(p.player for p in trick.plays if p.player != trick.claim.player)
    events[index] = replace(trick, claim=replace(trick.claim, player=other))
    with pytest.raises(RefereeAssertionError) as caught:
        assert_events_legal(events)
    assert [d.kind for d in caught.value.diagnostics] in (["wrong-winner"],
                                                           ["miscounted-cancellation"])
    assert caught.value.report.verdict == "violations"


def test_assert_events_legal_with_a_ruleset_variant():
    variant = with_options(CANCELLATION, pass_cycle=("right", "left"), target=40)
    events = generate_game(variant, 6, seed=2, hands=1)  # the log says [Ruleset "cancellation"]
    with pytest.raises(RefereeAssertionError) as caught:
        assert_events_legal(events)  # judged as cancellation: hand 1 passes left
    assert "bad-pass" in {d.kind for d in caught.value.diagnostics}
    assert assert_events_legal(events, ruleset=variant).verdict == "clean"
    assert assert_events_legal(write(events), ruleset=variant).verdict == "clean"
    assert assert_events_legal(generate_game(STANDARD, 4, seed=1, hands=1),
                               ruleset="standard").ruleset == "standard"


def test_assert_events_legal_on_unwritable_or_unreadable_input():
    with pytest.raises(RefereeAssertionError, match="cannot be written"):
        assert_events_legal([object()])
    with pytest.raises(RefereeAssertionError, match="cannot read"):
        assert_events_legal("this is not a log\n")
    text = write(generate_game(STANDARD, 4, seed=1, hands=1)).replace("score:", "scroe:")
    with pytest.raises(RefereeAssertionError, match="1 violation") as caught:
        assert_events_legal(text, ruleset="standard")
    assert [d.kind for d in caught.value.diagnostics] == ["syntax"]


def test_the_example_in_conformance_md_runs():
    text = (ROOT / "spec" / "conformance.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(# test_my_hearts\.py\n.*?)```", text, re.S)
    assert len(blocks) == 1, "spec/conformance.md must hold the example test"
    namespace: dict = {}
    exec(compile(blocks[0], "conformance.md example", "exec"), namespace)  # noqa: S102
    tests = [name for name in namespace if name.startswith("test_")]
    assert len(tests) == 3
    for name in tests:
        namespace[name]()


# -- shrinking: a failing property ends at a small example -------------------------------------
SHRINK = settings(database=None, deadline=None, max_examples=300,
                  phases=[Phase.generate, Phase.shrink])


def _set_aside_last_trick(log) -> bool:
    """A deliberately broken engine property: it fails on a hand whose last trick is set
    aside (about one cancellation hand in a hundred)."""
    last = log.rules.cards_per_player(log.players)
    return any(isinstance(e, Trick) and e.number == last
               and resolve_trick([p.card for p in e.plays], cancellation=True,
                                 set_aside_when=log.rules.set_aside_when).winner is None
               for e in log.events)


def test_a_failing_game_log_property_shrinks_to_one_hand_at_the_smallest_table():
    log = find(game_logs(rules="cancellation"), _set_aside_last_trick, settings=SHRINK,
               random=Random(0))
    assert (log.players, log.hands, len(log.seed)) == (6, 1, 1)
    hands = [e for e in log.events if isinstance(e, HandStart)]
    assert len(hands) == 1 and _set_aside_last_trick(log)
    # 4 tags, the hand line, 6 deals, the kitty, 6 passes, 17 tricks, score, total
    assert len(log.text.splitlines()) <= 38
    assert "events=" not in repr(log) and len(repr(log)) < 2 * len(log.text)


def test_a_failing_deal_property_shrinks_to_the_smallest_table_and_dealer():
    def twin_queens(deal) -> bool:  # broken on a hand with both queens of spades
        return any(hand.count(QUEEN_OF_SPADES) == 2 for hand in deal.hands)

    deal = find(deals(rules="cancellation"), twin_queens, settings=SHRINK, random=Random(0))
    assert (deal.players, deal.dealer) == (6, 0) and twin_queens(deal)


@SOME
@given(log=game_logs(hands=st.integers(1, 3)))
def test_game_logs_draw_one_seed_per_hand(log):
    assert isinstance(log.seed, tuple) and len(log.seed) == log.hands
    assert sum(isinstance(e, HandStart) for e in log.events) == log.hands
