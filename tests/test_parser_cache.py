"""The cached grammar terminals (parser._line_reader, logfast.read_facts): a clean log is
read without Lark, and no state of the cache directory (missing, empty, corrupt, stale,
unwritable, unsafe) can crash the parser or change what it reads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_parser_fast import spans

from referee.log import fast as logfast
from referee.log import parser

ROOT = Path(__file__).resolve().parent.parent
LOG = (ROOT / "examples" / "logs" / "revoke.log").read_text("utf-8")
MIXED = LOG + "trik 1: Al 2C\n# note\ntrick 9: Al ZZ\n[Tag \"x\"]\nmoon Al add\n"
EXPECTED = parser.parse_log(MIXED)


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A process that has built nothing yet, with its cache directory in tmp_path."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(parser, "_STATE", {})
    return tmp_path / "referee"


def _reads_as_expected() -> None:
    result = parser.parse_log(MIXED)
    assert result.issues == EXPECTED.issues
    assert result.events == EXPECTED.events
    assert spans(result.events) == spans(EXPECTED.events)


def _facts_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("log-terminals-*.marshal"))


def _contents_of(data: bytes):
    import marshal

    return marshal.loads(data[4:])


def _contents(path: Path):
    return _contents_of(path.read_bytes())


def _without_lark(monkeypatch) -> None:
    """Building the Lark parser now fails the test (so does a line that needs Lark)."""
    monkeypatch.setattr(parser, "_STATE", {})

    def no_lark():
        raise AssertionError("Lark was needed")

    monkeypatch.setattr(parser, "_parser", no_lark)


def test_first_run_writes_the_cache_and_the_next_reads_without_lark(fresh, monkeypatch):
    _reads_as_expected()
    (written,) = _facts_files(fresh)
    assert not [p for p in fresh.iterdir() if p.name.endswith(".tmp")]
    _without_lark(monkeypatch)
    result = parser.parse_log(LOG)
    assert result.issues == () and result.events == parser.parse_log(LOG).events
    assert _facts_files(fresh) == [written]


@pytest.mark.parametrize("damage", [
    lambda data: b"",
    lambda data: data[: len(data) // 2],
    lambda data: data[:100] + bytes([data[100] ^ 0x20]) + data[101:],
    lambda data: b"\x00" * 4 + data[4:],
    lambda data: os.urandom(len(data)),
])
def test_a_corrupt_cache_is_rebuilt(fresh, damage):
    _reads_as_expected()
    (path,) = _facts_files(fresh)
    good = path.read_bytes()
    path.write_bytes(damage(good))
    parser._STATE.clear()
    _reads_as_expected()
    assert _contents(path) == _contents_of(good)


def test_a_cache_of_the_wrong_shape_is_not_used(fresh):
    import marshal
    import zlib

    _reads_as_expected()
    (path,) = _facts_files(fresh)
    good = path.read_bytes()
    form, grammar, version, terminals, rules = marshal.loads(good[4:])
    for facts in [(form + 1, grammar, version, terminals, rules),
                  (form, grammar + " ", version, terminals, rules),
                  (form, grammar, version + ".1", terminals, rules),
                  (form, grammar, version, {"NAME": 1}, rules),
                  (form, grammar, version, terminals, [(1, [])]),
                  (form, grammar, version, {}, rules),
                  (form, grammar, version)]:
        data = marshal.dumps(facts)
        path.write_bytes(zlib.crc32(data).to_bytes(4, "big") + data)
        parser._STATE.clear()
        _reads_as_expected()
        assert _contents(path) == _contents_of(good)  # not used, and written again


def test_another_grammar_has_its_own_cache(fresh, monkeypatch):
    _reads_as_expected()
    text = parser.grammar_text()
    monkeypatch.setattr(parser, "grammar_text", lambda: text + "\n// edited\n")
    parser._STATE.clear()
    _reads_as_expected()
    assert len(_facts_files(fresh)) == 2


def test_a_lark_version_that_cannot_be_told_is_not_cached(fresh, monkeypatch):
    for version in (None, "0.0.0"):  # unknown, or not the Lark that is imported
        monkeypatch.setattr(logfast, "lark_version", lambda: version)
        parser._STATE.clear()
        _reads_as_expected()
        assert _facts_files(fresh) == []


def test_no_cache_directory_still_reads(fresh, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    _reads_as_expected()


def test_an_unsafe_cache_directory_is_not_used(fresh):
    fresh.mkdir(mode=0o700)
    os.chmod(fresh, 0o777)  # writable by others: nothing is read from it or written to it
    _reads_as_expected()
    assert list(fresh.iterdir()) == []


def test_a_cache_directory_that_is_a_symbolic_link_is_not_followed(fresh, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    fresh.symlink_to(elsewhere)  # even to a private directory: the link itself could be swapped
    _reads_as_expected()
    assert list(elsewhere.iterdir()) == []


def test_an_unwritable_cache_file_still_reads(fresh, monkeypatch):
    _reads_as_expected()
    (path,) = _facts_files(fresh)
    path.unlink()
    path.mkdir()  # neither readable as a file nor replaceable
    parser._STATE.clear()
    _reads_as_expected()
    assert path.is_dir() and not [p for p in fresh.iterdir() if p.name.endswith(".tmp")]


def test_lark_version_is_found_without_importing_it(monkeypatch):
    import lark

    monkeypatch.delitem(sys.modules, "lark")
    assert logfast.lark_version() == lark.__version__
    assert "lark" not in sys.modules


_CHECK = """
import sys
from referee.replay import check_path
report = check_path(sys.argv[1])
print(report.verdict, "lark" in sys.modules)
"""


def test_a_clean_log_is_checked_without_importing_lark(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    path = str(ROOT / "examples" / "logs" / "clean-6-players.log")

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", _CHECK, path], capture_output=True,
                              text=True, cwd=ROOT, env=env, check=True)
        return done.stdout.strip()

    assert run() == "clean True"  # an empty cache: Lark gives the terminals, once
    assert run() == "clean False"


def test_corrupt_parser_tables_are_rebuilt(fresh):
    _reads_as_expected()
    (tables,) = fresh.glob("log-grammar-*.lark-cache")
    tables.write_bytes(b"not a pickle")
    parser._STATE.clear()
    _reads_as_expected()  # MIXED has lines only Lark reads
