"""The referee never raises, whatever a readable log says: mutated example logs."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from line_edits import edit_lines

from referee.run.single import check_text

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [p.read_text("utf-8") for p in sorted((ROOT / "examples" / "logs").glob("*.log"))
           if p.stat().st_size < 40_000]
ALL_LINES = sorted({line for text in SOURCES for line in text.splitlines() if line.strip()})
ODD_LINES = ["trick 7:", "hand 1", "hand 9 dealer Nobody pass across", "kitty:", "moon Al add",
             "score: Al 0", "total: Al 999", "winner: Al", "pass Al -> Al: 2C 3C 4C",
             "deal Al: 2C", "trick 1 Beth: 2C 3C", "[Players \"Al Beth\"]", "[Target \"-5\"]",
             "[Ruleset \"standard\"]", "trick 1: Al QS, Al QS, Al QS -> none"]


@st.composite
def mutated_logs(draw):
    lines = draw(st.sampled_from(SOURCES)).splitlines()
    lines = edit_lines(draw, lines, known=ALL_LINES, odd=ODD_LINES, most=6)
    return "\n".join(lines) + "\n"


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_logs())
def test_mutated_logs_give_diagnostics_never_exceptions(text):
    report = check_text(text)
    assert report.verdict in ("clean", "violations")
    for diag in report.diagnostics:
        assert diag.line >= 1 and diag.column >= 1 and diag.message and diag.rule


def test_stray_trick_before_the_first_hand_line():
    text = (ROOT / "examples" / "logs" / "clean-6-players.log").read_text("utf-8")
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("hand 1"))
    lines.insert(first, "trick 7:")
    del lines[next(i for i, line in enumerate(lines) if line.startswith("score:"))]
    report = check_text("\n".join(lines))
    assert report.verdict == "violations" and report.hands
