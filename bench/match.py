"""What `referee match` adds to the programs' own time, beside the engine's own playouts.

    python bench/match.py [--games 5] [--players 6]

Plays ``--games`` seeded games of random_bot.py against itself (examples/bots, one process per
seat) through :func:`referee.play.match.play_game`, and reports hands per second, the referee's
CPU per move (this process: the table, the protocol, the checks) and the programs' CPU per move
(the children, reaped). Then it plays random legal playouts on the engine alone through
:class:`referee.Table` and on :mod:`referee.rules.engine` directly (hands/s, actions/s), which is
what a referee with no processes to talk to would cost. Every figure is from this one run.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.conformance.rng import Rng  # noqa: E402
from referee.log.events import Pass, Trick  # noqa: E402
from referee.log.parser import parse_log  # noqa: E402
from referee.play.match import MatchOptions, play_game  # noqa: E402
from referee.play.table import Table  # noqa: E402
from referee.rules import engine  # noqa: E402
from referee.rules.state import PassAction, Phase  # noqa: E402
from referee.rules.ruleset import load_ruleset  # noqa: E402

BOT = [sys.executable, str(ROOT / "examples" / "bots" / "random_bot.py")]


def cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def match_figures(games: int, players: int) -> dict:
    rules = load_ruleset("cancellation")
    wall, own, children = time.perf_counter(), cpu(resource.RUSAGE_SELF), cpu(
        resource.RUSAGE_CHILDREN)
    hands = moves = 0
    for game in range(games):
        result = play_game([BOT + ["1"], BOT + ["2"]], tuple(s % 2 for s in range(players)),
                           game=f"bench-{game}", seed=game, options=MatchOptions(rules, players))
        hands += len(result.hand_scores)
        events = parse_log(result.log).events
        moves += sum(len(e.plays) if isinstance(e, Trick) else isinstance(e, Pass) for e in events)
    wall = time.perf_counter() - wall
    own = cpu(resource.RUSAGE_SELF) - own
    children = cpu(resource.RUSAGE_CHILDREN) - children
    return {"games": games, "hands": hands, "moves": moves, "hands_per_s": hands / wall,
            "referee_cpu_per_move_us": 1e6 * own / moves,
            "programs_cpu_per_move_us": 1e6 * children / moves}


def table_playouts(hands: int, players: int) -> dict:
    table, rng, actions, before = Table(players, seed=1), Rng(1), 0, 0
    started = time.perf_counter()
    while before + len(table.results) < hands:
        if table.is_over:
            before += len(table.results)
            table = Table(players, seed=rng.below(1 << 30))
        if table.phase is Phase.PASS:
            for seat in table.to_pass:
                table.pass_cards(seat, table.holding(seat)[:table.rules.pass_count])
                actions += 1
        elif table.phase is Phase.PLAY:
            legal = table.legal_cards()
            table.play(legal[rng.below(len(legal))])
            actions += 1
        else:
            table.score(table.scoring_choices()[0])
            actions += 1
    seconds = time.perf_counter() - started
    return {"hands_per_s": hands / seconds, "actions_per_s": actions / seconds}


def engine_playouts(hands: int, players: int) -> dict:
    rules, rng, actions, done = load_ruleset("cancellation"), Rng(1), 0, 0
    state = engine.new_game(rules, players)
    started = time.perf_counter()
    while done < hands:
        if state.phase is Phase.OVER:
            state = engine.new_game(rules, players)
        if state.phase is Phase.DEAL:
            deck = engine.full_deck(rules)
            rng.shuffle(deck)
            state = engine.apply(state, engine.deal_from_order(state, deck))
        elif state.phase is Phase.PASS:
            seat = state.passes.index(None)
            held = [c for c, n in enumerate(state.holdings[seat]) for _ in range(n)]
            state = engine.apply(state, PassAction(seat, tuple(held[:rules.pass_count])))
        elif state.phase is Phase.PLAY:
            legal = engine.legal_plays(state)
            state = engine.play(state, state.to_play, legal[rng.below(len(legal))], check=False)
        else:
            state = engine.apply(state, engine.scoring_actions(state)[0])
            done += 1
        actions += 1
    seconds = time.perf_counter() - started
    return {"hands_per_s": hands / seconds, "actions_per_s": actions / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--hands", type=int, default=200, help="hands of each playout measure")
    args = parser.parse_args()
    match = match_figures(args.games, args.players)
    print(f"referee match, {args.players} players, random_bot.py x2: {match['games']} games, "
          f"{match['hands']} hands, {match['moves']} moves: {match['hands_per_s']:.1f} hands/s; "
          f"CPU per move: referee {match['referee_cpu_per_move_us']:.0f} us, programs "
          f"{match['programs_cpu_per_move_us']:.0f} us")
    for name, measure in (("Table", table_playouts), ("engine", engine_playouts)):
        figures = measure(args.hands, args.players)
        print(f"random playouts on the {name}, {args.players} players: "
              f"{figures['hands_per_s']:.0f} hands/s, {figures['actions_per_s']:,.0f} actions/s")


if __name__ == "__main__":
    main()
