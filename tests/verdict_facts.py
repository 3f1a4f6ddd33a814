"""Read the hand-written verdict facts (examples/*/facts.toml) and hold a report to them.

The facts files are written and reviewed by people; no script writes them.  This module only
reads them: ``load`` gives {log name: facts}, ``differences(facts, report)`` the list of ways a
referee report (or a JSON snapshot of one) differs from the facts, empty when it agrees.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

FACTS_FILE = "facts.toml"
KEYS = {"verdict", "diagnostics", "totals", "winners", "hands"}
DIAGNOSTIC_KEYS = {"kind", "line", "column", "player", "hand", "trick"}
VERDICTS = {"clean", "violations", "unreadable"}


def load(folder: Path) -> dict[str, dict]:
    """The facts of every log in ``folder``, keyed by the log's file name without ``.log``."""
    data = tomllib.loads((folder / FACTS_FILE).read_text("utf-8"))
    for name, facts in data.items():
        unknown = set(facts) - KEYS
        assert not unknown, f"{FACTS_FILE} [{name}]: unknown keys {sorted(unknown)}"
        assert facts.get("verdict") in VERDICTS, f"{FACTS_FILE} [{name}]: verdict {facts.get('verdict')!r}"
        for entry in facts.get("diagnostics", []):
            assert {"kind", "line", "column"} <= set(entry) <= DIAGNOSTIC_KEYS, \
                f"{FACTS_FILE} [{name}]: diagnostic {entry}"
        assert (facts["verdict"] == "violations") == bool(facts.get("diagnostics")), \
            f"{FACTS_FILE} [{name}]: a verdict of violations lists its diagnostics, any other none"
    return data


def _key(entry: dict) -> tuple:
    return (entry["kind"], entry["line"], entry["column"], entry.get("player"))


def _show(key: tuple) -> str:
    kind, line, column, player = key
    return f"{kind} at line {line} column {column}" + (f" ({player})" if player else "")


def differences(facts: dict, report: dict) -> list[str]:
    """How ``report`` (a report's ``to_json()``, or a snapshot of it) differs from ``facts``."""
    problems = []
    if report["verdict"] != facts["verdict"]:
        problems.append(f"verdict is {report['verdict']!r}, the facts say {facts['verdict']!r}")
    wanted = {_key(entry): entry for entry in facts.get("diagnostics", [])}
    found = {}
    for diagnostic in report["diagnostics"]:
        found.setdefault(_key(diagnostic), diagnostic)
    if len(found) != len(report["diagnostics"]):
        problems.append("the same (kind, line, column, player) is reported twice")
    problems += [f"missing: {_show(key)}" for key in wanted if key not in found]
    problems += [f"extra: {_show(key)}: {found[key]['message']}" for key in found if key not in wanted]
    for key, entry in wanted.items():
        for field in ("hand", "trick"):
            if key in found and field in entry and found[key][field] != entry[field]:
                problems.append(f"{_show(key)}: {field} {found[key][field]}, the facts say {entry[field]}")
    if "hands" in facts and len(report["hands"]) != facts["hands"]:
        problems.append(f"{len(report['hands'])} hands, the facts say {facts['hands']}")
    if "totals" in facts:
        totals = report["hands"][-1]["totals"] if report["hands"] else {}
        if totals != facts["totals"]:
            problems.append(f"final totals {totals}, the facts say {facts['totals']}")
    if report.get("winners") != facts.get("winners"):
        problems.append(f"winners {report.get('winners')}, the facts say {facts.get('winners')}")
    return problems
