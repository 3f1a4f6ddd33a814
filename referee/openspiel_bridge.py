"""Play OpenSpiel's Hearts (``pyspiel``, ``pip install 'referee[openspiel]'``, imported only
inside functions) and write the games as logs.

One OpenSpiel game is one hand; a log chains hands until a total reaches the target.  Each
trick's winner claim names the next trick's leader as OpenSpiel chose it; the scores are its
``points(player)``.  spec/conformance.md ("Cross-check against OpenSpiel") maps the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from referee.judge import codes
from referee.conformance.generate import ruleset_toml
from referee.conformance.rng import Rng
from referee.log.events import (CardRun, Claim, Deal, Entry, Event, GameOver, HandStart, Moon,
                                Pass, Play, Score, Tag, Total, Trick)
from referee.rules.cards import CARDS, CLUBS, DIAMONDS, HEARTS, NUM_RANKS, SPADES, Card, parse_card
from referee.rules.ruleset import Ruleset, card_points, with_options
from referee.log.writer import write
from referee.rules.options import FirstLeader, MoonChoice, PassDirection

__all__ = [
    "NAMES", "PASS_DIRECTIONS", "FIRST_DEALER", "PASS_COUNT", "JD_BONUS", "NO_TRICKS_BONUS",
    "OPENSPIEL_TOML", "Unsupported", "card_from_action", "action_from_card",
    "openspiel_params", "ruleset_for", "Tampering", "OpenSpielHand", "POLICIES",
    "play_hand", "trickless_in_moon", "game_log", "play_game", "VARIANT_PARAMS",
    "variant_params", "variant_ruleset", "variant_game",
]

NAMES = ("North", "East", "South", "West")
# OpenSpiel's PassDir of each direction
PASS_DIRECTIONS = {PassDirection.HOLD: 0, PassDirection.LEFT: 1, PassDirection.ACROSS: 2,
                   PassDirection.RIGHT: 3}
_OS_SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
FIRST_DEALER = 3  # West deals hand 1, so North is first to its left (R2.5: free)
PASS_COUNT = 3  # OpenSpiel's pass_cards
JD_BONUS = -10  # OpenSpiel's jd_bonus
NO_TRICKS_BONUS = -5  # OpenSpiel's avoid_all_tricks_bonus, never given in a moon hand
POLICIES = ("random", "mixed")
# each of OpenSpiel's boolean hearts parameters (all of them): the ruleset option it sets, its
# value on and off, its default
_PARAMS = {
    "pass_cards": ("pass_count", PASS_COUNT, 0, True),
    "no_pts_on_first_trick": ("first_trick_points", False, True, True),
    "jd_bonus": ("jack_of_diamonds_bonus", JD_BONUS, 0, False),
    "must_break_hearts": ("must_break_hearts", True, False, True),
    "qs_breaks_hearts": ("queen_breaks_hearts", True, False, True),
    "can_lead_hearts_instead_of_qs": ("lead_hearts_instead_of_queen", True, False, False),
    "can_lead_any_club": ("first_lead_any_club", True, False, False),
    "avoid_all_tricks_bonus": ("no_tricks_bonus", NO_TRICKS_BONUS, 0, False),
}
VARIANT_PARAMS = tuple(_PARAMS)  # in the order variant_params draws them

OPENSPIEL_TOML = """\
# OpenSpiel's hearts with its default parameters, as a referee ruleset.
base = "standard"
name = "openspiel"
first_trick_follow_points = true   # following suit, a point card is free on the first trick
no_tricks_bonus_in_moon_hand = false  # (moot here) no avoid_all_tricks_bonus in a moon hand
"""


class Unsupported(ValueError):
    """Unsupported says that the other side cannot express a ruleset or OpenSpiel parameter."""


def card_from_action(action: int) -> Card:
    """Turn OpenSpiel's card action (rank * 4 + suit, suits C D H S) into a referee card."""
    return CARDS[_OS_SUITS[action % 4] * NUM_RANKS + action // 4]


def action_from_card(card: int) -> int:
    return (card % NUM_RANKS) * 4 + _OS_SUITS.index(card // NUM_RANKS)


def openspiel_params(rules: Ruleset) -> dict[str, bool]:
    """Find the OpenSpiel ``hearts`` parameters that play ``rules`` (Unsupported if none can).

    The check leaves ``first_trick_follow_points`` out: the two readings differ only after an
    illegal first lead (see the module docs).
    """
    checks = [  # (whether OpenSpiel cannot play it, why)
        (rules.decks != 1 or not rules.min_players == rules.max_players == 4,
         "OpenSpiel hearts is one deck and four players"),
        (rules.first_leader != FirstLeader.TWO_OF_CLUBS, "OpenSpiel's holder of the 2C leads it"),
        (rules.pass_count not in (0, PASS_COUNT), "OpenSpiel passes three cards or none"),
        (rules.moon_choices != (MoonChoice.ADD,) or rules.moon_points != 26,
         "OpenSpiel's moon adds 26 to every other player"),
        (rules.jack_of_diamonds_bonus not in (0, JD_BONUS),
         f"OpenSpiel's jack of diamonds is worth {JD_BONUS}"),
        (rules.no_tricks_bonus not in (0, NO_TRICKS_BONUS),
         f"OpenSpiel's no-tricks bonus is {NO_TRICKS_BONUS}"),
        (rules.no_tricks_bonus and rules.no_tricks_bonus_in_moon_hand,
         "OpenSpiel gives no no-tricks bonus in a moon hand"),
    ]
    for direction in rules.pass_cycle:
        checks.append((direction not in PASS_DIRECTIONS, f"OpenSpiel cannot pass {direction}"))
    problems = [message for wrong, message in checks if wrong]
    if problems:
        raise Unsupported("; ".join(problems))
    return {param: getattr(rules, option) == on for param, (option, on, _, _) in _PARAMS.items()}


def ruleset_for(params: dict[str, bool], base: Ruleset) -> Ruleset:
    """Make the variant of ``base`` (``standard``) that judges like OpenSpiel with ``params``."""
    options = {option: on if params.get(param, default) else off
               for param, (option, on, off, default) in _PARAMS.items()}
    return with_options(base, **options, no_tricks_bonus_in_moon_hand=False,
                        first_trick_follow_points=True, name="openspiel")


@dataclass(slots=True)
class Tampering:
    """A Tampering records the one illegal play put into a hand, and the kind the referee should
    report."""

    trick: int
    seat: int
    card: Card
    kind: str


@dataclass(slots=True)
class OpenSpielHand:
    """An OpenSpielHand holds one OpenSpiel game (a hand), in referee cards and seats."""

    direction: str
    deal: tuple[tuple[Card, ...], ...]
    passes: tuple[tuple[Card, ...], ...] | None
    tricks: list[list[tuple[int, Card]]] = field(default_factory=list)  # (seat, card)
    points: tuple[int, ...] = ()
    tampering: Tampering | None = None


def _choose(legal: list[int], trick, seat: int, shooter: int | None, rng: Rng) -> int:
    """Choose a legal action: at random, or (a hand with a ``shooter``) the shooter plays its
    highest card and the others their lowest, shedding points when they cannot follow."""
    if shooter is None or len(legal) == 1:
        return legal[rng.below(len(legal))]
    cards = {action: card_from_action(action) for action in legal}

    def rank(action: int) -> tuple[int, bool]:
        return cards[action] % NUM_RANKS, cards[action] // NUM_RANKS == HEARTS

    if seat == shooter:
        return max(legal, key=rank)
    if trick and all(cards[a] // NUM_RANKS != trick[0][1] // NUM_RANKS for a in legal):
        return max(legal, key=lambda a: (card_points(cards[a]), rank(a)))
    return min(legal, key=rank)


def play_hand(game, direction: str, rng: Rng, *, tamper_after: int | None = None,
              want_kind: str | None = None, policy: str = "random") -> OpenSpielHand:
    """Play one OpenSpiel game with legal moves chosen by ``rng``.

    With ``policy="mixed"``, in one hand of three a seat plays for the moon (see
    :func:`_choose`).  With ``tamper_after`` = k, the first play from the k-th on where the
    player holds a card OpenSpiel refuses (of ``want_kind``, if given) gives way to such a card;
    the game then goes on legally.
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}")
    shooter = rng.below(4) if policy == "mixed" and rng.below(3) == 0 else None
    state = game.new_initial_state()
    state.apply_action_with_legality_check(PASS_DIRECTIONS[direction])
    dealt: list[list[Card]] = [[] for _ in NAMES]
    while state.is_chance_node():  # OpenSpiel deals one card at a time round the table
        outcomes = [action for action, _ in state.chance_outcomes()]
        action = outcomes[rng.below(len(outcomes))]
        dealt[sum(map(len, dealt)) % 4].append(card_from_action(action))
        state.apply_action_with_legality_check(action)
    hand = OpenSpielHand(direction, tuple(tuple(sorted(d)) for d in dealt), None)
    passes: list[list[Card]] = [[] for _ in NAMES]
    while direction != PassDirection.HOLD and any(len(p) < 3 for p in passes):
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        passes[state.current_player()].append(card_from_action(action))
        state.apply_action_with_legality_check(action)
    plays = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if plays % 4 == 0:
            hand.tricks.append([])
        action = _choose(legal, hand.tricks[-1], seat, shooter, rng)
        tampered = (tamper_after is not None and hand.tampering is None
                    and plays >= tamper_after
                    and _tamper(state, seat, legal, hand, want_kind, rng))
        if not tampered:
            hand.tricks[-1].append((seat, card_from_action(action)))
            state.apply_action_with_legality_check(action)
        plays += 1
    if direction != PassDirection.HOLD:
        hand.passes = tuple(tuple(sorted(p)) for p in passes)
    hand.points = tuple(int(state.points(p)) for p in range(4))
    return hand


def _tamper(state, seat: int, legal: list[int], hand: OpenSpielHand, want_kind: str | None,
            rng: Rng) -> bool:
    """Play a card OpenSpiel refuses (of ``want_kind``, if given), if ``seat`` holds one (in
    OpenSpiel's own record of the state), and note it in ``hand``; False if there is none."""
    held = sorted(parse_card(text) for text in state.to_struct().hands[seat])
    trick = hand.tricks[-1]  # the kind as OpenSpiel's own classification gives it:
    if not trick:  # not the 2C first, or a heart before hearts are broken
        kind = codes.ILLEGAL_LEAD
    elif any(c // NUM_RANKS == trick[0][1] // NUM_RANKS for c in held):
        kind = codes.REVOKE
    else:  # points on the first trick while holding something else
        kind = codes.ILLEGAL_PLAY
    refused = [action_from_card(c) for c in held if action_from_card(c) not in legal]
    if not refused or want_kind not in (None, kind):
        return False
    card = card_from_action(refused[rng.below(len(refused))])
    hand.tampering = Tampering(len(hand.tricks), seat, card, kind)
    state.apply_action(action_from_card(card))  # no legality check: OpenSpiel plays it as given
    hand.tricks[-1].append((seat, card))
    return True


def _winners(hand: OpenSpielHand) -> list[int]:
    """Find each trick's winner: the next trick's leader (OpenSpiel's choice); for the last
    trick, the player of the highest card of the led suit."""
    out = [hand.tricks[i + 1][0][0] for i in range(len(hand.tricks) - 1)]
    last = hand.tricks[-1]
    led = last[0][1] // NUM_RANKS
    out.append(max((card, seat) for seat, card in last if card // NUM_RANKS == led)[1])
    return out


def _taken(hand: OpenSpielHand) -> tuple[list[int], list[int]]:
    """Count each seat's points collected and tricks won."""
    collected, won = [0, 0, 0, 0], [0, 0, 0, 0]
    for trick, winner in zip(hand.tricks, _winners(hand)):
        collected[winner] += sum(card_points(c) for _, c in trick)
        won[winner] += 1
    return collected, won


def trickless_in_moon(hand: OpenSpielHand) -> list[int]:
    """Find the seats that won no trick in a hand where one seat collected every point: there
    ``avoid_all_tricks_bonus`` needs ``no_tricks_bonus_in_moon_hand = false``."""
    collected, won = _taken(hand)
    if max(collected) != sum(collected):
        return []
    return [seat for seat in range(4) if won[seat] == 0]


def game_log(hands: list[OpenSpielHand], *, ruleset: str = "standard", target: int | None = None,
             event: str = "OpenSpiel hearts", game_over: bool = True) -> str:
    """Write a log of these hands (hand k is the k-th); with ``game_over``, add the winner line
    when a total has reached ``target``."""
    events: list[Event] = [Tag("Event", event), Tag("Ruleset", ruleset),
                           Tag("Players", " ".join(NAMES))]
    if target is not None:
        events.append(Tag("Target", str(target)))
    totals = [0, 0, 0, 0]
    for number, hand in enumerate(hands, start=1):
        events.append(HandStart(number, NAMES[(FIRST_DEALER + number - 1) % 4], hand.direction))
        events.extend(Deal(NAMES[s], CardRun(cards)) for s, cards in enumerate(hand.deal))
        events.extend(Pass(NAMES[s], CardRun(cards)) for s, cards in enumerate(hand.passes or ()))
        events.extend(Trick(index, tuple(Play(NAMES[s], c) for s, c in trick), Claim(NAMES[won]))
                      for index, (trick, won) in enumerate(zip(hand.tricks, _winners(hand)), 1))
        collected, _ = _taken(hand)
        if max(collected) == sum(collected):
            events.append(Moon(NAMES[collected.index(max(collected))], MoonChoice.ADD))
        totals = [t + p for t, p in zip(totals, hand.points)]
        events.append(Score(tuple(map(Entry, NAMES, hand.points))))
        events.append(Total(tuple(map(Entry, NAMES, totals))))
    if game_over and target is not None and max(totals) >= target:
        low = min(totals)
        events.append(GameOver(tuple(NAMES[s] for s in range(4) if totals[s] == low)))
    return write(events)


def play_game(seed: int, rules: Ruleset, *, params: dict[str, bool] | None = None,
              max_hands: int = 40, tamper_hand: int | None = None, tamper_after: int = 0,
              want_kind: str | None = None, policy: str = "random") -> list[OpenSpielHand]:
    """Play OpenSpiel hands until a total reaches ``rules.target`` (or ``max_hands``); the first
    hand from ``tamper_hand`` on with a place for it gets one illegal play."""
    import pyspiel

    game = pyspiel.load_game("hearts", params if params is not None else openspiel_params(rules))
    rng = Rng(f"openspiel:{seed}")
    hands: list[OpenSpielHand] = []
    totals = [0, 0, 0, 0]
    while len(hands) < max_hands and max(totals) < rules.target:
        number = len(hands) + 1
        tampers = tamper_hand is not None and number >= tamper_hand and not any(
            h.tampering for h in hands)
        hand = play_hand(game, rules.pass_direction(number), rng, want_kind=want_kind,
                         tamper_after=tamper_after if tampers else None, policy=policy)
        hands.append(hand)
        totals = [t + p for t, p in zip(totals, hand.points)]
    return hands


def variant_params(seed: int) -> dict[str, bool]:
    """Draw every OpenSpiel parameter at random (reproducibly from ``seed``)."""
    rng = Rng(f"params:{seed}")
    return {name: bool(rng.below(2)) for name in VARIANT_PARAMS}


def variant_ruleset(params: dict[str, bool], base: Ruleset, folder) -> tuple[Ruleset, str]:
    """Make the ruleset matching ``params`` and return it with the path of its TOML file,
    written in ``folder``."""
    rules = ruleset_for(params, base)
    name = "".join("1" if params[p] else "0" for p in VARIANT_PARAMS)
    path = Path(folder) / f"variant-{name}.toml"
    path.write_text(ruleset_toml(rules), encoding="utf-8")
    return rules, str(path)


def variant_game(seed: int, base: Ruleset, folder, *, policy: str = "mixed"):
    """Play a game under random OpenSpiel parameters and return (params, hands, log text), the
    log to be checked under the matching ruleset (written as TOML in ``folder``)."""
    params = variant_params(seed)
    rules, path = variant_ruleset(params, base, folder)
    hands = play_game(seed, rules, params=params, policy=policy)
    return params, hands, game_log(hands, ruleset=path, target=rules.target)

