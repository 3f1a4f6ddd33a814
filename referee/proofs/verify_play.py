"""`referee verify-rules`, part 2: properties of the leading and following rules (R4, R5).

``no-deadlock-*``: z3 searches every holding within bounds for one where the model of
:mod:`referee.proofs.rulemodel` leaves no legal card.  ``legal-list-agrees``: the engine's own
:func:`referee.rules.legality.legal_cards` is compared with the same model on every small holding.
"""

from __future__ import annotations

import itertools

from referee.proofs.properties import (
    Budget,
    PropertyResult,
    Undecided,
    counts_text,
    model_values,
    undecided_result,
    z3_bool,
    z3_module,
)
from referee.proofs.rulemodel import NONE, RuleModel, Z3Ops, is_point, legal_spec, lowest_clubs
from referee.rules.ops import PyOps
from referee.rules.cards import CARDS, CLUBS, DECK_SIZE, NUM_RANKS, card_text, counts_of
from referee.rules.options import FirstLeader


def no_deadlock(model: RuleModel, max_size: int, budget: Budget, *,
                leading: bool) -> PropertyResult:
    """Whoever must play holds at least one legal card (first trick included)."""
    z3, ops = z3_module(), Z3Ops()
    name = "no-deadlock-" + ("lead" if leading else "follow")
    clause = "R4.1-R4.3" if leading else "R5.2-R5.3"
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
        return undecided_result(name, bounds, clause, str(err))
    if answer != z3.sat:
        return PropertyResult(name, True, None, bounds, "some card is always legal", clause)
    m = solver.model()
    counts_list = model_values(m, holding)
    is_first = z3.is_true(m.eval(first, model_completion=True))
    is_broken = z3.is_true(m.eval(broken, model_completion=True))
    where = "the first trick" if is_first else "a later trick"
    if leading:
        situation = f"leading {where}{'' if is_broken or is_first else ' (hearts not broken)'}"
    else:
        situation = f"following {card_text(m.eval(led).as_long())} led to {where}"
    witness = {"holding": counts_list, "first_trick": is_first, "hearts_broken": is_broken,
               "led": None if leading else m.eval(led).as_long(),
               "lowest": m.eval(lowest, model_completion=True).as_long()}
    return PropertyResult(
        name, False, f"{situation} holding {counts_text(counts_list)} "
        f"({sum(counts_list)} cards): no card may be played", bounds,
        clause=clause, witness=witness)


def _add_lowest_club(z3, solver, model: RuleModel, holding, first, led, lowest, *, leading: bool) -> None:
    """The two of clubs leads: ``lowest`` is the lowest club dealt (or NONE, all in the kitty)
    and the first trick starts with it."""
    clubs = list(lowest_clubs())
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
    """Following: some card was led, legally, and it is on the table, not in this hand."""
    solver.add(led >= 0, led < DECK_SIZE)
    if not model.first_lead_points and not model.first_lead_fallback:
        # the first lead itself was legal: no point card
        solver.add(z3.Implies(first, z3.Not(z3_bool(z3, is_point(ops, led)))))
    for c in range(DECK_SIZE):
        solver.add(z3.Implies(led == c, holding[c] <= model.decks - 1))


_REPRESENTATIVES = tuple(CARDS[c] for c in (0, 10, 12, 13, 25, 26, 39, 40))  # 2S QS AS 2H AH 2D 2C 3C


def legal_list_agrees(model: RuleModel) -> PropertyResult:
    """legality.legal_cards against the model, on every holding of up to 3 representative cards."""
    from referee.rules.legality import legal_cards

    reps = _REPRESENTATIVES
    bounds = (f"every holding of 1-3 cards from {' '.join(card_text(c) for c in reps)} (one card "
              "of each kind the rules tell apart), every lead and led card, first trick or not")
    if not model.engine_plays_it:
        return PropertyResult("legal-list-agrees", True, None, bounds,
                              "not applicable: the engine has no " + ", ".join(model.differences()),
                              "R4-R5", applicable=False)
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
                    "legal-list-agrees", False,
                    f"{what}{' to the first trick' if first else ''} holding "
                    f"{' '.join(map(card_text, combo))}: legal_cards gives "
                    f"{sorted(map(card_text, got))}, the rules give "
                    f"{sorted(card_text(c) for c, ok in want.items() if ok)}",
                    bounds, clause="R4-R5")
    return PropertyResult("legal-list-agrees", True, None, bounds,
                          f"legality.legal_cards equals the model in all {checked} cases", "R4-R5")


def _holdings(model: RuleModel, reps):
    """(cards, counts, counts of the representatives, lowest club dealt or None) of every
    holding of 1-3 representatives that the decks allow, with every lowest club it allows."""
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
    """(leading, the trick so far, first trick, hearts broken): every lead, and every
    following of a representative the holding leaves a copy of."""
    contexts = [(True, (), f, b) for f in (True, False) for b in (False, True) if not (f and b)]
    contexts += [(False, (led,), f, False) for led in reps for f in (True, False)
                 if counts[led] < model.decks]
    return contexts
