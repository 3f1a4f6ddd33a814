"""What ``check`` adds for a JSON game record: each diagnostic names the JSON pointer of the
value it is about, and an invalid record gives one diagnostic per problem."""

from __future__ import annotations

from dataclasses import replace

from referee.judge.diagnostics import Report, unreadable_report
from referee.log.decode import UnreadableLog
from referee.log.recognise import looks_like_record
from referee.rules.ruleset_files import reason

__all__ = ["point_into_record", "unreadable"]


def point_into_record(report: Report, text: str) -> None:
    """When ``text`` is a JSON record, give each diagnostic the pointer of the value it
    starts at (every value of a record starts at a place of its own)."""
    if not looks_like_record(text) or not report.diagnostics:
        return
    from referee.log.jsonrecord import record_pointers  # only for a record: a log needs none

    pointers = record_pointers(text, {(d.line, d.column) for d in report.diagnostics})
    report.diagnostics = [replace(d, pointer=pointers.get((d.line, d.column)))
                          for d in report.diagnostics]


def unreadable(path: str, err: UnreadableLog) -> Report:
    """The report of a file that is not a log (nor a valid record) at all."""
    from referee.log.jsonrecord import InvalidRecord

    if isinstance(err, InvalidRecord):
        return unreadable_report(path, reason(err), err.line, err.column, err.problems, err.text)
    shown = "\n" * (err.line - 1) + err.shown_line if err.shown_line else ""
    return unreadable_report(path, reason(err), err.line, err.column, source=shown)
