"""This module decides which card may be played: legality in layers (R4, R5), and the
legal-move list.

Every rule is stated once, as a layer: the cards it restricts, and the cards of the
player's holding (its *witnesses*) any one of which makes a restricted card illegal.
:func:`card_fault` names the first layer a play breaks and :func:`legal_cards` drops what every
layer with a witness held restricts."""

from __future__ import annotations

import enum
from collections.abc import Sequence

from referee.rules.cards import (CARDS, CLUBS, DECK_SIZE, HEARTS, NUM_RANKS, QUEEN_OF_SPADES, Card,
                                 Counts)
from referee.rules.options import FirstLeader
from referee.rules.ruleset import Ruleset, is_point_card
from referee.rules.tricks import lead_card
from referee.util.message import msg


class Fault(enum.Enum):
    """A Fault says why a play is illegal, with the rulebook clause it breaks; its text is a
    message, which a diagnostic shows in the reader's language."""

    WRONG_PHASE = ("R5.1", msg("no card can be played now"))
    OUT_OF_TURN = ("R5.1", msg("it is another player's turn"))
    NOT_HELD = ("R5.4", msg("the player does not hold that card"))
    MUST_LEAD_LOWEST_CLUB = ("R4.1", msg("the first lead must be the lowest club"))
    MUST_LEAD_A_CLUB = ("R4.1", msg("the first lead must be a club"))  # with first_lead_any_club
    # TRANSLATORS: the Black Maria is the queen of spades
    FIRST_LEAD_POINTS = ("R4.2", msg("the first lead may not be a heart or a Black Maria"))
    HEARTS_NOT_BROKEN = ("R4.3", msg("hearts have not been broken"))
    REVOKE = ("R5.2", msg("the player must follow the led suit"))
    MUST_PLAY_TWIN_CLUB = ("R4.1", msg(
        "the twin of the led lowest club must be played to the first trick"))
    FIRST_TRICK_POINTS = ("R5.3", msg("no points may be played to the first trick"))

    def __init__(self, clause: str, text: str) -> None:
        self.clause = clause
        self.text = text


Witnesses = tuple[int, ...]  # cards (ascending) any one of which, held, makes a play illegal
Layer = tuple[Fault, frozenset[int], Witnesses]  # the fault, the cards it restricts, witnesses


_DECK = frozenset(range(DECK_SIZE))
_SUITS = tuple(tuple(range(suit * NUM_RANKS, (suit + 1) * NUM_RANKS))
               for suit in range(DECK_SIZE // NUM_RANKS))
CLUB_CARDS = _SUITS[CLUBS]
_POINTS = frozenset(c for c in _DECK if is_point_card(c))
_HEARTS = frozenset(_SUITS[HEARTS])
_NON_POINTS = tuple(c for c in range(DECK_SIZE) if not is_point_card(c))
_NON_POINTS_OF_SUIT = tuple(tuple(c for c in cards if not is_point_card(c)) for cards in _SUITS)
_POINTS_OF_SUIT = tuple(_POINTS & frozenset(cards) for cards in _SUITS)
_OFF_SUIT = tuple(_DECK - frozenset(cards) for cards in _SUITS)
_POINTS_OFF_SUIT = tuple(_POINTS - frozenset(cards) for cards in _SUITS)
_ALL_BUT = tuple(_DECK - {c} for c in range(DECK_SIZE))
_NON_HEARTS = tuple(c for c in range(DECK_SIZE) if c // NUM_RANKS != HEARTS)
_NON_HEARTS_BUT_QUEEN = tuple(c for c in _NON_HEARTS if c != QUEEN_OF_SPADES)
_ANY_CARD = tuple(range(DECK_SIZE))  # a layer that holds whatever else is held


def lead_layers(rules: Ruleset, *, first_trick: bool, hearts_broken: bool,
                lowest: int | None = None) -> list[Layer]:
    """List the layers of a lead (R4.1-R4.3) in the order they are judged (``lowest`` None:
    no lowest club is known, so R4.1 is left out)."""
    layers = []
    if first_trick and rules.first_leader == FirstLeader.TWO_OF_CLUBS and lowest is not None:
        if rules.first_lead_any_club:
            layers.append((Fault.MUST_LEAD_A_CLUB, _OFF_SUIT[CLUBS], _ANY_CARD))
        else:
            layers.append((Fault.MUST_LEAD_LOWEST_CLUB, _ALL_BUT[lowest], _ANY_CARD))
    if first_trick and not rules.first_lead_points:
        # unless only points are held (without first_lead_fallback: never)
        layers.append((Fault.FIRST_LEAD_POINTS, _POINTS,
                       _NON_POINTS if rules.first_lead_fallback else _ANY_CARD))
    if rules.must_break_hearts and not hearts_broken:
        # unless holding only hearts (and, with lead_hearts_instead_of_queen, the Black Maria)
        layers.append((Fault.HEARTS_NOT_BROKEN, _HEARTS, _NON_HEARTS_BUT_QUEEN
                       if rules.lead_hearts_instead_of_queen else _NON_HEARTS))
    return layers


def follow_layers(rules: Ruleset, led: int, *, first_trick: bool,
                  lowest: int | None = None) -> list[Layer]:
    """List the layers (R5.2, R4.1's twin club and R5.3) of a card played to a trick whose
    first card was ``led``, in the order they are judged (``lowest`` None: no twin club rule)."""
    led_suit = led // NUM_RANKS
    layers = [(Fault.REVOKE, _OFF_SUIT[led_suit], _SUITS[led_suit])]
    if (first_trick and rules.first_leader == FirstLeader.TWO_OF_CLUBS
            and rules.second_two_of_clubs_follows and led == lowest):
        layers.append((Fault.MUST_PLAY_TWIN_CLUB, _ALL_BUT[led], (led,)))
    if first_trick and not rules.first_trick_points and rules.first_trick_points_whole_hand:
        layers.append((Fault.FIRST_TRICK_POINTS, _POINTS, _NON_POINTS))  # even following suit
    elif first_trick and not rules.first_trick_points:
        # "nothing else" means nothing else playable: a card that follows suit is compared
        # only with the other cards of the led suit (following suit comes first, R5.2)
        if not rules.first_trick_follow_points:
            layers.append((Fault.FIRST_TRICK_POINTS, _POINTS_OF_SUIT[led_suit],
                           _NON_POINTS_OF_SUIT[led_suit]))
        layers.append((Fault.FIRST_TRICK_POINTS, _POINTS_OFF_SUIT[led_suit], _NON_POINTS))
    return layers


def lowest_club_witnesses(rules: Ruleset, card: int, *, first_trick: bool) -> Witnesses | None:
    """Return R4.1's layer of :func:`lead_layers` when the lowest club dealt is not known, for
    a leader holding ``card``: the clubs of which no seat may hold a copy (the lowest club is
    the lowest one anyone holds); None when R4.1 does not restrict this lead at all."""
    if not first_trick or rules.first_leader != FirstLeader.TWO_OF_CLUBS:
        return None
    if card // NUM_RANKS != CLUBS:
        return CLUB_CARDS
    return None if rules.first_lead_any_club else CLUB_CARDS[:card % NUM_RANKS]


def lowest_club(holdings: Sequence[Counts]) -> int | None:
    """Find the lowest club anyone holds (the 2C unless it lies in the kitty)."""
    for card in CLUB_CARDS:
        if any(holding[card] for holding in holdings):
            return card
    return None


def _holds_any(holding: Counts, witnesses: Witnesses) -> bool:
    for c in witnesses:
        if holding[c]:
            return True
    return False


def _first_fault(holding: Counts, card: int, layers: list[Layer]) -> Fault | None:
    for fault, restricted, witnesses in layers:
        if card in restricted and _holds_any(holding, witnesses):
            return fault
    return None


def card_fault(rules: Ruleset, holding: Counts, card: int, trick: Sequence[int], *,
               first_trick: bool, hearts_broken: bool, lowest: int | None = None) -> Fault | None:
    """Judge every layer after turn order: held, then lead or follow rules."""
    if not 0 <= card < len(holding) or not holding[card]:  # -1 must not index the last card
        return Fault.NOT_HELD
    if not trick:
        return _first_fault(holding, card, lead_layers(rules, first_trick=first_trick,
                                                       hearts_broken=hearts_broken, lowest=lowest))
    led = lead_card(trick, True) if rules.lead_suit_switch else trick[0]
    return _first_fault(holding, card, follow_layers(rules, led, first_trick=first_trick,
                                                     lowest=lowest))


def legal_cards(rules: Ruleset, holding: Counts, trick: Sequence[int], *, first_trick: bool,
                hearts_broken: bool, lowest: int | None = None) -> tuple[Card, ...]:
    """List the distinct held cards that no layer forbids: exactly those :func:`card_fault`
    passes, except that a seat leading the first trick without the lowest club may lead any
    card."""
    options = [c for c, n in enumerate(holding) if n]
    if not trick:
        if (first_trick and rules.first_leader == FirstLeader.TWO_OF_CLUBS
                and lowest is not None and not holding[lowest]):
            return tuple(CARDS[c] for c in options)
        layers = lead_layers(rules, first_trick=first_trick, hearts_broken=hearts_broken,
                             lowest=lowest)
    else:
        led = lead_card(trick, True) if rules.lead_suit_switch else trick[0]
        layers = follow_layers(rules, led, first_trick=first_trick, lowest=lowest)
    for _, restricted, witnesses in layers:
        if _holds_any(holding, witnesses):
            options = [c for c in options if c not in restricted]
    return tuple(CARDS[c] for c in options)
