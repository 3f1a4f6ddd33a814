"""This module names the cards, writes and reads their notation, and counts them in multisets.

A card is an ``int`` from 0 to 51, ``suit * 13 + rank`` (rank 0 the 2); two decks hold two
copies of every card, so holdings are multisets: a tuple of 52 counts (:data:`Counts`)."""

from __future__ import annotations

from collections.abc import Iterable

from referee.util.message import msg

NUM_RANKS = 13
NUM_SUITS = 4
DECK_SIZE = NUM_RANKS * NUM_SUITS

SPADES, HEARTS, DIAMONDS, CLUBS = range(NUM_SUITS)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
# the suits' names are words of messages ("({suit} led)", "to a {suit} lead"): each is a
# message, and as a str the English word
# TRANSLATORS: a suit's name in the plural, as in "(spades led)"
SUIT_NAMES = (msg("spades"), msg("hearts"), msg("diamonds"), msg("clubs"))
# TRANSLATORS: a suit's name in the singular, as in "to a spade lead", "every spade in it cancelled"
SUIT_SINGULAR = (msg("spade"), msg("heart"), msg("diamond"), msg("club"))
RANK_TEXT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

_STRIP = "\ufe0e\ufe0f"  # variation selectors: text and emoji presentation

Counts = tuple[int, ...]
EMPTY_COUNTS: Counts = (0,) * DECK_SIZE


class CardError(ValueError):
    """A CardError says that a piece of text is not a card."""


class Card(int):
    """A Card names one card identity; ``Card.parse("QS") == Card(10)`` and ``repr``
    round-trips."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < DECK_SIZE:
            raise CardError(f"card index must be 0..{DECK_SIZE - 1}, got {value}")
        return int.__new__(cls, value)

    @classmethod
    def parse(cls, text: str) -> Card:
        return CARDS[parse_card(text)]

    @property
    def suit(self) -> int:
        return self // NUM_RANKS

    @property
    def rank(self) -> int:
        return self % NUM_RANKS

    def __str__(self) -> str:
        return card_text(self)

    def __repr__(self) -> str:
        return f"Card.parse({card_text(self)!r})"


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(DECK_SIZE))


def card_text(card: int) -> str:
    """Write ``card`` in canonical notation: ``10S``, ``QS``, ``2C``."""
    return RANK_TEXT[card % NUM_RANKS] + SUIT_LETTERS[card // NUM_RANKS]


def _spellings() -> dict[str, Card]:
    """Map each way a card is usually written to the card: the rank (10 also T) and the suit
    letter in either case, or the suit's symbol; a variation selector may follow any suit, a
    letter too ("2C\ufe0e"), which editors and phones append as readily."""
    table: dict[str, Card] = {}
    for rank, text in enumerate(RANK_TEXT):
        ranks = {text, text.lower()} | ({"T", "t"} if text == "10" else set())
        for suit, (letter, symbol) in enumerate(zip(SUIT_LETTERS, SUIT_SYMBOLS)):
            suits = (letter, letter.lower(), symbol)
            for suit_text in suits + tuple(written + mark for written in suits for mark in _STRIP):
                for rank_text in ranks:
                    table[rank_text + suit_text] = CARDS[suit * NUM_RANKS + rank]
    return table


CARD_BY_TEXT: dict[str, Card] = _spellings()


def parse_card(text: str) -> Card:
    """Parse card notation, case-insensitive: ``10S``, ``TS``, ``10♠``, ``q♠``, ``qs``."""
    card = CARD_BY_TEXT.get(text)
    if card is None:  # spaces around it, or variation selectors elsewhere in it
        card = CARD_BY_TEXT.get("".join(ch for ch in text.strip() if ch not in _STRIP).upper())
    if card is None:
        raise CardError(not_a_card(text))
    return card


def not_a_card(text: str) -> str:
    """Make the message for a piece of text that is not a card."""
    piece = text if len(text) <= 20 else text[:20] + "…"
    # TRANSLATORS: {piece} is the piece of the line, in quotes as Python writes it ('2X')
    return msg("{piece} is not a card: expected a rank (2-10, T, J, Q, K, A) then a suit "
               "(S H D C or ♠ ♥ ♦ ♣), like 10S or QS", piece=repr(piece))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse whitespace- or comma-separated cards."""
    return tuple(parse_card(part) for part in text.replace(",", " ").split())


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_text(card) for card in cards)


def counts_of(cards: Iterable[int]) -> Counts:
    counts = [0] * DECK_SIZE
    for card in cards:
        counts[card] += 1
    return tuple(counts)


def cards_of(counts: Counts) -> tuple[Card, ...]:
    """List the cards of a multiset in sorted order, repeated by multiplicity."""
    return tuple([CARDS[i] for i, n in enumerate(counts) if n for _ in range(n)])


def add_card(counts: Counts, card: int, amount: int = 1) -> Counts:
    changed = list(counts)
    changed[card] += amount
    return tuple(changed)


def remove_card(counts: Counts, card: int) -> Counts:
    """Remove one copy; a missing card leaves the multiset unchanged (the caller reports it)."""
    if counts[card] == 0:
        return counts
    changed = list(counts)  # a list round trip is faster than slicing and joining the tuple
    changed[card] -= 1
    return tuple(changed)


def sort_key(card: int) -> tuple[int, int]:
    """Give a card's place in display order: by suit (S H D C), high rank first."""
    return (card // NUM_RANKS, -(card % NUM_RANKS))


QUEEN_OF_SPADES = CARD_BY_TEXT["QS"]
JACK_OF_DIAMONDS = CARD_BY_TEXT["JD"]
TWO_OF_CLUBS = CARD_BY_TEXT["2C"]
