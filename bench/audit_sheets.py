"""CPU time and peak memory of ``referee audit`` on scoresheets a club writes, with slips.

    python bench/audit_sheets.py [--checkout DIR ...] [--timeout SECONDS]

Four kinds of sheet, each made from a fixed seed: sheets of about 100 entries (10 players and
5 hands, 6 players and 8 hands) with three random slips; an 8-player, 8-hand sheet with a swap,
a total carried one too high for five hands and a typo; 166 hands of 6 players with twenty
random slips, among them totals carried too high to the end of the sheet; 250 hands of 4
players under ``standard`` with six random slips.  Each sheet is audited by each checkout in
turn (the runs alternate, so a busy machine weighs on both alike) in a fresh process; the
figures are that process's CPU time, its children's included, and the peak resident memory of
the largest of them.  Timings never fail anything.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"

PROBE = """
import resource, subprocess, sys, json
run = subprocess.run([sys.executable, "-m", "referee", "audit", *sys.argv[2:]], cwd=sys.argv[1],
                     capture_output=True, text=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024,
                  "exit": run.returncode, "out": run.stdout[-300:]}))
"""


def _random_hand(rng: random.Random, players: int, whole: int) -> list[int]:
    cuts = sorted(rng.randint(0, whole) for _ in range(players - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, whole])]


def slipped(rng: random.Random, players: int, hands: int, slips: int, whole: int = 52,
            carried: int = 0) -> tuple[list[list[int]], list[list[int]]]:
    """(scores, totals) of a consistent sheet with ``slips`` random slips: a score or total
    off by 1 or 10, two scores swapped; ``carried`` of them a total carried on to the end."""
    scores = [_random_hand(rng, players, whole) for _ in range(hands)]
    totals, running = [], [0] * players
    for row in scores:
        running = [t + s for t, s in zip(running, row)]
        totals.append(running)
    totals = [list(row) for row in totals]
    for number in range(slips):
        hand, seat = rng.randrange(hands), rng.randrange(players)
        kind = 0 if number < carried else rng.randrange(1, 4)
        if kind == 0:
            for later in range(hand, hands):
                totals[later][seat] += 1
        elif kind == 1:
            scores[hand][seat] += rng.choice([-10, -1, 1, 10])
        elif kind == 2:
            totals[hand][seat] += rng.choice([-10, -1, 1, 10])
        else:
            other = (seat + 1) % players
            scores[hand][seat], scores[hand][other] = scores[hand][other], scores[hand][seat]
    return scores, totals


def sheet(names, scores, totals, ruleset: str = "cancellation") -> str:
    lines = [f'[Ruleset "{ruleset}"]', f'[Players "{" ".join(names)}"]', '[Target "1000000000"]']
    for score, total in zip(scores, totals):
        lines.append("score: " + ", ".join(f"{n} {v}" for n, v in zip(names, score)))
        lines.append("total: " + ", ".join(f"{n} {v}" for n, v in zip(names, total)))
    return "\n".join(lines) + "\n"


NAMES = ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay", "Gus", "Hana"]
NAMES10 = NAMES + ["Ivo", "Jo"]


def sheets() -> dict[str, str]:
    sys.path.insert(0, str(ROOT))
    from tests.audit_sheets import three_slips

    made = {"8 players, 8 hands, 3 slips": three_slips()}
    for seed in range(2):
        made[f"100 entries (10 players, 5 hands), 3 slips, seed {seed}"] = sheet(
            NAMES10, *slipped(random.Random(seed), 10, 5, 3))
        made[f"96 entries (6 players, 8 hands), 3 slips (1 carried on), seed {seed}"] = sheet(
            NAMES[:6], *slipped(random.Random(50 + seed), 6, 8, 3, carried=1))
    for seed in range(2):
        made[f"166 hands of 6 players, 20 slips (4 carried on), seed {seed}"] = sheet(
            NAMES[:6], *slipped(random.Random(100 + seed), 6, 166, 20, carried=4))
    made["250 hands of 4 players under standard, 6 slips"] = sheet(
        NAMES[:4], *slipped(random.Random(7), 4, 250, 6, whole=26), "standard")
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", action="append", default=[],
                        help="a checkout to audit with (default: this one); give two to compare")
    parser.add_argument("--timeout", default="10")
    args = parser.parse_args()
    checkouts = args.checkout or [str(ROOT)]
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in sheets().items():
        path = OUT / ("audit-" + "".join(c if c.isalnum() else "-" for c in name) + ".log")
        path.write_text(text, "utf-8")
        for checkout in checkouts:
            probe = subprocess.run([sys.executable, "-c", PROBE, checkout, str(path),
                                    "--timeout", args.timeout, "--solutions", "1"],
                                   capture_output=True, text=True, check=True)
            got = json.loads(probe.stdout)
            verdict = got["out"].strip().splitlines()[-1][-90:] if got["out"].strip() else ""
            print(f"{name} | {checkout} | {got['cpu']:.2f} s | {got['rss_mb']:.0f} MB | "
                  f"exit {got['exit']} | {verdict}", flush=True)


if __name__ == "__main__":
    main()
