"""What every command shares: its exit codes, its usage error, and the options read the same
way by several commands (--ruleset, --allow-ruleset-dir, --no-color, --lang)."""

from __future__ import annotations

import os
import sys

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_UNREADABLE = 0, 1, 2


class UsageError(Exception):
    """The command was asked something it cannot do; the command line prints it, exit 2."""


def ruleset_choice(args) -> tuple[object, tuple[str, ...]]:
    """(the --ruleset ruleset or None, the --allow-ruleset-dir folders resolved)."""
    from referee.rules.ruleset_files import RulesetError
    from referee.rules.ruleset import load_ruleset

    rules = None
    if args.ruleset is not None:
        try:
            rules = load_ruleset(args.ruleset)
        except RulesetError as err:
            raise UsageError(f"--ruleset: {err}") from None
    folders = []
    for folder in args.allow_ruleset_dir:
        if not os.path.isdir(folder):
            raise UsageError(f"--allow-ruleset-dir: {folder!r} is not a directory")
        folders.append(os.path.realpath(folder))
    return rules, tuple(folders)


def color(args) -> bool | None:
    """False when colour is refused (--no-color, NO_COLOR); None lets the renderer decide."""
    if getattr(args, "no_color", False) or os.environ.get("NO_COLOR"):
        return False
    return None


def language(args) -> str:
    """The language to speak: ``--lang``, else the environment as gettext reads it."""
    return _chosen(args, os.environ)


def machine_language(args) -> str:
    """The language of the messages in output that programs read (JSON, SARIF, annotations):
    ``--lang`` only, English without it, so that a CI machine's locale never changes them."""
    return _chosen(args, {})


class ProgressBar:
    """A progress bar of ``total`` steps on a terminal's standard error; nothing elsewhere."""

    def __init__(self, total: int, what: str, shown: bool = True):
        self.bar = None
        if shown and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(transient=True, console=Console(stderr=True))
            self.task = self.bar.add_task(what, total=total)
            self.bar.start()

    def advance(self) -> None:
        if self.bar is not None:
            self.bar.advance(self.task)

    def passing(self, items):
        """``items`` as they come, a step for each."""
        for item in items:
            yield item
            self.advance()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _chosen(args, environ) -> str:
    from referee.util.i18n import UnknownLanguage, choose_language

    try:
        return choose_language(getattr(args, "lang", None), environ)
    except UnknownLanguage as err:
        raise UsageError(str(err)) from None
