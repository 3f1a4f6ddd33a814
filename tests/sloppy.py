"""A tamper for :func:`referee.conformance.generate.generate_game` that plays faults: the
edits of the fast-path and clean-game tests of the check (tests/test_fast_tricks.py,
tests/test_clean_game.py) start from its games."""

from __future__ import annotations

import random

from referee.rules.cards import DECK_SIZE


class Sloppy:
    """Plays a legal card mostly; a share ``faults`` of the cards is a held card instead, or,
    a share ``anywhere`` of those, any card at all."""

    def __init__(self, seed: int, faults: float, anywhere: float = 0.0) -> None:
        self.rng, self.faults, self.anywhere = random.Random(seed), faults, anywhere

    def lead(self, state):
        return state

    def play(self, state, legal):
        if self.rng.random() >= self.faults:
            return self.rng.choice(legal)
        if self.rng.random() < self.anywhere:
            return self.rng.randrange(DECK_SIZE)
        held = [c for c in range(DECK_SIZE) if state.holdings[state.to_play][c]]
        return self.rng.choice(held)
