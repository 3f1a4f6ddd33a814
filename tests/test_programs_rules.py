"""The options that state the three public programs' rules, one by one, on the engine's parts.

Expected values are worked out by hand from spec/rules.md (the clause named in each test).
"""

from __future__ import annotations

import pytest

from referee.rules import engine, scoring
from referee.rules.cards import counts_of, parse_cards
from referee.rules.state import DealAction, IllegalAction, PassAction, Phase
from referee.rules.legality import Fault, card_fault, legal_cards
from referee.rules.ops import PLAIN
from referee.rules.ruleset_files import RulesetError
from referee.rules.ruleset import load_ruleset, with_options
from referee.rules.tricks import lead_card, resolve_trick

CANCELLATION = load_ruleset("cancellation")
DOUBLE_DECK = load_ruleset("examples/rulesets/DoubleDeckCancellationHearts.toml")
CANCELLATION_HEARTS = load_ruleset("examples/rulesets/cancellation-hearts.toml")
OREGONIAN = load_ruleset("examples/rulesets/cancellation-oregonian-hearts.toml")


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def holding(text: str):
    return counts_of(cards(text))


# -- R4.2, R5.3, R5.6: DoubleDeckCancellationHearts's trick 1 --------------------------------
def test_double_deck_trick_1_dead_end_has_no_legal_card():
    # spades led, the QS is the only spade held, a non-point card is held too
    hand = holding("QS 4H 2D 7C")
    assert legal_cards(DOUBLE_DECK, hand, cards("7S"), first_trick=True,
                       hearts_broken=False) == ()
    assert card_fault(DOUBLE_DECK, hand, cards("QS")[0], cards("7S"), first_trick=True,
                      hearts_broken=False) is Fault.FIRST_TRICK_POINTS
    assert card_fault(DOUBLE_DECK, hand, cards("2D")[0], cards("7S"), first_trick=True,
                      hearts_broken=False) is Fault.REVOKE
    # the default (and OpenSpiel's) reading lets the QS follow suit
    standard = load_ruleset("standard")
    assert legal_cards(standard, hand, cards("7S"), first_trick=True, hearts_broken=False) == \
        cards("QS")


def test_double_deck_points_may_go_to_trick_1_only_from_a_hand_of_points():
    assert legal_cards(DOUBLE_DECK, holding("QS 4H"), cards("7S"), first_trick=True,
                       hearts_broken=False) == cards("QS")
    assert legal_cards(DOUBLE_DECK, holding("4H 9H 2D"), cards("7S"), first_trick=True,
                       hearts_broken=False) == cards("2D")


def test_double_deck_first_lead_of_a_point_card_has_no_exception():
    only_points = holding("QS 4H 9H")
    assert legal_cards(DOUBLE_DECK, only_points, (), first_trick=True, hearts_broken=False) == ()
    # with the fallback (the default) the Black Maria may then be led
    assert legal_cards(with_options(DOUBLE_DECK, first_lead_fallback=True), only_points, (),
                       first_trick=True, hearts_broken=False) == cards("QS")


# -- R4.1: no dealer, the first leader follows the last winner ------------------------------
def test_double_deck_first_seat_leads_hand_1_and_then_the_seat_left_of_the_last_winner():
    state = engine.new_game(DOUBLE_DECK, 6)
    assert state.dealer == 5  # the seat right of the first seat: Al leads
    record = engine.TrickRecord(17, 2, (), None, 3, (), 0)
    assert engine.next_hand(state._replace(last_trick=record)).dealer == 3  # seat 4 leads
    set_aside = record._replace(winner=None)
    assert engine.next_hand(state._replace(last_trick=set_aside)).dealer == 2  # its leader


# -- R3.1, R2.4: cancellation-hearts's 2C ----------------------------------------------------
def _cancellation_hearts_deal(state, swap_to_one_hand: bool = False) -> DealAction:
    deck = sorted(engine.full_deck(CANCELLATION_HEARTS))
    hands = [list(deck[seat::8]) for seat in range(8)]
    if swap_to_one_hand:  # the second 2C joins the first, which gives up another card
        two = cards("2C")[0]
        first, second = (s for s in range(8) if two in hands[s])
        given = next(c for c in hands[first] if c != two)
        hands[first].remove(given)
        hands[second].remove(two)
        hands[first].append(two)
        hands[second].append(given)
    return DealAction(tuple(tuple(sorted(h)) for h in hands), ())


def test_cancellation_hearts_two_of_clubs_dealt_to_one_player_breaks_the_deal():
    state = engine.new_game(CANCELLATION_HEARTS, 8)
    assert engine.deal_problems(state, _cancellation_hearts_deal(state)) == []
    swapped = _cancellation_hearts_deal(state, swap_to_one_hand=True)
    assert engine.deal_problems(state, swapped) == ["one player was dealt both 2C"]


def test_cancellation_hearts_the_2c_may_not_be_passed():
    state = engine.new_game(CANCELLATION_HEARTS, 8)
    state = engine.apply(state, _cancellation_hearts_deal(state))
    assert state.phase is Phase.PASS
    two = cards("2C")[0]
    seat = next(s for s in range(8) if state.holdings[s][two])
    state = state._replace(passes=(("X",),) * seat + (None,) * (8 - seat))
    held = [c for c, n in enumerate(state.holdings[seat]) for _ in range(n)]
    assert two in held
    passes = engine.legal_actions(state)
    assert passes and all(two not in p.cards for p in passes)
    others = [c for c in held if c != two][:2]
    with pytest.raises(IllegalAction, match="may not be passed"):
        engine.apply(state, PassAction(seat, (two, *others)))


def test_unpassable_cards_must_be_cards():
    with pytest.raises(RulesetError, match="unpassable_cards"):
        with_options(CANCELLATION, unpassable_cards=["2X"])
    assert with_options(CANCELLATION, unpassable_cards=["2c", "2C"]).unpassable_cards == ("2C",)


# -- R4.3: which heart breaks hearts --------------------------------------------------------
def _after_trick(rules, players, plays):
    state = engine.new_game(rules, players)._replace(phase=Phase.PLAY, leader=0, trick_number=2)
    return engine.play_cards(state._replace(holdings=(holding(" ".join(plays)),) * players),
                             list(enumerate(cards(" ".join(plays)))))


def test_cancellation_hearts_a_led_heart_does_not_break_hearts_but_a_followed_one_does():
    led = _after_trick(CANCELLATION_HEARTS, 8, ["4H", "2C", "3C", "4C", "5C", "6C", "7C", "8C"])
    assert not led.hearts_broken
    followed = _after_trick(CANCELLATION_HEARTS, 8,
                            ["2C", "4H", "3C", "4C", "5C", "6C", "7C", "8C"])
    assert followed.hearts_broken
    queen = _after_trick(CANCELLATION_HEARTS, 8, ["2S", "QS", "3C", "4C", "5C", "6C", "7C", "8C"])
    # QS does not break hearts in cancellation-hearts (nor in DoubleDeckCancellationHearts)
    assert not queen.hearts_broken
    assert _after_trick(CANCELLATION, 8, ["4H", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]
                        ).hearts_broken


# -- R8.6, R8.1, R8.2: the moons ------------------------------------------------------------
def _scored(rules, taken, lost=0, pool=0):
    n = len(taken)
    state = engine.new_game(rules, n)._replace(phase=Phase.SCORING, taken=tuple(taken), lost=lost,
                                               tricks_won=(1,) * n, bonus=(0,) * n, pool=pool)
    return state


def test_cancellation_hearts_two_player_moon_and_one_player_moon():
    pair = _scored(CANCELLATION_HEARTS, [30, 22, 0, 0, 0, 0, 0, 0])
    assert engine.shooter(pair) is None and engine.moon_pair(pair) == (0, 1)
    assert engine.hand_scores(pair, None) == (0, 0, 26, 26, 26, 26, 26, 26)
    one = _scored(CANCELLATION_HEARTS, [0, 52, 0, 0, 0, 0, 0, 0])
    assert engine.scoring_actions(one) == ("add",)
    assert engine.hand_scores(one, "add") == (104, 0, 104, 104, 104, 104, 104, 104)
    # three players scoring is no moon; a lost point spoils the pair
    three = _scored(CANCELLATION_HEARTS, [30, 21, 1, 0, 0, 0, 0, 0])
    assert engine.hand_scores(three, None) == (30, 21, 1, 0, 0, 0, 0, 0)
    spoiled = _scored(CANCELLATION_HEARTS, [30, 21, 0, 0, 0, 0, 0, 0], lost=1)
    assert engine.hand_scores(spoiled, None)[2] == 0


def test_double_deck_moon_is_minus_52_to_the_shooter():
    one = _scored(DOUBLE_DECK, [0, 0, 52, 0, 0, 0])
    assert engine.scoring_actions(one) == ("subtract",)
    assert engine.hand_scores(one, "subtract") == (0, 0, -52, 0, 0, 0)


# -- R7.3, R7.4, R7.5, R9: cancellation-oregonian-hearts's scoring --------------------------
def test_oregonian_penalties_and_the_clean_hand_pool():
    # two clean players share 52 + 3 carried: 27 each, 1 carries
    state = _scored(OREGONIAN, [0, 13, 0, 20, 10, 9], pool=3)
    assert engine.shooter(state) is None  # no moon here, not even 52 points to one player
    assert engine.hand_scores(state, None) == (27, -13, 27, -20, -10, -9)
    assert engine.apply(state, engine.SCORE).pool == 1
    everyone = _scored(OREGONIAN, [1, 13, 10, 20, 1, 7], pool=5)
    assert engine.hand_scores(everyone, None) == (-1, -13, -10, -20, -1, -7)
    assert engine.apply(everyone, engine.SCORE).pool == 57
    alone = _scored(OREGONIAN, [52, 0, 0, 0, 0, 0])
    assert engine.hand_scores(alone, None) == (-52, 10, 10, 10, 10, 10)  # 52 // 5, 2 carry


@pytest.mark.parametrize("taken, carried", [([0, 13, 0, 20, 10, 9], 3), ([1, 13, 10, 20, 1, 7], 5),
                                            ([52, 0, 0, 0, 0, 0], 0)])
def test_oregonian_the_ops_statement_scores_as_the_engine(taken, carried):
    state = _scored(OREGONIAN, taken, pool=carried)
    scores, _ = scoring.hand_scores(PLAIN, OREGONIAN, taken, 0, [0] * 6, None, None, carried)
    assert tuple(scores) == engine.hand_scores(state, None)
    assert scoring.pool_shares(PLAIN, OREGONIAN, taken, carried)[1] == engine.apply(
        state, engine.SCORE).pool


def test_cancellation_hearts_the_ops_statement_scores_the_pair_moon_as_the_engine():
    taken = [30, 22, 0, 0, 0, 0, 0, 0]
    scores, _ = scoring.hand_scores(PLAIN, CANCELLATION_HEARTS, taken, 0, [0] * 8, None, None)
    assert tuple(scores) == engine.hand_scores(_scored(CANCELLATION_HEARTS, taken), None)


def test_oregonian_totals_start_at_100_the_game_is_n_hands_and_the_highest_total_wins():
    state = engine.new_game(OREGONIAN, 4)
    assert state.totals == (100, 100, 100, 100)
    for number in range(1, 5):
        state = state._replace(hand_number=number, totals=(100 + number, 90, 120, 80))
        state = engine.conclude_hand(state)
        assert (state.phase is Phase.OVER) == (number == 4)
    assert state.winners == (2,)


def test_oregonian_passes_k_minus_1_seats_left():
    assert [OREGONIAN.pass_direction(k) for k in range(1, 6)] == [
        "hold", "left", "2 left", "3 left", "4 left"]


def test_across_is_floor_n_over_2_for_odd_n():
    assert DOUBLE_DECK.pass_direction(3) == "across"
    from referee.rules.ruleset import direction_offset
    assert direction_offset("across", 5) == 2 and direction_offset("across", 7) == 3


# -- R5.5, R6.4: the lead-suit switch and the leader who wins --------------------------------
def test_oregonian_lead_suit_switch_and_the_final_lead_suit_wins():
    trick = cards("2S 3S 3S QH AH 7H")
    assert lead_card(trick, True) == cards("QH")[0] and lead_card(trick, False) == trick[0]
    assert resolve_trick(trick, lead_switch=True).winner == 4  # AH
    assert resolve_trick(trick).winner == 0  # without the switch: 2S (the 3S cancel)
    # a follower must follow the current lead suit
    assert legal_cards(OREGONIAN, holding("2H 9S 4D"), trick[:4], first_trick=False,
                       hearts_broken=True) == cards("2H")


def test_oregonian_nothing_survives_the_leader_wins():
    trick = cards("AS AS 2D 2D")  # diamonds became the lead suit; both 2D cancel
    assert resolve_trick(trick, lead_switch=True).winner is None
    assert resolve_trick(trick, lead_switch=True, leader_wins=True).winner == 0
    assert resolve_trick(cards("AS AS 2D 3D"), lead_switch=True, leader_wins=True).winner == 3


def test_every_reader_of_a_trick_resolves_it_under_the_ruleset_s_options():
    # resolve_under is what the engine, the sheet check, the generator and the injector ask:
    # under cancellation-oregonian-hearts the switched lead suit and the leader who wins count,
    # under DoubleDeckCancellationHearts they do not
    from referee.rules.tricks import resolve_under

    switched = cards("2S 3S 3S QH AH 7H")
    assert resolve_under(OREGONIAN, switched).winner == 4
    assert resolve_under(DOUBLE_DECK, switched).winner == 0
    all_cancel = cards("AS AS 2D 2D")
    assert resolve_under(OREGONIAN, all_cancel).winner == 0
    assert resolve_under(DOUBLE_DECK, all_cancel).winner is None
