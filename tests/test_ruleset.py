"""Rulesets: bundled files, derived numbers, pass directions, files with a base, validation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from referee.rules.cards import QUEEN_OF_SPADES, parse_card
from referee.rules.options import LATER_OPTIONS, OPTION_DOCS
from referee.rules.ruleset import (
    Ruleset,
    canonical_direction,
    card_points,
    direction_offset,
    is_point_card,
    load_ruleset,
    with_options,
)
from referee.rules.ruleset_files import RulesetError, bundled_names


@pytest.fixture(scope="module")
def cancellation() -> Ruleset:
    return load_ruleset("cancellation")


@pytest.fixture(scope="module")
def standard() -> Ruleset:
    return load_ruleset("standard")


# -- bundled rulesets ------------------------------------------------------------------------
def test_both_bundled_rulesets_load(cancellation, standard):
    assert {"cancellation", "standard"} <= set(bundled_names())
    assert cancellation.name == "cancellation"
    assert (cancellation.min_players, cancellation.max_players, cancellation.decks) == (6, 11, 2)
    assert cancellation.target == 150
    assert cancellation.pass_count == 3
    assert cancellation.pass_cycle == ("left", "right")
    assert cancellation.first_leader == "left_of_dealer"
    assert cancellation.first_lead_points is False
    assert cancellation.first_trick_points is True
    assert cancellation.cancellation is True
    assert cancellation.set_aside_when == "all_cancelled"
    assert cancellation.set_aside_last == "nobody"
    assert cancellation.kitty_to == "first_trick"
    assert cancellation.moon_points == 26
    assert cancellation.moon_choices == ("subtract", "add")

    assert standard.name == "standard"
    assert (standard.min_players, standard.max_players, standard.decks) == (4, 4, 1)
    assert standard.target == 100
    assert standard.pass_cycle == ("left", "right", "across", "hold")
    assert standard.first_leader == "two_of_clubs"
    assert standard.first_trick_points is False
    assert standard.queen_breaks_hearts is True
    assert standard.moon_choices == ("add",)


def test_names_are_case_insensitive_and_cached(cancellation):
    assert load_ruleset("Cancellation") == cancellation
    assert load_ruleset(" STANDARD ").name == "standard"


def test_rulesets_are_frozen(cancellation):
    with pytest.raises(dataclasses.FrozenInstanceError):
        cancellation.target = 10  # type: ignore[misc]


def test_every_option_is_documented():
    names = {f.name for f in dataclasses.fields(Ruleset)}
    assert names == set(OPTION_DOCS)
    assert all(text.strip() for text in OPTION_DOCS.values())


# -- derived numbers -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "each", "kitty"),
    [(6, 17, 2), (7, 14, 6), (8, 13, 0), (9, 11, 5), (10, 10, 4), (11, 9, 5)],
)
def test_cards_per_player_and_kitty(cancellation, players, each, kitty):
    assert cancellation.cards_per_player(players) == each
    assert cancellation.kitty_size(players) == kitty
    assert each * players + kitty == 104 == cancellation.deck_size
    assert cancellation.allows_players(players)


def test_player_limits(cancellation, standard):
    assert not cancellation.allows_players(5)
    assert not cancellation.allows_players(12)
    assert standard.allows_players(4)
    assert not standard.allows_players(5) and not standard.allows_players(3)
    assert standard.cards_per_player(4) == 13 and standard.kitty_size(4) == 0


def test_points_per_hand_is_derived_from_the_decks(cancellation, standard):
    assert cancellation.points_per_hand == 52
    assert standard.points_per_hand == 26
    # derived, not written down: change the decks and it follows
    assert with_options(cancellation, decks=1).points_per_hand == 26
    assert with_options(standard, decks=2, max_players=4).points_per_hand == 52
    assert with_options(cancellation, decks=1).deck_size == 52


def test_card_points():
    assert card_points(QUEEN_OF_SPADES) == 13
    assert card_points(parse_card("2H")) == 1
    assert card_points(parse_card("AH")) == 1
    assert card_points(parse_card("QH")) == 1
    assert card_points(parse_card("KS")) == 0
    assert card_points(parse_card("QD")) == 0
    assert card_points(parse_card("QC")) == 0
    assert sum(card_points(c) for c in range(52)) == 26
    assert sorted(c for c in range(52) if is_point_card(c)) == [10] + list(range(13, 26))


# -- pass directions -------------------------------------------------------------------------
def test_pass_direction_cycles(cancellation, standard):
    assert [cancellation.pass_direction(h) for h in range(1, 7)] == [
        "left", "right", "left", "right", "left", "right"]
    assert [standard.pass_direction(h) for h in range(1, 10)] == [
        "left", "right", "across", "hold", "left", "right", "across", "hold", "left"]


def test_no_passing_is_hold(cancellation):
    assert with_options(cancellation, pass_count=0).pass_direction(1) == "hold"
    assert with_options(cancellation, pass_cycle=[]).pass_direction(3) == "hold"
    assert with_options(cancellation, pass_cycle=["hold"]).pass_direction(2) == "hold"


@pytest.mark.parametrize(
    ("direction", "players", "offset"),
    [
        ("left", 6, 1), ("left", 11, 1), ("right", 6, 5), ("right", 4, 3), ("right", 11, 10),
        ("across", 6, 3), ("across", 4, 2), ("across", 7, 3), ("across", 11, 5), ("hold", 6, 0),
        ("2 left", 6, 2), ("2 left", 9, 2), ("3 right", 6, 3), ("3 right", 8, 5), ("1 right", 6, 5),
        ("1 left", 6, 1), ("7 left", 6, 1), ("6 left", 6, 0),
    ],
)
def test_direction_offset(direction, players, offset):
    assert direction_offset(direction, players) == offset


@pytest.mark.parametrize("direction", ["up", "2 up", "left 2", "two left", "", "2 left 1"])
def test_unknown_direction(direction):
    with pytest.raises(RulesetError, match="pass direction"):
        direction_offset(direction, 6)


def test_canonical_direction():
    assert canonical_direction("Left") == "left"
    assert canonical_direction("1 RIGHT") == "right"
    assert canonical_direction("none") == "hold"
    assert canonical_direction("  2   left ") == "2 left"


def test_pass_cycle_is_canonicalised(cancellation):
    rules = with_options(cancellation, pass_cycle=["Left", "1 right", "None", "2  Left"])
    assert rules.pass_cycle == ("left", "right", "hold", "2 left")


# -- files with a base -----------------------------------------------------------------------
def test_file_with_base_overrides_options(tmp_path, cancellation):
    path = tmp_path / "house.toml"
    path.write_text(
        'base = "cancellation"\n'
        'name = "house"\n'
        "moon_points = 52\n"
        'pass_cycle = ["left", "right", "across", "hold"]\n'
        'set_aside_when = "two_pairs"\n'
        "target = 100\n",
        encoding="utf-8",
    )
    rules = load_ruleset(str(path))
    assert rules.name == "house"
    assert rules.moon_points == 52
    assert rules.pass_cycle == ("left", "right", "across", "hold")
    assert rules.set_aside_when == "two_pairs"
    assert rules.target == 100
    # everything else comes from the base
    for field in dataclasses.fields(Ruleset):
        if field.name not in {"name", "moon_points", "pass_cycle", "set_aside_when", "target"}:
            assert getattr(rules, field.name) == getattr(cancellation, field.name), field.name


def test_file_without_base_must_name_every_option(tmp_path):
    path = tmp_path / "partial.toml"
    path.write_text('name = "partial"\ntarget = 10\n', encoding="utf-8")
    with pytest.raises(RulesetError, match="missing option"):
        load_ruleset(str(path))


def _full_text(rules: Ruleset) -> str:
    lines = []
    for field in dataclasses.fields(Ruleset):
        value = getattr(rules, field.name)
        if isinstance(value, bool):
            lines.append(f"{field.name} = {'true' if value else 'false'}")
        elif isinstance(value, int):
            lines.append(f"{field.name} = {value}")
        elif isinstance(value, tuple):
            lines.append(f"{field.name} = [{', '.join(repr(v).replace(chr(39), chr(34)) for v in value)}]")
        else:
            lines.append(f'{field.name} = "{value}"')
    return "\n".join(lines) + "\n"


def test_full_file_without_base_loads(tmp_path, standard):
    path = tmp_path / "copy.toml"
    path.write_text(_full_text(standard), encoding="utf-8")
    assert load_ruleset(str(path)) == standard


def test_full_file_written_before_the_later_options_loads(tmp_path, standard):
    # a file naming every option but those added later keeps its old behaviour
    lines = [line for line in _full_text(standard).splitlines()
             if line.split(" = ")[0] not in LATER_OPTIONS]
    path = tmp_path / "old.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rules = load_ruleset(str(path))
    assert rules == standard
    assert (rules.first_lead_any_club, rules.no_tricks_bonus_in_moon_hand) == (False, True)


def test_first_lead_any_club_is_accepted_with_either_first_leader(cancellation, standard):
    # like second_two_of_clubs_follows, it only matters with two_of_clubs (R4.1)
    assert with_options(cancellation, first_lead_any_club=True).first_leader == "left_of_dealer"
    assert with_options(standard, first_lead_any_club=True).first_lead_any_club is True
    with pytest.raises(RulesetError, match="first_lead_any_club"):
        with_options(standard, first_lead_any_club="yes")
    with pytest.raises(RulesetError, match="no_tricks_bonus_in_moon_hand"):
        with_options(standard, no_tricks_bonus_in_moon_hand=0)


def _write(tmp_path, body: str, name: str = "bad.toml") -> str:
    path = tmp_path / name
    path.write_text('base = "cancellation"\n' + body, encoding="utf-8")
    return str(path)


def test_unknown_option_is_named(tmp_path):
    with pytest.raises(RulesetError) as info:
        load_ruleset(_write(tmp_path, "moon_pionts = 52\n"))
    assert "unknown option" in str(info.value)
    assert "moon_pionts" in str(info.value)
    assert "bad.toml" in str(info.value)  # says which file


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ('target = "150"\n', ["target", "integer"]),
        ("target = 1.5\n", ["target", "integer"]),
        ("target = true\n", ["target", "integer"]),
        ('cancellation = "yes"\n', ["cancellation", "bool"]),
        ("cancellation = 1\n", ["cancellation", "bool"]),
        ("kitty_to = 3\n", ["kitty_to", "str"]),
        ('pass_cycle = "left"\n', ["pass_cycle", "list"]),
        ('moon_choices = "add"\n', ["moon_choices", "list"]),
    ],
)
def test_wrong_type(tmp_path, body, words):
    with pytest.raises(RulesetError) as info:
        load_ruleset(_write(tmp_path, body))
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ('kitty_to = "dealer"\n', ["kitty_to", "first_trick", "last_trick"]),
        ('first_leader = "dealer"\n', ["first_leader", "left_of_dealer", "two_of_clubs"]),
        ('set_aside_last = "winner"\n', ["set_aside_last", "nobody", "leader"]),
        ('set_aside_when = "three_pairs"\n', ["set_aside_when", "all_cancelled", "two_pairs"]),
        ('dealer_moves = "up"\n', ["dealer_moves", "left", "right"]),
        ('moon_choices = ["double"]\n', ["moon_choices", "subtract", "add"]),
        ("moon_choices = []\n", ["moon_choices", "at least one"]),
        ('pass_cycle = ["sideways"]\n', ["sideways"]),
        ("decks = 3\n", ["decks"]),
        ("min_players = 12\n", ["min_players", "max_players"]),
        ("target = 0\n", ["target"]),
        ("pass_count = -1\n", ["pass_count"]),
        ("pass_count = 10\n", ["too many players"]),
    ],
)
def test_bad_choice_value(tmp_path, body, words):
    with pytest.raises(RulesetError) as info:
        load_ruleset(_write(tmp_path, body))
    for word in words:
        assert word in str(info.value)


def test_bad_toml(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("target = = 3\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="not valid TOML"):
        load_ruleset(str(path))


def test_toml_nested_too_deep_is_refused_by_every_command_that_reads_a_ruleset(tmp_path, capsys):
    from referee.cli import main

    path = tmp_path / "deep.toml"
    path.write_text("base = \"cancellation\"\nx = " + "[" * 5000 + "]" * 5000 + "\n", "utf-8")
    with pytest.raises(RulesetError, match="nested too deep"):
        load_ruleset(str(path))
    log = Path(__file__).resolve().parents[1] / "examples" / "logs" / "revoke.log"
    for args in (["rules", str(path)], ["verify-rules", str(path)],
                 ["check", "--ruleset", str(path), str(log)]):
        assert main(args) == 2
        out, err = capsys.readouterr()
        said = out + err
        assert "not valid TOML: nested too deep" in said and "Traceback" not in said, args


def test_unknown_base(tmp_path):
    path = tmp_path / "orphan.toml"
    path.write_text('base = "nosuch"\n', encoding="utf-8")
    with pytest.raises(RulesetError, match="nosuch"):
        load_ruleset(str(path))


@pytest.mark.parametrize("name", ["nosuch", "cancelation", "standard.toml", "/no/such/file.toml", ""])
def test_unknown_ruleset_name(name):
    with pytest.raises(RulesetError) as info:
        load_ruleset(name)
    message = str(info.value)
    assert "unknown ruleset" in message
    assert repr(name) in message
    # it lists what would have worked
    assert "cancellation" in message and "standard" in message


def test_ruleset_error_is_a_value_error():
    assert issubclass(RulesetError, ValueError)


# -- with_options ----------------------------------------------------------------------------
def test_with_options_changes_only_what_is_asked(cancellation):
    rules = with_options(cancellation, pass_count=0, target=30, moon_points=52)
    assert (rules.pass_count, rules.target, rules.moon_points) == (0, 30, 52)
    assert rules.kitty_to == cancellation.kitty_to
    assert cancellation.target == 150  # the original is untouched
    assert with_options(cancellation) == cancellation


def test_with_options_converts_lists(cancellation):
    rules = with_options(cancellation, pass_cycle=["hold"], moon_choices=["add"])
    assert rules.pass_cycle == ("hold",)
    assert rules.moon_choices == ("add",)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"bogus": 1}, ["unknown option", "bogus"]),
        ({"target": "high"}, ["target", "integer"]),
        ({"target": -5}, ["target"]),
        ({"kitty_to": "nobody"}, ["kitty_to"]),
        ({"cancellation": "no"}, ["cancellation"]),
        ({"moon_choices": ["subtract", "multiply"]}, ["moon_choices"]),
        ({"pass_cycle": ["left", "up"]}, ["up"]),
        ({"min_players": 1}, ["min_players"]),
    ],
)
def test_with_options_validates(cancellation, changes, words):
    with pytest.raises(RulesetError) as info:
        with_options(cancellation, **changes)
    for word in words:
        assert word in str(info.value)
