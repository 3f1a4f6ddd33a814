"""Every public command over a small corpus of hostile files: a diagnostic or a usage error,
never a traceback or an internal error."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.cli import main

PLAYERS = '[Players "Ann Bob Cat Dan Eve Fay"]\n'
RECORD = (Path(__file__).resolve().parent.parent / "examples" / "records" / "revoke.json"
          ).read_bytes()
POSITION = re.compile(r":\d+:\d+:")


def _corpus(folder):
    """name -> path of a hostile log (the missing one is never written)."""
    elsewhere = folder / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x.toml").write_text('base = "cancellation"\n', "utf-8")
    (folder / "a.toml").write_text('base = "b.toml"\n', "utf-8")
    (folder / "b.toml").write_text('base = "a.toml"\n', "utf-8")
    (folder / "step.toml").write_text('base = "cancellation"\npass_cycle = ["² left"]\n', "utf-8")
    logs = folder / "logs"
    logs.mkdir()
    texts = {
        "target": b'[Target "\xc2\xb2"]\n' + PLAYERS.encode(),
        "outside": b'[Ruleset "../elsewhere/x.toml"]\n' + PLAYERS.encode(),
        "absolute": b'[Ruleset "' + str(elsewhere / "x.toml").encode() + b'"]\n' + PLAYERS.encode(),
        "cycle": b'[Ruleset "../a.toml"]\n' + PLAYERS.encode(),
        "long": b'[Ruleset "' + b"x" * 300 + b'.toml"]\n' + PLAYERS.encode(),
        "binary": bytes(range(256)) * 4,
        "nul": b'[Players "Ann\x00Bob"]\nhand 1\x00\n',
        "wide": b"x" * 300_000 + b"\n",
        "empty": b"",
        # JSON game records: cut short, a NaN, a card no deck has, a 10-digit hand number, no object
        "record-cut": RECORD[: len(RECORD) // 2],
        "record-nan": RECORD.replace(b'"hands": [', b'"hands": [NaN, ', 1),
        "record-card": RECORD.replace(b'"2C"', b'"1Z"', 1),
        "record-number": RECORD.replace(b'"number": 1', b'"number": 1234567890', 1),
        "record-array": b'[' + RECORD + b']',
    }
    paths = {}
    for name, data in texts.items():
        paths[name] = logs / f"{name}.log"
        paths[name].write_bytes(data)
    (logs / "step.toml").write_bytes((folder / "step.toml").read_bytes())
    paths["step"] = logs / "step.log"
    paths["step"].write_text('[Ruleset "step.toml"]\n' + PLAYERS, "utf-8")
    paths["missing"] = logs / "missing.log"
    return paths


COMMANDS = {
    "check": ["check"],
    "check-json": ["check", "--format", "json"],
    "check-invariants": ["check", "--invariants"],
    "fmt": ["fmt"],
    "convert": ["convert"],
    "replay": ["replay"],
    "replay-json": ["replay", "--format", "json"],
    "report": ["report", "-o", "-"],
    "audit": ["audit"],
}
CASES = ["target", "outside", "absolute", "cycle", "long", "binary", "nul", "wide", "empty",
         "step", "missing", "record-cut", "record-nan", "record-card", "record-number",
         "record-array"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return _corpus(tmp_path_factory.mktemp("hostile"))


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_gives_a_diagnostic_or_a_usage_error(corpus, capsys, command, case):
    code = main([*COMMANDS[command], str(corpus[case])])
    out, err = capsys.readouterr()
    text = out + err
    assert "Traceback" not in text and "internal error" not in text
    well_formed = ("target", "outside", "absolute", "cycle", "long", "step")
    if command == "fmt" and case in (*well_formed, "empty"):
        assert code == 0  # fmt reads no ruleset: these are well-formed logs to it
        return
    if command == "convert" and case in well_formed:
        assert code == 0  # nor does convert: each tag is held in the record as written
        return
    assert code in (1, 2), text[-2000:]
    if command == "check-json":  # the position is the diagnostic's line and column fields
        (report,) = json.loads(out)["files"]
        assert report["error"] or all(d["line"] >= 1 and d["column"] >= 1
                                      for d in report["diagnostics"]) and report["diagnostics"]
        return
    if command == "replay-json":  # the error's place, or each diagnostic's
        view = json.loads(out)
        places = [view] if "error" in view else view["diagnostics"]
        assert places and all(d["line"] >= 1 and d["column"] >= 1 for d in places), out
        return
    if command == "report" and out:  # the page names each diagnostic's place
        assert re.search(r"line \d+, column \d+", out), out[-2000:]
        return
    usage = err.startswith("referee: ")
    assert usage or POSITION.search(text), text[-2000:]


@pytest.mark.parametrize("command", ["rules", "verify-rules"])
@pytest.mark.parametrize("name", ["a.toml", "step.toml", "long", "missing", "binary"])
def test_ruleset_commands_give_a_usage_error(corpus, capsys, command, name):
    folder = corpus["missing"].parent.parent
    path = {"long": str(folder / ("x" * 300 + ".toml")), "missing": str(folder / "none.toml"),
            "binary": str(corpus["binary"]).replace(".log", ".toml")}.get(name, str(folder / name))
    if name == "binary":
        corpus["binary"].with_suffix(".toml").write_bytes(corpus["binary"].read_bytes())
    code = main([command, path])
    out, err = capsys.readouterr()
    assert code == 2
    assert "referee: " in out + err
    assert "Traceback" not in out + err and "internal error" not in out + err
