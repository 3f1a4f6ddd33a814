"""The cost of ``check`` stays within its budget, counted in function calls, not seconds.

``bench/cost.py`` checks three generated games (fixed seeds) and counts every call of a
Python or built-in function the check makes (``sys.setprofile``), per card play: the same
count on every machine, however loaded, so a change that makes the check costlier fails
here, wherever it runs.  The measured figure is 23.1 calls per card play; the budget is
about 10% above it.

Raising the budget is a commit of its own, which says what the check now does that is worth
the calls.  A change that lowers the figure may lower the budget with it.
"""

from __future__ import annotations

from bench.cost import calls, card_plays, corpus

MEASURED = 23.1  # calls per card play, bench/cost.py
BUDGET = 25.4  # MEASURED plus about 10%


def test_check_costs_at_most_the_budgeted_calls_per_card_play():
    texts = corpus()
    per_play = calls(texts) / card_plays(texts)
    assert per_play <= BUDGET, (
        f"check makes {per_play:.2f} calls per card play, over the budget of {BUDGET} "
        f"(measured {MEASURED}): find the new calls, or raise the budget in a commit that "
        "says why")


def test_the_measure_counts_the_same_on_a_second_run():
    texts = corpus()
    assert calls(texts) == calls(texts)
