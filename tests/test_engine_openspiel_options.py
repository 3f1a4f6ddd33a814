"""The options that express OpenSpiel's last two parameters: ``first_lead_any_club`` (R4.1,
OpenSpiel's ``can_lead_any_club``) and ``no_tricks_bonus_in_moon_hand`` (R7.3, the reading of
OpenSpiel's ``avoid_all_tricks_bonus``)."""

from __future__ import annotations

import pytest
from engine_positions import NOPASS, STANDARD, assert_legal, position, shuffled_state

from referee.rules.cards import CLUBS, NUM_RANKS, TWO_OF_CLUBS, parse_card
from referee.rules.engine import hand_scores, legal_plays, new_game, play_fault
from referee.rules.legality import Fault
from referee.rules.ruleset import load_ruleset, with_options

ANY_CLUB = with_options(NOPASS, first_leader="two_of_clubs", first_lead_any_club=True)
NO_TRICKS_BONUS = -5
JD_BONUS = -10


# -- first_lead_any_club (R4.1) ----------------------------------------------------------------
def test_the_lowest_clubs_holder_may_lead_any_club_but_nothing_else():
    state = position(ANY_CLUB, {1: "2C 5C KC AH QS 9D"}, lowest=TWO_OF_CLUBS)
    assert_legal(state, "2C 5C KC", {"AH": Fault.MUST_LEAD_A_CLUB,
                                     "QS": Fault.MUST_LEAD_A_CLUB,
                                     "9D": Fault.MUST_LEAD_A_CLUB, "3C": Fault.NOT_HELD})
    # without the option only the lowest club
    plain = position(with_options(ANY_CLUB, first_lead_any_club=False), {1: "2C 5C KC 9D"},
                     lowest=TWO_OF_CLUBS)
    assert_legal(plain, "2C", {"5C": Fault.MUST_LEAD_LOWEST_CLUB, "9D": Fault.MUST_LEAD_LOWEST_CLUB})


def test_any_club_when_both_twos_of_clubs_lie_in_the_kitty():
    three = parse_card("3C")
    state = position(ANY_CLUB, {1: "3C 3C 8C 2D"}, lowest=three)
    assert_legal(state, "3C 8C", {"2D": Fault.MUST_LEAD_A_CLUB})


def test_the_option_changes_only_the_first_lead():
    after = position(ANY_CLUB, {1: "5C AH 9D"}, trick_number=2)
    assert_legal(after, "5C 9D", {"AH": Fault.HEARTS_NOT_BROKEN})
    follow = position(ANY_CLUB, {2: "5C AH 9D"}, trick="KC", lowest=TWO_OF_CLUBS)
    assert_legal(follow, "5C", {"AH": Fault.REVOKE, "9D": Fault.REVOKE})


def test_with_left_of_dealer_the_option_has_no_effect():
    rules = with_options(NOPASS, first_lead_any_club=True)
    assert rules.first_leader == "left_of_dealer"
    for hands in ({1: "AH 2H QS 5C 9D"}, {1: "AH 2H QS QS"}):
        with_option, without = position(rules, hands), position(NOPASS, hands)
        assert legal_plays(with_option) == legal_plays(without)
        for card in range(4 * NUM_RANKS):
            assert play_fault(with_option, 1, card) is play_fault(without, 1, card)


def test_the_twin_follows_only_a_led_lowest_club():
    rules = with_options(ANY_CLUB, second_two_of_clubs_follows=True)
    # the lowest club led: its twin must follow, as without the option
    state = position(rules, {2: "2C 3C 9D"}, trick="2C", lowest=TWO_OF_CLUBS)
    assert_legal(state, "2C", {"3C": Fault.MUST_PLAY_TWIN_CLUB, "9D": Fault.REVOKE})
    # another club led: the holder of a 2C follows suit with any club
    state = position(rules, {2: "2C 3C 9D"}, trick="5C", lowest=TWO_OF_CLUBS)
    assert_legal(state, "2C 3C", {"9D": Fault.REVOKE})


@pytest.mark.parametrize("seed", range(6))
def test_standard_with_any_club_deals(seed):
    rules = with_options(STANDARD, pass_count=0, first_lead_any_club=True)
    state = shuffled_state(state=new_game(rules, 4), seed=seed)
    holder = state.leader
    assert state.holdings[holder][TWO_OF_CLUBS]
    clubs = {c for c in range(CLUBS * NUM_RANKS, (CLUBS + 1) * NUM_RANKS)
             if state.holdings[holder][c]}
    assert set(legal_plays(state)) == clubs
    for card in range(4 * NUM_RANKS):
        fault = play_fault(state, holder, card)
        if not state.holdings[holder][card]:
            assert fault is Fault.NOT_HELD
        else:
            assert (fault is None) == (card in clubs)
            assert fault in (None, Fault.MUST_LEAD_A_CLUB)


def test_the_option_is_off_in_the_bundled_rulesets():
    for name in ("cancellation", "standard"):
        rules = load_ruleset(name)
        assert rules.first_lead_any_club is False and rules.no_tricks_bonus_in_moon_hand is True


# -- no_tricks_bonus_in_moon_hand (R7.3) -------------------------------------------------------
def _scores(rules, taken, won, bonus=(0, 0, 0, 0), choice="add"):
    state = new_game(rules, 4)._replace(taken=taken, tricks_won=won, bonus=bonus, lost=0)
    return hand_scores(state, choice)


@pytest.mark.parametrize("in_moon", [True, False])
def test_no_tricks_bonus_outside_a_moon_hand_either_way(in_moon):
    rules = with_options(STANDARD, no_tricks_bonus=NO_TRICKS_BONUS,
                         no_tricks_bonus_in_moon_hand=in_moon)
    assert _scores(rules, (20, 6, 0, 0), (7, 3, 3, 0)) == (20, 6, 0, NO_TRICKS_BONUS)


def test_no_tricks_bonus_in_a_moon_hand():
    rules = with_options(STANDARD, no_tricks_bonus=NO_TRICKS_BONUS)
    moon = STANDARD.moon_points
    # the default: the bonus is given in a moon hand too (old behaviour)
    assert _scores(rules, (26, 0, 0, 0), (10, 3, 0, 0)) == (
        0, moon, moon + NO_TRICKS_BONUS, moon + NO_TRICKS_BONUS)
    openspiel = with_options(rules, no_tricks_bonus_in_moon_hand=False)
    assert _scores(openspiel, (26, 0, 0, 0), (10, 3, 0, 0)) == (0, moon, moon, moon)
    # other bonuses still count in a moon hand (OpenSpiel's jd_bonus does)
    jack = with_options(openspiel, jack_of_diamonds_bonus=JD_BONUS)
    assert _scores(jack, (26, 0, 0, 0), (13, 0, 0, 0), bonus=(JD_BONUS, 0, 0, 0)) == (
        JD_BONUS, moon, moon, moon)
    subtract = with_options(openspiel, moon_choices=["subtract"])
    assert _scores(subtract, (26, 0, 0, 0), (13, 0, 0, 0), choice="subtract") == (-moon, 0, 0, 0)
