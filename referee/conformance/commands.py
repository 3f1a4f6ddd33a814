"""This module runs ``referee generate``, which writes reproducible games (logs or JSON game
records), or one with a violation and its expected verdict."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

from referee.conformance.gamestats import CASES, GameStats
from referee.conformance.generate import (MAX_HANDS, MAX_HANDS_ASKED, game_seed, generate_game,
                                          hand_limit_note)
from referee.conformance.strategies import (SITUATIONS, STRATEGIES, shows_situation,
                                            situation_problem)
from referee.conformance.inject import INJECTABLE, can_occur, violating_game
from referee.conformance.verdicts import CannotInject, expected_document, json_text
from referee.log.jsonwrite import record_text
from referee.log.writer import write
from referee.rules.ruleset_files import RulesetError, bundled_names
from referee.rules.ruleset import load_ruleset
from referee.util.files import RefusedWrite, write_parts
from referee.util.terminal import escaped

FORMATS = ("log", "json")
MANIFEST = "manifest.json"
MANIFEST_FORMAT = "referee-generated-games/1"
MAX_MANIFEST_BYTES = 1 << 26  # an earlier run's manifest (about 400 bytes a game)


def ruleset_tag_value(ruleset: str, output: str | None) -> str | None:
    """Say what a generated log's [Ruleset] tag must say so that `referee check` finds
    ``ruleset`` again: None for a bundled ruleset (its name is written), else the file's path,
    relative to the log's folder (check reads a relative path from there)."""
    if ruleset.casefold() in bundled_names() or not ruleset.endswith(".toml"):
        return None
    if output is None:
        return ruleset
    return os.path.relpath(Path(ruleset).resolve(), Path(output).resolve().parent)


def _say_outside(tag_value: str, ruleset: str, what: str = "the log names") -> None:
    """Warn when `referee check` refuses the file the log names without an option."""
    if os.path.isabs(tag_value) or tag_value.split(os.sep, 1)[0] == os.pardir:
        folder = os.path.dirname(ruleset) or "."
        print(escaped(f"referee generate: {what} {tag_value}, outside its folder, which "
                      f"`referee check` reads only with --allow-ruleset-dir {folder} (or "
                      f"--ruleset {ruleset})"), file=sys.stderr)


def generate_main(players: int, ruleset: str, seed: int, hands: int | None, to_end: bool,
                  inject: str | None, strategy: str, output: str | None, *,
                  count: int | None = None, form: str = "log",
                  situation: str | None = None) -> int:
    """Run ``referee generate`` (docs/generate.md).

    Return 0 when written; 2 for a usage error or no place for the violation in this game.
    """
    def fail(message: str) -> int:
        print(escaped(f"referee generate: {message}"), file=sys.stderr)
        return 2

    try:
        rules = load_ruleset(ruleset)
    except RulesetError as err:
        return fail(str(err))
    problem = _usage_problem(rules, players, hands, to_end, inject, strategy, count, form,
                             situation, output)
    if problem is not None:
        return fail(problem)
    if count is not None:
        try:
            return write_games(rules, ruleset, players, seed, count, hands=hands,
                               strategy=strategy, situation=situation, form=form,
                               directory=output)
        except (GamesRefused, RefusedWrite) as err:
            return fail(str(err))
        except OSError as err:
            return fail(f"cannot write into {output}: {err.strerror or err}")
    document = None
    tag_value = ruleset_tag_value(ruleset, output)
    if inject is None:
        made = GameStats()
        events = generate_game(rules, players, seed=seed, hands=hands, strategy=strategy,
                               situation=situation, stats=made, ruleset_tag=tag_value)
        text = _game_text(events, form)
        if made.stopped:
            print(f"referee generate: {hand_limit_note(MAX_HANDS)} (the game ends with a "
                  "comment that says so)", file=sys.stderr)
        if situation is not None and not shows_situation(situation, made.cases()):
            print(f"referee generate: this game does not show {situation} (docs/generate.md "
                  "says in what share of games each situation is reached); try another --seed",
                  file=sys.stderr)
    else:
        try:
            text, expected = violating_game(rules, players, seed=seed, kind=inject, hands=hands,
                                            strategy=strategy, ruleset_tag=tag_value)
        except CannotInject as err:
            return fail(f"{err} (seed {seed}); try another --seed or more --hands")
        document = expected_document(
            [expected], log=Path(output).name if output else None, ruleset=rules.name,
            players=players, seed=seed, hands=hands, strategy=strategy)
    if output is None:
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", sys.stdout)
        # write bytes where it can: no newline translation, the same output everywhere
        out.write(text if out is sys.stdout else text.encode("utf-8"))
        out.flush()
        if document is not None:
            print(json.dumps(document, ensure_ascii=False), file=sys.stderr)
        return 0
    if tag_value is not None:
        _say_outside(tag_value, ruleset)
    try:  # each file whole or not at all, as every file the referee writes
        write_parts(output, [text])
        if document is not None:
            write_parts(output + ".expected.json", [json_text(document)])
    except (OSError, RefusedWrite) as err:
        return fail(f"cannot write {output}: {getattr(err, 'strerror', None) or err}")
    return 0


def _usage_problem(rules, players: int, hands: int | None, to_end: bool, inject: str | None,
                   strategy: str, count: int | None, form: str, situation: str | None,
                   output: str | None) -> str | None:
    """Say what is wrong with the options of ``referee generate`` (None: nothing)."""
    why = situation_problem(situation, rules, players) if situation in SITUATIONS else None
    problems = (
        (not rules.allows_players(players),
         f"{rules.name} is for {rules.min_players}-{rules.max_players} players, not {players}"),
        (hands is not None and to_end, "give --hands or --to-end, not both"),
        (hands is not None and not 1 <= hands <= MAX_HANDS_ASKED,
         f"--hands must be at least 1 and at most {MAX_HANDS_ASKED}"),
        (strategy not in STRATEGIES,
         f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}"),
        (form not in FORMATS, f"unknown format {form!r}; choose from {', '.join(FORMATS)}"),
        (situation is not None and situation not in SITUATIONS,
         f"unknown situation {situation!r}; choose from {', '.join(SITUATIONS)}"),
        (why, f"no {rules.name} game at {players} players can show {situation}: {why}"),
        (inject is not None and inject not in INJECTABLE,
         f"cannot inject {inject!r}; choose from {', '.join(INJECTABLE)}"),
        (inject is not None and not can_occur(inject, rules),
         f"no {rules.name} game can contain {inject} (see referee rules {rules.name})"),
        (inject is not None and (count is not None or form != "log" or situation is not None),
         "--inject writes one log with its expected verdict (without --count, --format json "
         "or --situation); `referee corpus` writes many"),
        (count is not None and count < 1, "--count must be at least 1"),
        (count is not None and output is None,
         "--count writes its games into a folder: name it with -o DIR"),
    )
    return next((message for wrong, message in problems if wrong), None)


def _game_text(events: list, form: str) -> str:
    """Write the game's log or JSON record."""
    return record_text(tuple(events)) if form == "json" else write(events)


class GamesRefused(Exception):
    """GamesRefused says that the folder given to ``generate --count`` cannot take the games;
    the message says why."""


def _clear(folder: Path, names: list[str]) -> None:
    """Make ``folder`` ready for a run's files ``names`` (and its manifest): new, or holding
    other files, or an earlier run, whose manifest names its files (remove them).  Refuse a
    manifest of something else, or a file of one of ``names`` that no earlier run wrote, before
    anything is written."""
    if folder.exists() and not folder.is_dir():
        raise GamesRefused(f"{folder} is not a directory")
    if not folder.is_dir():
        return
    old = folder / MANIFEST
    try:
        if old.is_file() and old.stat().st_size > MAX_MANIFEST_BYTES:
            raise GamesRefused(f"{old} is larger than any manifest `referee generate` writes: "
                               "give another directory")
        data = json.loads(old.read_text("utf-8")) if old.exists() else {"format": MANIFEST_FORMAT}
    except (OSError, ValueError, RecursionError) as err:
        raise GamesRefused(f"cannot read the old {old}: {err}") from None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise GamesRefused(f"{old} is not the manifest of `referee generate --count`: give "
                           "another directory")
    games = data.get("games")
    for item in games if isinstance(games, list) else []:
        name = item.get("file") if isinstance(item, dict) else None
        if isinstance(name, str) and not any(c in name for c in "/\\\0") and name not in (
                "", ".", "..", MANIFEST):
            try:
                (folder / name).unlink(missing_ok=True)
            except IsADirectoryError:
                raise GamesRefused(f"{folder / name} is a folder, not a game of an earlier "
                                   "run") from None
    taken = next((name for name in names if os.path.lexists(folder / name)), None)
    if taken is not None:
        raise GamesRefused(f"{folder / taken} is there and no earlier run of `referee generate "
                           "--count` wrote it: give another directory")


def remake_command(players: int, ruleset: str, seed: int, hands: int | None, strategy: str,
                   situation: str | None, form: str, output: str) -> str:
    """Write the command that makes one game of a run again, alone."""
    words = ["referee", "generate", "--players", str(players), "--ruleset", ruleset,
             "--seed", str(seed)]
    if hands is not None:
        words += ["--hands", str(hands)]
    words += ["--strategy", strategy]
    if situation is not None:
        words += ["--situation", situation]
    words += ["--format", form, "-o", output]
    return " ".join(map(shlex.quote, words))


def write_games(rules, ruleset: str, players: int, seed: int, count: int, *,
                hands: int | None, strategy: str, situation: str | None, form: str,
                directory: str) -> int:
    """Run ``generate --count``: write the games and their ``manifest.json``, and a summary on
    stdout."""
    folder = Path(directory)
    width = max(4, len(str(count)))
    names = [f"game-{index:0{width}}.{form}" for index in range(1, count + 1)]
    _clear(folder, names)
    folder.mkdir(parents=True, exist_ok=True)
    tag_value = ruleset_tag_value(ruleset, str(folder / "game.log"))
    if tag_value is not None:
        _say_outside(tag_value, ruleset, "each game names")
    total, games = GameStats(), []
    for index, name in enumerate(names, start=1):
        game, made = game_seed(seed, index), GameStats()
        events = generate_game(rules, players, seed=game, hands=hands, strategy=strategy,
                               situation=situation, stats=made, ruleset_tag=tag_value)
        write_parts(folder / name, [_game_text(events, form)])
        games.append({
            "file": name, "seed": game, "hands": made.hands, "ended": bool(made.ended),
            "stopped_at_hand_limit": bool(made.stopped), "cases": made.cases(),
            "remake": remake_command(players, ruleset, game, hands, strategy, situation, form,
                                     os.path.join(directory, name))})
        total.add(made)
    shown = None
    if situation is not None:
        shown = sum(shows_situation(situation, g["cases"]) for g in games)
    manifest = {
        "format": MANIFEST_FORMAT, "seed": seed, "count": count, "ruleset": rules.name,
        "players": players, "hands": hands, "hand_limit": MAX_HANDS, "strategy": strategy,
        "situation": situation, "game_format": form, "situation_games": shown,
        "games_with": {case: sum(case in g["cases"] for g in games) for case in CASES},
        "games": games, "stats": total.summary(),
    }
    write_parts(folder / MANIFEST, [json_text(manifest)])
    ended = sum(g["ended"] for g in games)
    line = f"wrote {count} game{'s' * (count != 1)} ({ended} played to the end"
    if total.stopped:
        line += f", {total.stopped} stopped at the hand limit of {MAX_HANDS}"
    line += ")"
    if situation is not None:
        line += f", {shown} with {situation} ({100 * shown / count:.0f}%)"
    print(escaped(f"{line} and {MANIFEST} to {directory}"))
    return 0
