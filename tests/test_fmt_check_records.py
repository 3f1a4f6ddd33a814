"""JSON game records outside `check FILE`: `fmt` prints a record as its canonical log text, and
`check DIR` judges the records in a directory with its logs (and no other JSON file)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "examples" / "records"
LOGS = ROOT / "examples" / "logs"


def test_fmt_prints_a_record_as_its_log_text(capsys):
    assert main(["fmt", str(RECORDS / "revoke.json")]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[:2] == ["# One revoke violation (generated, seed 1).",
                         '[Event "generated game, seed 1"]']
    assert '[Players "Al Beth Charlie Dave Eve Fay"]' in lines
    assert "trick 1: Al 10C, Beth 5C, Charlie AD, Dave KC, Eve 9C, Fay 7C -> Dave" in lines
    assert main(["fmt", str(LOGS / "revoke.log")]) == 0  # the record holds that log
    assert capsys.readouterr().out == out


def test_fmt_of_an_invalid_record_says_each_problem_and_exits_2(capsys):
    assert main(["fmt", str(RECORDS / "invalid.json")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    problems = captured.err.splitlines()
    assert len(problems) == 5
    assert problems[0].startswith(f"{RECORDS / 'invalid.json'}:8:15: CH001 syntax")
    assert "/hands/0/trciks" in problems[1]


def test_fmt_write_refuses_to_turn_a_record_into_a_log(tmp_path, capsys):
    record = tmp_path / "game.json"
    shutil.copy(RECORDS / "revoke.json", record)
    before = record.read_bytes()
    assert main(["fmt", "--write", str(record)]) == 2
    assert "referee convert" in capsys.readouterr().err
    assert record.read_bytes() == before


def _checked(directory: Path, capsys) -> tuple[int, dict[str, str]]:
    code = main(["check", "--format", "jsonl", str(directory)])
    lines = capsys.readouterr().out.splitlines()
    files = [json.loads(line) for line in lines]
    return code, {Path(f["path"]).relative_to(directory).as_posix(): f["verdict"] for f in files}


def test_check_dir_judges_records_with_logs_and_skips_other_json(tmp_path, capsys):
    shutil.copy(LOGS / "clean-6-players.log", tmp_path / "clean.log")
    (tmp_path / "games").mkdir()
    shutil.copy(RECORDS / "revoke.json", tmp_path / "games" / "revoke.json")
    shutil.copy(RECORDS / "invalid.json", tmp_path / "games" / "invalid.json")
    shutil.copy(LOGS / "revoke.expected.json", tmp_path / "revoke.expected.json")
    (tmp_path / "settings.json").write_text('{"theme": "dark"}\n', encoding="utf-8")
    code, verdicts = _checked(tmp_path, capsys)
    assert verdicts == {"clean.log": "clean", "games/invalid.json": "unreadable",
                        "games/revoke.json": "violations"}
    assert code == 2


def test_check_dir_of_records_only(tmp_path, capsys):
    shutil.copy(RECORDS / "revoke.json", tmp_path / "a.json")
    code, verdicts = _checked(tmp_path, capsys)
    assert (code, verdicts) == (1, {"a.json": "violations"})


def test_check_dir_with_no_log_and_no_record_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "settings.json").write_text('{"theme": "dark"}\n', encoding="utf-8")
    assert main(["check", str(tmp_path)]) == 2
    assert "no log files (.log, .txt, .hearts) or JSON game records" in capsys.readouterr().err


def test_check_dir_finds_a_record_whose_format_member_comes_last(tmp_path, capsys):
    record = json.loads((RECORDS / "revoke.json").read_text(encoding="utf-8"))
    reordered = {key: record[key] for key in sorted(record, key=lambda k: k in ("format", "version"))}
    text = json.dumps(reordered, indent=2)
    assert text.index('"format"') > 4096  # beyond the first few KiB
    (tmp_path / "last.json").write_text(text, encoding="utf-8")
    assert _checked(tmp_path, capsys) == (1, {"last.json": "violations"})
