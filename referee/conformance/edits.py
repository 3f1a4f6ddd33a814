"""The violations made by editing a clean game's events (or, for ``syntax``, its text): each
edit touches one statement and says where the violation is."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from referee.judge import codes
from referee.conformance.verdicts import CannotInject, Expected
from referee.log.events import (
    Claim,
    Deal,
    Entry,
    GameOver,
    HandStart,
    Moon,
    Pass,
    Score,
    Tag,
    Total,
    Trick,
)
from referee.rules.cards import NUM_RANKS
from referee.rules.ruleset import Ruleset, direction_offset


def _hands(events):
    """(event index, hand number) for each event inside a hand."""
    hand = 0
    for index, event in enumerate(events):
        if isinstance(event, HandStart):
            hand = event.number
        yield index, hand, event


def trick_index(events, hand: int, number: int) -> int:
    for index, h, event in _hands(events):
        if h == hand and isinstance(event, Trick) and event.number == number:
            return index
    raise CannotInject("the tampered trick is not in the log")


def _pick(rng, candidates):
    if not candidates:
        raise CannotInject("this game offers no place for the violation")
    return candidates[rng.below(len(candidates))]


def syntax_fault(text: str, rng) -> tuple[str, Expected]:
    lines = text.split("\n")
    scores = [i for i, line in enumerate(lines) if line.startswith("score:")]
    i = _pick(rng, scores)
    lines[i] = "scroe:" + lines[i][len("score:"):]
    return "\n".join(lines), Expected(codes.SYNTAX, i + 1)


def _bad_setup(events, rules, players, rng):
    at = max(i for i, e in enumerate(events) if isinstance(e, Tag)) + 1
    events = events[:at] + [Tag("Ruleset", rules.name)] + events[at:]
    return events, (at, None, None, None)


def _bad_deal(events, rules, players, rng):
    index, hand, deal = _pick(rng, [(i, h, e) for i, h, e in _hands(events) if isinstance(e, Deal)])
    events = list(events)
    events[index] = replace(deal, run=replace(deal.run, cards=deal.run.cards[:-1], spans=()))
    return events, (index, hand, None, deal.player)


def _bad_pass(events, rules, players, rng):
    names = _names(events)
    index, hand, pass_ = _pick(rng, [(i, h, e) for i, h, e in _hands(events)
                                     if isinstance(e, Pass)])
    seat = names.index(pass_.player)
    right = (seat + direction_offset(rules.pass_direction(hand), players)) % players
    wrong = _pick(rng, [names[s] for s in range(players) if s not in (seat, right)])
    events = list(events)
    events[index] = replace(pass_, to=wrong)
    return events, (index, hand, None, pass_.player)


def _wrong_dealer(events, rules, players, rng):
    names = _names(events)
    index, hand, start = _pick(rng, [(i, h, e) for i, h, e in _hands(events)
                                     if isinstance(e, HandStart) and e.number > 1])
    seat = names.index(start.dealer)
    wrong = names[(seat + 1 + rng.below(players - 1)) % players]
    events = list(events)
    events[index] = replace(start, dealer=wrong)
    return events, (index, hand, None, wrong)


def _out_of_turn(events, rules, players, rng):
    index, hand, trick = _pick(rng, [(i, h, e) for i, h, e in _hands(events)
                                     if isinstance(e, Trick) and _swappable(rules, e)])
    plays = list(trick.plays)
    plays[1], plays[2] = plays[2], plays[1]
    events = list(events)
    events[index] = replace(trick, plays=tuple(plays))
    return events, (index, hand, trick.number, plays[1].player)


def _swappable(rules: Ruleset, trick: Trick) -> bool:
    """With the lead-suit switch (R5.5) the order of plays decides what follows: only two
    cards of the led suit are swapped, which leaves every later card as legal as it was."""
    suits = {p.card // NUM_RANKS for p in trick.plays[:3]}
    return not rules.lead_suit_switch or len(suits) == 1


def _claims(events, rules, want_cancelled: bool):
    """Wrong claims to write: (event index, hand, trick, claimed name or None for set aside).

    Miscounted: a winner for a set-aside trick, "none" or a cancelled card's player for a
    trick that a surviving card won.  Wrong winner: another player whose card survived.
    """
    from referee.rules.tricks import resolve_under

    found = []
    for index, hand, event in _hands(events):
        if not isinstance(event, Trick):
            continue
        outcome = resolve_under(rules, [p.card for p in event.plays])
        winner = event.claim.player
        for play in event.plays:
            cancelled = play.card in outcome.cancelled
            if play.player == winner:
                continue
            if want_cancelled and (winner is None or cancelled):
                found.append((index, hand, event, play.player))
            elif not want_cancelled and winner is not None and not cancelled:
                found.append((index, hand, event, play.player))
        if want_cancelled and winner is not None and outcome.cancelled:
            found.append((index, hand, event, None))
    return found


def _wrong_claim(events, rules, players, rng, cancelled: bool = True):
    """A miscounted cancellation (``cancelled``) or a wrong winner, written as a claim."""
    index, hand, trick, name = _pick(rng, _claims(events, rules, cancelled))
    events = list(events)
    events[index] = replace(trick, claim=Claim(name))
    return events, (index, hand, trick.number, name)


def _moonless_score(events, rng):
    """A score line, with its event index and hand, of a hand where nobody shot the moon."""
    moons = {h for _, h, e in _hands(events) if isinstance(e, Moon)}
    return _pick(rng, [(i, h, e) for i, h, e in _hands(events)
                       if isinstance(e, Score) and h not in moons])[:2]


def _score_mismatch(events, rules, players, rng):
    index, hand = _moonless_score(events, rng)
    who = _names(events)[rng.below(players)]
    events = [_bump(e, who) if (i == index or (isinstance(e, Total) and h >= hand)) else e
              for i, h, e in _hands(events)]
    return events, (index, hand, None, who)


def _total_mismatch(events, rules, players, rng):
    index = max(i for i, e in enumerate(events) if isinstance(e, Total))
    who = _names(events)[rng.below(players)]
    events = list(events)
    events[index] = _bump(events[index], who)
    return events, (index, len([e for e in events if isinstance(e, HandStart)]), None, who)


def _bad_moon(events, rules, players, rng):
    index, hand = _moonless_score(events, rng)
    who = _names(events)[rng.below(players)]
    events = events[:index] + [Moon(who, rules.moon_choices[0])] + events[index:]
    return events, (index, hand, None, who)


def _game_end(events, rules, players, rng):
    """A wrong winner for a finished game; a winner line for a game that has not ended."""
    index = next((i for i, e in enumerate(events) if isinstance(e, GameOver)), None)
    if index is None:
        totals = [e for e in events if isinstance(e, Total)]
        if not totals:
            raise CannotInject("the game has no hands")
        low = min(entry.value for entry in totals[-1].entries)
        claimed = tuple(e.player for e in totals[-1].entries if e.value == low)
        return list(events) + [GameOver(claimed)], (len(events), None, None, None)
    names = _names(events)
    losers = [n for n in names if n not in events[index].players]
    events = list(events)
    events[index] = GameOver((_pick(rng, losers),))
    return events, (index, None, None, None)


def _names(events) -> list[str]:
    from referee.log.words import split_players

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
