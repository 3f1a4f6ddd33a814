"""This module puts the scoresheet audit to z3, one variable per entry.

The optimizer (fewest entries changed, then points lost, then distance from the written values)
answers what :mod:`referee.proofs.sheet_search` does not cover, and says whether a smaller
correction exists.
"""

from __future__ import annotations

import time

from referee.judge.scoring import seat_ranges
from referee.judge.table import CheckTable
from referee.proofs.budgets import AUDIT_NEAREST_MS, AUDIT_SOLUTIONS_MS, time_detail
from referee.proofs.handfacts import seated
from referee.proofs.rulemodel import Z3Ops, z3_bool
from referee.proofs.wording import AuditResult, fixes_of
from referee.rules import scoring
from referee.util.message import msg

__all__ = ["optimised", "smaller_exists"]


def optimised(question, held: list, max_solutions: int, deadline: float,
              seconds: float) -> AuditResult:
    """Put the question to z3's optimizer."""
    import z3

    result, table, opt = question.result, question.table, z3.Optimize()
    entries, lost_terms, moon_flags, scores = _sheet(z3, opt, table, held)
    count = z3.Sum([z3.If(var != value, 1, 0) for var, value in entries])
    opt.minimize(count)
    lost_sum = z3.Sum([lost for _, lost in lost_terms])
    opt.minimize(lost_sum)
    answer = _check_until(z3, opt, deadline)
    if answer == z3.unknown:  # a best-so-far is not the smallest: undecided
        return question.undecided(seconds)
    if answer == z3.unsat:  # cannot happen: every entry may change
        result.consistent = False
        return result
    model = _nearest(z3, opt, opt.model(), entries, count, lost_sum)
    best = model.eval(count, model_completion=True).as_long()
    result.consistent = best == 0 and not result.cut_short
    result.changes = best
    result.lost = {h: model.eval(v, model_completion=True).as_long() for h, v in lost_terms
                   if model.eval(v, model_completion=True).as_long()}
    result.moons = [h for h, flag in moon_flags.items()
                    if z3.is_true(model.eval(flag, model_completion=True))]
    if best:
        opt.add(count == best)
        _suggest(z3, opt, model, question, held, entries, scores, max_solutions)
    return result


def smaller_exists(question, held: list, changes: int, lost: int, deadline: float) -> bool | None:
    """Tell whether some correction changes fewer than ``changes`` entries, or as many with
    fewer than ``lost`` points lost (None: no answer before ``deadline``); this answers far
    sooner than the optimum."""
    import z3

    solver = z3.Solver()
    entries, lost_terms, _moons, _scores = _sheet(z3, solver, question.table, held)
    changed = [(var != value, 1) for var, value in entries]
    solver.add(z3.Or(z3.PbLe(changed, changes - 1),
                     z3.And(z3.PbLe(changed, changes),
                            z3.Sum([term for _, term in lost_terms]) < lost)))
    answer = _check_until(z3, solver, deadline)
    return None if answer == z3.unknown else answer == z3.sat


def _nearest(z3, opt, model, entries: list, count, lost_sum):
    """Find, among the smallest corrections, the one nearest the written values (a typo of 53
    for 52 is 52, not the moon -26): a question of its own, as folded into the first
    optimisation the distance made z3 miss its budget on easy sheets.  Past its time the first
    answer stands."""
    nearest = z3.Optimize()
    nearest.add(opt.assertions())
    nearest.add(count == model.eval(count, model_completion=True),
                lost_sum == model.eval(lost_sum, model_completion=True))
    nearest.minimize(z3.Sum([z3.If(var >= value, var - value, value - var)
                             for var, value in entries]))
    nearest.set("timeout", AUDIT_NEAREST_MS)
    if nearest.check() == z3.sat:
        return nearest.model()
    return model


def _sheet(z3, opt, table: CheckTable, held: list):
    """State the held hands' laws; return (variable, written value) of each written entry,
    (hand, points lost), hand -> read as a moon, and each hand's score variables."""
    ops = Z3Ops()
    entries = []
    previous = [z3.IntVal(table.rules.start_total)] * table.size
    lost_terms, moon_flags, all_scores = [], {}, []
    for hand in held:
        scores, previous, lost, moon = _hand(ops, opt, table, hand.number, previous, hand.may_lose)
        for line, variables in ((hand.score, scores), (hand.total, previous)):
            entries += [(variables[seat], entry.value) for seat, entry in seated(table, line)]
        lost_terms.append((hand.number, lost))
        moon_flags[hand.number] = moon
        all_scores.append(scores)
    return entries, lost_terms, moon_flags, all_scores


def _hand(ops: Z3Ops, opt, table: CheckTable, h: int, previous: list, allow_lost: bool):
    """Make one hand's variables and laws; return (scores, totals, points lost, read as a
    moon)."""
    z3, rules, n = ops.z3, table.rules, table.size
    scores = [z3.Int(f"s{h}_{p}") for p in range(n)]
    totals = [z3.Int(f"t{h}_{p}") for p in range(n)]
    for p in range(n):
        opt.add(totals[p] == previous[p] + scores[p])  # R7.4
    lost = z3.Int(f"lost{h}")
    opt.add(lost >= 0, lost <= (rules.points_per_hand if allow_lost else 0))
    bonus = 0
    if scoring.has_bonus(rules):  # what the bonuses can add to the hand's scores
        bounds, bonus = scoring.bonus_range(ops, rules, n, z3.Int(f"jacks{h}"), z3.Int(f"empty{h}"))
        opt.add(*bounds)
    moon = z3.Bool(f"moon{h}")
    if not scoring.has_score_law(rules):  # R7.5: the pool's shares are not on the sheet
        opt.add(z3.Not(moon))
        return scores, totals, lost, moon
    opt.add(moon == z3_bool(z3, scoring.moon_law(ops, rules, scores, lost, bonus)))  # R8.2
    opt.add(z3.Or(z3_bool(z3, scoring.sum_law(ops, rules, scores, lost, bonus)), moon))  # R7.2
    (low, high), (moon_low, moon_high) = seat_ranges(rules, n)
    for score in scores:  # a score some seat can have: never below 0 or past the decks' points
        opt.add(z3.Or(z3.And(low <= score, score <= high),
                      z3.And(moon, moon_low <= score, score <= moon_high)))
    return scores, totals, lost, moon


def _suggest(z3, opt, model, question, held: list, entries: list, scores: list,
             max_solutions: int) -> None:
    """Find up to ``max_solutions`` corrections of the smallest size, each a new set of
    entries, within one time budget."""
    result, deadline = question.result, time.monotonic() + AUDIT_SOLUTIONS_MS / 1000
    for _ in range(max_solutions + 1):
        if len(result.suggestions) == max_solutions:
            result.more = True
            break
        result.suggestions.append(fixes_of(question.table, held, [
            [model.eval(v, model_completion=True).as_long() for v in row] for row in scores]))
        picked = [(var, value) for var, value in entries
                  if model.eval(var != value, model_completion=True)]
        opt.add(z3.Or([var == value for var, value in picked]))  # another set of entries next
        answer = _check_until(z3, opt, deadline)
        if answer != z3.sat:
            if answer != z3.unsat and not result.cut_short:
                result.more = False  # unknown: neither "more exist" nor "no more" is known
                result.cut_short = msg("{budget} while looking for further corrections of "
                                       "this size", budget=time_detail(AUDIT_SOLUTIONS_MS))
            break
        model = opt.model()


def _check_until(z3, opt, deadline: float):
    """Run ``opt.check()`` with the time left before ``deadline`` (``unknown`` when none is
    left)."""
    left = int((deadline - time.monotonic()) * 1000)
    if left <= 0:
        return z3.unknown
    opt.set("timeout", left)
    return opt.check()
