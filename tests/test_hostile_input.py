"""Hostile input that once escaped as a traceback or reached the output raw: a ruleset integer
too long for Python to read, integer options past their ranges, a record nested past the
record reader's depth bound, a file name that is not UTF-8, control characters in names in
JSON, JSON lines and SARIF, and the blank line after the tags in a record's log text."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from json_strings import strings_in

from referee.cli import main
from referee.log.jsontext import MAX_DEPTH
from referee.log.writer import format_text
from referee.rules.options import OPTION_RANGES, range_text
from referee.rules.ruleset_files import RulesetError
from referee.rules.ruleset import load_ruleset
from referee.run.convert import convert
from referee.util.terminal import escaped

ROOT = Path(__file__).resolve().parent.parent
LOG = (ROOT / "examples" / "logs" / "revoke.log").read_text("utf-8")
RECORD = (ROOT / "examples" / "records" / "revoke.json").read_text("utf-8")
LIMIT_DIGITS = 4300  # Python's int-to-str limit (sys.get_int_max_str_digits())


def _run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    said = out + err
    assert "Traceback" not in said and "internal error" not in said, said[-2000:]
    return code, said


# ---- a ruleset integer longer than Python reads from text -----------------------------------
RULESET_READERS = [
    ["rules", "{toml}"],
    ["verify-rules", "{toml}"],
    ["check", "--ruleset", "{toml}", "{log}"],
    ["replay", "--ruleset", "{toml}", "{log}"],
    ["report", "--ruleset", "{toml}", "-o", "-", "{log}"],
    ["audit", "--ruleset", "{toml}", "{log}"],
    ["generate", "--players", "6", "--hands", "1", "--ruleset", "{toml}"],
]


@pytest.mark.parametrize("args", RULESET_READERS, ids=lambda a: a[0])
def test_an_integer_of_more_than_4300_digits_is_a_usage_error(tmp_path, capsys, args):
    toml = tmp_path / "long.toml"
    toml.write_text(f'base = "cancellation"\ntarget = {"1" * (LIMIT_DIGITS + 1)}\n', "utf-8")
    log = tmp_path / "game.log"
    log.write_text(LOG, "utf-8")
    code, said = _run(capsys, *(a.format(toml=toml, log=log) for a in args))
    assert code == 2
    assert "a number of more than 4,300 digits" in said and said.startswith("referee")


def test_a_log_naming_such_a_ruleset_gets_a_setup_diagnostic(tmp_path, capsys):
    (tmp_path / "long.toml").write_text(f"moon_points = {'2' * 5000}\n", "utf-8")
    log = tmp_path / "game.log"
    log.write_text('[Ruleset "long.toml"]\n' + LOG, "utf-8")
    for command in (["check"], ["replay"], ["audit"], ["report", "-o", "-"]):
        code, said = _run(capsys, *command, str(log))
        assert code == 1, (command, said[-500:])
        if command != ["report", "-o", "-"]:
            assert "more than 4,300 digits" in said


# ---- ranges of the integer options --------------------------------------------------------
def _outside(option: str) -> list[int]:
    low, high = OPTION_RANGES[option]
    values = [low - 1, high + 1, 10 ** 4000, -(10 ** 4000)]
    return values + ([0] if option == "penalty_sign" else [])


@pytest.mark.parametrize("option", sorted(OPTION_RANGES))
def test_an_integer_option_outside_its_range_is_refused_naming_it(tmp_path, option):
    for value in _outside(option):
        path = tmp_path / f"{option}.toml"
        path.write_text(f'base = "cancellation"\n{option} = {value}\n', "utf-8")
        load_ruleset.cache_clear()
        with pytest.raises(RulesetError) as caught:
            load_ruleset(str(path))
        said = str(caught.value)
        assert f"{option} must be " in said, said
        low, high = range_text(option).replace(" or ", " to ").split(" to ")
        assert low in said and high in said and len(said) < 200, said


@pytest.mark.parametrize("option", sorted(OPTION_RANGES))
def test_both_ends_of_each_range_are_allowed(option):
    from referee.rules.ruleset import with_options

    base = load_ruleset("standard" if option == "decks" else "cancellation")
    low, high = OPTION_RANGES[option]
    for value in (low, high):
        if option == "penalty_sign" and value == 0:
            continue
        changes = {option: value}
        if option in ("min_players", "max_players"):  # a table the two decks can deal
            changes = {"min_players": 2, "max_players": value, "pass_count": 0}
            changes[option] = value
        if option == "pass_count" and value > 3:
            changes.update(min_players=2, max_players=2, decks=2)
        if option == "decks" and value == 2:
            changes["max_players"] = 4
        assert getattr(with_options(base, **changes), option) == value


def test_the_option_table_states_each_range():
    table = (ROOT / "spec" / "rules.md").read_text("utf-8")
    for option in OPTION_RANGES:
        row = next(line for line in table.splitlines() if line.startswith(f"| `{option}` |"))
        assert f"(allowed: {range_text(option)})" in row, row


def test_a_start_total_of_4300_nines_is_refused_not_a_traceback(tmp_path, capsys):
    toml = tmp_path / "nines.toml"
    toml.write_text(f'base = "cancellation"\nstart_total = {"9" * LIMIT_DIGITS}\n', "utf-8")
    log = tmp_path / "game.log"
    log.write_text(LOG, "utf-8")
    for command in ("check", "replay", "audit"):
        code, said = _run(capsys, command, "--ruleset", str(toml), str(log))
        assert code == 2 and "start_total must be from -1_000_000_000 to 1_000_000_000" in said


def test_every_target_a_log_may_write_is_in_the_target_range(capsys, tmp_path):
    log = tmp_path / "game.log"
    log.write_text(LOG.replace('[Target "150"]', '[Target "999999999999999999"]'), "utf-8")
    for command in (["check", "--format", "json"], ["replay"]):
        code, said = _run(capsys, *command, str(log))
        assert code == 1, said[-300:]  # (a RulesetError from the tag's target: an internal error)


# ---- a record nested deeper than the record reader's depth bound ------------------------------
def _deep(depth: int, where: str) -> str:
    nested = '{"a":' * depth + "1" + "}" * depth
    if where == "member":  # an unknown member of the record
        return RECORD.replace('"hands": [', f'"zz": {nested}, "hands": [', 1)
    return RECORD.replace('"tags": [', f'"tags": [{nested}, ', 1)  # an item of the tags


@pytest.mark.parametrize("where", ["member", "tag"])
@pytest.mark.parametrize("depth", [MAX_DEPTH, 100, 980])
def test_a_record_nested_too_deep_is_unreadable_for_every_command(tmp_path, capsys, depth,
                                                                 where):
    path = tmp_path / "deep.json"
    path.write_text(_deep(depth, where), "utf-8")
    for command in (["check"], ["fmt"], ["convert"], ["replay"], ["report", "-o", "-"],
                    ["audit"]):
        code, said = _run(capsys, *command, str(path))
        assert code == 2, (command, said[-500:])
        assert f"nested more than {MAX_DEPTH} deep" in said, (command, said[-500:])


# ---- a file name that is not UTF-8 ---------------------------------------------------------
NAME = os.fsdecode(b"bad\xff\xe2\x80\xaename.log")  # a byte that is not UTF-8, and U+202E


def _bytes_out(monkeypatch, errors: str, *args: str) -> tuple[int, bytes]:
    """What ``referee ARGS`` writes to a UTF-8 stdout with ``errors`` (strict, or Python's
    surrogateescape under C.UTF-8)."""
    raw = io.BytesIO()
    stdout = io.TextIOWrapper(raw, encoding="utf-8", errors=errors, write_through=True)
    monkeypatch.setattr("sys.stdout", stdout)
    code = main(list(args))
    stdout.flush()
    monkeypatch.undo()
    return code, raw.getvalue()


@pytest.mark.parametrize("errors", ["strict", "surrogateescape"])
@pytest.mark.parametrize("args", [["check", "--format", "sarif"], ["check", "--format", "json"],
                                  ["check", "--format", "jsonl"],
                                  ["check", "--format", "github"], ["replay", "--format", "json"]],
                         ids=lambda a: "-".join(a))
def test_a_file_name_that_is_not_utf8_is_written_as_valid_utf8(tmp_path, monkeypatch, errors,
                                                               args):
    (tmp_path / NAME).write_text(LOG, "utf-8")
    monkeypatch.chdir(tmp_path)  # a relative name: SARIF makes it a relative URI
    code, out = _bytes_out(monkeypatch, errors, *args, NAME)
    assert code == 1
    text = out.decode("utf-8")  # valid UTF-8, or this raises
    assert "\u202e" not in text
    if args[-1] == "sarif":
        assert '"uri": "bad%FF%E2%80%AEname.log"' in text
    elif args[-1] != "github":
        first = json.loads(text.splitlines()[0] if args[-1] == "jsonl" else text)
        path = first["path"] if "path" in first else first["files"][0]["path"]
        assert path == escaped(NAME) == "bad\\udcff\\u202ename.log"


# ---- control characters from names in JSON, JSON lines and SARIF ---------------------------
CONTROLS = ["\u202e", "\u2066", "\u2028", "\u2029", "\x9b", "\x1b", "\x07", "\x85"]


@pytest.mark.parametrize("control", CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_json_jsonl_and_sarif_escape_controls_from_names(tmp_path, capsys, control):
    path = tmp_path / f"g{control}.log"
    name = f"Char{control}lie"  # quoted, so a player of that name plays (and revokes)
    path.write_text(LOG.replace('[Players "Al Beth Charlie', f"[Players \"Al Beth '{name}'")
                    .replace("Charlie", f'"{name}"'), "utf-8")
    for args in (["check", "--format", "json"], ["check", "--format", "jsonl"],
                 ["check", "--format", "sarif"], ["replay", "--format", "json"]):
        code, out = _run(capsys, *args, str(path))
        assert code == 1
        assert control not in out, args  # no raw control reaches a terminal or a line reader
        lines = out.splitlines()  # (str.splitlines splits at U+2028, U+0085 and the like)
        documents = [json.loads(line) for line in lines] if args[-1] == "jsonl" else \
            [json.loads(out)]
        if args[-1] == "sarif":  # (the rules' help is the referee's own text, on lines)
            run = documents[0]["runs"][0]
            documents = [run["results"], run["invocations"]]
        strings = [s for doc in documents for s in strings_in(doc)]
        assert all(s == escaped(s) for s in strings), args  # none a reader decodes into one
        assert any(escaped(name) in s for s in strings), args


# ---- a log -> record -> log round trip keeps the blank line after the tags -----------------
@pytest.mark.parametrize("blank", ["\n", ""])
def test_a_round_trip_without_a_hand_line_is_the_fmt_text(blank):
    text = ('[Players "Al Beth Charlie Dave Eve Fay"]\n' + blank
            + "deal Al: 2C 3C\nscore: Al 0, Beth 0, Charlie 0, Dave 0, Eve 0, Fay 0\n")
    record, _ = convert(text)
    back, _ = convert(record)
    assert back == format_text(text)[0]
    assert back.split("\n")[1] == ""  # the blank line after the tags


# ---- a written total of thousands of digits in the report's chart --------------------------
def test_a_report_of_a_total_thousands_of_digits_long_is_written(tmp_path, capsys):
    huge = "9" * 4000
    (tmp_path / "sheet.log").write_text(
        '[Players "Al Beth Charlie Dave Eve Fay"]\n'
        f"score: Al 0, Beth 0, Charlie 0, Dave 0, Eve 0, Fay {huge}\n"
        f"total: Al 0, Beth 0, Charlie 0, Dave 0, Eve 0, Fay {huge}\n", "utf-8")
    code = main(["report", str(tmp_path / "sheet.log"), "-o", str(tmp_path / "page.html")])
    assert code == 1  # points are at most nine digits; the page is written all the same
    assert "at most nine digits" in (tmp_path / "page.html").read_text("utf-8")
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("line", ["score: A 1234567890, B 0", "total: A -1234567890",
                                  "score: A: 99999999999999999999"])
def test_points_of_more_than_nine_digits_are_a_syntax_fault_at_the_number(line):
    from referee.run.single import check_text

    report = check_text(f"Players: A B C D E F\nhand 1\n{line}\n")
    [fault] = report.diagnostics
    number = line.split()[-1] if "," not in line else "1234567890"
    assert fault.kind == "syntax" and "at most nine digits" in fault.message
    assert line[fault.column - 1:fault.end_column - 1].lstrip("-") == number.lstrip("-")


def test_points_of_nine_digits_are_read():
    from referee.run.single import check_text

    report = check_text("Players: A B C D E F\nhand 1\nscore: A 123456789, B -987654321\n")
    assert all(d.kind != "syntax" for d in report.diagnostics)
