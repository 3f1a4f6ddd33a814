"""The line reader's grammar facts are shipped with the package (referee/log/shipped.py), not
cached: they must be the grammar's, a clean log is read without Lark, and a grammar or Lark
they were not made from is read through Lark, the same."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from same_reading import spans

from referee.log import parser

ROOT = Path(__file__).resolve().parent.parent
LOG = (ROOT / "examples" / "logs" / "revoke.log").read_text("utf-8")
MIXED = LOG + "trik 1: Al 2C\n# note\ntrick 9: Al ZZ\n[Tag \"x\"]\nmoon Al add\n"
EXPECTED = parser.parse_log(MIXED)
REGENERATE = "the grammar changed: run python -m referee.log.parser to remake referee/log/shipped.py"


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A process that has built nothing yet, with its cache directory in tmp_path."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    made = (parser._parser, parser._line_reader)
    for function in made:
        function.cache_clear()
    yield tmp_path / "referee"
    for function in made:
        function.cache_clear()


def _reads_as_expected() -> None:
    result = parser.parse_log(MIXED)
    assert result.issues == EXPECTED.issues
    assert result.events == EXPECTED.events
    assert spans(result.events) == spans(EXPECTED.events)


def test_the_shipped_facts_are_the_grammars():
    import lark

    from referee.log import shipped

    text = parser.grammar_text()
    assert shipped.GRAMMAR_SHA256 == parser.grammar_key(text), REGENERATE
    facts = parser.grammar_facts(parser._parser())
    assert parser.shipped_facts(text, lark.__version__) == facts
    source = parser.shipped_source(text, lark.__version__, facts)
    assert (ROOT / "referee" / "log" / "shipped.py").read_text("utf-8") == source, REGENERATE


def test_a_clean_log_is_read_without_lark(fresh, monkeypatch):
    def no_lark():
        raise AssertionError("Lark was needed")

    monkeypatch.setattr(parser, "_parser", no_lark)
    result = parser.parse_log(LOG)
    assert result.issues == () and result.events == EXPECTED.events[:len(result.events)]


@pytest.mark.parametrize("change", ["grammar", "lark"])
def test_facts_not_made_from_this_grammar_and_lark_are_not_used(fresh, monkeypatch, change):
    if change == "grammar":
        text = parser.grammar_text()
        monkeypatch.setattr(parser, "grammar_text", lambda: text + "\n// edited\n")
    else:
        monkeypatch.setattr(parser, "lark_version", lambda: "0.0.0")
    used, real = [], parser.grammar_facts
    monkeypatch.setattr(parser, "grammar_facts", lambda lark: used.append(1) or real(lark))
    _reads_as_expected()
    assert used == [1]  # taken from Lark, once


def test_nothing_is_read_from_or_written_to_the_cache_directory(fresh):
    fresh.mkdir(mode=0o700)
    _reads_as_expected()  # MIXED has lines only Lark reads
    assert list(fresh.iterdir()) == []


def test_lark_version_is_found_without_importing_it(monkeypatch):
    import lark

    monkeypatch.delitem(sys.modules, "lark")
    assert parser.lark_version() == lark.__version__
    assert "lark" not in sys.modules


_CHECK = """
import sys
from referee.run.single import check_path
report = check_path(sys.argv[1])
print(report.verdict, "lark" in sys.modules)
"""


def test_a_clean_log_is_checked_without_importing_lark(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    path = str(ROOT / "examples" / "logs" / "clean-6-players.log")
    done = subprocess.run([sys.executable, "-c", _CHECK, path], capture_output=True,
                          text=True, cwd=ROOT, env=env, check=True)
    assert done.stdout.strip() == "clean False"
