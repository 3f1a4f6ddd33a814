"""This module scores a hand (R7.2, R7.3, R8), stated once over an *ops* object
(:mod:`referee.rules.ops`).

:func:`hand_scores` is the rule, run by the engine on plain values and by the proofs on z3
terms.  :func:`sheet_law` is what a scoresheet line must satisfy when only its numbers are
known; its moon patterns are read off :func:`moon_scores`, so the two cannot drift apart."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from referee.rules.ops import PLAIN
from referee.rules.options import MoonChoice
from referee.rules.ruleset import Ruleset


def shooters(ops, rules: Ruleset, taken: Sequence, lost) -> list:
    """Tell, per seat, whether this seat shot the moon, i.e. took every point of the decks with
    none lost (R8.1, R8.4).  Only the first such seat counts (two can only come from a faulty
    record)."""
    whole, none_lost = rules.points_per_hand, ops.eq(lost, 0)
    if not rules.shooting_the_moon:
        return [False] * len(taken)
    shot: list = []
    for points in taken:
        shot.append(ops.and_([none_lost, ops.eq(points, whole), ops.not_(ops.or_(shot))]))
    return shot


def moon_score(ops, rules: Ruleset, choice: str | None, shot):
    """Score a seat in a moon hand before bonuses (R8.2); any choice but subtract adds."""
    if choice == MoonChoice.SUBTRACT:
        return ops.ite(shot, -rules.moon_points, 0)
    return ops.ite(shot, 0, rules.moon_points)


def moon_pair(ops, rules: Ruleset, taken: Sequence, lost) -> tuple[object, list]:
    """Apply R8.6: return (two seats took every point between them with nobody else scoring,
    per seat: this seat scored)."""
    scored = [ops.not_(ops.eq(points, 0)) for points in taken]
    if not rules.pair_moon_points:
        return False, scored
    two = ops.eq(ops.sum([ops.ite(hit, 1, 0) for hit in scored]), 2)
    return ops.and_([ops.eq(lost, 0), two]), scored


def pool_shares(ops, rules: Ruleset, taken: Sequence, carried) -> tuple[list, object]:
    """Share the clean-hand pool (R7.5): return (each seat's share, what carries to the next
    hand); the pool is shared equally, rounded down, by the seats that took no point."""
    pool = _plus(ops, [rules.clean_hand_pool, carried])
    clean = [ops.eq(points, 0) for points in taken]
    count = ops.sum([ops.ite(hit, 1, 0) for hit in clean])
    nobody = ops.eq(count, 0)
    divisor = ops.ite(nobody, 1, count)
    share = ops.div(pool, divisor)
    shares = [ops.ite(hit, share, 0) for hit in clean]
    return shares, ops.ite(nobody, pool, ops.mod(pool, divisor))


def _points_score(ops, rules: Ruleset, points):
    return points if rules.penalty_sign == 1 else ops.times(rules.penalty_sign, points)


def hand_scores(ops, rules: Ruleset, taken: Sequence, lost, bonus: Sequence,
                no_tricks: Sequence | None, choice: str | None,
                carried=0) -> tuple[list, list]:
    """Return (scores, shooters) of a hand (R7.3, R8): the points taken (times
    ``penalty_sign``) or the moon scores of ``choice``, plus the clean-hand pool's shares
    (R7.5), ``bonus`` and the no-tricks bonus for each seat whose ``no_tricks`` holds (None: no
    seat)."""
    shot = shooters(ops, rules, taken, lost)
    moon = ops.or_(shot)
    pair, scored = moon_pair(ops, rules, taken, lost)
    base = [ops.ite(pair, ops.ite(hit, 0, rules.pair_moon_points), _points_score(ops, rules, p))
            for hit, p in zip(scored, taken)] if rules.pair_moon_points else [
        _points_score(ops, rules, p) for p in taken]
    if rules.clean_hand_pool:
        shares = pool_shares(ops, rules, taken, carried)[0]
        bonus = [_plus(ops, [plus, share]) for plus, share in zip(bonus, shares)]
    scores = [ops.sum([ops.ite(moon, moon_score(ops, rules, choice, hit), points), plus])
              for hit, points, plus in zip(shot, base, bonus)]
    if no_tricks is not None and rules.no_tricks_bonus:
        if not rules.no_tricks_bonus_in_moon_hand:
            no_tricks = [ops.and_([empty, ops.not_(moon)]) for empty in no_tricks]
        scores = [ops.sum([score, ops.ite(empty, rules.no_tricks_bonus, 0)])
                  for score, empty in zip(scores, no_tricks)]
    return scores, shot


@lru_cache(maxsize=256)  # a pure function of its arguments, asked several times per sheet line
def moon_scores(rules: Ruleset, players: int, shooter: int, choice: str) -> tuple[int, ...]:
    """Score a hand in which ``shooter`` shot the moon with ``choice``, no bonuses."""
    taken = [rules.points_per_hand if seat == shooter else 0 for seat in range(players)]
    return tuple(hand_scores(PLAIN, rules, taken, 0, [0] * players, None, choice)[0])


def moon_pattern(ops, rules: Ruleset, scores: Sequence, shooter: int, choice: str):
    """Tell whether the scores read as a moon by ``shooter`` with ``choice`` (R8.2), without
    bonuses."""
    want = moon_scores(rules, len(scores), shooter, choice)
    return ops.and_([ops.eq(a, b) for a, b in zip(scores, want)])


# -- the scoresheet law ---------------------------------------------------------------------
def has_bonus(rules: Ruleset) -> bool:
    return bool(rules.jack_of_diamonds_bonus or rules.no_tricks_bonus)


def _plus(ops, terms: Sequence):
    """Sum ``terms`` with the constants added up first (no ``+ 0`` in a term)."""
    constant = sum(t for t in terms if isinstance(t, int))
    rest = [t for t in terms if not isinstance(t, int)]
    if not rest:
        return constant
    return ops.sum(rest + [constant] if constant else rest)


def has_score_law(rules: Ruleset) -> bool:
    """Tell whether a score line alone can be judged: with a clean-hand pool (R7.5) the shares
    depend on what earlier hands carried, which the sheet does not show."""
    return not rules.clean_hand_pool


def sum_law(ops, rules: Ruleset, scores: Sequence, lost, bonus):
    """State R7.2: the scores sum to the decks' points less ``lost`` plus what bonuses add
    (R7.3: with penalties, to minus that)."""
    if rules.penalty_sign != 1:
        return ops.eq(_plus(ops, [*scores, rules.points_per_hand]), _plus(ops, [lost, bonus]))
    return ops.eq(_plus(ops, [*scores, lost]), _plus(ops, [rules.points_per_hand, bonus]))


def moon_law(ops, rules: Ruleset, scores: Sequence, lost, bonus):
    """State that the scores are an allowed moon pattern (R8.2, R8.6) plus what bonuses add,
    with nothing lost.  With bonuses (which the sheet does not itemise) only the pattern's sum
    is required."""
    patterns = []
    for choice in (rules.moon_choices if rules.shooting_the_moon else ()):
        pattern = moon_scores(rules, len(scores), 0, choice)
        patterns.append(_pattern_law(ops, rules, scores, lost, bonus, pattern))
    if rules.pair_moon_points:  # at a table of two, both score 0
        pair = [0, 0] + [rules.pair_moon_points] * (len(scores) - 2)
        patterns.append(_pattern_law(ops, rules, scores, lost, bonus, pair))
    return ops.or_(patterns)


def _pattern_law(ops, rules: Ruleset, scores: Sequence, lost, bonus, pattern: Sequence[int]):
    exact = not has_bonus(rules)
    pieces = [ops.eq(lost, 0), ops.eq(_plus(ops, scores), _plus(ops, [sum(pattern), bonus]))]
    if exact:
        values = sorted(set(pattern), key=abs)
        pieces += [ops.or_([ops.eq(v, value) for value in values]) for v in scores]
    return ops.and_(pieces)


def sheet_law(ops, rules: Ruleset, scores: Sequence, lost, bonus):
    """State what a hand's score line must satisfy (R7.2, R8.2): the sum law or a moon
    pattern."""
    return ops.or_([sum_law(ops, rules, scores, lost, bonus),
                    moon_law(ops, rules, scores, lost, bonus)])


def bonus_range(ops, rules: Ruleset, players: int, jacks, empty) -> tuple[list, object]:
    """Bound what bonuses can add to a hand's scores (R7.3): ``jacks`` jacks of diamonds taken
    (at most one per deck) and ``empty`` players who won no trick; return (bounds, the
    amount)."""
    bounds = [ops.ge(jacks, 0), ops.ge(rules.decks, jacks), ops.ge(empty, 0),
              ops.ge(players, empty)]
    amount = _plus(ops, [ops.times(points, count) for points, count in
                         ((rules.jack_of_diamonds_bonus, jacks), (rules.no_tricks_bonus, empty))
                         if points])
    return bounds, amount
