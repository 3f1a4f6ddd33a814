"""This module builds the legal-moves conformance suite (spec/legal-moves.md): positions of
generated games and of :data:`MADE` holdings, each with
:func:`referee.rules.legality.legal_cards`."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

from referee.conformance.gamestats import GameStats
from referee.conformance.rng import Rng
from referee.conformance.generate import generate_game, ruleset_options
from referee.rules import engine
from referee.rules.cards import (CARDS, Counts, card_text, cards_of, counts_of, parse_card,
                                 parse_cards, sort_key)
from referee.rules.state import State
from referee.rules.legality import follow_layers, lead_layers, legal_cards
from referee.rules.ruleset import Ruleset, load_ruleset, with_options
from referee.rules.tricks import lead_card
from referee.rules.options import FirstLeader

FORMAT = "referee-legal-moves"
VERSION = 1

# (name, base ruleset, options changed, players): each option that changes which card may be
# played, set away from its base's value, with what it needs to matter
VARIANTS: tuple[tuple[str, str, dict, int], ...] = (
    ("cancellation", "cancellation", {}, 7),
    ("standard", "standard", {}, 4),
    ("cancellation-two-of-clubs", "cancellation", {"first_leader": FirstLeader.TWO_OF_CLUBS}, 6),
    ("cancellation-any-club", "cancellation",
     {"first_leader": FirstLeader.TWO_OF_CLUBS, "first_lead_any_club": True}, 8),
    ("cancellation-twin-club", "cancellation",
     {"first_leader": FirstLeader.TWO_OF_CLUBS, "second_two_of_clubs_follows": True}, 6),
    ("cancellation-first-lead-points", "cancellation", {"first_lead_points": True}, 9),
    ("cancellation-no-first-lead-fallback", "cancellation", {"first_lead_fallback": False}, 7),
    ("cancellation-no-first-trick-points", "cancellation", {"first_trick_points": False}, 6),
    ("cancellation-first-trick-follow-points", "cancellation",
     {"first_trick_points": False, "first_trick_follow_points": True}, 6),
    ("cancellation-first-trick-points-whole-hand", "cancellation",
     {"first_trick_points": False, "first_trick_points_whole_hand": True}, 6),
    ("cancellation-hearts-led-any-time", "cancellation", {"must_break_hearts": False}, 10),
    ("cancellation-hearts-instead-of-queen", "cancellation",
     {"lead_hearts_instead_of_queen": True}, 7),
    ("cancellation-queen-does-not-break", "cancellation", {"queen_breaks_hearts": False}, 6),
    ("cancellation-led-heart-does-not-break", "cancellation",
     {"led_heart_breaks_hearts": False, "must_break_hearts": True}, 6),
    ("cancellation-lead-suit-switch", "cancellation", {"lead_suit_switch": True}, 11),
    ("standard-any-club", "standard", {"first_lead_any_club": True}, 4),
    ("standard-first-trick-points", "standard", {"first_trick_points": True}, 4),
    ("standard-queen-does-not-break", "standard", {"queen_breaks_hearts": False}, 4),
)

GAMES = 12  # games played under each variant
HANDS = 2  # hands of each game
PER_KEY = 2  # positions kept for each (variant, layer, effect) met


def variant_rules(base: str, options: dict) -> Ruleset:
    return with_options(load_ruleset(base), **options)


def _texts(cards) -> list[str]:
    return [card_text(c) for c in sorted(cards, key=sort_key)]


def layers_at(rules: Ruleset, holding, trick, *, first_trick: bool, hearts_broken: bool,
              lowest: int | None) -> list[dict]:
    """List the layers of :mod:`referee.rules.legality` that apply to a held card here: each
    with its fault, clause and effect, ``binds`` (a witness is held: the restricted cards held
    are not legal) or ``excused`` (no witness is held: they are)."""
    if not trick:
        layers = lead_layers(rules, first_trick=first_trick, hearts_broken=hearts_broken,
                             lowest=lowest)
    else:
        led = lead_card(trick, True) if rules.lead_suit_switch else trick[0]
        layers = follow_layers(rules, led, first_trick=first_trick, lowest=lowest)
    return [{"fault": fault.name, "clause": fault.clause,
             "effect": "binds" if any(holding[c] for c in witnesses) else "excused"}
            for fault, restricted, witnesses in layers if any(holding[c] for c in restricted)]


def _lowest(rules: Ruleset, lowest: int | None) -> int | None:
    """Return R4.1's lowest club under ``rules`` (None: no R4.1): ``lowest``, else the 2C."""
    if rules.first_leader != FirstLeader.TWO_OF_CLUBS:
        return None
    return parse_card("2C") if lowest is None else lowest


def _position(rules: Ruleset, variant: tuple, holding: Counts, trick, earlier, *,
              first_trick: bool, hearts_broken: bool, lowest: int | None, source: str = "game",
              note: str = "") -> dict:
    """Write the position of a variant (an item of :data:`VARIANTS`) and its legal cards as its
    line of the suite (spec/legal-moves.md); :func:`suite` gives it its id."""
    name, base, options, players = variant
    counts = tuple(holding)
    where = dict(first_trick=first_trick, hearts_broken=hearts_broken, lowest=lowest)
    shown = _lowest(rules, lowest)
    return {"id": "", "variant": name, "ruleset": base, "options": options, "players": players,
            "holding": _texts(cards_of(counts)), "trick": [card_text(c) for c in trick],
            "earlier": [[card_text(c) for c in cards] for cards in earlier],
            "first_trick": first_trick, "hearts_broken": hearts_broken,
            "lowest_club": None if shown is None else card_text(shown),
            "legal": _texts(legal_cards(rules, counts, trick, **where)),
            "layers": layers_at(rules, counts, trick, **where), "source": source, "note": note}


class _Recorder:
    """A _Recorder watches a generated game play by play (the generator's ``tamper`` hook, changing
    nothing) and keeps every position with the hand's earlier tricks, marking those where
    the base ruleset (its own hearts broken or not, from the same tricks) allows other
    cards."""

    where = None

    def __init__(self, rules: Ruleset, variant: tuple) -> None:
        _, base, _, players = variant
        self.rules, self.variant, self.players = rules, variant, players
        self.base_rules = load_ruleset(base)
        self.base_state = _open_table(self.base_rules, self.players)
        self.earlier: list[tuple[int, ...]] = []
        self.hand = None
        self.positions: list[tuple[dict, bool]] = []  # and whether the base allows others

    def lead(self, state: State) -> State:
        if state.trick_number == 1 or state.hand_number != self.hand:
            self.earlier, self.hand = [], state.hand_number
            self.base_state = _open_table(self.base_rules, self.players)
        elif state.last_trick is not None:
            self.earlier.append(tuple(card for _, card in state.last_trick.plays))
            self.base_state = _played(self.base_state, self.earlier[-1])
        return state

    def play(self, state: State, legal) -> None:
        position = _position(
            self.rules, self.variant, state.holdings[state.to_play], state.trick_cards,
            self.earlier, first_trick=state.trick_number == 1,
            hearts_broken=state.hearts_broken, lowest=state.lowest_club)
        differs = _texts(legal_cards(
            self.base_rules, state.holdings[state.to_play], state.trick_cards,
            first_trick=state.trick_number == 1, hearts_broken=self.base_state.hearts_broken,
            lowest=_lowest(self.base_rules, state.lowest_club))) != position["legal"]
        self.positions.append((position, differs))


# positions whose holding is written here: layers that random games almost never reach
# (name of the variant, holding, trick, earlier tricks, hearts broken, note)
MADE: tuple[tuple[str, str, str, tuple[str, ...], bool, str], ...] = (
    ("cancellation", "QS QS AH 2H", "", (), False,
     "first lead, only point cards held: R4.2 lets a point card be led, and R4.3 keeps the "
     "hearts back while a Black Maria is held"),
    ("cancellation-no-first-lead-fallback", "QS AH 2H 2H", "", (), False,
     "first lead, only point cards held, no fallback: no card is legal (R5.6)"),
    ("cancellation", "AH KH 5H 5H", "", ("2C 4C 5C 6C 7C 8C 9C",), False,
     "hearts not broken, only hearts held: a heart may be led (R4.3)"),
    ("cancellation", "AH KH QS 2H", "", ("2C 4C 5C 6C 7C 8C 9C",), False,
     "hearts not broken, only hearts and the Black Maria: only the Black Maria may be led"),
    ("cancellation-hearts-instead-of-queen", "AH KH QS 2H", "", ("2C 4C 5C 6C 7C 8C 9C",),
     False, "hearts not broken, only hearts and the Black Maria: a heart may be led too"),
    ("cancellation-first-trick-points-whole-hand", "QS 2H 5H 9D", "4D", (), False,
     "first trick, following diamonds with only points besides: 9D only"),
    ("cancellation-first-trick-points-whole-hand", "QS QS 2H 5H", "4D", (), False,
     "first trick, void in diamonds, only points held: any point card"),
    ("cancellation-no-first-trick-points", "QS 2H 9D", "4S", (), False,
     "first trick, the Black Maria the only spade held: it must follow (R5.2 before R5.3)"),
    ("standard", "2C 3C QS AH", "", (), False,
     "first lead of standard: the holder of the 2C leads it"),
    ("standard", "3C QS AH KD", "", (), False,
     "first lead asked of a seat without the 2C, not the leader R4.1 names: any card"),
    ("cancellation-first-trick-follow-points", "QS AH 5D", "4C", (), False,
     "first trick, void in clubs: the diamond, not a point card"),
    ("standard-first-trick-points", "QS AH 5D", "2C", (), False,
     "first trick, void in clubs, points allowed: any card"),
    ("cancellation-led-heart-does-not-break", "AH 3S", "", ("2H 3C 4C 5C 6C 7C",), False,
     "a heart led, no other heart in the trick: hearts are not broken"),
    ("cancellation-lead-suit-switch", "AS 3D 4D KH", "5C 6C 7H",
     ("2H 3C 4C 5C 6C 7C 8C 9C 10C JC QC",), True,
     "lead suit switched to hearts by a discard: hearts must be followed"),
)


def _made() -> Iterator[dict]:
    by_name = {variant[0]: variant for variant in VARIANTS}
    for name, holding, trick, earlier, broken, note in MADE:
        variant = by_name[name]
        _, base, options, _ = variant
        rules = variant_rules(base, options)
        before = [parse_cards(t) for t in earlier]
        yield _position(rules, variant, counts_of(parse_cards(holding)), parse_cards(trick),
                        before, first_trick=not before, hearts_broken=broken,
                        lowest=_lowest(rules, None), source="made", note=note)


def suite(seed: int = 1, variants: tuple = VARIANTS, made: bool = True) -> list[dict]:
    """Collect the positions of the suite, in a fixed order: for each variant, up to
    :data:`PER_KEY` positions of each combination of layers and effects its games meet (a
    lead or a follow, in the first trick or not, the base ruleset allowing the same cards or
    not), then the :data:`MADE` positions."""
    out: list[dict] = []
    for variant in variants:
        name, base, options, players = variant
        rules = variant_rules(base, options)
        recorder = _Recorder(rules, variant)
        rng = Rng(f"legal-moves:{seed}:{name}")
        for _ in range(GAMES):
            strategy = ("random", "simple")[rng.below(2)]
            generate_game(rules, players, seed=rng.next64(), hands=HANDS, strategy=strategy,
                          tamper=recorder, stats=GameStats())
        kept: Counter = Counter()
        for position, differs in recorder.positions:
            key = (*sorted((layer["fault"], layer["effect"]) for layer in position["layers"]),
                   not position["trick"], position["first_trick"], differs)
            if kept[key] < PER_KEY:
                kept[key] += 1
                out.append(position)
    if made:
        out.extend(_made())
    counters: Counter = Counter()
    for position in out:
        group = "made" if position["source"] == "made" else position["variant"]
        counters[group] += 1
        position["id"] = f"{group}/{counters[group]}"
    return out


def suite_lines(positions: list[dict]) -> Iterator[str]:
    """Write the suite as JSON lines: a header, then one position a line."""
    variants = {name: {"ruleset": base, "options": options, "players": players,
                       "all_options": ruleset_options(variant_rules(base, options))}
                for name, base, options, players in VARIANTS}
    yield json.dumps({"format": FORMAT, "version": VERSION, "positions": len(positions),
                      "variants": variants}, ensure_ascii=False) + "\n"
    for position in positions:
        yield json.dumps(position, ensure_ascii=False) + "\n"


def _open_table(rules: Ruleset, players: int) -> State:
    """Make a hand at its first lead in which every seat holds every card (for following hearts
    broken through tricks, whoever played them)."""
    everything = counts_of(c for c in range(len(CARDS)) for _ in range(rules.decks))
    return engine.begin_play(engine.new_game(rules, players), [everything] * players, ())


def _played(state: State, cards) -> State:
    for card in cards:
        state = engine.play(state, state.to_play, card, check=False)
    return state
