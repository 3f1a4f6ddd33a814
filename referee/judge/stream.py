"""This module reads a log's statements a block at a time (:class:`Stream`), with a :class:`Watch`
following the walk, so that a check holds one hand at once; and it concludes the findings into the
report.  A scan of the lines that may be tags finds first any setup tags written after play begins;
a reading that stops before one is not :attr:`Stream.exact` and is read again."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

from referee.judge import codes
from referee.judge.diagnostics import Diagnostic, HandSummary, Report, unreadable_report
from referee.judge.hand_record import HandRecord, Unread, unread_lines, with_unread
from referee.judge.setup import is_setup_tag
from referee.judge.table import Findings
from referee.log.decode import UnreadableLog
from referee.log.events import Comment, Event, Span, Tag
from referee.log.parser import BLOCK_CHARS, STOP_FAILED, Block, SyntaxIssue, nothing_read
from referee.log.parser import parse_blocks, tags_after
from referee.log.recognise import looks_like_record
from referee.rules.ruleset_files import reason
from referee.util.message import msg


class Watch:
    """A Watch follows one check's walk as it goes (each statement, finished trick and hand, then
    the report); it is made once the table is set, and the defaults follow nothing."""

    # given every finished trick (TracedTrick) by ``append``, when not None
    trace: object = None

    def statements(self, events: Iterable[Event | Unread]) -> Iterable[Event | Unread]:
        return events

    def hand(self, record: HandRecord, summary: HandSummary) -> None:
        pass

    def finish(self, report: Report) -> None:
        pass


def conclude(report: Report, findings: Findings) -> None:
    """Conclude the findings into the report: the diagnostics in the order of their places (at one
    place a syntax diagnostic first), the notes, the counts."""
    report.diagnostics = sorted(findings.items,
                                key=lambda d: (d.line, d.column, d.kind != codes.SYNTAX))
    report.unchecked = findings.notes()
    report.suppressed = findings.suppressed
    quote_spaced_names(report)


def add_syntax(findings: Findings, issues: tuple[SyntaxIssue, ...]) -> None:
    """Add one ``syntax`` diagnostic for each unreadable line."""
    for issue in issues:
        findings.add(codes.SYNTAX, Span(issue.line, issue.column, issue.end_line, issue.end_column),
                     issue.message, hint=issue.hint)


class Stream:
    """A Stream reads the statements of one log (normalised ``text``), a block of about ``size``
    characters at a time: first :meth:`setup_events`, then :meth:`statements` or :meth:`drain`."""

    def __init__(self, text: str, findings: Findings, size: int = BLOCK_CHARS, *,
                 late_before: int | None = None) -> None:
        self.text, self.findings = text, findings
        findings.text = text
        # late setup tags from this line on are not given to the setup: the whole file's
        # reading, which stops at that line, never reaches them
        self._late_before = late_before
        self._items = self._read(parse_blocks(text, size=size))
        self._header: list[Event | Unread] = []  # up to the first statement of play
        self._block: Block | None = None  # the block being read
        self._first_issue: SyntaxIssue | None = None
        self.stop_line: int | None = None  # the reading stopped here (too many problems)
        self._late_line = 0  # the last late setup tag the setup was given
        self.failed = False  # the reading failed (an internal error of the line reader)

    def setup_events(self) -> list[Event]:
        """Return the tags and comments before play, the first statement of play, and the setup tags
        after it.  Raise UnreadableLog when the log has no statement (comments aside)."""
        first = None
        for item in self._items:
            self._header.append(item)
            if not isinstance(item, (Unread, Comment, Tag)):
                first = item
                break
        events = [e for e in self._header if not isinstance(e, Unread)]
        if first is None:
            if not any(isinstance(e, Tag) for e in events):
                raise nothing_read(self._first_issue)
            return events
        block = self._block
        assert block is not None
        late = tags_after(self.text, block.start, block.line, is_setup_tag)
        if late is None:
            self.failed = True
            return events
        before = self._late_before
        late = [tag for tag in late
                if tag.span.line > first.span.line and (before is None or tag.span.line < before)]
        if late:
            self._late_line = late[-1].span.line
        return events + late

    def statements(self) -> Iterator[Event | Unread]:
        """Yield every statement and unreadable line, the header's first."""
        header, self._header = self._header, []
        yield from header
        yield from self._items

    def drain(self) -> None:
        """Read the rest (its syntax diagnostics) without judging it."""
        for _ in self._items:
            pass

    @property
    def exact(self) -> bool:
        """Tell whether what was judged is what the whole file's reading gives."""
        return not self.failed and (self.stop_line is None or self._late_line < self.stop_line)

    def _read(self, blocks: Iterable[Block]) -> Iterator[Event | Unread]:
        for block in blocks:
            self._block = block
            issues = block.issues
            if not issues:
                yield from block.events
                continue
            if self._first_issue is None:
                self._first_issue = issues[0]
            add_syntax(self.findings, issues)
            if block.stop is not None:
                self.failed = self.failed or block.stop == STOP_FAILED
                self.stop_line = issues[-1].line
            unread = unread_lines(self.text, (issue.line for issue in issues), block.start,
                                  block.line)
            yield from with_unread(block.events, unread)


# -- what a report adds: a JSON record's pointers, a spaced name's quotes ---------------
def point_into_record(report: Report, text: str) -> None:
    """Give each diagnostic the pointer of its value when ``text`` is a JSON record."""
    if not looks_like_record(text) or not report.diagnostics:
        return
    from referee.log.jsonrecord import record_pointers  # only for a record: a log needs none

    pointers = record_pointers(text, {(d.line, d.column) for d in report.diagnostics})
    report.diagnostics = [replace(d, pointer=pointers.get((d.line, d.column)))
                          for d in report.diagnostics]


def unreadable(path: str, err: UnreadableLog) -> Report:
    """Make the report of a file that is not a log (nor a valid record) at all."""
    from referee.log.jsonrecord import InvalidRecord

    if isinstance(err, InvalidRecord):
        return unreadable_report(path, reason(err), err.line, err.column, err.problems, err.text)
    shown = "\n" * (err.line - 1) + err.shown_line if err.shown_line else ""
    return unreadable_report(path, reason(err), err.line, err.column, source=shown)


_SINGLE_QUOTED = re.compile("['‘](\"[^\"]*\")['’]")  # a name quoted both ways by the repair


def quote_spaced_names(report: Report) -> None:
    """Make each syntax diagnostic on a line with a seated name with a space, unquoted, say to quote
    it (R10.1, R10.5)."""
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
    if text[start - 1:start] in ("'", "‘") and text[end:end + 1] in ("'", "’"):
        start, end = start - 1, end + 1  # single quotes, as in the Players tag: they go too
    fixed = _SINGLE_QUOTED.sub(r"\1", pattern.sub(lambda other: f'"{other.group(0)}"', text))
    return replace(
        diagnostic, column=start + 1, end_line=diagnostic.line, end_column=end + 1,
        # TRANSLATORS: {name} is a player's name with a space, as written on the line
        message=msg('the name {name} has a space: write it in double quotes, "{name}"',
                    name=written),
        hint=msg("did you mean: {line}", line=fixed.strip()))
