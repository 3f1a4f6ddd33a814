"""How well ``referee.testing``'s strategies shrink a failing property (time, final size).

Each property below is deliberately broken, the way an engine author's code might be, and
Hypothesis's ``find`` searches for a counterexample and shrinks it.  Printed per property:
the time to find and shrink it, and the size of the final example (log lines, hands,
players).  A benchmark, not a test: run it by hand, ``python bench/shrink.py [RUNS]`` (each
property is searched RUNS times with Hypothesis seeds 0..RUNS-1; the median time is shown).
It uses only the public strategies, so ``PYTHONPATH=`` an older checkout measures that one.
Hypothesis's default phases are used, explain included (for a property that fails on most
games it re-runs about 100 random examples, and may find a smaller one on the way: which is
why a game played to the end draws a short target most of the time).  The load average is
printed before and after, as the machine may be shared.
spec/conformance.md quotes its figures.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from random import Random

from hypothesis import HealthCheck, find, settings

from referee.log.events import HandStart, Trick
from referee.rules import engine
from referee.rules.cards import QUEEN_OF_SPADES, cards_text
from referee.rules.ruleset import load_ruleset, with_options
from referee.rules.tricks import resolve_trick
from referee.testing import RefereeAssertionError, assert_events_legal, deals, game_logs

SETTINGS = settings(database=None, deadline=None, max_examples=500,
                    suppress_health_check=list(HealthCheck))


def _no_cancellation_winner(plays) -> str | None:
    """A broken trick rule: the highest card of the led suit wins, twins or not."""
    led = plays[0].card.suit
    best = max((p for p in plays if p.card.suit == led), key=lambda p: p.card.rank)
    return best.player


def engine_ignores_cancellation(log) -> bool:
    """An engine that resolves tricks without R6 (cancellation): it disagrees with a claim."""
    return any(isinstance(e, Trick) and _no_cancellation_winner(e.plays) != e.claim.player
               for e in log.events)


def engine_misses_set_aside_last_trick(log) -> bool:
    """A rarer bug: the engine fails on a hand whose last trick is set aside."""
    for event in log.events:
        if isinstance(event, Trick):
            outcome = resolve_trick([p.card for p in event.plays], cancellation=True,
                                    set_aside_when=log.rules.set_aside_when)
            last = event.number == log.rules.cards_per_player(log.players)
            if last and outcome.winner is None:
                return True
    return False


def _broken_engine_hand(deal) -> list[str]:
    """The example engine of spec/conformance.md, with a bug: a player holding both black
    queens throws one of them on any lead (a revoke unless spades were led)."""
    state = engine.apply(engine.new_game(deal.rules, deal.players, dealer=deal.dealer),
                         deal.action())
    lines, trick = [], []
    while state.phase in (engine.Phase.PASS, engine.Phase.PLAY, engine.Phase.SCORING):
        action = engine.legal_actions(state)[0]
        if state.phase is engine.Phase.PLAY and state.trick_cards and (
                state.holdings[state.to_play][QUEEN_OF_SPADES] == 2):
            action = QUEEN_OF_SPADES
        if state.phase is engine.Phase.PASS:
            lines.append(f"pass {deal.names[action.seat]}: {cards_text(action.cards)}")
        elif state.phase is engine.Phase.PLAY:
            trick.append(f"{deal.names[state.to_play]} {cards_text([action])}")
            if len(trick) == deal.players:
                lines.append(f"trick {state.trick_number}: " + ", ".join(trick))
                trick = []
        else:
            scores = engine.hand_scores(state, None if action == engine.SCORE else action)
            lines.append("score: " + ", ".join(f"{n} {s}" for n, s in zip(deal.names, scores)))
        if state.phase is engine.Phase.PLAY:
            state = engine.play(state, state.to_play, action, check=False)
        else:
            state = engine.apply(state, action)
    return lines


def _deal_log(deal) -> str:
    return "\n".join(deal.log_lines() + _broken_engine_hand(deal)) + "\n"


def engine_revokes_with_twin_queens(deal) -> bool:
    try:
        assert_events_legal(_deal_log(deal))
    except RefereeAssertionError:
        return True
    return False


def _log_size(log) -> str:
    hands = sum(isinstance(e, HandStart) for e in log.events)
    return f"{len(log.text.splitlines())} lines, {hands} hand(s), {log.players} players"


def _deal_size(deal) -> str:
    return f"{len(_deal_log(deal).splitlines())} lines, 1 hand, {deal.players} players"


PROPERTIES = (
    ("game_logs(): engine ignores cancellation", game_logs(), engine_ignores_cancellation,
     _log_size),
    ("game_logs(): engine fails on a set-aside last trick", game_logs(rules="cancellation"),
     engine_misses_set_aside_last_trick, _log_size),
    ("game_logs(hands=None), target drawn up to 40: engine ignores cancellation",
     game_logs(rules=with_options(load_ruleset("cancellation"), target=40), hands=None),
     engine_ignores_cancellation, _log_size),
    ("game_logs(rules=\"cancellation\", hands=None), target drawn up to 150: engine ignores "
     + "cancellation", game_logs(rules="cancellation", hands=None), engine_ignores_cancellation,
     _log_size),
    ("deals(): engine revokes holding twin black queens", deals(rules="cancellation"),
     engine_revokes_with_twin_queens, _deal_size),
)


def _load() -> str:
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on every platform
        return "load average unknown"


def run(runs: int) -> None:
    print(_load(), flush=True)
    for title, strategy, broken, size in PROPERTIES:
        times, sizes = [], []
        for seed in range(runs):
            start = time.perf_counter()
            example = find(strategy, broken, settings=SETTINGS, random=Random(seed))
            times.append(time.perf_counter() - start)
            sizes.append(size(example))
        print(f"{title}: median {statistics.median(times):.1f} s "
              f"({', '.join(f'{t:.1f}' for t in times)}); final examples: {'; '.join(sizes)}",
              flush=True)
    print(_load(), flush=True)


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
