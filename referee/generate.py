"""Write legal, reproducible games as event lists (and so as logs, through the writer).

The same seed gives the same game on every machine: only :class:`random.Random` with an
integer seed is used, and every choice is made from a sorted list.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from . import engine
from .cards import CARDS, HEARTS, NUM_RANKS, QUEEN_OF_SPADES, Card, cards_of
from .engine import DealAction, PassAction, Phase, State
from .events import (
    Claim, Deal, Event, GameOver, HandStart, Kitty, Moon, Pass, Play, Score, Tag, Total, Trick,
    CardRun,
)
from .ruleset import Ruleset, card_points

DEFAULT_NAMES = ("Al", "Beth", "Charlie", "Dave", "Eve", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kim")
STRATEGIES = ("random", "simple")


@dataclass(slots=True)
class GameStats:
    """How often the tricky situations occurred (a corpus must contain all of them)."""

    hands: int = 0
    tricks: int = 0
    plays: int = 0
    set_aside: int = 0
    set_aside_first: int = 0
    set_aside_last: int = 0
    consecutive_set_aside: int = 0
    kitty_pickups: int = 0
    kitty_delayed: int = 0
    voids: int = 0  # plays off the led suit
    moons: Counter = field(default_factory=Counter)
    ties: int = 0

    def add(self, other: GameStats) -> None:
        for name in self.__slots__:
            value = getattr(other, name)
            if isinstance(value, Counter):
                getattr(self, name).update(value)
            else:
                setattr(self, name, getattr(self, name) + value)


def choose_play(state: State, legal: tuple[Card, ...], rng: random.Random, strategy: str) -> Card:
    if strategy == "random" or len(legal) == 1:
        return legal[rng.randrange(len(legal))]
    cards = state.trick_cards
    if not cards:
        safe = [c for c in legal if card_points(c) == 0] or list(legal)
        return min(safe, key=lambda c: (c % NUM_RANKS, c))
    led = cards[0] // NUM_RANKS
    following = [c for c in legal if c // NUM_RANKS == led]
    if following:
        top = max((c for c in cards if c // NUM_RANKS == led), default=-1)
        under = [c for c in following if c < top]
        return max(under) if under else min(following)
    points = [c for c in legal if c == QUEEN_OF_SPADES] or [c for c in legal if c // NUM_RANKS == HEARTS]
    return max(points or legal, key=lambda c: (c % NUM_RANKS, c))


def choose_pass(holding, count: int, rng: random.Random, strategy: str) -> tuple[Card, ...]:
    held = list(cards_of(holding))
    if strategy == "random":
        return tuple(sorted(rng.sample(held, count)))
    ranked = sorted(held, key=lambda c: (c == QUEEN_OF_SPADES, c // NUM_RANKS == HEARTS, c % NUM_RANKS, c))
    return tuple(sorted(ranked[-count:]))


def generate_game(
    rules: Ruleset, players: int, *, seed: int, hands: int | None = None,
    strategy: str = "random", names: tuple[str, ...] | None = None, event_name: str | None = None,
    stats: GameStats | None = None, tamper=None,
) -> list[Event]:
    """A complete legal game (to the end, or ``hands`` hands) as log events.

    ``tamper`` (see :mod:`referee.inject`) may replace one lead or play with an illegal one;
    the rest of the game is then played legally from the state that play left.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    rng = random.Random(seed)
    names = tuple(names or DEFAULT_NAMES[:players])
    stats = stats if stats is not None else GameStats()
    events: list[Event] = [
        Tag("Event", event_name or f"generated game, seed {seed}"),
        Tag("Ruleset", rules.name),
        Tag("Players", " ".join(f'"{n}"' if " " in n else n for n in names)),
        Tag("Target", str(rules.target)),
    ]
    state = engine.new_game(rules, players, dealer=rng.randrange(players))
    while state.phase is not Phase.OVER and (hands is None or stats_hands(state) < hands):
        state = _play_hand(state, names, rng, strategy, events, stats, tamper)
    if state.phase is Phase.OVER:
        winners = state.winners
        stats.ties += len(winners) > 1
        events.append(GameOver(tuple(names[s] for s in winners)))
    return events


def stats_hands(state: State) -> int:
    return len(state.history)


def _play_hand(state: State, names, rng, strategy, events: list[Event], stats: GameStats,
               tamper=None) -> State:
    rules, n = state.rules, state.players
    deck = engine.full_deck(rules)
    rng.shuffle(deck)
    deal: DealAction = engine.deal_from_order(state, deck)
    events.append(HandStart(state.hand_number, names[state.dealer], state.pass_direction))
    events.extend(Deal(names[s], CardRun(hand)) for s, hand in enumerate(deal.hands))
    if rules.kitty_size(n):
        events.append(Kitty(CardRun(deal.kitty)))
    state = engine.apply(state, deal)
    while state.phase is Phase.PASS:
        seat = state.passes.index(None)
        cards = choose_pass(state.holdings[seat], rules.pass_count, rng, strategy)
        events.append(Pass(names[seat], CardRun(cards)))
        state = engine.apply(state, PassAction(seat, cards))
    stats.hands += 1
    pile_waiting = bool(state.pile)
    previous_set_aside = False
    while state.phase is Phase.PLAY:
        number, plays = state.trick_number, []
        if tamper is not None:
            state = tamper.lead(state)
        while state.phase is Phase.PLAY and state.trick_number == number and (
                len(state.trick) < n):
            seat = state.to_play
            legal = engine.legal_plays(state)
            card = tamper.play(state, legal) if tamper is not None else None
            if card is None:
                card = choose_play(state, legal, rng, strategy)
            if state.trick and card // NUM_RANKS != state.trick[0][1] // NUM_RANKS:
                stats.voids += 1
            plays.append(Play(names[seat], CARDS[card]))
            state = engine.play(state, seat, card, check=False)
            stats.plays += 1
        record = state.last_trick
        stats.tricks += 1
        aside = record.outcome.winner is None
        if aside:
            stats.set_aside += 1
            stats.set_aside_first += record.number == 1
            stats.set_aside_last += state.phase is Phase.SCORING
            stats.consecutive_set_aside += previous_set_aside
        elif pile_waiting and record.collected:
            stats.kitty_delayed += record.number > 1
            stats.kitty_pickups += 1
            pile_waiting = False
        previous_set_aside = aside
        claim = Claim(names[record.winner] if record.winner is not None else None)
        events.append(Trick(number, tuple(plays), claim))
    choices = engine.scoring_actions(state)
    choice = choices[rng.randrange(len(choices))]
    shooter = engine.shooter(state)
    if shooter is not None:
        stats.moons[choice] += 1
        events.append(Moon(names[shooter], choice))
    state = engine.apply(state, choice)
    result = state.history[-1]
    events.append(Score(tuple(_entries(names, result.scores))))
    events.append(Total(tuple(_entries(names, result.totals))))
    return state


def _entries(names, values):
    from .events import Entry

    return (Entry(name, value) for name, value in zip(names, values))
