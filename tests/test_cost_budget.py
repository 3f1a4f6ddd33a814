"""The cost of ``check`` stays within its budget, counted in function calls, not seconds.

``bench/cost.py`` checks three generated games (fixed seeds) and counts every call of a
Python or built-in function the check makes (``sys.setprofile``), per card play: the same
count on every machine, however loaded, so a change that makes the check costlier fails
here, wherever it runs.  The games are clean, so ``check`` takes its clean-game path; the full
check of the same games (the way every log with a fault goes) has a budget of its own.  Each
budget is about 10% above the measured figure.

Raising a budget is a commit of its own, which says what the check now does that is worth
the calls.  A change that lowers a figure may lower the budget with it.
"""

from __future__ import annotations

import pytest

from bench.cost import calls, card_plays, corpus

# calls per card play measured by bench/cost.py, and the budget: (check, full check)
MEASURED = {False: 9.7, True: 21.4}
BUDGET = {False: 10.8, True: 23.7}


@pytest.mark.parametrize("full", [False, True], ids=["check", "full-check"])
def test_check_costs_at_most_the_budgeted_calls_per_card_play(full):
    texts = corpus()
    per_play = calls(texts, full=full) / card_plays(texts)
    assert per_play <= BUDGET[full], (
        f"check makes {per_play:.2f} calls per card play, over the budget of {BUDGET[full]} "
        f"(measured {MEASURED[full]}): find the new calls, or raise the budget in a commit "
        "that says why")


def test_the_measure_counts_the_same_on_a_second_run():
    texts = corpus()
    assert calls(texts) == calls(texts)
