"""The legal-moves conformance suite, examples/legal-moves/positions.jsonl (spec/legal-moves.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.conformance.legal_moves import (
    FORMAT,
    VARIANTS,
    _open_table,
    _played,
    _texts,
    suite,
    suite_lines,
    variant_rules,
)
from referee.rules.cards import counts_of, parse_card
from referee.rules.legality import Fault, legal_cards
from referee.rules.options import FirstLeader
from referee.rules.ruleset import Ruleset, load_ruleset

SUITE = Path(__file__).resolve().parent.parent / "examples" / "legal-moves" / "positions.jsonl"


def _lines() -> tuple[dict, list[dict]]:
    header, *positions = (json.loads(line) for line in SUITE.read_text("utf-8").splitlines())
    return header, positions


def line_rules(line: dict) -> Ruleset:
    """The ruleset of a position's JSON line: its base with its options."""
    return variant_rules(line["ruleset"], line["options"])


def rederived(line: dict) -> list[str]:
    """The legal cards of a position read back from its JSON line, by the engine."""
    holding = counts_of(parse_card(c) for c in line["holding"])
    trick = [parse_card(c) for c in line["trick"]]
    lowest = None if line["lowest_club"] is None else parse_card(line["lowest_club"])
    return _texts(legal_cards(line_rules(line), holding, trick,
                              first_trick=line["first_trick"],
                              hearts_broken=line["hearts_broken"], lowest=lowest))


def legal_under(rules: Ruleset, line: dict, players: int) -> list[str]:
    """The legal cards of a position's JSON line under another ruleset: its own hearts
    broken or not after the earlier tricks, R4.1's lowest club only when it has R4.1."""
    holding = counts_of(parse_card(c) for c in line["holding"])
    trick = [parse_card(c) for c in line["trick"]]
    lowest = None
    if rules.first_leader == FirstLeader.TWO_OF_CLUBS:
        lowest = parse_card(line["lowest_club"] or "2C")
    return _texts(legal_cards(rules, holding, trick, first_trick=line["first_trick"],
                              hearts_broken=hearts_broken_after(line, rules, players),
                              lowest=lowest))


def hearts_broken_after(line: dict, rules: Ruleset | None = None,
                        players: int | None = None) -> bool:
    """Whether hearts are broken after the position's earlier tricks (under ``rules``, by
    default its own), by the engine: its trick resolution, the tricks played from a table
    that holds every card."""
    state = _open_table(rules or line_rules(line), players or line["players"])
    for cards in line["earlier"]:
        state = _played(state, [parse_card(card) for card in cards])
    return state.hearts_broken


HEADER, POSITIONS = _lines()
BY_ID = {position["id"]: position for position in POSITIONS}


def test_the_shipped_suite_is_the_one_the_script_writes():
    # the header, three variants' positions and the written ones (the whole suite takes
    # examples/legal-moves/make_suite.py a few seconds)
    some = tuple(v for v in VARIANTS if v[0] in (
        "standard", "cancellation-twin-club", "cancellation-hearts-instead-of-queen"))
    made = suite(variants=some)
    lines = SUITE.read_text("utf-8").splitlines(keepends=True)
    assert next(suite_lines([None] * len(POSITIONS))) == lines[0]
    shown = [json.dumps(p, ensure_ascii=False) + "\n" for p in made]
    kept = [line for line, p in zip(lines[1:], POSITIONS)
            if p["variant"] in {v[0] for v in some} or p["source"] == "made"]
    assert shown == kept
    assert HEADER["format"] == FORMAT and HEADER["positions"] == len(POSITIONS)
    assert len(BY_ID) == len(POSITIONS)


def test_every_position_s_legal_cards_are_the_engine_s():
    for position in POSITIONS:
        assert rederived(position) == position["legal"], position["id"]
        assert hearts_broken_after(position) == position["hearts_broken"], position["id"]
        rules = line_rules(position)
        assert HEADER["variants"][position["variant"]]["all_options"]["name"] == rules.name


def test_every_layer_is_met_binding_and_excused():
    met = {(layer["fault"], layer["effect"]) for p in POSITIONS for layer in p["layers"]}
    judged = set(Fault) - {Fault.WRONG_PHASE, Fault.OUT_OF_TURN, Fault.NOT_HELD}
    assert {(fault.name, "binds") for fault in judged} <= met
    assert {("FIRST_LEAD_POINTS", "excused"), ("HEARTS_NOT_BROKEN", "excused"),
            ("REVOKE", "excused"), ("FIRST_TRICK_POINTS", "excused"),
            ("MUST_PLAY_TWIN_CLUB", "excused")} <= met
    assert any(p["legal"] == [] for p in POSITIONS)  # a dead end (R5.6)


@pytest.mark.parametrize("variant", [name for name, _, options, _ in VARIANTS if options])
def test_every_option_changes_some_position_s_legal_cards(variant):
    base, _, players = next((b, o, n) for name, b, o, n in VARIANTS if name == variant)
    mine = [p for p in POSITIONS if p["variant"] == variant]
    assert any(legal_under(load_ruleset(base), p, players) != p["legal"] for p in mine)


# Written from the rulebook (spec/rules.md), not computed: the position, then why.
BY_HAND = {
    # R4.1 (standard: the holder of the lowest club leads it)
    "standard/1": ["2C"],
    # R4.1 with first_lead_any_club: any club held
    "cancellation-any-club/1": ["QC", "JC", "10C", "2C"],
    # R4.1's twin: 2C led to the first trick, the other 2C held: it must be played
    "cancellation-twin-club/4": ["2C"],
    # the twin rule needs the twin held; else follow clubs (R5.2)
    "cancellation-twin-club/2": ["8C", "7C", "6C"],
    # R5.2: KD led, KD the only diamond held
    "cancellation-first-trick-follow-points/2": ["KD"],
    # R5.2 then R5.3 (no points on the first trick): spades held, none a point card
    "cancellation-no-first-trick-points/2": ["JS", "5S", "2S"],
    # R5.5 lead suit switch: QH played on 6D by a player void in diamonds makes hearts the
    # suit to follow; no heart held, so any card, the JD too
    "cancellation-lead-suit-switch/3": ["AS", "KS", "6S", "JD", "AC", "QC", "10C", "7C", "2C"],
    # R5.2 with the switch: nothing switched yet, spades led, one spade held
    "cancellation-lead-suit-switch/10": ["JS"],
    # R4.3 with queen_breaks_hearts = false: a QS played earlier, no heart: hearts not broken,
    # and non-hearts held
    "cancellation-queen-does-not-break/15": ["AD", "10D", "7D", "6D", "5D", "6C"],
}
BY_HAND_MADE = {  # the positions written in legal_moves.MADE, by their holding
    # R4.2 allows a point card to a first leader holding nothing else; R4.3 still keeps the
    # hearts back while a Black Maria is held
    ("cancellation", "QS QS AH 2H"): ["QS"],
    # R4.2 without the fallback: no point card may be led, and only point cards are held
    ("cancellation-no-first-lead-fallback", "QS AH 2H 2H"): [],
    # R4.3's option lead_hearts_instead_of_queen: a heart may be led as well as the QS
    ("cancellation-hearts-instead-of-queen", "QS AH KH 2H"): ["QS", "AH", "KH", "2H"],
    # R4.1: the seat asked to lead does not hold the 2C, so no first-lead rule names it
    ("standard", "QS AH KD 3C"): ["QS", "AH", "KD", "3C"],
}


@pytest.mark.parametrize("position_id", sorted(BY_HAND))
def test_positions_checked_by_hand(position_id):
    position = BY_ID[position_id]
    assert position["legal"] == BY_HAND[position_id]
    assert rederived(position) == BY_HAND[position_id]


@pytest.mark.parametrize("variant, holding", sorted(BY_HAND_MADE))
def test_made_positions_checked_by_hand(variant, holding):
    (position,) = [p for p in POSITIONS if p["variant"] == variant and p["source"] == "made"
                   and " ".join(p["holding"]) == holding]
    assert position["legal"] == BY_HAND_MADE[variant, holding]
