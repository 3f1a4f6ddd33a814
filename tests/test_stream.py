"""`check` of a log reads it a block at a time and holds one hand at once (judge/stream.py):
its report is the one the whole file's parse gives, and its memory grows with the text only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from line_edits import ACTIONS, edit_lines
from peak_memory import growth, played_log, run_measured

from referee.judge import walk
from referee.judge.walk import judge_bytes, judge_parsed
from referee.log.decode import normalise
from referee.log.parser import MAX_ISSUES, log_text, parse_blocks, parse_log, parse_text, tags_after
from referee.log.decode import UnreadableLog
from referee.run.single import check_text

ROOT = Path(__file__).resolve().parents[1]
LOGS = sorted((ROOT / "examples" / "logs").glob("*.log")) + sorted(
    (ROOT / "examples" / "corpus").glob("*.log"))
SMALL = [p.read_text("utf-8") for p in LOGS if p.stat().st_size < 40_000]
SOME_LINES = sorted({line for text in SMALL for line in text.splitlines() if line.strip()})
SEATS = '[Players "Al Beth Charlie Dave Eve Fay"]'
# lines that move the setup, end a hand, or cannot be read
ODD_LINES = [
    "trick 7:", "hand 1", "hand 9 dealer Nobody pass across", "kitty:", "moon Al add",
    "score: Al 0", "total: Al 999", "winner: Al", "winners: Al, Beth", "deal Zed: 2C",
    "trick 1 Beth: 2C 3C", '[Players "Al Beth"]', '[Target "-5"]', '[Target "60"]',
    '[Ruleset "standard"]', '[Ruleset "no-such-ruleset"]', "Players: Al Beth Charlie Dave Eve Fay",
    "  [Players \"Al Beth Cy Dee Eve Fay\"]", "\t[Target \"100\"]", "players : A B C D E F",
    "PLAYERS: Al Beth", '[Players "Al"', "trik 5: Al 2C", "scor: Al 1", "hand x", "@@@",
    '[Event "x"]', "# a comment", "score: Al 99999999999999999999999", "x" * 4200,
    "\u00a0[Target \"70\"]",
]
SIZES = (1, 40, 1 << 15)  # a block a line, a few lines, the default


def check_stream(text: str, path: str, *, block_chars: int = walk.BLOCK_CHARS, **options):
    """The check of ``text`` read a block at a time, or None when only the whole parse gives
    that report.  Raises UnreadableLog."""
    return walk._streamed(text, path, walk.Options(**options), block_chars)


def whole(text: str) -> object:
    """The report of the whole file's parse (today's path, kept for --invariants and
    traces), or why the file is unreadable."""
    try:
        return judge_parsed(parse_text(text), "x").to_json()
    except UnreadableLog as err:
        return ("unreadable", str(err), err.line, err.column)


def streamed(text: str, size: int) -> object:
    try:
        report = check_stream(text, "x", block_chars=size)
    except UnreadableLog as err:
        return ("unreadable", str(err), err.line, err.column)
    return None if report is None else report.to_json()


def assert_same(text: str, sizes=SIZES) -> None:
    expected = whole(text)
    for size in sizes:
        got = streamed(text, size)
        if got is not None:  # None: the check reads the whole file (test below)
            assert got == expected, size


def test_every_example_log_gives_the_same_report_streamed():
    for path in LOGS:
        assert_same(log_text(path.read_bytes()))


@st.composite
def mutated_logs(draw):
    lines = draw(st.sampled_from(SMALL)).splitlines()
    lines = edit_lines(draw, lines, known=SOME_LINES, odd=ODD_LINES, most=8,
                       actions=(*ACTIONS, "odd"))
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_logs())
@pytest.mark.slow
def test_mutated_logs_give_the_same_report_streamed(text):
    assert_same(text, sizes=(1, 1 << 15))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ODD_LINES + SOME_LINES[:200]), max_size=30))
def test_odd_lines_give_the_same_report_streamed(lines):
    assert_same("\n".join([SEATS, *lines]) + "\n", sizes=(1, 7))


def test_blocks_joined_are_the_whole_parse_and_start_where_they_say():
    text = normalise("\n".join([SEATS, *ODD_LINES, *SMALL[0].splitlines(), "x" * 5000, "hand 2"]))
    whole_parse = parse_log(text)
    for size in (1, 5, 300, 1 << 15):
        events, issues = [], []
        for block in parse_blocks(text, size=size):
            events.extend(block.events)
            issues.extend(block.issues)
            assert block.start == 0 or text[block.start - 1] == "\n"
            assert text.count("\n", 0, block.start) + 1 == block.line
            assert all(e.span.line >= block.line for e in block.events)
        assert tuple(events) == whole_parse.events and tuple(issues) == whole_parse.issues


def test_a_block_holds_only_its_own_lines_events():
    text = SMALL[0]
    blocks = list(parse_blocks(normalise(text), size=1))
    assert len(blocks) == len(normalise(text).splitlines())
    assert all(len(b.events) <= 1 for b in blocks)


def test_late_setup_tags_are_found_at_their_lines():
    text = normalise("\n".join([
        "hand 1", '[Players "A B C D E F"]', "trick 1: A 2C", "  [Target \"50\"]",
        "players: A B", '[Event "not setup"]', "x" * 5000, "[" + "y" * 5000, "[Target \"60\"]"]))
    found = tags_after(text, 0, 1, lambda tag: tag.key != "event")
    assert [(t.name, t.value, t.span.line) for t in found] == [
        ("Players", "A B C D E F", 2), ("Target", "50", 4), ("Players", "A B", 5),
        ("Target", "60", 9)]  # the long line (8) is reported unread, not read


def test_a_setup_tag_after_play_seats_the_table_streamed_as_whole():
    text = "hand 1\ndeal Al: 2C\n" + SEATS + "\n"
    report = check_text(text)
    assert report.players == ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]
    late = [d for d in report.diagnostics if d.kind == "bad-setup" and d.line == 3]
    assert late and late[0].rule == "R10.4"
    assert_same(text)


def test_a_log_whose_reading_stops_before_a_late_setup_tag_streams_without_that_tag():
    # the reading stops after MAX_ISSUES unreadable lines: the tag after them is not read, by
    # the whole reading nor (read again without it) by the stream
    text = "hand 1\ntrick 1: Al 2C\n" + "@@@\n" * MAX_ISSUES + SEATS + "\n"
    assert check_stream(text, "x").to_json() == whole(text)
    report = check_text(text, "x")
    assert report.players == [] and report.to_json() == whole(text)
    # a diagnostic for each unreadable line, of which 100 are shown (the issue that says the
    # reading stopped shares the place of the last one)
    assert report.suppressed == {"syntax": MAX_ISSUES - 100}


def test_too_many_unreadable_lines_after_the_setup_stream_alike():
    text = SEATS + "\nhand 1\ntrick 1: Al 2C\n" + "@@@\n" * (MAX_ISSUES + 5)
    assert check_stream(text, "x") is not None
    assert_same(text)


def test_a_file_of_comments_and_unreadable_lines_is_unreadable_streamed_as_whole():
    for text in ("# only\n# comments\n", "# a comment\n@@@\n"):
        assert streamed(text, 1) == whole(text)
        assert whole(text)[0] == "unreadable"


# ---- memory --------------------------------------------------------------------------------
CHECK = "import sys\nfrom referee.run.single import check_path\ncheck_path(sys.argv[1])"


def _sheet(hands: int) -> str:
    names = SEATS[10:-2].split()
    lines, totals = [SEATS, '[Target "1000000000"]'], [0] * 6
    for hand in range(1, hands + 1):
        totals = [t + s for t, s in zip(totals, (0, 13, 0, 13, 0, 26))]
        lines += [f"hand {hand}", "score: " + ", ".join(f"{n} {s}" for n, s in zip(
            names, (0, 13, 0, 13, 0, 26))), "total: " + ", ".join(
            f"{n} {t}" for n, t in zip(names, totals))]
    return "\n".join(lines) + "\n"


# the whole file's events and hands held at once cost 21-28 MB per MB of log; one hand at a
# time, the text and the hands' summaries: 3.0 MB per MB of a scoresheet, 1.7 of a played log.
# The bounds leave less room than one more copy of the text (1 MB per MB) would take.
@pytest.mark.parametrize("make, small, large, bound", [(_sheet, 5_000, 20_000, 3.6),
                                                       (played_log, 200, 800, 2.4)],
                         ids=["scoresheet", "played"])
@pytest.mark.slow
def test_peak_memory_grows_with_the_text_not_with_its_events(tmp_path, make, small, large, bound):
    sizes, peaks, slope = growth(tmp_path, make, (small, large),
                                 lambda path: run_measured(CHECK, str(path)).peak_mb)
    assert sizes[1] > 1.3  # large enough for the growth to stand out of the noise
    assert slope < bound, (sizes, peaks)


def test_of_a_kind_past_the_limit_the_first_found_hand_by_hand_are_kept():
    # hand 1's deal (grouping) and play (the check of its plays) name someone not seated, then
    # hand 2's deal: with room for two, hand 1's two are shown and hand 2's counted
    text = '[Players "A B C D E F"]\nhand 1\ndeal Zed: 2C\ntrick 1: Yan 2C\nhand 2\ndeal Xu: 3C\n'
    report = judge_bytes(text.encode(), "x", max_diagnostics=2)
    assert [(d.kind, d.line, d.column) for d in report.diagnostics] == [
        ("bad-setup", 3, 6), ("bad-setup", 4, 10)]
    assert report.suppressed == {"bad-setup": 1}
    everything = judge_bytes(text.encode(), "x")
    assert [d.line for d in everything.diagnostics] == [3, 4, 6]


def test_a_late_tag_before_the_stop_is_kept_and_one_after_it_is_not():
    # seated by a tag after play began, before the reading stops; the target after the stop
    text = ("hand 1\ntrick 1: Al 2C, Beth 3C, Charlie 4C, Dave 5C, Eve 6C, Fay 7C -> Fay\n"
            + SEATS + "\n" + "@@@\n" * MAX_ISSUES + '[Target "40"]\n')
    report = check_stream(text, "x")
    assert report.players == ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]
    assert report.to_json() == whole(text)


def test_a_stopped_reading_with_a_late_tag_is_held_as_a_stream_is(tmp_path):
    """The long log behind 1,000 unreadable lines and a late tag costs what a stream costs."""
    play = "".join(f"hand {h}\ntrick 1: Al 2C\n" for h in range(1, 3001))
    text = SEATS + "\n" + play + "@@@\n" * MAX_ISSUES + '[Target "40"]\n'
    log = tmp_path / "stopped.log"
    log.write_text(text, "utf-8")
    code = ("import sys\nfrom referee.run.single import check_path\nimport referee.judge.walk as r\n"
            "r.judge_parsed = None  # the whole parse must not be taken\n"
            "check_path(sys.argv[1])\nprint('streamed')")
    done = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parent.parent)
    assert done.stdout.strip() == "streamed", done.stderr[-2000:]
