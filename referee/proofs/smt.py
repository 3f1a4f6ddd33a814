"""SMT-LIB text for the proved laws: a law, its groups of instances, and number and sum terms;
and :func:`connective`, the constant folding of ``and``/``or`` that every symbolic ops shares.

The laws (:mod:`referee.proofs.invariant_laws`, :mod:`referee.proofs.sheet_laws`) are written
as text and handed to z3 by :mod:`referee.proofs.invariants`; nothing here imports z3.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from referee.judge.diagnostics import Related
from referee.log.events import Span

DEFINITIONS: dict[str, str] = {}  # name -> its define-fun; only ever added to


@dataclass(slots=True)
class Item:
    """One instance of a law: an SMT-LIB boolean, and what to say if z3 refutes it."""

    smt: str
    say: str
    span: Span
    related: tuple[Related, ...] = ()


@dataclass(slots=True)
class Group:
    """Instances checked together; ``expand`` gives them one by one when z3 refutes the group."""

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


def connective(xs, unit: bool, make: Callable[[list], object]):
    """``xs`` joined by ``make`` with Python's constants folded: ``unit`` (True for and, False
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
