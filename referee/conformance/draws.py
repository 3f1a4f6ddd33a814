"""The rulesets and tables the strategies of :mod:`referee.conformance.testing` draw from.

With that module, the only ones in the package that import Hypothesis.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.strategies import SearchStrategy

from referee.rules.options import (
    DealerMoves,
    FirstLeader,
    GameLength,
    KittyTo,
    MoonChoice,
    NothingSurvives,
    PassDirection,
    SetAsideLast,
    SetAsideWhen,
    WinningTotal,
)
from referee.rules.ruleset import Ruleset, load_ruleset, with_options
from referee.rules.ruleset_files import bundled_names


def as_strategy(value, default: SearchStrategy) -> SearchStrategy:
    if value is None:
        return default
    if isinstance(value, SearchStrategy):
        return value
    return st.just(value)


def as_ruleset(value) -> Ruleset:
    if isinstance(value, Ruleset):
        return value
    if isinstance(value, str):
        return load_ruleset(value)
    raise InvalidArgument(f"rules must be a Ruleset or a ruleset name, not {value!r}")


def bundled_rulesets() -> list[Ruleset]:
    return [load_ruleset(name) for name in bundled_names()]


def _option_changes() -> SearchStrategy[dict]:
    """Option values that keep any bundled ruleset valid."""
    return st.fixed_dictionaries({}, optional={
        "target": st.integers(20, 300),
        "pass_count": st.integers(0, 3),
        "pass_cycle": st.lists(st.sampled_from([*PassDirection, "2 left"]),
                               min_size=1, max_size=4).map(tuple),
        "dealer_moves": st.sampled_from(DealerMoves),
        "first_leader": st.sampled_from(FirstLeader),
        "second_two_of_clubs_follows": st.booleans(),
        "first_lead_any_club": st.booleans(),
        "first_lead_points": st.booleans(),
        "first_trick_points": st.booleans(),
        "queen_breaks_hearts": st.booleans(),
        "must_break_hearts": st.booleans(),
        "lead_hearts_instead_of_queen": st.booleans(),
        "cancellation": st.booleans(),
        "set_aside_when": st.sampled_from(SetAsideWhen),
        "set_aside_last": st.sampled_from(SetAsideLast),
        "kitty_to": st.sampled_from(KittyTo),
        "moon_points": st.sampled_from([26, 52]),
        "moon_choices": st.sampled_from([(MoonChoice.SUBTRACT, MoonChoice.ADD), (MoonChoice.ADD,),
                                         (MoonChoice.SUBTRACT,)]),
        "jack_of_diamonds_bonus": st.sampled_from([0, -10]),
        "no_tricks_bonus": st.sampled_from([0, -5]),
        "no_tricks_bonus_in_moon_hand": st.booleans(),
        **{name: st.booleans() for name in (
            "two_of_clubs_apart", "led_heart_breaks_hearts", "first_lead_fallback",
            "first_trick_points_whole_hand", "shooting_the_moon", "lead_suit_switch",
            "pass_by_hand_number")},
        "unpassable_cards": st.sampled_from([(), ("2C",)]),
        "pair_moon_points": st.sampled_from([0, 26]),
        "nothing_survives": st.sampled_from(NothingSurvives),
        "start_total": st.sampled_from([0, 100]),
        "penalty_sign": st.sampled_from([1, -1]),
        "clean_hand_pool": st.sampled_from([0, 52]),
        "winning_total": st.sampled_from(WinningTotal),
        "game_length": st.sampled_from(GameLength),
    })


def rulesets(*, variants: bool = False) -> SearchStrategy[Ruleset]:
    """The bundled rulesets; with ``variants=True`` also copies with some options changed.

    A variant keeps its base's name; logs cannot name it, so use variants with :func:`deals`
    and with :func:`assert_events_legal` (``ruleset=``), not with :func:`game_logs`.
    """
    bundled = st.sampled_from(bundled_rulesets())
    if not variants:
        return bundled
    changed = st.tuples(bundled, _option_changes()).map(
        lambda pair: with_options(pair[0], **pair[1]))
    return st.one_of(bundled, changed)


def players_for(draw, rules: Ruleset, players) -> int:
    if players is None:
        return draw(st.integers(rules.min_players, rules.max_players))
    value = draw(as_strategy(players, st.nothing()))
    if not rules.allows_players(value):
        raise InvalidArgument(f"{rules.name} is for {rules.min_players}-{rules.max_players} "
                              f"players, not {value}")
    return value


def nameable(rules: Ruleset) -> Ruleset:
    """A ruleset a log can name by its [Ruleset] tag (a Target tag may change the target)."""
    try:
        bundled = load_ruleset(rules.name)
    except Exception:  # noqa: BLE001 - any failure means the name is not usable
        bundled = None
    if bundled is None or with_options(bundled, target=rules.target) != rules:
        raise InvalidArgument(f"a log cannot name this variant of {rules.name!r}: use a bundled "
                              "ruleset (variants only with deals() and assert_events_legal)")
    return rules
