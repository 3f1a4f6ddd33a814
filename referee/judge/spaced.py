"""A seated name with a space written without its quotes (``Mary Ann 7D``): the reader,
which does not know who is seated, finds the line unreadable; the check gives one diagnostic
at the name, saying to quote it (R10.1, R10.5)."""

from __future__ import annotations

import re

from referee.judge import codes
from dataclasses import replace

from referee.judge.diagnostics import Diagnostic, Report
from referee.util.message import msg

__all__ = ["quote_spaced_names"]


def quote_spaced_names(report: Report) -> None:
    """Each syntax diagnostic of a log whose line holds a seated name with a space, unquoted,
    is put on that name and says to quote it."""
    spaced = [name for name in report.players if " " in name]
    if not spaced or not any(d.kind == codes.SYNTAX for d in report.diagnostics):
        return
    # the longest first, so that "Mary Ann Lee" is found before "Mary Ann"
    words = (r"\s+".join(map(re.escape, name.split()))
             for name in sorted(spaced, key=len, reverse=True))
    pattern = re.compile(r'(?<![\w"“”„])(?:' + "|".join(words) + r')(?![\w"“”])',
                         re.IGNORECASE)
    lines = report.source.split("\n")
    report.diagnostics = [_quoted(d, lines, pattern) if d.kind == codes.SYNTAX and
                          d.pointer is None else d for d in report.diagnostics]


def _quoted(diagnostic: Diagnostic, lines: list[str], pattern: re.Pattern) -> Diagnostic:
    if not 0 < diagnostic.line <= len(lines):
        return diagnostic
    text = lines[diagnostic.line - 1]
    found = pattern.search(text)
    if found is None:
        return diagnostic
    written = found.group(0)
    start, end = found.span()
    fixed = pattern.sub(lambda other: f'"{other.group(0)}"', text)
    return replace(
        diagnostic, column=start + 1, end_line=diagnostic.line, end_column=end + 1,
        # TRANSLATORS: {name} is a player's name with a space, as written on the line
        message=msg('the name {name} has a space: write it in double quotes, "{name}"',
                    name=written),
        hint=msg("did you mean: {line}", line=fixed.strip()))
