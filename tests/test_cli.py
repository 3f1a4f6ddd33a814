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
from referee.run.single import check_path

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


@pytest.mark.slow
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
    assert code == 0 and out.startswith("CH201 revoke (error, rule R5.2; also R5.5)")
    assert "Example:" in out
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
    from referee.judge.codes import all_codes
    from referee.rules.rulebook import clause

    for code in all_codes():
        assert clause(code.clause), f"{code.code} cites {code.clause}, which spec/rules.md lacks"
    assert clause("R99.9") is None
    code, out, _ = run("explain", "revoke")
    assert "\nR5.2 Follow suit. A player must" in out


@pytest.mark.slow
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


def test_generate_writes_its_file_whole_and_not_through_a_link(tmp_path):
    elsewhere = tmp_path / "elsewhere.log"
    elsewhere.write_text("kept\n", "utf-8")
    (tmp_path / "link.log").symlink_to(elsewhere)
    code, _, err = run("generate", "--players", "6", "--seed", "5", "--hands", "1", "-o",
                       str(tmp_path / "link.log"))
    assert code == 2 and "symbolic link" in err and "Traceback" not in err
    assert elsewhere.read_text("utf-8") == "kept\n"
    log = tmp_path / "game.log"
    log.write_text("old\n", "utf-8")
    log.chmod(0o640)
    assert run("generate", "--players", "6", "--seed", "5", "--hands", "1", "-o", str(log))[0] == 0
    assert log.read_text("utf-8").startswith("[Event") and log.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir() if "referee-tmp" in p.name] == []


@pytest.mark.slow
def test_invariants_audit_and_verify_rules_commands(tmp_path):
    sheet = (LOGS / "scoresheet-game.log").read_text("utf-8").splitlines()
    third = [i for i, line in enumerate(sheet) if line.startswith("score:")][2]
    sheet[third] = sheet[third].replace("Beth ", "Beth 1", 1)  # Beth's score gains a digit
    path = tmp_path / "sheet.log"
    path.write_text("\n".join(sheet) + "\n", "utf-8")
    code, out, _ = run("check", "--invariants", "--format", "json", str(path))
    data = json.loads(out)["files"][0]
    # the one fault is Beth's score (its total shows it); the laws it breaks are recorded, and
    # not reported again
    assert code == 1 and [d["kind"] for d in data["diagnostics"]] == ["score-mismatch"]
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


def test_a_clean_file_says_only_the_tally_unless_asked(capsys):
    clean = "examples/logs/clean-6-players.log"
    assert main(["check", clean]) == 0
    assert capsys.readouterr().out == "1 file, clean\n"
    assert main(["check", "--show-clean", clean]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("examples/logs/clean-6-players.log: clean; ruleset cancellation, 6 players, "
                      "11 hands, game over, won by Dave")
    assert out[-1] == "1 file, clean"


def test_a_run_over_many_files_ends_with_the_tally(tmp_path, capsys):
    broken = tmp_path / "broken.log"
    broken.write_bytes(b"\x00\xff")
    paths = ["examples/logs/revoke.log", "examples/logs/clean-7-players.log", str(broken),
             "examples/logs/clean-standard.log"]
    assert main(["check", *paths]) == 2
    out = capsys.readouterr().out
    assert out.endswith("\n4 files: 2 clean, 1 with violations, 1 unreadable\n")
    assert "revoke.log: 1 violation" in out and "broken.log: unreadable" in out
    assert "clean-7-players" not in out and "clean-standard" not in out
    assert main(["check", "--show-clean", *paths]) == 2
    out = capsys.readouterr().out
    assert "clean-7-players.log: clean" in out and "clean-standard.log: clean" in out


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_machine_formats_have_no_tally_anywhere(fmt):
    code, out, err = run("check", "--format", fmt, "examples/logs/revoke.log",
                         "examples/logs/clean-6-players.log")
    assert code == 1 and err == ""
    assert "files:" not in out and "1 file" not in out
    if fmt == "json":
        assert [f["verdict"] for f in json.loads(out)["files"]] == ["violations", "clean"]
    else:
        assert len(out.splitlines()) == 2  # one line per file, and nothing else


def test_explain_shows_every_clause_a_kind_may_cite(capsys):
    from referee.rules.rulebook import clause_plain

    assert main(["explain", "CH101"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("CH101 bad-setup (error, rule R10.2; also R1.1, R9.2, R10.3, R10.4, "
                          "R10.5, R10.9)\n")
    assert "\nRule R10.2 (spec/rules.md):\nR10.2 Players. The `Players` tag" not in out
    assert "\nRule R10.2 (spec/rules.md):\nR10.2 Players. The Players tag is required" in out
    # "'Zed' is not seated at this table" cites R10.5, and explain quotes it
    assert ("\nRule R10.5 (spec/rules.md, where it is more precise):\n"
            "R10.5 Names. Every player name in a statement is a seated player") in out
    assert out.index("Rule R10.2") < out.index("Rule R1.1") < out.index("Rule R10.5")
    for cited in ("R1.1", "R9.2", "R10.3", "R10.4", "R10.5"):
        assert clause_plain(cited) in out


def test_explain_quotes_a_clause_and_the_kinds_that_cite_it(capsys):
    for asked in ("R5.2", "5.2", "r5.2"):
        assert main(["explain", asked]) == 0
        assert capsys.readouterr().out == (
            "Rule R5.2 (spec/rules.md):\n"
            "R5.2 Follow suit. A player must play a card of the led suit if able. Not "
            "following while able is a revoke. The led suit is the suit of the card led, even "
            "when that card is later cancelled (R6.2).\n"
            "\n"
            "Cited by: CH201 revoke (its default)\n")
    assert main(["explain", "R4.1"]) == 0
    assert capsys.readouterr().out.endswith(
        "\nCited by: CH202 illegal-lead, CH205 wrong-leader, CH206 illegal-play\n")
    assert main(["explain", "R10.6"]) == 0
    assert capsys.readouterr().out.endswith("\nNo diagnostic kind cites R10.6.\n")
    assert main(["explain", "R5"]) == 0
    assert capsys.readouterr().out == (
        "Rule R5 (spec/rules.md):\nR5 Following\nR5.1 One card each.\n"
        "R5.2 Follow suit.\nR5.3 Void.\nR5.4 Only held cards.\n"
        "R5.5 Lead suit.\nR5.6 A legal card.\n\n"
        "Cited by: CH601 invariant\n")
    assert main(["explain", "R99.9"]) == 2
    assert "spec/rules.md has no clause R99.9" in capsys.readouterr().err
    assert main(["explain", "frobnicate"]) == 2


def test_every_command_names_a_function_that_exists():
    from referee import cli

    parser_commands = set(cli._parser()._subparsers._group_actions[0].choices)
    assert parser_commands == set(cli._COMMANDS)
    for name in cli._COMMANDS:
        assert callable(cli.command(name))
