"""The views keep what they show through the check's one hook, a Watch: of a parsed log every
hand record and finished trick (tests/whole_view.py's WholeWatch), of a log's text what
GameWatch keeps.  The two give the same records, tricks and view of a log within
MAX_DRAWN_HANDS hands."""

from __future__ import annotations

from pathlib import Path

from referee.judge.hand_record import HandRecord
from referee.log.parser import parse_text
from referee.output import game_view as view_module
from referee.output.game_view import SheetLines
from referee.output.game_view import referee_game
from referee.run.single import check_parsed
from whole_view import game_view
from whole_view import referee_game as whole_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# 2 hands: hand 1 played out in 14 tricks (lines 23-36); hand 2 stops in its trick 5
# (line 60), after 4 finished tricks (lines 56-59)
STOPS = EXAMPLES / "logs" / "stops-mid-trick.log"
STOPS_TRICK_LINES = [*range(23, 37), *range(56, 60)]


def _tricks(trace) -> list[tuple[int, int, int]]:
    """(hand, trick number, line written) of each finished trick."""
    return [(entry.hand, entry.record.number, entry.written.span.line) for entry in trace]


def _both(path: Path):
    text = path.read_text("utf-8")
    return (whole_game(parse_text(text), str(path), base_dir=path.parent),
            referee_game(text, str(path), base_dir=path.parent))


def test_the_parsed_branch_keeps_what_the_text_branch_keeps():
    (report, trace, records), (t_report, t_trace, t_records) = _both(STOPS)
    assert report.verdict == "clean"
    assert [r.number for r in records] == [1, 2]
    assert [len(r.tricks) for r in records] == [14, 5]  # the unfinished trick 5 as written
    assert _tricks(trace) == (
        [(1, n, line) for n, line in zip(range(1, 15), STOPS_TRICK_LINES[:14])]
        + [(2, n, line) for n, line in zip(range(1, 5), STOPS_TRICK_LINES[14:])])
    assert report.to_json() == t_report.to_json()
    assert _tricks(t_trace) == _tricks(trace)
    assert list(t_records) == records
    parsed = parse_text(STOPS.read_text("utf-8"))
    assert game_view(report, trace, records, parsed) == game_view(t_report, t_trace, t_records)


def test_a_json_record_gives_the_same_records_and_tricks_either_way():
    (report, trace, records), (t_report, t_trace, t_records) = _both(
        EXAMPLES / "records" / "revoke.json")
    assert report.verdict == "violations" and len(report.diagnostics) == 1
    assert [(r.number, len(r.tricks)) for r in records] == [(1, 17)]
    assert [(hand, n) for hand, n, _ in _tricks(trace)] == [(1, n) for n in range(1, 18)]
    assert _tricks(t_trace) == _tricks(trace) and list(t_records) == records
    assert report.to_json() == t_report.to_json()


def test_past_the_drawn_hands_the_parsed_branch_still_keeps_every_record_and_trick(monkeypatch):
    monkeypatch.setattr(view_module, "MAX_DRAWN_HANDS", 1)
    (report, trace, records), (t_report, t_trace, t_records) = _both(STOPS)
    assert all(isinstance(r, HandRecord) for r in records) and len(records) == 2
    assert [line for _, _, line in _tricks(trace)] == STOPS_TRICK_LINES
    # the text branch keeps the drawn hand's tricks and the later hand's sheet lines only
    assert [line for _, _, line in _tricks(t_trace)] == STOPS_TRICK_LINES[:14]
    assert list(t_records) == [records[0], SheetLines(2, None, None)]
    parsed = parse_text(STOPS.read_text("utf-8"))
    assert game_view(report, trace, records, parsed) == game_view(t_report, t_trace, t_records)


def test_check_parsed_still_traces_every_finished_trick():
    trace: list = []
    report = check_parsed(parse_text(STOPS.read_text("utf-8")), str(STOPS), base_dir=STOPS.parent,
                          trace=trace)
    assert report.verdict == "clean"
    assert [line for _, _, line in _tricks(trace)] == STOPS_TRICK_LINES


def test_a_log_whose_setup_fails_keeps_nothing_in_the_parsed_branch():
    text = '# a comment\n[Players "Al"]\nhand 1\n'
    report, trace, records = whole_game(parse_text(text), "bad.log")
    assert report.verdict == "violations"
    assert trace == [] and records == []
