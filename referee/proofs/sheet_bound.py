"""A lower bound on the entries any correction of a scoresheet changes, from any point of the
sheet on: what prunes the branch and bound of :mod:`referee.proofs.sheet_exact`, and where it
meets the search's answer (:mod:`referee.proofs.sheet_search`), shows that answer the smallest
at once.

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
the written scores before it).  This walk over ``c`` is solved exactly, backwards from the
end of the sheet, as sets of integer intervals per cost (:func:`costs_to_go`: from which ``c``
before a hand the rest of the sheet costs that much), so a total carried too high to the end
of a sheet costs one change per later line unless some hand's sum can make up the
difference.  Every correction follows one
such path and touches at least the groups it counts, so the bound never exceeds the smallest
correction.
"""

from __future__ import annotations

from referee.rules import scoring
from referee.rules.ruleset import Ruleset

__all__ = ["lower_bound", "costs_to_go", "cost_at"]

Intervals = tuple[tuple[int, int], ...]  # disjoint, sorted, closed
NOTHING: Intervals = ()
EVERYTHING: Intervals = ((-(1 << 62), 1 << 62),)


def lower_bound(rules: Ruleset, start: int, scores: list[list[int]],
                totals: list[list[int | None]], max_lost: list[int], ceiling: int,
                explained) -> int:
    """The bound (at most ``ceiling``): no correction changes fewer of the written entries.

    ``scores`` are every seat's written scores by hand, ``totals`` the written totals (None:
    not written), ``explained(values, max_lost)`` whether a hand's scores meet its law."""
    togo = costs_to_go(rules, start, scores, totals, max_lost, ceiling, explained)
    return cost_at(togo[0], ((0, 0),))


def costs_to_go(rules: Ruleset, start: int, scores: list[list[int]],
                totals: list[list[int | None]], max_lost: list[int], ceiling: int,
                explained) -> list[list[Intervals]]:
    """The same walk read backwards: per hand h (0 to the number of hands), per cost below
    ``ceiling``, the ``c`` before hand h from which hands h and later can be corrected at that
    cost, counting the groups of those hands only (hand h's triples hold the previous total
    line's entries, so they are left out at h)."""
    triples = _triples(start, scores, totals)
    moves, lines = _moves(rules, start, scores, totals, max_lost, explained)
    after: list[Intervals] = [EVERYTHING] + [NOTHING] * (ceiling - 1)
    out = [after]
    for k in range(len(scores) - 1, -1, -1):
        excess = lines[k]
        here = EVERYTHING if excess is None else ((excess, excess),)
        before = EVERYTHING if k == 0 or lines[k - 1] is None else ((lines[k - 1],) * 2,)
        paid = after if excess is None else [
            _union(after[cost - 1] if cost else NOTHING, _meet(after[cost], here))
            for cost in range(ceiling)]
        after = _union_levels([_back(paid, move, before, here, triples[k])
                               for move in moves[k]])
        # hand k's triples hold line k - 1's entries, which a state before hand k has settled
        # (the start, before hand 1, is no entry)
        out.append(after if not triples[k] or k == 0 else _union_levels(
            [_back(paid, move, before, here, 0) for move in moves[k]]))
    out.reverse()
    return out


def cost_at(levels: list[Intervals], sums: Intervals) -> int:
    """The least cost whose set meets ``sums`` (the number of levels when none does)."""
    for cost, reached in enumerate(levels):
        if _meet(reached, sums):
            return cost
    return len(levels)


def _moves(rules: Ruleset, start: int, scores, totals, max_lost: list[int], explained):
    """Per hand, its moves (changes, lowest and highest change of its sum), and per total
    line its written excess (None: not every total written)."""
    from referee.proofs.wording import hand_sum

    n = len(scores[0]) if scores else 0
    patterns = _patterns(rules, n)
    moves, lines, written = [], [], 0
    for k, row in enumerate(scores):
        written += sum(row)
        ends = (hand_sum(rules, max_lost[k]), hand_sum(rules, 0))
        here = [(1, min(ends) - sum(row), max(ends) - sum(row))]
        here += [(max(1, sum(1 for v in row if v not in set(p))), sum(p) - sum(row),
                  sum(p) - sum(row)) for p in patterns]
        here.append((0 if explained(tuple(row), max_lost[k]) else 1, 0, 0))
        moves.append(here)
        line = totals[k]
        lines.append((sum(line) - n * start - written) if None not in line else None)
    return moves, lines


def _back(paid: list[Intervals], move: tuple[int, int, int], before: Intervals,
          here: Intervals, triples: int) -> list[Intervals]:
    """:func:`_step` read backwards: the ``c`` before the hand from which its move reaches,
    at each cost, a ``c`` after it in ``paid`` at the rest of that cost."""
    changes, low, high = move
    costly = max(changes, triples)
    out = []
    for cost in range(len(paid)):
        parts = []
        if cost >= changes:
            target = paid[cost - changes]
            parts.append(_minus(_shift(target, -high, -low), before))
            parts.append(_meet(_shift(_minus(target, here), -high, -low), before))
        if cost >= costly:
            parts.append(_meet(_shift(_meet(paid[cost - costly], here), -high, -low), before))
        out.append(_union(*parts))
    return out


def _union_levels(options: list[list[Intervals]]) -> list[Intervals]:
    return [_union(*level) for level in zip(*options)]


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
