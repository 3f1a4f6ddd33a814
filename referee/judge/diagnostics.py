"""This module holds plain records of what the referee found; renderers turn them into text or
JSON."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from struct import error as struct_error
from struct import pack, unpack

from referee.judge.codes import BY_KIND, NOT_CHECKED, NOTE, SYNTAX
from referee.log.events import Span
from referee.util.record import Record, record


@record
class Related(Record):
    """A Related names another line that is part of the evidence
    (``the 7S Beth played in trick 9``)."""

    line: int
    column: int
    note: str


@record
class Diagnostic(Record):
    """A Diagnostic records one violation: its kind and code, where it is, what it breaks, and the
    evidence.  ``player`` is who committed it where the kind's ``player_at_fault`` says so
    (codes.py), otherwise the player the claim or the entry concerns; it is None for no one
    player."""

    kind: str
    code: str
    severity: str
    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    rule: str
    hand: int | None = None
    trick: int | None = None
    player: str | None = None
    hint: str | None = None
    related: tuple[Related, ...] = ()
    pointer: str | None = None  # in a JSON game record, the JSON pointer of the faulty value

    def to_json(self) -> dict:
        data = asdict(self)
        data["related"] = [asdict(r) for r in self.related]
        if self.pointer is None:  # a log has none: its output stays as it was
            del data["pointer"]
        return data


def make(
    kind: str, span: Span, message: str, *, rule: str | None = None, hand: int | None = None,
    trick: int | None = None, player: str | None = None, hint: str | None = None,
    related: tuple[Related, ...] = (),
) -> Diagnostic:
    entry = BY_KIND[kind]
    return Diagnostic(
        kind, entry.code, entry.severity, span.line, span.column, span.end_line, span.end_column,
        message, rule or entry.clause, hand, trick, player, hint, related,
    )


@record
class HandSummary(Record):
    """A HandSummary holds what the referee computed for one hand: ``points`` (hand scores, after
    any moon) and ``totals``, each by name in seat order; it holds them compactly, since a long
    sheet has many hands."""

    number: int
    names: tuple[str, ...] = field(repr=False)
    numbers: bytes | tuple[int, ...] = field(repr=False)  # the points (or none), the totals
    scored: int = field(repr=False)  # how many of ``numbers`` are points: 0 or len(names)
    complete: bool  # every trick was recorded, so the points are computed, not copied
    shooter: str | None = None
    lost: int = 0

    @classmethod
    def seated(cls, number: int, names: tuple[str, ...], points: Sequence[int] | None,
               totals: Sequence[int] | None, complete: bool, shooter: str | None = None,
               lost: int = 0) -> HandSummary:
        """Return the summary of numbers in seat order, for the ``names`` of the table."""
        return cls(number, names, _numbers(*(points or ()), *(totals or ())),
                   len(points) if points else 0, complete, shooter, lost)

    @property
    def points(self) -> dict[str, int]:
        return dict(zip(self.names, _unpacked(self.numbers)[:self.scored])) if self.scored else {}

    @property
    def totals(self) -> dict[str, int]:
        return dict(zip(self.names, _unpacked(self.numbers)[self.scored:]))

    def __repr__(self) -> str:
        return (f"HandSummary(number={self.number!r}, points={self.points!r}, "
                f"totals={self.totals!r}, complete={self.complete!r}, "
                f"shooter={self.shooter!r}, lost={self.lost!r})")


def _numbers(*numbers: int) -> bytes | tuple[int, ...]:
    """Pack ``numbers`` as 64-bit integers (8 bytes each instead of an object each), or return them
    as they are when one does not fit."""
    try:
        return pack(f"{len(numbers)}q", *numbers)
    except struct_error:
        return numbers


def _unpacked(numbers: bytes | tuple[int, ...]) -> tuple[int, ...]:
    return unpack(f"{len(numbers) // 8}q", numbers) if isinstance(numbers, bytes) else numbers


@dataclass(slots=True)
class Report:
    """A Report holds everything ``referee check`` says about one file."""

    path: str
    ruleset: str | None = None
    players: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    hands: list[HandSummary] = field(default_factory=list)
    winners: list[str] | None = None
    unchecked: list[str] = field(default_factory=list)
    unreadable: str | None = None  # why the file could not be read as a log at all
    source: str = ""  # the decoded text, for excerpts (not in JSON)
    invariants: list[dict] = field(default_factory=list)
    suppressed: dict[str, int] = field(default_factory=dict)  # kind -> diagnostics not kept

    @property
    def verdict(self) -> str:
        if self.unreadable is not None:
            return "unreadable"
        # a note says what could not be decided; it alone does not make a file faulty
        return "violations" if any(d.severity != NOTE for d in self.diagnostics) else "clean"

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "ruleset": self.ruleset,
            "verdict": self.verdict,
            "players": self.players,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "suppressed": self.suppressed,
            "hands": [
                {"number": h.number, "points": h.points, "totals": h.totals,
                 "complete": h.complete, "shooter": h.shooter, "lost": h.lost}
                for h in self.hands
            ],
            "winners": self.winners,
            "unchecked": self.unchecked,
            "error": self.unreadable,
            "invariants": self.invariants,
        }


def unreadable_report(path: str, message: str, line: int = 1, column: int = 1,
                      problems: tuple = (), source: str = "") -> Report:
    """Make the report of a file that cannot be read as a log at all (exit code 2); ``problems`` (an
    invalid JSON game record's, with a place and a pointer each) become one diagnostic each."""
    report = Report(path=path, unreadable=message, source=source)
    for p in problems:
        report.diagnostics.append(replace(make(
            SYNTAX, Span(p.line, p.column, p.end_line, p.end_column), p.message, rule="R10.1"),
            pointer=p.pointer))
    if not problems:
        report.diagnostics.append(make(SYNTAX, Span.point(line, column), message, rule="R10.1"))
    return report


def not_checked_report(path: str, message: str) -> Report:
    """Make the report of a file the referee could not finish checking: it counts as unreadable as
    far as the run is concerned (exit code 2), but does not say that the log is at fault."""
    report = Report(path=path, unreadable=message)
    report.diagnostics.append(make(NOT_CHECKED, Span.point(1, 1), message))
    return report
