"""Hypothesis plays random legal games through the engine and checks its laws.

Deals are drawn as permutations of the decks (``st.permutations(full_deck(rules))``), never as
a seed; every pass, play and moon choice is drawn as an index into the legal list.  For every
player count of ``cancellation`` (6-11), for ``standard`` (4) and for random option variants:

(a) every card copy is played exactly once per hand: plays + kitty == the decks, and each
    player plays exactly their holding after passing;
(b) points are conserved per hand: sum(taken) + lost == points_per_hand, and both agree with
    the cards each trick record says were collected;
(c) while a player holds cards there is a legal action (PASS, PLAY and SCORING);
(d) an action is accepted exactly when it is in the legal list: for every card identity,
    ``play_fault`` is None iff the card is in ``legal_plays``, and ``apply`` raises
    IllegalAction (with that fault) for the others;
(e) totals are the running sum of hand scores, and the game ends exactly when one reaches
    the target.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.cards import (
    CARDS,
    DECK_SIZE,
    HEARTS,
    JACK_OF_DIAMONDS,
    NUM_RANKS,
    QUEEN_OF_SPADES,
)
from referee.rules.engine import (
    SCORE,
    apply,
    deal_from_order,
    full_deck,
    legal_actions,
    legal_plays,
    new_game,
    pass_recipient,
    play_cards,
    play_fault,
    shooter,
)
from referee.rules.state import DealAction, IllegalAction, Phase
from referee.rules.legality import Fault
from referee.rules.options import DealerMoves, FirstLeader, KittyTo, SetAsideLast, SetAsideWhen
from referee.rules.ruleset import (
    card_points,
    direction_offset,
    load_ruleset,
    with_options,
)

pytestmark = pytest.mark.slow  # Hypothesis plays hundreds of whole games

CANCELLATION = load_ruleset("cancellation")
STANDARD = load_ruleset("standard")

FAST = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)  # random or derandomized as the loaded profile says (tests/conftest.py: derandomized in CI)


def _counter(counts) -> Counter:
    return Counter({CARDS[c]: n for c, n in enumerate(counts) if n})


def _check_every_card(state) -> None:
    """(d): for every card identity, play_fault agrees with legal_plays and with apply."""
    seat = state.to_play
    legal = legal_plays(state)
    legal_set = set(legal)
    assert legal, "a player with cards has no legal play"  # (c)
    assert len(legal_set) == len(legal), "legal_plays lists a card twice"
    holding = state.holdings[seat]
    for card in range(DECK_SIZE):
        fault = play_fault(state, seat, card)
        assert (fault is None) == (card in legal_set), (card, fault, legal)
        if not holding[card]:
            assert fault is Fault.NOT_HELD
        if fault is not None:
            try:
                apply(state, card)
            except IllegalAction as err:
                assert err.fault is fault and err.clause == fault.clause
            else:
                raise AssertionError(f"apply accepted {CARDS[card]} against {fault}")
    other = (seat + 1) % state.players
    assert play_fault(state, other, legal[0]) is Fault.OUT_OF_TURN


def play_hand(state, data, *, deal=None, every_card=True):
    """Deal (a drawn permutation unless given), pass, play and score one hand; check (a)-(e)."""
    rules, n = state.rules, state.players
    assert state.phase is Phase.DEAL
    assert legal_actions(state) == ()
    if deal is None:
        order = data.draw(st.permutations(full_deck(rules)), label="deal")
        deal = deal_from_order(state, order)
    state = apply(state, deal)
    dealt = state.holdings
    per = rules.cards_per_player(n)
    assert [sum(h) for h in dealt] == [per] * n

    # -- passing (R3) --
    passed = {}
    offset = direction_offset(state.pass_direction, n)
    assert (state.phase is Phase.PASS) == (offset != 0)
    while state.phase is Phase.PASS:
        actions = legal_actions(state)
        assert actions  # (c)
        seat = state.passes.index(None)
        assert {a.seat for a in actions} == {seat}
        assert all(len(a.cards) == rules.pass_count for a in actions)
        action = actions[data.draw(st.integers(0, len(actions) - 1), label="pass")]
        assert not Counter(action.cards) - _counter(state.holdings[seat])
        passed[seat] = action.cards
        state = apply(state, action)
        if state.phase is Phase.PASS:
            assert state.holdings == dealt  # simultaneous: nothing moves yet
    assert state.phase is Phase.PLAY
    after_pass = state.holdings
    for seat in range(n):
        expected = _counter(dealt[seat])
        if passed:
            expected.subtract(passed[seat])
            giver = (seat - offset) % n
            assert pass_recipient(state, giver) == seat
            expected.update(passed[giver])
        assert +expected == _counter(after_pass[seat])

    # -- play (R4-R6) --
    played = [Counter() for _ in range(n)]
    records = []
    broken = False  # R4.3, tracked independently of the engine
    while state.phase is Phase.PLAY:
        seat = state.to_play
        assert sum(state.holdings[seat]) > 0
        assert state.hearts_broken == broken
        if every_card:
            _check_every_card(state)
        legal = legal_plays(state)
        assert legal  # (c)
        card = legal[data.draw(st.integers(0, len(legal) - 1), label="play")]
        leader, number = state.leader, state.trick_number
        if not state.trick:
            trick_start = state
        state = apply(state, card)
        played[seat][card] += 1
        if not state.trick and (state.phase is not Phase.PLAY or state.trick_number != number):
            record = state.last_trick
            assert record.number == number and record.leader == leader
            assert len(record.plays) == n
            assert [s for s, _ in record.plays] == [(leader + i) % n for i in range(n)]
            if record.outcome.winner is not None:
                assert record.winner == record.plays[record.outcome.winner][0]
            if state.phase is Phase.PLAY:
                assert state.leader == (record.winner if record.winner is not None else leader)
            records.append(record)
            # the referee's fast path plays a whole trick at once, to the same state
            assert play_cards(trick_start, record.plays) == state
            broken = broken or any(
                c // NUM_RANKS == HEARTS or (c == QUEEN_OF_SPADES and rules.queen_breaks_hearts)
                for _, c in record.plays)
    assert state.phase is Phase.SCORING
    assert len(records) == per
    assert all(sum(h) == 0 for h in state.holdings)

    # (a) every copy played exactly once; each player played their holding after passing
    for seat in range(n):
        assert played[seat] == _counter(after_pass[seat])
    everything = sum(played, Counter()) + Counter(deal.kitty)
    assert everything == Counter({card: rules.decks for card in CARDS})

    # (b) points conserved, and they are the points of what was collected
    collected = [Counter() for _ in range(n)]
    for record in records:
        if record.winner is not None:
            collected[record.winner].update(record.collected)
            assert record.points == sum(card_points(c) for c in record.collected)
        else:
            assert record.collected == ()
    taken = tuple(sum(card_points(c) * k for c, k in pile.items()) for pile in collected)
    assert state.taken == taken
    lost_cards = everything - sum(collected, Counter())
    lost = sum(card_points(c) * k for c, k in lost_cards.items())
    assert state.lost == lost
    assert sum(state.taken) + state.lost == rules.points_per_hand
    if state.lost:
        assert records[-1].winner is None and rules.set_aside_last == "nobody"
    tricks_won = Counter(r.winner for r in records if r.winner is not None)
    assert state.tricks_won == tuple(tricks_won[s] for s in range(n))

    # -- scoring (R7-R9) --
    actions = legal_actions(state)
    assert actions  # (c)
    moon = shooter(state)
    whole = [s for s in range(n) if taken[s] == rules.points_per_hand]
    assert moon == (whole[0] if whole else None)
    assert actions == (rules.moon_choices if moon is not None else (SCORE,))
    choice = actions[data.draw(st.integers(0, len(actions) - 1), label="score")]
    for wrong in {SCORE, "subtract", "add", "pass"} - set(actions):
        try:
            apply(state, wrong)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"apply accepted scoring action {wrong!r}")
    before = state.totals
    state = apply(state, choice)
    result = state.history[-1]
    # (e) the hand score, independently: taken or moon scores, plus bonuses
    if moon is None:
        expected = list(taken)
    elif choice == "subtract":
        expected = [-rules.moon_points if s == moon else 0 for s in range(n)]
    else:
        expected = [0 if s == moon else rules.moon_points for s in range(n)]
    for s in range(n):
        expected[s] += rules.jack_of_diamonds_bonus * collected[s][CARDS[JACK_OF_DIAMONDS]]
        if tricks_won[s] == 0 and (moon is None or rules.no_tricks_bonus_in_moon_hand):
            expected[s] += rules.no_tricks_bonus
    assert result.scores == tuple(expected)
    assert result.taken == taken and result.lost == lost
    assert result.shooter == moon
    assert state.totals == tuple(b + s for b, s in zip(before, result.scores)) == result.totals
    assert state.phase is (Phase.OVER if max(state.totals) >= rules.target else Phase.DEAL)
    return state


def play_game(rules, players, data, hands, **kwargs):
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    state = new_game(rules, players, dealer=dealer)
    no_dealer = rules.first_leader == "after_last_winner"
    for number in range(1, hands + 1):
        assert state.hand_number == number
        step = 1 if rules.dealer_moves == "left" else -1
        if not no_dealer:
            assert state.dealer == (dealer + step * (number - 1)) % players
        elif number == 1:
            assert state.dealer == players - 1  # R4.1: the first seat leads hand 1
        # (later hands: led from the left of the last trick's winner, tests/test_programs_*)
        state = play_hand(state, data, **kwargs)
        # (e) totals are the running sum of every hand's scores
        assert state.totals == tuple(map(sum, zip(*(h.scores for h in state.history))))
        assert [h.number for h in state.history] == list(range(1, number + 1))
        if state.phase is Phase.OVER:
            low = min(state.totals)
            assert state.winners == tuple(s for s in range(players) if state.totals[s] == low)
            assert legal_actions(state) == ()
            break
    return state


@pytest.mark.parametrize("players", range(6, 12))
@settings(FAST, max_examples=12)
@given(data=st.data())
def test_random_cancellation_games(players, data):
    # hands 1, 2, 3: pass left, right, left
    play_game(CANCELLATION, players, data, hands=3)


@settings(FAST, max_examples=30)
@given(data=st.data())
def test_random_standard_games(data):
    # four hands: left, right, across, hold
    play_game(STANDARD, 4, data, hands=4)


@pytest.mark.parametrize("players", range(6, 12))
@settings(FAST, max_examples=5, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
@given(data=st.data())
def test_random_games_to_the_end(players, data):
    # a low target so that games end (R9), sometimes with shared wins; checked in play_game
    rules = with_options(CANCELLATION, target=25)
    play_game(rules, players, data, hands=15, every_card=False)


@st.composite
def variants(draw):
    base = draw(st.sampled_from([CANCELLATION, STANDARD]))
    players = draw(st.integers(base.min_players, base.max_players))
    changes = dict(
        first_leader=draw(st.sampled_from(FirstLeader)),
        first_lead_any_club=draw(st.booleans()),
        second_two_of_clubs_follows=draw(st.booleans()),
        first_lead_points=draw(st.booleans()),
        first_trick_points=draw(st.booleans()),
        queen_breaks_hearts=draw(st.booleans()),
        must_break_hearts=draw(st.booleans()),
        lead_hearts_instead_of_queen=draw(st.booleans()),
        cancellation=draw(st.booleans()),
        set_aside_when=draw(st.sampled_from(SetAsideWhen)),
        set_aside_last=draw(st.sampled_from(SetAsideLast)),
        kitty_to=draw(st.sampled_from(KittyTo)),
        dealer_moves=draw(st.sampled_from(DealerMoves)),
        pass_count=draw(st.sampled_from([0, 1, 3])),
        pass_cycle=draw(st.sampled_from(
            [["left", "right"], ["left", "right", "across", "hold"], ["2 left", "3 right"], ["hold"]])),
        moon_points=draw(st.sampled_from([26, 52])),
        moon_choices=draw(st.sampled_from([["subtract", "add"], ["add"], ["subtract"]])),
        jack_of_diamonds_bonus=draw(st.sampled_from([0, -10])),
        no_tricks_bonus=draw(st.sampled_from([0, -5])),
        no_tricks_bonus_in_moon_hand=draw(st.booleans()),
        target=draw(st.sampled_from([40, 150])),
    )
    return with_options(base, **changes), players


@settings(FAST, max_examples=100)
@given(variant=variants(), data=st.data())
def test_random_games_under_option_variants(variant, data):
    rules, players = variant
    play_game(rules, players, data, hands=2)


# -- moons, forced by a rigged deal ------------------------------------------------------------
def rigged_moon_deal(state, rest_order):
    """The leader gets the top clubs in pairs and so wins every trick, whatever the others do.

    Each lead is a club whose twin and every higher club are already played, in the leader's
    hand or (for an odd hand size) in the kitty: nothing can beat or cancel it.  Winning every
    trick collects every card, so the leader takes every point: a moon.
    """
    rules, n = state.rules, state.players
    per = rules.cards_per_player(n)
    clubs_high_first = [CARDS[3 * NUM_RANKS + r] for r in range(NUM_RANKS - 1, -1, -1)]
    shooter_hand = [c for c in clubs_high_first for _ in range(2)][:per]
    kitty = []
    if per % 2:
        kitty.append(shooter_hand[-1])  # the twin of the lowest club led
    pool = Counter({card: rules.decks for card in CARDS})
    pool.subtract(shooter_hand + kitty)
    rest = []
    for card in rest_order:  # the drawn permutation, less the rigged cards
        if pool[card] > 0:
            pool[card] -= 1
            rest.append(card)
    assert len(rest) == per * (n - 1) + rules.kitty_size(n) - len(kitty)
    leader = (state.dealer + 1) % n
    hands = [shooter_hand if seat == leader else None for seat in range(n)]
    others = [seat for seat in range(n) if seat != leader]
    for i, seat in enumerate(others):
        hands[seat] = rest[i * per:(i + 1) * per]
    kitty += rest[(n - 1) * per:]
    return DealAction(tuple(tuple(sorted(h)) for h in hands), tuple(sorted(kitty)))


@pytest.mark.parametrize("players", [6, 7, 9, 10, 11])
@settings(FAST, max_examples=8)
@given(data=st.data())
def test_rigged_moons(players, data):
    rules = with_options(CANCELLATION, pass_count=0, moon_points=data.draw(st.sampled_from([26, 52])),
                         no_tricks_bonus=data.draw(st.sampled_from([0, -5])),
                         no_tricks_bonus_in_moon_hand=data.draw(st.booleans()))
    dealer = data.draw(st.integers(0, players - 1))
    state = new_game(rules, players, dealer=dealer)
    order = data.draw(st.permutations(full_deck(rules)), label="rest of the deal")
    deal = rigged_moon_deal(state, order)
    totals_before = state.totals
    state = play_hand(state, data, deal=deal)
    result = state.history[-1]
    leader = (dealer + 1) % players
    assert result.shooter == leader
    assert result.taken[leader] == 52 and result.lost == 0
    assert result.choice in ("subtract", "add")
    # the shooter won every trick: the others won none, a no-tricks bonus only if the option says
    bonus = rules.no_tricks_bonus if rules.no_tricks_bonus_in_moon_hand else 0
    if result.choice == "subtract":
        assert result.scores == tuple(-rules.moon_points if s == leader else bonus
                                      for s in range(players))
    else:
        assert result.scores == tuple(0 if s == leader else rules.moon_points + bonus
                                      for s in range(players))
    assert state.totals == tuple(t + s for t, s in zip(totals_before, result.scores))
