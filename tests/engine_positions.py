"""Engine states made by hand for the engine's tests: a shuffled deal, a position in the middle
of a trick, and the check that a position allows exactly the cards it should."""

from __future__ import annotations

import random

import pytest

from referee.rules.cards import counts_of, parse_card, parse_cards
from referee.rules.state import IllegalAction, Phase
from referee.rules.engine import (
    apply,
    deal_from_order,
    full_deck,
    legal_plays,
    new_game,
    play_fault,
)
from referee.rules.legality import Fault
from referee.rules.ruleset import load_ruleset, with_options

CANCELLATION = load_ruleset("cancellation")
STANDARD = load_ruleset("standard")
NOPASS = with_options(CANCELLATION, pass_count=0)


def shuffled_state(rules=CANCELLATION, players=6, seed=1, state=None):
    """``state`` (a new game by default) after a deal from a deck shuffled with ``seed``."""
    state = state if state is not None else new_game(rules, players)
    order = full_deck(state.rules)
    random.Random(seed).shuffle(order)
    return apply(state, deal_from_order(state, order))


def position(rules=NOPASS, hands=None, *, players=6, leader=1, trick="", trick_number=1,
             hearts_broken=False, lowest=None):
    """A hand-made PLAY state: the given holdings, ``trick`` already played from ``leader``."""
    state = new_game(rules, players)
    holdings = tuple(counts_of(parse_cards((hands or {}).get(seat, ""))) for seat in range(players))
    played = parse_cards(trick)
    return state._replace(
        phase=Phase.PLAY, holdings=holdings, leader=leader, trick_number=trick_number,
        trick=tuple(((leader + i) % players, card) for i, card in enumerate(played)),
        hearts_broken=hearts_broken, lowest_club=lowest,
    )


def assert_legal(state, legal: str, illegal: dict[str, Fault]):
    """The player to play may play exactly the cards ``legal``; each card of ``illegal`` is
    refused with its fault and the fault's clause."""
    seat = state.to_play
    assert sorted(legal_plays(state)) == sorted(set(parse_cards(legal)))
    for card in parse_cards(legal):
        assert play_fault(state, seat, card) is None
        apply(state, card)  # accepted
    for text, fault in illegal.items():
        card = parse_card(text)
        assert play_fault(state, seat, card) is fault
        with pytest.raises(IllegalAction) as info:
            apply(state, card)
        assert info.value.fault is fault
        assert info.value.clause == fault.clause
