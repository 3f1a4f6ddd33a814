"""What a verified property reports, and the small z3 helpers the property modules share."""

from __future__ import annotations

from dataclasses import dataclass

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

    @property
    def status(self) -> str:
        if not self.applicable:
            return "n/a"
        return "holds" if self.holds else "FAILS"


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
