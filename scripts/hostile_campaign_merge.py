"""Adds up the parts of a campaign (scripts/hostile_campaign.py --start ... --out PART.json),
or sets two whole campaigns side by side as a Markdown table.

    python scripts/hostile_campaign_merge.py PART.json ... > whole.json
    python scripts/hostile_campaign_merge.py --table BEFORE.json AFTER.json > table.md
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict

# the failure classes as the table names them, in its order
COLUMNS = {"traceback": "traceback", "internal error": "internal error",
           "raw output": "raw or invalid output", "hang > 10 s": "over 10 s",
           "memory > 1 GB": "over 1 GB", "wrong exit code": "wrong exit code"}


def merged(parts: list[dict]) -> dict:
    runs: Counter = Counter()
    failures: dict[str, Counter] = defaultdict(Counter)
    by_kind: dict[str, Counter] = defaultdict(Counter)
    details: dict[str, list] = defaultdict(list)
    cli_runs: Counter = Counter()
    cli_failures: dict[str, Counter] = defaultdict(Counter)
    peak = 0
    for part in parts:
        runs.update(part["runs"])
        for name, counts in part["failures"].items():
            failures[name].update(counts)
        for kind, counts in part["by_kind"].items():
            by_kind[kind].update(counts)
        for key, items in part.get("details", {}).items():
            details[key] += items
        cli = part.get("cli") or {}
        cli_runs.update(cli.get("runs", {}))
        for name, counts in cli.get("failures", {}).items():
            cli_failures[name].update(counts)
        peak = max(peak, cli.get("peak_rss_mb", 0))
    classes: Counter = Counter()
    for counts in failures.values():
        classes.update(counts)
    return {"code": parts[0]["code"], "inputs": sum(p["inputs"] for p in parts),
            "seconds": sum(p["seconds"] for p in parts),
            "runs": dict(sorted(runs.items())),
            "failures": {n: dict(sorted(c.items())) for n, c in sorted(failures.items())},
            "by_class": dict(sorted(classes.items())),
            "by_kind": {k: dict(sorted(c.items())) for k, c in sorted(by_kind.items())},
            "details": dict(sorted(details.items())),
            "cli": {"runs": sum(cli_runs.values()), "peak_rss_mb": peak,
                    "failures": {n: dict(sorted(c.items())) for n, c in sorted(cli_failures.items())}}}


def table(before: dict, after: dict) -> str:
    """Runs and failures per command and class, before / after (a dash: none)."""
    names = sorted(set(before["runs"]) | set(after["runs"]))
    used = [c for c in COLUMNS if any(c in side["failures"].get(name, {})
                                      for side in (before, after) for name in names)]
    lines = ["| command | runs | " + " | ".join(COLUMNS[c] for c in used) + " |",
             "|---" * (len(used) + 2) + "|"]

    def cell(name: str, what: str) -> str:
        pair = [side["failures"].get(name, {}).get(what, 0) for side in (before, after)]
        return "-" if pair == [0, 0] else f"{pair[0]:,} / {pair[1]:,}"

    for name in names:
        lines.append(f"| `{name}` | {after['runs'].get(name, 0):,} | "
                     + " | ".join(cell(name, c) for c in used) + " |")
    totals = [f"{before['by_class'].get(c, 0):,} / {after['by_class'].get(c, 0):,}"
              for c in used]
    lines.append(f"| all | {sum(after['runs'].values()):,} | " + " | ".join(totals) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--table"]:
        print(table(*(json.load(open(path, encoding="utf-8")) for path in sys.argv[2:4])))
    else:
        print(json.dumps(merged([json.load(open(path, encoding="utf-8"))
                                 for path in sys.argv[1:]]), indent=2))
