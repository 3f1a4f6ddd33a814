"""`referee check --format github`: one GitHub Actions workflow command per diagnostic."""

from __future__ import annotations

from pathlib import Path

from referee.judge.diagnostics import Diagnostic, Related, Report
from referee.cli import main
from referee.output.github import escape_data, escape_property, report_lines

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "examples" / "logs"


def test_a_revoke_is_an_error_annotation_at_its_place(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "--format", "github", "examples/logs/revoke.log"]) == 1
    assert capsys.readouterr().out == (
        "::error file=examples/logs/revoke.log,line=21,col=35,endColumn=37,title=CH201 revoke"
        "::Charlie played AD to a club lead while holding AC (dealt on line 10) [R5.2]\n")


def test_a_clean_log_says_nothing_and_what_is_unchecked_is_a_notice(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["check", "--format", "github", "examples/logs/clean-6-players.log",
                 "examples/logs/stops-mid-trick.log"]) == 0
    assert capsys.readouterr().out == (
        "::notice file=examples/logs/stops-mid-trick.log,title=not checked::the record stops "
        "in hand 2 at trick 5: Dave to play (legal: 6S QS)\n")


def test_properties_and_message_are_escaped_as_the_runner_reads_them():
    diag = Diagnostic("revoke", "CH201", "error", 3, 4, 3, 6, "50% of it\r\nand more",
                      "R5.2", related=(Related(9, 1, "a: b, c"),))
    report = Report(path="a,b:c%.log", diagnostics=[diag], suppressed={"revoke": 2},
                    unchecked=["x\ny"])
    assert report_lines(report) == [
        # controls in the log's text are shown as escapes (as in the text output); the
        # evidence follows on a line of its own
        ("::error file=a%2Cb%3Ac%25.log,line=3,col=4,endColumn=6,title=CH201 revoke"
         "::50%25 of it\\x0d\\x0aand more [R5.2]%0Aa: b, c (line 9)"),
        ("::warning file=a%2Cb%3Ac%25.log,title=more diagnostics::and 2 more revoke "
         "diagnostics (--max-diagnostics N shows more)"),
        "::notice file=a%2Cb%3Ac%25.log,title=not checked::x\\x0ay",
    ]


def test_the_runner_escapes():
    assert escape_data("100% sure\r\nnext: a, b") == "100%25 sure%0D%0Anext: a, b"
    assert escape_property("C:\\logs\\a,b%\n") == "C%3A\\logs\\a%2Cb%25%0A"


def test_a_note_is_a_notice_and_a_place_without_a_line_has_none():
    diag = Diagnostic("undecided", "CH602", "note", 0, 0, 0, 0, "no answer", "R7.2")
    assert report_lines(Report(path="g.log", diagnostics=[diag])) == [
        "::notice file=g.log,title=CH602 undecided::no answer [R7.2]"]


def test_every_line_of_the_examples_is_one_workflow_command(capsys):
    main(["check", "--format", "github", str(LOGS)])
    lines = capsys.readouterr().out.split("\n")
    assert lines[-1] == "" and len(lines) > 20
    assert all(line.startswith(("::error file=", "::warning file=", "::notice file="))
               for line in lines[:-1])
