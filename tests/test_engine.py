"""Worked examples through the engine: hand-made deals played trick by trick.

Most hands here are scripted with :func:`play_out`: a list of tricks, each written in play order
from its leader, with ``*`` after the card that must win (no ``*``: the trick must be set aside).
A suit letter stands for "the remaining cards of that suit" as filler tricks that the leader wins.
The script decides who holds what; the engine must then accept every card and agree with every mark.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from engine_positions import CANCELLATION, NOPASS, STANDARD, assert_legal, position, shuffled_state

from referee.rules.cards import (
    CARDS,
    NUM_RANKS,
    QUEEN_OF_SPADES,
    TWO_OF_CLUBS,
    Card,
    card_text,
    counts_of,
    parse_card,
    parse_cards,
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
    play,
    play_fault,
)
from referee.rules.state import DealAction, IllegalAction, PassAction, Phase
from referee.rules.legality import Fault
from referee.rules.ruleset import with_options

SUITS = "SHDC"


# -- scripting a hand ------------------------------------------------------------------------
def _marked(text: str) -> tuple[tuple[Card, ...], int | None]:
    words = text.split()
    mark = [i for i, word in enumerate(words) if word.endswith("*")]
    assert len(mark) <= 1, text
    return parse_cards(" ".join(w.rstrip("*") for w in words)), (mark[0] if mark else None)


def _filler(pool: Counter, suit: str, players: int) -> list[tuple[tuple[Card, ...], int]]:
    """The pool's remaining cards of ``suit`` as tricks of distinct cards, highest led."""
    suit_index = SUITS.index(suit)
    cards = [c for c in sorted(pool, reverse=True) if c // NUM_RANKS == suit_index and pool[c] > 0]
    firsts = list(cards)
    seconds = [c for c in cards if pool[c] > 1]
    order = firsts + seconds
    assert len(order) % players == 0, f"{len(order)} {suit} left for filler tricks"
    tricks = []
    for start in range(0, len(order), players):
        chunk = tuple(sorted(order[start:start + players], reverse=True))
        assert len(set(chunk)) == len(chunk), f"filler trick with twins: {chunk}"
        tricks.append((chunk, 0))
    for card in order:
        pool[card] -= 1
    return tricks


def script(rules, players: int, kitty: str, tricks: list[str]):
    """Expand a script into (kitty, [(cards, winning index or None), ...])."""
    pool = Counter({CARDS[c]: rules.decks for c in range(52)})
    kitty_cards = parse_cards(kitty)
    pool.subtract(kitty_cards)
    explicit = {i: _marked(t) for i, t in enumerate(tricks) if t not in SUITS}
    for cards, _ in explicit.values():
        pool.subtract(cards)
    assert all(n >= 0 for n in pool.values()), "a script uses a card too often"
    expanded = []
    for i, entry in enumerate(tricks):
        expanded.extend(_filler(pool, entry, players) if entry in SUITS else [explicit[i]])
    assert sum(pool.values()) == 0, "the script leaves cards undealt"
    assert len(expanded) == rules.cards_per_player(players), len(expanded)
    return kitty_cards, expanded


def play_out(rules=NOPASS, kitty="", tricks=(), *, players=6, state=None, stop_after=None):
    """Deal so that the hand goes as scripted, play it through ``apply``; return state and records."""
    state = state if state is not None else new_game(rules, players)
    rules, players = state.rules, state.players
    kitty_cards, expanded = script(rules, players, kitty, list(tricks))
    first = (state.dealer + 1) % players
    leader = first
    hands = [[] for _ in range(players)]
    for cards, mark in expanded:
        assert len(cards) == players
        for i, card in enumerate(cards):
            hands[(leader + i) % players].append(card)
        if mark is not None:
            leader = (leader + mark) % players
    deal = DealAction(tuple(tuple(sorted(h)) for h in hands), tuple(sorted(kitty_cards)))
    state = apply(state, deal)
    assert state.phase is Phase.PLAY
    assert state.leader == first
    records = []
    for number, (cards, mark) in enumerate(expanded, start=1):
        if stop_after is not None and number > stop_after:
            break
        assert state.trick_number == number
        for card in cards:
            state = apply(state, card)
        record = state.last_trick
        assert record.number == number
        assert tuple(c for _, c in record.plays) == cards
        assert record.outcome.winner == mark, (number, cards_str(cards))
        records.append(record)
    return state, records


def cards_str(cards) -> str:
    return " ".join(card_text(c) for c in cards)


# A hand where seat 1 (left of dealer 0) wins every trick: a moon.
MOON = dict(kitty="AH AH", tricks=["C", "D", "S", "H", "3D* 2D 2S 2S 2C 2C"])
# Seat 1 takes the spades (both Black Marias, 26); seat 3 wins the KD and then everything,
# until the last trick: its diamonds cancel, it is set aside and its 2 hearts are lost.
LOST_LAST = dict(
    kitty="2C 2C",
    tricks=["C", "S", "4D 3D KD* 6D 7D 8D", "D", "H", "2D 2D 2S 3S 2H 2H"],
)


# -- set-aside tricks ------------------------------------------------------------------------
def test_seeds_trick_is_set_aside_and_its_cards_go_to_the_next_winner():
    # The seeds: Al 10S, Beth 9H, Charlie 9H, Dave 10S, here with two more players (void in spades).
    state, records = play_out(
        kitty="2D 2C",
        tricks=["C", "S", "10S 9H 9H 10S 5D 5C", "4D 3D KD* 6D 7D 8D", "D", "H"],
    )
    aside, next_trick = records[8], records[9]
    assert aside.number == 9 and aside.leader == 1
    assert aside.winner is None
    assert aside.collected == () and aside.points == 0
    assert {card_text(c) for c in aside.outcome.cancelled} == {"10S", "9H"}
    # R4.6: the player who led the set-aside trick leads the next one
    assert next_trick.leader == aside.leader == 1
    # R6.5: the winner of the next trick collects both tricks
    assert next_trick.winner == 3
    assert Counter(next_trick.collected) == Counter(parse_cards("10S 9H 9H 10S 5D 5C 4D 3D KD 6D 7D 8D"))
    assert next_trick.points == 2  # the two cancelled 9H keep their points
    # and the hand's bookkeeping agrees
    assert state.phase is Phase.SCORING
    assert state.taken[3] == 2 + 24  # the pile, then every heart filler trick
    assert state.taken[1] == 26  # both Black Marias in the spade tricks
    assert sum(state.taken) == 52 and state.lost == 0
    assert state.tricks_won[1] == 8 + 0 and state.tricks_won[3] == 1 + 3 + 4


def test_pile_is_pending_between_set_aside_trick_and_next_winner():
    state, records = play_out(
        kitty="2D 2C",
        tricks=["C", "S", "10S 9H 9H 10S 5D 5C", "4D 3D KD* 6D 7D 8D", "D", "H"],
        stop_after=9,
    )
    assert records[-1].winner is None
    assert Counter(state.pile) == Counter(parse_cards("10S 9H 9H 10S 5D 5C"))
    assert state.leader == 1 and state.to_play == 1
    assert state.taken[1] == 26  # the set-aside trick's points went to nobody yet
    assert sum(state.taken) == 26
    assert state.trick_number == 10


def test_the_kitty_travels_with_a_set_aside_first_trick():
    state, records = play_out(
        kitty="QS AH",
        tricks=["5C 5C 9C 9C 7C 7C", "KC 3C AC* 4C 6C 8C", "C", "D", "S", "H", "3D* 2D 2C 2C 2S 2H"],
    )
    first, second = records[0], records[1]
    assert first.winner is None and first.collected == ()
    assert second.leader == 1  # same leader after the set-aside first trick
    assert second.winner == 3
    assert Counter(second.collected) == Counter(
        parse_cards("5C 5C 9C 9C 7C 7C KC 3C AC 4C 6C 8C QS AH"))
    assert second.points == 14  # the kitty's Black Maria and heart
    assert state.taken[3] == 14 + 13 + 24 + 1
    assert sum(state.taken) + state.lost == 52


def test_kitty_goes_to_the_first_trick_winner():
    state, records = play_out(**MOON)
    assert records[0].winner == 1
    assert Counter(records[0].collected) == Counter(
        list(parse_cards("AH AH")) + [c for _, c in records[0].plays])
    assert records[0].points == 2
    assert all(parse_card("AH") not in r.collected for r in records[1:])


def test_kitty_to_last_trick():
    rules = with_options(NOPASS, kitty_to="last_trick")
    state, records = play_out(rules, **MOON)
    assert records[0].points == 0
    assert Counter(records[-1].collected) == Counter(
        list(parse_cards("AH AH")) + [c for _, c in records[-1].plays])
    assert records[-1].points == 2


def test_kitty_to_last_trick_shares_a_set_aside_last_tricks_fate():
    rules = with_options(NOPASS, kitty_to="last_trick")
    state, records = play_out(
        rules, kitty="AH AH",
        tricks=["C", "S", "4D 3D KD* 6D 7D 8D", "D", "H", "2D 2D 2S 3S 2C 2C"],
    )
    assert records[-1].winner is None
    assert state.lost == 2  # the kitty's two hearts
    assert sum(state.taken) == 50


def test_a_set_aside_last_trick_loses_its_points():
    state, records = play_out(**LOST_LAST)
    last = records[-1]
    assert last.number == 17 and last.leader == 3
    assert last.winner is None and last.collected == ()
    assert last.points == 2
    assert state.lost == 2
    assert state.taken == (0, 26, 0, 24, 0, 0)
    assert sum(state.taken) + state.lost == 52
    assert state.phase is Phase.SCORING
    assert legal_actions(state) == (SCORE,)
    state = apply(state, SCORE)
    result = state.history[-1]
    assert result.lost == 2 and result.taken == (0, 26, 0, 24, 0, 0)
    assert result.scores == (0, 26, 0, 24, 0, 0) == state.totals
    assert result.shooter is None and result.choice is None


def test_a_pending_pile_is_lost_with_a_set_aside_last_trick():
    tricks = ["C", "S", "4D 3D KD* 6D 7D 8D", "D", "H", "5H 5H 4H 4H 3H 3H", "2D 2D 2S 3S 2H 2H"]
    state, records = play_out(kitty="2C 2C", tricks=tricks)
    assert records[-2].winner is None and records[-1].winner is None
    assert records[-1].leader == records[-2].leader == 3
    assert state.lost == 6 + 2
    assert state.taken == (0, 26, 0, 18, 0, 0)
    assert sum(state.taken) + state.lost == 52
    # with set_aside_last = "leader" the leader takes the last trick and the pile
    rules = with_options(NOPASS, set_aside_last="leader")
    state, records = play_out(rules, kitty="2C 2C", tricks=tricks)
    assert records[-1].winner == 3
    assert Counter(records[-1].collected) == Counter(parse_cards("5H 5H 4H 4H 3H 3H 2D 2D 2S 3S 2H 2H"))
    assert state.lost == 0
    assert state.taken == (0, 26, 0, 26, 0, 0)


def test_set_aside_last_leader_gives_the_points_to_the_leader():
    rules = with_options(NOPASS, set_aside_last="leader")
    state, records = play_out(rules, **LOST_LAST)
    last = records[-1]
    assert last.outcome.winner is None  # still set aside by the cards...
    assert last.winner == 3 == last.leader  # ...but its leader takes it
    assert last.points == 2
    assert state.lost == 0
    assert state.taken == (0, 26, 0, 26, 0, 0)
    assert state.tricks_won[3] == 1 + 3 + 4 + 1


def test_two_pairs_option_through_the_engine():
    # rulebook trick 7: two pairs and an uncancelled AS; won by default, set aside with two_pairs
    layout = ["C", "D", "S", "10S 9H 9H 10S AS* 3S", "H", "5S* 4S 2D 3D 2C 3C"]
    state, records = play_out(kitty="2S 3S", tricks=layout)
    assert records[11].number == 12 and records[11].leader == 1
    assert records[11].winner == 5  # AS, played by seat 1 + 4
    assert records[12].leader == 5
    rules = with_options(NOPASS, set_aside_when="two_pairs")
    layout[3] = "10S 9H 9H 10S AS 3S"
    layout[5] = "5S* 2D 3D 4S 2C 3C"  # seat 1 leads it now: the spades stay with seats 1 and 4
    state, records = play_out(rules, kitty="2S 3S", tricks=layout)
    assert records[11].winner is None and records[11].outcome.winner is None
    assert records[12].leader == 1
    assert records[12].winner == 1 and records[12].points == 2 + 6  # the pile's 9H 9H


def test_no_cancellation_option_first_of_twins_wins():
    rules = with_options(NOPASS, cancellation=False)
    state, records = play_out(
        rules, kitty="2D 2C",
        tricks=["C", "S", "10S* 9H 9H 10S 5D 5C", "4D 3D KD* 6D 7D 8D", "D", "H"],
    )
    assert records[8].winner == 1
    assert records[8].outcome.cancelled == frozenset()
    assert records[8].points == 2


# -- the moon --------------------------------------------------------------------------------
def test_moon_choices():
    state, _ = play_out(**MOON)
    assert state.taken == (0, 52, 0, 0, 0, 0) and state.lost == 0
    assert legal_actions(state) == ("subtract", "add")
    with pytest.raises(IllegalAction) as info:
        apply(state, SCORE)
    assert info.value.clause == "R8.2"

    subtract = apply(state, "subtract")
    assert subtract.history[-1].scores == (0, -26, 0, 0, 0, 0)
    assert subtract.totals == (0, -26, 0, 0, 0, 0)
    assert subtract.history[-1].shooter == 1 and subtract.history[-1].choice == "subtract"
    assert subtract.history[-1].taken == (0, 52, 0, 0, 0, 0)

    add = apply(state, "add")
    assert add.history[-1].scores == (26, 0, 26, 26, 26, 26)
    assert add.totals == (26, 0, 26, 26, 26, 26)
    assert add.history[-1].choice == "add"


def test_moon_points_option():
    rules = with_options(NOPASS, moon_points=52)
    state, _ = play_out(rules, **MOON)
    assert apply(state, "subtract").totals == (0, -52, 0, 0, 0, 0)
    assert apply(state, "add").totals == (52, 0, 52, 52, 52, 52)


def test_moon_choices_option_limits_the_choice():
    rules = with_options(NOPASS, moon_choices=["add"])
    state, _ = play_out(rules, **MOON)
    assert legal_actions(state) == ("add",)
    with pytest.raises(IllegalAction):
        apply(state, "subtract")


def test_no_moon_when_points_were_lost():
    # seat 1 wins every trick but the set-aside last one: 50 of 52 points, no moon
    state, records = play_out(kitty="2C 2C", tricks=["C", "D", "S", "H", "2D 2D 2S 3S 2H 2H"])
    assert records[-1].winner is None
    assert state.taken == (0, 50, 0, 0, 0, 0) and state.lost == 2
    assert legal_actions(state) == (SCORE,)
    for choice in ("subtract", "add"):
        with pytest.raises(IllegalAction):
            apply(state, choice)
    after = apply(state, SCORE)
    assert after.totals == (0, 50, 0, 0, 0, 0)
    assert after.history[-1].shooter is None


def test_moon_with_the_leader_taking_a_set_aside_last_trick():
    rules = with_options(NOPASS, set_aside_last="leader")
    state, _ = play_out(rules, kitty="2C 2C", tricks=["C", "D", "S", "H", "2D 2D 2S 3S 2H 2H"])
    assert state.taken == (0, 52, 0, 0, 0, 0)
    assert legal_actions(state) == ("subtract", "add")


# -- game end --------------------------------------------------------------------------------
def test_game_ends_when_a_total_reaches_the_target_lowest_totals_share_the_win():
    state, _ = play_out(with_options(NOPASS, target=26), **LOST_LAST)
    over = apply(state, SCORE)
    assert over.totals == (0, 26, 0, 24, 0, 0)
    assert over.phase is Phase.OVER
    assert over.winners == (0, 2, 4, 5)
    assert legal_actions(over) == ()
    with pytest.raises(IllegalAction) as info:
        apply(over, SCORE)
    assert info.value.clause == "R9.4"


def test_game_goes_on_below_the_target():
    state, _ = play_out(with_options(NOPASS, target=27), **LOST_LAST)
    after = apply(state, SCORE)
    assert after.phase is Phase.DEAL
    assert after.hand_number == 2 and after.dealer == 1
    assert after.winners == ()
    assert legal_actions(after) == ()  # a chance node


def test_game_end_single_winner_after_a_moon():
    state, _ = play_out(with_options(NOPASS, target=26), **MOON)
    add = apply(state, "add")
    assert add.phase is Phase.OVER and add.winners == (1,)
    subtract = apply(state, "subtract")
    assert subtract.phase is Phase.DEAL  # -26 reaches no target


def test_two_hands_totals_run_and_dealer_and_leader_move():
    state, _ = play_out(**LOST_LAST)
    state = apply(state, SCORE)
    assert state.dealer == 1
    # hand 2: seat 2 (left of the new dealer) leads and wins everything
    state, records = play_out(state=state, **MOON)
    assert records[0].leader == 2
    assert state.taken == (0, 0, 52, 0, 0, 0)
    state = apply(state, "subtract")
    assert [h.scores for h in state.history] == [(0, 26, 0, 24, 0, 0), (0, 0, -26, 0, 0, 0)]
    assert state.totals == (0, 26, -26, 24, 0, 0)
    assert state.history[1].totals == state.totals and state.history[0].totals == (0, 26, 0, 24, 0, 0)
    assert state.hand_number == 3 and state.dealer == 2


def test_dealer_moves_right_option():
    rules = with_options(NOPASS, dealer_moves="right")
    state, _ = play_out(rules, **LOST_LAST)
    assert apply(state, SCORE).dealer == 5


# -- passing ---------------------------------------------------------------------------------


def test_deal_from_order_deals_round_the_table():
    state = new_game(CANCELLATION, 7)
    order = full_deck(CANCELLATION)
    random.Random(3).shuffle(order)
    deal = deal_from_order(state, order)
    assert [len(h) for h in deal.hands] == [14] * 7
    assert len(deal.kitty) == 6
    assert Counter(deal.hands[2]) == Counter(order[2:98:7])
    assert Counter(deal.kitty) == Counter(order[98:])


@pytest.mark.parametrize(("hand", "offset"), [(1, 1), (2, 5), (3, 1)])
def test_passes_are_simultaneous_and_go_left_then_right(hand, offset):
    state = new_game(CANCELLATION, 6)._replace(hand_number=hand)
    state = shuffled_state(state=state, seed=hand)
    assert state.phase is Phase.PASS
    dealt = state.holdings
    passed = {}
    for seat in range(6):
        actions = legal_actions(state)
        assert actions and all(a.seat == seat for a in actions)
        action = actions[seat * 7 % len(actions)]
        assert len(action.cards) == 3
        passed[seat] = action.cards
        assert pass_recipient(state, seat) == (seat + offset) % 6
        state = apply(state, action)
        if seat < 5:
            assert state.phase is Phase.PASS
            assert state.holdings == dealt  # nothing moves until everyone has passed
    assert state.phase is Phase.PLAY
    for seat in range(6):
        giver = (seat - offset) % 6
        expected = Counter({CARDS[c]: n for c, n in enumerate(dealt[seat]) if n})
        expected.subtract(passed[seat])
        expected.update(passed[giver])
        assert counts_of(expected.elements()) == state.holdings[seat]
        assert sum(state.holdings[seat]) == 17


def test_pass_legal_actions_are_the_distinct_three_card_choices():
    state = shuffled_state(seed=5)
    actions = legal_actions(state)
    held = Counter({c: n for c, n in enumerate(state.holdings[0]) if n})
    distinct = len(held)
    doubled = sum(1 for n in held.values() if n == 2)
    # multisets of size 3 from the hand: three distinct cards, or a pair plus another card
    expected = (distinct * (distinct - 1) * (distinct - 2)) // 6 + doubled * (distinct - 1)
    assert len(actions) == len(set(actions)) == expected
    for action in actions:
        assert all(Counter(action.cards)[c] <= held[c] for c in action.cards)


def test_bad_passes_raise():
    state = shuffled_state(seed=7)
    hand = [CARDS[c] for c, n in enumerate(state.holdings[0]) for _ in range(n)]
    missing = next(CARDS[c] for c in range(52) if not state.holdings[0][c])
    single = next(CARDS[c] for c in range(52) if state.holdings[0][c] == 1)
    for cards in [tuple(hand[:2]), tuple(hand[:4]), (missing,) + tuple(hand[:2]), (single, single, hand[0])]:
        with pytest.raises(IllegalAction) as info:
            apply(state, PassAction(0, cards))
        assert info.value.clause == "R3.1"
    state = apply(state, PassAction(0, tuple(hand[:3])))
    with pytest.raises(IllegalAction):
        apply(state, PassAction(0, tuple(hand[3:6])))  # passing twice
    with pytest.raises(IllegalAction):
        apply(state, parse_card("2C"))  # a card before passing is done


def test_a_received_card_cannot_be_passed_on():
    state = shuffled_state(seed=11)
    hand0 = [CARDS[c] for c, n in enumerate(state.holdings[0]) for _ in range(n)]
    state = apply(state, PassAction(0, tuple(hand0[:3])))
    hand1 = state.holdings[1]
    foreign = [c for c in hand0[:3] if not hand1[c]]
    if foreign:  # seat 1 receives seat 0's cards only after all have passed
        own = [CARDS[c] for c, n in enumerate(hand1) for _ in range(n)]
        with pytest.raises(IllegalAction):
            apply(state, PassAction(1, (foreign[0],) + tuple(own[:2])))


def test_hold_hands_skip_passing():
    state = new_game(STANDARD, 4)._replace(hand_number=4)
    state = shuffled_state(state=state)
    assert state.phase is Phase.PLAY
    assert shuffled_state(NOPASS).phase is Phase.PLAY


# -- deal and table checks -------------------------------------------------------------------
def test_new_game_checks_the_player_count():
    for players in (5, 12):
        with pytest.raises(IllegalAction) as info:
            new_game(CANCELLATION, players)
        assert info.value.clause == "R1.1"
    with pytest.raises(IllegalAction):
        new_game(STANDARD, 6)


def test_bad_deals_raise():
    state = new_game(CANCELLATION, 6)
    order = full_deck(CANCELLATION)
    deal = deal_from_order(state, order)
    with pytest.raises(IllegalAction) as info:
        apply(state, parse_card("2C"))
    assert info.value.clause == "R2.1"
    short = DealAction(deal.hands[:5], deal.kitty)
    with pytest.raises(IllegalAction) as info:
        apply(state, short)
    assert info.value.clause == "R2.4"
    swapped = DealAction((deal.hands[0][:-1] + (deal.hands[1][0],),) + deal.hands[1:], deal.kitty)
    with pytest.raises(IllegalAction, match="exactly as often"):
        apply(state, swapped)
    no_kitty = DealAction(deal.hands, ())
    with pytest.raises(IllegalAction, match="kitty"):
        apply(state, no_kitty)


# -- legality --------------------------------------------------------------------------------
def test_first_lead_may_not_be_a_heart_or_black_maria():
    state = position(hands={1: "AH 2H QS 5C 9D"})
    assert_legal(state, "5C 9D", {"AH": Fault.FIRST_LEAD_POINTS, "2H": Fault.FIRST_LEAD_POINTS,
                                  "QS": Fault.FIRST_LEAD_POINTS, "3C": Fault.NOT_HELD})
    assert Fault.FIRST_LEAD_POINTS.clause == "R4.2"


def test_first_lead_holding_only_points():
    # only hearts and a Black Maria: R4.3 still applies, so the Black Maria is led
    state = position(hands={1: "AH 2H QS QS"})
    assert_legal(state, "QS", {"AH": Fault.HEARTS_NOT_BROKEN, "2H": Fault.HEARTS_NOT_BROKEN})
    # only hearts: any heart
    assert_legal(position(hands={1: "AH 2H 2H"}), "AH 2H", {})
    # only Black Marias
    assert_legal(position(hands={1: "QS QS"}), "QS", {})
    # the option lets a heart be led instead of the Black Maria
    rules = with_options(NOPASS, lead_hearts_instead_of_queen=True)
    assert_legal(position(rules, {1: "AH 2H QS"}), "AH 2H QS", {})


def test_first_lead_points_option():
    rules = with_options(NOPASS, first_lead_points=True)
    state = position(rules, {1: "AH QS 5C"})
    assert_legal(state, "QS 5C", {"AH": Fault.HEARTS_NOT_BROKEN})


def test_hearts_may_not_be_led_before_they_are_broken():
    state = position(hands={1: "AH 2H QS 5C"}, trick_number=2)
    assert_legal(state, "QS 5C", {"AH": Fault.HEARTS_NOT_BROKEN, "2H": Fault.HEARTS_NOT_BROKEN})
    assert Fault.HEARTS_NOT_BROKEN.clause == "R4.3"
    # unless the leader holds only hearts
    assert_legal(position(hands={1: "AH 2H"}, trick_number=5), "AH 2H", {})
    # once broken, anything
    assert_legal(position(hands={1: "AH 2H QS 5C"}, trick_number=2, hearts_broken=True),
                 "AH 2H QS 5C", {})
    # without the rule, anything
    rules = with_options(NOPASS, must_break_hearts=False)
    assert_legal(position(rules, {1: "AH 5C"}, trick_number=2), "AH 5C", {})


def test_black_maria_may_be_led_after_the_first_trick_even_before_hearts_are_broken():
    state = position(hands={1: "QS 5C 9D AH"}, trick_number=2)
    assert_legal(state, "QS 5C 9D", {"AH": Fault.HEARTS_NOT_BROKEN})
    assert play_fault(position(hands={1: "QS 5C"}, trick_number=1), 1, QUEEN_OF_SPADES) \
        is Fault.FIRST_LEAD_POINTS


def _trick_breaks_hearts(rules, discard: str) -> bool:
    hands = {1: "AC 5C AH 9D", 2: "3C 4C", 3: "6C", 4: "7C", 5: discard + " 9S", 0: "8C"}
    state = position(rules, hands, trick_number=2)
    for card in ("AC", "3C", "6C", "7C", discard, "8C"):
        state = apply(state, parse_card(card))
    assert state.last_trick.winner == 1 and state.leader == 1
    assert (play_fault(state, 1, parse_card("AH")) is None) == state.hearts_broken
    return state.hearts_broken


def test_hearts_are_broken_by_a_heart_or_black_maria_played_to_an_earlier_trick():
    assert _trick_breaks_hearts(NOPASS, "2H") is True
    assert _trick_breaks_hearts(NOPASS, "QS") is True
    assert _trick_breaks_hearts(NOPASS, "2D") is False
    assert _trick_breaks_hearts(with_options(NOPASS, queen_breaks_hearts=False), "QS") is False
    assert _trick_breaks_hearts(with_options(NOPASS, queen_breaks_hearts=False), "2H") is True


def test_a_cancelled_heart_in_a_set_aside_trick_breaks_hearts():
    hands = {1: "9C AH 2D", 2: "9C", 3: "2H", 4: "2H", 5: "3D", 0: "4D"}
    state = position(hands=hands, trick_number=3)
    for card in ("9C", "9C", "2H", "2H", "3D", "4D"):
        state = apply(state, parse_card(card))
    assert state.last_trick.winner is None
    assert state.hearts_broken and state.leader == 1
    assert play_fault(state, 1, parse_card("AH")) is None


def test_revoke():
    state = position(hands={2: "3S 9S AH 2D"}, trick="5S")
    assert state.to_play == 2
    assert_legal(state, "3S 9S", {"AH": Fault.REVOKE, "2D": Fault.REVOKE, "4S": Fault.NOT_HELD})
    assert Fault.REVOKE.clause == "R5.2"
    # void in the led suit: anything, points included on the first trick (R5.3)
    assert_legal(position(hands={2: "AH QH 2D"}, trick="5S"), "AH QH 2D", {})
    assert_legal(position(hands={2: "QS 2D"}, trick="5C"), "QS 2D", {})


def test_led_suit_is_the_first_cards_suit_even_when_it_is_cancelled():
    state = position(hands={3: "4S 2D"}, trick="9S 9S")
    assert_legal(state, "4S", {"2D": Fault.REVOKE})


def test_turn_order():
    state = position(hands={1: "5C", 2: "6C"})
    assert play_fault(state, 2, parse_card("6C")) is Fault.OUT_OF_TURN
    with pytest.raises(IllegalAction) as info:
        play(state, 2, parse_card("6C"))
    assert info.value.fault is Fault.OUT_OF_TURN and info.value.clause == "R5.1"
    assert play_fault(new_game(NOPASS, 6), 1, parse_card("5C")) is Fault.WRONG_PHASE


def test_standard_two_of_clubs_must_lead():
    for seed in range(4):
        state = new_game(with_options(STANDARD, pass_count=0), 4)
        state = shuffled_state(state=state, seed=seed)
        holder = next(s for s in range(4) if state.holdings[s][TWO_OF_CLUBS])
        assert state.leader == holder == state.to_play
        assert legal_plays(state) == (TWO_OF_CLUBS,)
        for card in range(52):
            if card != TWO_OF_CLUBS and state.holdings[holder][card]:
                fault = play_fault(state, holder, card)
                assert fault is Fault.MUST_LEAD_LOWEST_CLUB and fault.clause == "R4.1"
                with pytest.raises(IllegalAction):
                    apply(state, card)
        apply(state, TWO_OF_CLUBS)


def test_standard_no_points_on_the_first_trick_unless_only_points():
    rules = with_options(STANDARD, pass_count=0)
    state = position(rules, {1: "AH QS 5D 9S"}, players=4, leader=0, trick="2C", lowest=TWO_OF_CLUBS)
    assert_legal(state, "5D 9S", {"AH": Fault.FIRST_TRICK_POINTS, "QS": Fault.FIRST_TRICK_POINTS})
    assert Fault.FIRST_TRICK_POINTS.clause == "R5.3"
    only_points = position(rules, {1: "AH QS"}, players=4, leader=0, trick="2C", lowest=TWO_OF_CLUBS)
    assert_legal(only_points, "AH QS", {})
    # after the first trick points are free
    later = position(rules, {1: "AH QS 5D"}, players=4, leader=0, trick="3C", trick_number=2)
    assert_legal(later, "AH QS 5D", {})


def test_no_points_on_first_trick_yields_to_following_suit():
    # first_trick_points = false, a spade led to trick 1: a follower whose only spade is the
    # Black Maria must play it (following suit comes first); a heart led likewise must be followed.
    rules = with_options(NOPASS, first_trick_points=False)
    state = position(rules, {2: "QS 3D 4C"}, trick="5S")
    assert_legal(state, "QS", {"3D": Fault.REVOKE, "4C": Fault.REVOKE})
    hearts_led = position(with_options(rules, first_lead_points=True), {2: "2H 3D"}, trick="AH")
    assert_legal(hearts_led, "2H", {"3D": Fault.REVOKE})
    # but with a spade other than the Black Maria, that spade must be played
    state = position(rules, {2: "QS 3S 3D"}, trick="5S")
    assert_legal(state, "3S", {"QS": Fault.FIRST_TRICK_POINTS, "3D": Fault.REVOKE})


def test_two_of_clubs_option_with_two_decks_and_the_twin_follows():
    rules = with_options(NOPASS, first_leader="two_of_clubs", second_two_of_clubs_follows=True)
    state = position(rules, {1: "2C 5C AH", 2: "2C 3C 9D"}, trick="", lowest=TWO_OF_CLUBS)
    assert_legal(state, "2C", {"5C": Fault.MUST_LEAD_LOWEST_CLUB})
    state = position(rules, {2: "2C 3C 9D"}, trick="2C", lowest=TWO_OF_CLUBS)
    assert_legal(state, "2C", {"3C": Fault.MUST_PLAY_TWIN_CLUB, "9D": Fault.REVOKE})


def test_two_of_clubs_leader_is_the_first_holder_left_of_the_dealer():
    rules = with_options(NOPASS, first_leader="two_of_clubs")
    for seed in range(5):
        state = shuffled_state(rules, seed=seed)
        lowest = min(c for c in range(39, 52) if any(h[c] for h in state.holdings))
        assert state.lowest_club == lowest  # the 2C unless both lie in the kitty
        holders = [s for s in range(6) if state.holdings[s][lowest]]
        expected = min(holders, key=lambda s: (s - 1) % 6)
        assert state.leader == expected
        assert legal_plays(state) == (lowest,)


def test_play_unchecked_lets_an_illegal_play_stand():
    state = position(hands={2: "3S 9S AH 2D"}, trick="5S")
    with pytest.raises(IllegalAction):
        play(state, 2, parse_card("AH"))
    after = play(state, 2, parse_card("AH"), check=False)
    assert after.trick_cards == parse_cards("5S AH")
    assert after.holdings[2] == counts_of(parse_cards("3S 9S 2D"))
    assert after.to_play == 3
    # a card not held at all also stands; the holding is left as it is
    after = play(state, 2, parse_card("KC"), check=False)
    assert after.trick_cards == parse_cards("5S KC")
    assert after.holdings[2] == state.holdings[2]


def test_apply_rejects_what_is_not_a_card():
    state = position(hands={1: "5C"})
    for action in ("5C", True, None, PassAction(1, ())):
        with pytest.raises(IllegalAction):
            apply(state, action)


@pytest.mark.parametrize("value", [-1, 52, 1000])
def test_apply_rejects_card_numbers_out_of_range(value):
    state = position(hands={1: "5C AC"})
    assert play_fault(state, 1, value) is Fault.NOT_HELD
    with pytest.raises(IllegalAction) as info:
        apply(state, value)
    assert info.value.fault is Fault.NOT_HELD


def test_passes_are_accepted_exactly_as_listed_lowest_seat_first():
    state = shuffled_state(seed=13)
    hand2 = [CARDS[c] for c, n in enumerate(state.holdings[2]) for _ in range(n)]
    # legal_actions offers seat 0 only; a pass by another seat is not in the list
    assert {a.seat for a in legal_actions(state)} == {0}
    with pytest.raises(IllegalAction) as info:
        apply(state, PassAction(2, tuple(hand2[:3])))
    assert info.value.clause == "R3.1"
    for seat in (-1, 6, 99):
        with pytest.raises(IllegalAction):
            apply(state, PassAction(seat, tuple(hand2[:3])))
    with pytest.raises(IllegalAction):
        apply(state, PassAction(0, (-1, 52, 0)))
    assert state.passes == (None,) * 6
