"""This module writes events as canonical log text (``parse_log(write(events)).events ==
tuple(events)``), and makes ``referee fmt``'s canonical form of a whole log."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import chain, pairwise

from referee.log.canonical import blank_before, format_event
from referee.log.decode import normalise
from referee.log.events import Comment, Event
from referee.log.parser import BLOCK_CHARS, SyntaxIssue, parse_blocks
from referee.util.collector import collector_paused

__all__ = ["format_pieces", "format_text", "write"]


def write(events: Iterable[Event], remarks: Mapping[int, str] | None = None) -> str:
    """Write the canonical text of a log; ``remarks`` gives the comment beside the statement of
    each index."""
    lines: list[str] = []
    previous = None
    for index, event in enumerate(events):
        if blank_before(event, previous, bool(lines)) and lines[-1] != "":
            lines.append("")
        line = format_event(event)
        if remarks and index in remarks:
            line += "  " + remarks[index]
        lines.append(line)
        if not isinstance(event, Comment):
            previous = event
    return "\n".join(lines) + "\n" if lines else ""


def format_text(text: str) -> tuple[str, tuple[SyntaxIssue, ...]]:
    """Make the canonical form of a log (what ``referee fmt`` prints) and find its syntax issues:
    a line with an issue is kept as written, runs of blank lines become one."""
    issues: list[SyntaxIssue] = []
    with collector_paused():  # (between the blocks as well as in them)
        return "".join(format_pieces(text, issues)), tuple(issues)


def format_pieces(text: str, issues: list[SyntaxIssue], size: int = BLOCK_CHARS) -> Iterator[str]:
    """Yield :func:`format_text`'s text a block of lines at a time (a run of blank lines becomes
    one, none at the start or the end); add the syntax issues to ``issues`` as the blocks are
    read."""
    text = normalise(text)
    started = blank = False  # a line is written; a blank line is owed before the next one
    previous: Event | None = None  # the last statement (None after an unread line)
    # a block is formatted once the next one says where it ends
    for held, block in pairwise(chain(parse_blocks(text, size=size), (None,))):
        issues.extend(held.issues)
        end = len(text) if block is None else block.start
        by_line = {event.span.line: event for event in held.events}
        bad_lines = {issue.line for issue in held.issues}
        rows = text[held.start:end].split("\n")
        if end < len(text) or text.endswith("\n"):
            rows.pop()  # the empty rest after the block's last newline
        out: list[str] = []
        for number, line in enumerate(rows, start=held.line):
            event = None if number in bad_lines else by_line.get(number)
            if event is not None:
                blank = blank or blank_before(event, previous, started)
                comment = None
                if not isinstance(event, Comment):
                    previous, comment = event, remark(line, event)
                line = format_event(event) + ("  " + comment if comment else "")
            elif number not in bad_lines and not line.strip():  # blank lines: keep one
                blank = started
                continue
            else:  # a line with an issue, or not read at all (after too many issues): as written
                previous = None
            if blank:
                out.append("")
                blank = False
            out.append(line)
            started = True
        yield "\n".join(out) + "\n" if out else ""


def remark(line: str, event: Event) -> str | None:
    """Find the comment after a statement on its ``line``, if any."""
    span = event.span
    if span.end_line != span.line:
        return None
    rest = line[span.end_column - 1:]
    cut = rest.find("#")
    return rest[cut:].rstrip() if cut >= 0 else None
