"""The scripted mutations of rule code that scripts/mutation.py runs.

Each is one small change a careless edit could make to a rule; the suite must notice every
one.  ``find`` must occur exactly once in the file; ``tests`` are run first (the tests that
should catch it), then the whole suite.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutation:
    path: str
    find: str
    replace: str
    why: str
    tests: tuple[str, ...] = ()


TRICKS = "referee/rules/tricks.py"
RULESET = "referee/rules/ruleset.py"
CARDS = "referee/rules/cards.py"
ENGINE_TESTS = ("tests/test_tricks.py", "tests/test_engine.py", "tests/test_engine_properties.py")

MUTATIONS: tuple[Mutation, ...] = (
    # -- trick resolution (R6) -------------------------------------------------------------
    Mutation(TRICKS, "            if card in seen:\n                repeated.add(card)",
             "            if card in seen and False:\n                repeated.add(card)",
             "twins never cancel", ENGINE_TESTS),
    Mutation(TRICKS, 'if set_aside_when == "two_pairs" and len(cancelled) >= 2:',
             'if set_aside_when == "two_pairs" and len(cancelled) >= 3:',
             "two_pairs needs three pairs", ENGINE_TESTS),
    Mutation(TRICKS, "led_suit = cards[0] // NUM_RANKS", "led_suit = cards[-1] // NUM_RANKS",
             "the last card, not the first, sets the led suit", ENGINE_TESTS),
    Mutation(TRICKS, "card > best_card and card not in cancelled",
             "card >= best_card and card not in cancelled",
             "of two equal cards the later wins (only reachable if cancellation is off)",
             ENGINE_TESTS),
    Mutation(TRICKS, "card > best_card and card not in cancelled", "card > best_card",
             "a cancelled card can win", ENGINE_TESTS),
    Mutation(TRICKS, "card // NUM_RANKS == led_suit and card > best_card",
             "card > best_card", "a card of another suit can win", ENGINE_TESTS),
    Mutation(TRICKS, "    else:\n        cancelled = frozenset()",
             "    else:\n        cancelled = frozenset(cards[:1])",
             "without cancellation the led card is still cancelled", ENGINE_TESTS),
    # -- points and pass directions (R7, R3) -----------------------------------------------
    Mutation(RULESET, "return self.decks * (NUM_RANKS * HEART_POINTS + BLACK_MARIA_POINTS)",
             "return self.decks * (NUM_RANKS * HEART_POINTS + BLACK_MARIA_POINTS) + 1",
             "one point more per hand than the decks hold"),
    Mutation(RULESET, "    if card == QUEEN_OF_SPADES:\n        return BLACK_MARIA_POINTS",
             "    if card == QUEEN_OF_SPADES:\n        return HEART_POINTS",
             "Black Maria is worth one point"),
    Mutation(RULESET, "return card // NUM_RANKS == HEARTS or card == QUEEN_OF_SPADES",
             "return card // NUM_RANKS == HEARTS",
             "Black Maria is not a point card for the point-card rules"),
    Mutation(RULESET, "return ruleset.jack_of_diamonds_bonus if card == JACK_OF_DIAMONDS else 0",
             "return -ruleset.jack_of_diamonds_bonus if card == JACK_OF_DIAMONDS else 0",
             "the jack-of-diamonds bonus has the wrong sign"),
    Mutation(RULESET, "return self.pass_cycle[(hand_number - 1) % len(self.pass_cycle)]",
             "return self.pass_cycle[hand_number % len(self.pass_cycle)]",
             "the pass cycle starts one hand late"),
    Mutation(RULESET, '    if direction == "right":\n        return players - 1',
             '    if direction == "right":\n        return 1', "right passes go left"),
    Mutation(RULESET, '    if direction == "across":\n        return players // 2',
             '    if direction == "across":\n        return (players + 1) // 2',
             "across rounds up for odd tables"),
    Mutation(RULESET, "return self.min_players <= players <= self.max_players",
             "return self.min_players < players <= self.max_players",
             "the smallest table is refused"),
)
