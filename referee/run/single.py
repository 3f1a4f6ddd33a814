"""This module checks one log: :func:`check`, the public entry point, and the ``check_*``
functions (docs/api.md).  ``invariants=True`` also proves the z3 invariants on the same parse
(:class:`referee.proofs.invariants.InvariantWatch`; z3 is imported only then).
"""

from __future__ import annotations

import os
from pathlib import Path

from referee.judge import walk
from referee.judge.diagnostics import Report
from referee.judge.table import DEFAULT_MAX_DIAGNOSTICS
from referee.log.parser import ParseResult
from referee.rules.ruleset import Ruleset

__all__ = ["check", "check_bytes", "check_parsed", "check_path", "check_text"]


def _prover(invariants: bool):
    if not invariants:
        return None
    from referee.proofs.invariants import InvariantWatch

    return InvariantWatch


def check(path: str | os.PathLike | None = None, *, text: str | None = None,
          data: bytes | None = None, **options) -> Report:
    """Check one log and return its report: the file at ``path``, or the log's ``text``, or
    its bytes (``data``), exactly one of them; the options of :func:`check_path` (docs/api.md)."""
    if text is not None and data is None:
        return check_text(text, "<string>" if path is None else os.fspath(path), **options)
    if data is not None and text is None:
        return check_bytes(data, "<bytes>" if path is None else os.fspath(path), **options)
    if text is not None or path is None:
        raise TypeError("check() takes one log: a path, text= or data=")
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"check() takes a path as a str or os.PathLike, not "
                        f"{type(path).__name__}: give a log's text as text= and its bytes "
                        "as data=")
    if isinstance(path, str) and "\n" in path:
        raise ValueError("check() was given text with a line break as a path: give a log's "
                         "text as text=")
    return check_path(path, **options)


def check_path(path: str | Path, *, invariants: bool = False,
               max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS, ruleset: Ruleset | None = None,
               allowed_dirs: tuple[str | Path, ...] = ()) -> Report:
    """Check one log file; a file that cannot be read gives an ``unreadable`` report (read
    within :data:`MAX_FILE_BYTES`, whatever size it reports; devices and FIFOs refused)."""
    return walk.judge_path(path, watch=_prover(invariants), max_diagnostics=max_diagnostics,
                           ruleset=ruleset, allowed_dirs=allowed_dirs)


def check_bytes(data: bytes, path: str = "<stdin>", *, base_dir: Path | None = None,
                invariants: bool = False, max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS,
                ruleset: Ruleset | None = None,
                allowed_dirs: tuple[str | Path, ...] = ()) -> Report:
    """Check the bytes of one log; ``base_dir`` is its folder, if it has one."""
    return walk.judge_bytes(data, path, base_dir=base_dir, watch=_prover(invariants),
                            max_diagnostics=max_diagnostics, ruleset=ruleset,
                            allowed_dirs=allowed_dirs)


def check_text(text: str, path: str = "<string>", *, invariants: bool = False,
               max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS, ruleset: Ruleset | None = None,
               allowed_dirs: tuple[str | Path, ...] = ()) -> Report:
    """Check the text of one log, which has no folder."""
    return check_bytes(text.encode("utf-8"), path, invariants=invariants,
                       max_diagnostics=max_diagnostics, ruleset=ruleset,
                       allowed_dirs=allowed_dirs)


def check_parsed(parsed: ParseResult, path: str, *, base_dir: Path | None = None,
                 trace: list | None = None, invariants: bool = False,
                 ruleset: Ruleset | None = None,
                 allowed_dirs: tuple[str | Path, ...] = ()) -> Report:
    """Referee a parsed log; ``trace``, when given, receives every finished trick."""
    return walk.judge_parsed(parsed, path, base_dir=base_dir, trace=trace,
                             watch=_prover(invariants), ruleset=ruleset,
                             allowed_dirs=allowed_dirs)
