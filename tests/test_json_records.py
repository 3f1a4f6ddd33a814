"""JSON game records (spec/game-record.md): the strict decoder and the places of values, the
schema's diagnostics, check on a record (pointers), and `referee convert` both ways, exact over
the example corpus."""

from __future__ import annotations

import dataclasses
import json
import pickle
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from record_texts import (
    FAULTY_RECORDS,
    HEAD,
    PLAYERS,
    SCHEMA_CASES,
    UNSAID_CASES,
    card_edit,
    edited_texts,
    record,
    three_hands,
)

from referee.cli import main
from referee.judge.walk import judge_bytes, judge_path
from referee.log import jsonrecord
from referee.log.decode import UnreadableLog
from referee.log.events import Comment, Deal, HandStart, Kitty, Span, Tag, Trick
from referee.log.jsonrecord import InvalidRecord, players_value, read_record, record_pointers
from referee.log.jsontext import MAX_DEPTH, JsonError, Places, loads
from referee.log.jsonwrite import NotRecordable, record_text
from referee.log.parser import parse_bytes, parse_log
from referee.log.jsonrecord import schema
from referee.log.words import split_players
from referee.log.writer import format_text
from referee.rules.cards import card_text
from referee.run.convert import ConversionRefused, SameFormat, convert

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "examples" / "records"
LOGS = sorted((ROOT / "examples" / "logs").glob("*.log")) + sorted(
    (ROOT / "examples" / "corpus").glob("*.log"))
SYNTAX_LOGS = {"syntax.log", "027-cancellation-10p-syntax.log", "028-standard-4p-syntax.log",
               "spaced-name.log"}
# the unreadable line's first message, where it is not the misspelt score line's
UNREAD = {"spaced-name.log": "'Ann' is not a card"}


def _paths(value: object, path: tuple = ()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _at(document: object, path: tuple) -> object:
    for step in path:
        document = document[step]
    return document


def test_places_find_each_value_where_json_decodes_it():
    text = ('{"a": [1, "x\\u00e9", {"k\\":": true, "l" :\n  [ ]}],\n "b/c~": {"d": null},'
            ' "e": -1.5e3, "f": [[], {}, "\\\\"]}')
    document, places = loads(text), Places(text)
    assert document["a"][1] == "xé" and document["f"][2] == "\\"
    paths = list(_paths(document))
    assert len(paths) == 14
    for path in paths:  # the value decoded at its start is it, and ends at its end
        start, end = places.where(path)
        assert json.JSONDecoder().raw_decode(text, start) == (_at(document, path), end)
    assert text[slice(*places.where(("a", 2, "l")))] == "[ ]"


def test_surrogate_pairs_decode_to_one_character():
    assert loads('{"n": "\\ud83c\\udca1"}') == {"n": "\U0001f0a1"}
    assert loads('{"n": "\\\\ud800"}') == {"n": "\\ud800"}  # a backslash, then letters


@pytest.mark.parametrize("text, offset, words", [
    ('{"a": 1, "a": 2}', 9, "appears twice"),
    ('{"a": [{"b": 1, "b": 2}], "a": 3}', 16, "appears twice"),  # the first in the text
    ('{"a": "\\ud800"}', 7, "surrogate"),
    ('{"a": "\\udc00"}', 7, "surrogate"),
    ('{"a": "x\ty"}', 8, "control character"),
    ('{"a": 1} x', 9, "after the end"),
    ('{"a": "open', 6, "not closed"),
    ('{"a": 1,}', 8, "member name"),
    ('{"a" 1}', 5, "':'"),
    ('{"a": [1 2]}', 9, "',' or ']'"),
    ('{"a": [{"b": 1} "c"]}', 16, "',' or ']'"),
    ('{"a": [{"b": 1 "c"}]}', 15, "',' or '}'"),
    ('{"a": tru}', 6, "expected a value"),
    ('{"a": "\\x"}', 7, "not a JSON escape"),
    ('{"a": "\\u12"}', 7, "four hexadecimal digits"),
    ('{"a": 01}', 7, "',' or '}'"),
    ('{"a": ', 6, "the document ends"),
    ('{"a": [1, {"b": NaN}]}', 16, "expected a value"),
    ('{"a": [1, {"b": -Infinity}]}', 16, "expected a value"),
    ('{"a": [1, {"b": 1' + "0" * 45 + "}]}", 16, "46 characters long"),
    ('{"a": 1e' + "0" * 45 + "}", 6, "47 characters long"),
])
def test_decoder_refuses_what_is_not_json_with_the_place(text, offset, words):
    with pytest.raises(JsonError) as err:
        loads(text)
    assert err.value.offset == offset
    assert words in err.value.message


@pytest.mark.parametrize("value, column", [("[:", 13), ("[1, ]", 16), ('{"x": }', 18)])
def test_a_value_missing_inside_a_member_s_value_is_said_where_it_is_missing(value, column):
    # line 2 is ' "format": VALUE': the value starts at column 12
    text = '{\n "format": ' + value + '\n}'
    with pytest.raises(InvalidRecord) as err:
        read_record(text)
    first = err.value.problems[0]
    assert (first.line, first.column) == (2, column) and "expected a value" in first.message


def test_deep_nesting_and_huge_numbers_are_refused_before_they_cost_anything():
    deep = '{"a":' * 200_000
    started = time.perf_counter()
    with pytest.raises(JsonError) as err:
        loads(deep)
    assert "nested more than" in err.value.message
    assert err.value.offset == 5 * MAX_DEPTH
    with pytest.raises(JsonError, match="characters long"):
        loads('{"a": ' + "9" * 1_000_000 + "}")
    # a fault after nesting too deep is said at the nesting, the first fault
    with pytest.raises(JsonError, match="nested more than") as err:
        loads("[" * 40 + "1" + "]" * 40 + "x")
    assert err.value.offset == MAX_DEPTH
    assert time.perf_counter() - started < 5


@pytest.mark.slow
def test_decoder_is_linear_on_a_big_flat_document_with_its_fault_at_the_end():
    def seconds(count: int) -> float:
        text = '{"a": [' + ", ".join(['{"c": "QS"}'] * count) + ', {"c": NaN}]}'
        started = time.perf_counter()
        with pytest.raises(JsonError) as err:
            loads(text)
        assert err.value.offset == text.rindex("NaN")
        return time.perf_counter() - started

    short, long = seconds(20_000), seconds(200_000)
    assert long < 40 * max(short, 0.001)  # ten times the input, not a hundred times the time


# ---- reading a record ---------------------------------------------------------------------
def test_the_spec_example_is_exactly_the_log_beside_it():
    spec = (ROOT / "spec" / "game-record.md").read_text("utf-8")
    example = re.search(r"```json\n(.*?)```", spec, re.DOTALL).group(1)
    log = re.search(r"```log\n(.*?)```", spec, re.DOTALL).group(1)
    assert convert(example) == (log, "log")
    assert convert(log) == (example, "json")
    events = parse_bytes(example.encode()).events
    assert events[0] == Comment("table 2")
    assert events[2] == Tag("Players", "Al Beth Charlie Dave Eve 'Mary Ann'")
    assert events[3] == HandStart(1, "Al", "left")
    trick = events[7]
    assert isinstance(trick, Trick) and trick.leader == "Dave" and trick.claim.player is None
    assert [p.player for p in trick.plays] == [None, None]


def test_each_span_is_the_place_of_its_json_value():
    text = (HEAD + PLAYERS + ',\n"hands": [{"number": 1,\n "deal": [{"player": "Al", '
            '"cards": ["QS", "2C"]}],\n "kitty": []}]}')
    events = parse_bytes(text.encode()).events
    hand, deal, kitty = events[1:]
    assert isinstance(deal, Deal) and isinstance(kitty, Kitty)
    assert (hand.span.line, hand.span.column) == (2, 22)  # the number
    assert (deal.player_span.line, deal.player_span.column) == (3, 22)
    assert [(s.line, s.column, s.end_column) for s in deal.run.spans] == [(3, 38, 42), (3, 44, 48)]
    assert (kitty.span.line, kitty.span.column, kitty.span.end_column) == (4, 11, 13)


def test_a_revoke_in_a_record_is_reported_at_its_value_and_pointer(capsys):
    report = judge_path(RECORDS / "revoke.json")
    assert [(d.kind, d.line, d.column, d.pointer, d.player, d.trick) for d in report.diagnostics] \
        == [("revoke", 56, 43, "/hands/0/tricks/0/plays/2/card", "Charlie", 1)]
    assert main(["check", str(RECORDS / "revoke.json")]) == 1
    out = capsys.readouterr().out
    assert "CH201 revoke" in out and "at /hands/0/tricks/0/plays/2/card" in out
    assert main(["check", "--format", "json", str(RECORDS / "revoke.json")]) == 1
    diag = json.loads(capsys.readouterr().out)["files"][0]["diagnostics"][0]
    assert diag["pointer"] == "/hands/0/tricks/0/plays/2/card"


def test_a_log_s_diagnostics_have_no_pointer_member():
    report = judge_path(ROOT / "examples" / "logs" / "revoke.log")
    assert report.diagnostics[0].pointer is None
    assert "pointer" not in report.diagnostics[0].to_json()


def test_an_invalid_record_gives_one_diagnostic_per_problem_and_exit_2(capsys):
    report = judge_path(RECORDS / "invalid.json")
    assert report.verdict == "unreadable"
    assert [(d.kind, d.line, d.column, d.pointer) for d in report.diagnostics] == [
        ("syntax", 8, 15, "/hands/0/pass"),
        ("syntax", 10, 17, "/hands/0/trciks"),
        ("syntax", 11, 57, "/hands/0/passes/0/cards/2"),
        ("syntax", 11, 65, "/hands/0/passes/1"),
        ("syntax", 12, 44, "/hands/0/score/0/points"),
    ]
    messages = [d.message for d in report.diagnostics]
    assert messages[1].startswith('unknown member "trciks"')
    assert messages[2].startswith('"1H" is not a card')
    assert messages[3] == 'the member "cards" is missing here'
    assert main(["check", str(RECORDS / "invalid.json")]) == 2
    out = capsys.readouterr().out
    assert out.count("CH001 syntax") == 5 and "Traceback" not in out


@pytest.mark.parametrize("body, pointer, words", SCHEMA_CASES)
def test_schema_problems_point_at_the_faulty_value(body, pointer, words):
    with pytest.raises(InvalidRecord) as err:
        parse_bytes(record(body))
    assert [p.pointer for p in err.value.problems] == [pointer]
    assert words in err.value.problems[0].message


@pytest.mark.parametrize("body, pointer, words", UNSAID_CASES)
def test_what_the_schema_cannot_say_is_a_problem_too(body, pointer, words):
    with pytest.raises(InvalidRecord) as err:
        parse_bytes(record(body))
    assert [p.pointer for p in err.value.problems] == [pointer]
    assert words in err.value.problems[0].message


@pytest.mark.parametrize("data, words", [
    (b'{"format": "x", \xff}', "not UTF-8"),
    (b"\xff\xfe{\x00}\x00", "UTF-16"),
    (b'{"a": "\x00"}', "NUL"),
    (b"{", "not JSON"),
    (b'{"a": 1, "a": 2}', "appears twice"),
    (b'{"a":' * 100_000, "nested more than"),
    (b'{"version": ' + b"7" * 50_000 + b"}", "characters long"),
    (HEAD.rstrip(", ").encode() + b"}", "holds no statement"),
])
def test_hostile_records_are_refused_with_a_place_never_a_traceback(data, words, capsys):
    report = judge_bytes(data, "bad.json")
    assert report.verdict == "unreadable"
    assert words in report.unreadable
    assert all(d.line >= 1 and d.column >= 1 for d in report.diagnostics)


def test_bom_and_crlf_records_are_read_with_the_right_places():
    text = (HEAD + PLAYERS + ',\r\n"hands": [{"kitty": ["QS", "1S"]}]}').encode()
    with pytest.raises(InvalidRecord) as err:
        parse_bytes(b"\xef\xbb\xbf  \r\n" + text)
    problem = err.value.problems[0]
    assert (problem.line, problem.column, problem.pointer) == (3, 28, "/hands/0/kitty/1")


def test_players_may_be_listed_when_a_tag_can_write_them():
    assert players_value(["Al", "Mary Ann", "O'Neil"]) == "Al 'Mary Ann' O'Neil"
    assert players_value(["Jo's Mum"]) == '"Jo\'s Mum"'
    assert players_value(["a 'b\" c"]) is None  # both quotes and a blank: no text splits back
    for names in (["Al", "Mary Ann"], ["'x", 'y"'], ["Zoë", "Jo,Jo", "#1"], ["a\tb"]):
        assert split_players(players_value(names)) == names  # the parser's reading of it


# ---- converting ---------------------------------------------------------------------------
@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_log_to_record_to_log_is_the_fmt_text(path):
    text = path.read_text("utf-8")
    if path.name in SYNTAX_LOGS:
        with pytest.raises(ConversionRefused) as err:
            convert(text)
        assert UNREAD.get(path.name, "unknown statement 'scroe'") in err.value.reasons[0][2]
        return
    as_json, kind = convert(text)
    assert kind == "json"
    back, kind = convert(as_json)
    assert kind == "log"
    assert back == format_text(text)[0]
    assert read_record(as_json).events == parse_log(text).events
    assert convert(back)[0] == as_json


@pytest.mark.parametrize("name", ["revoke.log", "wrong-winner.log", "scoresheet-only.log",
                                  "stops-mid-trick.log", "game-end.log"])
def test_a_record_is_judged_as_its_log(name):
    data = (ROOT / "examples" / "logs" / name).read_bytes()
    as_log = judge_bytes(data, name)
    as_record = judge_bytes(convert(data.decode())[0].encode(), name)
    def shape(report):
        return ([(d.kind, d.hand, d.trick, d.player) for d in report.diagnostics],
                report.to_json()["hands"], report.winners, report.unchecked)

    assert shape(as_record) == shape(as_log)
    assert all(d.pointer is not None for d in as_record.diagnostics)


def test_statements_out_of_hand_order_continue_in_a_hand_without_number():
    log = ('[Players "A B C D E F"]\nhand 1\ntrick 1: A 2C\nkitty: QS\nscore: A 1\n'
           "score: A 2\n")
    made = json.loads(record_text(parse_log(log).events))
    assert made["hands"] == [
        {"number": 1, "tricks": [{"number": 1, "plays": [{"player": "A", "card": "2C"}]}]},
        {"kitty": ["QS"], "score": [{"player": "A", "points": 1}]},
        {"score": [{"player": "A", "points": 2}]},
    ]
    as_json = convert(log)[0]
    assert convert(as_json)[0] == log.replace("[Players \"A B C D E F\"]\n", "[Players \"A B C D E F\"]\n\n")
    def kinds(data: bytes) -> list[str]:
        return [d.kind for d in judge_bytes(data).diagnostics]

    assert kinds(as_json.encode()) == kinds(log.encode())


def test_a_tag_after_the_first_statement_is_not_converted():
    with pytest.raises(NotRecordable) as err:
        record_text(parse_log('[Players "A B"]\nscore: A 1\n[Target "50"]\n').events)
    assert (err.value.line, err.value.column) == (3, 1)
    with pytest.raises(SameFormat):
        convert('[Players "A B"]\n', "log")


def test_convert_command(tmp_path, capsys):
    source = ROOT / "examples" / "logs" / "revoke.log"
    out = tmp_path / "game.json"
    assert main(["convert", str(source), "-o", str(out)]) == 0
    assert out.read_text("utf-8") == (RECORDS / "revoke.json").read_text("utf-8")
    assert main(["convert", str(out)]) == 0
    assert capsys.readouterr().out == source.read_text("utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(out)
    assert main(["convert", str(source), "-o", str(link)]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert main(["convert", str(ROOT / "examples" / "logs" / "syntax.log")]) == 1
    assert "38:1: not converted" in capsys.readouterr().err
    assert main(["convert", str(RECORDS / "invalid.json")]) == 2
    assert capsys.readouterr().err.count("CH001 syntax") == 5
    assert main(["convert", "--to", "json", str(out)]) == 2
    assert "already a JSON record" in capsys.readouterr().err


def test_the_schema_is_valid_and_ships_with_the_rulebook():
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "spec" / "game-record.schema.json").read_text("utf-8"))
    Draft202012Validator.check_schema(schema)
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert '"referee.spec" = ["*.md", "*.json"]' in pyproject


def test_comments_stand_above_or_beside_the_statement_they_name():
    text = record('"hands": [{"number": 1, "kitty": []}], "comments": ['
                  '{"text": "first", "above": "/hands/0/number"}, {"text": "# k", "beside": '
                  '"/hands/0/kitty"}, {"text": "#last"}]')
    assert convert(text.decode()) == ("# first\n\nhand 1\nkitty:  # k\n# last\n", "log")


# ---- the reading of a valid record --------------------------------------------------------
def _places(text: str) -> set[tuple[int, int, int, int]]:
    """(line, column, end line, end column) of every value of a record."""
    document, places = loads(text), Places(text)
    found = set()
    for path in _paths(document):
        start, end = places.where(path)
        found.add(places.at(start) + places.at(end))
    return found


def _spans(value: object):
    """Every span in an event, its plays' and cards' included."""
    if isinstance(value, Span):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _spans(item)
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            if not field.name.startswith("_"):
                yield from _spans(getattr(value, field.name))


RECORD_TEXTS = [path.read_text("utf-8") for path in sorted(RECORDS.glob("*.json"))
                if path.name != "invalid.json"] + [
    convert(path.read_text("utf-8"))[0] for path in LOGS[:12] if path.name not in SYNTAX_LOGS]


@pytest.mark.parametrize("text", RECORD_TEXTS, ids=range(len(RECORD_TEXTS)))
def test_every_span_of_a_record_s_events_is_the_place_of_one_of_its_values(text):
    places = _places(text) | {(1, 1, 1, 1)}  # (where a member that is not there points)
    spans = [span for event in read_record(text).events for span in _spans(event)]
    assert len(spans) > 10
    assert {(s.line, s.column, s.end_line, s.end_column) for s in spans} <= places


def test_a_record_s_spans_are_found_in_its_text_only_when_read(monkeypatch):
    text = record('"hands": [{"number": 1, "kitty": ["QS", "2C"]}]').decode()

    def refused(self, path):
        raise AssertionError(f"the place of {path} was looked for")

    with monkeypatch.context() as patched:
        patched.setattr(Places, "children", refused)
        hand, kitty = read_record(text).events
    # in the text, the hand's number 1 is at column 70 and its kitty's "[" at column 82
    assert hand.span == Span(1, 70, 1, 71)
    assert (kitty.span, kitty.run.spans) == (
        Span(1, 82, 1, 94), (Span(1, 83, 1, 87), Span(1, 89, 1, 93)))
    assert Span(1, 70, 1, 71) == hand.span and hash(hand.span) == hash(Span(1, 70, 1, 71))
    copied = pickle.loads(pickle.dumps(hand.span))
    assert type(copied) is Span and copied == Span(1, 70, 1, 71)


def _counting_jsonschema(monkeypatch) -> list[str]:
    """The parts (record, hand) jsonschema is asked about, in order, as it is asked."""
    asked: list[str] = []
    for part in ("record", "hand"):
        errors = jsonrecord._validator(part, False)

        def counted(value, part=part, errors=errors):
            asked.append(part)
            return errors(value)

        monkeypatch.setitem(jsonrecord._STATE, (part, False), counted)
    return asked


def test_a_valid_record_is_read_without_asking_jsonschema(monkeypatch):
    asked = _counting_jsonschema(monkeypatch)
    events = parse_bytes((RECORDS / "revoke.json").read_bytes()).events
    assert sum(isinstance(event, Trick) for event in events) > 0 and asked == []
    with pytest.raises(InvalidRecord, match="is not a card"):
        parse_bytes(record('"hands": [{"number": 1}, {"kitty": ["1S"]}]'))
    assert asked == ["hand"]  # the hand that is not valid, alone


def test_the_schema_s_cards_are_the_52_cards():
    cards = {card_text(card) for card in range(52)}
    texts = cards | {"1S", "11S", "QX", "qs", "QS\n", " QS", "Q", "", "10", "1OS", "AS S"}
    valid = {text for text in texts
             if jsonrecord.valid("hand", {"kitty": [text]}) and _jsonschema_says(
                 {"format": "referee-game-record", "version": 1, "hands": [{"kitty": [text]}]})}
    assert valid == cards


@pytest.mark.parametrize("body, words", [
    ('"hands": [{"number": 1, "number": 2}]', "appears twice"),
    ('"tags": [{"name": "A", "name": "B", "value": "x"}]', "appears twice"),
    ('"hands": [{"tricks": [{"number": 1, "plays": [{"card": "QS", "card": "2C"}]}]}]',
     "appears twice"),
    ('"hands": [{"number": NaN}]', "expected a value"),
    ('"hands": [{"number": 1, "dealer": "\\ud800"}]', "surrogate"),
    ('"hands": [{"number": 1' + "0" * 45 + "}]", "characters long"),
    ('"hands": [' + '{"a": ' * 40 + "1" + "}" * 40 + "]", "nested more than"),
    ('"hands": [{"number": 1}]} {', "text after"),
])
def test_what_python_s_json_lets_through_is_refused_as_not_json(body, words):
    with pytest.raises(InvalidRecord) as err:
        read_record(record(body).decode())
    assert err.value.problems[0].pointer is None  # not JSON
    assert words in err.value.problems[0].message


def test_escapes_and_a_surrogate_pair_read_as_their_characters():
    events = read_record(record('"tags": [{"name": "Ev\\u0065nt", "value": "\\ud83c\\udca1 \\"x\\""}'
                                ']').decode()).events
    assert events == (Tag("Event", '\U0001f0a1 "x"'),)


def _quick_says(document: object) -> bool:
    """jsonschema-rs's answer as the reader asks it: the record without its hands, then each."""
    hands = document.get("hands") if isinstance(document, dict) else None
    if isinstance(hands, list):
        return jsonrecord.valid("record", {**document, "hands": []}) and all(
            jsonrecord.valid("hand", hand) for hand in hands)
    return jsonrecord.valid("record", document)


def _jsonschema_says(document: object) -> bool:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema()).is_valid(document)


def _case_documents() -> list[object]:
    texts = [record(body).decode() for body, _, _ in SCHEMA_CASES + UNSAID_CASES]
    texts += [text for text, _, _ in FAULTY_RECORDS] + RECORD_TEXTS
    texts.append((RECORDS / "invalid.json").read_text("utf-8"))
    documents = []
    for text in texts:
        try:
            documents.append(loads(text))
        except JsonError:
            pass  # not JSON: no validator is asked
    return documents


@pytest.mark.slow
def test_the_fast_and_the_full_validator_agree_on_every_record_of_the_tests():
    documents = _case_documents()
    assert len(documents) > 30
    assert any(_quick_says(d) for d in documents) and not all(_quick_says(d) for d in documents)
    for document in documents:
        assert _quick_says(document) == _jsonschema_says(document), document


_SMALL = json.loads(RECORD_TEXTS[0])
_ODD_VALUES = st.sampled_from([
    "QS", "10S", "1S", "QS\n", "", "Al", "Al\nBeth", "A\rB", "none", "#x", "/hands/0",
    "/hands/0/tricks/0", "a/b", "left", "3 left", "12 right", "up", "subtract", "add", "Event",
    "9x", "_a-b", 0, 1, -1, 15.0, 1.5, 999999999, 1000000000, -999999999, -1000000000, True,
    False, None, [], {}, ["QS"], ["Al", "Beth"], {"player": "Al"}, {"card": "QS"},
    {"player": "Al", "points": 3}, {"text": "x"}])
_PATHS = list(_paths(_SMALL))


def _edited(record: dict, edits) -> dict:
    """A copy of ``record`` with each (path, "set" | "drop" | "add", value) edit made where
    its place still exists."""
    document = json.loads(json.dumps(record))
    for path, action, value in edits:
        parent = document
        try:
            for step in path[:-1]:
                parent = parent[step]
            if not path:
                continue
            if action == "set":
                parent[path[-1]] = value
            elif action == "drop":
                del parent[path[-1]]
            elif isinstance(parent, dict):
                parent["extra"] = value
            else:
                parent.append(value)
        except (KeyError, IndexError, TypeError, AttributeError):
            continue  # an earlier edit took the place away
    return document


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PATHS), st.sampled_from(["set", "drop", "add"]),
                          _ODD_VALUES), min_size=1, max_size=3))
@pytest.mark.slow
def test_the_fast_and_the_full_validator_agree_on_edited_records(edits):
    document = _edited(_SMALL, edits)
    assert _quick_says(document) == _jsonschema_says(document)


def test_a_record_only_jsonschema_accepts_is_read_all_the_same():
    # jsonschema-rs's \w is ASCII, Python's is Unicode: a tag named Zoë is valid (as in a log)
    text = record('"tags": [{"name": "Zoë", "value": "x"}]').decode()
    assert not _quick_says(json.loads(text)) and _jsonschema_says(json.loads(text))
    assert read_record(text).events == (Tag("Zoë", "x"),)


def test_the_schema_s_hands_are_its_hand_objects_and_nothing_more():
    # what lets the reader ask about the record without its hands, then about each hand
    hands = schema()["properties"]["hands"]
    assert hands == {"type": "array", "items": {"$ref": "#/$defs/hand"}}
    assert not any(key in schema() for key in ("allOf", "anyOf", "oneOf", "if", "not",
                                               "dependentSchemas", "unevaluatedProperties"))


def test_the_pointers_of_diagnostics_are_the_pointers_of_the_values_there():
    text = (RECORDS / "revoke.json").read_text("utf-8")
    document, places = loads(text), Places(text)
    everything = {places.at(places.where(path)[0]):
                  "".join(f"/{step}" for step in path) for path in _paths(document)}
    assert everything[(56, 43)] == "/hands/0/tricks/0/plays/2/card"
    asked = list(everything)[::7] + [(1, 2), (10_000, 1), (3, 999)]
    assert record_pointers(text, asked) == {at: everything[at] for at in asked
                                            if at in everything}
    assert record_pointers("{not json", [(1, 1)]) == {}
    assert record_pointers('{"a/b~": [0, {"c": 1}]}', [(1, 1), (1, 10), (1, 14),
                                                              (1, 20)]) == {
        (1, 1): "", (1, 10): "/a~1b~0", (1, 14): "/a~1b~0/1", (1, 20): "/a~1b~0/1/c"}


# ---- an invalid record --------------------------------------------------------------------
def _fields(p) -> tuple:
    return p.line, p.column, p.end_line, p.end_column, p.message, p.pointer


def _reading_now(text: str) -> list[tuple]:
    try:
        read_record(text)
    except InvalidRecord as err:
        return [_fields(p) for p in err.problems]
    return []


def _place_of(text: str, needle: str, last: bool = False) -> tuple[int, int]:
    at = text.rindex(needle) if last else text.index(needle)
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def test_each_edited_record_is_said_at_its_first_fault():
    texts = edited_texts()
    said = [[(p[0], p[1], p[4][:20], p[5]) for p in _reading_now(text)] for text in texts]
    card = '"1S" is not a card: '
    first, last = _place_of(texts[0], '"1S"'), _place_of(texts[1], '"1S"', last=True)
    assert said[:3] == [[(*first, card, "/hands/0/deal/0/cards/0")],
                        [(*last, card, "/hands/2/passes/5/cards/0")],
                        [(*first, card, "/hands/0/deal/0/cards/0"),
                         (*last, card, "/hands/2/passes/5/cards/0")]]
    assert [p[3] for p in said[3]] == ["/version", "/colour"]
    assert [p[3] for p in said[4]] == ["/version", "/hands/2/passes/5/cards/0"]
    nan, inf, twice, surrogate, broken = said[5::2]
    assert nan == [(*_place_of(texts[5], "NaN"), "not JSON: expected a", None)]
    assert [p[3] for p in inf] == ["/hands/2/tricks/2/number"]  # (not an integer, too large)
    assert twice == [(*_place_of(texts[9], '"number": 3', last=True),
                      "not JSON: the member", None)]
    assert surrogate == [(*_place_of(texts[11], "\\udc00"), "not JSON: a lone low", None)]
    # '"number": [[[' twelve times: a name inside an array, its colon where ',' belongs
    text = texts[13]
    colon = text.index('[[["number"') + len('[[["number"')
    assert broken == [(text.count("\n", 0, colon) + 1, colon - text.rfind("\n", 0, colon),
                       "not JSON: expected '", None)]
    assert _reading_now(texts[13])[0][4] == "not JSON: expected ',' or ']' in this array"
    for text, without, with_card in zip(texts[5::2], said[5::2], said[6::2]):
        # a bad card in the first hand: a schema problem, said only when the text is JSON
        assert with_card == without if without[0][3] is None else with_card[0][3] == \
            "/hands/0/deal/0/cards/0"


def test_a_bad_value_in_the_last_hand_is_said_asking_jsonschema_about_that_hand_only(
        monkeypatch):
    hand_schema = jsonrecord._validator("hand", False)
    asked = []

    def counted(value):
        asked.append(value["number"])
        return hand_schema(value)

    monkeypatch.setitem(jsonrecord._STATE, ("hand", False), counted)
    text = card_edit(json.dumps(three_hands(), indent=1), -1, "1X")
    with pytest.raises(InvalidRecord) as err:
        read_record(text)
    assert asked == [3]
    assert [(p.pointer, p.line, p.column, p.message) for p in err.value.problems] == [(
        "/hands/2/passes/5/cards/0", *_place_of(text, '"1X"'),
        '"1X" is not a card: a rank 2-10, J, Q, K or A, then a suit S, H, D or C (10S, QH)')]


def test_many_bad_hands_are_counted():
    document = three_hands()
    document["hands"] = document["hands"] * 20
    for hand in document["hands"]:
        for deal in hand["deal"]:
            deal["cards"] = ["1X"] * 6  # 36 problems a hand, 2,160 in all
    text = json.dumps(document, indent=1)
    problems = _reading_now(text)
    assert len(problems) == 101 and problems[-1][4] == "and 2060 more problems"
    assert [p[5] for p in problems[:7]] == [f"/hands/0/deal/{n // 6}/cards/{n % 6}"
                                            for n in range(7)]
    assert problems[-1][:2] == problems[-2][:2]  # the count stands at the last one listed


# ---- mutated records: a reading or a diagnostic, never a traceback --------------------------
_MUTATIONS = st.sampled_from(["", ",", ":", "}", "]", "{", "[", '"', "x", "NaN", "1e400",
                              "-", "0" * 45, '"a": 1,', "\\", "\\ud800", "\x01", "\n", "[" * 40])


def _valid_values_at(text: str, problem) -> bool:
    """Whether the value at the problem's pointer starts at the problem's place (a problem
    the schema has), or the problem is where the text stops being JSON (no pointer)."""
    if problem.pointer is None:
        return True
    document = json.loads(text)
    path = [step.replace("~1", "/").replace("~0", "~") for step in problem.pointer.split("/")[1:]]
    for step in path:
        if isinstance(document, list):
            step = int(step)
        if step not in (document if isinstance(document, dict) else range(len(document))):
            return True  # a member that is missing: said at the object that lacks it
        document = document[step]
    offset = Places(text).offset(problem.line, problem.column)
    return json.JSONDecoder().raw_decode(text, offset)[0] == document


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.booleans(), _MUTATIONS), min_size=1,
                max_size=4), st.lists(st.tuples(st.sampled_from(_PATHS), st.sampled_from(
                    ["set", "drop", "add"]), _ODD_VALUES), max_size=2))
def test_a_mutated_record_is_read_or_refused_with_its_places(mutations, edits):
    text = json.dumps(_edited(_SMALL, edits), indent=1)
    for where, replace, new in mutations:  # each somewhere in the text, found by a fraction
        at = int(where * len(text))
        text = text[:at] + new + text[at + (1 if replace else 0):]
    try:
        plain = json.loads(text)
        stops = None
    except json.JSONDecodeError as err:
        plain, stops = None, Places(text).at(err.pos)
    except RecursionError:  # pragma: no cover - nesting this deep is not drawn
        plain, stops = None, None
    try:
        events = read_record(text).events
    except InvalidRecord as err:
        problems = err.problems
        assert all(1 <= p.line <= text.count("\n") + 1 and p.column >= 1 for p in problems)
        first = problems[0]
        if stops is not None:  # not JSON: where Python's json stops, or before (a name twice)
            assert first.pointer is None and (first.line, first.column) <= stops
        elif plain is not None and first.pointer is not None:
            assert all(_valid_values_at(text, p) for p in problems)
        return
    except UnreadableLog as err:
        assert "holds no statement" in str(err)
        return
    assert stops is None and plain is not None and events
    report = judge_bytes(text.encode("utf-8"), "game.json")
    assert report.verdict in ("clean", "violations")
