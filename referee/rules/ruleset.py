"""This module loads a ruleset, one frozen record of named options, from TOML (bundled in
``referee/rules/rulesets/``, or from a path); a file may say ``base = "cancellation"`` and
override only some options."""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache
from pathlib import Path

from referee.rules.cards import (DECK_SIZE, HEARTS, JACK_OF_DIAMONDS, NUM_RANKS, QUEEN_OF_SPADES,
                                 CardError, card_text, parse_card)
from referee.rules.options import (  # Ruleset, canonical_direction: imported from here too
    BLACK_MARIA_POINTS, CHOICES, HEART_POINTS, LATER_OPTIONS, OPTION_RANGES, MoonChoice,
    PassDirection, Ruleset, canonical_direction, range_ends)
from referee.rules.ruleset_files import (RulesetError, bundled_names, bundled_text,
                                         read_ruleset_file, reason, resolved_path, shown_name,
                                         toml_options, unknown_ruleset)
from referee.util.counting import whole_number
from referee.util.message import msg

MAX_BASE_DEPTH = 32  # bases of bases: a longer chain is taken for a cycle
MAX_STEP_DIGITS = 40  # "N left": far more seats than any table has, and int() stays cheap


def card_points(card: int) -> int:
    if card // NUM_RANKS == HEARTS:
        return HEART_POINTS
    if card == QUEEN_OF_SPADES:
        return BLACK_MARIA_POINTS
    return 0


def is_point_card(card: int) -> bool:
    return card // NUM_RANKS == HEARTS or card == QUEEN_OF_SPADES


def bonus_points(ruleset: Ruleset, card: int) -> int:
    return ruleset.jack_of_diamonds_bonus if card == JACK_OF_DIAMONDS else 0


def direction_offset(direction: str, players: int) -> int:
    """Count the seats to the left that a pass in ``direction`` travels (0: no pass)."""
    named = {PassDirection.HOLD: 0, PassDirection.LEFT: 1, PassDirection.RIGHT: players - 1,
             PassDirection.ACROSS: players // 2}
    if direction in named:
        return named[direction]
    words = direction.split()
    steps = whole_number(words[0], MAX_STEP_DIGITS) if len(words) == 2 else None
    if steps is not None and words[1] in (PassDirection.LEFT, PassDirection.RIGHT):
        steps %= players
        return steps if words[1] == PassDirection.LEFT else (players - steps) % players
    raise RulesetError(msg("unknown pass direction {direction}", direction=shown_name(direction)))


def _validate(data: dict, origin: str) -> Ruleset:
    values = _complete(data, origin)
    for key in ("pass_cycle", "moon_choices", "unpassable_cards"):
        if not isinstance(values[key], (list, tuple)):
            # TRANSLATORS: {origin} is the ruleset's file or name; {option} an option's name
            raise RulesetError(msg("{origin}: {option} must be a list", origin=origin, option=key))
        values[key] = tuple(str(v) for v in values[key])
    values["pass_cycle"] = tuple(canonical_direction(d) for d in values["pass_cycle"])
    try:
        values["unpassable_cards"] = tuple(sorted({card_text(parse_card(name))
                                                   for name in values["unpassable_cards"]}))
    except CardError as err:
        raise RulesetError(msg("{origin}: unpassable_cards: {error}", origin=origin,
                               error=reason(err))) from None
    _check_types(values, origin)
    _check_ranges(values, origin)
    _check_choices(values, origin)
    _check_sizes(values, origin)
    return Ruleset(**values)


def _complete(data: dict, origin: str) -> dict:
    """Check that ``data`` gives every option of a Ruleset (the later ones default) and no
    other, and return them all."""
    names = {f.name for f in fields(Ruleset)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise RulesetError(msg("{origin}: unknown option(s) {options}", origin=origin,
                               options=", ".join(unknown)))
    values = {**LATER_OPTIONS, **data}
    missing = sorted(names - set(values))
    if missing:
        raise RulesetError(msg("{origin}: missing option(s) {options}", origin=origin,
                               options=", ".join(missing)))
    return values


_TYPES = {"int": int, "bool": bool, "str": str}  # a field's annotation -> the type its value has


def _check_types(values: dict, origin: str) -> None:
    for f in fields(Ruleset):
        value = values[f.name]
        expected = str if f.name in CHOICES else _TYPES.get(str(f.type))
        if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesetError(msg("{origin}: {option} must be an integer", origin=origin,
                                   option=f.name))
        if expected is not None and expected is not int and not isinstance(value, expected):
            # TRANSLATORS: {type} is the Python name of the value's type (bool, str)
            raise RulesetError(msg("{origin}: {option} must be a {type}", origin=origin,
                                   option=f.name, type=expected.__name__))


def _check_choices(values: dict, origin: str) -> None:
    """Make each option with a fixed set of values one of its members."""
    for key, allowed in CHOICES.items():
        try:
            values[key] = allowed(values[key])
        except ValueError:
            raise RulesetError(msg("{origin}: {option} must be one of {choices}", origin=origin,
                                   option=key, choices=", ".join(allowed))) from None
    try:
        values["moon_choices"] = tuple(MoonChoice(choice) for choice in values["moon_choices"])
    except ValueError:
        raise RulesetError(msg("{origin}: moon_choices may hold only subtract and add",
                               origin=origin)) from None
    if not values["moon_choices"]:
        raise RulesetError(msg("{origin}: moon_choices must name at least one choice",
                               origin=origin))
    for direction in values["pass_cycle"]:
        direction_offset(direction, max(values["min_players"], 2))


def _check_ranges(values: dict, origin: str) -> None:
    """Check that each integer option lies within its range (:data:`OPTION_RANGES`;
    penalty_sign is not 0); the message does not quote the value, since it may be thousands of
    digits long."""
    for option, (low, high) in OPTION_RANGES.items():
        value = values[option]
        if low <= value <= high and (option != "penalty_sign" or value):
            continue
        low, high, pair = range_ends(option)
        if pair:
            raise RulesetError(msg("{origin}: {option} must be {low} or {high}", origin=origin,
                                   option=option, low=low, high=high))
        # TRANSLATORS: {low} and {high} are the option's smallest and largest values
        raise RulesetError(msg("{origin}: {option} must be from {low} to {high}", origin=origin,
                               option=option, low=low, high=high))


def _check_sizes(values: dict, origin: str) -> None:
    if values["min_players"] > values["max_players"]:
        raise RulesetError(msg("{origin}: need 2 <= min_players <= max_players", origin=origin))
    if values["decks"] * DECK_SIZE // values["max_players"] < max(values["pass_count"], 1):
        raise RulesetError(msg("{origin}: too many players for the deck", origin=origin))


@lru_cache(maxsize=64)
def load_ruleset(name_or_path: str, roots: tuple[str, ...] | None = None) -> Ruleset:
    """Load a bundled ruleset by name (case-insensitive) or a TOML file by path; with
    ``roots``, a file (or a base) outside those folders raises :class:`RulesetOutside` unread."""
    return _load(name_or_path.strip(), roots, ())


def _load(key: str, roots: tuple[str, ...] | None, chain: tuple[str, ...]) -> Ruleset:
    """Load the ruleset ``key`` names; ``chain`` holds the files (resolved) and bundled names
    whose base this one is."""
    folder = None
    if key.casefold() in bundled_names():
        origin = identity = key.casefold()
        text = bundled_text(origin)
    elif key.endswith(".toml") and "\0" not in key:
        identity = resolved_path(key, roots, is_base=bool(chain))
        origin, text, folder = shown_name(key), read_ruleset_file(key), Path(key).parent
    else:
        raise unknown_ruleset(key)
    data = toml_options(text, origin)
    base = data.pop("base", None)
    if base is not None:
        data = _inherit(data, str(base).strip(), folder, roots, (*chain, identity), origin)
    return _validate(data, origin)


def _inherit(data: dict, base: str, folder: Path | None, roots: tuple[str, ...] | None,
             chain: tuple[str, ...], origin: str) -> dict:
    """Lay ``data`` over the options of its base, refusing a base that leads back to itself."""
    written = base
    if folder is not None and base.endswith(".toml") and base.casefold() not in bundled_names() \
            and "\0" not in base and not Path(base).is_absolute():
        base = str(folder / base)  # what the file's author means: beside the file
    is_bundled = base.casefold() in bundled_names()
    identity = base.casefold() if is_bundled else \
        resolved_path(base, roots, is_base=True, written=written) if "\0" not in base else base
    if identity == chain[-1]:
        raise RulesetError(msg("{origin}: a ruleset cannot be its own base", origin=origin))
    if identity in chain or len(chain) >= MAX_BASE_DEPTH:
        raise RulesetError(msg("{origin}: its bases lead back to a ruleset they started from "
                               "(base {base})", origin=origin, base=shown_name(base)))
    inherited = {f.name: getattr(_load(base, roots, chain), f.name) for f in fields(Ruleset)}
    inherited.update(data)
    return inherited


def with_options(ruleset: Ruleset, **changes) -> Ruleset:
    """Copy ``ruleset`` with some options changed, validated like a file."""
    data = {f.name: getattr(ruleset, f.name) for f in fields(Ruleset)}
    data.update(changes)
    return _validate(data, ruleset.name)


DEFAULT_RULESET = "cancellation"
