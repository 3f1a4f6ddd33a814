"""This module writes SMT-LIB text without z3 (far faster than z3's Python API): the proved laws
(a :class:`Law`, its groups of instances), number and sum terms, and :class:`SmtOps`, which
reads the ops vocabulary of :mod:`referee.rules.ops` as text (so :mod:`referee.proofs.sheet_laws`
writes the scoresheet law as a ``define-fun``); :func:`connective` folds constants for every
symbolic ops.
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


def connective(xs, unit: bool, make: Callable[[list], object]):
    """Join ``xs`` by ``make`` with Python's constants folded: ``unit`` (True for and, False
    for or) drops out and its opposite decides the whole."""
    xs = [x for x in xs if x is not unit]
    if any(x is (not unit) for x in xs):
        return not unit
    return unit if not xs else xs[0] if len(xs) == 1 else make(xs)


def smt_int(value: int) -> str:
    return str(value) if value >= 0 else f"(- {-value})"


def smt_sum(terms: list[str]) -> str:
    if not terms:
        return "0"
    return terms[0] if len(terms) == 1 else "(+ " + " ".join(terms) + ")"


def smt_term(x) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    return smt_int(x) if isinstance(x, int) else x


class SmtOps:
    """SmtOps reads a rule statement of :mod:`referee.rules.ops` as SMT-LIB text (Python's
    constants folded), without z3."""

    symbolic = True

    def and_(self, xs):
        return connective(xs, True, lambda xs: f"(and {' '.join(map(smt_term, xs))})")

    def or_(self, xs):
        return connective(xs, False, lambda xs: f"(or {' '.join(map(smt_term, xs))})")

    def not_(self, x):
        return (not x) if isinstance(x, bool) else f"(not {x})"

    def ite(self, c, a, b):
        if isinstance(c, bool):
            return a if c else b
        return f"(ite {c} {smt_term(a)} {smt_term(b)})"

    def sum(self, xs):
        return smt_sum([smt_term(x) for x in xs])

    def times(self, k: int, x):
        return f"(* {smt_int(k)} {smt_term(x)})"

    def eq(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        return f"(= {smt_term(a)} {smt_term(b)})"

    def ge(self, a, b):
        if isinstance(a, int) and isinstance(b, int):
            return a >= b
        return f"(>= {smt_term(a)} {smt_term(b)})"
