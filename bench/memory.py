"""Peak memory against the size of one log: how many bytes of memory a byte of log costs.

    python bench/memory.py [--sizes 1 4]   # megabytes; bench/run.py runs it too

Two shapes of one long file, each at two sizes: a played game (generated, legal, thousands of
hands under a target no one reaches) and a scoresheet (hand lines with score and total lines,
consistent). Each file is checked in a fresh process that reports its VmHWM; the slope between
the two sizes is the memory a megabyte of log costs (the fixed cost of Python and the package,
about 23 MB, is the intercept), and peak / size at the larger size is the multiple with that
fixed cost in. spec/hostile-input.md states both. `check` reads a log a block of lines at a time
and replays it a hand at a time (referee/check/stream.py): what grows with the file is its text
and a packed summary per hand (about 1.7 MB per MB of a played log, 3 MB of a scoresheet; 21 and
28 when the whole file's events were held). tests/test_stream.py bounds the slope. Timings and
sizes never fail anything.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT))

PLAYERS = ("Al", "Beth", "Charlie", "Dave", "Eve", "Fay")
SHEET_SCORES = (0, 13, 0, 13, 0, 26)  # one hand's points: the two decks' 52
HAND_BYTES_6P = 1850  # about one generated 6-player hand in log text


def played_log(megabytes: float) -> Path:
    path = OUT / f"memory-played-{megabytes:g}mb.log"
    if not path.exists():
        from referee.conformance.generate import generate_game
        from referee.log.writer import write
        from referee.rules.ruleset import load_ruleset, with_options

        rules = with_options(load_ruleset("cancellation"), target=10**9)
        hands = max(1, int(megabytes * 1e6 / HAND_BYTES_6P))
        OUT.mkdir(parents=True, exist_ok=True)
        path.write_text(write(generate_game(rules, len(PLAYERS), seed=11, hands=hands)), "utf-8")
    return path


def sheet_log(megabytes: float) -> Path:
    path = OUT / f"memory-sheet-{megabytes:g}mb.log"
    if not path.exists():
        lines = ['[Ruleset "cancellation"]', f'[Players "{" ".join(PLAYERS)}"]',
                 '[Target "1000000000"]', ""]
        totals, size, hand = [0] * len(PLAYERS), 0, 0
        while size < megabytes * 1e6:
            hand += 1
            totals = [t + s for t, s in zip(totals, SHEET_SCORES)]
            block = (f"hand {hand}\n"
                     f"score: {', '.join(f'{n} {s}' for n, s in zip(PLAYERS, SHEET_SCORES))}\n"
                     f"total: {', '.join(f'{n} {t}' for n, t in zip(PLAYERS, totals))}\n")
            lines.append(block)
            size += len(block)
        OUT.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines), "utf-8")
    return path


def peak_kib(path: Path) -> int:
    # VmHWM of a fresh process, not ru_maxrss: that would include this parent's memory
    code = ("import sys\nfrom referee.replay import check_path\ncheck_path(sys.argv[1])\n"
            "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    return int(done.stdout.strip())


def memory_vs_size(sizes: tuple[float, float] = (1, 4)) -> dict:
    """For each shape: the files' sizes and peaks, the slope (MB of memory per MB of log)
    and the peak at the larger size as a multiple of its file size."""
    results = {}
    for shape, make in (("played", played_log), ("sheet", sheet_log)):
        small, large = make(sizes[0]), make(sizes[1])
        sizes_mb = [p.stat().st_size / 1e6 for p in (small, large)]
        peaks_mb = [peak_kib(p) * 1024 / 1e6 for p in (small, large)]
        results[shape] = {
            "file_mb": [round(s, 2) for s in sizes_mb], "peak_mb": [round(p, 1) for p in peaks_mb],
            "mb_per_log_mb": (peaks_mb[1] - peaks_mb[0]) / (sizes_mb[1] - sizes_mb[0]),
            "peak_over_size": peaks_mb[1] / sizes_mb[1],
        }
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=float, nargs=2, default=(1, 4), metavar="MB")
    results = memory_vs_size(tuple(parser.parse_args(argv).sizes))
    for shape, row in results.items():
        print(f"  {shape:<7} files {row['file_mb'][0]:.1f} / {row['file_mb'][1]:.1f} MB: peak "
              f"{row['peak_mb'][0]:.0f} / {row['peak_mb'][1]:.0f} MB; "
              f"{row['mb_per_log_mb']:.1f} MB per MB of log, peak {row['peak_over_size']:.0f}x "
              f"the file")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "memory.json").write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
