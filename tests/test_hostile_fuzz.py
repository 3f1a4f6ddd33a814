"""Fuzzing each kind of input the referee reads (logs, records, rulesets, scoresheets, file
names) with hostile pieces: long numbers, deep nesting, control and bidi characters, bytes
that are not UTF-8.  Whatever the input, the library functions behind the commands give a
report or their own error, and the machine-readable outputs are valid UTF-8 holding no raw
control character, nor one a JSON reader would decode."""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_strings import strings_in

from referee.judge.walk import judge_bytes, judge_path
from referee.log.decode import UnreadableLog
from referee.output.github import write_github
from referee.output.render import to_jsonl_line, write_json
from referee.output.replay_view import show_replay
from referee.output.sarif import write_sarif
from referee.rules.options import OPTION_RANGES
from referee.rules.ruleset_files import RulesetError
from referee.rules.ruleset import load_ruleset
from referee.run.convert import ConversionRefused, convert
from referee.util.terminal import escaped

ROOT = Path(__file__).resolve().parent.parent
LOGS = [p.read_bytes() for p in sorted((ROOT / "examples" / "logs").glob("*.log"))
        if p.stat().st_size < 3_000 and "scoresheet" not in p.name]
SHEETS = [(ROOT / "examples" / "logs" / name).read_bytes()
          for name in ("scoresheet-only.log", "scoresheet-game.log")]
RECORD = (ROOT / "examples" / "records" / "revoke.json").read_text("utf-8")
REVOKE = ROOT / "examples" / "logs" / "revoke.log"
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CONTROLS = ["\u202e", "\u2066", "\u2069", "\u2028", "\u2029", "\x9b", "\x85", "\x1b[2J", "\x07",
            "\x00", "\ufeff", "\t", "\x0c", "\x7f", "\U000e0001"]
# a number of up to 4,300 digits is read by Python, one of 4,301 is not; 4,300 nines plus
# anything is past it
DIGITS = st.one_of(st.integers(-10**6, 10**6).map(str),
                   st.sampled_from([10, 19, 4299, 4300, 4301, 6000]).map(lambda n: "9" * n))
PIECES = st.one_of(st.sampled_from(CONTROLS), DIGITS,
                   st.binary(min_size=1, max_size=3).filter(lambda b: b[0] >= 0x80).map(
                       lambda b: b.decode("latin-1")),  # bytes that are not UTF-8, below
                   st.text(min_size=1, max_size=4))


@st.composite
def hostile_bytes(draw, sources: list[bytes]) -> bytes:
    """A source with hostile pieces put in, a name or number replaced by one, or a span cut."""
    data = draw(st.sampled_from(sources))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        piece = draw(PIECES)
        raw = piece.encode("latin-1") if all(0x80 <= ord(c) < 0x100 for c in piece) \
            else piece.encode("utf-8", "surrogatepass")
        how = draw(st.sampled_from(["insert", "name", "number", "cut"]))
        if how == "name":
            data = re.sub(rb"\bCharlie\b", raw.replace(b"\\", b"\\\\"), data)
        elif how == "number":
            data = re.sub(rb"\b13\b", raw.replace(b"\\", b"\\\\"), data, count=1)
        elif how == "cut":
            data = data[:at] + data[at + draw(st.integers(1, 100)):]
        else:
            data = data[:at] + raw + data[at:]
    return data


def assert_machine_output(text: str, kind: str) -> None:
    """Valid UTF-8, no raw control, and none that a JSON reader decodes from the reports."""
    text.encode("utf-8")  # raises for a lone surrogate (a name that is not UTF-8)
    assert all(escaped(line) == line for line in text.split("\n")), kind
    if kind == "github":
        return
    documents = [json.loads(line) for line in text.splitlines()] if kind == "jsonl" else \
        [json.loads(text)]
    if kind == "sarif":  # (the tool's rules are the referee's own help text)
        run = documents[0]["runs"][0]
        documents = [run["results"], run["invocations"]]
    assert all(escaped(s) == s for doc in documents for s in strings_in(doc)), kind


def assert_outputs(report) -> None:
    for kind, write in (("json", write_json), ("sarif", write_sarif), ("github", write_github)):
        out = io.StringIO()
        write([report], out)
        assert_machine_output(out.getvalue(), kind)
    assert_machine_output(to_jsonl_line(report) + "\n", "jsonl")


# ---- logs and scoresheets ------------------------------------------------------------------
@FUZZ
@given(hostile_bytes(LOGS))
def test_hostile_logs_give_reports_and_clean_machine_output(data):
    report = judge_bytes(data, "game.log")
    assert report.verdict in ("clean", "violations", "unreadable")
    assert_outputs(report)
    try:
        convert(data.decode("utf-8"))
    except (UnicodeDecodeError, ConversionRefused, UnreadableLog):
        pass


@FUZZ
@given(hostile_bytes(SHEETS))
def test_hostile_scoresheets_give_reports_and_clean_machine_output(data):
    report = judge_bytes(data, "sheet.log")
    assert report.verdict in ("clean", "violations", "unreadable")
    assert_outputs(report)


# ---- records -------------------------------------------------------------------------------
UNKNOWN = '"zz": '  # a member the schema does not know


@st.composite
def hostile_records(draw) -> bytes:
    depth = draw(st.one_of(st.integers(0, 40), st.sampled_from([100, 500, 900, 980, 1000])))
    nested = '{"a":' * depth + draw(DIGITS) + "}" * depth
    where = draw(st.sampled_from(['"hands": [', '"tags": [', '"number": 1,', '"deal": [']))
    member = draw(st.sampled_from(['"zz": ', '"number": ', "", '"player": ']))
    if where.endswith("["):
        text = RECORD.replace(where, f"{where}{nested}, " if not member else
                              f"{member}{nested}, {where}", 1)
    else:
        text = RECORD.replace(where, f"{where} {member or UNKNOWN}{nested},", 1)
    return draw(hostile_bytes([text.encode("utf-8")])) if draw(st.booleans()) else \
        text.encode("utf-8")


@FUZZ
@given(hostile_records())
def test_hostile_records_give_reports_never_exceptions(data):
    report = judge_bytes(data, "game.json")
    assert report.verdict in ("clean", "violations", "unreadable")
    assert_outputs(report)
    try:
        convert(data.decode("utf-8"))  # what fmt, convert and every reader of a record use
    except (UnicodeDecodeError, ConversionRefused, UnreadableLog):
        pass


# ---- rulesets ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def folder():
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        yield Path(tmp)


RULESET_LOG = REVOKE.read_bytes()
OPTIONS = sorted(OPTION_RANGES) + ["pass_cycle", "name", "base"]


def loaded_or_refused(path):
    """The ruleset file at ``path`` loaded, or None when it is refused with a short message."""
    load_ruleset.cache_clear()
    try:
        return load_ruleset(str(path))
    except RulesetError as err:
        assert str(err) and len(str(err)) < 2000
        return None


@FUZZ
@given(data=st.data())
def test_hostile_rulesets_load_or_are_refused_and_check_with_what_loads(folder, data):
    lines = ['base = "cancellation"'] if data.draw(st.booleans()) else []
    for _ in range(data.draw(st.integers(1, 4))):
        option = data.draw(st.sampled_from(OPTIONS))
        value = data.draw(st.one_of(DIGITS, st.sampled_from(
            ['"standard"', '["9999 left"]', "[[[[1]]]]", "{a = 1}", '"\u202e"', "1e400"])))
        lines.append(f"{option} = {value}")
    path = folder / f"r{data.draw(st.integers(0, 10**9))}.toml"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    rules = loaded_or_refused(path)
    if rules is None:
        return
    # the log first: a value out of range that loads must still give a report (4,300 nines as
    # a start total made every total too long to print)
    report = judge_bytes(RULESET_LOG, "game.log", ruleset=rules)
    assert report.verdict in ("clean", "violations")
    assert_outputs(report)
    for option, (low, high) in OPTION_RANGES.items():
        assert low <= getattr(rules, option) <= high


SUMMED = ["start_total", "jack_of_diamonds_bonus", "no_tricks_bonus", "clean_hand_pool",
          "moon_points", "pair_moon_points", "target"]


@FUZZ
@given(option=st.sampled_from(SUMMED), digits=st.sampled_from([10, 19, 4299, 4300]),
       sign=st.sampled_from(["", "-"]), log=st.sampled_from(LOGS + SHEETS))
def test_long_values_of_summed_options_are_refused_or_give_reports(folder, option, digits, sign,
                                                                   log):
    # a value Python reads (up to 4,300 digits) that the ruleset took made sums too long for
    # a message: every total of a start total of 4,300 nines, say
    path = folder / f"{option}-{sign}{digits}.toml"
    path.write_text(f'base = "cancellation"\n{option} = {sign}{"9" * digits}\n', "utf-8")
    rules = loaded_or_refused(path)
    if rules is None:
        return
    report = judge_bytes(log, "game.log", ruleset=rules)
    assert report.verdict in ("clean", "violations")
    assert_outputs(report)


# ---- file names ----------------------------------------------------------------------------
NAMES = st.one_of(
    st.binary(min_size=1, max_size=12).map(os.fsdecode),
    st.lists(st.sampled_from(["a", "é", *CONTROLS, "\udcff", "\udce9"]), min_size=1,
             max_size=6).map("".join))


@FUZZ
@given(name=NAMES)
def test_file_names_reach_every_machine_output_as_valid_utf8(folder, name):
    name = name.replace("/", "_").replace("\x00", "_").lstrip(".") or "x"
    path = folder / (name + ".log")
    try:
        path.write_bytes(REVOKE.read_bytes())
    except OSError:  # a name the file system refuses (too long in bytes)
        return
    try:
        report = judge_path(path)
        assert report.verdict == "violations"
        assert_outputs(report)
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", write_through=True)
        show_replay(str(path), stream=out, as_json=True)
        assert_machine_output(raw.getvalue().decode("utf-8"), "json")
    finally:
        path.unlink()
