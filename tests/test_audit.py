"""Scoresheet audit: hand-made sheets with known errors."""

from __future__ import annotations

import pytest

from referee.log.parser import parse_log
from referee.proofs.audit import AuditResult, Fix
from referee.proofs.audit import audit_scoresheet
from referee.proofs.partial import partial_record_conflicts
from referee.rules.ruleset import load_ruleset, with_options

pytestmark = pytest.mark.slow  # z3 optimisation of score sheets

PLAYERS = ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]
HANDS = [[10, 14, 0, 5, 13, 10], [0, 15, 20, 2, 13, 2], [-26, 0, 0, 0, 0, 0], [30, 0, 22, 0, 0, 0]]
RULES = load_ruleset("cancellation")


def rows(hands=HANDS, totals=True):
    out, running = [], [0] * len(hands[0])
    for scores in hands:
        running = [a + b for a, b in zip(running, scores)]
        out.append([list(scores), list(running) if totals else None])
    return out


def text(table, players=PLAYERS) -> str:
    lines = [f'[Players "{" ".join(players)}"]']
    for scores, totals in table:
        lines.append("score: " + ", ".join(f"{p} {v}" for p, v in zip(players, scores)))
        if totals is not None:
            lines.append("total: " + ", ".join(f"{p} {v}" for p, v in zip(players, totals)))
    return "\n".join(lines) + "\n"


def audit(table, rules=RULES, players=PLAYERS, **kw) -> AuditResult:
    return audit_scoresheet(parse_log(text(table, players)), rules, players, **kw)


def test_a_consistent_sheet_needs_no_change():
    result = audit(rows())
    assert result.consistent and result.suggestions == [] and result.changes == 0
    assert result.moons == [3] and result.lost == {}
    assert result.text() == ("the scoresheet is consistent: every hand sums to 52 (hand 3 read "
                             "as a moon) and every total adds up")


def test_one_wrong_score_is_found_with_its_line_and_column():
    table = rows()
    table[1][0][1] = 14  # Beth's hand 2 score: 15 written as 14; totals were added right
    result = audit(table)
    assert not result.consistent and result.changes == 1 and not result.more
    (fix,) = result.suggestions[0]
    assert fix == Fix(2, "Beth", "score", 14, 15, 4, fix.column)
    assert text(table).split("\n")[fix.line - 1][fix.column - 1:].startswith("Beth 14")
    assert result.text() == ("change Beth's hand 2 score from 14 to 15; then every hand sums "
                             "to 52 (hand 3 read as a moon) and every total adds up")


def test_one_wrong_total_is_found():
    table = rows()
    table[1][1][2] += 5  # Charlie's hand 2 total; hand 3's total follows the true running sum
    result = audit(table)
    assert [[(f.hand, f.player, f.field, f.old, f.new)] for f in result.suggestions[0]] == [
        [(2, "Charlie", "total", 25, 20)]]


def test_two_errors_need_two_changes():
    table = rows()
    table[0][0][0] += 1  # Al and Beth's hand 1 scores swapped a point; totals are right
    table[0][0][1] -= 1
    result = audit(table)
    assert result.changes == 2
    assert {(f.player, f.new) for f in result.suggestions[0]} == {("Al", 10), ("Beth", 14)}
    assert " and change " in result.text()


def test_several_minimal_corrections_are_listed_up_to_the_limit():
    table = rows(totals=False)
    table[1][0][3] = 3  # hand 2 sums to 53 and no total says whose score is wrong
    result = audit(table, max_solutions=3)
    assert result.changes == 1 and len(result.suggestions) == 3 and result.more
    assert len({(fix[0].player, fix[0].hand) for fix in result.suggestions}) == 3
    assert all(sum(HANDS[1]) + 1 - f[0].old + f[0].new == 52 for f in result.suggestions)
    assert result.text().startswith("hand 2 adds up to 53, one more than the decks hold; "
                                    "3+ corrections of 1 entry each make the sheet consistent: (1)")
    # five: the sixth entry, Al's 0, cannot become -1 (no seat scores below 0 outside a moon)
    six = audit(table, max_solutions=6)
    assert len(six.suggestions) == 5 and not six.more
    assert "Al" not in {fix[0].player for fix in six.suggestions}


def test_lost_points_explain_a_short_hand_only_when_the_ruleset_loses_points():
    table = rows([[10, 14, 0, 5, 13, 9]])  # 51, totals follow: a point lost in a last trick?
    result = audit(table)
    assert result.consistent and result.lost == {1: 1}
    assert "hand 1 less 1 point(s) lost in a set-aside last trick" in result.text()
    keeps = with_options(RULES, set_aside_last="leader")
    strict = audit(table, rules=keeps)
    assert not strict.consistent and strict.changes == 2  # a score and its total
    assert not audit(table, allow_lost=False).consistent


def test_a_wrong_score_whose_total_is_right_prefers_the_score():
    table = rows()
    table[3][0][0] = 29  # hand 4 sums to 51 but Al's total still counts 30
    result = audit(table)
    assert [(f.player, f.field, f.new) for f in result.suggestions[0]] == [("Al", "score", 30)]


def test_a_moon_pattern_the_ruleset_does_not_allow_is_not_a_moon():
    table = rows()
    assert audit(table).consistent
    add_only = with_options(RULES, moon_choices=["add"])
    result = audit(table, rules=add_only)
    assert not result.consistent  # hand 3 is a 'subtract' moon: -26 and five 0s


def test_standard_hearts_sums_to_26():
    players = ["N", "E", "S", "W"]
    table = rows([[0, 13, 9, 4], [0, 26, 26, 26]])
    assert audit(table, rules=load_ruleset("standard"), players=players).consistent
    table[0][0][2] = 10
    result = audit(table, rules=load_ruleset("standard"), players=players)
    assert "every hand sums to 26" in result.text()


def test_missing_entries_are_unknowns_not_errors():
    table = rows()
    sheet = text(table).replace(", Fay 2\n", "\n", 1)  # hand 2's score line leaves Fay out
    result = audit_scoresheet(parse_log(sheet), RULES, PLAYERS)
    assert result.consistent


def test_a_log_without_scores_has_nothing_to_audit():
    result = audit_scoresheet(parse_log('[Players "Al Beth Charlie Dave Eve Fay"]\n'), RULES,
                              PLAYERS)
    assert result.consistent and result.hands == 0
    assert result.text() == "the log holds no score or total lines to audit"


def test_partial_record_conflicts_is_reachable_from_the_audit_module():
    assert callable(partial_record_conflicts)


@pytest.mark.parametrize("bump", [1, -3, 26])
def test_any_single_score_typo_with_right_totals_is_pinned_down(bump):
    for hand in range(4):
        for seat in range(6):
            table = rows()
            table[hand][0][seat] += bump
            result = audit(table, max_solutions=2)
            assert result.changes == 1, (hand, seat)
            (fix,) = result.suggestions[0]  # the correction assuming no lost points comes first
            assert (fix.hand, fix.player, fix.field, fix.new) == (
                hand + 1, PLAYERS[seat], "score", HANDS[hand][seat])


def test_a_line_the_audit_cannot_read_is_said_and_the_audit_is_not_clean(tmp_path, capsys):
    from pathlib import Path

    from referee.cli import main

    sheet = Path(__file__).resolve().parent.parent / "examples" / "logs" / "scoresheet-game.log"
    lines = sheet.read_text("utf-8").split("\n")
    lines[6] += " x"  # line 7, hand 1's total line
    path = tmp_path / "sheet.log"
    path.write_text("\n".join(lines), "utf-8")
    assert main(["audit", str(path)]) == 1
    said = capsys.readouterr()
    assert f"{path}:7:73: CH001 syntax" in said.err
    assert main(["audit", str(sheet)]) == 0
