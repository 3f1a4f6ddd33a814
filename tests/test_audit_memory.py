"""``referee audit`` reads a sheet a block at a time: its memory and time grow with the text,
not with the hands' z3 terms, and a sheet past the size budgets is counted to its end without
z3 being asked; the answer is the one the whole file's parse gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from peak_memory import CLI, run_measured

from referee.log.parser import parse_text
from referee.proofs.audit import audit_scoresheet, open_sheet
from referee.rules.ruleset import load_ruleset

pytestmark = pytest.mark.slow  # peak memory of child processes on logs of several megabytes

NAMES = ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]
PLAYERS = '[Players "Al Beth Charlie Dave Eve Fay"]'
CLEAN = (0, 13, 0, 13, 0, 26)

def sheet(hands: int, scores=CLEAN, header: str = PLAYERS) -> str:
    lines, totals = [header, '[Target "1000000000"]'], [0] * 6
    for hand in range(1, hands + 1):
        totals = [t + s for t, s in zip(totals, scores)]
        lines += [f"hand {hand}",
                  "score: " + ", ".join(f"{n} {s}" for n, s in zip(NAMES, scores)),
                  "total: " + ", ".join(f"{n} {t}" for n, t in zip(NAMES, totals))]
    return "\n".join(lines) + "\n"


def _audited(path: Path) -> tuple[float, float, str, int]:
    """(peak MB, seconds, stdout, exit code) of ``referee audit path`` in a fresh process."""
    return run_measured(CLI, "audit", str(path), keep_stdout=True)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM from /proc")
def test_an_oversize_sheet_is_counted_in_memory_and_time_that_grow_with_its_text(tmp_path):
    # every hand's z3 terms built before the budget was looked at cost 500 MB and 45 s per MB
    # of sheet; read a hand at a time and never asked of z3: about 1 MB and 4-9 s per MB (the
    # time is check's: the facts of each hand's scores)
    sizes, peaks, times = [], [], []
    for hands in (1_400, 5_600):  # about 0.2 and 0.8 MB
        path = tmp_path / f"{hands}.log"
        path.write_text(sheet(hands), "utf-8")
        peak, seconds, out, code = _audited(path)
        assert code == 1
        assert out == ("no correction was found within the budgets\nthe search was cut short "
                       f"(not asked: {hands * 12} written entries exceed the size budget of "
                       "2000)\n")
        sizes.append(path.stat().st_size / 1e6)
        peaks.append(peak)
        times.append(seconds)
    assert 0.15 < sizes[0] and 0.7 < sizes[1] < 1.0
    memory_growth = (peaks[1] - peaks[0]) / (sizes[1] - sizes[0])
    time_growth = (times[1] - times[0]) / (sizes[1] - sizes[0])
    assert memory_growth < 20, (sizes, peaks)
    assert time_growth < 30, (sizes, times)


def test_a_sheet_past_the_budget_still_lists_every_hand_no_play_could_give(tmp_path):
    # hand 1 and hand 3 of 200 (2,400 entries) add up to 53: the facts need no z3
    text = sheet(200)
    text = text.replace("score: Al 0, Beth 13,", "score: Al 1, Beth 13,", 1)
    third = text.index("hand 3\n")
    text = text[:third] + text[third:].replace("score: Al 0,", "score: Al 1,", 1)
    path = tmp_path / "two-faults.log"
    path.write_text(text, "utf-8")
    _peak, _seconds, out, code = _audited(path)
    assert code == 1
    assert out == ("hand 1 adds up to 53, one more than the decks hold; hand 3 adds up to 53, "
                   "one more than the decks hold; no correction was found within the budgets\n"
                   "the search was cut short (not asked: 2400 written entries exceed the size "
                   "budget of 2000)\n")


def _both(text: str, path: str = "sheet.log"):
    """(the streamed audit's text, the whole parse's audit's text) of a log."""
    streamed = open_sheet(text, path).audit()
    whole = audit_scoresheet(parse_text(text), streamed.table.rules, list(streamed.table.names))
    return streamed.result.text(), whole.text()


@pytest.mark.parametrize("edit, expected", [
    (lambda t: t, "the scoresheet is consistent: every hand sums to 52"),
    (lambda t: t.replace("Fay 26\ntotal", "Fay 27\ntotal", 1),
     "hand 1 adds up to 53, one more than the decks hold; change Fay's hand 1 score from 27 to "
     "26; then every hand sums to 52"),
    (lambda t: t.replace("hand 2\n", "hand 2\n~~ not a line ~~\n", 1),
     "the scoresheet is consistent: every hand sums to 52"),
])
def test_the_streamed_audit_gives_the_whole_parse_answer(edit, expected):
    streamed, whole = _both(edit(sheet(3)))
    assert streamed == whole
    assert streamed.startswith(expected)


def test_a_reading_that_stops_early_is_audited_from_the_whole_parse():
    # past a thousand unreadable lines the reading stops, before a Ruleset tag the stream's
    # setup would have read: the whole file's parse (which never sees it) is audited
    junk = "\n".join(f"~~ unreadable {i}" for i in range(1_100))
    text = sheet(2) + junk + '\n[Ruleset "standard"]\n' + sheet(1, header="")
    done = open_sheet(text, "stops.log").audit()
    assert done.table.rules.name == "cancellation"
    whole = audit_scoresheet(parse_text(text), done.table.rules, list(done.table.names)).text()
    assert done.result.text() == whole == ("the scoresheet is consistent: every hand sums to "
                                           "52 and every total adds up")


def test_hands_whose_lines_name_no_one_seated_meet_their_own_budget(monkeypatch):
    monkeypatch.setattr("referee.proofs.audit.AUDIT_MAX_HANDS", 3)
    text = PLAYERS + "\n" + "".join(f"hand {h}\nscore: Zed {h}\n" for h in range(1, 6))
    done = open_sheet(text, "nobody.log").audit()
    assert not done.result.consistent and done.result.suggestions == []
    assert done.result.text() == ("no correction was found within the budgets\nthe search was "
                                  "cut short (not asked: 5 hands exceed the size budget of 3)")


def test_within_both_budgets_nothing_changes(monkeypatch):
    monkeypatch.setattr("referee.proofs.audit.AUDIT_MAX_HANDS", 3)
    result = audit_scoresheet(parse_text(sheet(3)), load_ruleset("cancellation"), NAMES)
    assert result.consistent and not result.cut_short
