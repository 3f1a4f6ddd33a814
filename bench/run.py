"""The benchmark: one script, reproducible corpus, medians and ratios, JSON out.

    python bench/run.py [--games 2000] [--seed 1] [--runs 3] [--z3-games 40] [--quick]

Generates (once, cached in bench/out/corpus-SEED-GAMES/) complete legal games for 6-11
players played to the end, then measures in the same run:

* parse-only throughput of referee.log.parser (MB/s) and of a naive one-token-per-card Lark
  grammar on the same text (bench/naive_log.lark, bare ``Lark.parse``);
* full ``check`` throughput (games/s, MB/s, card plays/s) without and with the z3 invariants
  (the latter on the first --z3-games games: the median ratio of alternating runs of the full
  check with and without them, since the invariants follow the full check);
* cold start of ``referee check`` on one small log against ``python -c "import lark"``, both
  from bytecode (the package is byte-compiled first, as ``pip install`` does);
* peak memory of checking 1 file and many files in one process (independent of the count?),
  and against the size of one long file (bench/memory.py: MB of memory per MB of log);
* ``referee check --jobs 2`` against ``--jobs 1`` on the corpus directory.

Timings never fail anything: the script prints a table and writes bench/out/results.json.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT))

Z3_PAIRS = 7  # at least this many alternating plain/proved runs: their ratio is noisy

TARGETS = {
    "check_mb_s": 1.5, "plays_per_s": 150_000, "check_vs_naive_parse": 1.0,
    "z3_overhead": 1.5, "cold_start_ratio": 2.5, "jobs2_speedup": 1.7,
}


def corpus(games: int, seed: int) -> list[Path]:
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset

    folder = OUT / f"corpus-{seed}-{games}"
    paths = [folder / f"game-{i:05d}.log" for i in range(games)]
    if all(p.exists() for p in paths):
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    rules = load_ruleset("cancellation")
    for i, path in enumerate(paths):
        players = 6 + i % 6
        path.write_text(write(generate_game(rules, players, seed=seed * 1_000_003 + i)), "utf-8")
    return paths


def timed(fn, runs: int, *, paused: bool = False) -> float:
    """Median wall time of ``runs`` calls.  The collector runs as it would for a user (the
    referee pauses it itself while it parses and checks a file); ``paused`` gives a baseline
    its best case, with the collector paused throughout."""
    times = []
    for _ in range(runs):
        gc.collect()
        if paused:
            gc.disable()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
        gc.enable()
    return statistics.median(times)


def each(fn, items) -> None:
    """Call ``fn`` on every item and drop the results, as a user checking files one by one
    does (keeping a thousand parsed logs alive would make every collection rescan them)."""
    for item in items:
        fn(item)


def command_time(args: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                       cwd=ROOT)  # `-m referee` is this tree's package, not an installed one
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_memory_kib(paths: list[Path]) -> int:
    # VmHWM, not ru_maxrss: ru_maxrss survives exec and would report this parent's memory
    code = ("import sys\nfrom referee.run.single import check_path\n"
            "for p in sys.argv[1:]: check_path(p)\n"
            "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))")
    done = subprocess.run([sys.executable, "-c", code, *map(str, paths)], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    return int(done.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--z3-games", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="200 games, 1 run (a smoke test)")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.runs, args.z3_games = 200, 1, 10

    import lark

    from referee.log.parser import parse_log
    from referee.run.single import check_text

    paths = corpus(args.games, args.seed)
    texts = [p.read_text("utf-8") for p in paths]
    size_mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    plays = sum(line.count(",") + 1 for t in texts for line in t.splitlines()
                if line.startswith("trick"))
    results: dict = {"machine": f"{platform.machine()}, {platform.python_implementation()} "
                     f"{platform.python_version()}, {len(__import__('os').sched_getaffinity(0))} cores",
                     "games": len(texts), "megabytes": round(size_mb, 2), "plays": plays}

    parse_s = timed(lambda: each(parse_log, texts), args.runs)
    naive = lark.Lark((ROOT / "bench" / "naive_log.lark").read_text("utf-8"), parser="lalr")
    naive_s = timed(lambda: each(naive.parse, texts), args.runs, paused=True)
    check_s = timed(lambda: each(check_text, texts), args.runs)
    results.update(
        parse_mb_s=size_mb / parse_s, naive_parse_mb_s=size_mb / naive_s,
        parse_vs_naive=naive_s / parse_s, check_mb_s=size_mb / check_s,
        games_per_s=len(texts) / check_s, plays_per_s=plays / check_s,
        check_vs_naive_parse=naive_s / check_s,
    )

    if args.z3_games:
        from referee.judge import walk
        from referee.run.single import check_bytes

        subset = [t.encode("utf-8") for t in texts[: args.z3_games]]
        check_bytes(subset[0], invariants=True)  # import z3 and make the first solver once
        # what z3 adds to the walk it follows: --invariants takes the full check, so the plain
        # run takes it too (a plain check of a clean game would take the clean-game path);
        # plain and proved runs alternate, so drift in the machine's speed hits both alike
        ratios = []
        for _ in range(max(args.runs, Z3_PAIRS)):
            proved = timed(lambda: each(partial(check_bytes, invariants=True), subset), 1)
            walk.CLEAN_GAMES = False
            ratios.append(proved / timed(lambda: each(check_bytes, subset), 1))
            walk.CLEAN_GAMES = True
        results["z3_overhead"] = statistics.median(ratios)

    # An installed package runs from bytecode (pip compiles it, as it did lark's); a source tree
    # under PYTHONDONTWRITEBYTECODE would compile every module on every start instead.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "referee")], check=True)
    small = ROOT / "examples" / "logs" / "revoke.log"
    referee = [sys.executable, "-m", "referee", "check", str(small)]
    cold = command_time(referee, 7)
    lark_only = command_time([sys.executable, "-c", "import lark"], 7)
    results.update(cold_start_s=cold, import_lark_s=lark_only, cold_start_ratio=cold / lark_only)

    results["peak_kib_1_file"] = peak_memory_kib(paths[:1])
    results["peak_kib_many_files"] = peak_memory_kib(paths[:200])
    from memory import memory_vs_size

    results["memory_vs_size"] = growth = memory_vs_size()

    folder = str(paths[0].parent)
    base = [sys.executable, "-m", "referee", "check", "--format", "jsonl", folder]
    one = command_time(base + ["--jobs", "1"], 1)
    two = command_time(base + ["--jobs", "2"], 1)
    results.update(jobs1_s=one, jobs2_s=two, jobs2_speedup=one / two)

    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "results.json").write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    print(f"{results['machine']}; {len(texts)} games, {size_mb:.1f} MB, {plays} card plays")
    rows = [
        ("parse (MB/s)", results["parse_mb_s"], None),
        ("naive one-token-per-card parse (MB/s)", results["naive_parse_mb_s"], None),
        ("parse / naive parse", results["parse_vs_naive"], None),
        ("check (MB/s)", results["check_mb_s"], "check_mb_s"),
        ("check (games/s)", results["games_per_s"], None),
        ("check (card plays/s)", results["plays_per_s"], "plays_per_s"),
        ("check / naive bare parse (speed ratio)", results["check_vs_naive_parse"], "check_vs_naive_parse"),
        ("full check with z3 / without (time ratio)", results.get("z3_overhead"), "z3_overhead"),
        ("cold start referee check (s)", results["cold_start_s"], None),
        ("cold start / import lark (time ratio)", results["cold_start_ratio"], "cold_start_ratio"),
        ("peak memory, 1 file (KiB)", results["peak_kib_1_file"], None),
        ("peak memory, 200 files (KiB)", results["peak_kib_many_files"], None),
        ("--jobs 2 speed-up over --jobs 1", results["jobs2_speedup"], "jobs2_speedup"),
    ]
    for shape in ("played", "sheet"):
        rows += [(f"memory per MB of a {shape} log (MB)", growth[shape]["mb_per_log_mb"], None),
                 (f"peak / size of a {growth[shape]['file_mb'][1]:g} MB {shape} log",
                  growth[shape]["peak_over_size"], None)]
    for label, value, target in rows:
        shown = "-" if value is None else (f"{value:,.0f}" if value >= 1000 else f"{value:.2f}")
        goal = ""
        if target and value is not None:
            limit = TARGETS[target]
            better = value <= limit if target in ("z3_overhead", "cold_start_ratio") else value >= limit
            goal = f"target {'<=' if target in ('z3_overhead', 'cold_start_ratio') else '>='} {limit:g}: {'met' if better else 'NOT met'}"
        print(f"  {label:<42} {shown:>12}  {goal}")
    print(f"written to {OUT / 'results.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
