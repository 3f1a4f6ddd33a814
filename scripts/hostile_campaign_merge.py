"""Adds up the parts of a campaign (scripts/hostile_campaign.py --start ... --out PART.json).

    python scripts/hostile_campaign_merge.py PART.json ... > whole.json
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict


def merged(parts: list[dict]) -> dict:
    runs: Counter = Counter()
    failures: dict[str, Counter] = defaultdict(Counter)
    by_kind: dict[str, Counter] = defaultdict(Counter)
    cli_runs: Counter = Counter()
    cli_failures: dict[str, Counter] = defaultdict(Counter)
    peak = 0
    for part in parts:
        runs.update(part["runs"])
        for name, counts in part["failures"].items():
            failures[name].update(counts)
        for kind, counts in part["by_kind"].items():
            by_kind[kind].update(counts)
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
            "cli": {"runs": sum(cli_runs.values()), "peak_rss_mb": peak,
                    "failures": {n: dict(sorted(c.items())) for n, c in sorted(cli_failures.items())}}}


if __name__ == "__main__":
    print(json.dumps(merged([json.load(open(path, encoding="utf-8")) for path in sys.argv[1:]]),
                     indent=2))
