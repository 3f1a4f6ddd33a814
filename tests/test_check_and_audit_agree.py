"""`check` and `audit` blame the same entries of a scoresheet whose slip has one smallest
correction: a reader is never told by one to fix what the other calls right."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import check_path
from referee.check.codes import SCORE_MISMATCH, TOTAL_MISMATCH
from referee.log.parser import parse_text
from referee.proofs.audit import audit_scoresheet
from referee.rules.ruleset import load_ruleset

LOGS = Path(__file__).resolve().parents[1] / "examples" / "logs"


@pytest.mark.parametrize("name", ["swapped-scores", "total-mismatch"])
def test_check_blames_the_entries_audit_corrects(name):
    path = LOGS / f"{name}.log"
    report = check_path(path)
    blamed = {(d.line, d.column) for d in report.diagnostics
              if d.kind in (SCORE_MISMATCH, TOTAL_MISMATCH)}
    parsed = parse_text(path.read_text("utf-8"))
    audit = audit_scoresheet(parsed, load_ruleset(report.ruleset), report.players, seconds=30)
    assert not audit.consistent and not audit.more and len(audit.suggestions) == 1
    assert blamed == {(fix.line, fix.column) for fix in audit.suggestions[0]}
