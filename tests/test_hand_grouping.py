"""How statements are grouped into hands when a scorer's slip moves, repeats or leaves out a line.

Each case takes a clean example log, repeats, moves or deletes a line, and asserts the exact
diagnostics (kind, line, player) worked out by hand, and the winner.  One fault, one diagnostic:
a line written twice, a moon line written after the score line, a `hand` line left out, a score
line left out of a sheet, must not make every later hand misnumbered or paired off by one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.run.single import check_text

LOGS = Path(__file__).resolve().parent.parent / "examples" / "logs"
SIX, EIGHT, SHEET = "clean-6-players.log", "clean-8-players.log", "scoresheet-game.log"


def rows(name: str) -> list[str]:
    return (LOGS / name).read_text("utf-8").split("\n")


def repeated(name: str, line: int, text: str | None = None) -> str:
    """The log with line ``line`` written twice (the first time as ``text``, when given)."""
    lines = rows(name)
    first = lines[line - 1] if text is None else text
    return "\n".join(lines[:line - 1] + [first] + lines[line - 1:])


def moved(name: str, line: int, after: int) -> str:
    """The log with line ``line`` moved to just after line ``after`` (later)."""
    lines = rows(name)
    moving = lines.pop(line - 1)
    lines.insert(after - 1, moving)
    return "\n".join(lines)


def deleted(name: str, line: int) -> str:
    lines = rows(name)
    del lines[line - 1]
    return "\n".join(lines)


def found(text: str):
    report = check_text(text, "t.log")
    return report, [(d.kind, d.line, d.player) for d in report.diagnostics]


def test_the_lines_the_cases_edit():
    six, eight, sheet = rows(SIX), rows(EIGHT), rows(SHEET)
    assert six[70].startswith("score: Al 0, Beth 43") and six[71].startswith("total: Al 4")
    assert six[46] == "kitty: 3H 4H" and six[73].startswith("hand 3")
    assert eight[464] == "moon Beth add" and eight[465].startswith("score:")
    assert eight[466].startswith("total:") and eight[468].startswith("hand 15")
    assert sheet[7].startswith("score:") and sheet[6].startswith("total:")
    for name in ("play-only.log", "no-claims.log"):
        lines = rows(name)
        assert lines[22] == "hand 2 dealer Eve pass right" and lines[20].startswith("trick 14")


CASES = {
    # hand 2's total line (72) written twice: the second is the one fault, and hand 3's line is
    # hand 3's (not "hand 3 is recorded where hand 4 is due", a wrong dealer, a wrong direction)
    "total twice": (repeated(SIX, 72), [("bad-setup", 73, None)], ["Dave"]),
    "score twice": (repeated(SIX, 71), [("bad-setup", 72, None)], ["Dave"]),
    # a scorer rewrites a corrected score line under the wrong one: the later counts
    "score rewritten": (repeated(SIX, 71, rows(SIX)[70].replace("Beth 43", "Beth 34")),
                        [("bad-setup", 72, None)], ["Dave"]),
    "total rewritten": (repeated(SIX, 72, rows(SIX)[71].replace("Beth 48", "Beth 39")),
                        [("bad-setup", 73, None)], ["Dave"]),
    # hand 14's (the moon hand's) score line written twice: hand 15 is hand 15, the game ends
    # where it did (no game-end, no total-mismatch on the correct total line)
    "moon hand's score twice": (repeated(EIGHT, 466), [("bad-setup", 467, None)], ["Hana"]),
    "moon hand's total twice": (repeated(EIGHT, 467), [("bad-setup", 468, None)], ["Hana"]),
    # the moon line written after the score line, or after the total line, is hand 14's: one
    # fault of order
    "moon after the score": (moved(EIGHT, 465, 466), [("bad-setup", 466, None)], ["Hana"]),
    "moon after the total": (moved(EIGHT, 465, 467), [("bad-setup", 467, None)], ["Hana"]),
    # hand 2's kitty line written after hand 2's total line: one fault of order
    "kitty after the total": (moved(SIX, 47, 72), [("bad-setup", 72, None)], ["Dave"]),
}


@pytest.mark.parametrize("case", CASES)
def test_one_slip_one_diagnostic(case):
    text, expected, winners = CASES[case]
    report, diagnostics = found(text)
    assert diagnostics == expected
    assert report.winners == winners
    assert len(report.hands) == (15 if winners == ["Hana"] else 11)


def test_the_second_line_says_which_counts():
    report, _ = found(repeated(SIX, 72))
    assert report.diagnostics[0].message == \
        "a second total line in hand 2 (the first is on line 72); the later counts"
    report, _ = found(repeated(EIGHT, 466))
    assert report.diagnostics[0].message == \
        "a second score line in hand 14 (the first is on line 466); the later counts"
    report, _ = found(moved(EIGHT, 465, 466))
    assert report.diagnostics[0].message == "a moon line after a score line of hand 14"
    report, _ = found(moved(SIX, 47, 72))
    assert report.diagnostics[0].message == "a kitty line after a total line of hand 2"


@pytest.mark.parametrize("name", ["play-only.log", "no-claims.log"])
def test_a_trick_1_after_a_whole_hand_starts_the_next(name):
    # hand 2's `hand` line left out: trick 1 after hand 1's trick 14 is hand 2's, whose plays
    # prove no revoke in hand 1 and are no trick "one too many"
    report, diagnostics = found(deleted(name, 23))
    assert diagnostics == [("bad-setup", 23, None)]
    assert report.diagnostics[0].message == \
        "no `hand` line starts hand 2: trick 1 follows the last trick of hand 1"
    assert [hand.number for hand in report.hands] == [1, 2]


def test_a_score_line_left_out_of_a_sheet():
    # hand 2's score line left out: hand 2 is its total line alone, not checked, and hand 3 on
    # are paired as written
    report, diagnostics = found(deleted(SHEET, 8))
    assert diagnostics == []
    assert "hand 2: no score line is recorded, so its total line is not checked" in \
        report.unchecked
    assert report.winners == ["Charlie"] and len(report.hands) == 10


def test_a_score_line_after_its_total_on_a_sheet_stays_in_its_hand():
    # hand 2's score and total lines in each other's place: the score adds up to the total
    # before it, so it is hand 2's, written late
    lines = rows(SHEET)
    lines[7], lines[8] = lines[8], lines[7]
    report, diagnostics = found("\n".join(lines))
    assert diagnostics == [("bad-setup", 9, None)]
    assert report.winners == ["Charlie"] and len(report.hands) == 10


def entries(line: str) -> list[tuple[str, int]]:
    return [(name, int(value)) for name, value in
            (piece.split() for piece in line.split(":", 1)[1].split(","))]


def test_a_hand_after_the_last_is_still_a_hand():
    # a score and a total line after the last hand, with no `hand` line, the totals adding the
    # scores up: a hand past the end, not lines written twice
    lines = rows(SIX)
    last = max(i for i, line in enumerate(lines) if line.startswith("total:"))
    scores, totals = entries(lines[last - 1]), entries(lines[last])
    after = "total: " + ", ".join(f"{name} {total + score}"
                                  for (name, score), (_, total) in zip(scores, totals))
    report, _ = found("\n".join(lines[:last + 1] + [lines[last - 1], after] + lines[last + 1:]))
    assert len(report.hands) == 12
    assert any(d.kind == "game-end" for d in report.diagnostics)


def test_a_score_and_total_written_twice_at_the_end():
    # the last hand's score and total lines written again, value for value: each is a line
    # written twice, not a hand past the end
    lines = rows(SIX)
    last = max(i for i, line in enumerate(lines) if line.startswith("total:"))
    report, diagnostics = found("\n".join(lines[:last + 1] + lines[last - 1:last + 1]
                                          + lines[last + 1:]))
    assert diagnostics == [("bad-setup", last + 2, None), ("bad-setup", last + 3, None)]
    assert len(report.hands) == 11 and report.winners == ["Dave"]


def test_a_line_written_twice_in_a_log_without_hand_lines():
    # the same slips with no `hand` line anywhere: a lone score or total line between two played
    # hands is the hand's before, written twice
    lines = [line for line in rows(SIX) if not line.startswith("hand ")]
    total = next(i for i, line in enumerate(lines) if line.startswith("total: Al 4, Beth 48"))
    for at in (total, total - 1):
        report, diagnostics = found("\n".join(lines[:at + 1] + [lines[at]] + lines[at + 1:]))
        assert diagnostics == [("bad-setup", at + 2, None)]
        assert len(report.hands) == 11 and report.winners == ["Dave"]


def test_a_hand_without_its_hand_line_is_not_taken_as_a_repeat():
    # hand 3's `hand` line and play left out but its score and total kept, the next `hand` line
    # numbered 4: hand 3 is a hand of its own (its number tells), not lines written twice
    lines = rows(SIX)
    start3 = lines.index(next(line for line in lines if line.startswith("hand 3 ")))
    start4 = lines.index(next(line for line in lines if line.startswith("hand 4 ")))
    sheet = [line for line in lines[start3:start4] if line.startswith(("score:", "total:"))]
    report, _ = found("\n".join(lines[:start3] + sheet + [""] + lines[start4:]))
    assert len(report.hands) == 11
    assert not any(d.message.startswith("a second") for d in report.diagnostics)
