"""This module runs `referee verify-rules [RULESET]`: it proves properties of a ruleset with z3.

Each property holds of the ruleset's model (:mod:`.rulemodel`) for every situation in bounds,
z3 searching for a counterexample; the engine's resolver and legal-move list are tied to the
model.  spec/verification.md lists the properties and their bounds.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import IO

from referee.judge import codes
from referee.proofs import budgets
from referee.proofs.rulemodel import (NONE, RuleModel, Z3Ops, as_model, card_points, is_point,
                                      legal_spec, load_rule_model, trick_flow, trick_spec, z3_bool)
from referee.rules.cards import (CARDS, CLUBS, DECK_SIZE, NUM_RANKS, card_text, cards_of,
                                cards_text, counts_of, sort_key)
from referee.rules.names import DEFAULT_NAMES
from referee.rules.ops import PyOps
from referee.rules.options import FirstLeader, KittyTo
from referee.rules.ruleset import Ruleset
from referee.rules.ruleset_files import RulesetError
from referee.rules.scoring import hand_scores, moon_pattern
from referee.util.terminal import escaped

ENGINE_TRICK_SIZES = range(4, 12)
CLAUSES = {"points-per-hand": "R7.2", "trick-outcome": "R6.1-R6.4", "engine-resolver-agrees": "R6",
           "no-deadlock-lead": "R4.1-R4.3", "no-deadlock-follow": "R5.2-R5.3",
           "legal-list-agrees": "R4-R5", "points-conserved": "R6.5-R7.2",
           "moon-only-all-points": "R8.1-R8.2"}
PROPERTIES = tuple(CLAUSES)


@dataclass
class PropertyResult:
    """A PropertyResult holds one property's answer; :func:`verify_rules` fills in its name and
    clause."""

    holds: bool
    counterexample: str | None
    bounds: str
    detail: str = ""
    name: str = ""
    clause: str = ""
    applicable: bool = True
    witness: dict | None = None  # the counterexample as data (cards, holding, ...)
    undecided: bool = False  # past its budget: neither proved nor refuted (``detail`` says why)

    @property
    def status(self) -> str:
        if not self.applicable:
            return "n/a"
        if self.undecided:
            return codes.UNDECIDED  # what ``check``'s note of the same kind says of a law
        return "holds" if self.holds else "FAILS"


class Undecided(Exception):
    """Undecided says a property's budget ran out before z3 answered; the message says where
    and which."""


_Z3_MAX_TIMEOUT_MS = 2**32 - 1  # z3 takes the timeout as an unsigned 32-bit number


@dataclass
class Budget:
    """A Budget holds the time one property may take (all its z3 questions together) and the
    largest trick or table it is asked about; :meth:`check` stands for ``solver.check()``
    within it."""

    seconds: float
    max_players: int
    started: float = field(default_factory=time.perf_counter)

    def check(self, solver, where: str):
        """Run ``solver.check()`` with what is left of the time; raise :class:`Undecided` when
        none is left or z3 gives no answer."""
        z3 = z3_module()
        left = self.left()
        if left <= 0:
            raise Undecided(self.ran_out(where))
        solver.set("timeout", max(1, int(min(left * 1000, _Z3_MAX_TIMEOUT_MS))))
        result = solver.check()
        if result == z3.unknown:
            reason = solver.reason_unknown()
            if reason in ("timeout", "canceled"):
                raise Undecided(self.ran_out(where))
            raise Undecided(f"undecided: z3 answered unknown ({reason}; {where})")
        return result

    def left(self) -> float:
        return self.seconds - (time.perf_counter() - self.started)

    def ran_out(self, where: str) -> str:
        return f"undecided within {self.seconds:g} s ({where})"


def each_size(budget: Budget, bounds: str, sizes: range,
              at: Callable[[int], PropertyResult | None], shown: str) -> PropertyResult:
    """Return the first failure ``at(n)`` gives for the ``sizes`` (players, cards in a trick)
    within the budget, else the property undecided or holding (``shown`` says what was
    shown)."""
    asked = range(sizes.start, max(sizes.start, min(sizes.stop, budget.max_players + 1)))
    try:
        for n in asked:
            if budget.left() <= 0:  # what z3's timeout cannot stop: building the next query
                raise Undecided(budget.ran_out(f"before tricks of {n} cards"))
            failure = at(n)
            if failure is not None:
                return failure
    except Undecided as err:
        return _undecided(bounds, str(err))
    if asked != sizes:
        done = f"; holds for {asked.start}-{asked.stop - 1}" if len(asked) else ""
        return _undecided(bounds, f"undecided: {_players_text(range(asked.stop, sizes.stop))} "
                          f"players not asked, past the size budget of {budget.max_players}{done}")
    return PropertyResult(True, None, bounds, shown)


def _undecided(bounds: str, detail: str) -> PropertyResult:
    return PropertyResult(False, None, bounds, detail, undecided=True)


def _fails(bounds: str, counterexample: str, **witness) -> PropertyResult:
    return PropertyResult(False, counterexample, bounds, witness=witness or None)


def _not_applicable(bounds: str, why: str) -> PropertyResult:
    return PropertyResult(True, None, bounds, "not applicable: " + why, applicable=False)


def z3_module():
    import z3

    return z3


def model_values(model, terms) -> list[int]:
    return [model.eval(t, model_completion=True).as_long() for t in terms]


def verify_rules(rules: Ruleset | RuleModel, *, max_hand_size: int | None = None,
                 stream: IO[str] | None = None, resolver: Callable | None = None,
                 trick_sizes: range | None = None,
                 properties: Collection[str] | None = None,
                 seconds: float = budgets.VERIFY_PROPERTY_SECONDS,
                 max_players: int = budgets.VERIFY_MAX_PLAYERS) -> list[PropertyResult]:
    """Prove the ruleset's properties (:data:`PROPERTIES`, or those named); print one line per
    property to ``stream`` if given.  ``resolver`` replaces the engine's trick resolver (to show
    that a broken one is caught); past ``seconds`` or ``max_players`` a property is undecided."""
    model = as_model(rules) if isinstance(rules, Ruleset) else rules
    if max_hand_size is None:
        max_hand_size = model.cards_per_player(model.min_players)
    if resolver is None:
        from referee.rules.tricks import resolve_trick as resolver
    counts = model.player_counts
    sizes = trick_sizes or range(min(ENGINE_TRICK_SIZES.start, counts.start),
                                 max(ENGINE_TRICK_SIZES.stop, counts.stop))
    checks = {
        "points-per-hand": lambda b: _deck_points(model),
        "trick-outcome": lambda b: _trick_outcome(model, counts, b),
        "engine-resolver-agrees": lambda b: _engine_resolver(model, resolver, sizes, b),
        "no-deadlock-lead": lambda b: no_deadlock(model, max_hand_size, b, leading=True),
        "no-deadlock-follow": lambda b: no_deadlock(model, max_hand_size, b, leading=False),
        "legal-list-agrees": lambda b: legal_list_agrees(model),
        "points-conserved": lambda b: _points_conserved(model, counts, b),
        "moon-only-all-points": lambda b: _moon(model, counts, b),
    }
    unknown = set(properties or ()) - set(checks)
    if unknown:
        raise ValueError(f"unknown properties {sorted(unknown)}; known: {', '.join(checks)}")
    results = []
    for name, check in checks.items():
        if properties is not None and name not in properties:
            continue
        result = check(Budget(seconds, max_players))
        result.name, result.clause = name, CLAUSES[name]
        results.append(result)
        if stream is not None:
            line = f"{result.status:<5} {result.name}: {result.bounds}"
            if result.counterexample:
                line += f"\n      counterexample: {result.counterexample}"
            elif result.undecided:
                line += f"\n      {result.detail}"
            print(line, file=stream, flush=True)
    return results


# -- helpers ----------------------------------------------------------------------------------
def _players_text(counts: range) -> str:
    return f"{counts.start}" if len(counts) == 1 else f"{counts.start}-{counts.stop - 1}"


def _trick(n: int, decks: int):
    """Return z3, :class:`Z3Ops`, a solver and in it n symbolic cards, each identity at most
    ``decks`` times (a trick from a legal deal)."""
    z3 = z3_module()
    solver = z3.Solver()
    cards = [z3.Int(f"k{i}") for i in range(n)]
    for card in cards:
        solver.add(card >= 0, card < DECK_SIZE)
        solver.add(z3.Sum([z3.If(other == card, 1, 0) for other in cards]) <= decks)
    return z3, Z3Ops(), solver, cards


def _trick_text(cards: list[int]) -> str:
    names = DEFAULT_NAMES + tuple(f"P{i}" for i in range(len(DEFAULT_NAMES), 64))
    plays = [f"{names[i]} {card_text(c)}" for i, c in enumerate(cards)]
    return f"{len(cards)} players: " + ", ".join(plays)


# -- the properties ---------------------------------------------------------------------------
def _deck_points(model: RuleModel) -> PropertyResult:
    counted = model.decks * sum(card_points(PyOps(), card) for card in range(DECK_SIZE))
    declared = model.points_per_hand
    return PropertyResult(
        counted == declared,
        None if counted == declared else
        f"the cards hold {counted} points, the ruleset says {declared}",
        f"all {DECK_SIZE} card identities x {model.decks} deck(s)",
        f"{model.decks} x (13 hearts x 1 + Black Maria 13) = {counted} (never the 78 of "
        "'26x2+13x2')")


def _fold_max(z3, cards, eligible):
    """Give a proof hint: find the position of the highest eligible card, left to right."""
    best, index = z3.IntVal(-1), z3.IntVal(NONE)
    for i, card in enumerate(cards):
        take = z3.And(z3_bool(z3, eligible[i]), card > best)
        best, index = z3.If(take, card, best), z3.If(take, i, index)
    return index


def _trick_outcome(model: RuleModel, counts: range, budget: Budget) -> PropertyResult:
    """Prove that every trick has exactly one winner or is set aside, and that a winner's card
    is of the led suit and uncancelled: per trick size, four lemmas, one z3 query each."""
    bounds = (f"all tricks of {_players_text(counts)} cards from {model.decks} deck(s) "
              f"(each card at most {model.decks}x)")

    def at(n: int) -> PropertyResult | None:
        z3, ops, base, cards = _trick(n, model.decks)
        spec = trick_spec(ops, cards, model)
        wins = [z3_bool(z3, w) for w in spec.wins]
        set_aside = z3_bool(z3, spec.set_aside)
        top = _fold_max(z3, cards, spec.eligible)
        lemmas = [
            ("nobody wins and the trick is not set aside", z3_bool(z3, spec.undefined)),
            ("two cards win", z3.Or([z3.And(wins[i], wins[j])
                                     for i in range(n) for j in range(i + 1, n)] or [False])),
            ("the highest surviving led-suit card does not win",
             z3.And(z3.Not(set_aside), z3_bool(z3, spec.any_eligible),
                    z3.Or([z3.And(top == i, z3.Not(wins[i])) for i in range(n)]))),
            ("the winning card is off suit or cancelled",
             z3.Or([z3.And(wins[i], z3.Or(ops.suit(cards[i]) != ops.suit(cards[0]),
                                           z3_bool(z3, spec.cancelled[i]))) for i in range(n)])),
        ]
        found = _first_sat(base, [lemma for _, lemma in lemmas], budget, f"tricks of {n} cards")
        if found is None:
            return None
        why, m = lemmas[found[0]][0], found[1]
        values = model_values(m, cards)
        pairs = m.eval(z3_bool(z3, spec.pairs), model_completion=True).as_long()
        return _fails(bounds, f"{_trick_text(values)}: {why} ({pairs} pair(s) cancel; "
                      f"set_aside_when = {model.set_aside_when!r})", cards=values, failure=why)

    return each_size(budget, bounds, counts, at,
                     "exactly one winner or set aside; the winner's card is of the led suit and "
                     "uncancelled")


def _first_sat(solver, negations: list, budget: Budget, where: str):
    """Return (the index, a model) of the first of ``negations`` z3 can satisfy, or None."""
    for index, negation in enumerate(negations):
        solver.push()
        solver.add(negation)
        if budget.check(solver, where) == z3_module().sat:
            return index, solver.model()
        solver.pop()
    return None


def _engine_resolver(model: RuleModel, resolver: Callable, sizes: range,
                     budget: Budget) -> PropertyResult:
    """Prove that the engine's resolver, run on symbolic cards, equals the model for every
    trick."""
    from referee.proofs.symexec import Interpreter, Unsupported, members

    name = getattr(resolver, "__name__", "resolver")
    bounds = (f"all tricks of {_players_text(sizes)} cards from {model.decks} deck(s), "
              f"by symbolic execution of {name}")
    if model.differences():
        return _not_applicable(bounds, "the engine has no " + ", ".join(model.differences()))

    def at(n: int) -> PropertyResult | None:
        z3, ops, solver, cards = _trick(n, model.decks)
        try:
            winner, cancelled = Interpreter(resolver).run(
                cards, cancellation=model.cancellation, set_aside_when=model.set_aside_when)
        except (Unsupported, TypeError, ValueError) as err:
            return _fails(bounds, f"cannot run {name} symbolically: {err}")
        spec = trick_spec(ops, cards, model)
        wins = [z3_bool(z3, w) for w in spec.wins]
        winner = z3.IntVal(NONE) if winner is None else winner
        if isinstance(winner, int):
            winner = z3.IntVal(winner)
        # with at most one winning position (trick-outcome), these say: same winner
        disagreements = [
            z3.Or([z3.And(winner == i, z3.Not(wins[i])) for i in range(n)]),
            z3.And(winner == NONE, z3.Or(wins)),
            z3.Or(winner < NONE, winner >= n),
        ] + [z3_bool(z3, members(ops, cancelled, card)) != z3_bool(z3, spec.cancelled[i])
             for i, card in enumerate(cards)]
        found = _first_sat(solver, disagreements, budget, f"tricks of {n} cards")
        return None if found is None else _resolver_counterexample(model, resolver, name,
                                                                   found[1], cards, bounds)

    return each_size(budget, bounds, sizes, at,
                     f"{name} returns the model's winner and cancelled cards")


def _resolver_counterexample(model, resolver, name, m, cards, bounds) -> PropertyResult:
    values = model_values(m, cards)
    got = resolver(values, cancellation=model.cancellation, set_aside_when=model.set_aside_when)
    expected = trick_spec(PyOps(), values, model)
    want = None if expected.winner == NONE else expected.winner
    said = sorted({card_text(c) for c, k in zip(values, expected.cancelled) if k})
    return _fails(bounds, f"{_trick_text(values)}: {name} gives winner {got[0]}, cancelled "
                  f"{sorted(card_text(c) for c in got[1])}; the rules give winner {want}, "
                  f"cancelled {said}", cards=values)


def _points_conserved(model: RuleModel, counts: range, budget: Budget) -> PropertyResult:
    """Prove for every trick and pile that taken + pile after + lost = pile before + the
    trick's points."""
    whole = model.points_per_hand
    bounds = (f"all tricks of {_players_text(counts)} cards, any pile of 0-{whole} points "
              f"waiting, kitty of 0-{whole} points, last trick or not")

    def at(n: int) -> PropertyResult | None:
        z3, ops, solver, cards = _trick(n, model.decks)
        pile, kitty, last = z3.Int("pile"), z3.Int("kitty"), z3.Bool("last")
        solver.add(pile >= 0, pile <= whole, kitty >= 0, kitty <= whole)
        spec = trick_spec(ops, cards, model)
        taken, after, lost, total = trick_flow(ops, spec, cards, model, pile=pile, last=last,
                                               kitty=kitty)
        brought = pile + z3.Sum([card_points(ops, c) for c in cards]) + (
            z3.If(last, kitty, 0) if model.kitty_to == KittyTo.LAST_TRICK else 0)
        law = z3.And(taken + after + lost == brought, z3.Implies(last, after == 0))
        solver.add(z3.Not(law))
        if budget.check(solver, f"tricks of {n} cards") == z3.sat:
            m = solver.model()
            values = model_values(m, cards)
            # count what no one takes: past the last trick, what is left in the pile goes
            # nowhere too
            gone = m.eval(brought - taken - lost - z3.If(last, 0, after),
                          model_completion=True).as_long()
            is_last = z3.is_true(m.eval(last, model_completion=True))
            waiting = m.eval(pile, model_completion=True).as_long()
            return _fails(bounds, f"{_trick_text(values)}{' (the last trick)' if is_last else ''}, "
                          f"{waiting} points in the pile: nobody takes the trick and it is not "
                          f"set aside, so {gone} point(s) go nowhere", cards=values, pile=waiting,
                          last=is_last, gone=gone,
                          kitty=m.eval(kitty, model_completion=True).as_long())
        return None

    return each_size(budget, bounds, counts, at,
                     f"each trick passes on exactly the points it brings; with the cards of a "
                     f"deal this gives taken + lost = {whole} per hand")


def _moon(model: RuleModel, counts: range, budget: Budget) -> PropertyResult:
    """Prove that a sheet showing the moon pattern comes only from a hand where one player
    took every point."""
    whole = model.points_per_hand
    bounds = (f"{_players_text(counts)} players, every split of the {whole} points (and any "
              f"lost), every bonus the ruleset gives, choices {'/'.join(model.moon_choices)}")
    if not model.shooting_the_moon:
        return _not_applicable(bounds, "the ruleset has no moon (shooting_the_moon = false)")

    def at(n: int) -> PropertyResult | None:
        z3, ops = z3_module(), Z3Ops()
        for choice in model.moon_choices:
            solver = z3.Solver()
            taken = [z3.Int(f"t{s}") for s in range(n)]
            lost = z3.Int("lost")
            jacks = [z3.Int(f"j{s}") for s in range(n)]
            empty = [z3.Bool(f"e{s}") for s in range(n)]
            for s in range(n):
                solver.add(taken[s] >= 0, jacks[s] >= 0)
                solver.add(z3.Implies(empty[s], z3.And(taken[s] == 0, jacks[s] == 0)))
            solver.add(lost >= 0, z3.Sum(taken) + lost == whole, z3.Sum(jacks) <= model.decks)
            bonus = [jacks[s] * model.jack_of_diamonds_bonus for s in range(n)]
            scores, shooter = hand_scores(ops, model, taken, lost, bonus, empty, choice)
            looks = [z3_bool(z3, moon_pattern(ops, model, scores, q, c))
                     for q in range(n) for c in model.moon_choices]
            solver.add(z3.Or(looks), z3.Not(z3.Or([z3_bool(z3, s) for s in shooter])))
            if budget.check(solver, f"{n} players, {choice}") == z3.sat:
                m = solver.model()
                return _fails(
                    bounds, f"{n} players taking {model_values(m, taken)} with "
                    f"{m.eval(lost).as_long()} lost score "
                    f"{[m.eval(s, model_completion=True).as_long() for s in scores]}: "
                    "a moon pattern, yet nobody took every point",
                    taken=model_values(m, taken), lost=m.eval(lost).as_long())
        return None

    return each_size(budget, bounds, counts, at,
                     f"moon scores appear only when one player took all {whole} points")


# -- leading and following (R4, R5) -------------------------------------------------------
def no_deadlock(model: RuleModel, max_size: int, budget: Budget, *,
                leading: bool) -> PropertyResult:
    """Prove that whoever must play holds at least one legal card (first trick included)."""
    z3, ops = z3_module(), Z3Ops()
    first_sizes = sorted({model.cards_per_player(n) for n in model.player_counts})
    bounds = (f"all holdings of 1-{max_size} cards (at most {model.decks} of each), "
              f"{'leading' if leading else 'following any led card'}, first trick (holding "
              f"{'/'.join(map(str, first_sizes))} cards) or later, hearts broken or not")
    solver = z3.Solver()
    holding = [z3.Int(f"h{c}") for c in range(DECK_SIZE)]
    first, broken = z3.Bool("first_trick"), z3.Bool("hearts_broken")
    led, lowest = z3.Int("led"), z3.Int("lowest")
    size = z3.Sum(holding)
    for h in holding:
        solver.add(h >= 0, h <= model.decks)
    solver.add(size >= 1, size <= max_size)
    fitting = [s for s in first_sizes if s <= max_size] or [max_size]
    solver.add(z3.Implies(first, z3.Or([size == s for s in fitting])))
    solver.add(z3.Implies(first, z3.Not(broken)))
    if model.first_leader == FirstLeader.TWO_OF_CLUBS:
        _add_lowest_club(z3, solver, model, holding, first, led, lowest, leading=leading)
    else:
        solver.add(lowest == NONE)
    if not leading:
        _add_led_card(z3, ops, solver, model, holding, first, led)
    legal = legal_spec(ops, model, dict(enumerate(holding)), leading=leading, first_trick=first,
                       broken=broken, led=led if not leading else None, lowest=lowest)
    solver.add(z3.And([z3.Not(z3_bool(z3, v)) for v in legal.values()]))
    try:
        answer = budget.check(solver, "every holding")
    except Undecided as err:
        return _undecided(bounds, str(err))
    if answer != z3.sat:
        return PropertyResult(True, None, bounds, "some card is always legal")
    m = solver.model()
    counts_list = model_values(m, holding)
    is_first = z3.is_true(m.eval(first, model_completion=True))
    is_broken = z3.is_true(m.eval(broken, model_completion=True))
    where = "the first trick" if is_first else "a later trick"
    if leading:
        situation = f"leading {where}{'' if is_broken or is_first else ' (hearts not broken)'}"
    else:
        situation = f"following {card_text(m.eval(led).as_long())} led to {where}"
    held = cards_text(sorted(cards_of(counts_list), key=sort_key))
    return _fails(bounds, f"{situation} holding {held} ({sum(counts_list)} cards): no card may "
                  "be played", holding=counts_list, first_trick=is_first, hearts_broken=is_broken,
                  led=None if leading else m.eval(led).as_long(),
                  lowest=m.eval(lowest, model_completion=True).as_long())


def _add_lowest_club(z3, solver, model: RuleModel, holding, first, led, lowest, *,
                     leading: bool) -> None:
    """State that the two of clubs leads: ``lowest`` is the lowest club dealt (or NONE, all in
    the kitty) and the first trick starts with it."""
    clubs = range(CLUBS * NUM_RANKS, (CLUBS + 1) * NUM_RANKS)
    solver.add(z3.Or(lowest == NONE, z3.And(lowest >= clubs[0], lowest <= clubs[-1])))
    # the clubs below the lowest one dealt all lie in the kitty, so the kitty bounds it
    kitty = max(model.kitty_size(n) for n in model.player_counts)
    solver.add(z3.Implies(lowest != NONE, (lowest - clubs[0]) * model.decks <= kitty))
    if len(clubs) * model.decks > kitty:
        solver.add(lowest != NONE)
    for c in clubs:  # nobody holds a club lower than the lowest one dealt
        solver.add(z3.Implies(z3.And(lowest != NONE, c < lowest), holding[c] == 0))
        solver.add(z3.Implies(z3.And(first, lowest == NONE), holding[c] == 0))
    if leading:  # the first leader is the lowest club's holder
        solver.add(z3.Implies(z3.And(first, lowest != NONE),
                              z3.Or([z3.And(lowest == c, holding[c] >= 1) for c in clubs])))
    elif model.first_lead_any_club:  # the first lead was a club, that one or a higher one
        solver.add(z3.Implies(z3.And(first, lowest != NONE),
                              z3.And(led >= lowest, led < (CLUBS + 1) * NUM_RANKS)))
    else:  # the first lead was that club
        solver.add(z3.Implies(z3.And(first, lowest != NONE), led == lowest))


def _add_led_card(z3, ops, solver, model: RuleModel, holding, first, led) -> None:
    """State, for a follower, that some card was led, legally, and that it is on the table,
    not in this hand."""
    solver.add(led >= 0, led < DECK_SIZE)
    if not model.first_lead_points and not model.first_lead_fallback:
        # the first lead itself was legal: it was no point card
        solver.add(z3.Implies(first, z3.Not(z3_bool(z3, is_point(ops, led)))))
    for c in range(DECK_SIZE):
        solver.add(z3.Implies(led == c, holding[c] <= model.decks - 1))


# 2S QS AS 2H AH 2D 2C 3C
_REPRESENTATIVES = tuple(CARDS[c] for c in (0, 10, 12, 13, 25, 26, 39, 40))


def legal_list_agrees(model: RuleModel) -> PropertyResult:
    """Compare legality.legal_cards with the model, on every holding of up to 3 representative
    cards."""
    from referee.rules.legality import legal_cards

    reps = _REPRESENTATIVES
    bounds = (f"every holding of 1-3 cards from {cards_text(reps)} (one card "
              "of each kind the rules tell apart), every lead and led card, first trick or not")
    if model.differences():
        return _not_applicable(bounds, "the engine has no " + ", ".join(model.differences()))
    ops = PyOps()
    checked = 0
    for combo, counts, holding, lowest in _holdings(model, reps):
        low = NONE if lowest is None else lowest
        for leading, trick, first, broken in _contexts(model, reps, counts):
            want = legal_spec(ops, model, holding, leading=leading, first_trick=first,
                              broken=broken, led=trick[0] if trick else None, lowest=low)
            got = set(legal_cards(model.rules, counts, trick, first_trick=first,
                                  hearts_broken=broken, lowest=lowest))
            checked += 1
            if got != {c for c, ok in want.items() if ok}:
                what = "leading" if leading else f"following {card_text(trick[0])}"
                return PropertyResult(
                    False, f"{what}{' to the first trick' if first else ''} holding "
                    f"{cards_text(combo)}: legal_cards gives {sorted(map(card_text, got))}, the "
                    f"rules give {sorted(card_text(c) for c, ok in want.items() if ok)}", bounds)
    return PropertyResult(True, None, bounds,
                          f"legality.legal_cards equals the model in all {checked} cases")


def _holdings(model: RuleModel, reps):
    """Yield (cards, counts, counts of the representatives, lowest club dealt or None) of
    every holding of 1-3 representatives that the decks allow, with every lowest club it
    allows."""
    two_of_clubs = model.first_leader == FirstLeader.TWO_OF_CLUBS
    lowest_options = [None, reps[6], reps[7]] if two_of_clubs else [None]
    for size in (1, 2, 3):
        for combo in itertools.combinations_with_replacement(reps, size):
            counts = counts_of(combo)
            if any(counts[c] > model.decks for c in combo):
                continue
            holding = {c: counts[c] for c in reps}
            for lowest in lowest_options:
                if lowest is not None and any(counts[c] for c in reps if c // NUM_RANKS == CLUBS
                                              and c < lowest):
                    continue
                yield combo, counts, holding, lowest


def _contexts(model: RuleModel, reps, counts) -> list[tuple[bool, tuple, bool, bool]]:
    """List (leading, the trick so far, first trick, hearts broken): every lead, and every
    following of a representative the holding leaves a copy of."""
    contexts = [(True, (), f, b) for f in (True, False) for b in (False, True) if not (f and b)]
    contexts += [(False, (led,), f, False) for led in reps for f in (True, False)
                 if counts[led] < model.decks]
    return contexts


# -- the command ------------------------------------------------------------------------------
def main_verify(ruleset_name: str | None, stream: IO[str] | None = None, *,
                seconds: float = budgets.VERIFY_PROPERTY_SECONDS) -> int:
    """Print the property table; return 0 when every applicable property holds, 1 when one
    fails or is undecided within ``seconds`` (it is not proved), 2 when the ruleset cannot be
    loaded."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    stream = stream if stream is not None else sys.stdout
    try:
        model = load_rule_model(ruleset_name)
    except RulesetError as err:
        print(escaped(f"referee: {err}"), file=stream)
        return 2
    results = verify_rules(model, seconds=seconds)
    tty = hasattr(stream, "isatty") and stream.isatty()
    console = Console(file=stream, no_color=not tty, force_terminal=tty, highlight=False,
                      width=None if tty else 120, soft_wrap=False)
    title = escape(escaped(f"ruleset {model.name}"))
    if model.differences():
        title += " (" + ", ".join(model.differences()) + ")"
    table = Table(title=title, show_lines=True)
    for column in ("property", "result", "bounds", "counterexample / what was shown"):
        table.add_column(column, overflow="fold")
    for r in results:
        style = {"holds": "green", "FAILS": "bold red", "n/a": "dim",
                 codes.UNDECIDED: "yellow"}[r.status]
        table.add_row(escape(f"{r.name} [{r.clause}]"), f"[{style}]{r.status}[/]",
                      escape(r.bounds), escape(r.counterexample or r.detail))
    console.print(table)
    count = Counter(r.status for r in results)
    failed, undecided, moot = count["FAILS"], count[codes.UNDECIDED], count["n/a"]
    console.print(f"{count['holds']} of {len(results)} properties hold"
                  + (f"; {failed} fail" if failed else "")
                  + (f"; {moot} do not apply" if moot else "")
                  + (f"; {undecided} undecided within {seconds:g} s each (not proved; "
                     "--timeout SECONDS gives each property longer)" if undecided else ""))
    return 1 if failed or undecided else 0
