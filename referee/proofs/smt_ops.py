"""This module writes the proved laws of ``check --invariants`` as SMT-LIB text without z3 (far
faster than z3's Python API): a :class:`Law`, its groups of instances, number and sum terms, and the
``define-fun`` texts they share (:data:`DEFINITIONS`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from referee.judge.diagnostics import Related
from referee.log.events import Span

DEFINITIONS: dict[str, str] = {}  # name -> its define-fun; only ever added to


@dataclass(slots=True)
class Item:
    """An Item holds one instance of a law: an SMT-LIB boolean, and what to say if z3 refutes
    it."""

    smt: str
    say: str
    span: Span
    related: tuple[Related, ...] = ()


@dataclass(slots=True)
class Group:
    """A Group holds instances checked together; ``expand`` gives them one by one when z3
    refutes the group."""

    atoms: list[str]  # the distinct instances
    expand: Callable[[], list[Item]]
    ground: bool = True  # no quantifier: decided together with the rest of the log

    @property
    def smt(self) -> str:
        return self.atoms[0] if len(self.atoms) == 1 else "(and " + " ".join(self.atoms) + " true)"


@dataclass(slots=True)
class Law:
    name: str
    clause: str
    groups: list[Group] = field(default_factory=list)
    detail: str = ""
    status: str | None = None  # preset for laws decided without z3 ("skipped")
    partial: bool = False  # proved only for what is recorded: reported as skipped, with detail
    failures: list[Item] = field(default_factory=list)

    def skip(self, detail: str) -> Law:
        """Skip the law (the record does not hold what it is about), for ``detail``."""
        self.status, self.detail = "skipped", detail
        return self


def smt_int(value: int) -> str:
    return str(value) if value >= 0 else f"(- {-value})"


def smt_sum(terms: list[str]) -> str:
    if not terms:
        return "0"
    return terms[0] if len(terms) == 1 else "(+ " + " ".join(terms) + ")"
