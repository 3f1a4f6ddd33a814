"""The cost of ``check`` in Python function calls per card play: a measure that does not
depend on the machine, its load or its clock.

    python bench/cost.py

Generates a few complete legal games with fixed seeds (:func:`referee.conformance.generate.
generate_game`), writes them as logs, checks each once to warm every cache and import, then
checks them again while ``sys.setprofile`` counts every call of a Python function and of a
built-in one (the profiler's ``call`` and ``c_call`` events).  The count divided by the games'
card plays is the figure; tests/test_cost_budget.py holds it under a budget.  The games are
clean, so ``check`` takes its clean-game path (:mod:`referee.judge.clean_game`); the second
figure counts the full check of the same games, which every log with a fault takes, and which has
a budget of its own.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# (players, seed): one game each of 6, 8 and 11 players, played to the end by the
# ``simple`` strategy (ducks, cancels, the occasional moon)
GAMES = ((6, 101), (8, 202), (11, 303))


def corpus() -> list[str]:
    """The logs of :data:`GAMES`, as the writer writes them."""
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset

    rules = load_ruleset("cancellation")
    return [write(generate_game(rules, players, seed=seed, strategy="simple"))
            for players, seed in GAMES]


def card_plays(texts: list[str]) -> int:
    """The card plays of logs written by the writer (one ``NAME CARD`` per comma-separated
    piece of a ``trick`` line)."""
    return sum(line.count(",") + 1 for text in texts for line in text.splitlines()
               if line.startswith("trick"))


def calls(texts: list[str], *, full: bool = False) -> int:
    """Python and built-in function calls made by checking each of ``texts`` once, after a
    first check of each (caches and imports warm); ``full``: without the clean-game path."""
    from referee.run.single import check_text
    from referee.judge import walk

    walk.CLEAN_GAMES = not full
    try:
        return _counted(texts, check_text)
    finally:
        walk.CLEAN_GAMES = True


def _counted(texts: list[str], check_text) -> int:
    for text in texts:
        check_text(text)
    # a collection during the count would call the finalizers of garbage that others left (z3's
    # objects have them): the count starts with none and lets none run
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    counted = 0

    def count(frame, event, arg):
        nonlocal counted
        if event == "call" or event == "c_call":
            counted += 1

    sys.setprofile(count)
    try:
        for text in texts:
            check_text(text)
    finally:
        sys.setprofile(None)
        if enabled:
            gc.enable()
    return counted


def main() -> int:
    texts = corpus()
    plays = card_plays(texts)
    for full in (False, True):
        made = calls(texts, full=full)
        print(f"{'full check' if full else 'check'} of {len(texts)} generated games, {plays} "
              f"card plays: {made} calls, {made / plays:.2f} calls per card play")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
