"""This module states the rules (trick resolution R6, legality R4-R5, card points R7.1) as
declarative models.

The models run over an *ops* object: :class:`PyOps` on plain values, :class:`Z3Ops` on z3 terms
for :mod:`.verify_rules`.  :class:`RuleModel` adds the readings only the verifier knows (the
seeds read literally, :data:`LITERAL_TOML`, shipped as ``examples/rulesets/literal.toml``).
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass, fields, replace
from typing import Any

from referee.proofs.smt_ops import connective
from referee.rules.cards import CLUBS, HEARTS, NUM_RANKS, QUEEN_OF_SPADES
from referee.rules.ruleset import (BLACK_MARIA_POINTS, HEART_POINTS, Ruleset, load_ruleset,
                                   with_options)
from referee.rules.ruleset_files import RulesetError, bundled_names, read_ruleset_file, toml_options
from referee.rules.options import FirstLeader, KittyTo, SetAsideLast, SetAsideWhen

# Only the model knows these readings; each value is the one that matches the engine.
MODEL_ONLY: dict[str, bool] = {
    "first_trick_fallback": True,  # R5.3 option: "unless the player holds nothing else"
    "hearts_fallback": True,       # R4.3 "unless the leader holds only hearts"
}
# Only the model knows this reading, which no ruleset option value names: only two pairs set a
# trick aside.
TWO_PAIRS_ONLY = "two_pairs_only"
SET_ASIDE_MODEL = (SetAsideWhen.ALL_CANCELLED, SetAsideWhen.TWO_PAIRS, TWO_PAIRS_ONLY)
NONE = -1  # "no card / no seat" in z3 terms (winner index, lowest club)

LITERAL_TOML = """\
# The seeds read literally: every hole is a counterexample for `referee verify-rules`.
base = "cancellation"
name = "literal"
set_aside_when = "two_pairs_only"   # a trick is set aside only when two pairs are played
first_lead_fallback = false         # no heart or Black Maria led first, with no exception
first_trick_points = false          # no points on the first trick ...
first_trick_fallback = false        # ... and no exception for a hand of nothing else
"""


@dataclass(frozen=True)
class RuleModel:
    """A RuleModel holds a ruleset as the verifier reads it: the engine's options plus the
    model-only readings."""

    rules: Ruleset
    set_aside_when: str
    first_trick_fallback: bool = True
    hearts_fallback: bool = True

    def __getattr__(self, name: str) -> Any:  # every other option comes from the ruleset
        if name == "rules":
            raise AttributeError(name)
        return getattr(self.rules, name)

    def differences(self) -> list[str]:
        """List the readings the engine does not play (none: the engine can be compared)."""
        out = []
        if self.set_aside_when != self.rules.set_aside_when:
            out.append(f"set_aside_when = {self.set_aside_when!r}")
        out += [f"{k} = {str(getattr(self, k)).lower()}" for k, v in MODEL_ONLY.items()
                if getattr(self, k) != v]
        return out

    @property
    def player_counts(self) -> range:
        return range(self.rules.min_players, self.rules.max_players + 1)


def as_model(rules: Ruleset | RuleModel, **overrides) -> RuleModel:
    if isinstance(rules, RuleModel):
        return replace(rules, **overrides)
    values = {"set_aside_when": rules.set_aside_when, **MODEL_ONLY, **overrides}
    if values["set_aside_when"] not in SET_ASIDE_MODEL:
        raise RulesetError(f"set_aside_when must be one of {', '.join(SET_ASIDE_MODEL)}")
    return RuleModel(rules, **values)


def model_from_toml(text: str, origin: str) -> RuleModel:
    """Read a TOML ruleset that may use the model-only readings (``base`` is required for
    those)."""
    data = toml_options(text, origin)
    extras = {key: data.pop(key) for key in list(data) if key in MODEL_ONLY}
    for key, value in extras.items():
        if not isinstance(value, bool):
            raise RulesetError(f"{origin}: {key} must be true or false")
    set_aside = data.get("set_aside_when")
    if set_aside == TWO_PAIRS_ONLY:
        data["set_aside_when"] = SetAsideWhen.TWO_PAIRS  # the nearest reading the engine knows
    base = data.pop("base", None)
    names = {f.name for f in fields(Ruleset)}
    if base is None:
        missing = sorted(names - set(data))
        if missing:
            raise RulesetError(f"{origin}: missing option(s) {', '.join(missing)}")
        base_rules = load_ruleset("cancellation")
    else:
        base_rules = load_ruleset(str(base))
    unknown = sorted(set(data) - names)
    if unknown:
        raise RulesetError(f"{origin}: unknown option(s) {', '.join(unknown)}")
    rules = with_options(base_rules, **data)
    if set_aside is not None:
        extras["set_aside_when"] = set_aside
    return as_model(rules, **extras)


def load_rule_model(name_or_path: str | None) -> RuleModel:
    """Load a bundled ruleset by name, or a TOML file (which may use the model-only
    readings)."""
    key = (name_or_path or "cancellation").strip()
    if key.casefold() in bundled_names():
        return as_model(load_ruleset(key))
    if key.casefold() == "literal":
        return model_from_toml(LITERAL_TOML, "literal")
    # os.path.isfile, unlike Path.is_file, is False (not an OSError) for a name too long or
    # in a folder that cannot be searched; the ruleset loader below then says why
    if key.endswith(".toml") and os.path.isfile(key):
        return model_from_toml(read_ruleset_file(key), key)
    return as_model(load_ruleset(key))  # raises the ruleset module's own error


# -- ops: one vocabulary, two interpretations -------------------------------------------------
def _plain(x):
    """Turn a card into a plain int: cards are ints with a text repr, and z3 must see plain
    ints."""
    return int(x) if isinstance(x, int) and not isinstance(x, bool) else x


def z3_bool(z3, x):
    """Make a model value a z3 term (the model folds constant conditions to Python bools)."""
    return z3.BoolVal(x) if isinstance(x, bool) else x


class Z3Ops:
    """Z3Ops builds z3 terms (it imports z3 on first use)."""

    symbolic = True

    def __init__(self) -> None:
        import z3

        self.z3 = z3
        self._suits: dict[int, Any] = {}

    def and_(self, xs):
        return connective(xs, True, lambda xs: self.z3.And(*xs))

    def or_(self, xs):
        return connective(xs, False, lambda xs: self.z3.Or(*xs))

    def not_(self, x):
        return (not x) if isinstance(x, bool) else self.z3.Not(x)

    def implies(self, a, b):
        return self.or_([self.not_(a), b])

    def ite(self, c, a, b):
        if isinstance(c, bool):
            return a if c else b
        return self.z3.If(c, z3_bool(self.z3, a), z3_bool(self.z3, b))

    def sum(self, xs):
        xs = list(xs)
        return self.z3.Sum(xs) if xs else 0

    times = staticmethod(operator.mul)
    mod = staticmethod(operator.mod)

    @staticmethod
    def div(x, y):  # z3 integer division: floor for y > 0
        return x / y if not (isinstance(x, int) and isinstance(y, int)) else x // y

    def eq(self, a, b):
        return _plain(a) == _plain(b)

    def lt(self, a, b):
        return _plain(a) < _plain(b)

    def ge(self, a, b):
        return _plain(a) >= _plain(b)

    def suit(self, card):
        if isinstance(card, int):
            return card // NUM_RANKS
        key = card.get_id()
        if key not in self._suits:
            self._suits[key] = card / NUM_RANKS  # z3 integer division: floor for cards >= 0
        return self._suits[key]


# -- card points (R7.1) -----------------------------------------------------------------------
def card_points(ops, card):
    return ops.ite(ops.eq(ops.suit(card), HEARTS), HEART_POINTS,
                   ops.ite(ops.eq(card, QUEEN_OF_SPADES), BLACK_MARIA_POINTS, 0))


def is_point(ops, card):
    return ops.or_([ops.eq(ops.suit(card), HEARTS), ops.eq(card, QUEEN_OF_SPADES)])


# -- trick resolution (R6.2-R6.4) -------------------------------------------------------------
@dataclass
class TrickSpec:
    cancelled: list  # per position: the card's twin is in the trick too
    eligible: list   # per position: led suit and uncancelled
    wins: list       # per position: this card wins the trick
    set_aside: Any   # nobody wins and the trick goes to the pile
    undefined: Any   # neither (only a reading with a hole can get there)
    any_eligible: Any  # some led-suit card survives
    pairs: Any       # distinct card identities that cancelled
    winner: Any      # winning position, or NONE


def trick_spec(ops, cards: list, model: RuleModel) -> TrickSpec:
    """Say what the rulebook says about a trick whose cards were played in this order."""
    n = len(cards)
    led = ops.suit(cards[0])
    if model.cancellation:
        cancelled = [ops.or_([ops.eq(cards[i], cards[j]) for j in range(n) if j != i])
                     for i in range(n)]
    else:
        cancelled = [False] * n
    eligible = [ops.and_([ops.eq(ops.suit(cards[i]), led), ops.not_(cancelled[i])])
                for i in range(n)]
    best = []
    for i in range(n):
        beaten = [ops.and_([eligible[j], ops.or_([ops.lt(cards[i], cards[j]),
                                                  ops.and_([ops.eq(cards[i], cards[j]), j < i])])])
                  for j in range(n) if j != i]
        best.append(ops.and_([eligible[i], ops.not_(ops.or_(beaten))]))
    any_eligible = ops.or_(eligible)
    first_of_kind = [ops.and_([ops.not_(ops.eq(cards[i], cards[j])) for j in range(i)])
                     for i in range(n)]
    pairs = ops.sum([ops.ite(ops.and_([cancelled[i], first_of_kind[i]]), 1, 0) for i in range(n)])
    mode = model.set_aside_when
    if mode == SetAsideWhen.ALL_CANCELLED:
        set_aside = ops.not_(any_eligible)
    elif mode == SetAsideWhen.TWO_PAIRS:
        set_aside = ops.or_([ops.not_(any_eligible), ops.ge(pairs, 2)])
    else:  # two_pairs_only: the seeds' sentence read literally
        set_aside = ops.ge(pairs, 2)
    wins = [ops.and_([best[i], ops.not_(set_aside)]) for i in range(n)]
    undefined = ops.and_([ops.not_(set_aside), ops.not_(any_eligible)])
    winner = NONE
    for i in reversed(range(n)):
        winner = ops.ite(wins[i], i, winner)
    return TrickSpec(cancelled, eligible, wins, set_aside, undefined, any_eligible, pairs, winner)


def trick_flow(ops, spec: TrickSpec, cards: list, model: RuleModel, *, pile, last, kitty):
    """Tell where the points go (R6.5-R6.7): return (taken by the winner, pile after,
    lost)."""
    trick_points = ops.sum([card_points(ops, c) for c in cards])
    extra = kitty if model.kitty_to == KittyTo.LAST_TRICK else 0
    total = ops.sum([pile, trick_points, ops.ite(last, extra, 0)])
    # a trick neither set aside nor undefined has exactly one winner (property trick-outcome)
    won = ops.and_([ops.not_(spec.set_aside), spec.any_eligible])
    if model.set_aside_last == SetAsideLast.LEADER:
        taker = ops.or_([won, ops.and_([spec.set_aside, last])])
    else:
        taker = won
    taken = ops.ite(taker, total, 0)
    lost = ops.ite(ops.and_([ops.not_(taker), spec.set_aside, last]), total, 0)
    pile_after = ops.ite(ops.and_([spec.set_aside, ops.not_(last), ops.not_(taker)]), total,
                         ops.ite(spec.undefined, pile, 0))
    return taken, pile_after, lost, total


# -- legality (R4, R5) ------------------------------------------------------------------------
def legal_spec(ops, model: RuleModel, holding: dict, *, leading: bool, first_trick, broken,
               led=None, lowest=NONE) -> dict:
    """Map each card to whether it may be played now (R4.1-R4.3 leading, R5.2-R5.3 and R4.1's
    twin club following); ``holding`` maps card -> copies held (a universe)."""
    held = {c: ops.ge(holding[c], 1) for c in holding}
    point = {c: is_point(ops, c) for c in holding}
    if leading:
        return _lead_options(ops, model, held, point, first_trick, broken, lowest)
    return _follow_options(ops, model, held, point, first_trick, led, lowest)


def _restrict(ops, options: dict, keep: dict, when, fallback) -> dict:
    """Allow under ``when`` only the cards of ``keep`` (each within ``options``), unless there
    is none and ``fallback`` lets the player play any of ``options``."""
    none_kept = ops.and_([fallback, ops.not_(ops.or_(keep.values()))])
    return {c: ops.ite(when, ops.or_([keep[c], ops.and_([none_kept, options[c]])]), options[c])
            for c in options}


def _lead_options(ops, model: RuleModel, held: dict, point: dict, first_trick, broken,
                  lowest) -> dict:
    """Tell what the leader may lead (R4.1-R4.3)."""
    options = dict(held)
    if not model.first_lead_points:
        non_points = {c: ops.and_([options[c], ops.not_(point[c])]) for c in options}
        options = _restrict(ops, options, non_points, first_trick, model.first_lead_fallback)
    if model.must_break_hearts:
        heart = {c: ops.eq(ops.suit(c), HEARTS) for c in options}
        non_hearts = {c: ops.and_([options[c], ops.not_(heart[c])]) for c in options}
        if model.lead_hearts_instead_of_queen:
            only_hq = ops.and_([ops.implies(options[c], ops.or_([heart[c],
                                                                 ops.eq(c, QUEEN_OF_SPADES)]))
                                for c in options])
            non_hearts = {c: ops.and_([non_hearts[c], ops.not_(only_hq)]) for c in options}
        options = _restrict(ops, options, non_hearts, ops.not_(broken), model.hearts_fallback)
    if model.first_leader == FirstLeader.TWO_OF_CLUBS:
        forced = ops.and_([first_trick, ops.not_(ops.eq(lowest, NONE))])
        holds_lowest = ops.or_([ops.and_([ops.eq(lowest, c), held[c]]) for c in held])
        leads = {c: ops.and_([held[c], ops.eq(ops.suit(c), CLUBS)]) if model.first_lead_any_club
                 else ops.eq(c, lowest) for c in held}
        options = {c: ops.ite(forced, ops.ite(holds_lowest, leads[c], held[c]), options[c])
                   for c in held}
    return options


def _follow_options(ops, model: RuleModel, held: dict, point: dict, first_trick, led,
                    lowest) -> dict:
    """Tell what a follower may play to ``led`` (R5.2-R5.3 and R4.1's twin club)."""
    led_suit = ops.suit(led)
    following = {c: ops.and_([held[c], ops.eq(ops.suit(c), led_suit)]) for c in held}
    any_following = ops.or_(following.values())
    options = {c: ops.ite(any_following, following[c], held[c]) for c in held}
    if not model.first_trick_points:
        non_points = {c: ops.and_([options[c], ops.not_(point[c])]) for c in options}
        when = first_trick
        if model.first_trick_follow_points:  # only discards are restricted
            when = ops.and_([first_trick, ops.not_(any_following)])
        if model.first_trick_points_whole_hand:
            # "unless every card held is a point card", whatever the led suit allows
            holds_non_point = ops.or_([ops.and_([held[c], ops.not_(point[c])]) for c in held])
            options = {c: ops.ite(ops.and_([when, holds_non_point]), non_points[c], options[c])
                       for c in options}
        else:
            options = _restrict(ops, options, non_points, when, model.first_trick_fallback)
    if model.first_leader == FirstLeader.TWO_OF_CLUBS and model.second_two_of_clubs_follows:
        holds_led = ops.or_([ops.and_([ops.eq(led, c), held[c]]) for c in held])
        twin = ops.and_([first_trick, any_following, ops.eq(led, lowest), holds_led])
        options = {c: ops.ite(twin, ops.eq(c, led), options[c]) for c in held}
    return options
