"""This module runs ``referee match``: it plays seeded games between programs, checks every
move, and prints the standings."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import asdict
from itertools import islice
from pathlib import Path

from referee.run.bulk import handling
from referee.run.commands import EXIT_CLEAN, EXIT_VIOLATIONS, ProgressBar, UsageError
from referee.util.terminal import escaped

MAX_GAMES = 1_000_000


def _setup(args) -> tuple[list[list[str]], object, list[tuple[str, str, tuple]], Path | None]:
    """Check and return the commands, the options, the schedule and the -o folder of a match.
    In the schedule, (game name, seed, the program of each seat): seat s of rotation r is
    played by program (s + r) mod k; with --duplicate each deal is played once per rotation."""
    from referee.play.match import MatchOptions
    from referee.rules.options import OnFault
    from referee.run.commands import ruleset_choice

    commands = []
    for text in args.programs:
        try:
            commands.append(shlex.split(text))
        except ValueError as err:
            raise UsageError(f"cannot read the command {text!r}: {err}") from None
        if not commands[-1] or not commands[-1][0]:
            raise UsageError("an empty command plays no seat")
    rules, _ = ruleset_choice(args)
    players = args.players or rules.min_players
    if not rules.allows_players(players):
        raise UsageError(f"{rules.name} is for {rules.min_players}-{rules.max_players} players, "
                         f"not {players}")
    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games takes 1 to {MAX_GAMES:,}")
    if not 1 <= args.time_per_move <= 3_600_000:
        raise UsageError("--time-per-move takes 1 to 3,600,000 ms")
    options = MatchOptions(rules, players, args.time_per_move / 1000, args.conformance,
                           OnFault(args.on_fault), args.max_hands)
    schedule = []
    rotations = len(commands) if args.duplicate else 1
    for index in range(1, args.games + 1):
        for r in range(rotations):
            name = f"game-{index:04d}" + (f"-r{r}" if args.duplicate else "")
            seats = tuple((s + r) % len(commands) for s in range(players))
            schedule.append((name, f"{args.seed}/game {index}", seats))
    folder = None if args.output is None else Path(args.output)
    try:
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"-o: cannot make the folder {args.output!r}: "
                         f"{err.strerror or err}") from None
    return commands, options, schedule, folder


def _write(folder: Path | None, result, record: bool) -> None:
    if folder is not None:
        (folder / f"{result.game}.log").write_text(result.log, "utf-8")
        if record:
            (folder / f"{result.game}.json").write_text(result.record, "utf-8")
        for number, difference in enumerate(result.differences, 1):
            (folder / f"{result.game}.difference-{number}.log").write_text(
                difference.position, "utf-8")


def run_match(args) -> int:
    from referee.run.cluster import ClusterUnavailable

    commands, options, schedule, folder = _setup(args)
    results: list = [None] * len(schedule)
    failures: list[str] = []
    progress = ProgressBar(len(schedule), "games")
    stop = threading.Event()
    if args.scheduler:
        games = games_on_cluster(schedule, commands, options, args.scheduler, cwd=os.getcwd())
        handler = signal.default_int_handler  # (it raises KeyboardInterrupt for any signal)
    else:
        games = _games_here(schedule, commands, options, args.jobs, stop)

        def handler(signum, frame) -> None:
            stop.set()
    try:
        # Ctrl-C, SIGTERM and SIGHUP alike stop the match, and every program is then killed.
        # The local match's handler only sets its stop event: an exception raised at an
        # arbitrary point of the main thread can leave a future's lock held, and the pool's
        # shutdown then waits forever.
        with handling(handler, signal.SIGINT, signal.SIGTERM, signal.SIGHUP), \
                contextlib.closing(games):
            for index, outcome in games:  # each finished game kept (or why it has none)
                if isinstance(outcome, BaseException):
                    failures.append(f"{schedule[index][0]}: internal error: {outcome!r}")
                else:
                    results[index] = outcome
                    _write(folder, outcome, args.record)
                progress.advance()
    except ClusterUnavailable as err:
        raise UsageError(str(err)) from None
    finally:
        progress.close()
    return _report(args, commands, [r for r in results if r is not None], failures)


def _games_here(schedule, commands, options, jobs: int, stop: threading.Event):
    """Play the games in ``jobs`` threads here, each with its own processes."""
    from referee.play.match import play_game
    from referee.play.program import Processes, adopting_orphans

    registry = Processes()
    pool = ThreadPoolExecutor(max_workers=max(1, min(jobs, len(schedule))))

    def start(game):
        name, seed, programs = game
        return pool.submit(play_game, commands, programs, game=name, seed=seed, options=options,
                           stop=stop, registry=registry)

    def done(futures):
        # poll, so that the main thread sees the stop event an interrupt sets
        finished = wait(futures, timeout=0.1, return_when=FIRST_COMPLETED).done
        if stop.is_set():
            raise KeyboardInterrupt
        return finished

    with adopting_orphans(registry):
        try:
            yield from finished_in_window(schedule, start, done, 2 * max(1, jobs))
        except KeyboardInterrupt:
            # every game stops at its next question; killing the programs ends the waits now
            stop.set()
            registry.kill_all()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _report(args, commands, results, failures) -> int:
    from referee.play.match import standings, standings_text

    table = standings([" ".join(c) for c in commands], results)
    if args.format == "json":
        print(json.dumps({"standings": [s.to_json() for s in table],
                          "games": [_game_json(r) for r in results],
                          "failures": failures}, ensure_ascii=True, indent=1))
    else:
        for line in standings_text(table).splitlines() + _events(results) + failures:
            print(escaped(line))
    faulty = failures or any(r.forfeit or r.substituted or r.differences_counted
                             for r in results)
    return EXIT_VIOLATIONS if faulty else EXIT_CLEAN


def _events(results) -> list[str]:
    lines = []
    for result in results:
        if result.forfeit is not None:
            seat, reason, detail = result.forfeit
            lines.append(f"{result.game}: {result.names[seat]} forfeits ({reason}): {detail}")
        for seat, reason, detail in result.substituted:
            lines.append(f"{result.game}: {result.names[seat]} {reason}: {detail}; the referee "
                         "played for it")
        for d in result.differences[:3]:
            where = f"hand {d.hand}" + (f", trick {d.trick}" if d.trick else "")
            lines.append(f"{result.game}, {where}: {result.names[d.seat]} says {d.what} "
                         f"{d.program}, the referee {d.referee}")
    return lines


def _game_json(result) -> dict:
    return {
        "game": result.game, "seed": result.seed, "programs": list(result.programs),
        "players": list(result.names), "ended": result.ended, "totals": list(result.totals),
        "winners": list(result.winners), "hands": len(result.hand_scores),
        "forfeit": None if result.forfeit is None else dict(zip(("seat", "reason", "detail"),
                                                                result.forfeit)),
        "substituted": [dict(zip(("seat", "reason", "detail"), s)) for s in result.substituted],
        "differences": [asdict(d) for d in result.differences],
    }


def finished_in_window(items: Iterable, submit: Callable, done: Callable,
                       window: int) -> Iterator[tuple[int, object]]:
    """Yield (index, what the job returned or the exception it raised) of each of ``items`` as
    its job (``submit(item)``, a future) finishes, at most ``window`` pending; ``done(futures)``
    gives the finished ones (it may poll, or raise to stop).  Jobs left pending are cancelled."""
    upcoming = enumerate(items)
    pending: dict = {}

    def top_up() -> None:
        for index, item in islice(upcoming, max(0, window - len(pending))):
            pending[submit(item)] = index

    try:
        top_up()
        while pending:
            for future in done(list(pending)):
                index = pending.pop(future)
                try:
                    yield index, future.result()
                except Exception as err:  # the job's fault, not the run's
                    yield index, err
                top_up()
    finally:
        for future in pending:
            future.cancel()


def games_on_cluster(schedule: list, commands: list[list[str]], options, scheduler: str, *,
                     window: int = 64, cwd: str | None = None) -> Iterator[tuple[int, object]]:
    """Run ``referee match --scheduler``: play each (name, seed, programs) of ``schedule`` on a
    worker, which runs the programs' processes itself (each command must run there, from
    ``cwd``); yields (index, GameResult or the exception) as games finish."""
    from referee.run.cluster import client_of

    client = client_of(scheduler)
    from distributed import wait as wait_any

    from referee.play.match import play_game

    def start(game):
        name, seed, programs = game
        return client.submit(play_game, commands, programs, game=name, seed=seed,
                             options=options, cwd=cwd, pure=False)

    try:
        yield from finished_in_window(
            schedule, start, lambda futures: wait_any(futures, return_when="FIRST_COMPLETED").done,
            window)
    finally:
        client.close()
