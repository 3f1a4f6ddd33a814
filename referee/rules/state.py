"""This module defines the engine's values, all immutable: phases, actions, trick and hand
records, the game state."""

from __future__ import annotations

import enum
from typing import NamedTuple

from referee.rules.cards import Card, Counts
from referee.rules.legality import Fault
from referee.rules.options import WinningTotal
from referee.rules.ruleset import Ruleset
from referee.rules.tricks import TrickOutcome


class Phase(enum.Enum):
    DEAL = "deal"
    PASS = "pass"
    PLAY = "play"
    SCORING = "scoring"
    OVER = "over"


class IllegalAction(ValueError):
    """An IllegalAction is an action the rules forbid; ``fault`` says which rule when it is a
    play."""

    def __init__(self, message: str, fault: Fault | None = None, clause: str | None = None):
        super().__init__(message)
        self.fault = fault
        self.clause = clause or (fault.clause if fault else None)


class DealAction(NamedTuple):
    hands: tuple[tuple[Card, ...], ...]  # per seat, as dealt
    kitty: tuple[Card, ...]


class PassAction(NamedTuple):
    seat: int
    cards: tuple[Card, ...]


class HandResult(NamedTuple):
    number: int
    dealer: int
    taken: tuple[int, ...]  # points won in tricks (R7.1)
    lost: int  # points of a set-aside last trick nobody took (R6.6)
    shooter: int | None  # the seat that took every point (R8.1)
    choice: str | None  # the shooter's choice (R8.2)
    scores: tuple[int, ...]  # hand scores as the scoresheet should show them (R7.3)
    totals: tuple[int, ...]  # running totals after the hand (R7.4)


class TrickRecord(NamedTuple):
    number: int
    leader: int
    plays: tuple[tuple[int, Card], ...]  # (seat, card) in play order
    outcome: TrickOutcome
    winner: int | None  # seat, None when set aside
    collected: tuple[Card, ...]  # everything the winner took with it (pile, kitty)
    points: int  # points of ``collected``, or lost when the last trick went to nobody


class State(NamedTuple):
    rules: Ruleset
    players: int
    phase: Phase
    hand_number: int
    dealer: int
    totals: tuple[int, ...]
    history: tuple[HandResult, ...]
    holdings: tuple[Counts, ...]
    kitty: tuple[Card, ...]
    passes: tuple[tuple[Card, ...] | None, ...]
    leader: int
    trick: tuple[tuple[int, Card], ...]
    trick_number: int
    hearts_broken: bool
    pile: tuple[Card, ...]  # set-aside cards (and a pending kitty) for the next winner (R6.5)
    taken: tuple[int, ...]
    tricks_won: tuple[int, ...]
    bonus: tuple[int, ...]
    lost: int
    last_trick: TrickRecord | None
    lowest_club: int | None
    pool: int = 0  # the clean-hand pool carried from earlier hands (R7.5)
    kitty_taken: tuple[int, int] | None = None  # (seat, trick) that collected the kitty

    @property
    def to_play(self) -> int:
        """Return the seat whose turn it is in the PLAY phase (R5.1)."""
        return (self.leader + len(self.trick)) % self.players

    @property
    def tricks_per_hand(self) -> int:
        return self.rules.cards_per_player(self.players)

    @property
    def pass_direction(self) -> str:
        return self.rules.pass_direction(self.hand_number)

    @property
    def trick_cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.trick)

    @property
    def winners(self) -> tuple[int, ...]:
        """List the seats sharing the lowest (or, by ``winning_total``, highest) total once the
        game is over (R9.3)."""
        if self.phase is not Phase.OVER:
            return ()
        lowest = self.rules.winning_total == WinningTotal.LOWEST
        low = min(self.totals) if lowest else max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == low)
