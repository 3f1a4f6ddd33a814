"""The ops vocabulary of :mod:`referee.rules.ops` read as SMT-LIB text.

A rule statement run on :class:`SmtOps` gives the text of the same formula, with constant
parts folded as they are written (a Python ``True``/``False`` or int stays one): this is how
:mod:`referee.proofs.sheet_laws` writes the scoresheet law of :mod:`referee.rules.scoring` as a
``define-fun``.  Terms are strings; no z3 here.
"""

from __future__ import annotations

from referee.proofs.smt import connective, smt_int, smt_sum


def smt_term(x) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    return smt_int(x) if isinstance(x, int) else x


class SmtOps:
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
