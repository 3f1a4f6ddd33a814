"""`referee verify-rules`: the bundled rulesets verify clean, the
seeds read literally fail with concrete counterexamples, and broken variants are caught."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

import pytest

from referee.proofs.rulemodel import (
    LITERAL_TOML,
    NONE,
    as_model,
    card_points,
    legal_spec,
    load_rule_model,
    trick_flow,
    trick_spec,
)
from referee.rules.ops import PyOps
from referee.proofs.verify_rules import PROPERTIES, main_verify, verify_rules
from referee.rules.cards import NUM_RANKS, parse_card
from referee.rules.legality import legal_cards
from referee.rules.ruleset_files import RulesetError
from referee.rules.ruleset import load_ruleset, with_options
from referee.rules.tricks import TrickOutcome, resolve_trick

pytestmark = pytest.mark.slow  # z3 proofs of every bundled ruleset: minutes


@lru_cache(maxsize=None)
def results(name: str) -> dict:
    return {r.name: r for r in verify_rules(load_rule_model(name))}


@pytest.mark.parametrize("name", ["cancellation", "standard"])
def test_bundled_rulesets_verify_clean(name):
    found = results(name)
    assert list(found) == list(PROPERTIES)
    for result in found.values():
        assert result.applicable and result.holds, (result.name, result.counterexample)
        assert result.counterexample is None and result.bounds


def test_the_engine_resolver_is_proved_for_all_tricks_of_4_to_11_cards():
    for name in ("cancellation", "standard"):
        result = results(name)["engine-resolver-agrees"]
        assert result.holds and "4-11 cards" in result.bounds
        assert "symbolic execution of resolve_trick" in result.bounds


def test_points_per_hand_are_derived_and_not_78():
    result = results("cancellation")["points-per-hand"]
    assert result.holds and "= 52" in result.detail and "78" in result.detail
    assert "= 26" in results("standard")["points-per-hand"].detail


def test_the_literal_reading_fails_with_a_counterexample_for_each_hole():
    found = {r.name: r for r in verify_rules(load_rule_model("literal"))}
    failing = {name for name, r in found.items() if r.applicable and not r.holds}
    assert failing == {"trick-outcome", "no-deadlock-lead", "no-deadlock-follow",
                       "points-conserved"}
    model, ops = load_rule_model("literal"), PyOps()
    # one pair of the led suit and nothing else of it: no winner, yet not set aside
    cards = found["trick-outcome"].witness["cards"]
    spec = trick_spec(ops, cards, model)
    assert spec.undefined and not spec.set_aside and spec.pairs == 1
    assert "nobody wins and the trick is not set aside" in found["trick-outcome"].counterexample
    # the same hole loses the trick's points
    # (a witness z3 may choose: points that vanish, or, in the last trick, points left waiting
    # in the pile, which no later trick takes either)
    witness = found["points-conserved"].witness
    spec = trick_spec(ops, witness["cards"], model)
    last, kitty = witness["last"], witness["kitty"]
    taken, after, lost, _ = trick_flow(ops, spec, witness["cards"], model, pile=witness["pile"],
                                       last=last, kitty=kitty)
    brought = witness["pile"] + sum(card_points(ops, c) for c in witness["cards"]) + (
        kitty if last and model.kitty_to == "last_trick" else 0)
    gone = brought - taken - lost - (0 if last else after)
    assert spec.undefined and gone == witness["gone"] > 0
    # no exception for a first leader holding only points, and none for a first-trick follower
    for name, leading in (("no-deadlock-lead", True), ("no-deadlock-follow", False)):
        w = found[name].witness
        holding = dict(enumerate(w["holding"]))
        assert w["first_trick"] and sum(w["holding"]) in {9, 10, 11, 13, 14, 17}
        legal = legal_spec(ops, model, holding, leading=leading, first_trick=True,
                           broken=False, led=w["led"], lowest=w["lowest"])
        assert not any(legal.values())
        assert all(card_points(ops, c) for c, k in holding.items() if k) or not leading
        assert "no card may be played" in found[name].counterexample
    # the engine cannot play this reading, so nothing is compared with it
    assert not found["engine-resolver-agrees"].applicable
    assert not found["legal-list-agrees"].applicable


def test_the_shipped_literal_example_is_the_literal_ruleset():
    shipped = Path(__file__).resolve().parent.parent / "examples" / "rulesets" / "literal.toml"
    assert shipped.read_text("utf-8") == LITERAL_TOML
    assert load_rule_model(str(shipped)).differences() == load_rule_model("literal").differences()


def test_the_literal_ruleset_loads_from_a_toml_file(tmp_path):
    path = tmp_path / "literal.toml"
    path.write_text(LITERAL_TOML, encoding="utf-8")
    model = load_rule_model(str(path))
    assert model.set_aside_when == "two_pairs_only" and not model.first_lead_fallback
    assert not model.first_trick_points and not model.first_trick_fallback
    assert model.differences() == load_rule_model("literal").differences()
    with pytest.raises(RulesetError):
        load_rule_model("no-such-ruleset")
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "cancellation"\nfirst_lead_fallback = 3\n', encoding="utf-8")
    with pytest.raises(RulesetError):
        load_rule_model(str(bad))


def broken_resolve(cards, *, cancellation=True, set_aside_when="all_cancelled"):
    """resolve_trick that forgets cancellation when choosing the winner."""
    seen, repeated = set(), set()
    for card in cards:
        if card in seen:
            repeated.add(card)
        seen.add(card)
    cancelled = frozenset(repeated) if cancellation else frozenset()
    led_suit = cards[0] // NUM_RANKS
    best_index, best_card = None, -1
    for index, card in enumerate(cards):
        if card // NUM_RANKS == led_suit and card > best_card:
            best_card, best_index = card, index
    return TrickOutcome(best_index, cancelled)


def test_a_broken_resolver_is_caught_with_a_real_counterexample():
    (result,) = verify_rules(load_ruleset("cancellation"), resolver=broken_resolve,
                             trick_sizes=range(4, 7), properties={"engine-resolver-agrees"})
    assert not result.holds and result.applicable
    cards = result.witness["cards"]
    assert broken_resolve(cards) != resolve_trick(cards)  # checked on the real functions
    assert "broken_resolve gives winner" in result.counterexample


def test_a_resolver_outside_the_interpreted_python_is_reported_not_proved():
    def opaque(cards, *, cancellation=True, set_aside_when="all_cancelled"):
        return TrickOutcome(max(range(len(cards)), key=lambda i: cards[i]), frozenset())

    (result,) = verify_rules(load_ruleset("cancellation"), resolver=opaque,
                             trick_sizes=range(4, 5), properties={"engine-resolver-agrees"})
    assert not result.holds and "cannot run opaque symbolically" in result.counterexample


def test_a_variant_without_the_first_trick_fallback_can_deadlock():
    model = as_model(load_ruleset("standard"), first_trick_fallback=False)
    (lead, follow) = verify_rules(model, properties={"no-deadlock-lead", "no-deadlock-follow"})
    assert lead.holds and not follow.holds
    w = follow.witness
    assert w["first_trick"] and w["led"] == w["lowest"]  # the 2C (or lowest club) was led
    assert not any(w["holding"][c] for c in range(39, 52))  # void in clubs
    assert all(card_points(PyOps(), c) for c, k in enumerate(w["holding"]) if k)


def test_a_moon_worth_nothing_is_indistinguishable_from_losing_every_point():
    rules = with_options(load_ruleset("cancellation"), moon_points=0)
    (result,) = verify_rules(rules, properties={"moon-only-all-points"})
    assert not result.holds and result.witness["lost"] > 0


def test_the_legal_list_check_compares_with_the_engine():
    model = as_model(load_ruleset("standard"))
    ops = PyOps()
    two_of_hearts = parse_card("2H")
    holding = {c: int(c == two_of_hearts) for c in range(52)}  # only hearts: may lead one
    engine = set(legal_cards(model.rules, tuple(holding.values()), (), first_trick=False,
                             hearts_broken=False))
    spec = {c for c, ok in legal_spec(ops, model, holding, leading=True, first_trick=False,
                                      broken=False, lowest=NONE).items() if ok}
    assert engine == spec == {two_of_hearts}


def test_unknown_property_names_are_refused():
    with pytest.raises(ValueError):
        verify_rules(load_ruleset("cancellation"), properties={"no-such-property"})


def test_main_verify_prints_a_plain_table_and_sets_the_exit_code():
    out = io.StringIO()
    assert main_verify("literal", out) == 1
    text = out.getvalue()
    assert "\x1b[" not in text  # no colour when not a terminal
    assert "FAILS" in text and "trick-outcome" in text
    # the two properties about the engine do not apply to a model: they are not counted as held
    assert text.rstrip().endswith("2 of 8 properties hold; 4 fail; 2 do not apply")
    out = io.StringIO()
    assert main_verify("standard", out) == 0
    assert "8 of 8 properties hold" in out.getvalue()
    out = io.StringIO()
    assert main_verify("no-such-ruleset", out) == 2 and "unknown ruleset" in out.getvalue()


def test_verify_rules_streams_one_line_per_property():
    out = io.StringIO()
    verify_rules(load_ruleset("standard"), stream=out,
                 properties={"points-per-hand", "moon-only-all-points"})
    lines = [l for l in out.getvalue().splitlines() if l.strip()]
    assert [l.split()[0] for l in lines] == ["holds", "holds"]


def test_the_scoring_model_matches_the_engine():
    from referee.rules import engine
    from referee.rules.scoring import hand_scores

    rules = load_ruleset("cancellation")
    model, ops = as_model(rules), PyOps()
    state = engine.new_game(rules, 6)
    for taken, lost in (([52, 0, 0, 0, 0, 0], 0), ([0, 0, 0, 52, 0, 0], 0),
                        ([10, 14, 0, 5, 13, 10], 0), ([40, 0, 0, 0, 0, 0], 12),
                        ([0, 51, 1, 0, 0, 0], 0)):
        done = state._replace(taken=tuple(taken), lost=lost)
        for choice in rules.moon_choices:
            want, _ = hand_scores(ops, model, taken, lost, [0] * 6, None, choice)
            assert list(engine.hand_scores(done, choice)) == want


OPENSPIEL_OPTIONS = dict(first_lead_any_club=True, no_tricks_bonus=-5,
                         no_tricks_bonus_in_moon_hand=False)


@pytest.mark.parametrize("base, changes", [
    ("standard", dict(OPENSPIEL_OPTIONS, jack_of_diamonds_bonus=-10)),
    ("cancellation", dict(OPENSPIEL_OPTIONS, first_leader="two_of_clubs",
                          second_two_of_clubs_follows=True)),
])
def test_the_openspiel_options_verify_clean(base, changes):
    for result in verify_rules(with_options(load_ruleset(base), **changes)):
        assert result.applicable and result.holds, (result.name, result.counterexample)


def test_an_engine_that_ignores_first_lead_any_club_is_caught(monkeypatch):
    import referee.rules.legality as legality

    real = legality.legal_cards

    def only_the_lowest(rules, *args, **kwargs):
        return real(with_options(rules, first_lead_any_club=False), *args, **kwargs)

    monkeypatch.setattr(legality, "legal_cards", only_the_lowest)
    rules = with_options(load_ruleset("standard"), first_lead_any_club=True)
    (result,) = verify_rules(rules, properties={"legal-list-agrees"})
    assert not result.holds and "leading to the first trick" in result.counterexample


def test_the_scoring_model_matches_the_engine_with_the_no_tricks_bonus():
    from referee.rules import engine
    from referee.rules.scoring import hand_scores

    for in_moon in (True, False):
        rules = with_options(load_ruleset("standard"), no_tricks_bonus=-5,
                             no_tricks_bonus_in_moon_hand=in_moon)
        model, ops = as_model(rules), PyOps()
        state = engine.new_game(rules, 4)
        for taken, won in (((26, 0, 0, 0), (10, 3, 0, 0)), ((26, 0, 0, 0), (13, 0, 0, 0)),
                           ((20, 6, 0, 0), (7, 3, 3, 0)), ((0, 0, 13, 13), (0, 0, 6, 7))):
            done = state._replace(taken=taken, tricks_won=won, lost=0)
            want, _ = hand_scores(ops, model, list(taken), 0, [0] * 4,
                                  [w == 0 for w in won], "add")
            assert list(engine.hand_scores(done, "add")) == want
