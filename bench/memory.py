"""Peak memory against the size of one log: how many bytes of memory a byte of log costs.

    python bench/memory.py [--sizes 1 4]            # megabytes; bench/run.py runs it too
    python bench/memory.py --commands [--sizes 1 4] # every command that reads one whole file

Two shapes of one long file, each at two sizes: a played game (generated, legal, thousands of
hands under a target no one reaches) and a scoresheet (hand lines with score and total lines,
consistent). Each file is checked in a fresh process that reports its VmHWM; the slope between
the two sizes is the memory a megabyte of log costs (the fixed cost of Python and the package,
about 23 MB, is the intercept), and peak / size at the larger size is the multiple with that
fixed cost in. spec/hostile-input.md states both. `check` reads a log a block of lines at a time
and checks it a hand at a time (referee/judge/stream.py): what grows with the file is its text
and a packed summary per hand (about 1.8 MB per MB of a played log, 3 MB of a scoresheet).
tests/test_stream.py bounds the slope. Timings and sizes never fail anything.
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


# (name, shape, command line with {path} and {out}): every command that reads one whole file
COMMANDS = (
    ("check", "played", ["check", "{path}"]),
    ("check --invariants", "played", ["check", "--invariants", "{path}"]),
    ("check, JSON record", "record", ["check", "{path}"]),
    ("replay", "played", ["replay", "{path}"]),
    ("replay --format json", "played", ["replay", "--format", "json", "{path}"]),
    ("report", "played", ["report", "{path}", "-o", "{out}"]),
    ("fmt", "played", ["fmt", "{path}"]),
    ("convert (to a record)", "played", ["convert", "{path}"]),
    ("convert (to a log)", "record", ["convert", "{path}"]),
    ("check, scoresheet", "sheet", ["check", "{path}"]),
    ("audit", "sheet", ["audit", "{path}"]),
)


def record_file(megabytes: float) -> Path:
    """The played log of ``megabytes`` as a JSON game record (about 4.6 times its size)."""
    path = OUT / f"memory-record-{megabytes:g}mb.json"
    if not path.exists():
        from referee.run.convert import convert

        text, _ = convert(played_log(megabytes).read_text("utf-8"), "json")
        path.write_text(text, "utf-8")
    return path


def command_peak(argv: list[str]) -> tuple[int, float]:
    """(VmHWM in KiB, seconds) of one referee command in a fresh process, output discarded."""
    code = ("import sys, time\nfrom referee.cli import main\nstart = time.perf_counter()\n"
            "main(sys.argv[1:])\nseconds = time.perf_counter() - start\n"
            "peak = next(l.split()[1] for l in open('/proc/self/status')\n"
            "            if l.startswith('VmHWM'))\n"
            "sys.stderr.write(f'\\nPEAK {peak} {seconds}\\n')")
    done = subprocess.run([sys.executable, "-c", code, *argv], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, cwd=ROOT)
    last = done.stderr.rstrip().rsplit("\n", 1)[-1].split()
    return int(last[1]), float(last[2])


def commands_vs_size(sizes: tuple[float, float] = (1, 4)) -> dict:
    """For each command: its input's sizes, peaks and seconds at both sizes, the slope."""
    make = {"played": played_log, "sheet": sheet_log, "record": record_file}
    results = {}
    for name, shape, argv in COMMANDS:
        paths = [make[shape](size) for size in sizes]
        runs = [command_peak([a.format(path=p, out=OUT / "memory-report.html") for a in argv])
                for p in paths]
        sizes_mb = [p.stat().st_size / 1e6 for p in paths]
        peaks_mb = [kib * 1024 / 1e6 for kib, _ in runs]
        results[name] = {
            "file_mb": [round(s, 2) for s in sizes_mb], "peak_mb": [round(p, 1) for p in peaks_mb],
            "seconds": [round(t, 2) for _, t in runs],
            "mb_per_input_mb": (peaks_mb[1] - peaks_mb[0]) / (sizes_mb[1] - sizes_mb[0]),
            "input_mb_per_s": sizes_mb[1] / runs[1][1],
        }
    return results


def peak_kib(path: Path) -> int:
    # VmHWM of a fresh process, not ru_maxrss: that would include this parent's memory
    code = ("import sys\nfrom referee.run.single import check_path\ncheck_path(sys.argv[1])\n"
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
    parser.add_argument("--commands", action="store_true",
                        help="measure every command that reads one whole file")
    args = parser.parse_args(argv)
    if args.commands:
        return _commands(tuple(args.sizes))
    results = memory_vs_size(tuple(args.sizes))
    for shape, row in results.items():
        print(f"  {shape:<7} files {row['file_mb'][0]:.1f} / {row['file_mb'][1]:.1f} MB: peak "
              f"{row['peak_mb'][0]:.0f} / {row['peak_mb'][1]:.0f} MB; "
              f"{row['mb_per_log_mb']:.1f} MB per MB of log, peak {row['peak_over_size']:.0f}x "
              f"the file")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "memory.json").write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    return 0


def _commands(sizes: tuple[float, float]) -> int:
    results = commands_vs_size(sizes)
    print(f"  {'command':<22} {'input MB':>13} {'peak MB':>13} {'MB per MB':>9} {'seconds':>13}")
    for name, row in results.items():
        print(f"  {name:<22} {row['file_mb'][0]:>6.1f} {row['file_mb'][1]:>6.1f} "
              f"{row['peak_mb'][0]:>6.0f} {row['peak_mb'][1]:>6.0f} {row['mb_per_input_mb']:>9.1f} "
              f"{row['seconds'][0]:>6.1f} {row['seconds'][1]:>6.1f}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "memory-commands.json").write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
