"""This module plays legal, reproducible games as log events (spec/conformance.md,
docs/generate.md).

Every random number comes from :class:`Rng` and every choice is made from a list in a fixed
order, so that a seed gives byte-identical games on every machine and Python version.
"""

from __future__ import annotations

import json
from dataclasses import fields

from referee.conformance.gamestats import GameStats
from referee.conformance.rng import Rng
from referee.conformance.strategies import (SITUATIONS, STRATEGIES, _strength, choose_pass,
                                            choose_play, shows_situation)
from referee.log.events import (CardRun, Claim, Comment, Deal, Entry, Event, GameOver, HandStart,
                                Kitty, Moon, Pass, Play, Score, Tag, Total, Trick)
from referee.rules import engine
from referee.rules.cards import CARDS, NUM_RANKS
from referee.rules.state import DealAction, HandResult, PassAction, Phase, State, TrickRecord
from referee.rules.names import DEFAULT_NAMES
from referee.rules.options import FirstLeader
from referee.rules.ruleset import Ruleset

SITUATION_TRIES = 16  # plays of one hand tried for a situation before the best one is kept
TIE_TRIES = 64  # the same for a tie (only a hand that ends the game is tried again)
MAX_HANDS = 200  # hands after which a game played to the end stops, target reached or not
MAX_HANDS_ASKED = 10_000  # the most hands ``--hands`` may ask for
MOON_ODDS = 8  # with ``simple``, one hand in MOON_ODDS has a player aiming for the moon
MAX_DEALS = 64  # deals tried for one hand before a ruleset is taken to always dead-end
# the strategy that steers a game towards a situation (see _steered_hand)
STEERING = {"moon": "moon", "set-aside-first": "aside-first", "kitty-delayed": "aside-first",
            "set-aside-last": "aside-last"}


def seat_names(players: int) -> tuple[str, ...]:
    """Name the seats: :data:`DEFAULT_NAMES`, then P12, P13, ... for a seat past the eleventh."""
    extra = range(len(DEFAULT_NAMES) + 1, players + 1)
    return DEFAULT_NAMES[:players] + tuple(f"P{seat}" for seat in extra)


def game_seed(seed: int, index: int) -> int:
    """Return the seed of game ``index`` (1, 2, ...) of ``referee generate --count``.

    It is the first output of :class:`Rng` seeded with the text ``"SEED/INDEX"``, so that each
    game of a run can be made again alone with ``--seed``, and no two runs share a game by
    accident.
    """
    return Rng(f"{seed}/{index}").next64()


def hand_limit_note(limit: int) -> str:
    """Write the comment a game stopped at the hand limit ends with."""
    return f"stopped after {limit} hands, the generator's limit: no total reached the target"


def generate_game(rules: Ruleset, players: int, *, seed: int, hands: int | None = None,
                  strategy: str = "random", event_name: str | None = None,
                  stats: GameStats | None = None, tamper=None, situation: str | None = None,
                  max_hands: int = MAX_HANDS, ruleset_tag: str | None = None) -> list[Event]:
    """Play a legal game as log events, to its end (at most ``max_hands`` hands) or of ``hands``
    hands.

    ``tamper`` (see :mod:`referee.conformance.inject`) may replace leads or plays;
    ``ruleset_tag`` says what the [Ruleset] tag says (a file's path) instead of the ruleset's
    name.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    if situation is not None and situation not in SITUATIONS:
        raise ValueError(f"unknown situation {situation!r}; choose from {', '.join(SITUATIONS)}")
    rng = Rng(seed)
    names = seat_names(players)
    stats = stats if stats is not None else GameStats()
    events = log_header(rules, names, event_name or f"generated game, seed {seed}", ruleset_tag)
    state = engine.new_game(rules, players, dealer=rng.below(players))
    stats.games += 1
    limit = max_hands if hands is None else hands
    reached = False
    if situation is not None and strategy != "random":
        strategy = STEERING.get(situation, strategy)
    while state.phase is not Phase.OVER and len(state.history) < limit:
        if situation is None:
            state = _play_hand_to_its_end(state, names, rng, strategy, events, stats, tamper)
        else:
            state, reached = _steered_hand(state, names, rng, strategy, events, stats,
                                           situation, reached)
    if state.phase is Phase.OVER:
        stats.ended += 1
        stats.ties += len(state.winners) > 1
        events.append(GameOver(tuple(names[s] for s in state.winners)))
    elif hands is None:
        stats.stopped += 1
        events.append(Comment(hand_limit_note(max_hands)))
    return events


def _steered_hand(state: State, names, rng: Rng, strategy: str, events: list[Event],
                  stats: GameStats, situation: str, reached: bool) -> tuple[State, bool]:
    """Play a hand of a game steered towards ``situation`` (docs/generate.md), and tell whether
    the game has shown it.

    Each try has a fit: 2, the hand shows the situation; 1, it does not; 0, it ends the game
    without a tie when a tie is wanted.
    """
    best = None
    for _ in range(TIE_TRIES if situation == "tie" else SITUATION_TRIES):
        mine, made = [], GameStats()
        after = _play_hand_to_its_end(state, names, Rng(rng.next64()), strategy, mine, made)
        if situation != "tie":
            fit = 2 if shows_situation(situation, made.cases()) else 1
        elif after.phase is not Phase.OVER:
            fit = 1
        elif len(after.winners) > 1:
            fit = 2
        else:
            fit = 0
        if best is None or fit > best[0]:
            best = (fit, after, mine, made)
        # a hand that does not show the situation is kept once the game has shown it, and
        # for a tie (looked for only among the hands that end the game) when the game goes on
        if fit == 2 or (fit == 1 and (reached or situation == "tie")):
            break
    fit, after, mine, made = best
    events.extend(mine)
    stats.add(made)
    return after, reached or fit == 2


def _play_hand_to_its_end(state: State, names, rng: Rng, strategy, events: list[Event],
                          stats: GameStats, tamper=None) -> State:
    """Play one hand to its end, dealing again when a deal runs into a dead end (R5.6)."""
    for _ in range(MAX_DEALS):
        mine, made, where = [], GameStats(), getattr(tamper, "where", None)
        after = _play_hand(state, names, rng, strategy, mine, made, tamper)
        if after is not None:
            events.extend(mine)
            stats.add(made)
            return after
        if tamper is not None:
            tamper.where = where  # a fault made in the hand dealt again is gone with it
    raise ValueError(f"{state.rules.name}: every deal tried ran into a position with no legal card")


def deal_hands(state: State, deck: list) -> DealAction:
    """Deal a shuffled deck, both 2C apart with ``two_of_clubs_apart`` (R2.4)."""
    deal = engine.deal_from_order(state, deck)
    return twos_apart(deal) if state.rules.two_of_clubs_apart else deal


def twos_apart(deal: DealAction) -> DealAction:
    """Return ``deal`` with no player holding both 2C (R2.4): the holder of both swaps one with
    the lowest other card of the next seat, as a program that deals them apart does."""
    hands = [list(hand) for hand in deal.hands]
    two = engine.TWO_OF_CLUBS
    for seat, hand in enumerate(hands):
        if hand.count(two) > 1:
            other = hands[(seat + 1) % len(hands)]
            swap = min(c for c in other if c != two)
            hand.remove(two)
            other.remove(swap)
            hand.append(swap)
            other.append(CARDS[two])
    return DealAction(tuple(tuple(sorted(h)) for h in hands), deal.kitty)


def _play_hand(state: State, names, rng: Rng, strategy, events: list[Event], stats: GameStats,
               tamper=None) -> State | None:
    """Deal and play one hand; return None when the ruleset leaves a player no legal card (R5.6)."""
    rules, n = state.rules, state.players
    deck = engine.full_deck(rules)
    rng.shuffle(deck)
    deal = deal_hands(state, deck)
    events.extend(deal_events(rules, state.hand_number, state.dealer, names, deal))
    state = engine.apply(state, deal)
    shooter = None
    if strategy == "moon" or (strategy == "simple" and rng.below(MOON_ODDS) == 0):
        shooter = max(range(n), key=lambda s: (_strength(state.holdings[s]), -s))
        stats.moon_attempts += 1
    while state.phase is Phase.PASS:
        seat = state.passes.index(None)
        cards = choose_pass(state.holdings[seat], rules, rng, strategy, seat == shooter)
        events.append(Pass(names[seat], CardRun(cards)))
        state = engine.apply(state, PassAction(seat, cards))
    stats.hands += 1
    pile_waiting = bool(state.pile)
    previous_set_aside = False
    while state.phase is Phase.PLAY:
        number = state.trick_number
        if tamper is not None:
            state = tamper.lead(state)
        while state.phase is Phase.PLAY and state.trick_number == number and (
                len(state.trick) < n):
            seat = state.to_play
            legal = engine.legal_plays(state)
            if not legal:
                return None
            card = tamper.play(state, legal) if tamper is not None else None
            if card is None:
                card = choose_play(state, legal, rng, strategy, shooter)
            if state.trick and card // NUM_RANKS != state.trick[0][1] // NUM_RANKS:
                stats.voids += 1
            state = engine.play(state, seat, card, check=False)
            stats.plays += 1
        record = state.last_trick
        stats.tricks += 1
        if record.outcome.winner is None:
            stats.set_aside += 1
            stats.set_aside_first += record.number == 1
            stats.set_aside_last += state.phase is Phase.SCORING
            stats.consecutive_set_aside += previous_set_aside
            if state.phase is Phase.SCORING and record.winner is None and record.points:
                stats.lost_points += 1
        if pile_waiting and record.winner is not None and record.collected:
            stats.kitty_delayed += record.number > 1
            stats.kitty_pickups += 1
            pile_waiting = False
        previous_set_aside = record.outcome.winner is None
        events.append(trick_event(names, record))
    choices = engine.scoring_actions(state)
    choice = choices[rng.below(len(choices))]
    state = engine.apply(state, choice)
    if state.history[-1].shooter is not None:
        stats.moons[choice] += 1
    events.extend(score_events(names, state.history[-1]))
    return state


def players_tag(names) -> Tag:
    """Write the [Players] tag of a table, a name with a space in quotes."""
    return Tag("Players", " ".join(f'"{n}"' if " " in n else n for n in names))


def log_header(rules: Ruleset, names, event: str, ruleset_tag: str | None = None) -> list[Event]:
    """Write the tags a generated log starts with."""
    return [Tag("Event", event), Tag("Ruleset", ruleset_tag or rules.name), players_tag(names),
            Tag("Target", str(rules.target))]


def deal_events(rules: Ruleset, number: int, dealer: int, names, deal) -> list[Event]:
    """Write a hand's first line (no dealer when the ruleset has none, R4.1), deals and kitty."""
    no_dealer = rules.first_leader == FirstLeader.AFTER_LAST_WINNER
    out: list[Event] = [HandStart(number, None if no_dealer else names[dealer],
                                  rules.pass_direction(number))]
    out.extend(Deal(name, CardRun(hand)) for name, hand in zip(names, deal.hands))
    if deal.kitty:
        out.append(Kitty(CardRun(deal.kitty)))
    return out


def trick_event(names, record: TrickRecord) -> Trick:
    """Write a finished trick's line: its plays, and its winner's claim (none: set aside)."""
    return Trick(record.number, tuple(Play(names[s], c) for s, c in record.plays),
                 Claim(None if record.winner is None else names[record.winner]))


def score_events(names, result: HandResult) -> list[Event]:
    """Write a scored hand's lines: the moon choice when a seat shot it, the scores, the
    totals."""
    out: list[Event] = []
    if result.shooter is not None:
        out.append(Moon(names[result.shooter], result.choice))
    out.append(Score(tuple(Entry(n, v) for n, v in zip(names, result.scores))))
    out.append(Total(tuple(Entry(n, v) for n, v in zip(names, result.totals))))
    return out


def ruleset_options(rules: Ruleset) -> dict:
    """Give every option of ``rules`` as a plain JSON value, in the ruleset's order."""
    return {f.name: (list(v) if isinstance(v := getattr(rules, f.name), tuple) else v)
            for f in fields(rules)}


def ruleset_toml(rules: Ruleset) -> str:
    """Write a TOML file that loads as ``rules`` (for a log's ``[Ruleset "path.toml"]`` tag)."""
    def text(value) -> str:
        if isinstance(value, str):
            return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(value, list):
            return "[" + ", ".join(map(text, value)) + "]"
        return json.dumps(value)  # true, false or a whole number

    return "".join(f"{name} = {text(value)}\n" for name, value in ruleset_options(rules).items())
