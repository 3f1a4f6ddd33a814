"""Golden tests: every bundled example log gives exactly its expected JSON output.

Regenerate with ``python examples/make_examples.py --expected`` (and review the diff).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.replay import check_path

ROOT = Path(__file__).resolve().parents[1]
LOGS = sorted((ROOT / "examples" / "logs").glob("*.log"))
KINDS_WITH_EXAMPLES = (
    "syntax", "bad-setup", "bad-deal", "bad-pass", "wrong-dealer", "wrong-leader", "out-of-turn",
    "card-not-held", "illegal-lead", "illegal-play", "revoke", "miscounted-cancellation",
    "wrong-winner", "score-mismatch", "bad-moon", "total-mismatch", "game-end",
)


def test_there_are_examples():
    names = {p.stem for p in LOGS}
    assert {f"clean-{n}-players" for n in range(6, 12)} <= names
    assert {"clean-standard", "play-only", "scoresheet-only", "stops-mid-trick"} <= names
    assert set(KINDS_WITH_EXAMPLES) <= names


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_example_matches_expected_output(path: Path):
    expected = json.loads(path.with_suffix(".expected.json").read_text("utf-8"))
    actual = check_path(path).to_json()
    actual["path"] = path.relative_to(ROOT).as_posix()
    assert actual == expected


@pytest.mark.parametrize("path", [p for p in LOGS if p.stem.startswith("clean-")], ids=lambda p: p.stem)
def test_clean_games_are_clean_and_finished(path: Path):
    report = check_path(path)
    assert report.verdict == "clean", [d.message for d in report.diagnostics]
    assert report.winners, "a complete game names its winners"
    assert all(h.complete for h in report.hands)
    last = report.hands[-1].totals
    assert max(last.values()) >= (100 if "standard" in path.stem else 150)


@pytest.mark.parametrize("kind", KINDS_WITH_EXAMPLES)
def test_each_kind_example_reports_exactly_that_kind(kind: str):
    report = check_path(ROOT / "examples" / "logs" / f"{kind}.log")
    assert [d.kind for d in report.diagnostics] == [kind]
