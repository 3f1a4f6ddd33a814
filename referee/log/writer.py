"""Events -> canonical log text (``parse_log(write(events)).events == tuple(events)``), and
``referee fmt``'s canonical form of a whole log."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from referee.log.canonical import blank_before, format_event
from referee.log.decode import normalise
from referee.log.events import Comment, Event
from referee.log.parser import BLOCK_CHARS, SyntaxIssue, parse_blocks
from referee.util.collector import collector_paused

__all__ = ["format_pieces", "format_text", "write"]


def write(events: Iterable[Event], remarks: Mapping[int, str] | None = None) -> str:
    """Canonical text of a log; ``remarks``: the comment beside the statement of each index."""
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
    """The canonical form of a log (what ``referee fmt`` prints) and its syntax issues: a line
    with an issue is kept as written, runs of blank lines become one."""
    issues: list[SyntaxIssue] = []
    with collector_paused():  # (between the blocks as well as in them)
        return "".join(format_pieces(text, issues)), tuple(issues)


def format_pieces(text: str, issues: list[SyntaxIssue], size: int = BLOCK_CHARS) -> Iterator[str]:
    """:func:`format_text`'s text a block of lines at a time; the syntax issues are added to
    ``issues`` as the blocks are read."""
    text = normalise(text)
    lines = _Lines()
    held = None  # a block is formatted once the next one says where it ends
    for block in parse_blocks(text, size=size):
        issues.extend(block.issues)
        if held is not None:
            yield lines.block(text, held, block.start)
        held = block
    if held is not None:
        yield lines.block(text, held, len(text))


class _Lines:
    """The canonical lines of a log, a block at a time (a run of blank lines becomes one, none
    at the start or the end)."""

    def __init__(self) -> None:
        self.started = False  # a line has been written
        self.blank = False  # a blank line is owed before the next line written
        self.previous: Event | None = None  # the last statement (None after an unread line)

    def block(self, text: str, block, end: int) -> str:
        by_line = {event.span.line: event for event in block.events}
        bad_lines = {issue.line for issue in block.issues}
        rows = text[block.start:end].split("\n")
        if end < len(text) or text.endswith("\n"):
            rows.pop()  # the empty rest after the block's last newline
        out: list[str] = []
        blank, started, previous = self.blank, self.started, self.previous
        for number, line in enumerate(rows, start=block.line):
            event = None if number in bad_lines else by_line.get(number)
            if event is not None:
                blank = blank or blank_before(event, previous, started)
                if not isinstance(event, Comment):
                    previous = event
                comment = None if isinstance(event, Comment) else remark(line, event)
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
        self.blank, self.started, self.previous = blank, started, previous
        return "\n".join(out) + "\n" if out else ""


def remark(line: str, event: Event) -> str | None:
    """The comment after a statement on its ``line``, if any."""
    span = event.span
    if span.end_line != span.line:
        return None
    rest = line[span.end_column - 1:]
    cut = rest.find("#")
    return rest[cut:].rstrip() if cut >= 0 else None
