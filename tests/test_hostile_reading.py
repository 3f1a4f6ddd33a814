"""Hostile input in the reading layer (referee/log): time, cards, the cache, memory."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from referee.log.events import Deal, Kitty, Pass, Trick
from referee.log.parser import parse_log
from referee.run.single import check_text
from referee.rules.cards import parse_card

GROWTH = 4  # the larger input is this many times the smaller
LINEAR_LIMIT = 2 * GROWTH  # quadratic work would take GROWTH ** 2 times as long
SEPARATORS = 1000  # commas in the smaller line


def _cpu_seconds(text: str) -> float:
    best = float("inf")
    for _ in range(2):
        start = time.process_time()
        parse_log(text)
        best = min(best, time.process_time() - start)
    return best


# ---- time: a run of separators in a body -------------------------------------------------------
@pytest.mark.parametrize("line", [
    "trick 1: {commas} Al\n",  # plays: a name without its card after the run
    "trick 1: Al 2C{commas}\n",  # plays: the run after the last play
    "score: {commas} Al\n",  # entries
    "winner: Al{commas} 2\n",  # names
    "deal Al: 2C{commas}\n",  # cards
])
def test_a_run_of_commas_in_a_body_is_read_in_linear_time(line):
    def log(scale: int) -> str:
        return "hand 1\n" + line.format(commas="," * (SEPARATORS * scale)) * 20

    small, large = _cpu_seconds(log(1)), _cpu_seconds(log(GROWTH))
    assert large / max(small, 1e-4) < LINEAR_LIMIT


# ---- a variation selector after a letter suit --------------------------------------------------
@pytest.mark.parametrize("selector", ["\ufe0e", "\ufe0f"])
def test_a_variation_selector_after_a_letter_suit_reads_as_the_card(selector):
    s = selector
    text = (f"hand 1\ndeal Al: 2C{s} 3c{s} 10S{s}\npass Al: QS{s}\nkitty: 2H{s}\n"
            f"trick 1: Al 2C{s}, Bo 3H{s}\ntrick 2 Al: 4D{s} 5D{s}\ntrik 3: Al 2C\n")
    result = parse_log(text)
    by_kind = {type(event): event for event in result.events}
    assert by_kind[Deal].run.cards == tuple(map(parse_card, ("2C", "3C", "10S")))
    assert by_kind[Pass].run.cards == (parse_card("QS"),)
    assert by_kind[Kitty].run.cards == (parse_card("2H"),)
    tricks = [event for event in result.events if isinstance(event, Trick)]
    assert [tuple(p.card for p in t.plays) for t in tricks] == [
        (parse_card("2C"), parse_card("3H")), (parse_card("4D"), parse_card("5D"))]
    # the line after them is read, and judged: one syntax issue, for it alone
    assert [(issue.line, issue.message) for issue in result.issues] == [(7, "unknown statement 'trik'")]


@pytest.mark.parametrize("selector", ["\ufe0e", "\ufe0f"])
def test_the_lines_after_a_card_with_a_selector_are_still_judged(selector):
    # the second hand is led by the wrong seat: a wrong-leader diagnostic, after the selector
    log = '[Players "A B C D E F"]\nhand 1\ntrick 1: A 2C{}\nhand 2\ntrick 1: A 2C\n'
    clean, marked = check_text(log.format("")), check_text(log.format(selector))
    assert [d.kind for d in marked.diagnostics] == [d.kind for d in clean.diagnostics]
    assert "syntax" not in {d.kind for d in marked.diagnostics}
    assert [d.kind for d in marked.diagnostics] == ["wrong-leader"]


# ---- the cache directory: nothing there is run or trusted ---------------------------------------
ROOT = Path(__file__).resolve().parent.parent
CLEAN_LOG = ROOT / "examples" / "logs" / "clean-6-players.log"
HANG_SECONDS = 30  # a catastrophic regex on the poisoned line would take years


class _Planted:
    """A pickle whose loading makes the directory ``marker``: proof that it was run."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (self.marker,)


def _grammar_and_lark() -> tuple[str, str]:
    import lark

    from referee.log import parser

    return parser.grammar_text(), lark.__version__


def _plant_pickles(folder: Path, marker: Path) -> None:
    """Lark cache files that load a pickle before checking anything, under the name such a
    cache of this grammar has and under others."""
    import hashlib

    text, version = _grammar_and_lark()
    key = hashlib.sha256((text + version).encode("utf-8")).hexdigest()[:16]
    payload = b"0" * 64 + b"\n" + pickle.dumps(_Planted(str(marker)))
    for name in (f"log-grammar-{key}.lark-cache", "log-grammar.lark-cache", "tables.pickle"):
        (folder / name).write_bytes(payload)


def _plant_terminals(folder: Path, comment: str) -> None:
    """Grammar terminals, checksummed, where a cache of them was once read, with the
    whole-line comment terminal replaced."""
    import marshal

    from referee.log import parser

    text, version = _grammar_and_lark()
    terminals, rules = parser.grammar_facts(parser._parser())
    terminals = dict(terminals, COMMENT=comment)
    data = marshal.dumps((1, text, version, terminals, rules))
    key = zlib.crc32(f"{text}\0{version}\0{sys.version}".encode("utf-8"))
    (folder / f"log-terminals-{key:08x}.marshal").write_bytes(zlib.crc32(data).to_bytes(4, "big") + data)


def _check(log: Path, cache: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    return subprocess.run([sys.executable, "-m", "referee", "check", str(log)], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=HANG_SECONDS)


@pytest.fixture
def cache(tmp_path) -> Path:
    folder = tmp_path / "cache" / "referee"
    folder.mkdir(parents=True, mode=0o700)
    return folder


@pytest.fixture
def syntax_error_log(tmp_path) -> Path:
    log = tmp_path / "bad.log"
    log.write_text(CLEAN_LOG.read_text("utf-8") + "trik 1: Al 2C\n" + "x" * 40 + "\n", "utf-8")
    return log


def test_a_planted_pickle_is_never_run(cache, tmp_path, syntax_error_log):
    marker = tmp_path / "ran"
    _plant_pickles(cache, marker)
    clean = _check(CLEAN_LOG, cache.parent)
    assert (clean.returncode, marker.exists()) == (0, False)
    bad = _check(syntax_error_log, cache.parent)  # its lines need Lark's tables
    assert (bad.returncode, marker.exists()) == (1, False)
    assert "unknown statement 'trik'" in bad.stdout


@pytest.mark.parametrize("comment", [
    "[^\\n]*",  # matches every line: a syntax error would read as a comment
    "(?:x+x+)+y",  # catastrophic on a line of x
])
def test_poisoned_terminals_change_no_verdict_and_do_not_hang(cache, syntax_error_log, comment):
    expected = _check(syntax_error_log, cache.parent / "none")
    _plant_terminals(cache, comment)
    poisoned = _check(syntax_error_log, cache.parent)
    assert (poisoned.returncode, poisoned.stdout) == (expected.returncode, expected.stdout)
    assert expected.returncode == 1 and "unknown statement 'trik'" in expected.stdout


@pytest.mark.parametrize("unsafe", ["group-writable", "world-writable", "symlink"])
def test_an_unsafe_cache_directory_is_ignored(tmp_path, syntax_error_log, unsafe):
    marker = tmp_path / "ran"
    base = tmp_path / "cache"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    base.mkdir()
    if unsafe == "symlink":
        (base / "referee").symlink_to(elsewhere)
    else:
        elsewhere = base / "referee"
        elsewhere.mkdir()
        os.chmod(elsewhere, 0o770 if unsafe == "group-writable" else 0o777)
    _plant_pickles(elsewhere, marker)
    _plant_terminals(elsewhere, "[^\\n]*")
    before = sorted(p.name for p in elsewhere.iterdir())
    result = _check(syntax_error_log, base)
    assert (result.returncode, marker.exists()) == (1, False)
    assert sorted(p.name for p in elsewhere.iterdir()) == before  # nothing written there either
