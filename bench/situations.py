"""How often ``referee generate --situation`` reaches each situation, and what it costs.

    python bench/situations.py [GAMES] [PLAYERS] [RULESET]

For each situation (and for no steering at all), GAMES games of RULESET at PLAYERS players
played to the end with the ``simple`` strategy (default 200 games, 7 players,
``cancellation``), the seeds those of ``generate --count GAMES --seed 1``:
the share of games that show it and the games per second of CPU time.
"""

from __future__ import annotations

import sys
import time

from referee.conformance.strategies import SITUATIONS
from referee.conformance.gamestats import GameStats
from referee.conformance.generate import game_seed, generate_game
from referee.conformance.strategies import shows_situation, situation_problem
from referee.rules.ruleset import load_ruleset


def measure(situation: str | None, games: int, players: int, hands: int | None,
            ruleset: str = "cancellation") -> tuple[dict[str, int], float]:
    """(games showing each situation, CPU seconds) over ``games`` generated games."""
    rules = load_ruleset(ruleset)
    shown = dict.fromkeys(SITUATIONS, 0)
    start = time.process_time()
    for index in range(1, games + 1):
        made = GameStats()
        generate_game(rules, players, seed=game_seed(1, index), hands=hands, strategy="simple",
                      situation=situation, stats=made)
        for name in SITUATIONS:
            shown[name] += shows_situation(name, made.cases())
    return shown, time.process_time() - start


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 200
    players = int(argv[1]) if len(argv) > 1 else 7
    ruleset = argv[2] if len(argv) > 2 else "cancellation"
    rules = load_ruleset(ruleset)
    print(f"{games} games, {ruleset}, {players} players, to the end, strategy simple")
    print(f"{'--situation':<18} {'share of games showing it':<28} games/s (CPU)")
    for situation in (None, *SITUATIONS):
        if situation is not None and situation_problem(situation, rules, players):
            print(f"{situation:<18} impossible: {situation_problem(situation, rules, players)}")
            continue
        shown, seconds = measure(situation, games, players, None, ruleset)
        wanted = "(none)" if situation is None else situation
        share = ", ".join(f"{name} {100 * count / games:.0f}%" for name, count in shown.items()
                          if situation is None or name == situation)
        print(f"{wanted:<18} {share:<28} {games / seconds:.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
