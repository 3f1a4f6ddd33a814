"""Hand scoring is stated once (referee.rules.scoring); every other copy is held to it here.

* scoring.hand_scores and moon_pattern are the statement itself, run by the rule model too;
* engine.hand_scores / shooter, the concrete copy kept for speed, must equal the statement on
  random hands under every scoring option (penalties, the clean-hand pool and what it carries,
  the two-player moon, no moon at all, ...), and both must equal the rulebook read by hand
  (tests/scoring_by_hand.py, written from R7.3, R7.5 and R8 without the referee's code);
* the statement on z3 terms (Z3Ops) must evaluate to the same numbers;
* the scoresheet law (sheet_laws' define-fun, run by z3, and the audit) must accept every hand
  the engine scores and must agree with the law read by hand (``law_by_hand``) on
  arbitrary score lines.

Worked examples of the options the programs of examples/rulesets/ use, and totals and winners,
are in tests/test_rule_once_scoring_options.py.
"""

from __future__ import annotations

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_by_hand import (
    CANCELLATION,
    NAMES,
    QUICK,
    by_the_rulebook,
    law_by_hand,
    scoring_rules,
    sheet_says,
    sheet_text,
    smt_holds,
)

from referee.judge.scoring import explain
from referee.log.parser import parse_log
from referee.proofs import rulemodel
from referee.proofs.audit import audit_scoresheet
from referee.proofs.sheet_laws import _bonus_bounds
from referee.proofs.smt_ops import smt_int
from referee.rules import engine, scoring
from referee.rules.ops import PLAIN, PyOps
from referee.rules.ruleset import with_options


def _split(draw, total: int, parts: int) -> list[int]:
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total])]


@st.composite
def hands(draw):
    """A hand's outcome as the engine keeps it: who took which points and jacks, what was lost,
    who won no trick, what earlier hands carried to the pool.  A quarter of the hands are
    moons, a sixth two players taking every point between them."""
    rules, n = draw(scoring_rules())
    whole = rules.points_per_hand
    kind = draw(st.integers(0, 11))
    taken, lost = [0] * n, 0
    if kind < 3:
        taken[draw(st.integers(0, n - 1))] = whole
    elif kind < 5:
        first, second = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2,
                                      unique=True))
        taken[first] = draw(st.integers(1, whole - 1))
        taken[second] = whole - taken[first]
    else:
        lost = draw(st.sampled_from([0, 0, 1, 13, whole])) if rules.set_aside_last == "nobody" else 0
        taken = _split(draw, whole - lost, n)
    jacks = [0] * n
    for _ in range(draw(st.integers(0, rules.decks))):
        jacks[draw(st.integers(0, n - 1))] += 1
    tricks_won = [draw(st.integers(1, 3)) if taken[s] or jacks[s] or draw(st.booleans()) else 0
                  for s in range(n)]
    bonus = [j * rules.jack_of_diamonds_bonus for j in jacks]
    carried = draw(st.sampled_from([0, 0, 1, 5, 52, 103])) if rules.clean_hand_pool else 0
    state = engine.new_game(rules, n)._replace(
        phase=engine.Phase.SCORING, taken=tuple(taken), lost=lost, bonus=tuple(bonus),
        tricks_won=tuple(tricks_won), pool=carried)
    return state, jacks


def _choice(rules, index: int) -> str:
    return rules.moon_choices[index % len(rules.moon_choices)]


# -- the rule, by hand ----------------------------------------------------------------------
def test_worked_examples():
    six = engine.new_game(CANCELLATION, 6)
    plain = six._replace(taken=(10, 14, 0, 5, 13, 10), tricks_won=(2, 3, 0, 1, 2, 1))
    assert engine.hand_scores(plain, None) == (10, 14, 0, 5, 13, 10)
    moon = six._replace(taken=(0, 0, 52, 0, 0, 0), tricks_won=(0, 0, 8, 0, 0, 0))
    assert engine.hand_scores(moon, "subtract") == (0, 0, -26, 0, 0, 0)
    assert engine.hand_scores(moon, "add") == (26, 26, 0, 26, 26, 26)
    assert engine.shooter(moon) == 2
    not_moon = six._replace(taken=(0, 0, 51, 0, 0, 0), lost=1)  # R8.4: a point was lost
    assert engine.shooter(not_moon) is None
    assert engine.hand_scores(not_moon, "add") == (0, 0, 51, 0, 0, 0)
    extra = six._replace(taken=(0, 0, 52, 0, 0, 0), lost=13)  # a faulty record's extra cards
    assert engine.shooter(extra) is None and engine.hand_scores(extra, "add")[2] == 52
    assert scoring.shooters(PLAIN, CANCELLATION, extra.taken, 13) == [False] * 6
    twice = six._replace(taken=(0, 52, 0, 52, 0, 0))  # only the first seat counts
    assert engine.shooter(twice) == 1 and engine.hand_scores(twice, "subtract")[3] == 0
    assert scoring.hand_scores(PLAIN, CANCELLATION, twice.taken, 0, [0] * 6, None,
                               "subtract")[0] == [0, -26, 0, 0, 0, 0]
    rules = with_options(CANCELLATION, moon_points=52, jack_of_diamonds_bonus=-10,
                         no_tricks_bonus=-5, no_tricks_bonus_in_moon_hand=False)
    six = engine.new_game(rules, 6)
    jd = six._replace(taken=(10, 14, 0, 5, 13, 10), tricks_won=(2, 3, 0, 1, 2, 1),
                      bonus=(0, -10, 0, 0, -10, 0))
    assert engine.hand_scores(jd, None) == (10, 4, -5, 5, 3, 10)
    moon = six._replace(taken=(0, 52, 0, 0, 0, 0), tricks_won=(0, 8, 0, 0, 0, 0),
                        bonus=(0, -20, 0, 0, 0, 0))
    assert engine.hand_scores(moon, "add") == (52, -20, 52, 52, 52, 52)
    assert engine.hand_scores(moon._replace(rules=with_options(
        rules, no_tricks_bonus_in_moon_hand=True)), "subtract") == (-5, -72, -5, -5, -5, -5)


@QUICK
@given(hand=hands(), choice_index=st.integers(0, 1))
def test_engine_and_the_statement_score_as_the_rulebook_says(hand, choice_index):
    state, jacks = hand
    rules, n = state.rules, state.players
    choice = _choice(rules, choice_index)
    want, shooter, carry, _ = by_the_rulebook(rules, state.taken, state.lost, jacks,
                                              state.tricks_won, choice, state.pool)
    assert list(engine.hand_scores(state, choice)) == want
    assert engine.shooter(state) == shooter
    no_tricks = [w == 0 for w in state.tricks_won]
    scores, shot = scoring.hand_scores(PLAIN, rules, state.taken, state.lost, state.bonus,
                                       no_tricks, choice, state.pool)
    assert scores == want and shot == [s == shooter for s in range(n)]
    if rules.clean_hand_pool:
        assert scoring.pool_shares(PLAIN, rules, state.taken, state.pool)[1] == carry
    model_scores, _ = scoring.hand_scores(PyOps(), rulemodel.as_model(rules),
                                          list(state.taken), state.lost, list(state.bonus),
                                          no_tricks, choice, state.pool)
    assert model_scores == want
    # the engine records the hand so: R7.4 totals, R7.5 what the pool carries
    done = engine.apply(state, choice if shooter is not None else engine.SCORE)
    assert done.history[-1].scores == tuple(want)
    assert done.history[-1].totals == tuple(t + s for t, s in zip(state.totals, want))
    assert done.pool == carry
    if shooter is not None and not rules.clean_hand_pool:
        assert scoring.moon_pattern(PLAIN, rules, engine.hand_scores(
            state._replace(bonus=(0,) * n, tricks_won=(1,) * n), choice), shooter, choice)


@pytest.mark.slow
@settings(QUICK, max_examples=40)
@given(hand=hands(), choice_index=st.integers(0, 1))
def test_the_statement_on_z3_terms_gives_the_same_numbers(hand, choice_index):
    state, jacks = hand
    rules, n = state.rules, state.players
    choice = _choice(rules, choice_index)
    taken = [z3.Int(f"t{s}") for s in range(n)]
    bonus = [z3.Int(f"b{s}") for s in range(n)]
    empty = [z3.Bool(f"e{s}") for s in range(n)]
    lost, carried = z3.Int("lost"), z3.Int("carried")
    scores, _ = scoring.hand_scores(rulemodel.Z3Ops(), rulemodel.as_model(rules), taken, lost,
                                    bonus, empty, choice, carried)
    values = ([(t, z3.IntVal(v)) for t, v in zip(taken, state.taken)]
              + [(b, z3.IntVal(v)) for b, v in zip(bonus, state.bonus)]
              + [(e, z3.BoolVal(w == 0)) for e, w in zip(empty, state.tricks_won)]
              + [(lost, z3.IntVal(state.lost)), (carried, z3.IntVal(state.pool))])
    got = [z3.simplify(z3.substitute(z3.IntVal(0) + s, *values)).as_long() for s in scores]
    assert got == list(engine.hand_scores(state, choice))
    if rules.clean_hand_pool:
        _, carry = scoring.pool_shares(rulemodel.Z3Ops(), rules, taken, carried)
        left = z3.simplify(z3.substitute(z3.IntVal(0) + carry, *values)).as_long()
        assert left == by_the_rulebook(rules, state.taken, state.lost, jacks, state.tricks_won,
                                       choice, state.pool)[2]


# -- the scoresheet law -----------------------------------------------------------------------
@settings(QUICK, max_examples=60)
@given(hand=hands(), choice_index=st.integers(0, 1))
def test_every_scored_hand_satisfies_the_sheet_law(hand, choice_index):
    state, jacks = hand
    rules = state.rules
    choice = _choice(rules, choice_index)
    scores = list(engine.hand_scores(state, choice))
    _, _, _, bonus = by_the_rulebook(rules, state.taken, state.lost, jacks, state.tricks_won,
                                     choice, state.pool)
    if rules.clean_hand_pool:  # R7.5: no line alone is judged
        assert law_by_hand(rules, scores, state.lost, bonus) is None
        assert not scoring.has_score_law(rules)
        return
    assert scoring.has_score_law(rules)
    assert law_by_hand(rules, scores, state.lost, bonus)
    assert sheet_says(rules, scores, state.lost, bonus)
    assert scoring.sheet_law(PLAIN, rules, scores, state.lost, bonus)
    # and what bonuses added is an amount the bonus range allows
    assert smt_holds(_bonus_bounds(rules, state.players).replace("B", smt_int(bonus))) or (
        not scoring.has_bonus(rules) and bonus == 0)


@pytest.mark.slow
@settings(QUICK, max_examples=200)
@given(rules_n=scoring_rules(), data=st.data())
def test_the_sheet_law_agrees_with_the_law_read_by_hand(rules_n, data):
    rules, n = rules_n
    moon, pair = rules.moon_points, rules.pair_moon_points
    scores = data.draw(st.lists(st.sampled_from([0, moon, -moon, pair, 1, 13, 52, -5, -10, -13]),
                                min_size=n, max_size=n))
    if data.draw(st.booleans()):  # aim at the sum law's edge
        scores[0] += (rules.penalty_sign * rules.points_per_hand - sum(scores)
                      + data.draw(st.integers(-1, 1)))
    lost = data.draw(st.sampled_from([0, 0, 1, 13]))
    bonus = data.draw(st.sampled_from([0, 0, -10, -5, 5, -20]))
    want = law_by_hand(rules, scores, lost, bonus)
    assert (want is None) == (not scoring.has_score_law(rules))
    if want is not None:
        assert sheet_says(rules, scores, lost, bonus) == want
        assert scoring.sheet_law(PLAIN, rules, scores, lost, bonus) == want


@pytest.mark.slow
@settings(QUICK, max_examples=100)
@given(rules_n=scoring_rules(), data=st.data())
def test_the_bonus_range_is_what_jacks_and_empty_hands_can_add(rules_n, data):
    rules, n = rules_n
    if not scoring.has_bonus(rules):
        return
    jacks, empty = data.draw(st.integers(0, rules.decks + 1)), data.draw(st.integers(0, n + 1))
    amount = (jacks * rules.jack_of_diamonds_bonus + empty * rules.no_tricks_bonus
              + data.draw(st.sampled_from([0, 0, 1])))
    want = any(j * rules.jack_of_diamonds_bonus + e * rules.no_tricks_bonus == amount
               for j in range(rules.decks + 1) for e in range(n + 1))
    assert smt_holds(_bonus_bounds(rules, n).replace("B", smt_int(amount))) == want


def test_the_audit_reads_a_short_sum_as_lost_points_only_where_points_can_be_lost():
    names = NAMES[:6]
    short = [10, 14, 0, 5, 13, 9]  # 51 of 52
    result = audit_scoresheet(parse_log(sheet_text(names, [short])), CANCELLATION, names)
    assert result.consistent and result.lost == {1: 1}
    leader = with_options(CANCELLATION, set_aside_last="leader")
    result = audit_scoresheet(parse_log(sheet_text(names, [short])), leader, names)
    assert not result.consistent and result.changes == 2  # a score and its total


@pytest.mark.slow  # an audit per example
@settings(QUICK, max_examples=25)
@given(hand=hands(), choice_index=st.integers(0, 1), data=st.data())
def test_the_audit_accepts_scored_hands_and_rejects_what_the_law_rejects(hand, choice_index,
                                                                          data):
    state, _ = hand
    rules, n = state.rules, state.players
    scores = list(engine.hand_scores(state, _choice(rules, choice_index)))
    names = NAMES[:n]
    start = rules.start_total
    result = audit_scoresheet(parse_log(sheet_text(names, [scores], start)), rules, names)
    assert result.consistent, result.text()
    seat, delta = data.draw(st.integers(0, n - 1)), data.draw(st.sampled_from([-1, 1, 26, -13]))
    wrong = [v + (delta if s == seat else 0) for s, v in enumerate(scores)]
    losses = range(rules.points_per_hand + 1) if rules.set_aside_last == "nobody" else [0]
    bonuses = {j * rules.jack_of_diamonds_bonus + e * rules.no_tricks_bonus
               for j in range(rules.decks + 1) for e in range(n + 1)}
    if rules.clean_hand_pool:
        lawful = True  # R7.5: a score line alone is not judged; its totals add up
    else:
        lawful = any(law_by_hand(rules, wrong, lost, b) for lost in losses for b in bonuses)
        # and every score is one a seat can have: the sheet check's plain statement of the
        # bounds the audit states in z3 (no score below 0 outside a moon, none past the decks'
        # points; with penalties the mirror)
        lawful = lawful and explain(rules, wrong, max(losses)) is not None
    result = audit_scoresheet(parse_log(sheet_text(names, [wrong], start)), rules, names)
    assert result.consistent == lawful, result.text()
