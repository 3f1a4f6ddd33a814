"""This module decides without z3 whether a scoresheet has a correction of fewer than a given
number of entries (what shows :mod:`referee.proofs.sheet_search`'s correction the smallest): it
runs a branch and bound over the hands on each seat's error in its totals (symbols tied by one
hand's law kept as the set of values their sum may take), pruned by the cost still ahead
(:func:`costs_to_go`).
The question is wider than the sheet's, never narrower: "no correction of fewer entries" is
exact, a correction found only "perhaps" (then the audit asks z3).
"""

from __future__ import annotations

import time

from referee.judge.scoring import explain, seat_ranges
from referee.proofs.wording import hand_sum
from referee.rules import scoring
from referee.rules.ruleset import Ruleset

__all__ = ["MAX_STATES", "conflicts", "cost_at", "costs_to_go", "explain_memo", "fewer_exists",
           "moon_patterns"]

MAX_STATES = 200_000  # states searched before the answer is "not decided"
Intervals = tuple[tuple[int, int], ...]  # disjoint, sorted, closed
NOTHING: Intervals = ()
EVERYTHING: Intervals = ((-(1 << 62), 1 << 62),)


def costs_to_go(rules: Ruleset, start: int, scores: list[list[int]],
                totals: list[list[int | None]], max_lost: list[int], ceiling: int,
                ) -> list[list[Intervals]]:
    """Find, per hand h (0 to the number of hands) and per cost below ``ceiling``, the sums
    ``c`` (how far the true scores of the hands before h sum from the written ones) from which
    hands h and later can be corrected at that cost, solved backwards as integer intervals.  The
    bound counts disjoint groups of entries every correction touches: a score or total line
    whose true sum differs from the written one, and :func:`conflicts`."""
    triples = [sum(row) for row in conflicts(start, scores, totals)]
    moves, lines = _moves(rules, start, scores, totals, max_lost)
    after: list[Intervals] = [EVERYTHING] + [NOTHING] * (ceiling - 1)
    out = [after]
    for k in range(len(scores) - 1, -1, -1):
        excess = lines[k]
        here = EVERYTHING if excess is None else ((excess, excess),)
        before = EVERYTHING if k == 0 or lines[k - 1] is None else ((lines[k - 1],) * 2,)
        paid = after if excess is None else [
            _union(after[cost - 1] if cost else NOTHING, _meet(after[cost], here))
            for cost in range(ceiling)]
        after = _union_levels([_back(paid, move, before, here, triples[k]) for move in moves[k]])
        # hand k's triples hold line k - 1's entries, which a state before hand k has settled
        # (the start, before hand 1, is no entry)
        out.append(after if not triples[k] or k == 0 else _union_levels(
            [_back(paid, move, before, here, 0) for move in moves[k]]))
    out.reverse()
    return out


def cost_at(levels: list[Intervals], sums: Intervals) -> int:
    """Return the least cost whose set meets ``sums`` (the number of levels when none
    does)."""
    for cost, reached in enumerate(levels):
        if _meet(reached, sums):
            return cost
    return len(levels)


def _moves(rules: Ruleset, start: int, scores, totals, max_lost: list[int]):
    """List per hand its moves (changes, lowest and highest change of its sum), and per total
    line its written excess (None: not every total written)."""
    n = len(scores[0]) if scores else 0
    patterns = moon_patterns(rules, n)
    moves, lines, written = [], [], 0
    for k, row in enumerate(scores):
        written += sum(row)
        ((low, high),) = _plain(rules, max_lost[k])
        here = [(1, low - sum(row), high - sum(row))]
        here += [(max(1, sum(1 for v in row if v not in set(p))), sum(p) - sum(row),
                  sum(p) - sum(row)) for p in patterns]
        here.append((0 if explain(rules, tuple(row), max_lost[k]) is not None else 1, 0, 0))
        moves.append(here)
        line = totals[k]
        lines.append((sum(line) - n * start - written) if None not in line else None)
    return moves, lines


def _back(paid: list[Intervals], move: tuple[int, int, int], before: Intervals,
          here: Intervals, triples: int) -> list[Intervals]:
    """Read :func:`_step` backwards: find the ``c`` before the hand from which its move
    reaches, at each cost, a ``c`` after it in ``paid`` at the rest of that cost."""
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


def conflicts(start: int, scores, totals) -> list[list[bool]]:
    """Find disjoint conflicts: per hand and seat, whether its previous total, score and total
    disagree, no two of one seat in consecutive hands (they would share a total)."""
    n = len(scores[0]) if scores else 0
    chosen = [[False] * n for _ in scores]
    for k, row in enumerate(scores):
        for p in range(n):
            before = start if k == 0 else totals[k - 1][p]
            total = totals[k][p]
            if before is None or total is None or before + row[p] == total:
                continue
            chosen[k][p] = not (k and chosen[k - 1][p])
    return chosen


def moon_patterns(rules: Ruleset, n: int) -> list[tuple[int, ...]]:
    """Return the scores of each moon pattern the ruleset allows at ``n`` seats."""
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


# -- the branch and bound ------------------------------------------------------------------
class _Stop(Exception):
    """_Stop says the search ran past its budget of states or time."""


class _Found(Exception):
    """_Found says a correction within the bound exists (of the wider question at least)."""


def fewer_exists(rules: Ruleset, start: int, scores: list[list[int]],
                 totals: list[list[int | None]], max_lost: list[int], changes: int,
                 deadline: float | None = None,
                 max_states: int = MAX_STATES) -> bool | None:
    """Tell whether a correction may change fewer than ``changes`` written entries.  False
    means none does; True means one may; None means no answer within ``max_states`` states
    or before ``deadline`` (monotonic time).
    ``totals`` may leave entries out (None), ``scores`` may not."""
    if changes <= 0:
        return False
    problem = _Problem(rules, start, scores, totals, max_lost, changes - 1)
    try:
        problem.search(deadline, max_states)
    except _Found:
        return True
    except (_Stop, RecursionError):  # a sheet of more hands than Python's stack holds
        return None
    return False


class _Problem:
    def __init__(self, rules, start, scores, totals, max_lost, limit) -> None:
        self.H, self.n = len(scores), len(scores[0]) if scores else 0
        self.S, self.limit, self.rules = scores, limit, rules
        self.max_lost = max_lost
        # a total not written is read as the previous one plus the score: it costs nothing
        self.weight = [[0 if w is None else 1 for w in row] for row in totals]
        previous, self.a, self.excess = [start] * self.n, [], []
        written = 0
        for k, row in enumerate(scores):
            line = [previous[p] + row[p] if totals[k][p] is None else totals[k][p]
                    for p in range(self.n)]
            self.a.append([line[p] - previous[p] - row[p] for p in range(self.n)])
            written += sum(row)
            self.excess.append(sum(line) - self.n * start - written)
            previous = line
        self.plain = [_plain(rules, lost) for lost in max_lost]
        self.patterns = [(frozenset(p), sum(p)) for p in moon_patterns(rules, self.n)]
        (low, high), (moon_low, moon_high) = seat_ranges(rules, self.n)
        self.seat = _union(((low, high),), ((moon_low, moon_high),))
        self.togo = costs_to_go(rules, start, scores, totals, max_lost, limit + 1)
        self.laws: dict = {}
        self.best: dict = {}

    def search(self, deadline: float | None, max_states: int) -> None:
        self.deadline, self.left = deadline, max_states
        start = ((0,) * self.n, ())
        if self._bound(0, start) <= self.limit:
            self._visit(0, start, 0)

    def _visit(self, h: int, state: tuple, cost: int) -> None:
        if h == self.H:
            raise _Found
        key = (h, state)
        if self.best.get(key, self.limit + 1) <= cost:
            return
        self.best[key] = cost
        self.left -= 1
        if self.left < 0 or (self.deadline is not None and not self.left % 1024
                             and time.monotonic() > self.deadline):
            raise _Stop
        taus, groups = state
        options = [self._options(h, p, taus[p]) for p in range(self.n)]
        for chosen, spent in _choose(options, self.limit - cost):
            after = self._law(h, chosen, groups)
            if after is not None and cost + spent + self._bound(h + 1, after) <= self.limit:
                self._visit(h + 1, after, cost + spent)

    def _bound(self, h: int, state: tuple) -> int:
        """Bound from below the changes of hands h and later, from the sum of the errors."""
        taus, groups = state
        known = sum(t if isinstance(t, int) else t[1] for t in taus)
        sums: Intervals = ((known, known),)
        for group in groups:
            sums = _plus(sums, group)
        if h:
            sums = _shift(sums, self.excess[h - 1], self.excess[h - 1])
        return cost_at(self.togo[h], sums)

    def _options(self, h: int, p: int, tau) -> list[tuple]:
        """List seat p's choices in hand h from the error ``tau`` (a number, or a symbol's
        group and offset): (changes, the known part of its score change, the error after (None: a
        new symbol), what becomes of the old symbol: None, ("pin", group, value), or
        ("close", group) when the score holds it)."""
        a, weight = self.a[h][p], self.weight[h][p]
        if isinstance(tau, int):
            kept = tau - a
            out = [(weight if kept else 0, 0, kept, None)]  # the score kept
            if weight and kept:
                out.append((1, a - tau, 0, None))  # the total kept, the score changed
            return out + [(1 + weight, a - tau, None, None)]  # both changed
        group, offset = tau
        out = [(weight, 0, (group, offset - a), None)]  # the score kept, the total changed
        if weight:
            out.append((0, 0, 0, ("pin", group, a - offset)))  # both kept
            out.append((1, a - offset, 0, ("close", group)))  # the total kept
        return out + [(1 + weight, a - offset, None, ("close", group))]

    def _law(self, h: int, chosen: list, groups: tuple):
        """Return the state after hand h when its law can hold with these choices, else
        None."""
        known, values, born, closed = 0, list(self.S[h]), [], {}
        sums = list(groups)
        for p, (_, change, after, old) in enumerate(chosen):
            known += change
            values[p] += change
            if after is None:
                born.append(p)
            if old is not None and old[0] == "pin":
                sums[old[1]] = _shift(sums[old[1]], -old[2], -old[2])
            elif old is not None:
                closed.setdefault(old[1], []).append(p)
            elif after is not None and not _has(self.seat, values[p]):
                return None  # a known score no seat can have
        if not (closed or born or explain_memo(self.laws, self.rules, values, self.max_lost[h])):
            return None
        taus = [c[2] for c in chosen]
        if closed or born:
            total = sum(self.S[h]) + known
            held = born + [p for seats in closed.values() for p in seats]
            allowed = self._allowed(h, [v for p, v in enumerate(values) if p not in held])
            merged = self._merged(_shift(allowed, -total, -total),
                                  [c[2] for c in chosen], values, born, closed, sums)
            if merged is None:
                return None
            new = len(sums)
            sums.append(merged)
            for p in born:
                taus[p] = (new, 0)
            for p, tau in enumerate(taus):
                if not isinstance(tau, int) and tau[0] in closed:
                    taus[p] = (new, tau[1])
        return _canonical(taus, sums)

    def _merged(self, room: Intervals, after: list, values: list, born: list, closed: dict,
                sums: list) -> Intervals | None:
        """Return the set of the sum of the hand's new symbols and of the symbols the groups it
        closes keep: its new symbols less its old ones sum to ``room``, what the hand's law
        allows, and each old symbol is summed out with its group.  A score that holds the
        only symbol of its group (or of the hand) is kept within a seat's range."""
        alone = [group for group, seats in closed.items()
                 if len(seats) == 1 and not any(isinstance(t, tuple) and t[0] == group
                                                for t in after)]
        for group in alone:
            (p,) = closed[group]
            if p not in born:  # the score values[p] - f
                sums[group] = _meet(sums[group], _minus_each(values[p], self.seat))
            elif len(born) == 1 and len(closed) == 1:  # the score values[p] - f + f'
                room = _meet(room, _shift(self.seat, -values[p], -values[p]))
        for group in closed:
            room = _plus(room, sums[group])
            sums[group] = None  # summed out
        members = born + [p for p, t in enumerate(after) if isinstance(t, tuple) and t[0] in closed]
        if len(members) == 1 and members == born and not any(
                born[0] in seats for seats in closed.values()):
            # the group's one symbol f' makes a score values[p] + f'
            room = _meet(room, _shift(self.seat, -values[born[0]], -values[born[0]]))
        return room or None

    def _allowed(self, h: int, known: list[int]) -> Intervals:
        """Return the sums hand h's scores may have when the scores ``known`` are right: the
        sum law's, and each moon pattern's that holds every one of them."""
        found = self.plain[h]
        for values, total in self.patterns:
            if all(value in values for value in known):
                found = _union(found, ((total, total),))
        return found


def _choose(options: list[list[tuple]], budget: int, p: int = 0, chosen=None):
    """Yield each choice of one option per seat whose changes stay within ``budget``."""
    chosen = [] if chosen is None else chosen
    if p == len(options):
        yield list(chosen), sum(option[0] for option in chosen)
        return
    for option in options[p]:
        if option[0] <= budget:
            chosen.append(option)
            yield from _choose(options, budget - option[0], p + 1, chosen)
            chosen.pop()


def _canonical(taus: list, sums: list):
    """Make the state: number the groups in the order the seats hold them; a group no seat
    holds any more must be able to sum to nothing (else return None)."""
    number: dict[int, int] = {}
    out = []
    for tau in taus:
        if isinstance(tau, int):
            out.append(tau)
            continue
        group, offset = tau
        if group not in number:
            if not sums[group]:
                return None
            number[group] = len(number)
        out.append((number[group], offset))
    for group, values in enumerate(sums):
        if group not in number and values is not None and not _has(values, 0):
            return None
    kept = sorted(number, key=number.get)
    return tuple(out), tuple(sums[group] for group in kept)


def explain_memo(memo: dict, rules: Ruleset, values, max_lost: int):
    """Return :func:`explain` of a hand's scores, memoised in ``memo`` (the law is the same
    for the scores in any seat order)."""
    key = (tuple(sorted(values)), max_lost)
    if key not in memo:
        memo[key] = explain(rules, key[0], max_lost)
    return memo[key]


def _plain(rules: Ruleset, max_lost: int) -> Intervals:
    """Return the sums the sum law allows a hand's scores, less up to ``max_lost`` points
    lost."""
    ends = (hand_sum(rules, max_lost), hand_sum(rules, 0))
    return ((min(ends), max(ends)),)


def _plus(a: Intervals, b: Intervals) -> Intervals:
    """Return every sum of one value of ``a`` and one of ``b``."""
    return _union(*(((lo + blo, hi + bhi),) for lo, hi in a for blo, bhi in b))


def _has(a: Intervals, value: int) -> bool:
    return any(lo <= value <= hi for lo, hi in a)


def _minus_each(value: int, a: Intervals) -> Intervals:
    """Return every ``value - x`` for x in ``a``."""
    return tuple((value - hi, value - lo) for lo, hi in reversed(a))
