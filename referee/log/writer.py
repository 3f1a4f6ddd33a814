"""Events -> canonical log text, and ``referee fmt``'s canonical form of a whole log.

``parse_log(write(events)).events == tuple(events)`` for every list of events the parser can
produce (spans do not take part in equality).  Each statement is written as
:func:`referee.log.canonical.format_event` spells it; a blank line goes before each ``hand``.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.log.canonical import format_event
from referee.log.events import Comment, Event, HandStart
from referee.log.parser import ParseResult, SyntaxIssue, parse_log

__all__ = ["format_event", "format_text", "write"]


def write(events: Iterable[Event]) -> str:
    """Canonical text of a log: one statement per line, a blank line before each ``hand``."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, HandStart) and lines and lines[-1] != "":
            lines.append("")
        lines.append(format_event(event))
    return "\n".join(lines) + "\n" if lines else ""


def format_text(text: str) -> tuple[str, tuple[SyntaxIssue, ...]]:
    """The canonical form of a log (what ``referee fmt`` prints) and its syntax issues.

    Every readable statement is rewritten canonically, keeping its trailing comment; a line
    with a syntax issue (or that was not read) is kept exactly as written; runs of blank
    lines become one, and a blank line is put before each ``hand``.
    """
    result: ParseResult = parse_log(text)
    by_line = {event.span.line: event for event in result.events}
    bad_lines = {issue.line for issue in result.issues}
    out: list[str] = []
    for number, line in enumerate(result.text.split("\n"), start=1):
        if number in bad_lines:
            out.append(line)
            continue
        event = by_line.get(number)
        if event is None:
            if line.strip():  # not read at all (after too many issues): keep it as written
                out.append(line)
            elif out and out[-1] != "":  # blank lines: keep one
                out.append("")
            continue
        if isinstance(event, HandStart) and out and out[-1] != "":
            out.append("")
        out.append(format_event(event) + _trailing_comment(line, event))
    while out and out[-1] == "":
        out.pop()
    return ("\n".join(out) + "\n" if out else ""), result.issues


def _trailing_comment(line: str, event: Event) -> str:
    if isinstance(event, Comment):
        return ""
    rest = line[event.span.end_column - 1 :]
    cut = rest.find("#")
    return "  " + rest[cut:].rstrip() if cut >= 0 else ""
