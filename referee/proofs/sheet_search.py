"""This module holds the scoresheet audit's search without z3.

It is a best-first search over (hand, true totals), cost (entries changed, points lost,
distance), steered by the disjoint conflicts still ahead, in time that grows with the slips,
not the sheet.  A step changes up to three seats the hand shows wrong, to a score meeting a
written total, a moon pattern's value or the one balancing the hand; the audit gives the answer
only when :mod:`.sheet_exact` or z3 shows none smaller.  A pool, bonuses, lines that leave a
seat out and sheets no steps mend go to z3 (:class:`Unsupported`).
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from functools import lru_cache

from referee.judge.scoring import explain, seat_ranges
from referee.proofs.sheet_exact import conflicts, explain_memo, moon_patterns
from referee.proofs.wording import hand_sum
from referee.rules import scoring
from referee.rules.ruleset import Ruleset

__all__ = ["Found", "Unsupported", "search"]

ANCHORS = 4  # distinct values that meet a later written total, per seat and hand
MAX_EXPANSIONS = 400_000  # past this many steps the search gives up (z3 is asked instead)


class Unsupported(Exception):
    """Unsupported says the sheet is outside what the search covers."""


@dataclass(frozen=True)
class Found:
    """A Found holds one correction: per hand, the true scores, points lost and whether read
    as a moon."""

    scores: tuple[tuple[int, ...], ...]
    lost: tuple[int, ...]
    moons: tuple[bool, ...]
    changes: int


def search(rules: Ruleset, start: int, written_scores: list[list[int | None]],
           written_totals: list[list[int | None]], max_lost: list[int],
           solutions: int) -> tuple[list[Found], bool]:
    """Find the corrections of the smallest size with distinct sets of changed entries (up to
    ``solutions``, the nearest first), and tell whether more exist."""
    if not scoring.has_score_law(rules) or scoring.has_bonus(rules):
        raise Unsupported
    if any(None in row for row in written_scores):
        raise Unsupported
    return _Search(rules, start, written_scores, written_totals, max_lost).run(solutions)


@lru_cache(maxsize=64)
def _sums(rules: Ruleset, players: int, max_lost: int) -> tuple[frozenset, int, int]:
    """Return (every sum a hand's scores may have, the lowest and highest score of any seat):
    what :func:`explain` allows, as plain arithmetic that rules out most vectors before it."""
    sums = {hand_sum(rules, lost) for lost in range(max_lost + 1)}
    sums.update(sum(pattern) for pattern in moon_patterns(rules, players))
    (low, high), (moon_low, moon_high) = seat_ranges(rules, players)
    return frozenset(sums), min(low, moon_low), max(high, moon_high)


class _Search:
    def __init__(self, rules, start, scores, totals, max_lost) -> None:
        self.rules, self.S, self.W, self.max_lost = rules, scores, totals, max_lost
        self.H, self.n = len(scores), len(scores[0]) if scores else 0
        self.start = start
        self.laws: dict = {}
        self.whole = hand_sum(rules)
        self.patterns = sorted({0}.union(*moon_patterns(rules, self.n)))
        ahead = [[self._offsets(i, p) for p in range(self.n)] for i in range(self.H)]
        self.offsets = [[o for o, _ in row] for row in ahead]
        self.near = [[near for _, near in row] for row in ahead]
        # a seat's true total matters to later hands only while a written total lies ahead
        self.last = [max((k for k in range(self.H) if self.W[k][p] is not None), default=-1)
                     for p in range(self.n)]
        self._pack()

    def _offsets(self, i: int, p: int) -> tuple[list[int], list[int]]:
        """Find values o such that a true total o after hand i meets a written total at hand
        i or later through the written scores between (``W[k] - S[i+1..k]``); return the
        distinct ones, and those of the next two written totals."""
        found, acc, near = [], 0, []
        for k in range(i, self.H):
            if k > i:
                acc += self.S[k][p]
            total = self.W[k][p]
            if total is not None and len(near) < 2:
                near.append(total - acc)
            if total is not None and total - acc not in found:
                found.append(total - acc)
                if len(found) == ANCHORS:
                    break
        return found, near

    def _pack(self) -> None:
        """Count disjoint conflicts (each needs one changed entry): per seat a written previous
        total, score and total that disagree; per hand written scores that break its law."""
        self.triple = conflicts(self.start, self.S, self.W)
        self.law = law = [not any(self.triple[k])
                          and explain(self.rules, tuple(row), self.max_lost[k]) is None
                          for k, row in enumerate(self.S)]
        # ahead[i] counts the conflicts whose entries all lie in hands i and later
        self.ahead = [0] * (self.H + 1)
        for i in range(self.H - 1, -1, -1):
            later = sum(self.triple[i + 1]) if i + 1 < self.H else 0
            self.ahead[i] = self.ahead[i + 1] + law[i] + later

    def _bound(self, i: int, totals) -> int:
        """Bound from below the changes hands i and later need from these totals: count the
        disjoint conflicts ahead, and each seat whose written score would miss its written
        total from these totals (a score or the total changes), counted apart from a conflict
        ahead that shares an entry (the hand's law, the next hand's total of that seat)."""
        if i >= self.H:
            return 0
        written, total = self.S[i], self.W[i]
        following = self.triple[i + 1] if i + 1 < self.H else [False] * self.n
        missed = sum(1 for p in range(self.n) if total[p] is not None and not following[p]
                     and totals[p] + written[p] != total[p])
        return self.ahead[i] - self.law[i] + max(self.law[i], missed)

    def run(self, solutions: int):
        start = tuple([self.start] * self.n)
        counter = itertools.count()
        frontier = [((self._bound(0, start), 0, 0), next(counter), 0, start, None)]
        expanded: dict = {}
        found: list[Found] = []
        signatures: set = set()
        best = None
        steps = 0
        while frontier:
            key, _, i, totals, path = heapq.heappop(frontier)
            if best is not None and key[0] > best:
                break
            signature = path[4] if path is not None else _NONE
            if i == self.H:
                if signature in signatures:
                    continue
                signatures.add(signature)
                if best is None:
                    best = key[0]
                if len(found) == solutions:
                    return found, True
                found.append(self._found(path, key[0]))
                continue
            seen = expanded.setdefault((i, totals), set())
            if signature in seen or len(seen) > solutions:
                continue
            seen.add(signature)
            steps += 1
            if steps > MAX_EXPANSIONS:
                raise Unsupported
            g = (key[0] - self._bound(i, totals), key[1], key[2])
            for scores, reading, cost, changed in self._steps(i, totals):
                after = tuple(t + s if self.last[p] > i else 0
                              for p, (t, s) in enumerate(zip(totals, scores)))
                step = (g[0] + cost[0], g[1] + cost[1], g[2] + cost[2])
                changes = signature | frozenset(changed) if changed else signature
                heapq.heappush(frontier, ((step[0] + self._bound(i + 1, after), step[1],
                                           step[2]), next(counter), i + 1, after,
                                          (path, scores, reading, changed, changes)))
        if not found:  # a hand needs more changed scores than a step makes
            raise Unsupported
        return found, False

    def _found(self, path, changes: int) -> Found:
        steps = []
        while path is not None:
            path, scores, reading, _, _ = path
            steps.append((scores, reading))
        steps.reverse()
        return Found(tuple(s for s, _ in steps), tuple(r.lost for _, r in steps),
                     tuple(r.moon for _, r in steps), changes)

    def _steps(self, i: int, totals):
        """Yield (scores, reading, (changes, lost, distance), changed entries) of hand i's
        steps."""
        written, near = self.S[i], self.near[i]
        # find the seats the totals show wrong: the next written total, or the one after it
        # (the next written total may be the slip)
        missed = [p for p in range(self.n) if near[p] and (
            totals[p] + written[p] != near[p][0] or len(set(near[p])) > 1)]
        plain = self._step(i, totals, written)
        if plain is not None:
            yield plain
            if not missed and not plain[1].lost:
                return
        tried: set = set()
        # change one seat: a seat the totals show wrong, or any when the written scores break
        # the law or lose points
        suspects = missed if plain is not None and not plain[1].lost else range(self.n)
        for p in suspects:
            for value in self._choices(i, p, totals, written[p]):
                yield from self._try(i, totals, written, {p: value}, tried)
        yield from self._together(i, totals, missed, tried)

    def _together(self, i: int, totals, missed: list[int], tried: set):
        """Yield steps that change up to three seats the totals show wrong, each to a score that
        meets a written total, or all of them to the score their next written total shows,
        with or without one more seat balancing the hand."""
        written = self.S[i]
        if len(missed) > 3:  # every such seat to the score its next written total shows
            nearest = {p: self.near[i][p][0] - totals[p] for p in missed}
            yield from self._try(i, totals, written, nearest, tried)
            for q in range(self.n):
                if q not in nearest:
                    yield from self._try(i, totals, written, {**nearest, q: _BALANCE}, tried)
        for size in range(1, 4 if len(missed) <= 4 else 3):
            for seats in itertools.combinations(missed, size):
                named = [self._anchors(i, p, totals, written[p]) for p in seats]
                for values in itertools.product(*named):
                    change = dict(zip(seats, values))
                    if size > 1:
                        yield from self._try(i, totals, written, change, tried)
                    for q in range(self.n):
                        if q not in change:
                            yield from self._try(i, totals, written, {**change, q: _BALANCE}, tried)

    def _anchors(self, i: int, p: int, totals, default) -> list[int]:
        """Return the scores that meet a written total (this hand's or a later one's)."""
        return [o - totals[p] for o in self.offsets[i][p] if o - totals[p] != default]

    def _choices(self, i: int, p: int, totals, default) -> list:
        values = self._anchors(i, p, totals, default) + self.patterns
        return [_BALANCE, *dict.fromkeys(v for v in values if v != default)]

    def _try(self, i, totals, default, change: dict, tried: set):
        values = list(default)
        for p, value in change.items():
            if value is not _BALANCE:
                values[p] = value
        for p, value in change.items():
            if value is _BALANCE:
                rest = sum(v for q, v in enumerate(values) if q != p)
                values[p] = self.whole - rest
        key = tuple(values)
        if key in tried:
            return
        tried.add(key)
        step = self._step(i, totals, values)
        if step is not None:
            yield step

    def _step(self, i: int, totals, values):
        sums, low, high = _sums(self.rules, self.n, self.max_lost[i])
        if sum(values) not in sums or min(values) < low or max(values) > high:
            return None
        found = explain_memo(self.laws, self.rules, values, self.max_lost[i])
        if found is None:
            return None
        changes = distance = 0
        changed = []
        for p, value in enumerate(values):
            written = self.S[i][p]
            if written != value:
                changes += 1
                distance += abs(written - value)
                changed.append(("score", i, p))
            total = self.W[i][p]
            if total is not None and total != totals[p] + value:
                changes += 1
                distance += abs(total - totals[p] - value)
                changed.append(("total", i, p))
        return tuple(values), found, (changes, found.lost, distance), tuple(changed)


_BALANCE = object()
_NONE: frozenset = frozenset()  # the entries a path changes: paths changing the same are one
