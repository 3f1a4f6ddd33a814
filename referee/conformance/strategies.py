"""This module says how the generator's players play, and which rare situations it can steer a
game towards.

These are the strategies of :mod:`referee.conformance.generate`.  Every choice is made from a
list in a fixed order, with :class:`Rng`'s numbers, so that a seed gives the same game
everywhere.
"""

from __future__ import annotations

from referee.conformance.rng import Rng
from referee.rules import engine
from referee.rules.cards import HEARTS, NUM_RANKS, QUEEN_OF_SPADES, Card, cards_of
from referee.rules.state import State
from referee.rules.ruleset import Ruleset, card_points, is_point_card
from referee.rules.tricks import resolve_under
from referee.rules.options import KittyTo, NothingSurvives

STRATEGIES = ("random", "simple", "moon")
SITUATIONS = ("moon", "set-aside-first", "set-aside-last", "kitty-pickup", "kitty-delayed", "tie")


def _low(card: int) -> tuple[int, int]:
    """Return a sort key that orders by rank, then by suit."""
    return card % NUM_RANKS, card


def _winning_card(state: State) -> int | None:
    """Find the card currently winning the trick in progress (None: nothing wins it yet)."""
    cards = state.trick_cards
    outcome = resolve_under(state.rules, cards)
    return None if outcome.winner is None else cards[outcome.winner]


def _strength(holding) -> int:
    """Count the winners roughly: jacks to aces, hearts counting double."""
    return sum(n * max(0, c % NUM_RANKS - 8) * (2 if c // NUM_RANKS == HEARTS else 1)
               for c, n in enumerate(holding))


def choose_play(state: State, legal: tuple[Card, ...], rng: Rng, strategy: str,
                shooter: int | None = None) -> Card:
    """Choose the card a player of ``strategy`` plays; ``shooter`` is the seat aiming for the moon.

    The steering strategies ``aside-first`` and ``aside-last`` play towards a set-aside trick,
    seeing every holding, in the first trick or the last two; elsewhere they play ``simple``."""
    if strategy == "random" or len(legal) == 1:
        return legal[rng.below(len(legal))]
    if (strategy == "aside-first" and state.trick_number == 1) or (
            strategy == "aside-last" and state.trick_number >= state.tricks_per_hand - 1):
        return _aside_follow(state, legal) if state.trick else _aside_lead(state, legal)
    if state.to_play == shooter:
        return _shooter_play(state, legal)
    return _simple_play(state, legal)


def _simple_play(state: State, legal: tuple[Card, ...]) -> Card:
    """Duck under the winning card, cancel it rather than win, shed points when void."""
    cards = state.trick_cards
    if not cards:
        return min([c for c in legal if card_points(c) == 0] or legal, key=_low)
    led = cards[0] // NUM_RANKS
    following = [c for c in legal if c // NUM_RANKS == led]
    if following:
        winning = _winning_card(state)
        if winning is None:
            return min(following)
        under = [c for c in following if c < winning]
        if under:
            return max(under)
        if winning in following and state.rules.cancellation:
            return winning  # cancel the winning card with its twin rather than win
        return min(following)
    points = ([c for c in legal if c == QUEEN_OF_SPADES]
              or [c for c in legal if c // NUM_RANKS == HEARTS])
    return max(points or legal, key=_low)


def _aside_lead(state: State, legal: tuple[Card, ...]) -> Card:
    """Choose the lowest lead after which :func:`_aside_follow` by every other seat sets the
    trick aside, else the lowest card."""
    for card in sorted(legal, key=_low):
        after = engine.play(state, state.to_play, card, check=False)
        while after.trick:
            after = engine.play(after, after.to_play,
                                _aside_follow(after, engine.legal_plays(after)), check=False)
        if after.last_trick is not None and after.last_trick.outcome.winner is None:
            return card
    return min(legal, key=_low)


def _aside_follow(state: State, legal: tuple[Card, ...]) -> Card:
    """Choose the twin of the highest uncancelled card of the led suit, else a card of that
    suit whose twin a seat still to play holds, else the lowest."""
    cards = state.trick_cards
    led = cards[0] // NUM_RANKS
    twins = [c for c in legal if c // NUM_RANKS == led and cards.count(c) == 1]
    later = [(state.to_play + step) % state.players
             for step in range(1, state.players - len(cards))]
    matched = [c for c in legal if c // NUM_RANKS == led and c not in cards
               and any(state.holdings[seat][c] for seat in later)]
    if twins:
        return max(twins)
    if matched:
        return max(matched)
    return min(legal, key=_low)


def _shooter_play(state: State, legal: tuple[Card, ...]) -> Card:
    """Lead the highest card (hearts first), win what can be won, else shed no points."""
    cards = state.trick_cards
    if not cards:
        return max(legal, key=lambda c: (c % NUM_RANKS, c // NUM_RANKS == HEARTS, c))
    led = cards[0] // NUM_RANKS
    following = [c for c in legal if c // NUM_RANKS == led]
    if following:
        winning = _winning_card(state)
        winners = [c for c in following if (winning is None or c > winning) and c not in cards]
        return max(winners) if winners else min(following)
    return min([c for c in legal if not is_point_card(c)] or legal, key=_low)


def choose_pass(holding, rules: Ruleset, rng: Rng, strategy: str,
                aiming: bool) -> tuple[Card, ...]:
    """Choose the cards passed: at random; aiming for the moon, the lowest non-point cards; else
    the Black Maria, hearts and high cards."""
    held = [c for c in cards_of(holding) if rules.may_pass(c)]
    count = rules.pass_count
    if strategy == "random":
        return tuple(sorted(rng.sample(held, count)))
    if aiming:
        return tuple(sorted(sorted(held, key=lambda c: (is_point_card(c), *_low(c)))[:count]))
    ranked = sorted(held, key=lambda c: (c == QUEEN_OF_SPADES, c // NUM_RANKS == HEARTS, *_low(c)))
    return tuple(sorted(ranked[-count:]))


def shows_situation(situation: str, cases: list[str]) -> bool:
    """Tell whether a game whose cases (:meth:`GameStats.cases`) are ``cases`` shows
    ``situation``."""
    if situation == "moon":
        return "moon-subtract" in cases or "moon-add" in cases
    return situation in cases


def situation_problem(situation: str, rules: Ruleset, players: int) -> str | None:
    """Say why no game of ``rules`` at ``players`` players can show ``situation`` (None: it
    can)."""
    set_aside = (rules.cancellation and rules.decks > 1
                 and rules.nothing_survives == NothingSurvives.SET_ASIDE)
    kitty = rules.kitty_size(players) > 0
    checks = {  # situation: (whether a game can show it, why not)
        "moon": (rules.shooting_the_moon, "there is no moon (shooting_the_moon = false)"),
        "set-aside-first": (set_aside, "no trick is ever set aside"),
        "set-aside-last": (set_aside, "no trick is ever set aside"),
        "kitty-pickup": (kitty, f"there is no kitty at {players} players"),
        "kitty-delayed": (kitty and set_aside and rules.kitty_to == KittyTo.FIRST_TRICK,
                          "no kitty waits for a set-aside first trick"),
        "tie": (True, None),
    }
    possible, problem = checks[situation]  # KeyError: not one of SITUATIONS
    return None if possible else problem
