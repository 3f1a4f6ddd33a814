"""What a verified property reports, the budget it is proved within, and the small z3 helpers
the property modules share."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from referee.judge import codes
from referee.rules.cards import CARDS, card_text, sort_key


@dataclass
class PropertyResult:
    name: str
    holds: bool
    counterexample: str | None
    bounds: str
    detail: str = ""
    clause: str = ""
    applicable: bool = True
    seconds: float = 0.0
    witness: dict | None = None  # the counterexample as data (cards, holding, ...)
    undecided: bool = False  # past its budget: neither proved nor refuted (``detail`` says why)

    @property
    def status(self) -> str:
        if not self.applicable:
            return "n/a"
        if self.undecided:
            return codes.UNDECIDED  # what ``check``'s note of the same kind says of a law
        return "holds" if self.holds else "FAILS"


class Undecided(Exception):
    """A property's budget ran out before z3 answered; the message says where and which."""


_Z3_MAX_TIMEOUT_MS = 2**32 - 1  # z3 takes the timeout as an unsigned 32-bit number


@dataclass
class Budget:
    """The time one property may take (all its z3 questions together) and the largest trick
    or table it is asked about; :meth:`check` stands for ``solver.check()`` within it."""

    seconds: float
    max_players: int
    started: float = field(default_factory=time.perf_counter)

    def restart(self) -> Budget:
        return Budget(self.seconds, self.max_players)

    def check(self, solver, where: str):
        """``solver.check()`` with what is left of the time; :class:`Undecided` when none is
        left or z3 gives no answer."""
        z3 = z3_module()
        left = self.left()
        if left <= 0:
            raise Undecided(self.ran_out(where))
        solver.set("timeout", max(1, int(min(left * 1000, _Z3_MAX_TIMEOUT_MS))))
        result = solver.check()
        if result == z3.unknown:
            reason = solver.reason_unknown()
            if reason in ("timeout", "canceled"):
                raise Undecided(self.ran_out(where))
            raise Undecided(f"undecided: z3 answered unknown ({reason}; {where})")
        return result

    def left(self) -> float:
        return self.seconds - (time.perf_counter() - self.started)

    def ran_out(self, where: str) -> str:
        return f"undecided within {self.seconds:g} s ({where})"

    def asked(self, counts: range) -> range:
        """The part of ``counts`` (players, cards in a trick) within the size budget."""
        return range(counts.start, max(counts.start, min(counts.stop, self.max_players + 1)))

    def unasked(self, counts: range) -> str:
        asked = self.asked(counts)
        left = range(asked.stop, counts.stop)
        shown = f"{left.start}" if len(left) == 1 else f"{left.start}-{left.stop - 1}"
        done = f"; holds for {asked.start}-{asked.stop - 1}" if len(asked) else ""
        return (f"undecided: {shown} players not asked, past the size budget of "
                f"{self.max_players}{done}")


def each_size(budget: Budget, name: str, bounds: str, clause: str, sizes: range,
              at: Callable[[int], PropertyResult | None], shown: str) -> PropertyResult:
    """``at(n)`` (a failure, or None) for each n of ``sizes`` within the size budget: the first
    failure, the undecided result when a budget ran out, else the property holding (``shown``
    says what was shown)."""
    try:
        for n in budget.asked(sizes):
            if budget.left() <= 0:  # what z3's timeout cannot stop: building the next query
                raise Undecided(budget.ran_out(f"before tricks of {n} cards"))
            failure = at(n)
            if failure is not None:
                return failure
    except Undecided as err:
        return undecided_result(name, bounds, clause, str(err))
    if budget.asked(sizes) != sizes:
        return undecided_result(name, bounds, clause, budget.unasked(sizes))
    return PropertyResult(name, True, None, bounds, shown, clause)


def undecided_result(name: str, bounds: str, clause: str, detail: str) -> PropertyResult:
    return PropertyResult(name, False, None, bounds, detail, clause, undecided=True)


def z3_module():
    import z3

    return z3


def z3_bool(z3, x):
    """A model value as a z3 term (the model folds constant conditions to Python bools)."""
    return z3.BoolVal(x) if isinstance(x, bool) else x


def model_values(model, terms) -> list[int]:
    return [model.eval(t, model_completion=True).as_long() for t in terms]


def counts_text(counts_list: list[int]) -> str:
    cards = sorted((CARDS[c] for c, k in enumerate(counts_list) for _ in range(k)), key=sort_key)
    return " ".join(card_text(c) for c in cards)
