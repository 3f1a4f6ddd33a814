"""This module says what an injected violation is expected to give: its verdict, and why none
could be made."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass


class CannotInject(Exception):
    """CannotInject says that this game offers no place for the violation (try another seed)."""


@dataclass(frozen=True, slots=True)
class Expected:
    kind: str
    line: int
    hand: int | None = None
    trick: int | None = None
    player: str | None = None

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Expected:
        return cls(data["kind"], data["line"], data.get("hand"), data.get("trick"),
                   data.get("player"))

    def matches(self, diagnostic) -> bool:
        """Tell whether a referee diagnostic is this violation: same kind and line, and the
        same hand, trick and player wherever this verdict names them."""
        return (diagnostic.kind == self.kind and diagnostic.line == self.line
                and all(want is None or getattr(diagnostic, name) == want
                        for name, want in (("hand", self.hand), ("trick", self.trick),
                                           ("player", self.player))))


def expected_document(violations: list[Expected], *, log: str | None = None, **about) -> dict:
    """Return the expected verdict of one log as JSON: ``clean`` with no violations, else
    ``violations`` with each one's kind, line, hand, trick and player (null: not named)."""
    document = {"log": log, "verdict": "violations" if violations else "clean",
                "violations": [v.to_json() for v in violations]}
    document.update(about)
    return document


def json_text(data) -> str:
    """Write a JSON file's text as the referee writes one: indented, UTF-8, a final newline."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
