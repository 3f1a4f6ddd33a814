"""Hand scoring and the scoresheet law as the rulebook states them, written from spec/rules.md
without the referee's code, with the rulesets and the strategies the scoring tests draw from."""

from __future__ import annotations

from pathlib import Path

import z3
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from referee.proofs.sheet_laws import _score_fun
from referee.proofs.smt_ops import DEFINITIONS, smt_int
from referee.rules.ruleset import load_ruleset, with_options

ROOT = Path(__file__).resolve().parents[1]
CANCELLATION = load_ruleset("cancellation")
STANDARD = load_ruleset("standard")
# the rulesets of three Hearts programs, as examples/rulesets/ writes them down
PROGRAM_RULESETS = tuple(load_ruleset(str(ROOT / "examples/rulesets" / f"{name}.toml")) for name in (
    "DoubleDeckCancellationHearts", "cancellation-hearts", "cancellation-oregonian-hearts"))
QUICK = settings(max_examples=150, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
NAMES = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim"]


@st.composite
def scoring_rules(draw):
    """A ruleset with every option that changes scoring drawn (each keeps its base's value
    about half the time, so the programs' own rulesets come up too), and a player
    count.  Validation allows penalty_sign 1 or -1, any pool from 0 and any table from two."""
    base = draw(st.sampled_from([CANCELLATION, STANDARD, *PROGRAM_RULESETS]))

    def pick(option, *values):
        return draw(st.sampled_from([getattr(base, option), getattr(base, option), *values]))

    options = {
        "moon_points": pick("moon_points", 0, 26, 52, 104),
        "moon_choices": pick("moon_choices", ("subtract", "add"), ("add",), ("subtract",)),
        "jack_of_diamonds_bonus": pick("jack_of_diamonds_bonus", 0, -10, 5),
        "no_tricks_bonus": pick("no_tricks_bonus", 0, -5, 3),
        "no_tricks_bonus_in_moon_hand": pick("no_tricks_bonus_in_moon_hand", True, False),
        "set_aside_last": pick("set_aside_last", "nobody", "leader"),
        "penalty_sign": pick("penalty_sign", 1, -1),
        "start_total": pick("start_total", 0, 100, -7),
        "clean_hand_pool": pick("clean_hand_pool", 0, 52, 7),
        "pair_moon_points": pick("pair_moon_points", 0, 26, 13, 104, -13),
        "shooting_the_moon": pick("shooting_the_moon", True, False),
        "first_trick_points_whole_hand": pick("first_trick_points_whole_hand", True, False),
        "winning_total": pick("winning_total", "lowest", "highest"),
    }
    if draw(st.integers(0, 5)) == 0:  # small tables, down to the two validation allows
        options["min_players"] = options["max_players"] = draw(st.integers(2, 5))
    rules = with_options(base, **options)
    return rules, draw(st.integers(rules.min_players, rules.max_players))


def by_the_rulebook(rules, taken, lost, jacks, tricks_won, choice, carried=0):
    """(scores, shooter, what the pool carries, what bonuses added) of a hand, read from the
    rulebook.  R7.3: a hand scores the points taken, negated with ``penalty_sign = -1``.
    R8.1/R8.4: a player who took every point with none lost shot the moon (unless
    ``shooting_the_moon = false``), and R8.2: the shooter's choice replaces the scores.
    R8.6: otherwise, when exactly two players took points and none was lost, the two score 0
    and everyone else ``pair_moon_points`` (read as its own option: ``shooting_the_moon =
    false`` turns off R8.1's moon only, and a two-player moon is not "the moon was shot" for
    the no-tricks bonus).  R7.5: the pool (P plus ``carried``) is shared,
    rounded down, by the players who took no point; the remainder, or all of it when every
    player took points, carries.  R7.3: each jack of diamonds and, when the ruleset says so
    (not in a hand where the moon was shot, with ``no_tricks_bonus_in_moon_hand = false``),
    winning no trick add their bonus."""
    n, whole = len(taken), rules.points_per_hand
    shooter = next((s for s in range(n) if taken[s] == whole and lost == 0), None)
    if not rules.shooting_the_moon:
        shooter = None
    scorers = [s for s in range(n) if taken[s] > 0]
    if shooter is not None and choice == "subtract":
        scores = [-rules.moon_points if s == shooter else 0 for s in range(n)]
    elif shooter is not None:
        scores = [0 if s == shooter else rules.moon_points for s in range(n)]
    elif rules.pair_moon_points and len(scorers) == 2 and lost == 0:
        scores = [0 if s in scorers else rules.pair_moon_points for s in range(n)]
    else:
        scores = [rules.penalty_sign * t for t in taken]
    carry = 0
    if rules.clean_hand_pool:
        pool = rules.clean_hand_pool + carried
        clean = [s for s in range(n) if taken[s] == 0]
        for s in clean:
            scores[s] += pool // len(clean)
        carry = pool - len(clean) * (pool // len(clean)) if clean else pool
    added = 0
    for s in range(n):
        plus = jacks[s] * rules.jack_of_diamonds_bonus
        if tricks_won[s] == 0 and (shooter is None or rules.no_tricks_bonus_in_moon_hand):
            plus += rules.no_tricks_bonus
        scores[s] += plus
        added += plus
    return scores, shooter, carry, added


def law_by_hand(rules, scores, lost, bonus):
    """R7.2, R7.3, R8.2 and R8.6 for a score line; None where a line alone is not judged (R7.5:
    a pool's shares hang on what earlier hands carried).  The scores sum to the decks' points
    less ``lost`` (with penalties, minus that) plus ``bonus``; or, nothing lost, they sum to
    an allowed pattern's sum plus ``bonus`` and, without bonus options, each is 0 or the
    pattern's one other value.  The patterns: a moon's (unless there is none), subtract
    (-moon, once) or add (+moon, n - 1 times), and the two-player moon's (P, n - 2 times)."""
    if rules.clean_hand_pool:
        return None
    n, moon = len(scores), rules.moon_points
    if sum(scores) == rules.penalty_sign * (rules.points_per_hand - lost) + bonus:
        return True
    patterns = []
    if rules.shooting_the_moon:
        patterns += [(-moon, -moon) if choice == "subtract" else (moon, (n - 1) * moon)
                     for choice in rules.moon_choices]
    if rules.pair_moon_points:
        patterns.append((rules.pair_moon_points, (n - 2) * rules.pair_moon_points))
    bonuses = rules.jack_of_diamonds_bonus or rules.no_tricks_bonus
    return any(lost == 0 and sum(scores) == total + bonus
               and (bonuses or all(v in (0, each) for v in scores))
               for each, total in patterns)


def smt_holds(formula: str) -> bool:
    solver = z3.Solver(ctx=z3.Context())
    solver.from_string(" ".join(DEFINITIONS.values()) + f" (assert (not {formula}))")
    return solver.check() == z3.unsat


def sheet_says(rules, scores, lost, bonus) -> bool:
    name = _score_fun(rules, len(scores))
    return smt_holds(f"({name} {' '.join(map(smt_int, scores))} {smt_int(lost)} {smt_int(bonus)})")


def sheet_text(names, hands_scores, start=0) -> str:
    lines = [f'[Players "{" ".join(names)}"]']
    totals = [start] * len(names)
    for scores in hands_scores:
        totals = [t + s for t, s in zip(totals, scores)]
        lines.append("score: " + ", ".join(f"{p} {v}" for p, v in zip(names, scores)))
        lines.append("total: " + ", ".join(f"{p} {v}" for p, v in zip(names, totals)))
    return "\n".join(lines) + "\n"
