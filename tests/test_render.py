"""The text renderer without rich (render._plain_text) writes exactly what rich writes to a
file that is not a terminal, or leaves the report to rich."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from referee.judge.codes import KINDS
from referee.judge.diagnostics import Diagnostic, HandSummary, Related, Report
from referee.output import render
from referee.run.single import check_path

ROOT = Path(__file__).resolve().parent.parent
LOGS = sorted((ROOT / "examples").rglob("*.log"))


def rich_text(report: Report, width: int | None) -> str:
    out = io.StringIO()
    console = Console(file=out, no_color=False, force_terminal=None, highlight=False, width=width,
                      soft_wrap=False)
    render._render_rich(console, report)
    return out.getvalue()


def plain_text(report: Report, width: int | None) -> str | None:
    return render._plain_text(report, io.StringIO(), None, width)


@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
def test_example_reports_are_written_as_rich_writes_them(path):
    report = check_path(path)
    for width in (None, 100):
        assert plain_text(report, width) == rich_text(report, width)
    narrow = plain_text(report, 20)
    assert narrow is None or narrow == rich_text(report, 20)


_latin = st.characters(min_codepoint=0x20, max_codepoint=0x4FF, exclude_categories=("Cc", "Cf", "Mn"))
_names = st.one_of(st.sampled_from(["Al", "Олена", "Zoë", "O'Neil", "Mary-Jo", "漢字", "e\u0301",
                                    "[b]x", ":smile:", "x\\", "a\tb", "José", "none"]),
                   st.text(_latin, min_size=1, max_size=30), st.text(min_size=1, max_size=12))
_text = st.one_of(*[st.text(_latin, max_size=60)] * 5, st.text(max_size=60))  # mostly plain


@st.composite
def reports(draw) -> Report:
    players = draw(st.lists(_names, max_size=8, unique=True))
    totals = {p: draw(st.integers(-10**7, 10**7)) for p in players}
    source = draw(st.lists(_text, min_size=1, max_size=6))
    diagnostics = []
    for _ in range(draw(st.integers(0, 4))):
        line = draw(st.integers(0, len(source) + 1))
        column = draw(st.integers(1, 70))
        related = tuple(Related(draw(st.integers(0, 7)), draw(st.integers(1, 9)), draw(_text))
                        for _ in range(draw(st.integers(0, 2))))
        diagnostics.append(Diagnostic(
            draw(st.sampled_from(KINDS)), "CH201", draw(st.sampled_from(["error", "warning"])),
            line, column, line, column + draw(st.integers(0, 5)), draw(_text), "R5.2",
            hint=draw(st.none() | _text), related=related))
    return Report(
        path=draw(st.sampled_from(["a.log", "[x].log", "dir/a b.log", "é.log", ":smile:.log"])),
        ruleset=draw(st.sampled_from([None, "cancellation", "[y]"])), players=players,
        diagnostics=diagnostics,
        hands=[HandSummary.seated(1, tuple(totals), (), tuple(totals.values()), True)]
        * draw(st.integers(0, 2)),
        winners=draw(st.none() | st.lists(st.sampled_from(players or ["Al"]), max_size=2)),
        unchecked=draw(st.lists(_text, max_size=2)),
        unreadable=draw(st.none() | st.just("the file is not UTF-8 text: byte 0xff")),
        source="\n".join(source))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reports(), st.sampled_from([None, 10, 30, 45, 60, 100]))
@pytest.mark.slow
def test_any_report_is_written_as_rich_writes_it_or_left_to_rich(report, width):
    plain = plain_text(report, width)
    assert plain is None or plain == rich_text(report, width)


def test_plain_text_only_where_rich_would_not_colour(monkeypatch):
    report = check_path(LOGS[0])
    assert render._plain_text(report, io.StringIO(), True, None) is None

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    assert render._plain_text(report, Terminal(), None, None) is None
    assert render._plain_text(report, Terminal(), False, None) is None  # rich still bolds
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert render._plain_text(report, io.StringIO(), None, None) is None


def test_a_piped_check_does_not_import_rich():
    code = ("import sys\nfrom referee.cli import main\ncode = main(sys.argv[1:])\n"
            "print('rich' in sys.modules, file=sys.stderr)\nraise SystemExit(code)")
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    done = subprocess.run([sys.executable, "-c", code, "check", "examples/logs/revoke.log"],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    assert done.returncode == 1 and "CH201 revoke" in done.stdout
    assert done.stderr.strip() == "False"


def test_streamed_json_is_the_whole_document():
    import io

    import json

    from referee.output.render import report_json, write_json
    from referee.run.single import check_path

    examples = sorted((Path(__file__).resolve().parent.parent / "examples" / "logs").glob("*.log"))
    for reports in ([], [check_path(examples[0])], [check_path(p) for p in examples]):
        out = io.StringIO()
        write_json(iter(reports), out)
        whole = {"files": [report_json(r) for r in reports]}
        assert out.getvalue() == json.dumps(whole, ensure_ascii=False, indent=2) + "\n"


def test_streamed_json_holds_one_report_at_a_time():
    import gc
    import weakref

    from referee.output.render import write_json

    class Made:  # stands for a Report: write_json reads only to_json()
        def to_json(self):
            return {"path": "x"}

    alive = []

    def reports():
        for _ in range(5):
            report = Made()
            alive.append(weakref.ref(report))
            yield report
            del report
            gc.collect()
            assert sum(ref() is not None for ref in alive) <= 1  # the one just written

    write_json(reports(), io.StringIO())
    assert len(alive) == 5


def test_a_note_is_said_beside_the_verdict_not_counted_as_a_violation():
    from referee.judge import codes
    from referee.judge.diagnostics import Report, make
    from referee.log.events import Span
    from referee.output.render import render_text, summary_title, table_rows

    report = Report(path="g.log", ruleset="cancellation", players=["Al", "Beth"])
    report.diagnostics.append(make(codes.UNDECIDED, Span.point(3, 1), "points-conserved of hand 1 "
                                   "was not decided within 2 s"))
    assert report.verdict == "clean"
    title = "".join(text for text, _ in summary_title(report))
    assert title.startswith("g.log: clean (1 undecided)")
    assert all("undecided" not in row[3] for row in table_rows(report))
    out = io.StringIO()
    render_text([report], stream=out, width=120)
    assert "CH602 undecided" in out.getvalue()


# ---- what a person reads: the summary under the players who committed each fault ----------

# rich pads every cell of the table to its column's width: the trailing blanks are output
REVOKE_TEXT = """\
examples/logs/revoke.log:21:35: CH201 revoke  Charlie played AD to a club lead while holding AC (dealt on line 10) [R5.2]
   21 | trick 1: Al 10C, Beth 5C, Charlie AD, Dave KC, Eve 9C, Fay 7C -> Dave
      |                                   ^^
examples/logs/revoke.log: 1 violation; ruleset cancellation, 6 players, 1 hand, game not finished
player   total    violations by kind
Al          15                      
Beth        11                      
Charlie      0    CH201 revoke: 1   
Dave        10                      
Eve          1                      
Fay         15                      
"""


def test_the_revoke_is_listed_under_charlie_who_revoked():
    report = check_path("examples/logs/revoke.log")
    rich_out = io.StringIO()
    render._render_rich(Console(file=rich_out, no_color=True, highlight=False, width=200,
                                soft_wrap=False), report)
    assert rich_out.getvalue() == REVOKE_TEXT
    plain = io.StringIO()
    render.render_text([report], stream=plain, color=False, width=200)
    assert plain.getvalue() == REVOKE_TEXT


def _table_report() -> Report:
    from referee.judge import codes
    from referee.judge.diagnostics import make
    from referee.log.events import Span

    def at(line: int, kind: str, player: str | None = None):
        return make(kind, Span.point(line, 1), "x", player=player)

    report = Report(path="g.log", ruleset="cancellation", players=["Al", "Beth", "Cy"],
                    hands=[HandSummary.seated(1, ("Al", "Beth", "Cy"), (), (3, 20, 29), True)],
                    winners=["Al"], source="\n" * 9)
    report.diagnostics += [
        at(1, codes.BAD_SETUP),  # the setup: nobody's
        at(2, codes.CARD_NOT_HELD, "Cy"), at(3, codes.REVOKE, "Cy"), at(4, codes.REVOKE, "Cy"),
        at(5, codes.WRONG_WINNER, "Beth"),  # a claim that names Beth: not Beth's fault
        at(6, codes.SCORE_MISMATCH, "Al"),  # Al's entry on the sheet: not Al's fault
        at(7, codes.OUT_OF_TURN),  # a trick short of a card: nobody named
        at(8, codes.UNDECIDED),  # a note, not a violation
    ]
    report.suppressed = {codes.REVOKE: 1200}
    return report


def test_each_player_row_lists_what_that_player_committed_by_code():
    assert render.table_rows(_table_report()) == [
        ("Al", "3", "winner", ""),
        ("Beth", "20", "", ""),
        ("Cy", "29", "", "CH201 revoke: 2"),
        ("", "", "", "CH203 card-not-held: 1"),
        ("(the log)", "", "", "CH101 bad-setup: 1"),
        ("", "", "", "CH204 out-of-turn: 1"),
        ("", "", "", "CH302 wrong-winner: 1"),
        ("", "", "", "CH401 score-mismatch: 1"),
        ("(not listed)", "", "", "CH201 revoke: 1,200"),
    ]


def test_the_summary_table_as_rich_prints_it():
    out = io.StringIO()
    Console(file=out, no_color=True, width=100).print(render.summary_table(_table_report()))
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    assert lines == [
        "player        total          violations by kind",
        "Al                3  winner",
        "Beth             20",
        "Cy               29          CH201 revoke: 2",
        "                             CH203 card-not-held: 1",
        "(the log)                    CH101 bad-setup: 1",
        "                             CH204 out-of-turn: 1",
        "                             CH302 wrong-winner: 1",
        "                             CH401 score-mismatch: 1",
        "(not listed)                 CH201 revoke: 1,200",
    ]
    plain = render._plain_text(_table_report(), io.StringIO(), None, 100)
    assert plain is not None and plain.endswith(out.getvalue())


def test_the_tally_counts_every_verdict():
    assert render.tally_line({"clean": 1}) == "1 file, clean"
    assert render.tally_line({"violations": 1}) == "1 file, with violations"
    assert render.tally_line({"unreadable": 1}) == "1 file, unreadable"
    assert render.tally_line({"clean": 9, "violations": 2, "unreadable": 1}) == (
        "12 files: 9 clean, 2 with violations, 1 unreadable")
    assert render.tally_line({"clean": 1500, "violations": 2}) == (
        "1,502 files: 1,500 clean, 2 with violations, 0 unreadable")
