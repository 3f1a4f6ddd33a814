"""A lower bound on the entries any correction of a scoresheet changes, which makes the
search's answer (:mod:`referee.proofs.sheet_search`) exact when the two meet.

The bound counts disjoint groups of written entries, each of which every correction must
touch at least once:

- a hand's score line, when the hand's true scores sum to another value than the written ones
  (at least one score changes; a moon reading needs every score that is not one of the
  pattern's values changed);
- a total line, when its true totals sum to another value than the written ones (at least one
  total changes);
- a seat whose previous total, score and total disagree, in a hand where neither of the two
  groups above is counted (at least one of the three changes; no two such triples share an
  entry).

What a correction does to the sums is a path: ``c``, how far the true scores of hands 1..k
sum from the written ones, moves by what each hand's law lets its sum become, and total line k
keeps its sum only where ``c`` equals that line's written excess (its total less the start and
the written scores before it).  This walk over ``c`` is solved exactly, as sets of integer
intervals per cost, so a total carried too high to the end of a sheet costs one change per
later line unless some hand's sum can make up the difference.  Every correction follows one
such path and touches at least the groups it counts, so the bound never exceeds the smallest
correction.
"""

from __future__ import annotations

from referee.rules import scoring
from referee.rules.ruleset import Ruleset

__all__ = ["lower_bound"]

Intervals = tuple[tuple[int, int], ...]  # disjoint, sorted, closed
NOTHING: Intervals = ()
EVERYTHING: Intervals = ((-(1 << 62), 1 << 62),)


def lower_bound(rules: Ruleset, start: int, scores: list[list[int]],
                totals: list[list[int | None]], max_lost: list[int], ceiling: int,
                explained) -> int:
    """The bound (at most ``ceiling``): no correction changes fewer of the written entries.

    ``scores`` are every seat's written scores by hand, ``totals`` the written totals (None:
    not written), ``explained(values, max_lost)`` whether a hand's scores meet its law."""
    from referee.proofs.wording import hand_sum

    n = len(scores[0]) if scores else 0
    triples = _triples(start, scores, totals)
    patterns = _patterns(rules, n)
    reach: list[Intervals] = [((0, 0),)] + [NOTHING] * (ceiling - 1)  # cost -> c reached
    before = EVERYTHING  # the c that keep the previous total line's sum (the start: any)
    written = 0
    for k, row in enumerate(scores):
        written += sum(row)
        ends = (hand_sum(rules, max_lost[k]), hand_sum(rules, 0))
        moves = [(1, min(ends) - sum(row), max(ends) - sum(row))]
        moves += [(max(1, sum(1 for v in row if v not in set(p))), sum(p) - sum(row),
                   sum(p) - sum(row)) for p in patterns]
        # the written scores as they stand, when they meet the law: no change
        moves.append((0 if explained(tuple(row), max_lost[k]) else 1, 0, 0))
        line = totals[k]
        excess = (sum(line) - n * start - written) if None not in line else None
        here = EVERYTHING if excess is None else ((excess, excess),)
        reach = _after_line(_union_levels([_step(reach, move, before, here, triples[k])
                                           for move in moves]), excess)
        before = here
    for cost, reached in enumerate(reach):
        if reached:
            return cost
    return ceiling


def _step(reach: list[Intervals], move: tuple[int, int, int], before: Intervals,
          here: Intervals, triples: int) -> list[Intervals]:
    """Where a hand's move (changes, lowest and highest change of its sum) takes each ``c``.

    From a ``c`` that keeps the previous total line's sum to one that keeps this line's sum,
    the hand's disagreeing triples each need a change of their own in this hand."""
    changes, low, high = move
    costly = max(changes, triples)
    out = []
    for cost in range(len(reach)):
        parts = []
        if cost >= changes:
            source = reach[cost - changes]
            parts.append(_shift(_minus(source, before), low, high))
            parts.append(_minus(_shift(_meet(source, before), low, high), here))
        if cost >= costly:
            parts.append(_meet(_shift(_meet(reach[cost - costly], before), low, high), here))
        out.append(_union(*parts))
    return out


def _union_levels(options: list[list[Intervals]]) -> list[Intervals]:
    return [_union(*level) for level in zip(*options)]


def _after_line(levels: list[Intervals], excess: int | None) -> list[Intervals]:
    """A total line whose written excess is ``excess`` (None: not every total written): one
    change more wherever ``c`` misses it."""
    if excess is None:
        return levels
    point = ((excess, excess),)
    return [_union(levels[cost - 1] if cost else NOTHING, _meet(levels[cost], point))
            for cost in range(len(levels))]


def _triples(start: int, scores, totals) -> list[int]:
    """Per hand, the seats whose previous total, score and total disagree, no two of one
    seat in consecutive hands (they would share a total)."""
    n = len(scores[0]) if scores else 0
    chosen = [0] * len(scores)
    last = [-2] * n
    for k, row in enumerate(scores):
        for p in range(n):
            before = start if k == 0 else totals[k - 1][p]
            total = totals[k][p]
            if before is None or total is None or before + row[p] == total:
                continue
            if last[p] == k - 1:
                continue
            last[p] = k
            chosen[k] += 1
    return chosen


def _patterns(rules: Ruleset, n: int) -> list[tuple[int, ...]]:
    found = [scoring.moon_scores(rules, n, 0, choice)
             for choice in (rules.moon_choices if rules.shooting_the_moon else ())]
    if rules.pair_moon_points:
        found.append((0, 0) + (rules.pair_moon_points,) * (n - 2))
    return found


def _union(*sets: Intervals) -> Intervals:
    items = sorted(i for s in sets for i in s)
    out: list[tuple[int, int]] = []
    for lo, hi in items:
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def _shift(s: Intervals, low: int, high: int) -> Intervals:
    return _union(tuple((lo + low, hi + high) for lo, hi in s))


def _meet(a: Intervals, b: Intervals) -> Intervals:
    out = []
    for lo, hi in a:
        for blo, bhi in b:
            if max(lo, blo) <= min(hi, bhi):
                out.append((max(lo, blo), min(hi, bhi)))
    return _union(tuple(out))


def _minus(a: Intervals, b: Intervals) -> Intervals:
    out = list(a)
    for blo, bhi in b:
        kept = []
        for lo, hi in out:
            if hi < blo or lo > bhi:
                kept.append((lo, hi))
                continue
            if lo < blo:
                kept.append((lo, blo - 1))
            if hi > bhi:
                kept.append((bhi + 1, hi))
        out = kept
    return tuple(out)
