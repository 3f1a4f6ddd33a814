"""The command line: exit codes, output formats, colour, hostile input, and the text renderer."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.output import render
from referee.replay import check_path

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "examples" / "logs"


def run(*args: str, stdin: bytes | None = None, env: dict | None = None):
    import os

    environment = {**os.environ, **(env or {})}
    done = subprocess.run([sys.executable, "-m", "referee", *args], input=stdin,
                          capture_output=True, env=environment, cwd=ROOT, timeout=120)
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def test_exit_codes_clean_violations_unreadable(tmp_path):
    assert main(["check", str(LOGS / "clean-6-players.log"), "--format", "json"]) == 0
    assert main(["check", str(LOGS / "revoke.log"), "--format", "json"]) == 1
    binary = tmp_path / "bad.log"
    binary.write_bytes(b'\x00\xff\xfe garbage [Players "A B')
    assert main(["check", str(binary), "--format", "json"]) == 2
    assert main(["check", str(tmp_path / "missing.log"), "--format", "json"]) == 2
    assert main(["frobnicate"]) == 2
    assert main(["check"]) == 2


def test_text_output_has_position_code_excerpt_and_caret():
    code, out, err = run("check", "examples/logs/revoke.log")
    assert code == 1 and not err
    first = out.splitlines()[0]
    assert first.startswith("examples/logs/revoke.log:") and " CH201 revoke  " in first
    assert first.endswith("[R5.2]")
    caret = out.splitlines()[2]
    assert caret.strip().startswith("|") and "^^" in caret
    assert "\x1b[" not in out  # not a terminal: no colour


def test_hostile_files_never_give_a_traceback(tmp_path):
    cases = {
        "nul.log": b'\x00\xff\xfe garbage [Players "A B',
        "latin1.log": '[Players "Zoé"]\n'.encode("latin-1"),
        "empty.log": b"",
        "long.log": b"[Players \"A B C D E F\"]\ntrick 1: " + b"A 2C, " * 40000 + b"\n",
        "crlf.log": b'\xef\xbb\xbf[Players "Al Beth Charlie Dave Eve Fay"]\r\ntrick 1: Al 2C\r\n',
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    code, out, err = run("check", str(tmp_path))
    assert "Traceback" not in out + err
    assert code == 2
    for name in ("nul.log", "latin1.log", "empty.log"):
        assert check_path(tmp_path / name).verdict == "unreadable"
    assert check_path(tmp_path / "crlf.log").verdict == "clean"
    assert check_path(tmp_path / "long.log").verdict == "violations"


def test_json_and_jsonl_schema():
    code, out, _ = run("check", "--format", "json", "examples/logs/revoke.log",
                       "examples/logs/clean-7-players.log")
    data = json.loads(out)
    assert code == 1 and [f["verdict"] for f in data["files"]] == ["violations", "clean"]
    diag = data["files"][0]["diagnostics"][0]
    assert set(diag) >= {"kind", "code", "severity", "line", "column", "hand", "trick", "player",
                         "message", "rule"}
    clean = data["files"][1]
    assert clean["winners"] and clean["hands"][0]["points"] and clean["hands"][0]["totals"]
    code, out, _ = run("check", "--format", "jsonl", "examples/logs/clean-6-players.log",
                       "examples/logs/syntax.log")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [f["path"] for f in lines] == ["examples/logs/clean-6-players.log", "examples/logs/syntax.log"]


def test_stdin_and_directories():
    code, out, _ = run("check", "--format", "json", "-", stdin=(LOGS / "revoke.log").read_bytes())
    assert code == 1 and json.loads(out)["files"][0]["path"] == "<stdin>"
    code, out, _ = run("check", "--format", "jsonl", "examples/logs")
    assert code == 1 and len(out.splitlines()) == len(list(LOGS.glob("*.log")))


def test_colour_only_when_asked_and_no_color_respected():
    report = check_path(LOGS / "revoke.log")
    plain, coloured = io.StringIO(), io.StringIO()
    render.render_text([report], stream=plain, color=False, width=100)
    render.render_text([report], stream=coloured, color=True, width=100)
    assert "\x1b[" not in plain.getvalue() and "\x1b[" in coloured.getvalue()
    assert "CH201 revoke" in plain.getvalue() and "violations by kind" in plain.getvalue()
    code, out, _ = run("check", "examples/logs/revoke.log", env={"NO_COLOR": "1"})
    assert "\x1b[" not in out


def test_explain_rules_replay_and_fmt(tmp_path):
    code, out, _ = run("explain", "revoke")
    assert code == 0 and out.startswith("CH201 revoke (error, rule R5.2)") and "Example:" in out
    assert run("explain", "CH301")[1].startswith("CH301 miscounted-cancellation")
    assert run("explain", "nonsense")[0] == 2
    code, out, _ = run("rules", "standard")
    assert code == 0 and "first_leader" in out and "two_of_clubs" in out
    code, out, _ = run("replay", "examples/logs/stops-mid-trick.log")
    assert code == 0 and "hand 1" in out and "trick  1" in out
    assert "the record stops in hand 2 at trick 5:" in out and "to play (legal:" in out
    source = LOGS / "clean-6-players.log"
    copy = tmp_path / "game.log"
    copy.write_bytes(source.read_bytes().replace(b"trick 1:", b"TRICK   1 :", 1))
    before = copy.read_bytes()
    code, out, _ = run("fmt", str(copy))
    assert code == 0 and copy.read_bytes() == before, "fmt must not touch the file"
    assert "trick 1:" in out
    assert run("fmt", "--write", str(copy))[0] == 0
    assert copy.read_text("utf-8") == out


@pytest.mark.parametrize("name", ["revoke", "miscounted-cancellation", "clean-8-players"])
def test_referee_never_modifies_its_input(name, tmp_path):
    path = LOGS / f"{name}.log"
    before = path.read_bytes()
    main(["check", str(path), "--format", "json"])
    assert path.read_bytes() == before


def test_every_code_cites_a_clause_that_the_rulebook_defines():
    from referee.check.codes import all_codes
    from referee.rules.rulebook import clause

    for code in all_codes():
        assert clause(code.clause), f"{code.code} cites {code.clause}, which spec/rules.md lacks"
    assert clause("R99.9") is None
    code, out, _ = run("explain", "revoke")
    assert "- **R5.2** *Follow suit.*" in out


def test_generate_and_corpus_commands(tmp_path):
    log = tmp_path / "game.log"
    code, _, err = run("generate", "--players", "8", "--seed", "5", "--hands", "1",
                       "--inject", "wrong-winner", "-o", str(log))
    assert code == 0, err
    expected = json.loads((tmp_path / "game.log.expected.json").read_text("utf-8"))
    report = check_path(log)
    assert [(d.kind, d.line) for d in report.diagnostics] == [
        (v["kind"], v["line"]) for v in expected["violations"]]
    code, out, _ = run("generate", "--players", "6", "--seed", "5", "--hands", "1")
    assert code == 0 and out.startswith("[Event")
    assert run("generate", "--players", "3")[0] == 2
    code, _, _ = run("corpus", str(tmp_path / "corpus"), "--count", "3")
    assert code == 0 and (tmp_path / "corpus" / "manifest.json").exists()


def test_invariants_audit_and_verify_rules_commands(tmp_path):
    sheet = (LOGS / "scoresheet-game.log").read_text("utf-8").splitlines()
    third = [i for i, line in enumerate(sheet) if line.startswith("score:")][2]
    sheet[third] = sheet[third].replace("Beth ", "Beth 1", 1)  # Beth's score gains a digit
    path = tmp_path / "sheet.log"
    path.write_text("\n".join(sheet) + "\n", "utf-8")
    code, out, _ = run("check", "--invariants", "--format", "json", str(path))
    data = json.loads(out)["files"][0]
    assert code == 1 and any(d["kind"] == "invariant" for d in data["diagnostics"])
    assert any(i["status"] == "violated" and i["name"] == "score-sum" for i in data["invariants"])
    code, out, _ = run("audit", str(path))
    assert code == 1 and "change Beth's hand 3 score" in out
    assert run("audit", str(LOGS / "scoresheet-game.log"))[0] == 0
    code, out, _ = run("verify-rules", "standard")
    assert code == 0 and "8 of 8 properties hold" in out


def test_audit_uses_a_ruleset_file_the_log_names(tmp_path, capsys):
    (tmp_path / "jd.toml").write_text(
        'base = "standard"\nname = "jd"\njack_of_diamonds_bonus = -10\n', "utf-8")
    log = tmp_path / "moon.log"
    log.write_text('[Ruleset "jd.toml"]\n[Players "North East South West"]\nhand 1 dealer West\n'
                   "score: North -10, East 26, South 26, West 26\n", "utf-8")
    assert main(["audit", str(log)]) == 0
    assert "consistent" in capsys.readouterr().out
