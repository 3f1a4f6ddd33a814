"""Games with exactly one violation of a chosen kind, and the verdict expected for them.

Violations of play (revoke, illegal lead, card not held, wrong leader) are made while the game
is generated: one play is replaced and the rest of the game goes on legally from the state it
left, so claims, scores and totals stay consistent.  A lead out of turn is made only where no
rotation explains it: read from the seat due to lead, the trick it makes has another winner, or
it is written from a column a scorer does not start from, so the referee cannot take it for a
trick written out of order (R10.8, :mod:`referee.judge.rotation`).  The others are edits of a
clean game's events (or, for ``syntax``, of its text) that touch nothing else.
"""

from __future__ import annotations

from referee.judge import codes
from referee.judge.gaps import from_a_pad_column
from referee.conformance.edits import EDITS, syntax_fault, trick_index
from referee.conformance.gamestats import GameStats
from referee.conformance.rng import Rng
from referee.conformance.generate import generate_game, seat_names
from referee.conformance.verdicts import CannotInject, Expected
from referee.rules.cards import CARDS, DECK_SIZE, NUM_RANKS
from referee.rules.state import State
from referee.rules.engine import play_fault
from referee.rules.legality import Fault
from referee.rules.ruleset import Ruleset
from referee.rules.tricks import lead_card, resolve_under
from referee.rules.options import FirstLeader

PLAY_KINDS = (codes.REVOKE, codes.ILLEGAL_LEAD, codes.CARD_NOT_HELD, codes.WRONG_LEADER, codes.ILLEGAL_PLAY)
EDIT_KINDS = (
    codes.SYNTAX, codes.BAD_SETUP, codes.BAD_DEAL, codes.BAD_PASS, codes.WRONG_DEALER, codes.OUT_OF_TURN,
    codes.MISCOUNTED_CANCELLATION, codes.WRONG_WINNER, codes.SCORE_MISMATCH, codes.BAD_MOON, codes.TOTAL_MISMATCH,
    codes.GAME_END,
)
INJECTABLE = PLAY_KINDS + EDIT_KINDS


def hands_for(kind: str | None, hands: int | None) -> int | None:
    """``hands`` (None: a whole game), or 2 for a wrong dealer (hand 1's is free, R2.5)."""
    return hands if hands is None or kind != codes.WRONG_DEALER else max(hands, 2)


class _Tamper:
    """Replaces the first suitable play (from a random starting point) with an illegal one."""

    def __init__(self, kind: str, rng: Rng, names, skip: int | None = None,
                 avoid: frozenset[int] = frozenset()):
        self.kind, self.rng, self.names = kind, rng, names
        # how many chances to let pass, so the place varies (illegal leads have few chances)
        self.skip = skip if skip is not None else rng.below(
            {codes.ILLEGAL_LEAD: 2, codes.ILLEGAL_PLAY: 1}.get(kind, 12))
        self.seen, self.where = 0, None  # the chances met; (hand, trick, player) once placed
        self.avoid = avoid  # the chances not to take (counted in ``seen``, not in ``open``)
        self.open = 0  # the chances met that may be taken
        self.due: tuple[int, int] | None = None  # a wrong lead's (seat due to lead, dealer)

    def _chance(self) -> bool:
        if self.where is not None:
            return False
        self.seen += 1
        if self.seen - 1 in self.avoid:
            return False
        self.open += 1
        self.skip -= 1
        return self.skip < 0

    def lead(self, state: State) -> State:
        if self.kind != codes.WRONG_LEADER or state.trick_number < 2 or not self._chance():
            return state
        other = (state.leader + 1 + self.rng.below(state.players - 1)) % state.players
        self.where = (state.hand_number, state.trick_number, self.names[other])
        self.due = (state.leader, state.dealer)
        return state._replace(leader=other)

    def play(self, state: State, legal):
        if self.where is not None or self.kind not in _TAMPER_FAULTS:
            return None
        choice = violating_cards(self.kind, state)
        if not choice or not self._chance():
            return None
        self.where = (state.hand_number, state.trick_number, self.names[state.to_play])
        return choice[self.rng.below(len(choice))]

    def again(self) -> _Tamper:
        """The tamper to run the game again with: past the end of the chances, from the first
        one again; after a wrong lead a rotation explains, from the next chance, that one
        avoided (the game is the same up to the tampered play in each run)."""
        if self.where is None:
            return _Tamper(self.kind, self.rng, self.names, self.skip % self.open, self.avoid)
        return _Tamper(self.kind, self.rng, self.names, self.open - 1,
                       self.avoid | {self.seen - 1})


def rotation_explains(rules: Ruleset, trick, names, due: int, dealer: int) -> bool:
    """Whether trick ``trick`` (an event), led out of turn, could be read as a trick written
    in seating order from another column (R10.8): read from ``due``, the seat due to lead, it
    has the same winner, and it is written from a column a scorer starts from."""
    seats = [names.index(play.player) for play in trick.plays]
    cards = [play.card for play in trick.plays]
    if due not in seats or not from_a_pad_column(seats[0], len(names), dealer):
        return False
    start = seats.index(due)
    written = resolve_under(rules, cards).winner
    read = resolve_under(rules, cards[start:] + cards[:start]).winner
    return (None if written is None else seats[written]) == \
        (None if read is None else seats[(read + start) % len(seats)])


# The faults each play kind is injected as (each reported as that kind, see FAULT_CODES).
# Left out so that exactly one violation results and the games stay as they were made: R4.1's
# lowest-club leads and twin club (the first trick under two_of_clubs), and R5.3 when
# following suit.
_TAMPER_FAULTS = {
    codes.REVOKE: (Fault.REVOKE,),
    codes.ILLEGAL_LEAD: (Fault.FIRST_LEAD_POINTS, Fault.HEARTS_NOT_BROKEN),
    codes.CARD_NOT_HELD: (Fault.NOT_HELD,),
    codes.ILLEGAL_PLAY: (Fault.FIRST_TRICK_POINTS,),
}


def _may_tamper(kind: str, state: State) -> bool:
    """Whether the tamper uses a fault of ``kind`` at this moment at all."""
    trick = state.trick_cards
    if kind == codes.ILLEGAL_LEAD:
        return not trick and not (state.trick_number == 1
                                  and state.rules.first_leader == FirstLeader.TWO_OF_CLUBS)
    if kind == codes.ILLEGAL_PLAY and trick:  # from a void in the led suit only
        led = lead_card(trick, state.rules.lead_suit_switch) // NUM_RANKS
        return not any(state.holdings[state.to_play][led * NUM_RANKS:(led + 1) * NUM_RANKS])
    return bool(trick)


def _gone(state: State, card: int) -> bool:
    """A card not held is played only when gone from every hand, the trick and the kitty
    (else its holder would be caught playing a copy too many later)."""
    return (not any(h[card] for h in state.holdings) and card not in state.trick_cards
            and card not in state.kitty)


def violating_cards(kind: str, state: State) -> list:
    """The cards whose play now is a violation of ``kind`` the tamper may make, as the
    engine's legality layers judge them (:func:`referee.rules.engine.play_fault`)."""
    faults = _TAMPER_FAULTS.get(kind, ())
    if not faults or not _may_tamper(kind, state):
        return []
    seat = state.to_play
    if kind == codes.CARD_NOT_HELD:
        return [CARDS[c] for c in range(DECK_SIZE)
                if _gone(state, c) and play_fault(state, seat, c) is Fault.NOT_HELD]
    held = [c for c, k in enumerate(state.holdings[seat]) if k]
    return [CARDS[c] for c in held if play_fault(state, seat, c) in faults]


def can_occur(kind: str, rules: Ruleset) -> bool:
    """Whether a game under ``rules`` can contain a violation of ``kind`` at all."""
    if kind == codes.ILLEGAL_PLAY:  # only the first-trick restrictions make a follow illegal
        return not rules.first_trick_points or (
            rules.first_leader == FirstLeader.TWO_OF_CLUBS and rules.second_two_of_clubs_follows
            and rules.decks > 1)
    if kind == codes.MISCOUNTED_CANCELLATION:
        return rules.cancellation and rules.decks > 1
    if kind == codes.WRONG_DEALER:  # R4.1: a ruleset without a dealer has no rotation
        return rules.first_leader != FirstLeader.AFTER_LAST_WINNER
    return kind in INJECTABLE


def violating_game(rules: Ruleset, players: int, *, seed: int, kind: str,
                   hands: int | None = None, strategy: str = "random",
                   event_name: str | None = None, stats=None) -> tuple[str, Expected]:
    """A log text with exactly one violation of ``kind`` and the verdict expected for it.

    Raises :class:`CannotInject` when this game offers no place for it (try another seed).
    ``stats`` (a :class:`~referee.conformance.generate.GameStats`) counts the situations of the game.
    """
    from referee.log.parser import parse_log
    from referee.log.writer import write

    if kind not in INJECTABLE:
        raise ValueError(f"cannot inject {kind!r}; choose from {', '.join(INJECTABLE)}")
    rng = Rng(f"{seed}:{kind}")
    if kind in PLAY_KINDS:
        tamper = _Tamper(kind, rng, seat_names(players))
        while True:  # again if the skip outran the chances, or a rotation explains the lead
            made = GameStats()
            events = generate_game(rules, players, seed=seed, hands=hands, strategy=strategy,
                                   tamper=tamper, event_name=event_name, stats=made)
            if tamper.where is None and not tamper.open:
                break
            if tamper.where is not None and (tamper.due is None or not rotation_explains(
                    rules, events[trick_index(events, *tamper.where[:2])], tamper.names,
                    *tamper.due)):
                break
            tamper = tamper.again()
        if tamper.where is None:
            raise CannotInject(f"no place for {kind} in this game")
        if stats is not None:
            stats.add(made)
        hand, trick, player = tamper.where
        index = trick_index(events, hand, trick)
        target = (index, hand, trick, player)
    else:
        events = generate_game(rules, players, seed=seed, hands=hands, strategy=strategy,
                               event_name=event_name, stats=stats)
        if kind == codes.SYNTAX:
            return syntax_fault(write(events), rng)
        events, target = EDITS[kind](events, rules, players, rng)
    text = write(events)
    index, hand, trick, player = target
    line = parse_log(text).events[index].span.line
    return text, Expected(kind, line, hand, trick, player)
