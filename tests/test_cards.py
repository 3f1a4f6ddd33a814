"""Card identities, the one card-notation parser, canonical text and multiset helpers."""

from __future__ import annotations

import pytest

from referee.rules.cards import (
    CARDS,
    CLUBS,
    DECK_SIZE,
    DIAMONDS,
    EMPTY_COUNTS,
    HEARTS,
    QUEEN_OF_SPADES,
    SPADES,
    TWO_OF_CLUBS,
    Card,
    CardError,
    add_card,
    card_text,
    cards_of,
    cards_text,
    counts_of,
    parse_card,
    parse_cards,
    remove_card,
    sort_key,
)

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]


# -- parsing ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    ["10S", "TS", "ts", "10s", "10♠", "T♠", "t♠", " 10S", "10S ", "\t10s\n", "10♠\ufe0f", "10♠\ufe0e"],
)
def test_every_notation_of_the_ten_of_spades(text):
    card = parse_card(text)
    assert card == Card(SPADES * 13 + 8)
    assert card.rank == 8 and card.suit == SPADES
    assert str(card) == "10S"


@pytest.mark.parametrize("text", ["QS", "qs", "Qs", "qS", "q♠", "Q♠", "QS ", "  qs", "Q♠\ufe0f", "Q\ufe0f♠"])
def test_every_notation_of_the_black_maria(text):
    assert parse_card(text) == QUEEN_OF_SPADES
    assert Card.parse(text) is CARDS[QUEEN_OF_SPADES]


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("2C", "2", CLUBS), ("2♣", "2", CLUBS), ("AH", "A", HEARTS), ("a♥", "A", HEARTS),
        ("KD", "K", DIAMONDS), ("k♦", "K", DIAMONDS), ("JH", "J", HEARTS), ("9♥", "9", HEARTS),
        ("j♣", "J", CLUBS), ("A♠", "A", SPADES),
    ],
)
def test_suit_letters_and_symbols(text, rank, suit):
    card = parse_card(text)
    assert card.suit == suit
    assert RANKS[card.rank] == rank


def test_symbols_and_letters_name_the_same_suits():
    for letter, symbol in zip("SHDC", "♠♥♦♣"):
        for rank in RANKS:
            assert parse_card(rank + letter) == parse_card(rank + symbol)
            assert parse_card(rank.lower() + letter.lower()) == parse_card(rank + letter)


def test_layout_of_identities():
    # suit * 13 + rank, ranks 2..A low to high, suits S H D C
    assert parse_card("2S") == 0
    assert parse_card("AS") == 12
    assert parse_card("QS") == 10 == QUEEN_OF_SPADES
    assert parse_card("2H") == 13
    assert parse_card("2C") == 39 == TWO_OF_CLUBS
    assert parse_card("AC") == 51
    # within a suit a higher rank is a higher identity (trick resolution relies on it)
    for suit in SUITS:
        values = [parse_card(rank + suit) for rank in RANKS]
        assert values == sorted(values)
        assert len(set(values)) == 13


def test_all_52_cards_round_trip_text_card_text():
    seen = set()
    for suit in SUITS:
        for rank in RANKS:
            text = rank + suit
            card = parse_card(text)
            assert card_text(card) == text
            assert str(card) == text
            seen.add(card)
    assert seen == set(range(DECK_SIZE))


def test_every_identity_round_trips_card_text_card():
    for index in range(DECK_SIZE):
        card = CARDS[index]
        assert card == index
        assert parse_card(card_text(card)) == index
        assert Card.parse(str(card)) == card
        # every alternative notation names it too
        alt = card_text(card).replace("10", "T").lower()
        assert parse_card(alt) == index
        symbol = card_text(card)[:-1] + "♠♥♦♣"["SHDC".index(card_text(card)[-1])]
        assert parse_card(symbol) == index


def test_canonical_text_uses_10_not_t():
    assert card_text(parse_card("TH")) == "10H"
    assert card_text(parse_card("t♦")) == "10D"


def test_repr_round_trips_through_eval():
    card = Card.parse("QS")
    assert repr(card) == "Card.parse('QS')"
    assert eval(repr(card), {"Card": Card}) == card
    for card in CARDS:
        back = eval(repr(card), {"Card": Card})
        assert back == card and type(back) is Card


def test_card_is_an_int_and_compact():
    card = Card.parse("AH")
    assert isinstance(card, int)
    assert card + 0 == 25
    assert {card: 1}[25] == 1  # hashes as its int
    assert Card(25) == card
    assert Card.parse("AH") is CARDS[25]


@pytest.mark.parametrize("value", [-1, 52, 100])
def test_card_index_out_of_range(value):
    with pytest.raises(CardError, match="0..51"):
        Card(value)


@pytest.mark.parametrize(
    "text", ["1S", "11S", "ZZ", "", "QX", "S", "Q", "  ", "10", "0S", "QSS", "1 0S", "♠Q", "QS,", "10 S"]
)
def test_bad_cards_raise_card_error_naming_what_was_expected(text):
    with pytest.raises(CardError) as info:
        parse_card(text)
    message = str(info.value)
    assert repr(text) in message  # it quotes what was given
    assert "expected a rank" in message
    assert "2-10, T, J, Q, K, A" in message
    assert "S H D C" in message and "♠ ♥ ♦ ♣" in message
    assert "10S" in message  # an example of the expected form


def test_card_error_is_a_value_error_and_cache_does_not_hide_errors():
    assert issubclass(CardError, ValueError)
    for _ in range(2):  # a second call (cache) still fails
        with pytest.raises(CardError):
            parse_card("QX")
    assert parse_card("qs") == QUEEN_OF_SPADES
    assert parse_card("qs") == QUEEN_OF_SPADES  # cached answer is the same


def test_long_bad_text_is_shortened_in_the_message():
    with pytest.raises(CardError) as info:
        parse_card("X" * 200)
    assert len(str(info.value)) < 200
    assert "…" in str(info.value)


# -- several cards ---------------------------------------------------------------------------
def test_parse_cards_and_cards_text():
    cards = parse_cards("10S, qs  AH,2c\tT♦")
    assert cards_text(cards) == "10S QS AH 2C 10D"
    assert parse_cards("") == ()
    with pytest.raises(CardError):
        parse_cards("10S QX")


# -- multisets -------------------------------------------------------------------------------
def test_counts_hold_both_copies():
    cards = parse_cards("QS QS 2C AH")
    counts = counts_of(cards)
    assert len(counts) == DECK_SIZE
    assert counts[QUEEN_OF_SPADES] == 2
    assert counts[TWO_OF_CLUBS] == 1
    assert sum(counts) == 4
    assert cards_of(counts) == tuple(sorted(cards))
    assert all(type(card) is Card for card in cards_of(counts))
    assert counts_of([]) == EMPTY_COUNTS


def test_add_and_remove_card():
    counts = counts_of(parse_cards("QS"))
    two = add_card(counts, QUEEN_OF_SPADES)
    assert two[QUEEN_OF_SPADES] == 2
    assert counts[QUEEN_OF_SPADES] == 1  # immutable: the original is unchanged
    assert add_card(counts, TWO_OF_CLUBS, 2)[TWO_OF_CLUBS] == 2
    one = remove_card(two, QUEEN_OF_SPADES)
    assert one == counts
    assert remove_card(one, QUEEN_OF_SPADES) == EMPTY_COUNTS
    # removing a missing card leaves the multiset unchanged
    assert remove_card(EMPTY_COUNTS, QUEEN_OF_SPADES) == EMPTY_COUNTS
    assert sum(add_card(EMPTY_COUNTS, 51)) == 1 and len(add_card(EMPTY_COUNTS, 51)) == DECK_SIZE


def test_sort_key_orders_by_suit_then_high_rank_first():
    cards = parse_cards("2C AH 10S QS 2H AC")
    assert cards_text(sorted(cards, key=sort_key)) == "QS 10S AH 2H AC 2C"
