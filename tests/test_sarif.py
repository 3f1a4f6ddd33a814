"""`referee check --format sarif`: SARIF 2.1.0, validated against the official schema
(tests/data/sarif-schema-2.1.0.json, the OASIS errata01 file; JSON Schema draft-04)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from referee.judge.codes import all_codes
from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text("utf-8"))
LOGS = ROOT / "examples" / "logs"
# Beth discards 9H on a club lead; her 3C, played in trick 2 (line 4), proves she held one
LATER_PROOF = ('[Players "Al Beth Charlie Dave Eve Fay"]\nhand 1 dealer Fay\n'
               "trick 1: Al 2C, Beth 9H, Charlie 5C, Dave KC, Eve 9C, Fay 3C -> Dave\n"
               "trick 2: Dave 4D, Eve 5D, Fay 6D, Al 7D, Beth 3C, Charlie 8D -> Charlie\n")


def sarif(capsys, *args: str) -> tuple[int, dict]:
    code = main(["check", "--format", "sarif", *args])
    log = json.loads(capsys.readouterr().out)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    return code, log


def test_the_schema_is_the_official_one():
    assert SCHEMA["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    jsonschema.Draft4Validator.check_schema(SCHEMA)


def test_a_revoke_is_a_result_at_its_place_with_its_rule(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, log = sarif(capsys, "examples/logs/revoke.log")
    assert code == 1
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    assert run["columnKind"] == "unicodeCodePoints"
    (result,) = run["results"]
    # examples/logs/facts.toml: Charlie's AD, line 21, column 35, breaks R5.2
    assert result["ruleId"] == "CH201" and result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "examples/logs/revoke.log"
    assert location["region"] == {"startLine": 21, "startColumn": 35, "endLine": 21,
                                  "endColumn": 37}
    assert result["message"]["text"].startswith("Charlie played AD to a club lead")
    assert result["properties"] == {"kind": "revoke", "clause": "R5.2", "hand": 1, "trick": 1,
                                    "player": "Charlie"}
    rule = run["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert (rule["id"], rule["name"]) == ("CH201", "revoke")
    assert "R5.2" in rule["help"]["text"] and "Follow suit" in rule["help"]["text"]
    assert rule["defaultConfiguration"] == {"level": "error"}


def test_every_kind_is_a_rule_once():
    from referee.output.sarif import rules

    ids = [rule["id"] for rule in rules()]
    assert ids == [code.code for code in all_codes()]
    levels = {rule["id"]: rule["defaultConfiguration"]["level"] for rule in rules()}
    assert levels["CH201"] == "error" and levels["CH602"] == "note"


def test_evidence_is_a_related_location(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("later proof%.log").write_text(LATER_PROOF, encoding="utf-8")
    code, log = sarif(capsys, "later proof%.log")
    assert code == 1
    (result,) = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "later%20proof%25.log")
    (related,) = result["relatedLocations"]
    assert related["physicalLocation"]["region"] == {"startLine": 4, "startColumn": 42}  # "Beth 3C"
    assert related["message"]["text"] == "Beth played 3C in trick 2"


def test_many_files_clean_unreadable_and_notes_make_one_valid_log(capsys, tmp_path):
    binary = tmp_path / "binary.log"
    binary.write_bytes(b"\x00\x01")
    code, log = sarif(capsys, str(LOGS / "clean-6-players.log"), str(binary),
                      str(LOGS / "stops-mid-trick.log"), str(LOGS / "revoke.log"))
    assert code == 2
    (run,) = log["runs"]
    by_file = {}
    for result in run["results"]:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        by_file.setdefault(uri, []).append(result["ruleId"])
    assert by_file == {binary.as_uri(): ["CH001"], (LOGS / "revoke.log").as_uri(): ["CH201"]}
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [n["message"]["text"] for n in notes] == [
        "not checked: the record stops in hand 2 at trick 5: Dave to play (legal: 6S QS)"]


def test_diagnostics_past_the_limit_are_counted_in_a_notification(capsys, tmp_path):
    log = tmp_path / "two.log"
    log.write_text('[Players "Al Beth Charlie Dave Eve Fay"]\nhand 1 dealer Fay\n'
                   "trik 1: x\ntrik 2: y\n", encoding="utf-8")
    code, result = sarif(capsys, "--max-diagnostics", "1", str(log))
    assert code == 1
    run = result["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["CH001"]
    texts = [n["message"]["text"] for n in run["invocations"][0]["toolExecutionNotifications"]]
    assert "and 1 more syntax diagnostic (--max-diagnostics N shows more)" in texts
