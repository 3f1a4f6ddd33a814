"""Which element of a view of the game each diagnostic concerns, and its explanation.

A diagnostic's place is where the referee put it: the first character of the card, entry,
claim or line it judges.  A view registers its elements by the place of their first
character (:meth:`Marks.take`); a diagnostic whose place is no element's is marked on the
row of its line (:meth:`Marks.rest_of_line`); any other is listed, not marked.
"""

from __future__ import annotations

from referee.judge.codes import BY_KIND
from referee.judge.diagnostics import Diagnostic
from referee.log.events import Span
from referee.rules.rulebook import clause_quote


class Marks:
    """The diagnostics of one report, by place, and where each has been marked."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.ids = [f"d{index + 1}" for index in range(len(diagnostics))]
        self.at: dict[tuple[int, int], list[str]] = {}
        self.on_line: dict[int, list[str]] = {}
        self.evidence_at: dict[tuple[int, int], list[str]] = {}
        for ident, diag in zip(self.ids, diagnostics):
            self.at.setdefault((diag.line, diag.column), []).append(ident)
            self.on_line.setdefault(diag.line, []).append(ident)
            for rel in diag.related:
                self.evidence_at.setdefault((rel.line, rel.column), []).append(ident)
        self.placed: dict[str, int | None] = {}  # diagnostic id -> hand it is marked in

    def take(self, span: Span | None, hand: int | None) -> list[str]:
        """The diagnostics at the first character of ``span``, now marked there."""
        if span is None:
            return []
        found = [i for i in self.at.get((span.line, span.column), ()) if i not in self.placed]
        for ident in found:
            self.placed[ident] = hand
        return found

    def evidence(self, span: Span | None) -> list[str]:
        """The diagnostics whose evidence includes the element at ``span``."""
        return list(self.evidence_at.get((span.line, span.column), ())) if span else []

    def rest_of_line(self, line: int, hand: int | None) -> list[str]:
        """The diagnostics on ``line`` that no element of it took: marked on its row."""
        found = [i for i in self.on_line.get(line, ()) if i not in self.placed]
        for ident in found:
            self.placed[ident] = hand
        return found


def explanations(diagnostics: list[Diagnostic], marks: Marks) -> list[dict]:
    """Each diagnostic with its explanation, the clause quoted, and where it is marked."""
    out = []
    for ident, diag in zip(marks.ids, diagnostics):
        entry = BY_KIND.get(diag.kind)
        quote = clause_quote(diag.rule)  # the clause as plain text, without markdown
        out.append({
            "id": ident, "code": diag.code, "kind": diag.kind, "severity": diag.severity,
            "line": diag.line, "column": diag.column, "message": diag.message,
            "hint": diag.hint, "hand": diag.hand, "trick": diag.trick, "player": diag.player,
            "summary": entry.summary if entry else "", "why": entry.why if entry else "",
            "clause": {key: quote[key] for key in ("id", "title", "text")},
            "related": [{"line": r.line, "column": r.column, "note": r.note}
                        for r in diag.related],
            "marked": ident in marks.placed,
            "shown_in_hand": marks.placed.get(ident, diag.hand),
        })
    return out
