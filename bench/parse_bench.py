"""Parse throughput: referee.log.parser.parse_log against a naive one-token-per-card grammar.

    python bench/parse_bench.py [--size 3000000] [--runs 5] [--seed 2026]

Generates a reproducible corpus of synthetic logs (bench/corpus.py), checks that parse_log
reads all of it without a syntax issue, then times, on the same text in the same process:

  * parse_log(text): the real parser (the common lines read with the grammar's terminals by
    referee/logfast.py, the rest by the coarse-terminal LALR grammar; events built as it
    goes);
  * the same with every line through Lark (``parser._parse(text, fast_lines=False)``), to
    show what the fast line reader is worth;
  * Lark(bench/naive_log.lark, parser="lalr").parse(text): the grammar written the obvious
    way (one token per card, name and comma), building the parse tree and nothing else.

Both are timed with the cyclic garbage collector paused (parse_log pauses it itself; the
naive parse is timed the same way so that the ratio compares parsers, not the collector).
Prints MB/s (MB = 10^6 bytes of UTF-8), microseconds per card play and the ratios, and writes
bench/out/parse.json.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lark  # noqa: E402

from bench.corpus import make_corpus  # noqa: E402
from referee.log.parser import _parse, parse_log  # noqa: E402

TARGET_MB_S = 3.0
TARGET_RATIO = 2.5


def _time(fn, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        collecting = gc.isenabled()
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            result = fn()
            times.append(time.perf_counter() - start)
        finally:
            if collecting:
                gc.enable()
        del result
    return times


def _load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # pragma: no cover - not on every platform
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=3_000_000, help="corpus size in characters")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of parse_log (median)")
    parser.add_argument("--naive-runs", type=int, default=3, help="timed runs of the naive grammar")
    parser.add_argument("--lark-runs", type=int, default=3,
                        help="timed runs with every line through Lark")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "parse.json")
    args = parser.parse_args(argv)

    load_before = _load()
    text = make_corpus(args.size, seed=args.seed)
    size = len(text.encode("utf-8"))
    lines = text.count("\n")

    check = parse_log(text)  # also builds the parser, outside the timings
    if check.issues:
        print(f"corpus does not parse cleanly: {check.issues[:3]}", file=sys.stderr)
        return 1
    events = len(check.events)
    plays = sum(len(event.plays) for event in check.events if hasattr(event, "plays"))
    del check

    naive = lark.Lark((ROOT / "bench" / "naive_log.lark").read_text("utf-8"), parser="lalr")
    ours = _time(lambda: parse_log(text), args.runs)
    theirs = _time(lambda: naive.parse(text), args.naive_runs)
    lark_only = _time(lambda: _parse(text, fast_lines=False), args.lark_runs)

    ours_s, theirs_s = statistics.median(ours), statistics.median(theirs)
    lark_s = statistics.median(lark_only)
    ours_mb, theirs_mb = size / ours_s / 1e6, size / theirs_s / 1e6
    ratio = theirs_s / ours_s
    report = {
        "corpus": {"bytes": size, "lines": lines, "events": events, "card_plays": plays,
                   "seed": args.seed},
        "parse_log": {"seconds": ours, "median_s": ours_s, "mb_per_s": round(ours_mb, 3),
                      "best_mb_per_s": round(size / min(ours) / 1e6, 3),
                      "us_per_card_play": round(ours_s / plays * 1e6, 3)},
        "every_line_through_lark": {"seconds": lark_only, "median_s": lark_s,
                                    "mb_per_s": round(size / lark_s / 1e6, 3)},
        "naive": {"seconds": theirs, "median_s": theirs_s, "mb_per_s": round(theirs_mb, 3),
                  "best_mb_per_s": round(size / min(theirs) / 1e6, 3)},
        "ratio": round(ratio, 2),
        "targets": {
            "mb_per_s": TARGET_MB_S, "ratio": TARGET_RATIO,
            "mb_per_s_met": ours_mb >= TARGET_MB_S, "ratio_met": ratio >= TARGET_RATIO,
        },
        "python": platform.python_version(),
        "lark": lark.__version__,
        "machine": {"platform": platform.platform(), "processor": platform.machine(),
                    "cpus": os.cpu_count(), "load_average_before": load_before, "load_average_after": _load()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", "utf-8")

    print(f"corpus     {size / 1e6:.2f} MB, {lines} lines, {events} events, {plays} card plays")
    print(f"parse_log  {ours_mb:6.2f} MB/s  (median of {len(ours)}: {ours_s:.3f} s; "
          f"{ours_s / plays * 1e6:.2f} us per card play)")
    print(f"all Lark   {size / lark_s / 1e6:6.2f} MB/s  (median of {len(lark_only)}: "
          f"{lark_s:.3f} s; the fast line reader is {lark_s / ours_s:.2f} x)")
    print(f"naive      {theirs_mb:6.2f} MB/s  (median of {len(theirs)}: {theirs_s:.3f} s)")
    print(f"ratio      {ratio:6.2f} x")
    print(f"load       {load_before} before, {report['machine']['load_average_after']} after (other work slows both)")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
