"""Card plays checked per CPU second, for one or more source trees, measured alternately.

    python bench/speed.py [--games 120] [--seed 1] [--rounds 4] [--faulty] [TREE ...]

Each TREE is the root of a checkout (default: this one; give another worktree, e.g. one made
with ``git worktree add ../base COMMIT``, to compare).  The corpus is bench/run.py's
(complete legal games, cached in bench/out/).  Each round checks the whole corpus once in a
fresh process per tree, the trees in turn, so that a change in the machine's load hits every
tree alike; the figure is the best round's CPU time (``time.process_time``), which other
processes on a shared machine disturb less than the wall clock.  ``--faulty`` checks copies of
the games whose last total line is wrong: the clean-game path reads each to its end and the
full check reads it again, the most a fault adds to a check.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_ONE_ROUND = """
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
try:
    from referee.run.single import check_text
except ImportError:  # a tree from before referee/run/single.py
    from referee.check.replay import check_text
texts = [open(p, encoding="utf-8").read() for p in sys.argv[2:]]
check_text(texts[0])  # imports and the line reader, once
gc.collect()
start = time.process_time()
for text in texts:
    check_text(text)
print(json.dumps(time.process_time() - start))
"""


def _last_total_wrong(paths: list[str]) -> list[str]:
    """Copies of the logs at ``paths`` (in bench/out/) with the first entry of each log's last
    total line one more than written."""
    out = ROOT / "bench" / "out" / "faulty"
    out.mkdir(parents=True, exist_ok=True)
    copies = []
    for path in paths:
        lines = Path(path).read_text("utf-8").split("\n")
        at = max(i for i, line in enumerate(lines) if line.startswith("total: "))
        name, value = lines[at][len("total: "):].split(",")[0].rsplit(" ", 1)
        lines[at] = lines[at].replace(f"total: {name} {value}", f"total: {name} {int(value) + 1}", 1)
        copy = out / Path(path).name
        copy.write_text("\n".join(lines), "utf-8")
        copies.append(str(copy))
    return copies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", default=[str(ROOT)])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--faulty", action="store_true",
                        help="check each game with its last total line written wrong (a fault "
                             "the check meets only at the end of the log)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "bench"))
    from run import corpus  # bench/run.py's corpus, made once

    paths = [str(p) for p in corpus(args.games, args.seed)]
    if args.faulty:
        paths = _last_total_wrong(paths)
    plays = sum(line.count(",") + 1 for p in paths for line in open(p, encoding="utf-8")
                if line.startswith("trick"))
    best = {tree: float("inf") for tree in args.trees}
    for _ in range(args.rounds):
        for tree in args.trees:
            done = subprocess.run([sys.executable, "-c", _ONE_ROUND, str(Path(tree).resolve()),
                                   *paths], capture_output=True, text=True, check=True)
            best[tree] = min(best[tree], json.loads(done.stdout))
    print(f"{len(paths)} games, {plays} card plays; best of {args.rounds} rounds, CPU seconds")
    for tree, seconds in best.items():
        print(f"  {tree}: {seconds:.2f} s, {plays / seconds:,.0f} card plays/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
