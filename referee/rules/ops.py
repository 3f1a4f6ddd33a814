"""This module reads the ops vocabulary that the rule statements are written over on plain
Python values; :mod:`referee.proofs` reads the same statements on z3 terms, some written out as
SMT-LIB text."""

from __future__ import annotations

import operator

from referee.rules.cards import NUM_RANKS


class PyOps:
    """PyOps evaluates a rule statement on plain Python ints and bools, with the builtins
    themselves where one fits: a builtin call costs no Python frame."""

    symbolic = False

    and_ = staticmethod(all)
    or_ = staticmethod(any)
    not_ = staticmethod(operator.not_)
    sum = staticmethod(sum)
    times = staticmethod(operator.mul)  # (k, x): the constant k times x
    div = staticmethod(operator.floordiv)  # (x, y): x divided by y > 0, rounded down
    mod = staticmethod(operator.mod)  # (x, y): the remainder of that division
    eq = staticmethod(operator.eq)
    lt = staticmethod(operator.lt)
    ge = staticmethod(operator.ge)

    @staticmethod
    def implies(a, b):
        return (not a) or b

    @staticmethod
    def ite(c, a, b):
        return a if c else b

    @staticmethod
    def suit(card):
        return card // NUM_RANKS


PLAIN = PyOps()  # stateless: one instance serves every caller
