"""Mutation testing of the rules: every one-line change to a rule must be caught by the tests.

    python scripts/mutation.py                 # every mutation, 2 at a time
    python scripts/mutation.py --list          # the mutations, numbered
    python scripts/mutation.py --only 3 17     # some of them
    python scripts/mutation.py --jobs 1 --json out.json

Each mutation (:data:`MUTATIONS` in scripts/mutations.py) names a file, one exact piece of its
text (found exactly once, so a mutation never lands on the wrong line) and its replacement.
The script copies the repository into a temporary directory, applies one mutation there and
runs first the tests named for it, then, if they all still pass, the whole suite: a mutation
that survives both is a survivor, a rule the tests do not hold.  The checkout itself is never
changed.  A mutation whose text is no longer in the file is reported as stale (the code moved
on: update the list).  Before the mutations, the unmutated copy must pass every named test (a control).  Exit
code: 0 when every mutation is killed, 1 with survivors or stale mutations, 2 when the control
fails.  This is not part of the test suite: a full run takes several minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mutations import MUTATIONS, Mutation  # noqa: E402

COPIED = ("referee", "tests", "grammars", "spec", "examples", "pyproject.toml")
STAGE_TIMEOUT = 900  # seconds; a mutation that makes the suite hang counts as killed


@dataclass
class Outcome:
    number: int
    mutation: Mutation
    status: str  # killed, survived, stale
    stage: str = ""  # which run killed it: "named" tests or the "suite"
    detail: str = ""
    seconds: float = 0.0


def _copy_tree(target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "out")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore)
        else:
            shutil.copy2(source, target / name)


def apply(tree: Path, mutation: Mutation) -> str | None:
    """Apply the mutation inside ``tree``; the reason it cannot be applied, or None."""
    path = tree / mutation.path
    text = path.read_text("utf-8")
    found = text.count(mutation.find)
    if found != 1:
        return f"{mutation.find!r} occurs {found} times in {mutation.path}"
    path.write_text(text.replace(mutation.find, mutation.replace), "utf-8")
    return None


def _pytest(tree: Path, tests: list[str]) -> tuple[bool, str]:
    """Run pytest in the copy; (passed, the first failing test or the last output line)."""
    env = {**os.environ, "CI": "true", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
               "--no-header", *tests]
    try:
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True,
                              timeout=STAGE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {STAGE_TIMEOUT} s"
    lines = done.stdout.strip().splitlines()
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    return done.returncode == 0, (failed[0] if failed else lines[-1] if lines else "")


def run_one(number: int, mutation: Mutation) -> Outcome:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="referee-mutant-") as folder:
        tree = Path(folder)
        _copy_tree(tree)
        problem = apply(tree, mutation)
        if problem is not None:
            return Outcome(number, mutation, "stale", detail=problem)
        for stage, tests in (("named", list(mutation.tests)), ("suite", [])):
            if stage == "named" and not tests:
                continue
            passed, detail = _pytest(tree, tests)
            if not passed:
                return Outcome(number, mutation, "killed", stage, detail,
                               time.perf_counter() - start)
        return Outcome(number, mutation, "survived", "", "every test passed",
                       time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the mutations and stop")
    parser.add_argument("--only", type=int, nargs="*", help="run only these numbers")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", help="also write the outcomes to this file")
    args = parser.parse_args(argv)
    chosen = [(i, m) for i, m in enumerate(MUTATIONS, 1) if not args.only or i in args.only]
    if args.list:
        for i, m in chosen:
            print(f"{i:3}  {m.path}: {m.why}")
        return 0
    named = sorted({test for _, m in chosen for test in m.tests})
    if named:  # a control: the copy itself passes, so a failure below is the mutation's doing
        with tempfile.TemporaryDirectory(prefix="referee-control-") as folder:
            _copy_tree(Path(folder))
            passed, detail = _pytest(Path(folder), named)
        if not passed:
            print(f"the unmutated copy fails its named tests: {detail}")
            return 2
    print(f"{len(chosen)} mutations, {args.jobs} at a time", flush=True)
    outcomes = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for outcome in pool.map(lambda item: run_one(*item), chosen):
            outcomes.append(outcome)
            where = f" by the {outcome.stage} tests" if outcome.stage else ""
            print(f"{outcome.number:3} {outcome.status}{where} ({outcome.seconds:.0f} s): "
                  f"{outcome.mutation.path}: {outcome.mutation.why}"
                  + (f"\n      {outcome.detail}" if outcome.status != "killed" else ""),
                  flush=True)
    tally = {s: sum(o.status == s for o in outcomes) for s in ("killed", "survived", "stale")}
    print(f"{len(outcomes)} mutations: {tally['killed']} killed, {tally['survived']} survived, "
          f"{tally['stale']} stale")
    if args.json:
        Path(args.json).write_text(json.dumps([
            {"number": o.number, "path": o.mutation.path, "why": o.mutation.why,
             "status": o.status, "stage": o.stage, "detail": o.detail,
             "seconds": round(o.seconds, 1)} for o in outcomes], indent=2) + "\n", "utf-8")
    return 0 if tally["survived"] == tally["stale"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
