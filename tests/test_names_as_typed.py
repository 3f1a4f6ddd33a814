"""Names as players type them: a list joined with "and", semicolons, a full stop after the last
name, an accent sent as a letter and a combining mark, a typographic apostrophe.  Each reads as
the names seated, so the clean log stays clean; a name that is not seated is still reported."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from referee.log.words import split_players
from referee.run.single import check_text

SIX = (Path(__file__).resolve().parent.parent / "examples" / "logs" /
       "clean-6-players.log").read_text("utf-8")
TAG = '[Players "Al Beth Charlie Dave Eve Fay"]'
NAMES = ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]


@pytest.mark.parametrize("value, names", [
    ("Al, Beth, Charlie, Dave, Eve and Fay", NAMES),
    ("Al, Beth, Charlie, Dave, Eve, and Fay", NAMES),
    ("Al; Beth; Charlie; Dave; Eve; Fay", NAMES),
    ("Al Beth Charlie Dave Eve Fay.", NAMES),
    ("Anna, Beth e Carla", ["Anna", "Beth", "Carla"]),
    ("Anna, Beth und Carla", ["Anna", "Beth", "Carla"]),
    ("Anna, Beth et Carla", ["Anna", "Beth", "Carla"]),
    ("Олена, Марко та Іван", ["Олена", "Марко", "Іван"]),
    # initials: a letter between commas, or a list without commas, is a name
    ("A, B, C, D, E, F", ["A", "B", "C", "D", "E", "F"]),
    ("A B C D E F", ["A", "B", "C", "D", "E", "F"]),
    ("A. B. C.", ["A.", "B.", "C."]),
    ("Al 'Mary Ann' \"Jo Jo\"", ["Al", "Mary Ann", "Jo Jo"]),
])
def test_a_players_list_as_typed_reads_as_its_names(value, names):
    assert split_players(value) == names


@pytest.mark.parametrize("line", [
    "Players: Al, Beth, Charlie, Dave, Eve and Fay",
    "Players: Al; Beth; Charlie; Dave; Eve; Fay",
    "Players: Al Beth Charlie Dave Eve Fay.",
])
def test_a_clean_log_with_its_players_so_typed_is_clean(line):
    assert TAG in SIX
    assert check_text(SIX.replace(TAG, line), "t.log").verdict == "clean"


def _renamed(old: str, new: str, body: str | None = None, *, starts=("trick 3", "score")) -> str:
    """The clean log with ``old`` seated as ``new``, written as ``body`` on the lines that
    start with ``starts``."""
    lines = SIX.replace(old, new).split("\n")
    return "\n".join(line.replace(new, body) if body and line.startswith(starts) else line
                     for line in lines)


def test_an_accent_sent_as_a_combining_mark_is_the_same_name():
    decomposed = unicodedata.normalize("NFD", "José")
    assert decomposed != "José"
    assert check_text(_renamed("Charlie", "José", decomposed), "t.log").verdict == "clean"
    seated_decomposed = _renamed("Charlie", "José").replace(
        '"Al Beth José', f'"Al Beth {decomposed}')
    assert check_text(seated_decomposed, "t.log").verdict == "clean"


def test_a_typographic_apostrophe_is_the_same_name():
    assert check_text(_renamed("Dave", "O'Neil", "O’Neil"), "t.log").verdict == "clean"


def test_a_name_not_seated_is_still_one_diagnostic():
    lines = SIX.replace("Charlie", "José").split("\n")
    lines[21] = lines[21].replace("José", "Jose")  # line 22, hand 1's trick 3
    diagnostics = check_text("\n".join(lines), "t.log").diagnostics
    assert [(d.kind, d.line, d.hint) for d in diagnostics] == [
        ("bad-setup", 22, "did you mean 'José'?")]


@pytest.mark.parametrize("mark", ["\u200b", "\ufeff", "\u200e", "\u200f", "\u2060"])
def test_a_character_that_shows_nothing_is_read_as_a_blank(mark):
    lines = SIX.split("\n")
    lines[60] = mark + lines[60]  # line 61: before the statement's word
    lines[61] = lines[61].replace("Al ", f"Al{mark} ", 1)  # line 62: after a name in a trick
    assert check_text("\n".join(lines), "t.log").verdict == "clean"
    lines[61] = lines[61].replace("9C", f"9{mark}C", 1)  # inside a card: still a slip
    assert [(d.kind, d.line) for d in check_text("\n".join(lines), "t.log").diagnostics] == [
        ("syntax", 62)]


@pytest.mark.parametrize("word", ["nessuno", "Niemand", "personne", "ніхто", "NOBODY"])
def test_nobody_in_a_club_s_language_claims_a_set_aside_trick(word):
    line = "trick 2: Dave 4C, Eve 3C, Fay 5C, Al 5C, Beth 4C, Charlie 3C -> none"  # line 123
    assert line in SIX
    assert check_text(SIX.replace(line, line.replace("none", word)), "t.log").verdict == "clean"
    won = "trick 1: Fay 2S, Al 3S, Beth 6S, Charlie 3S, Dave 4S, Eve 2S -> Beth"  # line 20
    diagnostics = check_text(SIX.replace(won, won.replace("-> Beth", f"-> {word}")),
                             "t.log").diagnostics
    assert [(d.kind, d.line) for d in diagnostics] == [("miscounted-cancellation", 20)]


def test_a_name_in_single_quotes_on_a_score_line_is_shown_in_double_quotes():
    seated = SIX.replace("Charlie", '"Mary Ann"').replace(
        '[Players "Al Beth "Mary Ann" Dave Eve Fay"]',
        "[Players \"Al Beth 'Mary Ann' Dave Eve Fay\"]")
    assert check_text(seated, "t.log").verdict == "clean"
    lines = seated.split("\n")
    lines[36] = lines[36].replace('"Mary Ann"', "'Mary Ann'")  # line 37, hand 1's score line
    (found,) = check_text("\n".join(lines), "t.log").diagnostics
    assert (found.kind, found.line, found.column, found.end_column) == ("syntax", 37, 22, 32)
    assert found.hint == "did you mean: score: Al 4, Beth 5, \"Mary Ann\" 4, Dave 7, Eve 26, Fay 6"
