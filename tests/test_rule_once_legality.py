"""The legality rule (lead, follow, first trick, hearts broken) is stated once, as the layers of
:mod:`referee.rules.legality`; every other copy is derived from them or held to them here.

* ``legality.card_fault`` and ``legality.legal_cards``: both computed from the layers; held to
  each other and to hand-worked cases below.
* ``partial.play_facts`` (the prover's play facts): read off the layers; held to
  ``card_fault`` on concrete holdings below.
* ``inject.violating_cards`` (the tamper's pick): asks ``engine.play_fault``; held to an
  independent statement of which violations the tamper makes below.
* the check's fast path in ``judge/plays.py``: held to ``engine.play_fault`` by checking
  games of random (often illegal) plays and comparing every play diagnostic.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.judge import codes
from referee.judge.plays import FAULT_CODES
from referee.judge.walk import judge_parsed
from referee.conformance.generate import generate_game
from referee.conformance.inject import PLAY_KINDS, violating_cards
from referee.log.parser import parse_log
from referee.log.writer import write
from referee.proofs.partial import play_facts
from referee.rules import engine
from referee.rules.cards import (
    DECK_SIZE,
    HEARTS,
    NUM_RANKS,
    QUEEN_OF_SPADES,
    parse_card,
)
from referee.rules.legality import Fault, card_fault, legal_cards, lowest_club
from referee.rules.ruleset import is_point_card, load_ruleset, with_options

STANDARD, CANCELLATION = load_ruleset("standard"), load_ruleset("cancellation")
OPTIONS = ("first_lead_any_club", "second_two_of_clubs_follows", "first_lead_points",
           "first_trick_points", "first_trick_follow_points", "must_break_hearts",
           "lead_hearts_instead_of_queen")
# one card of each kind the rules tell apart, and a second of some, so holdings stay small
SAMPLE = tuple(parse_card(t) for t in "2S 9S QS AS 2H 7H AH 2D KD 2C 3C 4C".split())


@st.composite
def rulesets(draw):
    base = draw(st.sampled_from((STANDARD, CANCELLATION)))
    return with_options(base, first_leader=draw(st.sampled_from(("two_of_clubs",
                                                                 "left_of_dealer"))),
                        **{name: draw(st.booleans()) for name in OPTIONS})


def holdings(size: int = 5):
    return st.lists(st.sampled_from(SAMPLE), min_size=1, max_size=size).map(_counts)


def _counts(cards) -> tuple[int, ...]:
    counts = [0] * DECK_SIZE
    for card in cards:
        counts[card] = min(2, counts[card] + 1)
    return tuple(counts)


def _hand(text: str) -> tuple[int, ...]:
    return _counts(parse_card(t) for t in text.split())


# -- card_fault and legal_cards --------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(rulesets(), holdings(), st.sampled_from(((),) + tuple((c,) for c in SAMPLE)),
       st.booleans(), st.booleans(), st.sampled_from((None,) + SAMPLE[-3:]))
def test_legal_cards_are_exactly_the_cards_card_fault_passes(rules, holding, trick, first,
                                                             broken, lowest):
    kw = dict(first_trick=first, hearts_broken=broken, lowest=lowest)
    legal = legal_cards(rules, holding, trick, **kw)
    assert len(set(legal)) == len(legal)
    passed = {c for c in range(DECK_SIZE) if card_fault(rules, holding, c, trick, **kw) is None}
    seat_not_named = (not trick and first and rules.first_leader == "two_of_clubs"
                      and lowest is not None and not holding[lowest])
    if seat_not_named:  # the one documented difference: any held card is listed
        assert set(legal) == {c for c in range(DECK_SIZE) if holding[c]}
    else:
        assert set(legal) == passed


def test_hearts_are_led_only_when_broken_or_nothing_else_is_held():
    rules = CANCELLATION
    mixed, hearts = _hand("7H AH 9S"), _hand("7H AH")
    leads = dict(first_trick=False, lowest=None)
    assert set(legal_cards(rules, mixed, (), hearts_broken=False, **leads)) == {parse_card("9S")}
    assert set(legal_cards(rules, mixed, (), hearts_broken=True, **leads)) == set(
        map(parse_card, ("7H", "AH", "9S")))
    assert set(legal_cards(rules, hearts, (), hearts_broken=False, **leads)) == set(
        map(parse_card, ("7H", "AH")))
    assert card_fault(rules, mixed, parse_card("7H"), (), hearts_broken=False,
                      **leads) is Fault.HEARTS_NOT_BROKEN
    assert card_fault(rules, mixed, parse_card("7H"), (), hearts_broken=True, **leads) is None
    queen = with_options(rules, lead_hearts_instead_of_queen=True)
    assert card_fault(queen, _hand("7H QS"), parse_card("7H"), (), hearts_broken=False,
                      **leads) is None
    assert card_fault(rules, _hand("7H QS"), parse_card("7H"), (), hearts_broken=False,
                      **leads) is Fault.HEARTS_NOT_BROKEN


def test_first_trick_layers_by_hand():
    follow = dict(first_trick=True, hearts_broken=False, lowest=parse_card("2C"))
    spades = (parse_card("5S"),)
    # STANDARD: no points on the first trick; following suit, compared with the led suit only
    assert legal_cards(STANDARD, _hand("QS 3S 2D"), spades, **follow) == (parse_card("3S"),)
    assert set(legal_cards(STANDARD, _hand("QS AH"), spades, **follow)) == {parse_card("QS")}
    assert set(legal_cards(STANDARD, _hand("AH 2D"), spades, **follow)) == {parse_card("2D")}
    points_follow = with_options(STANDARD, first_trick_follow_points=True)
    assert set(legal_cards(points_follow, _hand("QS 3S"), spades, **follow)) == set(
        map(parse_card, ("QS", "3S")))
    assert set(legal_cards(STANDARD, _hand("AH 2D"), (), **follow)) == set(
        map(parse_card, ("AH", "2D")))  # not the leader named by R4.1: any card
    assert legal_cards(STANDARD, _hand("2C 2D"), (), **follow) == (parse_card("2C"),)
    twin = with_options(CANCELLATION, first_leader="two_of_clubs",
                        second_two_of_clubs_follows=True, first_trick_points=True)
    assert legal_cards(twin, _hand("2C 4C"), (parse_card("2C"),), **follow) == (parse_card("2C"),)
    assert card_fault(twin, _hand("2C 4C"), parse_card("4C"), (parse_card("2C"),),
                      **follow) is Fault.MUST_PLAY_TWIN_CLUB


def test_every_play_fault_has_a_diagnostic():
    assert set(FAULT_CODES) == set(Fault) - {Fault.WRONG_PHASE, Fault.OUT_OF_TURN}
    assert {FAULT_CODES[f] for f in (Fault.MUST_LEAD_LOWEST_CLUB, Fault.MUST_LEAD_A_CLUB,
                                     Fault.FIRST_LEAD_POINTS, Fault.HEARTS_NOT_BROKEN)} == {
        codes.ILLEGAL_LEAD}
    assert FAULT_CODES[Fault.REVOKE] == codes.REVOKE


# -- the partial-record prover's play facts --------------------------------------------------
def _facts_hold(rules, seats, card, led, first, broken) -> bool:
    for fact in play_facts(rules, card, led, first_trick=first, hearts_broken=broken):
        whose = seats if fact.everyone else seats[:1]
        if any(holding[c] for holding in whose for c in fact.witnesses):
            return False
    return True


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(rulesets(), st.lists(holdings(4), min_size=3, max_size=3), st.data(), st.booleans(),
       st.booleans(), st.sampled_from((None,) + SAMPLE))
def test_partial_play_facts_hold_exactly_when_the_play_is_legal(rules, seats, data, first,
                                                                broken, led):
    card = data.draw(st.sampled_from([c for c in range(DECK_SIZE) if seats[0][c]]))
    no_twin = with_options(rules, second_two_of_clubs_follows=False)  # needs the lowest club
    fault = card_fault(no_twin, seats[0], card, () if led is None else (led,), first_trick=first,
                       hearts_broken=broken, lowest=lowest_club(seats))
    assert _facts_hold(rules, seats, card, led, first, broken) == (fault is None), fault


# -- the tamper's pick -----------------------------------------------------------------------
def _old_style_pick(kind, state):
    """Which illegal card the tamper may play, stated directly from the rules it injects."""
    holding, trick, rules = state.holdings[state.to_play], state.trick_cards, state.rules
    held = [c for c in range(DECK_SIZE) if holding[c]]
    if kind == codes.REVOKE and trick:
        led = trick[0] // NUM_RANKS
        if any(c // NUM_RANKS == led for c in held):
            return [c for c in held if c // NUM_RANKS != led]
    if kind == codes.ILLEGAL_LEAD and not trick:
        if state.trick_number == 1 and rules.first_leader == "two_of_clubs":
            return []
        if state.trick_number == 1 and not rules.first_lead_points:
            if any(not is_point_card(c) for c in held):
                return [c for c in held if is_point_card(c)]
            return []
        exempt = {QUEEN_OF_SPADES} if rules.lead_hearts_instead_of_queen else set()
        if (rules.must_break_hearts and not state.hearts_broken
                and any(c // NUM_RANKS != HEARTS and c not in exempt for c in held)):
            return [c for c in held if c // NUM_RANKS == HEARTS]
    if kind == codes.CARD_NOT_HELD and trick:
        return [c for c in range(DECK_SIZE) if not any(h[c] for h in state.holdings)
                and c not in trick and c not in state.kitty]
    if kind == codes.ILLEGAL_PLAY and trick and state.trick_number == 1:
        led = trick[0] // NUM_RANKS
        points = [c for c in held if is_point_card(c)]
        if (not rules.first_trick_points and not any(c // NUM_RANKS == led for c in held)
                and len(points) < len(held)):
            return points
    return []


class _Recorder:
    """A tamper that never tampers, keeping every state it is shown."""

    def __init__(self):
        self.states = []

    def lead(self, state):
        return state

    def play(self, state, legal):
        self.states.append(state)
        return None


def _states(rules, players, seed):
    recorder = _Recorder()
    generate_game(rules, players, seed=seed, hands=1, tamper=recorder)
    return recorder.states


def test_the_tamper_picks_exactly_the_cards_that_break_its_layers():
    tried = {kind: 0 for kind in PLAY_KINDS if kind != codes.WRONG_LEADER}
    games = [(CANCELLATION, 6, seed) for seed in range(3)] + [(STANDARD, 4, 0)]
    games += [(with_options(STANDARD, first_leader="left_of_dealer"), 4, seed)
              for seed in range(12)]  # the first trick from a void happens to one seat in ~20
    for rules, players, seed in games:
        for state in _states(rules, players, seed):
            for kind in tried:
                picked = violating_cards(kind, state)
                assert sorted(picked) == sorted(_old_style_pick(kind, state)), kind
                for card in picked:
                    assert FAULT_CODES[engine.play_fault(state, state.to_play, card)] == kind
                tried[kind] += bool(picked)
    assert all(tried.values()), tried


# -- the check's fast path -------------------------------------------------------------------
class _Chaos:
    """Plays a random card most of the time: held or not, legal or not; records what the
    referee must then say of each play (by the engine's play_fault and the copies seen)."""

    def __init__(self, seed):
        self.rng, self.expected, self.seen = random.Random(seed), set(), {}
        self.unknown: set[int] = set()  # the hands with a card not held played: legal from there

    def lead(self, state):
        return state

    def play(self, state, legal):
        seat = state.to_play
        held = [c for c in range(DECK_SIZE) if state.holdings[seat][c]]
        # a card ruled not held stands for an unknown card of its seat (no copy played, no lead
        # suit, no winner known): the rest of its hand is played legally
        roll = 1.0 if state.hand_number in self.unknown else self.rng.random()
        if roll < 0.1:
            card = self.rng.randrange(DECK_SIZE)
        elif roll < 0.6:
            card = self.rng.choice(held)
        else:
            card = self.rng.choice(legal)
        key = (state.hand_number, card)
        self.seen[key] = self.seen.get(key, state.kitty.count(card)) + 1
        fault = engine.play_fault(state, seat, card)
        kind = (codes.CARD_NOT_HELD if self.seen[key] > state.rules.decks
                else FAULT_CODES.get(fault))
        if kind == codes.CARD_NOT_HELD:
            self.seen[key] -= 1
            self.unknown.add(state.hand_number)
        if kind is not None:
            self.expected.add((kind, state.hand_number, state.trick_number, seat))
        return card


def _play_diagnostics(text, names):
    report = judge_parsed(parse_log(text), "chaos.log")
    kinds = {codes.CARD_NOT_HELD, codes.ILLEGAL_LEAD, codes.ILLEGAL_PLAY, codes.REVOKE}
    return {(d.kind, d.hand, d.trick, names.index(d.player)) for d in report.diagnostics
            if d.kind in kinds}


def test_the_check_reports_exactly_the_plays_the_layers_fault():
    from referee.rules.names import DEFAULT_NAMES

    plays_faulted = 0
    # the log names its ruleset, so only the bundled ones can be checked
    for rules, players in ((CANCELLATION, 6), (CANCELLATION, 8), (STANDARD, 4)):
        for seed in range(8):
            chaos = _Chaos(seed)
            events = generate_game(rules, players, seed=seed, hands=2, tamper=chaos)
            names = list(DEFAULT_NAMES[:players])
            assert _play_diagnostics(write(events), names) == chaos.expected, (rules.name, players, seed)
            plays_faulted += len(chaos.expected)
    assert plays_faulted > 100
