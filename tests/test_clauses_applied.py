"""Every clause the check applies in a situation it reports or notes is cited there, and
`referee explain` reaches it from the clause and from the kinds that may cite it."""

from __future__ import annotations

from pathlib import Path

from referee.judge.codes import BY_KIND, all_codes
from referee.cli import main
from referee.run.single import check_text
from referee.rules.rulebook import clause_ids, clause_plain

ROOT = Path(__file__).resolve().parents[1]
# seven players, hand 1: trick 14 is set aside and its 2 points are lost (R6.6)
SET_ASIDE_LAST = (ROOT / "examples" / "corpus" / "009-cancellation-7p-set-aside-last.log")


def test_a_moon_declared_in_a_hand_with_lost_points_cites_no_moon_with_lost_points():
    text = SET_ASIDE_LAST.read_text("utf-8").replace("\nscore:", "\nmoon Fay subtract\nscore:")
    moons = [d for d in check_text(text).diagnostics if d.kind == "bad-moon"]
    assert [(d.rule, d.message) for d in moons] == [(
        "R8.4", "Fay is declared to have shot the moon but took 17 of the 52 points (2 were lost "
                "in a set-aside last trick)")]


def test_the_note_on_points_lost_in_a_set_aside_last_trick_cites_the_clause():
    lines = SET_ASIDE_LAST.read_text("utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(("deal", "pass", "kitty", "trick"))
            or line.startswith("trick 14:")]  # the sheet, and the last trick: set aside
    report = check_text("".join(kept))
    assert ("hand 1 adds up to 50: 2 points were lost in the set-aside last trick (R6.6), as the "
            "set-aside trick 14 on line 7 shows") in report.unchecked


def test_explain_names_the_kinds_that_apply_the_set_aside_last_trick(capsys):
    assert main(["explain", "R6.6"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("\nCited by: CH401 score-mismatch\n")
    assert main(["explain", "R8.4"]) == 0
    assert capsys.readouterr().out.endswith("\nCited by: CH402 bad-moon\n")
    assert main(["explain", "score-mismatch"]) == 0
    out = capsys.readouterr().out
    for cited in ("R6.5", "R6.6", "R6.7", "R7.1"):
        assert f"\nRule {cited} (spec/rules.md, where it is more precise):\n" \
               f"{clause_plain(cited)}\n" in out


def test_every_clause_but_the_summary_of_the_claims_is_one_a_kind_may_cite():
    cited = {clause for code in all_codes() for clause in code.clauses}
    # R10.6 says that every claim agrees with the rules: each claim's kind cites the rule
    assert [ident for ident in clause_ids() if ident not in cited] == ["R10.6"]
    assert {"R6.6", "R6.7", "R6.5", "R7.1"} <= set(BY_KIND["score-mismatch"].clauses)
