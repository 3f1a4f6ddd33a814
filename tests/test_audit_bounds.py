"""The scoresheet audit on real sheets: the smallest correction found exactly and fast, a time
budget that is kept (the answer is worked out in a child process killed past it), and
answers whose memory and translation grow with the sheet, not with its square."""

from __future__ import annotations

import os
import resource
import time

import pytest

from referee.cli import main
from referee.log.parser import parse_text
from referee.proofs.audit import audit_scoresheet, bounded
from referee.proofs.wording import and_list, semicolon_list
from referee.util.i18n import translate
from tests.audit_sheets import CANCELLATION, EIGHT, GAME, ROWS, SIX, running, three_slips, written

def test_three_slips_in_an_eight_player_sheet_are_its_eight_corrections():
    # The swap breaks Beth's and Charlie's hand 2 (score and total disagree, both ways): two
    # scores.  Gus's total 37 = 20 + 16 + 1 is followed by totals that add up from it: either
    # the five totals change, or his hand 4 score becomes 17 and the hand, then 53, needs
    # another seat's score and its five totals too.  Eve's 8 makes hand 8 sum to 60 and
    # disagrees with her total: one score.  Eight entries, and no other eight do it.
    result = audit_scoresheet(parse_text(three_slips()), CANCELLATION, EIGHT)
    assert result.changes == 8 and len(result.suggestions) == 1 and not result.more
    assert [(f.hand, f.player, f.field, f.old, f.new) for f in result.suggestions[0]] == [
        (2, "Beth", "score", 2, 15), (2, "Charlie", "score", 15, 2),
        (4, "Gus", "total", 37, 36), (5, "Gus", "total", 38, 37), (6, "Gus", "total", 48, 47),
        (7, "Gus", "total", 48, 47), (8, "Eve", "score", 8, 0), (8, "Gus", "total", 48, 47)]
    assert result.text().startswith(
        "hand 8 adds up to 60, eight more than the decks hold; change Beth's hand 2 score from 2 "
        "to 15 and change Charlie's hand 2 score from 15 to 2 and change Gus's hand 4 total ")
    assert result.text().endswith("then every hand sums to 52 and every total adds up")


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def test_a_sheet_of_166_hands_is_corrected_exactly_within_two_seconds_of_cpu():
    scores = [list(ROWS[h % len(ROWS)]) for h in range(166)]
    totals = running(scores)
    scores[19][0] += 1  # hand 20: Al's 0 written as 1, his total right (hand sums to 53)
    scores[76][0], scores[76][1] = scores[76][1], scores[76][0]  # hand 77: Al's, Beth's swapped
    totals[129][1] += 10  # hand 130: Beth's total 10 too many, the next one right
    text = written(SIX, scores, totals)
    assert 16_000 < len(text) < 21_000
    before = _cpu()
    result = audit_scoresheet(parse_text(text), CANCELLATION, SIX)
    assert _cpu() - before < 2.0
    assert [(f.hand, f.player, f.field, f.new) for f in result.suggestions[0]] == [
        (20, "Al", "score", scores[19][0] - 1), (77, "Al", "score", scores[76][1]),
        (77, "Beth", "score", scores[76][0]), (130, "Beth", "total", totals[129][1] - 10)]
    assert not result.more


def test_past_its_time_budget_the_audit_says_so_and_claims_no_correction(tmp_path, capsys):
    path = tmp_path / "three.log"
    path.write_text(three_slips(), "utf-8")
    assert main(["audit", str(path), "--timeout", "0.001"]) == 1
    assert capsys.readouterr().out == (
        "hand 8 adds up to 60, eight more than the decks hold; not decided within 0.001 s: no "
        "correction is claimed (--timeout gives the audit longer)\n")
    assert main(["audit", str(path), "--timeout", "0"]) == 2
    assert "--timeout must be" in capsys.readouterr().err


def _children() -> set[int]:
    """This process's children, running or not yet reaped (from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == os.getpid():
                found.add(int(entry))
    return found


def test_work_that_does_not_return_is_stopped_at_its_budget_and_reaped():
    # (children an earlier test left, such as multiprocessing's resource tracker, are not ours)
    before = _children()
    started = time.monotonic()
    answer = bounded(lambda: time.sleep(60), lambda: "undecided", 0.3)
    assert answer == "undecided" and time.monotonic() - started < 5
    assert _children() <= before  # no child of its left, running or unreaped


def test_work_past_the_memory_budget_is_undecided(monkeypatch):
    monkeypatch.setattr("referee.proofs.audit.AUDIT_MEMORY_BYTES", 64 << 20)
    answer = bounded(lambda: bytearray(512 << 20), lambda: "undecided", 30)
    assert answer == "undecided"


def test_a_list_message_holds_each_item_a_logarithmic_number_of_times():
    # joined as a chain, 4,096 items held every prefix: about 2,000 times the text
    items = [f"item {i}" for i in range(4_096)]
    joined = and_list(items)
    assert joined == " and ".join(items)
    held, stack = 0, [joined]
    while stack:
        node = stack.pop()
        held += len(node)
        stack += [arg for arg in getattr(node, "args", {}).values() if isinstance(arg, str)]
    assert held < 16 * len(joined)


@pytest.mark.parametrize("language", ["de", "it", "fr", "uk"])
def test_a_long_list_translates_without_deep_recursion(language):
    text = translate(semicolon_list([f"fact {i}" for i in range(5_000)]), language)
    assert text.count("fact ") == 5_000


@pytest.mark.parametrize("hands", [120, 870])
def test_hands_that_do_not_add_up_are_audited_in_german(tmp_path, capsys, hands):
    # 120 hands are audited (each needs one change); 870 are past the size budget, and their
    # facts alone were translated by recursion 870 deep
    lines = ['[Players "Al Beth Charlie Dave Eve Fay"]']
    lines += ["score: Al 10, Beth 14, Charlie 0, Dave 5, Eve 13, Fay 11"] * hands  # each 53
    path = tmp_path / "many.log"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    assert main(["audit", str(path), "--lang", "de", "--solutions", "1"]) == 1
    out = capsys.readouterr().out
    assert out.count("ergibt zusammen 53, eins mehr") == hands


def test_a_score_line_naming_only_players_not_seated_has_nothing_to_correct(tmp_path, capsys):
    path = tmp_path / "nobody.log"
    path.write_text('[Players "Al Beth Charlie Dave Eve Fay"]\nscore: Zed 3\ntotal: Zed 3\n',
                    "utf-8")
    assert main(["audit", str(path)]) == 0
    assert capsys.readouterr().out == ("the scoresheet is consistent: every hand sums to 52 "
                                       "and every total adds up\n")


def test_three_swaps_in_one_hand_are_six_scores():
    # hand 2's Al/Hana, Beth/Charlie and Eve/Fay scores swapped, totals right: six seats'
    # scores miss their totals and the hand still sums to 52, so the six scores change; any
    # other correction also changes the totals of every later hand for some seat
    scores = [list(row) for row in GAME]
    scores[1] = [18, 2, 15, 0, 11, 6, 0, 0]
    result = audit_scoresheet(parse_text(written(EIGHT, scores, running(GAME))), CANCELLATION,
                              EIGHT)
    assert [(f.player, f.old, f.new) for f in result.suggestions[0]] == [
        ("Al", 18, 0), ("Beth", 2, 15), ("Charlie", 15, 2), ("Eve", 11, 6), ("Fay", 6, 11),
        ("Hana", 0, 18)]
    assert result.changes == 6 and not result.more
