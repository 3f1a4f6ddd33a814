"""This module resolves a trick with one small pure function (R6), shared by the engine and the
z3 model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from referee.rules.cards import NUM_RANKS
from referee.rules.options import NothingSurvives, SetAsideWhen


class TrickOutcome(NamedTuple):
    winner: int | None  # index into the trick's cards, None when the trick is set aside
    cancelled: frozenset[int]  # card identities that cancelled (R6.2)


def lead_card(cards: Sequence[int], switch: bool = False) -> int:
    """Return the card whose suit a card played now must follow (R5.2): the led card, or with
    the lead-suit switch (R5.5) the last card that did not follow the lead suit of its turn."""
    led = cards[0]
    if switch:
        for card in cards:
            if card // NUM_RANKS != led // NUM_RANKS:
                led = card
    return led


# the defaults are literals: verify-rules runs this function's source symbolically
def resolve_trick(cards: Sequence[int], *, cancellation: bool = True,
                  set_aside_when: str = "all_cancelled", lead_switch: bool = False,
                  leader_wins: bool = False) -> TrickOutcome:
    """Tell who wins a trick whose cards were played in this order (the first one led):
    identical cards cancel (R6.2), the highest uncancelled card of the led suit wins (R6.3), else
    the trick is set aside (R6.4).  A third copy of a card cancels along with the others."""
    if not cards:
        return TrickOutcome(None, frozenset())
    if cancellation and len(set(cards)) < len(cards):
        seen: set[int] = set()
        repeated: set[int] = set()
        for card in cards:
            if card in seen:
                repeated.add(card)
            seen.add(card)
        cancelled = frozenset(repeated)
    else:
        cancelled = frozenset()
    if len(cancelled) >= 2 and set_aside_when == SetAsideWhen.TWO_PAIRS:
        return TrickOutcome(0 if leader_wins else None, cancelled)
    led_suit = cards[0] // NUM_RANKS
    if lead_switch:
        led_suit = lead_card(cards, True) // NUM_RANKS
    best_index: int | None = None
    best_card, low, high = -1, led_suit * NUM_RANKS, (led_suit + 1) * NUM_RANKS
    for index, card in enumerate(cards):
        if low <= card < high and card > best_card and card not in cancelled:
            best_card = card
            best_index = index
    if leader_wins and best_index is None:
        best_index = 0
    return TrickOutcome(best_index, cancelled)


def resolve_under(rules, cards: Sequence[int]) -> TrickOutcome:
    """Resolve a trick with :func:`resolve_trick` under the options of ``rules`` (a Ruleset):
    every reader of a trick's outcome asks this, so no caller leaves an option out."""
    return resolve_trick(cards, cancellation=rules.cancellation,
                         set_aside_when=rules.set_aside_when, lead_switch=rules.lead_suit_switch,
                         leader_wins=rules.nothing_survives == NothingSurvives.LEADER_WINS)
