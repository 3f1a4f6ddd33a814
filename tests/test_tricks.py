"""Trick resolution with cancellation (R6.1-R6.4), as a pure function."""

from __future__ import annotations

import pytest

from referee.rules.cards import parse_cards
from referee.rules.tricks import TrickOutcome, resolve_trick


def resolve(text: str, **options) -> TrickOutcome:
    return resolve_trick(parse_cards(text), **options)


def cancelled_text(outcome: TrickOutcome) -> set[str]:
    from referee.rules.cards import card_text

    return {card_text(c) for c in outcome.cancelled}


def test_the_seeds_example_is_set_aside():
    # Al 10S, Beth 9H, Charlie 9H, Dave 10S: both spades cancel, nothing of the led suit is left
    outcome = resolve("10S 9H 9H 10S")
    assert outcome.winner is None
    assert cancelled_text(outcome) == {"10S", "9H"}


def test_seeds_example_with_two_more_players():
    assert resolve("10S 9H 9H 10S 4D 3D").winner is None
    # a third, uncancelled spade wins however low
    assert resolve("10S 9H 9H 10S 4D 2S").winner == 5


def test_plain_trick_highest_of_led_suit_wins():
    assert resolve("5S 9S KS 2S").winner == 2
    assert resolve("AS KS QS JS").winner == 0
    assert resolve("2S 3S").winner == 1
    assert resolve("10S 9S").winner == 0
    # off-suit cards never win, however high
    assert resolve("2S AH AD AC KS").winner == 4
    assert resolve("2S AH AD AC").winner == 0


def test_ace_high_two_low():
    assert resolve("2C AC").winner == 1
    assert resolve("KC AC QC").winner == 1
    assert resolve("10D JD 9D").winner == 1


def test_cancelled_pair_below_an_uncancelled_higher_card_does_not_matter():
    outcome = resolve("5S 9S 9S KS")
    assert outcome.winner == 3
    assert cancelled_text(outcome) == {"9S"}
    # the rulebook's trick 4: Al 9S, Beth 7S, Charlie KS, Dave 7S, Eve 2D, Fay 4S -> Charlie
    assert resolve("9S 7S KS 7S 2D 4S").winner == 2


def test_cancelled_pair_at_the_top_lets_the_next_highest_uncancelled_card_win():
    outcome = resolve("5S KS 9S KS")
    assert outcome.winner == 2  # 9S
    assert cancelled_text(outcome) == {"KS"}
    # the rulebook's trick 5: Charlie 6C, Dave AC, Eve 10C, Fay AC, Al 3H, Beth 2C -> Eve
    assert resolve("6C AC 10C AC 3H 2C").winner == 2
    # two cancelled pairs at the top: the leader's low card wins
    assert resolve("3D AD KD AD KD 2D").winner == 0


def test_led_card_itself_cancelled_but_a_lower_led_suit_card_remains():
    assert resolve("9S 9S 4S").winner == 2
    # the led suit is the suit of the first card even after it is cancelled
    assert resolve("9S 9S AH 4S").winner == 3


def test_all_led_suit_cards_cancelled_sets_the_trick_aside_though_off_suit_cards_remain():
    outcome = resolve("8C 8C 5D 2H 9D KD")
    assert outcome.winner is None
    assert cancelled_text(outcome) == {"8C"}
    assert resolve("QS AH QS AD KC JC").winner is None
    # every card in a pair
    assert resolve("5C 5C 9C 9C 7C 7C").winner is None


def test_cancelled_cards_are_only_the_twins():
    outcome = resolve("QS AS QH QS KS")
    assert cancelled_text(outcome) == {"QS"}  # QH is a different identity
    assert outcome.winner == 1


def test_no_cancellation_first_of_two_identical_top_cards_wins():
    assert resolve("5S KS 9S KS", cancellation=False) == TrickOutcome(1, frozenset())
    assert resolve("10S 9H 9H 10S", cancellation=False).winner == 0
    assert resolve("2D 4D 4D", cancellation=False).winner == 1
    # with cancellation on, the same trick is set aside or won by a lower card
    assert resolve("10S 9H 9H 10S").winner is None
    assert resolve("2D 4D 4D").winner == 0


def test_two_pairs_option_sets_aside_two_cancelled_pairs_even_with_an_uncancelled_led_card():
    # rulebook trick 7: Al 10S, Beth 9H, Charlie 9H, Dave 10S, Eve AS, Fay 3S
    text = "10S 9H 9H 10S AS 3S"
    assert resolve(text).winner == 4
    outcome = resolve(text, set_aside_when="two_pairs")
    assert outcome.winner is None
    assert cancelled_text(outcome) == {"10S", "9H"}
    # two pairs of off suits also count
    assert resolve("2S 9H 9H 5D 5D", set_aside_when="two_pairs").winner is None


def test_two_pairs_option_with_one_pair_resolves_normally():
    assert resolve("5S 9S 9S KS", set_aside_when="two_pairs").winner == 3
    assert resolve("5S KS 9S KS", set_aside_when="two_pairs").winner == 2
    assert resolve("5S 9H 9H KS", set_aside_when="two_pairs").winner == 3
    # with one pair and no uncancelled led card left it is still set aside
    assert resolve("8C 8C 5D 2H", set_aside_when="two_pairs").winner is None
    # no pair at all
    assert resolve("5S 9S KS", set_aside_when="two_pairs").winner == 2


def test_two_pairs_option_does_nothing_without_cancellation():
    assert resolve("10S 9H 9H 10S AS 3S", cancellation=False, set_aside_when="two_pairs").winner == 4


def test_a_third_copy_cancels_with_the_others():
    # only a faulty record has three copies; none of them may win
    outcome = resolve("KS KS KS 2S")
    assert outcome.winner == 3
    assert cancelled_text(outcome) == {"KS"}


def test_empty_trick():
    assert resolve_trick([]) == TrickOutcome(None, frozenset())


@pytest.mark.parametrize("players", range(2, 12))
def test_single_suit_all_distinct_highest_wins(players):
    cards = parse_cards(" ".join(f"{r}H" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"][:players]))
    for shift in range(players):
        rotated = cards[shift:] + cards[:shift]
        outcome = resolve_trick(rotated)
        assert rotated[outcome.winner] == max(cards)
        assert outcome.cancelled == frozenset()
