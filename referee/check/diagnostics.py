"""Plain records of what the referee found; renderers turn them into text or JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from referee.check.codes import BY_KIND, NOTE, SYNTAX
from referee.log.events import Span
from referee.util.record import Record, record


@record
class Related(Record):
    """Another line that is part of the evidence (``the 7S Beth played in trick 9``)."""

    line: int
    column: int
    note: str

    def __init__(self, line: int, column: int, note: str) -> None:
        self._fill(line, column, note)


@record
class Diagnostic(Record):
    """One violation: its kind and code, where it is, what it breaks, and the evidence.
    ``player``: who committed it where the kind's ``player_at_fault`` says so (codes.py),
    otherwise the player the claim or the entry concerns; None for no one player."""

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

    def __init__(self, kind: str, code: str, severity: str, line: int, column: int, end_line: int,
                 end_column: int, message: str, rule: str, hand: int | None = None,
                 trick: int | None = None, player: str | None = None, hint: str | None = None,
                 related: tuple[Related, ...] = (), pointer: str | None = None) -> None:
        self._fill(kind, code, severity, line, column, end_line, end_column, message, rule, hand,
                   trick, player, hint, related, pointer)

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
    """What the referee computed for one hand."""

    number: int
    points: dict[str, int]  # hand scores as the sheet should show them (after any moon)
    totals: dict[str, int]  # running totals computed by the referee
    complete: bool  # every trick was recorded, so the points are computed, not copied
    shooter: str | None = None
    lost: int = 0

    def __init__(self, number: int, points: dict[str, int], totals: dict[str, int],
                 complete: bool, shooter: str | None = None, lost: int = 0) -> None:
        self._fill(number, points, totals, complete, shooter, lost)


@dataclass(slots=True)
class Report:
    """Everything ``referee check`` says about one file."""

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
    """The report of a file that cannot be read as a log at all (exit code 2); ``problems``
    (an invalid JSON game record's, with a place and a pointer each) are one diagnostic each."""
    report = Report(path=path, unreadable=message, source=source)
    for p in problems:
        report.diagnostics.append(replace(make(
            SYNTAX, Span(p.line, p.column, p.end_line, p.end_column), p.message, rule="R10.1"),
            pointer=p.pointer))
    if not problems:
        report.diagnostics.append(make(SYNTAX, Span.point(line, column), message, rule="R10.1"))
    return report
