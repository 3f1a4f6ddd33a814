"""`referee verify-rules [RULESET]`: prove properties of a ruleset for every situation in bounds.

Each property is stated over the declarative model of :mod:`referee.proofs.rulemodel` with symbolic
cards and holdings, and z3 searches for a counterexample; "holds" means z3 proved there is
none within the stated bounds.  Where the engine can play the ruleset, its own code is tied to
the model: the trick resolver is run symbolically (:mod:`referee.proofs.symexec`) and proved equal to
the model, and the legal-move list is compared with the model on every small holding.
spec/verification.md lists the properties, their bounds and how to read the table.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Collection
from typing import IO

from referee.judge import codes
from referee.proofs import budgets
from referee.proofs.properties import (
    Budget,
    PropertyResult,
    each_size,
    model_values,
    z3_bool,
    z3_module,
)
from referee.proofs.rulemodel import (
    NONE,
    RuleModel,
    Z3Ops,
    as_model,
    card_points,
    deck_points,
    load_rule_model,
    trick_flow,
    trick_spec,
)
from referee.rules.ops import PyOps
from referee.rules.cards import DECK_SIZE, card_text
from referee.rules.names import DEFAULT_NAMES
from referee.rules.ruleset import Ruleset
from referee.rules.ruleset_files import RulesetError
from referee.rules.scoring import hand_scores, moon_pattern
from referee.util.terminal import escaped
from referee.rules.options import KittyTo

ENGINE_TRICK_SIZES = range(4, 12)
PROPERTIES = ("points-per-hand", "trick-outcome", "engine-resolver-agrees", "no-deadlock-lead",
              "no-deadlock-follow", "legal-list-agrees", "points-conserved", "moon-only-all-points")


def verify_rules(rules: Ruleset | RuleModel, *, max_hand_size: int | None = None,
                 stream: IO[str] | None = None, resolver: Callable | None = None,
                 trick_sizes: range | None = None,
                 properties: Collection[str] | None = None,
                 seconds: float = budgets.VERIFY_PROPERTY_SECONDS,
                 max_players: int = budgets.VERIFY_MAX_PLAYERS) -> list[PropertyResult]:
    """Prove the ruleset's properties; print one line per property to ``stream`` if given.

    ``max_hand_size`` bounds the holdings of the leading/following checks (default: the
    largest hand the ruleset deals).  ``resolver`` replaces the engine's trick resolver (to
    show that a broken one is caught); ``trick_sizes`` replaces the trick sizes of the
    resolver check (default 4-11 and the ruleset's player counts).  ``properties`` limits the
    run to the named properties (:data:`PROPERTIES`).  Each property has ``seconds`` for all
    its z3 questions and is asked about tricks and tables of at most ``max_players``; past
    either it is ``undecided`` (neither holds nor fails), with ``detail`` saying where.
    """
    from referee.proofs.verify_play import legal_list_agrees, no_deadlock

    model = as_model(rules) if isinstance(rules, Ruleset) else rules
    if max_hand_size is None:
        max_hand_size = model.cards_per_player(model.min_players)
    if resolver is None:
        from referee.rules.tricks import resolve_trick as resolver
    counts = model.player_counts
    sizes = trick_sizes or range(min(ENGINE_TRICK_SIZES.start, counts.start),
                                 max(ENGINE_TRICK_SIZES.stop, counts.stop))
    budget = Budget(seconds, max_players)
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
    checks = [check for name, check in checks.items() if properties is None or name in properties]
    results = []
    for check in checks:
        start = time.perf_counter()
        result = check(budget.restart())
        result.seconds = time.perf_counter() - start
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


def _trick_cards(z3, solver, n: int, decks: int, prefix: str = "k"):
    """n symbolic cards, each identity at most ``decks`` times (a trick from a legal deal)."""
    cards = [z3.Int(f"{prefix}{i}") for i in range(n)]
    for i, card in enumerate(cards):
        solver.add(card >= 0, card < DECK_SIZE)
        solver.add(z3.Sum([z3.If(other == card, 1, 0) for other in cards]) <= decks)
    return cards


def _trick_text(cards: list[int]) -> str:
    names = DEFAULT_NAMES + tuple(f"P{i}" for i in range(len(DEFAULT_NAMES), 64))
    plays = [f"{names[i]} {card_text(c)}" for i, c in enumerate(cards)]
    return f"{len(cards)} players: " + ", ".join(plays)


# -- the properties ---------------------------------------------------------------------------
def _deck_points(model: RuleModel) -> PropertyResult:
    counted = deck_points(model)
    declared = model.points_per_hand
    return PropertyResult(
        "points-per-hand", counted == declared,
        None if counted == declared else f"the cards hold {counted} points, the ruleset says {declared}",
        f"all {DECK_SIZE} card identities x {model.decks} deck(s)",
        f"{model.decks} x (13 hearts x 1 + Black Maria 13) = {counted} (never the 78 of "
        "'26x2+13x2')", "R7.2")


def _fold_max(z3, cards, eligible):
    """Proof hint: the position of the highest eligible card, found left to right."""
    best, index = z3.IntVal(-1), z3.IntVal(NONE)
    for i, card in enumerate(cards):
        take = z3.And(z3_bool(z3, eligible[i]), card > best)
        best, index = z3.If(take, card, best), z3.If(take, i, index)
    return index


def _trick_outcome(model: RuleModel, counts: range, budget: Budget) -> PropertyResult:
    """Every trick has exactly one winner or is set aside; a winner's card is of the led suit
    and uncancelled.  Proved per trick size as four lemmas (each one z3 query):
    no undefined outcome, at most one winner, the highest surviving led-suit card wins when the
    trick is not set aside, and a winner is of the led suit and uncancelled."""
    bounds = (f"all tricks of {_players_text(counts)} cards from {model.decks} deck(s) "
              f"(each card at most {model.decks}x)")
    return each_size(budget, "trick-outcome", bounds, "R6.1-R6.4", counts,
                     lambda n: _trick_outcome_at(model, n, bounds, budget),
                     "exactly one winner or set aside; the winner's card is of the led suit and "
                     "uncancelled")


def _trick_outcome_at(model: RuleModel, n: int, bounds: str,
                      budget: Budget) -> PropertyResult | None:
    z3, ops = z3_module(), Z3Ops()
    base = z3.Solver()
    cards = _trick_cards(z3, base, n, model.decks)
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
    for why, negation in lemmas:
        base.push()
        base.add(negation)
        if budget.check(base, f"tricks of {n} cards") == z3.sat:
            m = base.model()
            values = model_values(m, cards)
            pairs = m.eval(z3_bool(z3, spec.pairs), model_completion=True).as_long()
            return PropertyResult(
                "trick-outcome", False,
                f"{_trick_text(values)}: {why} ({pairs} pair(s) cancel; set_aside_when = "
                f"{model.set_aside_when!r})", bounds, clause="R6.1-R6.4",
                witness={"cards": values, "failure": why})
        base.pop()
    return None


def _engine_resolver(model: RuleModel, resolver: Callable, sizes: range,
                     budget: Budget) -> PropertyResult:
    """The engine's resolver, run on symbolic cards, equals the model for every trick."""
    from referee.proofs.symexec import Interpreter, Unsupported, members

    name = getattr(resolver, "__name__", "resolver")
    bounds = (f"all tricks of {_players_text(sizes)} cards from {model.decks} deck(s), "
              f"by symbolic execution of {name}")
    if not model.engine_plays_it:
        return PropertyResult("engine-resolver-agrees", True, None, bounds,
                              "not applicable: the engine has no " + ", ".join(model.differences()),
                              "R6", applicable=False)

    def at(n: int) -> PropertyResult | None:
        z3, ops = z3_module(), Z3Ops()
        solver = z3.Solver()
        cards = _trick_cards(z3, solver, n, model.decks)
        try:
            winner, cancelled = Interpreter(resolver).run(
                cards, cancellation=model.cancellation, set_aside_when=model.set_aside_when)
        except (Unsupported, TypeError, ValueError) as err:
            return PropertyResult("engine-resolver-agrees", False,
                                  f"cannot run {name} symbolically: {err}", bounds, clause="R6")
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
        ] + [members(z3, cancelled, card) != z3_bool(z3, spec.cancelled[i])
             for i, card in enumerate(cards)]
        for negation in disagreements:
            solver.push()
            solver.add(negation)
            if budget.check(solver, f"tricks of {n} cards") == z3.sat:
                return _resolver_counterexample(model, resolver, name, solver.model(), cards,
                                                bounds)
            solver.pop()
        return None

    return each_size(budget, "engine-resolver-agrees", bounds, "R6", sizes, at,
                     f"{name} returns the model's winner and cancelled cards")


def _resolver_counterexample(model, resolver, name, m, cards, bounds) -> PropertyResult:
    values = model_values(m, cards)
    got = resolver(values, cancellation=model.cancellation, set_aside_when=model.set_aside_when)
    expected = trick_spec(PyOps(), values, model)
    want = None if expected.winner == NONE else expected.winner
    said = sorted({card_text(c) for c, k in zip(values, expected.cancelled) if k})
    return PropertyResult(
        "engine-resolver-agrees", False,
        f"{_trick_text(values)}: {name} gives winner {got[0]}, cancelled "
        f"{sorted(card_text(c) for c in got[1])}; the rules give winner {want}, cancelled {said}",
        bounds, clause="R6", witness={"cards": values})


def _points_conserved(model: RuleModel, counts: range, budget: Budget) -> PropertyResult:
    """For every trick and pile: taken + pile after + lost = pile before + the trick's points."""
    whole = model.points_per_hand
    bounds = (f"all tricks of {_players_text(counts)} cards, any pile of 0-{whole} points "
              f"waiting, kitty of 0-{whole} points, last trick or not")
    return each_size(budget, "points-conserved", bounds, "R6.5-R7.2", counts,
                     lambda n: _points_conserved_at(model, n, bounds, budget),
                     f"each trick passes on exactly the points it brings; with the cards of a "
                     f"deal this gives taken + lost = {whole} per hand")


def _points_conserved_at(model: RuleModel, n: int, bounds: str,
                         budget: Budget) -> PropertyResult | None:
    z3, ops = z3_module(), Z3Ops()
    whole = model.points_per_hand
    solver = z3.Solver()
    cards = _trick_cards(z3, solver, n, model.decks)
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
        # what no one takes: past the last trick, what is left in the pile goes nowhere too
        gone = m.eval(brought - taken - lost - z3.If(last, 0, after),
                      model_completion=True).as_long()
        is_last = z3.is_true(m.eval(last, model_completion=True))
        waiting = m.eval(pile, model_completion=True).as_long()
        return PropertyResult(
            "points-conserved", False,
            f"{_trick_text(values)}{' (the last trick)' if is_last else ''}, "
            f"{waiting} points in the pile: nobody takes the trick and it "
            f"is not set aside, so {gone} point(s) go nowhere", bounds, clause="R6.5-R7.2",
            witness={"cards": values, "pile": waiting, "last": is_last, "gone": gone,
                     "kitty": m.eval(kitty, model_completion=True).as_long()})
    return None


def _moon(model: RuleModel, counts: range, budget: Budget) -> PropertyResult:
    """A sheet showing the moon pattern comes only from a hand where one player took every point."""
    whole = model.points_per_hand
    bounds = (f"{_players_text(counts)} players, every split of the {whole} points (and any "
              f"lost), every bonus the ruleset gives, choices {'/'.join(model.moon_choices)}")
    if not model.shooting_the_moon:
        return PropertyResult("moon-only-all-points", True, None, bounds,
                              "not applicable: the ruleset has no moon (shooting_the_moon = "
                              "false)", "R8.1-R8.2", applicable=False)
    return each_size(budget, "moon-only-all-points", bounds, "R8.1-R8.2", counts,
                     lambda n: _moon_at(model, n, bounds, budget),
                     f"moon scores appear only when one player took all {whole} points")


def _moon_at(model: RuleModel, n: int, bounds: str, budget: Budget) -> PropertyResult | None:
    z3, ops = z3_module(), Z3Ops()
    whole = model.points_per_hand
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
            return PropertyResult(
                "moon-only-all-points", False,
                f"{n} players taking {model_values(m, taken)} with {m.eval(lost).as_long()} "
                f"lost score {[m.eval(s, model_completion=True).as_long() for s in scores]}: "
                "a moon pattern, yet nobody took every point", bounds, clause="R8.1-R8.2",
                witness={"taken": model_values(m, taken), "lost": m.eval(lost).as_long()})
    return None


# -- the command ------------------------------------------------------------------------------
def main_verify(ruleset_name: str | None, stream: IO[str] | None = None, *,
                seconds: float = budgets.VERIFY_PROPERTY_SECONDS) -> int:
    """Print the property table; 0 when every applicable property holds, 1 when one fails or is
    undecided within ``seconds`` (it is not proved), 2 when the ruleset cannot be loaded."""
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
    failed = [r for r in results if r.status == "FAILS"]
    undecided = [r for r in results if r.status == codes.UNDECIDED]
    console.print(f"{len(results) - len(failed) - len(undecided)} of {len(results)} properties "
                  "hold" + (f"; {len(failed)} fail" if failed else "")
                  + (f"; {len(undecided)} undecided within {seconds:g} s each (not proved; "
                     "--timeout SECONDS gives each property longer)" if undecided else ""))
    return 1 if failed or undecided else 0
