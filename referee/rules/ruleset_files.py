"""This module handles ruleset files: it finds which file a name means, reads it and its TOML,
and words their faults.  A file outside the folders a log may name (``roots``) is refused
without a look at it."""

from __future__ import annotations

import os
import sys
import tomllib
from importlib import resources

from referee.util.message import msg
from referee.util.paths import resolved_within
from referee.util.reading import TooLong, UnreadableFile, read_limited


class RulesetError(ValueError):
    """A RulesetError says that a ruleset name, file or option cannot be used (its text:
    :func:`reason`)."""


class RulesetOutside(RulesetError):
    """A RulesetOutside says that a ruleset file lies outside the folders it may be read from,
    and is left unlooked at.  ``file``: its name as written (quoted); ``is_base``: a ruleset
    file named it as its base."""

    def __init__(self, message: str, file: str, is_base: bool) -> None:
        super().__init__(message)
        self.file, self.is_base = file, is_base


MAX_RULESET_BYTES = 1 << 20  # far beyond any ruleset; a hostile file is not read whole
MAX_SHOWN_NAME = 120  # characters of a name from a file that a message repeats


def bundled_names() -> list[str]:
    folder = resources.files("referee.rules.rulesets")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def bundled_text(name: str) -> str:
    """Return the TOML text of the bundled ruleset ``name`` (one of :func:`bundled_names`)."""
    return resources.files("referee.rules.rulesets").joinpath(name + ".toml").read_text("utf-8")


def toml_options(text: str, origin: str) -> dict:
    """Read the table of a ruleset file's TOML text; raise RulesetError for text that is not
    TOML, nested too deep, or with an integer longer than Python reads from text (which the
    TOML reader lets out as a plain ValueError)."""
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as err:
        error = "nested too deep" if isinstance(err, RecursionError) else str(err)
        raise RulesetError(msg("{origin}: not valid TOML: {error}", origin=origin,
                               error=error)) from None
    except ValueError:
        raise RulesetError(msg("{origin}: a number of more than {digits} digits; no option "
                               "is that long, so the file is not read", origin=origin,
                               digits=f"{sys.get_int_max_str_digits():,}")) from None


def resolved_path(key: str, roots: tuple[str, ...] | None, is_base: bool,
                  written: str | None = None) -> str:
    """Resolve the file ``key`` names; with ``roots``, raise RulesetOutside for a file outside
    them, found without a look at it.  ``written``: the name as its file writes it, if not
    ``key``."""
    if roots is None:
        return os.path.realpath(key)
    found = resolved_within(key, roots)
    if found is None:
        shown = shown_name(key if written is None else written)
        raise RulesetOutside(msg("the ruleset file {file} is outside the folders a log may "
                                 "name, so it is not read", file=shown), shown, is_base)
    return found


def read_ruleset_file(key: str) -> str:
    """Read the text of a ruleset file as a log is read (bounded; devices and FIFOs
    refused)."""
    try:
        data = read_limited(key, MAX_RULESET_BYTES)
    except TooLong:
        raise RulesetError(msg("ruleset file {file} is more than {size} MiB; no ruleset is that "
                               "long, so it is not read", file=shown_name(key),
                               size=MAX_RULESET_BYTES // 2**20)) from None
    except UnreadableFile as err:
        try:
            os.stat(key)
        except (FileNotFoundError, NotADirectoryError):
            raise unknown_ruleset(key) from None
        except OSError:
            pass  # the reason is the read's, said below
        raise RulesetError(msg("cannot read ruleset file {file}: {error}", file=shown_name(key),
                               error=reason(err))) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        # TRANSLATORS: {reason} is Python's (English) reason, e.g. "invalid start byte"
        raise RulesetError(msg("cannot read ruleset file {file}: not UTF-8 ({reason} at byte "
                               "{byte})", file=shown_name(key), reason=err.reason,
                               byte=err.start)) from None


def unknown_ruleset(key: str) -> RulesetError:
    return RulesetError(msg("unknown ruleset {name}: bundled rulesets are {known}, or give a "
                            ".toml path", name=shown_name(key), known=", ".join(bundled_names())))


def reason(err: Exception) -> str:
    """Say why ``err`` was raised, as raised: a message stays one (``str(err)`` would flatten
    it to plain English, and another language could not show it)."""
    text = err.args[0] if len(err.args) == 1 else None
    return text if isinstance(text, str) else str(err)


def shown_name(name: str) -> str:
    """Quote a name from a file and cut it short, so that messages stay one readable line."""
    if len(name) > MAX_SHOWN_NAME:
        return repr(name[:MAX_SHOWN_NAME]) + "..."
    return repr(name)
