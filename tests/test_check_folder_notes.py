"""`referee check DIR` passes over a club's notes (.txt files with no log line in them) with
one note, instead of counting them unreadable; a file named on the command line is a log."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "examples" / "logs"


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A club's folder: one clean log, and notes beside it with no log line."""
    shutil.copy(LOGS / "clean-6-players.log", tmp_path / "night-1.log")
    (tmp_path / "notes.txt").write_text("Club night, 3 March\nAl owes Beth 2 euros.\n\n"
                                        "Table 2 started late: trick 3 was replayed.\n")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "later").mkdir()
    (tmp_path / "later" / "todo.txt").write_text("# bring cards\n\n# and the score pad\n")
    return tmp_path


def test_a_folder_s_notes_are_passed_over_with_one_note(club, capsys):
    assert main(["check", str(club)]) == 0
    out = capsys.readouterr().out
    assert out == (f"passed over 3 files with no log line in them (not counted): "
                   f"{club / 'empty.txt'}, {club / 'later' / 'todo.txt'}, {club / 'notes.txt'}\n"
                   "1 file, clean\n")


def test_the_note_speaks_the_reader_s_language_and_parallel_runs_agree(club, capsys):
    assert main(["check", str(club), "--jobs", "2", "--lang", "de"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("3 Dateien ohne Protokollzeile übergangen (nicht gezählt): ")
    assert lines[1:] == ["1 Datei, fehlerfrei"]


def test_a_program_s_output_stays_one_document_and_the_note_goes_to_stderr(club, capsys):
    assert main(["check", str(club), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert [f["path"] for f in json.loads(captured.out)["files"]] == [str(club / "night-1.log")]
    assert captured.err.startswith("passed over 3 files with no log line in them")


def test_a_notes_file_with_one_log_line_is_a_log(club, capsys):
    (club / "notes.txt").write_text("Club night\n[Players \"Al Beth Charlie Dave Eve Fay\"]\n")
    assert main(["check", str(club)]) == 1
    out = capsys.readouterr().out
    assert f"{club / 'notes.txt'}:1:1: CH001 syntax" in out
    assert "passed over 2 files" in out and out.endswith("2 files: 1 clean, 1 with violations, "
                                                         "0 unreadable\n")


def test_a_binary_file_and_a_named_notes_file_are_still_unreadable(club, capsys):
    (club / "scan.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    assert main(["check", str(club)]) == 2
    out = capsys.readouterr().out
    assert f"{club / 'scan.txt'}: unreadable" in out and "passed over 3 files" in out
    assert main(["check", str(club / "notes.txt")]) == 2
    out = capsys.readouterr().out
    assert "unreadable: nothing in this file reads as a log statement" in out
    assert "passed over" not in out
