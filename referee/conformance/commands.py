"""``referee generate``: a reproducible game, or one with a violation and its expected verdict."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from referee.conformance.generate import STRATEGIES, generate_game
from referee.conformance.inject import (
    INJECTABLE,
    CannotInject,
    can_occur,
    expected_document,
    violating_game,
)
from referee.log.events import Tag
from referee.log.writer import format_event, write
from referee.rules.ruleset import RulesetError, bundled_names, load_ruleset
from referee.util.files import RefusedWrite, write_parts
from referee.util.terminal import escaped


def ruleset_tag_value(ruleset: str, output: str | None) -> str | None:
    """What a generated log's [Ruleset] tag must say so that `referee check` finds ``ruleset``
    again: None for a bundled ruleset (its name is written), else the file's path, relative
    to the log's folder (check reads a relative path from there)."""
    if ruleset.casefold() in bundled_names() or not ruleset.endswith(".toml"):
        return None
    if output is None:
        return ruleset
    return os.path.relpath(Path(ruleset).resolve(), Path(output).resolve().parent)


def _outside_the_log_folder(tag_value: str) -> bool:
    """Whether `referee check` refuses the file without an option (see ruleset_named)."""
    return os.path.isabs(tag_value) or tag_value.split(os.sep, 1)[0] == os.pardir


def generate_main(players: int, ruleset: str, seed: int, hands: int | None, to_end: bool,
                  inject: str | None, strategy: str, output: str | None) -> int:
    """``referee generate``: write a log (stdout when ``output`` is None) and, with ``inject``,
    the expected verdict as JSON (``output + ".expected.json"``, or stderr with stdout).

    Exit codes: 0 written; 2 a usage error (unknown ruleset, kind or strategy, a player count
    the ruleset does not allow, ``hands`` with ``to_end``) or no place for the violation in
    this game (the message says to try another seed).
    """
    def fail(message: str) -> int:
        print(escaped(f"referee generate: {message}"), file=sys.stderr)
        return 2

    try:
        rules = load_ruleset(ruleset)
    except RulesetError as err:
        return fail(str(err))
    if not rules.allows_players(players):
        return fail(f"{rules.name} is for {rules.min_players}-{rules.max_players} players, "
                    f"not {players}")
    if hands is not None and to_end:
        return fail("give --hands or --to-end, not both")
    if hands is not None and hands < 1:
        return fail("--hands must be at least 1")
    if strategy not in STRATEGIES:
        return fail(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    if inject is not None and inject not in INJECTABLE:
        return fail(f"cannot inject {inject!r}; choose from {', '.join(INJECTABLE)}")
    if inject is not None and not can_occur(inject, rules):
        return fail(f"no {rules.name} game can contain {inject} (see referee rules {rules.name})")
    document = None
    if inject is None:
        text = write(generate_game(rules, players, seed=seed, hands=hands, strategy=strategy))
    else:
        try:
            text, expected = violating_game(rules, players, seed=seed, kind=inject, hands=hands,
                                            strategy=strategy)
        except CannotInject as err:
            return fail(f"{err} (seed {seed}); try another --seed or more --hands")
        document = expected_document(
            [expected], log=Path(output).name if output else None, ruleset=rules.name,
            players=players, seed=seed, hands=hands, strategy=strategy)
    tag_value = ruleset_tag_value(ruleset, output)
    if tag_value is not None:  # the generator names the ruleset; the log must name its file
        named = format_event(Tag("Ruleset", rules.name)) + "\n"
        text = text.replace(named, format_event(Tag("Ruleset", tag_value)) + "\n", 1)
        if output is not None and _outside_the_log_folder(tag_value):
            folder = os.path.dirname(ruleset) or "."
            print(f"referee generate: the log names {tag_value}, outside its folder, which "
                  f"`referee check` reads only with --allow-ruleset-dir {folder} (or "
                  f"--ruleset {ruleset})", file=sys.stderr)
    if output is None:
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", None)
        if out is not None:  # bytes: no newline translation, the same output everywhere
            out.write(text.encode("utf-8"))
            out.flush()
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
        if document is not None:
            print(json.dumps(document, ensure_ascii=False), file=sys.stderr)
        return 0
    try:  # each file whole or not at all, as every file the referee writes
        write_parts(output, [text])
        if document is not None:
            write_parts(output + ".expected.json",
                        [json.dumps(document, ensure_ascii=False, indent=2) + "\n"])
    except (OSError, RefusedWrite) as err:
        return fail(f"cannot write {output}: {getattr(err, 'strerror', None) or err}")
    return 0
