"""This module states the game as an explicit state machine: deal -> pass -> play -> scoring ->
(deal | over).

``legal_actions(state)`` lists what may happen next and ``apply(state, action)`` returns the
next (immutable) state.  ``play(state, seat, card, check=False)`` applies a play without the
legality checks, so that the referee can go on as if the card had been played as written.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence

from referee.rules import scoring
from referee.rules.cards import (CARDS, DECK_SIZE, HEARTS, NUM_RANKS, QUEEN_OF_SPADES,
                                 TWO_OF_CLUBS, Card, Counts, add_card, counts_of, remove_card)
from referee.rules.legality import Fault, card_fault, legal_cards, lowest_club
from referee.rules.ops import PLAIN
from referee.rules.options import DealerMoves, FirstLeader, GameLength, KittyTo, SetAsideLast
from referee.rules.ruleset import Ruleset, bonus_points, card_points, direction_offset
from referee.rules.state import (  # re-exported: the engine's public values
    DealAction, HandResult, IllegalAction, PassAction, Phase, State, TrickRecord)
from referee.rules.tricks import resolve_under

__all__ = ["SCORE", "DealAction", "HandResult", "IllegalAction", "PassAction", "Phase", "State",
           "TrickRecord", "moon_pair", "shooter"]

SCORE = "score"
CARD_POINTS = tuple(card_points(card) for card in CARDS)  # R7.1, looked up on the hot path
HEART_CARDS = frozenset(range(HEARTS * NUM_RANKS, (HEARTS + 1) * NUM_RANKS))


def new_game(rules: Ruleset, players: int, *, dealer: int = 0) -> State:
    if not rules.allows_players(players):
        raise IllegalAction(f"{rules.name} is for {rules.min_players}-{rules.max_players} "
                            f"players, not {players}", clause="R1.1")
    zeros = (0,) * players
    if rules.first_leader == FirstLeader.AFTER_LAST_WINNER:
        dealer = players - 1  # R4.1: nobody deals; the first seat leads hand 1
    return State(
        rules=rules, players=players, phase=Phase.DEAL, hand_number=1, dealer=dealer % players,
        totals=(rules.start_total,) * players, history=(), holdings=(), kitty=(),
        passes=(None,) * players, leader=0, trick=(), trick_number=1, hearts_broken=False,
        pile=(), taken=zeros, tricks_won=zeros, bonus=zeros, lost=0, last_trick=None,
        lowest_club=None)


# -- deal -----------------------------------------------------------------------------------
def deal_from_order(state: State, order: Sequence[int]) -> DealAction:
    """Deal a shuffled deck (any permutation of the decks' cards) round the table."""
    per = state.tricks_per_hand
    n = state.players
    hands = tuple(tuple(sorted(CARDS[c] for c in order[seat:n * per:n])) for seat in range(n))
    return DealAction(hands, tuple(sorted(CARDS[c] for c in order[n * per:])))


def full_deck(rules: Ruleset) -> list[Card]:
    return [card for card in CARDS for _ in range(rules.decks)]


def deal_problems(state: State, action: DealAction) -> list[str]:
    per, n = state.tricks_per_hand, state.players
    problems = []
    if len(action.hands) != n:
        problems.append(f"{len(action.hands)} hands dealt to {n} players")
    for seat, hand in enumerate(action.hands):
        if len(hand) != per:
            problems.append(f"seat {seat} was dealt {len(hand)} cards, not {per}")
    if len(action.kitty) != state.rules.kitty_size(n):
        problems.append(f"the kitty has {len(action.kitty)} cards, not {state.rules.kitty_size(n)}")
    counts = counts_of(itertools.chain(action.kitty, *action.hands))
    if counts.count(state.rules.decks) != len(counts):
        problems.append("the deal does not hold every card exactly as often as the decks do")
    if state.rules.two_of_clubs_apart and any(hand.count(TWO_OF_CLUBS) > 1
                                              for hand in action.hands):
        problems.append("one player was dealt both 2C")
    return problems


# -- pass -----------------------------------------------------------------------------------
def pass_recipient(state: State, seat: int) -> int:
    return (seat + direction_offset(state.pass_direction, state.players)) % state.players


def pass_problem(state: State, action: PassAction) -> str | None:
    if state.phase is not Phase.PASS:
        return "no pass is due now"
    if not (isinstance(action.seat, int) and 0 <= action.seat < state.players):
        return f"there is no seat {action.seat!r}"
    if state.passes[action.seat] is not None:
        return "this player has already passed"
    if action.seat != state.passes.index(None):
        # the legal list offers the lowest seat that has not passed; accept exactly that
        return f"seat {state.passes.index(None)} passes first"
    return passed_cards_problem(state.rules, state.holdings[action.seat], action.cards)


def passed_cards_problem(rules: Ruleset, holding: Counts, cards: Sequence[int]) -> str | None:
    """Say what R3.1 forbids in the ``cards`` a seat holding ``holding`` passes, if anything."""
    if len(cards) != rules.pass_count:
        return f"{len(cards)} cards passed, not {rules.pass_count}"
    # plain loops: any() over generator expressions cost 2% of a clean check (a pass per seat)
    for card in cards:
        if not (isinstance(card, int) and 0 <= card < DECK_SIZE):
            return "a passed card is not a card"
    for card in cards:
        if holding[card] < cards.count(card):
            return "a passed card is not in the hand as dealt"
    if not all(map(rules.may_pass, cards)):
        return "a passed card may not be passed"
    return None


def _apply_pass(state: State, action: PassAction) -> State:
    passes = list(state.passes)
    passes[action.seat] = tuple(action.cards)
    state = state._replace(passes=tuple(passes))
    if any(p is None for p in passes):
        return state
    holdings = list(state.holdings)
    for seat, cards in enumerate(passes):
        target = pass_recipient(state, seat)
        for card in cards:
            holdings[seat] = remove_card(holdings[seat], card)
            holdings[target] = add_card(holdings[target], card)
    return begin_play(state, holdings, state.kitty)


def begin_play(state: State, holdings: Sequence[Counts], kitty: Sequence[Card]) -> State:
    """Start the play of a hand from holdings after passing (the referee's entry point)."""
    holdings, kitty = tuple(holdings), tuple(kitty)
    rules, n = state.rules, state.players
    leader = (state.dealer + 1) % n
    lowest = None
    if rules.first_leader == FirstLeader.TWO_OF_CLUBS:
        lowest = lowest_club(holdings)
        if lowest is not None:
            leader = next(s for s in ((state.dealer + 1 + i) % n for i in range(n))
                          if holdings[s][lowest])
    pile = kitty if rules.kitty_to == KittyTo.FIRST_TRICK else ()
    zeros = (0,) * n
    return state._replace(
        holdings=holdings, kitty=kitty, phase=Phase.PLAY, leader=leader, trick=(),
        trick_number=1, hearts_broken=False, pile=pile, taken=zeros, tricks_won=zeros,
        bonus=zeros, lost=0, last_trick=None, lowest_club=lowest, kitty_taken=None)


# -- play -----------------------------------------------------------------------------------
def play_fault(state: State, seat: int, card: int) -> Fault | None:
    """Find the first rule this play breaks, layer by layer (phase, turn, held, lead/follow)."""
    if state.phase is not Phase.PLAY:
        return Fault.WRONG_PHASE
    if seat != state.to_play:
        return Fault.OUT_OF_TURN
    return card_fault(state.rules, state.holdings[seat], card, state.trick_cards,
                      first_trick=state.trick_number == 1, hearts_broken=state.hearts_broken,
                      lowest=state.lowest_club)


def legal_plays(state: State) -> tuple[Card, ...]:
    if state.phase is not Phase.PLAY:
        return ()
    return legal_cards(state.rules, state.holdings[state.to_play], state.trick_cards,
                       first_trick=state.trick_number == 1, hearts_broken=state.hearts_broken,
                       lowest=state.lowest_club)


def play(state: State, seat: int, card: int, *, check: bool = True) -> State:
    """Play ``card`` from ``seat``; with ``check=False`` the play stands whatever the rules say."""
    if check:
        fault = play_fault(state, seat, card)
        if fault is not None:
            raise IllegalAction(f"illegal play: {fault.text}", fault)
    return play_cards(state, ((seat, card),))


def play_cards(state: State, plays: Sequence[tuple[int, int]]) -> State:
    """Play several (seat, card) in order without checks, with one state copy: as
    ``play(state, seat, card, check=False)`` for each, until the trick is whole."""
    holdings = list(state.holdings)
    trick = list(state.trick)
    room = state.players - len(trick)
    for seat, card in plays[:room]:
        if holdings[seat][card]:  # remove_card, inline: a call per card costs 1% of a check
            held = list(holdings[seat])
            held[card] -= 1
            holdings[seat] = tuple(held)
        trick.append((seat, CARDS[card]))
    if len(trick) < state.players:
        return state._replace(holdings=tuple(holdings), trick=tuple(trick))
    return _finish_trick(state, tuple(holdings), tuple(trick))


def close_trick(state: State) -> State:
    """End the current trick with the cards played so far (a record that skipped a player)."""
    return _finish_trick(state, state.holdings, state.trick) if state.trick else state


def _finish_trick(state: State, holdings: tuple[Counts, ...],
                  trick: tuple[tuple[int, Card], ...]) -> State:
    """Return the state once ``trick`` (played from ``state`` into ``holdings``) is complete."""
    hand = HandPlay(state)
    hand.finish(trick)
    return hand.state(holdings)


class HandPlay:
    """Hold the play of a hand as mutable values, finished trick by trick (R4.5-R6.6) with no
    State between tricks; :meth:`state` gives the State that playing the same tricks one by one
    gives."""

    __slots__ = ("start", "rules", "per_hand", "pile", "taken", "tricks_won", "bonus", "lost",
                 "broken", "leader", "number", "over", "kitty_taken", "last_trick")

    def __init__(self, state: State) -> None:
        self.start, self.rules, self.per_hand = state, state.rules, state.tricks_per_hand
        self.pile, self.lost, self.broken = state.pile, state.lost, state.hearts_broken
        self.taken, self.tricks_won = list(state.taken), list(state.tricks_won)
        self.bonus, self.kitty_taken = list(state.bonus), state.kitty_taken
        self.leader, self.number, self.over = state.leader, state.trick_number, False
        self.last_trick = state.last_trick

    def finish(self, trick: tuple[tuple[int, Card], ...],
               cards: tuple[Card, ...] | None = None) -> TrickRecord:
        """Close ``trick``, the (seat, card) plays of the trick in play, whole or not
        (``cards``: its cards, when the caller has them)."""
        rules, number, kitty = self.rules, self.number, self.start.kitty
        if cards is None:
            cards = tuple([card for _, card in trick])
        outcome = resolve_under(rules, cards)
        last = number >= self.per_hand
        pile = self.pile + cards
        if last and rules.kitty_to == KittyTo.LAST_TRICK:
            pile += kitty
        self.broken = self.broken or not HEART_CARDS.isdisjoint(
            cards if rules.led_heart_breaks_hearts else cards[1:]
        ) or (rules.queen_breaks_hearts and QUEEN_OF_SPADES in cards)
        winner = trick[outcome.winner][0] if outcome.winner is not None else None
        if winner is None and last and rules.set_aside_last == SetAsideLast.LEADER:
            winner = self.leader
        points = sum(map(CARD_POINTS.__getitem__, pile))
        if winner is not None:
            self.taken[winner] += points
            self.tricks_won[winner] += 1
            if rules.jack_of_diamonds_bonus:
                self.bonus[winner] += sum(bonus_points(rules, c) for c in pile)
            if kitty and self.kitty_taken is None and (
                    last or rules.kitty_to == KittyTo.FIRST_TRICK):
                self.kitty_taken = (winner, number)
            collected, pile = pile, ()
        elif last:
            self.lost += points
            collected, pile = (), ()
        else:
            collected, points = (), 0
        record = TrickRecord(number, self.leader, trick, outcome, winner, collected, points)
        self.pile, self.last_trick = pile, record
        if winner is not None:
            self.leader = winner
        if last:
            self.over = True
        else:
            self.number = number + 1
        return record

    def state(self, holdings: tuple[Counts, ...]) -> State:
        """Return the State after the tricks finished so far, with ``holdings``."""
        start = self.start
        return start._replace(
            holdings=holdings, trick=(), pile=self.pile, taken=tuple(self.taken),
            tricks_won=tuple(self.tricks_won), bonus=tuple(self.bonus), lost=self.lost,
            hearts_broken=self.broken, leader=self.leader, last_trick=self.last_trick,
            kitty_taken=self.kitty_taken, phase=Phase.SCORING if self.over else start.phase,
            trick_number=self.number)


# -- scoring: the rule stated once over ops (rules/scoring.py), read on plain values --------
def shooter(state: State) -> int | None:
    """Return the seat that took every point of the decks, if any (R8.1, R8.4)."""
    shot = scoring.shooters(PLAIN, state.rules, state.taken, state.lost)
    return shot.index(True) if True in shot else None


def moon_pair(state: State) -> tuple[int, int] | None:
    """Return the two seats that took every point between them, nobody else scoring (R8.6)."""
    pair, scored = scoring.moon_pair(PLAIN, state.rules, state.taken, state.lost)
    return tuple(seat for seat, hit in enumerate(scored) if hit) if pair else None


def hand_scores(state: State, choice: str | None) -> tuple[int, ...]:
    """Score the hand for the scoresheet (R7.3, R8.2), bonuses included."""
    return tuple(_scored(state, choice)[0])


def _scored(state: State, choice: str | None) -> tuple[list[int], list[bool]]:
    """Return (the hand's scores, per seat: this seat shot the moon)."""
    no_tricks = [won == 0 for won in state.tricks_won]
    return scoring.hand_scores(PLAIN, state.rules, state.taken, state.lost, state.bonus,
                               no_tricks, choice, state.pool)


def scoring_actions(state: State) -> tuple[str, ...]:
    return _scoring_actions(state, shooter(state))


def _scoring_actions(state: State, moon: int | None) -> tuple[str, ...]:
    return state.rules.moon_choices if moon is not None else (SCORE,)


def _record_hand(state: State, action: str) -> State:
    """Write the hand's result and the new totals (``action`` counts in a moon hand only); the
    phase stays SCORING."""
    scores, shot = _scored(state, action)
    moon = shot.index(True) if True in shot else None
    choice = action if moon is not None else None
    scores = tuple(scores)
    totals = tuple(map(operator.add, state.totals, scores))
    result = HandResult(state.hand_number, state.dealer, state.taken, state.lost, moon, choice,
                        scores, totals)
    pool = 0
    if state.rules.clean_hand_pool:
        pool = scoring.pool_shares(PLAIN, state.rules, state.taken, state.pool)[1]
    return state._replace(totals=totals, history=state.history + (result,), pool=pool)


def conclude_hand(state: State) -> State:
    """End the game after a hand at the target (R9.1), or after hand n by ``game_length``, or
    move to the next deal."""
    if state.rules.game_length == GameLength.ONE_HAND_PER_PLAYER:
        over = state.hand_number >= state.players
    else:
        over = max(state.totals) >= state.rules.target
    if over:
        return state._replace(phase=Phase.OVER)
    return next_hand(state)


def next_hand(state: State) -> State:
    """Move to the next hand's deal (R2.3); the referee also uses it to go on after the end."""
    step = 1 if state.rules.dealer_moves == DealerMoves.LEFT else -1
    dealer = (state.dealer + step) % state.players
    if state.rules.first_leader == FirstLeader.AFTER_LAST_WINNER:
        # R4.1: the next hand is led from the left of the last trick's winner (or leader)
        record = state.last_trick
        dealer = state.dealer if record is None else (
            record.winner if record.winner is not None else record.leader)
    return state._replace(phase=Phase.DEAL, hand_number=state.hand_number + 1, dealer=dealer,
                          holdings=(), kitty=(), passes=(None,) * state.players, trick=(),
                          trick_number=1, last_trick=None)


# -- the two entry points -------------------------------------------------------------------
def legal_actions(state: State) -> tuple:
    """List everything that may happen next; the DEAL phase is a chance node and lists nothing."""
    if state.phase is Phase.PLAY:
        return legal_plays(state)
    if state.phase is Phase.PASS:
        seat = state.passes.index(None)
        held = [CARDS[c] for c, n in enumerate(state.holdings[seat]) for _ in range(n)
                if state.rules.may_pass(c)]
        combos = dict.fromkeys(itertools.combinations(held, state.rules.pass_count))
        return tuple(PassAction(seat, combo) for combo in combos)
    if state.phase is Phase.SCORING:
        return scoring_actions(state)
    return ()


def apply(state: State, action) -> State:
    """Apply one action, raising :class:`IllegalAction` when the rules forbid it."""
    if state.phase is Phase.DEAL:
        if not isinstance(action, DealAction):
            raise IllegalAction("the cards must be dealt first", clause="R2.1")
        problems = deal_problems(state, action)
        if problems:
            raise IllegalAction("; ".join(problems), clause="R2.4")
        holdings = tuple(counts_of(hand) for hand in action.hands)
        if direction_offset(state.pass_direction, state.players) == 0:
            return begin_play(state, holdings, action.kitty)
        return state._replace(holdings=holdings, kitty=tuple(action.kitty), phase=Phase.PASS,
                              passes=(None,) * state.players)
    if state.phase is Phase.PASS:
        if not isinstance(action, PassAction):
            raise IllegalAction("every player must pass first", clause="R3.1")
        problem = pass_problem(state, action)
        if problem:
            raise IllegalAction(problem, clause="R3.1")
        return _apply_pass(state, action)
    if state.phase is Phase.PLAY:
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalAction("a card must be played now", Fault.WRONG_PHASE)
        return play(state, state.to_play, action)
    if state.phase is Phase.SCORING:
        moon = shooter(state)
        if action not in _scoring_actions(state, moon):
            raise IllegalAction(f"{action!r} is not a scoring choice now", clause="R8.2")
        return conclude_hand(_record_hand(state, action))
    raise IllegalAction("the game is over", clause="R9.4")


def record_hand_unchecked(state: State, choice: str) -> State:
    """Score a played hand with ``choice`` (or the first allowed one), not concluding it: the
    referee settles the totals it stands by first (then :func:`conclude_hand`)."""
    state_after = _record_hand(state, choice)  # the shooter found once, by the scoring
    if state_after.history[-1].shooter is None or choice in state.rules.moon_choices:
        return state_after
    return _record_hand(state, state.rules.moon_choices[0])
