"""Which card may be played: legality in layers (R4, R5), and the legal-move list.

:func:`play_fault` walks the layers in order and names the first rule a play breaks;
:func:`legal_plays` builds the list of legal cards constructively.  The two are written
independently on purpose: a property test checks that they agree.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from referee.rules.cards import CARDS, CLUBS, HEARTS, NUM_RANKS, QUEEN_OF_SPADES, Card, Counts
from referee.rules.ruleset import Ruleset, is_point_card


class Fault(enum.Enum):
    """Why a play is illegal, with the rulebook clause it breaks."""

    WRONG_PHASE = ("R5.1", "no card can be played now")
    OUT_OF_TURN = ("R5.1", "it is another player's turn")
    NOT_HELD = ("R5.4", "the player does not hold that card")
    MUST_LEAD_LOWEST_CLUB = ("R4.1", "the first lead must be the lowest club")
    MUST_LEAD_A_CLUB = ("R4.1", "the first lead must be a club")  # with first_lead_any_club
    FIRST_LEAD_POINTS = ("R4.2", "the first lead may not be a heart or a Black Maria")
    HEARTS_NOT_BROKEN = ("R4.3", "hearts have not been broken")
    REVOKE = ("R5.2", "the player must follow the led suit")
    MUST_PLAY_TWIN_CLUB = ("R4.1", "the twin of the led lowest club must be played to the first trick")
    FIRST_TRICK_POINTS = ("R5.3", "no points may be played to the first trick")

    def __init__(self, clause: str, text: str) -> None:
        self.clause = clause
        self.text = text


def _suit_range(suit: int) -> range:
    return range(suit * NUM_RANKS, (suit + 1) * NUM_RANKS)


def _holds_other_than(holding: Counts, allowed) -> bool:
    """True when the holding has a card for which ``allowed(card)`` is false."""
    return any(n and not allowed(card) for card, n in enumerate(holding))


def _is_heart(card: int) -> bool:
    return card // NUM_RANKS == HEARTS


def lowest_club(holdings: Sequence[Counts]) -> int | None:
    """The lowest club anyone holds (the 2C unless it lies in the kitty)."""
    for card in _suit_range(CLUBS):
        if any(holding[card] for holding in holdings):
            return card
    return None


def lead_fault(
    rules: Ruleset, holding: Counts, card: int, *, first_trick: bool, hearts_broken: bool,
    lowest: int | None = None,
) -> Fault | None:
    """R4.1-R4.3 for a card led from ``holding``."""
    if first_trick and rules.first_leader == "two_of_clubs" and lowest is not None and card != lowest:
        if not rules.first_lead_any_club:
            return Fault.MUST_LEAD_LOWEST_CLUB
        if card // NUM_RANKS != CLUBS:
            return Fault.MUST_LEAD_A_CLUB
    if first_trick and not rules.first_lead_points and is_point_card(card):
        if _holds_other_than(holding, is_point_card):
            return Fault.FIRST_LEAD_POINTS
    if _is_heart(card) and rules.must_break_hearts and not hearts_broken:
        if rules.lead_hearts_instead_of_queen:
            exempt = lambda c: _is_heart(c) or c == QUEEN_OF_SPADES  # noqa: E731
        else:
            exempt = _is_heart
        if _holds_other_than(holding, exempt):
            return Fault.HEARTS_NOT_BROKEN
    return None


def follow_fault(
    rules: Ruleset, holding: Counts, card: int, led: int, *, first_trick: bool,
    lowest: int | None = None,
) -> Fault | None:
    """R5.2-R5.3 for a card played to a trick whose first card was ``led``."""
    led_suit = led // NUM_RANKS
    if card // NUM_RANKS != led_suit and any(holding[c] for c in _suit_range(led_suit)):
        return Fault.REVOKE
    if (
        first_trick and rules.first_leader == "two_of_clubs" and rules.second_two_of_clubs_follows
        and led == lowest and card != led and holding[led]
    ):
        return Fault.MUST_PLAY_TWIN_CLUB
    follows = card // NUM_RANKS == led_suit
    if (first_trick and not rules.first_trick_points and is_point_card(card)
            and not (follows and rules.first_trick_follow_points)):
        # "nothing else" means nothing else playable: a card that follows suit is compared
        # only with the other cards of the led suit (following suit comes first, R5.2)
        if _holds_other_than(
            holding, lambda c: is_point_card(c) or (follows and c // NUM_RANKS != led_suit)
        ):
            return Fault.FIRST_TRICK_POINTS
    return None


def card_fault(
    rules: Ruleset, holding: Counts, card: int, trick: Sequence[int], *, first_trick: bool,
    hearts_broken: bool, lowest: int | None = None,
) -> Fault | None:
    """Every layer after turn order: held, then lead or follow rules."""
    if not 0 <= card < len(holding) or not holding[card]:  # -1 must not index the last card
        return Fault.NOT_HELD
    if not trick:
        return lead_fault(rules, holding, card, first_trick=first_trick,
                          hearts_broken=hearts_broken, lowest=lowest)
    return follow_fault(rules, holding, card, trick[0], first_trick=first_trick, lowest=lowest)


def legal_cards(
    rules: Ruleset, holding: Counts, trick: Sequence[int], *, first_trick: bool,
    hearts_broken: bool, lowest: int | None = None,
) -> tuple[Card, ...]:
    """The distinct cards that may be played, built directly from the rules."""
    held = [CARDS[c] for c, n in enumerate(holding) if n]
    if not held:
        return ()
    if not trick:
        if first_trick and rules.first_leader == "two_of_clubs" and lowest is not None:
            if not holding[lowest]:
                return tuple(held)
            if rules.first_lead_any_club:
                return tuple(c for c in held if c // NUM_RANKS == CLUBS)
            return (CARDS[lowest],)
        options = held
        if first_trick and not rules.first_lead_points:
            options = [c for c in options if not is_point_card(c)] or options
        if rules.must_break_hearts and not hearts_broken:
            non_hearts = [c for c in options if not _is_heart(c)]
            if rules.lead_hearts_instead_of_queen and all(
                _is_heart(c) or c == QUEEN_OF_SPADES for c in options
            ):
                non_hearts = []
            options = non_hearts or options
        return tuple(options)
    led = trick[0]
    led_suit = led // NUM_RANKS
    following = [c for c in held if c // NUM_RANKS == led_suit]
    if following:
        if (first_trick and rules.first_leader == "two_of_clubs"
                and rules.second_two_of_clubs_follows and led == lowest and holding[led]):
            return (CARDS[led],)
        options = following
    else:
        options = held
    if first_trick and not rules.first_trick_points and not (
            following and rules.first_trick_follow_points):
        options = [c for c in options if not is_point_card(c)] or options
    return tuple(options)
