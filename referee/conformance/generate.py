"""Write legal, reproducible games as event lists (and so as logs, through the writer).

The same seed gives byte-identical output on every machine and every supported Python
version: every random number comes from :class:`Rng` (SplitMix64, specified below and in
``spec/conformance.md``), never from :mod:`random`, whose ``shuffle``/``randrange``/``sample``
may change between Python versions; every choice is made from a list in a fixed order.

Strategies (who plays which legal card):

* ``random`` — uniformly among the legal cards (and passes);
* ``simple`` — a plausible player: duck under the winning card, cancel it with its twin rather
  than win, shed the Black Maria and high hearts when void, pass the dangerous cards; in about
  one hand in eight the strongest hand aims for the moon instead;
* ``moon`` — ``simple``, but in every hand the strongest hand aims for the moon (used to find
  moons quickly in two-deck games, where they are rare).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import fields

from referee.conformance.gamestats import CASES, GameStats  # noqa: F401  (re-exported)
from referee.log.events import (
    CardRun,
    Claim,
    Deal,
    Entry,
    Event,
    GameOver,
    HandStart,
    Kitty,
    Moon,
    Pass,
    Play,
    Score,
    Tag,
    Total,
    Trick,
)
from referee.rules import engine
from referee.rules.cards import CARDS, HEARTS, NUM_RANKS, QUEEN_OF_SPADES, Card, cards_of
from referee.rules.engine import DealAction, PassAction, Phase, State
from referee.rules.names import DEFAULT_NAMES
from referee.rules.ruleset import Ruleset, card_points, is_point_card
from referee.rules.tricks import resolve_under

STRATEGIES = ("random", "simple", "moon")
MOON_ODDS = 8  # with ``simple``, one hand in MOON_ODDS has a player aiming for the moon

_MASK64 = (1 << 64) - 1


class Rng:
    """SplitMix64: a small generator fully specified here, so games never depend on Python.

    ``state += 0x9E3779B97F4A7C15``; output = ``z ^ (z >> 31)`` after
    ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9``, ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB``
    (all modulo 2**64).  An integer seed in 0..2**64-1 is the initial state; any other seed
    (a string, a negative or huge integer) is first hashed: the first 8 bytes of
    SHA-256(UTF-8 text), big-endian.  ``below(n)`` rejects outputs >= 2**64 - 2**64 % n and
    returns the output modulo n.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int | str):
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK64:
            seed = int.from_bytes(hashlib.sha256(str(seed).encode("utf-8")).digest()[:8], "big")
        self.state = seed

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    randrange = below  # the name random.Random users expect (one argument only)

    def choice(self, items):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates from the end: for i = len-1 .. 1 swap items[i] and items[below(i+1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items, k: int) -> list:
        """k distinct positions, by a partial Fisher-Yates from the front."""
        pool = list(items)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


# -- strategies -----------------------------------------------------------------------------
def _rank(card: int) -> int:
    return card % NUM_RANKS


def _winning_card(state: State) -> int | None:
    """The card currently winning the trick in progress (None: nothing wins it yet)."""
    cards = state.trick_cards
    outcome = resolve_under(state.rules, cards)
    return None if outcome.winner is None else cards[outcome.winner]


def _strength(holding) -> int:
    """A rough count of winners: jacks to aces, hearts counting double."""
    return sum(n * max(0, _rank(c) - 8) * (2 if c // NUM_RANKS == HEARTS else 1)
               for c, n in enumerate(holding))


def choose_play(state: State, legal: tuple[Card, ...], rng: Rng, strategy: str,
                shooter: int | None = None) -> Card:
    """The card a player of ``strategy`` plays; ``shooter`` is the seat aiming for the moon."""
    if strategy == "random" or len(legal) == 1:
        return legal[rng.below(len(legal))]
    if state.to_play == shooter:
        return _shooter_play(state, legal)
    cards = state.trick_cards
    if not cards:
        safe = [c for c in legal if card_points(c) == 0] or list(legal)
        return min(safe, key=lambda c: (_rank(c), c))
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
    return max(points or legal, key=lambda c: (_rank(c), c))


def _shooter_play(state: State, legal: tuple[Card, ...]) -> Card:
    cards = state.trick_cards
    if not cards:  # lead the highest card, hearts first once they may be led
        return max(legal, key=lambda c: (_rank(c), c // NUM_RANKS == HEARTS, c))
    led = cards[0] // NUM_RANKS
    following = [c for c in legal if c // NUM_RANKS == led]
    if following:
        winning = _winning_card(state)
        winners = [c for c in following if (winning is None or c > winning) and c not in cards]
        return max(winners) if winners else min(following)
    safe = [c for c in legal if not is_point_card(c)] or list(legal)
    return min(safe, key=lambda c: (_rank(c), c))


def choose_pass(holding, count: int, rng: Rng, strategy: str,
                aiming: bool = False, rules: Ruleset | None = None) -> tuple[Card, ...]:
    held = [c for c in cards_of(holding) if rules is None or rules.may_pass(c)]
    if strategy == "random":
        return tuple(sorted(rng.sample(held, count)))
    if aiming:  # keep the winners and the points; pass the lowest other cards
        ranked = sorted(held, key=lambda c: (is_point_card(c), _rank(c), c))
        return tuple(sorted(ranked[:count]))
    ranked = sorted(held, key=lambda c: (c == QUEEN_OF_SPADES, c // NUM_RANKS == HEARTS,
                                         _rank(c), c))
    return tuple(sorted(ranked[-count:]))


# -- games ----------------------------------------------------------------------------------
def generate_game(
    rules: Ruleset, players: int, *, seed: int, hands: int | None = None,
    strategy: str = "random", names: tuple[str, ...] | None = None, event_name: str | None = None,
    stats: GameStats | None = None, tamper=None,
) -> list[Event]:
    """A complete legal game (to the end, or ``hands`` hands) as log events.

    ``tamper`` (see :mod:`referee.conformance.inject`) may replace one lead or play with an illegal one;
    the rest of the game is then played legally from the state that play left.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    rng = Rng(seed)
    names = tuple(names or DEFAULT_NAMES[:players])
    stats = stats if stats is not None else GameStats()
    events: list[Event] = [
        Tag("Event", event_name or f"generated game, seed {seed}"),
        Tag("Ruleset", rules.name),
        Tag("Players", " ".join(f'"{n}"' if " " in n else n for n in names)),
        Tag("Target", str(rules.target)),
    ]
    state = engine.new_game(rules, players, dealer=rng.below(players))
    stats.games += 1
    while state.phase is not Phase.OVER and (hands is None or stats_hands(state) < hands):
        state = _play_hand_to_its_end(state, names, rng, strategy, events, stats, tamper)
    if state.phase is Phase.OVER:
        winners = state.winners
        stats.ended += 1
        stats.ties += len(winners) > 1
        events.append(GameOver(tuple(names[s] for s in winners)))
    return events


def stats_hands(state: State) -> int:
    return len(state.history)


class _DeadEnd(Exception):
    """The ruleset left the player to play no legal card (R5.6): the hand cannot be finished."""


MAX_DEALS = 64  # deals tried for one hand before a ruleset is taken to always dead-end


def _play_hand_to_its_end(state: State, names, rng: Rng, strategy, events: list[Event],
                          stats: GameStats, tamper=None) -> State:
    """One hand played to its end; a deal that runs into a dead end (R5.6) is dealt again."""
    for _ in range(MAX_DEALS):
        mark, saved = len(events), {f.name: _copy(getattr(stats, f.name)) for f in fields(stats)}
        where = getattr(tamper, "where", None)
        try:
            return _play_hand(state, names, rng, strategy, events, stats, tamper)
        except _DeadEnd:
            del events[mark:]
            if tamper is not None:
                tamper.where = where  # a fault made in the hand dealt again is gone with it
            for name, value in saved.items():
                setattr(stats, name, value)
    raise ValueError(f"{state.rules.name}: every deal tried ran into a position with no legal card")


def _copy(value):
    return Counter(value) if isinstance(value, Counter) else value


def deal_hands(state: State, deck: list) -> DealAction:
    """The deal of a shuffled deck; with ``two_of_clubs_apart`` (R2.4), a player dealt both 2C
    swaps one with the lowest other card of the next seat, as a program that deals them apart
    does."""
    deal = engine.deal_from_order(state, deck)
    return twos_apart(deal) if state.rules.two_of_clubs_apart else deal


def twos_apart(deal: DealAction) -> DealAction:
    """``deal`` with no player holding both 2C (R2.4): the holder of both swaps one with the
    lowest other card of the next seat."""
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
               tamper=None) -> State:
    rules, n = state.rules, state.players
    deck = engine.full_deck(rules)
    rng.shuffle(deck)
    deal = deal_hands(state, deck)
    events.append(_hand_start(state, names))
    events.extend(Deal(names[s], CardRun(hand)) for s, hand in enumerate(deal.hands))
    if rules.kitty_size(n):
        events.append(Kitty(CardRun(deal.kitty)))
    state = engine.apply(state, deal)
    shooter = None
    if strategy == "moon" or (strategy == "simple" and rng.below(MOON_ODDS) == 0):
        shooter = max(range(n), key=lambda s: (_strength(state.holdings[s]), -s))
        stats.moon_attempts += 1
    state = _pass_cards(state, names, rng, strategy, events, shooter)
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
            if not legal:
                raise _DeadEnd()
            card = tamper.play(state, legal) if tamper is not None else None
            if card is None:
                card = choose_play(state, legal, rng, strategy, shooter)
            if state.trick and card // NUM_RANKS != state.trick[0][1] // NUM_RANKS:
                stats.voids += 1
            plays.append(Play(names[seat], CARDS[card]))
            state = engine.play(state, seat, card, check=False)
            stats.plays += 1
        record = state.last_trick
        stats.tricks += 1
        aside = record.winner is None
        if record.outcome.winner is None:
            stats.set_aside += 1
            stats.set_aside_first += record.number == 1
            stats.set_aside_last += state.phase is Phase.SCORING
            stats.consecutive_set_aside += previous_set_aside
            if state.phase is Phase.SCORING and aside and record.points:
                stats.lost_points += 1
        if pile_waiting and record.winner is not None and record.collected:
            stats.kitty_delayed += record.number > 1
            stats.kitty_pickups += 1
            pile_waiting = False
        previous_set_aside = record.outcome.winner is None
        claim = Claim(names[record.winner] if record.winner is not None else None)
        events.append(Trick(number, tuple(plays), claim))
    choices = engine.scoring_actions(state)
    choice = choices[rng.below(len(choices))]
    moon = engine.shooter(state)
    if moon is not None:
        stats.moons[choice] += 1
        events.append(Moon(names[moon], choice))
    state = engine.apply(state, choice)
    result = state.history[-1]
    events.append(Score(tuple(_entries(names, result.scores))))
    events.append(Total(tuple(_entries(names, result.totals))))
    return state


def _hand_start(state: State, names) -> HandStart:
    """``hand N dealer NAME pass DIRECTION``; no dealer when the ruleset has none (R4.1)."""
    no_dealer = state.rules.first_leader == engine.AFTER_LAST_WINNER
    return HandStart(state.hand_number, None if no_dealer else names[state.dealer],
                     state.pass_direction)


def _pass_cards(state: State, names, rng: Rng, strategy, events: list[Event],
                shooter: int | None) -> State:
    rules = state.rules
    while state.phase is Phase.PASS:
        seat = state.passes.index(None)
        cards = choose_pass(state.holdings[seat], rules.pass_count, rng, strategy, seat == shooter,
                            rules=rules)
        events.append(Pass(names[seat], CardRun(cards)))
        state = engine.apply(state, PassAction(seat, cards))
    return state


def _entries(names, values):
    return (Entry(name, value) for name, value in zip(names, values))


def ruleset_toml(rules: Ruleset) -> str:
    """A TOML file that loads as ``rules`` (for a log's ``[Ruleset "path.toml"]`` tag)."""
    lines = []
    for item in fields(rules):
        value = getattr(rules, item.name)
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int):
            text = str(value)
        elif isinstance(value, tuple):
            text = "[" + ", ".join(_toml_string(v) for v in value) + "]"
        else:
            text = _toml_string(value)
        lines.append(f"{item.name} = {text}")
    return "\n".join(lines) + "\n"


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
