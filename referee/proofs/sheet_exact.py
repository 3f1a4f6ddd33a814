"""Whether a scoresheet has a correction of fewer than a given number of entries, decided by a
branch and bound over the hands without z3: what makes the search's correction
(:mod:`referee.proofs.sheet_search`) the smallest when the lower bound of
:mod:`referee.proofs.sheet_bound` falls short of it.

The sheet is read as each seat's error in its totals: ``tau`` after a hand is the seat's true
total less its written one.  Each seat in each hand does one of four things, and these cover
every correction:

- keeps its score: ``tau`` moves by the written disagreement of the hand (its previous total
  and score against its total), and the total changes unless ``tau`` is then 0;
- keeps its total: ``tau`` becomes 0, and the score changes unless it already agreed;
- changes both: ``tau`` becomes an unknown (a symbol) until the seat keeps a total (the
  symbol takes the value that total gives) or changes a score (the symbol moves into that
  hand's law);
- keeps both: only where they agree with ``tau``.

A hand whose scores are all known is checked against its law exactly
(:func:`referee.judge.scoring.explain`).  A hand whose law holds symbols says that its new
symbols less its old ones sum to one of the sums the law allows (a moon pattern's only where
every known score of the hand is one of the pattern's values).  The symbols so tied form a
group, kept as the set of values the sum of its symbols still held by seats may take: an old
symbol appears in two laws only (the hand that made it and the one that ends it), so it is
summed out where it ends, and a symbol a kept total fixes shifts its group's set.  A group
that no seat holds any more must be able to sum to nothing.  What this leaves out (a score of
a group of several symbols kept within a seat's range, a moon's values for each seat) makes
the question wider than the sheet's, never narrower: when no correction of fewer entries is
found, none exists.  A correction found may be one of the wider question only, so then the
answer is "perhaps", and the audit asks z3 (:mod:`referee.proofs.audit_z3`).

The search is depth first under the bound: a state's cost so far plus a lower bound on the
rest (:func:`referee.proofs.sheet_bound.costs_to_go`, read at the sum of the state's errors)
must stay below the given number, and a state reached before at no greater cost is not
searched again.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from referee.proofs import sheet_bound
from referee.proofs.sheet_bound import Intervals
from referee.rules.ruleset import Ruleset

__all__ = ["fewer_exists", "MAX_STATES"]

MAX_STATES = 200_000  # states searched before the answer is "not decided"


class _Stop(Exception):
    """The search ran past its budget of states or time."""


class _Found(Exception):
    """A correction within the bound exists (of the wider question at least)."""


def fewer_exists(rules: Ruleset, start: int, scores: list[list[int]],
                 totals: list[list[int | None]], max_lost: list[int], changes: int,
                 explained: Callable[[tuple, int], bool], deadline: float | None = None,
                 max_states: int = MAX_STATES) -> bool | None:
    """False: no correction changes fewer than ``changes`` written entries.  True: one may
    (a correction of the wider question exists).  None: not decided within ``max_states``
    states or before ``deadline`` (a :func:`time.monotonic` time).

    ``scores`` are every seat's written scores by hand (all written), ``totals`` the written
    totals (None: not written), ``max_lost`` the points each hand may lose, and
    ``explained(values, max_lost)`` whether a hand's scores meet its law."""
    if changes <= 0:
        return False
    problem = _Problem(rules, start, scores, totals, max_lost, changes - 1, explained)
    try:
        problem.search(deadline, max_states)
    except _Found:
        return True
    except (_Stop, RecursionError):  # a sheet of more hands than Python's stack holds
        return None
    return False


class _Problem:
    def __init__(self, rules, start, scores, totals, max_lost, limit, explained) -> None:
        from referee.judge.scoring import seat_ranges

        self.H, self.n = len(scores), len(scores[0]) if scores else 0
        self.S, self.limit, self.explained = scores, limit, explained
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
        self.patterns = [(frozenset(p), sum(p)) for p in sheet_bound._patterns(rules, self.n)]
        (low, high), (moon_low, moon_high) = seat_ranges(rules, self.n)
        self.seat = sheet_bound._union(((low, high),), ((moon_low, moon_high),))
        self.togo = sheet_bound.costs_to_go(rules, start, scores, totals, max_lost, limit + 1,
                                            explained)
        self.laws: dict = {}
        self.best: dict = {}

    # -- the search ---------------------------------------------------------------------
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
        """A lower bound on the changes of hands h and later, from the sum of the errors."""
        taus, groups = state
        known = sum(t if isinstance(t, int) else t[1] for t in taus)
        sums: Intervals = ((known, known),)
        for group in groups:
            sums = _plus(sums, group)
        if h:
            sums = sheet_bound._shift(sums, self.excess[h - 1], self.excess[h - 1])
        return sheet_bound.cost_at(self.togo[h], sums)

    def _options(self, h: int, p: int, tau) -> list[tuple]:
        """Seat p's choices in hand h from the error ``tau`` (a number, or a symbol's group
        and offset): (changes, the known part of its score change, the error after (None: a
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
        """The state after hand h when its law can hold with these choices, else None."""
        known, values, born, closed = 0, list(self.S[h]), [], {}
        sums = list(groups)
        for p, (_, change, after, old) in enumerate(chosen):
            known += change
            values[p] += change
            if after is None:
                born.append(p)
            if old is not None and old[0] == "pin":
                sums[old[1]] = sheet_bound._shift(sums[old[1]], -old[2], -old[2])
            elif old is not None:
                closed.setdefault(old[1], []).append(p)
            elif after is not None and not _has(self.seat, values[p]):
                return None  # a known score no seat can have
        if not closed and not born and not self._explained(h, values):
            return None
        taus = [c[2] for c in chosen]
        if closed or born:
            total = sum(self.S[h]) + known
            held = born + [p for seats in closed.values() for p in seats]
            allowed = self._allowed(h, [v for p, v in enumerate(values) if p not in held])
            merged = self._merged(sheet_bound._shift(allowed, -total, -total),
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
        """The set of the sum of the hand's new symbols and of the symbols the groups it
        closes keep: its new symbols less its old ones sum to ``room``, what the hand's law
        allows, and each old symbol is summed out with its group.  A score that holds the
        only symbol of its group (or of the hand) is kept within a seat's range."""
        alone = [group for group, seats in closed.items()
                 if len(seats) == 1 and not any(isinstance(t, tuple) and t[0] == group
                                                for t in after)]
        for group in alone:
            (p,) = closed[group]
            if p not in born:  # the score values[p] - f
                sums[group] = sheet_bound._meet(sums[group], _minus_each(values[p], self.seat))
            elif len(born) == 1 and len(closed) == 1:  # the score values[p] - f + f'
                room = sheet_bound._meet(room, sheet_bound._shift(self.seat, -values[p],
                                                                  -values[p]))
        for group in closed:
            room = _plus(room, sums[group])
            sums[group] = None  # summed out
        members = born + [p for p, t in enumerate(after) if isinstance(t, tuple)
                          and t[0] in closed]
        if len(members) == 1 and members == born and not any(
                born[0] in seats for seats in closed.values()):
            # the group's one symbol f' is a score values[p] + f'
            room = sheet_bound._meet(room, sheet_bound._shift(self.seat, -values[born[0]],
                                                              -values[born[0]]))
        return room or None

    def _allowed(self, h: int, known: list[int]) -> Intervals:
        """The sums hand h's scores may have when the scores ``known`` are right: the sum
        law's, and each moon pattern's that holds every one of them."""
        found = self.plain[h]
        for values, total in self.patterns:
            if all(value in values for value in known):
                found = sheet_bound._union(found, ((total, total),))
        return found

    def _explained(self, h: int, values: list[int]) -> bool:
        key = (tuple(sorted(values)), self.max_lost[h])
        found = self.laws.get(key)
        if found is None:
            found = self.laws[key] = self.explained(key[0], key[1])
        return found


def _choose(options: list[list[tuple]], budget: int, p: int = 0, chosen=None):
    """Each choice of one option per seat whose changes stay within ``budget``."""
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
    """The state: groups numbered in the order the seats hold them; a group no seat holds
    any more must be able to sum to nothing (else None)."""
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


def _plain(rules: Ruleset, max_lost: int) -> Intervals:
    """The sums the sum law allows a hand's scores, less up to ``max_lost`` points lost."""
    from referee.proofs.wording import hand_sum

    ends = (hand_sum(rules, max_lost), hand_sum(rules, 0))
    return ((min(ends), max(ends)),)


def _plus(a: Intervals, b: Intervals) -> Intervals:
    """Every sum of one value of ``a`` and one of ``b``."""
    return sheet_bound._union(*(((lo + blo, hi + bhi),) for lo, hi in a for blo, bhi in b))


def _negate(a: Intervals) -> Intervals:
    return tuple((-hi, -lo) for lo, hi in reversed(a))


def _has(a: Intervals, value: int) -> bool:
    return any(lo <= value <= hi for lo, hi in a)


def _minus_each(value: int, a: Intervals) -> Intervals:
    """Every ``value - x`` for x in ``a``."""
    return _negate(sheet_bound._shift(a, -value, -value))
