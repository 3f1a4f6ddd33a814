"""Where `referee check --invariants` spends its time beyond the plain check.

    python bench/z3_profile.py [--games 40] [--rounds 7] [--profile]

Generates the games bench/run.py's z3 block uses (``cancellation``, 6-11 players, to the end,
seeds ``seed * 1_000_003 + i``), then times ``check_bytes(t)`` and ``check_bytes(t,
invariants=True)`` in alternation (process CPU time, cyclic collector paused as in run.py) and
prints medians, the ratio and the extra time per game, and how ``attach_invariants`` splits it:
the check's setup and hand grouping redone, gathering each hand's records, writing the laws,
z3 deciding them.  ``--profile`` prints a cProfile of the invariants part instead.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.conformance.generate import generate_game  # noqa: E402
from referee.log.parser import parse_bytes  # noqa: E402
from referee.log.writer import write  # noqa: E402
from referee.proofs import invariants  # noqa: E402
from referee.run.single import check_bytes, check_parsed  # noqa: E402
from referee.rules.ruleset import load_ruleset  # noqa: E402


def games(count: int, seed: int) -> list[bytes]:
    rules = load_ruleset("cancellation")
    return [write(generate_game(rules, 6 + i % 6, seed=seed * 1_000_003 + i)).encode("utf-8")
            for i in range(count)]


def timed(fn) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        fn()
        return time.process_time() - start
    finally:
        gc.enable()


def split(data: list[bytes]) -> Counter:
    """Seconds per part of attach_invariants, over all games (the parts are wrapped)."""
    spent: Counter = Counter()
    parts = {"setup and grouping": ("table_for", "hand_records"), "gathering": ("gather",),
             "writing the laws": ("hand_laws",)}
    saved = {name: getattr(invariants, name) for names in parts.values() for name in names}

    def wrap(part, fn):
        def timed_call(*args, **kwargs):
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[part] += time.process_time() - start
        return timed_call

    for part, names in parts.items():
        for name in names:
            setattr(invariants, name, wrap(part, saved[name]))
    decide = invariants._Prover.decide
    invariants._Prover.decide = wrap("z3 deciding", decide)
    try:
        parsed = [parse_bytes(d) for d in data]
        reports = [check_parsed(p, "<bench>") for p in parsed]
        gc.disable()
        start = time.process_time()
        for p, r in zip(parsed, reports):
            invariants.attach_invariants(r, p)
        spent["all of attach_invariants"] = time.process_time() - start
        gc.enable()
    finally:
        for name, fn in saved.items():
            setattr(invariants, name, fn)
        invariants._Prover.decide = decide
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    data = games(args.games, args.seed)
    for d in data:  # import z3, read the definitions, warm the caches
        check_bytes(d, invariants=True)
    if args.profile:
        import cProfile
        import pstats

        parsed = [parse_bytes(d) for d in data]
        reports = [check_parsed(p, "<bench>") for p in parsed]
        profile = cProfile.Profile()
        profile.enable()
        for p, r in zip(parsed, reports):
            invariants.attach_invariants(r, p)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return 0
    plain, proved = [], []
    for _ in range(args.rounds):
        plain.append(timed(lambda: [check_bytes(d) for d in data]))
        proved.append(timed(lambda: [check_bytes(d, invariants=True) for d in data]))
    p, q = statistics.median(plain), statistics.median(proved)
    per = 1000 / len(data)
    print(f"{len(data)} games: check {p * per:.2f} ms/game, with invariants {q * per:.2f} ms/game, "
          f"extra {(q - p) * per:.2f} ms/game, ratio {q / p:.3f}")
    for part, seconds in split(data).most_common():
        print(f"  {part:26s} {seconds * per:6.2f} ms/game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
