"""``referee.check``, the entry point for checking from Python, and docs/api.md's examples."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import referee
from referee.rules.ruleset import load_ruleset
from referee.run.single import check_path, check_text

ROOT = Path(__file__).resolve().parent.parent
REVOKE = ROOT / "examples" / "logs" / "revoke.log"


def test_the_examples_of_docs_api_hold(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False)
    assert result.attempted >= 8 and result.failed == 0


@pytest.mark.parametrize("path", [str(REVOKE), REVOKE])
def test_a_path_as_str_or_pathlike_is_checked_as_the_file(path):
    report = referee.check(path)
    assert report.to_json() == check_path(REVOKE).to_json()
    assert report.path == str(REVOKE)
    assert [(d.code, d.line, d.column) for d in report.diagnostics] == [("CH201", 21, 35)]


def test_text_and_data_are_checked_as_the_log_they_hold():
    text = REVOKE.read_text("utf-8")
    by_text = referee.check(text=text, path="table 4")
    by_data = referee.check(data=text.encode("utf-8"), path="table 4")
    assert by_text.path == by_data.path == "table 4"
    assert by_text.to_json() == by_data.to_json() == check_text(text, "table 4").to_json()
    assert referee.check(text=text).path == "<string>"
    assert referee.check(data=b"").verdict == "unreadable"


def test_the_options_reach_the_check():
    assert referee.check(REVOKE, ruleset=load_ruleset("standard")).ruleset == "standard"
    quiet = referee.check(REVOKE, max_diagnostics=0)
    assert quiet.diagnostics == [] and quiet.suppressed == {"revoke": 1}


@pytest.mark.parametrize(("arguments", "error"), [
    ({}, TypeError),                                  # no log
    ({"text": "x\n", "data": b"x\n"}, TypeError),     # two logs
    ({"path": b"game.log"}, TypeError),               # bytes are data=, not a path
    ({"path": 7}, TypeError),
    ({"path": "[Players \"Al Beth\"]\nhand 1\n"}, ValueError),  # text given as a path
])
def test_a_call_that_names_no_single_log_is_refused(arguments, error):
    with pytest.raises(error, match="check()"):
        referee.check(**arguments)


def test_a_missing_file_is_an_unreadable_report_not_an_exception(tmp_path):
    report = referee.check(tmp_path / "no such.log")
    assert report.verdict == "unreadable"
    assert "No such file" in report.unreadable
