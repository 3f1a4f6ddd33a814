"""Hand scoring is stated once (referee.rules.scoring); every other copy is held to it here.

* rulemodel.hand_scores and moon_pattern are the statement itself (re-exported);
* engine.hand_scores / shooter, the concrete copy kept for speed, must equal the statement on
  random hands under every scoring option, and both must equal the rulebook read by hand
  (:func:`by_the_rulebook`, written from R7.3 and R8 without the referee's code);
* the statement on z3 terms (Z3Ops) must evaluate to the same numbers;
* the scoresheet law (sheet_laws' define-fun, run by z3, and the audit) must accept every hand
  the engine scores and must agree with the law read by hand (:func:`law_by_hand`) on
  arbitrary score lines.
"""

from __future__ import annotations

import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.check.scoring import explain
from referee.log.parser import parse_log
from referee.proofs import rulemodel
from referee.proofs.audit import audit_scoresheet
from referee.proofs.sheet_laws import _bonus_bounds, _score_fun
from referee.proofs.smt import DEFINITIONS, smt_int
from referee.rules import engine, scoring
from referee.rules.ops import PLAIN
from referee.rules.ruleset import load_ruleset, with_options

CANCELLATION = load_ruleset("cancellation")
STANDARD = load_ruleset("standard")
QUICK = settings(max_examples=150, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
NAMES = "Al Bo Cy Di Ed Flo Gus Hal Ida Jo Kim".split()


@st.composite
def scoring_rules(draw):
    """A ruleset with every option that changes scoring drawn, and a player count."""
    base = draw(st.sampled_from([CANCELLATION, STANDARD]))
    rules = with_options(
        base,
        moon_points=draw(st.sampled_from([0, 26, 52])),
        moon_choices=draw(st.sampled_from([["subtract", "add"], ["add"], ["subtract"]])),
        jack_of_diamonds_bonus=draw(st.sampled_from([0, -10, 5])),
        no_tricks_bonus=draw(st.sampled_from([0, -5, 3])),
        no_tricks_bonus_in_moon_hand=draw(st.booleans()),
        set_aside_last=draw(st.sampled_from(["nobody", "leader"])),
    )
    return rules, draw(st.integers(rules.min_players, rules.max_players))


@st.composite
def hands(draw):
    """A hand's outcome as the engine keeps it: who took which points and jacks, what was lost,
    who won no trick.  A third of the hands are moons."""
    rules, n = draw(scoring_rules())
    whole = rules.points_per_hand
    if draw(st.integers(0, 2)) == 0:
        taken, lost = [0] * n, 0
        taken[draw(st.integers(0, n - 1))] = whole
    else:
        lost = draw(st.sampled_from([0, 0, 1, 13, whole])) if rules.set_aside_last == "nobody" else 0
        cuts = sorted(draw(st.lists(st.integers(0, whole - lost), min_size=n - 1, max_size=n - 1)))
        taken = [b - a for a, b in zip([0, *cuts], [*cuts, whole - lost])]
    jacks = [0] * n
    for _ in range(draw(st.integers(0, rules.decks))):
        jacks[draw(st.integers(0, n - 1))] += 1
    tricks_won = [draw(st.integers(1, 3)) if taken[s] or jacks[s] or draw(st.booleans()) else 0
                  for s in range(n)]
    bonus = [j * rules.jack_of_diamonds_bonus for j in jacks]
    state = engine.new_game(rules, n)._replace(
        phase=engine.Phase.SCORING, taken=tuple(taken), lost=lost, bonus=tuple(bonus),
        tricks_won=tuple(tricks_won))
    return state, jacks


def by_the_rulebook(rules, taken, lost, jacks, tricks_won, choice):
    """R7.3: a hand scores the points taken; R8.1/R8.2: unless one player took every point
    with none lost, when the shooter's choice decides; then each jack of diamonds taken and,
    when the ruleset says so, winning no trick add their bonus."""
    n = len(taken)
    shooter = next((s for s in range(n) if taken[s] == rules.points_per_hand and not lost), None)
    if shooter is None:
        scores = list(taken)
    elif choice == "subtract":
        scores = [0] * n
        scores[shooter] = -rules.moon_points
    else:
        scores = [rules.moon_points] * n
        scores[shooter] = 0
    for s in range(n):
        scores[s] += jacks[s] * rules.jack_of_diamonds_bonus
        if tricks_won[s] == 0 and (shooter is None or rules.no_tricks_bonus_in_moon_hand):
            scores[s] += rules.no_tricks_bonus
    return scores, shooter


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
    rules = state.rules
    choice = rules.moon_choices[choice_index % len(rules.moon_choices)]
    want, shooter = by_the_rulebook(rules, state.taken, state.lost, jacks, state.tricks_won,
                                    choice)
    assert list(engine.hand_scores(state, choice)) == want
    assert engine.shooter(state) == shooter
    no_tricks = [w == 0 for w in state.tricks_won]
    scores, shot = scoring.hand_scores(PLAIN, rules, state.taken, state.lost, state.bonus,
                                       no_tricks, choice)
    assert scores == want and shot == [s == shooter for s in range(state.players)]
    model_scores, _ = rulemodel.hand_scores(rulemodel.PyOps(), rulemodel.as_model(rules),
                                            list(state.taken), state.lost, list(state.bonus),
                                            choice, no_tricks)
    assert model_scores == want
    if shooter is not None:
        assert rulemodel.moon_pattern(PLAIN, rules, engine.hand_scores(
            state._replace(bonus=(0,) * state.players, tricks_won=(1,) * state.players),
            choice), shooter, choice)


@settings(QUICK, max_examples=40)
@given(hand=hands(), choice_index=st.integers(0, 1))
def test_the_statement_on_z3_terms_gives_the_same_numbers(hand, choice_index):
    state, jacks = hand
    rules, n = state.rules, state.players
    choice = rules.moon_choices[choice_index % len(rules.moon_choices)]
    taken = [z3.Int(f"t{s}") for s in range(n)]
    bonus = [z3.Int(f"b{s}") for s in range(n)]
    empty = [z3.Bool(f"e{s}") for s in range(n)]
    lost = z3.Int("lost")
    scores, _ = rulemodel.hand_scores(rulemodel.Z3Ops(), rulemodel.as_model(rules), taken, lost,
                                      bonus, choice, empty)
    values = ([(t, z3.IntVal(v)) for t, v in zip(taken, state.taken)]
              + [(b, z3.IntVal(v)) for b, v in zip(bonus, state.bonus)]
              + [(e, z3.BoolVal(w == 0)) for e, w in zip(empty, state.tricks_won)]
              + [(lost, z3.IntVal(state.lost))])
    got = [z3.simplify(z3.substitute(z3.IntVal(0) + s, *values)).as_long() for s in scores]
    assert got == list(engine.hand_scores(state, choice))


# -- the scoresheet law -----------------------------------------------------------------------
def law_by_hand(rules, scores, lost, bonus):
    """R7.2 and R8.2 for a score line: the scores sum to the decks' points less ``lost`` plus
    ``bonus``, or (nothing lost) they sum to an allowed moon pattern's sum plus ``bonus`` and,
    without bonus options, each is 0 or the pattern's one other value."""
    n, moon = len(scores), rules.moon_points
    if sum(scores) == rules.points_per_hand - lost + bonus:
        return True
    bonuses = rules.jack_of_diamonds_bonus or rules.no_tricks_bonus
    for choice in rules.moon_choices:
        each, total = (-moon, -moon) if choice == "subtract" else (moon, (n - 1) * moon)
        if lost == 0 and sum(scores) == total + bonus and (
                bonuses or all(v in (0, each) for v in scores)):
            return True
    return False


def smt_holds(formula: str) -> bool:
    solver = z3.Solver(ctx=z3.Context())
    solver.from_string(" ".join(DEFINITIONS.values()) + f" (assert (not {formula}))")
    return solver.check() == z3.unsat


def sheet_says(rules, scores, lost, bonus) -> bool:
    name = _score_fun(rules, len(scores))
    return smt_holds(f"({name} {' '.join(map(smt_int, scores))} {smt_int(lost)} {smt_int(bonus)})")


def sheet_text(names, hands_scores) -> str:
    lines = [f'[Players "{" ".join(names)}"]']
    totals = [0] * len(names)
    for scores in hands_scores:
        totals = [t + s for t, s in zip(totals, scores)]
        lines.append("score: " + ", ".join(f"{p} {v}" for p, v in zip(names, scores)))
        lines.append("total: " + ", ".join(f"{p} {v}" for p, v in zip(names, totals)))
    return "\n".join(lines) + "\n"


@settings(QUICK, max_examples=60)
@given(hand=hands(), choice_index=st.integers(0, 1))
def test_every_scored_hand_satisfies_the_sheet_law(hand, choice_index):
    state, jacks = hand
    rules = state.rules
    choice = rules.moon_choices[choice_index % len(rules.moon_choices)]
    scores = list(engine.hand_scores(state, choice))
    bonus = sum(scores) - (sum(state.taken) if engine.shooter(state) is None else
                           sum(scoring.moon_scores(rules, state.players, 0, choice)))
    assert law_by_hand(rules, scores, state.lost, bonus)
    assert sheet_says(rules, scores, state.lost, bonus)
    assert scoring.sheet_law(PLAIN, rules, scores, state.lost, bonus)
    empty = sum(w == 0 for w in state.tricks_won)
    if engine.shooter(state) is not None and not rules.no_tricks_bonus_in_moon_hand:
        empty = 0
    assert bonus == sum(jacks) * rules.jack_of_diamonds_bonus + empty * rules.no_tricks_bonus


@settings(QUICK, max_examples=200)
@given(rules_n=scoring_rules(), data=st.data())
def test_the_sheet_law_agrees_with_the_law_read_by_hand(rules_n, data):
    rules, n = rules_n
    moon = rules.moon_points
    scores = data.draw(st.lists(st.sampled_from([0, moon, -moon, 1, 13, 52, -5, -10]),
                                min_size=n, max_size=n))
    if data.draw(st.booleans()):  # aim at the sum law's edge
        scores[0] += rules.points_per_hand - sum(scores) + data.draw(st.integers(-1, 1))
    lost = data.draw(st.sampled_from([0, 0, 1, 13]))
    bonus = data.draw(st.sampled_from([0, 0, -10, -5, 5, -20]))
    want = law_by_hand(rules, scores, lost, bonus)
    assert sheet_says(rules, scores, lost, bonus) == want
    assert scoring.sheet_law(PLAIN, rules, scores, lost, bonus) == want


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


@settings(QUICK, max_examples=25)
@given(hand=hands(), choice_index=st.integers(0, 1), data=st.data())
def test_the_audit_accepts_scored_hands_and_rejects_what_the_law_rejects(hand, choice_index,
                                                                          data):
    state, _ = hand
    rules, n = state.rules, state.players
    choice = rules.moon_choices[choice_index % len(rules.moon_choices)]
    scores = list(engine.hand_scores(state, choice))
    names = NAMES[:n]
    result = audit_scoresheet(parse_log(sheet_text(names, [scores])), rules, names)
    assert result.consistent, result.text()
    seat, delta = data.draw(st.integers(0, n - 1)), data.draw(st.sampled_from([-1, 1, 26, -13]))
    wrong = [v + (delta if s == seat else 0) for s, v in enumerate(scores)]
    losses = range(rules.points_per_hand + 1) if rules.set_aside_last == "nobody" else [0]
    bonuses = {j * rules.jack_of_diamonds_bonus + e * rules.no_tricks_bonus
               for j in range(rules.decks + 1) for e in range(n + 1)}
    lawful = any(law_by_hand(rules, wrong, lost, b) for lost in losses for b in bonuses)
    # and every score is one a seat can have: the sheet check's plain statement of the bounds
    # the audit states in z3 (no score below 0 outside a moon, none past the decks' points)
    lawful = lawful and explain(rules, wrong, max(losses)) is not None
    result = audit_scoresheet(parse_log(sheet_text(names, [wrong])), rules, names)
    assert result.consistent == lawful, result.text()
