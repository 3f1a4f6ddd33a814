"""This module makes games with exactly one violation of a chosen kind, and the verdict
expected for them.

It makes violations of play while the game is generated: it replaces one play and the game
goes on legally from the state it left.  It makes the others by editing a clean game's events
(or, for ``syntax``, its text) and touching nothing else.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from referee.judge import codes
from referee.judge.gaps import from_a_pad_column
from referee.conformance.gamestats import GameStats
from referee.conformance.rng import Rng
from referee.conformance.generate import generate_game, seat_names
from referee.conformance.verdicts import CannotInject, Expected
from referee.log.events import (Claim, Deal, Entry, GameOver, HandStart, Moon, Pass, Score, Tag,
                                Total, Trick)
from referee.log.parser import parse_log
from referee.log.words import split_players
from referee.log.writer import write
from referee.rules.cards import CARDS, DECK_SIZE, NUM_RANKS
from referee.rules.state import State
from referee.rules.engine import play_fault
from referee.rules.legality import Fault
from referee.rules.ruleset import Ruleset, direction_offset
from referee.rules.tricks import lead_card, resolve_under
from referee.rules.options import FirstLeader

PLAY_KINDS = (codes.REVOKE, codes.ILLEGAL_LEAD, codes.CARD_NOT_HELD, codes.WRONG_LEADER,
              codes.ILLEGAL_PLAY)
EDIT_KINDS = (codes.SYNTAX, codes.BAD_SETUP, codes.BAD_DEAL, codes.BAD_PASS, codes.WRONG_DEALER,
              codes.OUT_OF_TURN, codes.MISCOUNTED_CANCELLATION, codes.WRONG_WINNER,
              codes.SCORE_MISMATCH, codes.BAD_MOON, codes.TOTAL_MISMATCH, codes.GAME_END)
INJECTABLE = PLAY_KINDS + EDIT_KINDS
# Each play kind is injected as one of these faults.  They leave out R4.1's lowest-club leads and
# twin club (the first trick under two_of_clubs), and R5.3 when following suit, so that exactly
# one violation results and the games stay as they were made.
_TAMPER_FAULTS = {
    codes.REVOKE: (Fault.REVOKE,),
    codes.ILLEGAL_LEAD: (Fault.FIRST_LEAD_POINTS, Fault.HEARTS_NOT_BROKEN),
    codes.CARD_NOT_HELD: (Fault.NOT_HELD,),
    codes.ILLEGAL_PLAY: (Fault.FIRST_TRICK_POINTS,),
}


def hands_for(kind: str | None, hands: int | None) -> int | None:
    """Return ``hands`` (None: a whole game), or 2 for a wrong dealer (hand 1's is free, R2.5)."""
    return hands if hands is None or kind != codes.WRONG_DEALER else max(hands, 2)


class _Tamper:
    """A _Tamper replaces the first suitable play, after ``skip`` chances, with an illegal one.

    ``avoid`` holds the chances not to take (counted in ``seen``, not in ``open``); ``where``
    holds (hand, trick, player) once placed; ``due`` holds a wrong lead's (seat due to lead,
    dealer)."""

    def __init__(self, kind: str, rng: Rng, names, skip: int | None = None,
                 avoid: frozenset[int] = frozenset()):
        self.kind, self.rng, self.names, self.avoid = kind, rng, names, avoid
        self.skip = skip if skip is not None else rng.below(
            {codes.ILLEGAL_LEAD: 2, codes.ILLEGAL_PLAY: 1}.get(kind, 12))
        self.seen, self.open, self.where, self.due = 0, 0, None, None

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
        """Make the tamper to run the game again with: past the end of the chances, it starts
        from the first one again; after a wrong lead a rotation explains, from the next chance,
        with that one avoided (the game is the same up to the tampered play in each run)."""
        if self.where is None:
            return _Tamper(self.kind, self.rng, self.names, self.skip % self.open, self.avoid)
        return _Tamper(self.kind, self.rng, self.names, self.open - 1,
                       self.avoid | {self.seen - 1})


def rotation_explains(rules: Ruleset, trick, names, due: int, dealer: int) -> bool:
    """Tell whether trick ``trick`` (an event), led out of turn, could be read as a trick
    written in seating order from another column (R10.8): read from ``due``, the seat due to
    lead, it has the same winner, and it is written from a column a scorer starts from."""
    seats = [names.index(play.player) for play in trick.plays]
    cards = [play.card for play in trick.plays]
    if due not in seats or not from_a_pad_column(seats[0], len(names), dealer):
        return False
    start = seats.index(due)
    written = resolve_under(rules, cards).winner
    read = resolve_under(rules, cards[start:] + cards[:start]).winner
    return (None if written is None else seats[written]) == \
        (None if read is None else seats[(read + start) % len(seats)])


def _may_tamper(kind: str, state: State) -> bool:
    """Tell whether the tamper uses a fault of ``kind`` at this moment at all."""
    trick = state.trick_cards
    if kind == codes.ILLEGAL_LEAD:
        return not trick and not (state.trick_number == 1
                                  and state.rules.first_leader == FirstLeader.TWO_OF_CLUBS)
    if kind == codes.ILLEGAL_PLAY and trick:  # from a void in the led suit only
        led = lead_card(trick, state.rules.lead_suit_switch) // NUM_RANKS
        return not any(state.holdings[state.to_play][led * NUM_RANKS:(led + 1) * NUM_RANKS])
    return bool(trick)


def _gone(state: State, card: int) -> bool:
    """Tell whether a card is gone from every hand, the trick and the kitty: only then is a card
    not held played (else its holder would be caught playing a copy too many later)."""
    return (not any(h[card] for h in state.holdings) and card not in state.trick_cards
            and card not in state.kitty)


def violating_cards(kind: str, state: State) -> list:
    """Find the cards whose play now is a violation of ``kind`` the tamper may make."""
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
    """Tell whether a game under ``rules`` can contain a violation of ``kind`` at all."""
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
                   event_name: str | None = None, stats=None,
                   ruleset_tag: str | None = None) -> tuple[str, Expected]:
    """Make a log text with exactly one violation of ``kind`` and the verdict expected for it
    (``ruleset_tag``: see :func:`~referee.conformance.generate.generate_game`).

    Raises :class:`CannotInject` when this game offers no place for it (try another seed).
    """
    if kind not in INJECTABLE:
        raise ValueError(f"cannot inject {kind!r}; choose from {', '.join(INJECTABLE)}")
    rng = Rng(f"{seed}:{kind}")
    if kind in PLAY_KINDS:
        tamper = _Tamper(kind, rng, seat_names(players))
        while True:  # again if the skip outran the chances, or a rotation explains the lead
            made = GameStats()
            events = generate_game(rules, players, seed=seed, hands=hands, strategy=strategy,
                                   tamper=tamper, event_name=event_name, stats=made,
                                   ruleset_tag=ruleset_tag)
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
        target = (trick_index(events, hand, trick), hand, trick, player)
    else:
        events = generate_game(rules, players, seed=seed, hands=hands, strategy=strategy,
                               event_name=event_name, stats=stats, ruleset_tag=ruleset_tag)
        if kind == codes.SYNTAX:
            return syntax_fault(write(events), rng)
        events, target = EDITS[kind](events, rules, players, rng)
    text = write(events)
    index, hand, trick, player = target
    return text, Expected(kind, parse_log(text).events[index].span.line, hand, trick, player)


def _hands(events, kind=object):
    """Yield (event index, hand number, event) for each event of type ``kind``."""
    hand = 0
    for index, event in enumerate(events):
        if isinstance(event, HandStart):
            hand = event.number
        if isinstance(event, kind):
            yield index, hand, event


def trick_index(events, hand: int, number: int) -> int:
    for index, h, event in _hands(events, Trick):
        if h == hand and event.number == number:
            return index
    raise CannotInject("the tampered trick is not in the log")


def _pick(rng, candidates):
    if not candidates:
        raise CannotInject("this game offers no place for the violation")
    return candidates[rng.below(len(candidates))]


def _replaced(events, index: int, event) -> list:
    """Copy ``events`` with ``event`` in place of the event at ``index``."""
    return [*events[:index], event, *events[index + 1:]]


def _inserted(events, index: int, event) -> list:
    """Copy ``events`` with ``event`` inserted at ``index`` (before the event there)."""
    return [*events[:index], event, *events[index:]]


def syntax_fault(text: str, rng) -> tuple[str, Expected]:
    lines = text.split("\n")
    i = _pick(rng, [i for i, line in enumerate(lines) if line.startswith("score:")])
    lines[i] = "scroe:" + lines[i][len("score:"):]
    return "\n".join(lines), Expected(codes.SYNTAX, i + 1)


def _bad_setup(events, rules, players, rng):
    at = max(i for i, e in enumerate(events) if isinstance(e, Tag)) + 1
    return _inserted(events, at, Tag("Ruleset", rules.name)), (at, None, None, None)


def _bad_deal(events, rules, players, rng):
    index, hand, deal = _pick(rng, list(_hands(events, Deal)))
    run = replace(deal.run, cards=deal.run.cards[:-1], spans=())
    return _replaced(events, index, replace(deal, run=run)), (index, hand, None, deal.player)


def _bad_pass(events, rules, players, rng):
    names = _names(events)
    index, hand, pass_ = _pick(rng, list(_hands(events, Pass)))
    seat = names.index(pass_.player)
    right = (seat + direction_offset(rules.pass_direction(hand), players)) % players
    wrong = _pick(rng, [names[s] for s in range(players) if s not in (seat, right)])
    return _replaced(events, index, replace(pass_, to=wrong)), (index, hand, None, pass_.player)


def _wrong_dealer(events, rules, players, rng):
    names = _names(events)
    later = [(i, h, e) for i, h, e in _hands(events, HandStart) if e.number > 1]
    index, hand, start = _pick(rng, later)
    wrong = names[(names.index(start.dealer) + 1 + rng.below(players - 1)) % players]
    return _replaced(events, index, replace(start, dealer=wrong)), (index, hand, None, wrong)


def _out_of_turn(events, rules, players, rng):
    """Swap the second and third plays of a trick."""
    swappable = [(i, h, e) for i, h, e in _hands(events, Trick) if _swappable(rules, e)]
    index, hand, trick = _pick(rng, swappable)
    plays = list(trick.plays)
    plays[1], plays[2] = plays[2], plays[1]
    return (_replaced(events, index, replace(trick, plays=tuple(plays))),
            (index, hand, trick.number, plays[1].player))


def _swappable(rules: Ruleset, trick: Trick) -> bool:
    """Tell whether the plays of ``trick`` may be swapped.  With the lead-suit switch (R5.5) the
    order of plays decides what follows: only two cards of the led suit are swapped, which
    leaves every later card as legal as it was."""
    suits = {p.card // NUM_RANKS for p in trick.plays[:3]}
    return not rules.lead_suit_switch or len(suits) == 1


def _wrong_claim(events, rules, players, rng, cancelled: bool = True):
    """Write a wrong claim, of a miscounted cancellation (``cancelled``) or of a wrong winner.

    A miscounted claim names a winner for a set-aside trick, or "none" or a cancelled card's
    player for a trick that a surviving card won.  A wrong winner is another player whose card
    survived.
    """
    found = []
    for index, hand, event in _hands(events, Trick):
        outcome = resolve_under(rules, [p.card for p in event.plays])
        winner = event.claim.player
        for play in event.plays:
            lost = play.card in outcome.cancelled
            if play.player == winner:
                continue
            if cancelled and (winner is None or lost):
                found.append((index, hand, event, play.player))
            elif not cancelled and winner is not None and not lost:
                found.append((index, hand, event, play.player))
        if cancelled and winner is not None and outcome.cancelled:
            found.append((index, hand, event, None))
    index, hand, trick, name = _pick(rng, found)
    return (_replaced(events, index, replace(trick, claim=Claim(name))),
            (index, hand, trick.number, name))


def _moonless_score(events, rng):
    """Pick (event index, hand) of a score line of a hand where nobody shot the moon."""
    moons = {h for _, h, _ in _hands(events, Moon)}
    return _pick(rng, [(i, h) for i, h, _ in _hands(events, Score) if h not in moons])


def _score_mismatch(events, rules, players, rng):
    index, hand = _moonless_score(events, rng)
    who = _names(events)[rng.below(players)]
    events = [_bump(e, who) if (i == index or (isinstance(e, Total) and h >= hand)) else e
              for i, h, e in _hands(events)]
    return events, (index, hand, None, who)


def _total_mismatch(events, rules, players, rng):
    index = max(i for i, e in enumerate(events) if isinstance(e, Total))
    who = _names(events)[rng.below(players)]
    hands = sum(isinstance(e, HandStart) for e in events)
    return _replaced(events, index, _bump(events[index], who)), (index, hands, None, who)


def _bad_moon(events, rules, players, rng):
    index, hand = _moonless_score(events, rng)
    who = _names(events)[rng.below(players)]
    return (_inserted(events, index, Moon(who, rules.moon_choices[0])),
            (index, hand, None, who))


def _game_end(events, rules, players, rng):
    """Write a wrong winner for a finished game, or a winner line for a game that has not
    ended."""
    index = next((i for i, e in enumerate(events) if isinstance(e, GameOver)), None)
    if index is None:
        totals = [e for e in events if isinstance(e, Total)]
        if not totals:
            raise CannotInject("the game has no hands")
        low = min(entry.value for entry in totals[-1].entries)
        claimed = tuple(e.player for e in totals[-1].entries if e.value == low)
        return [*events, GameOver(claimed)], (len(events), None, None, None)
    losers = [n for n in _names(events) if n not in events[index].players]
    return _replaced(events, index, GameOver((_pick(rng, losers),))), (index, None, None, None)


def _names(events) -> list[str]:
    return split_players(next(e.value for e in events if isinstance(e, Tag) and e.key == "players"))


def _bump(line, who: str):
    return replace(line, entries=tuple(
        Entry(e.player, e.value + 1) if e.player == who else e for e in line.entries))


EDITS = {
    codes.BAD_SETUP: _bad_setup, codes.BAD_DEAL: _bad_deal, codes.BAD_PASS: _bad_pass,
    codes.WRONG_DEALER: _wrong_dealer, codes.OUT_OF_TURN: _out_of_turn,
    codes.MISCOUNTED_CANCELLATION: _wrong_claim,
    codes.WRONG_WINNER: partial(_wrong_claim, cancelled=False),
    codes.SCORE_MISMATCH: _score_mismatch, codes.TOTAL_MISMATCH: _total_mismatch,
    codes.BAD_MOON: _bad_moon, codes.GAME_END: _game_end,
}
