"""The log layer's diagnostics are translatable messages, and their English is unchanged.

Every message and hint the reader gives (syntax errors and their "did you mean" hints,
unreadable files, JSON records' problems) is a :class:`referee.util.message.Message` whose
template (and every template of the messages it holds as arguments) is one that
``scripts/i18n.py extract`` finds; the English texts are written out by hand.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest
from record_texts import FAULTY_RECORDS, RECORD

from referee.judge import codes
from referee.judge.walk import judge_path, judge_text
from referee.log.jsonrecord import InvalidRecord
from referee.log.decode import UnreadableLog
from referee.log.parser import parse_bytes, parse_log
from referee.log.jsonrecord import DESCRIPTIONS
from referee.rules.cards import CardError, parse_card
from referee.util.i18n import translated
from referee.util.message import Message
from referee.util.reading import UnreadableFile, read_limited, read_stream

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
i18n_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(i18n_script)


@pytest.fixture(scope="module")
def templates() -> set:
    return {entry.id for entry in i18n_script.extracted() if entry.id}


def assert_extracted(text, templates: set) -> None:
    """``text`` is a Message whose template, and those of its Message arguments, are found
    by the extractor (a template the extractor cannot see is never translated)."""
    assert isinstance(text, Message), f"a plain str, not a message: {text!r}"
    key = text.template if text.plural is None else (text.template, text.plural)
    assert key in templates, f"not extracted: {key!r}"
    for value in text.args.values():
        if isinstance(value, Message):
            assert_extracted(value, templates)


def _issues(text: str) -> list[tuple[str, str | None]]:
    return [(issue.message, issue.hint) for issue in parse_log(text).issues]


# (line, message, hint): written by hand, the English the reader has always given
SYNTAX_ERRORS = [
    ("trik 3: Al 2C, Beth 3C -> Al", "unknown statement 'trik'",
     "did you mean: trick 3: Al 2C, Beth 3C -> Al"),
    ("tag", "unknown statement 'tag'", None),
    ("deal Al: 2C 9X", ("'9X' is not a card: expected a rank (2-10, T, J, Q, K, A) then a suit "
     "(S H D C or ♠ ♥ ♦ ♣), like 10S or QS"), None),
    ("deal Al 2C 3C", "expected ':' after the player name in a deal line",
     "did you mean: deal Al: 2C 3C"),
    ("pass Al Beth: 2C", "expected ':' after the player name in a pass line",
     "did you mean: pass Al -> Beth: 2C"),
    ("trick 2: Al", "expected a card like 10S or QS after 'Al'", None),
    ("trick 2: Al Beth", "expected a card like 10S or QS after 'Al', not 'Beth'", None),
    ("score: Al x", "expected points (a whole number) after 'Al', not 'x'", None),
    ("score: Al", "expected points (a whole number) after 'Al'", None),
    ("winner: none", "'none' cannot be a winner's name: name the player(s) with the best total",
     None),
    ("winner: Al 2C", "expected a player name, not '2C'", None),
    ("hand x", "expected a hand number after 'hand'", None),
    ("trick", "expected a trick number after 'trick'", None),
    ("trick 1: 2C 3C", "expected a player name before the card '2C'",
     "a trick written as cards only names its leader before the colon: 'trick 3 Beth: 2C 5C ...'"),
    ("trick 2: 'Mary Ann' 2C", "expected a player name, not ''Mary'",
     'a name with a space is written in double quotes: "Mary Ann"'),
    ('[Player "x"]', "'Player' is not a tag: the seating is the [Players \"...\"] tag",
     'did you mean: [Players "x"]'),
    ('deal "Mary: 2C', "a quoted player name needs its closing '\"'", None),
    ("deal “Mary: 2C", "a quoted player name needs its closing '”'", None),
    ('[Event "x', "a quoted value needs its closing '\"'", None),
    ("hand 1 dealer Al pass lft", ("expected a pass direction (left, right, across, hold, none, "
     "or N left / N right) after 'pass'"), "did you mean: hand 1 dealer Al pass left"),
    ("trick 1: Al 2C ->", "expected a player name or 'none' after '->'", None),
    ("moon Al sub", "expected 'subtract' or 'add' after 'Al'", None),
    ("hand 1 dealer", "expected a player name after 'dealer'", None),
    ("hand 1 Al", "expected 'dealer', 'pass' or the end of the line after '1'", None),
    ("hand 1 pass left x", "expected the end of the line after 'left'", None),
    ("[Event", "expected a quoted value like \"Friday club\" after 'Event'", None),
    ("kitty 2C", "expected ':' after 'kitty'", "did you mean: kitty: 2C"),
]


@pytest.mark.parametrize(("line", "message", "hint"), SYNTAX_ERRORS,
                         ids=[s[0] for s in SYNTAX_ERRORS])
@pytest.mark.parametrize("fast_lines", [True, False], ids=["fast", "lark"])
def test_a_syntax_error_is_a_message_in_the_same_english(templates, line, message, hint,
                                                        fast_lines):
    from referee.log.parser import _parse

    issues = _parse("hand 1\n" + line + "\n", fast_lines=fast_lines).issues
    assert [(issue.message, issue.hint) for issue in issues] == [(message, hint)]
    assert_extracted(issues[0].message, templates)
    if hint is not None:
        assert_extracted(issues[0].hint, templates)


def test_the_reader_words_a_bad_card_as_the_card_parser_does():
    for piece in ("9X", "A" * 30, "Q♠♠", "1O"):
        with pytest.raises(CardError) as err:
            parse_card(piece)
        assert _issues(f"deal Al: 2C {piece}\n")[0][0] == str(err.value)


def test_a_long_line_and_a_file_of_noise_are_messages(templates):
    long_line = "trick 1: " + "Al 2C, " * 700
    [(message, _)] = _issues("hand 1\n" + long_line + "\n")
    assert message == f"line is {len(long_line)} characters long; the longest statement is far shorter"
    assert_extracted(message, templates)
    issues = parse_log("junk\n" * 1200).issues
    assert issues[-1].message == ("1000 unreadable lines: this does not look like a game log, "
                                  "the rest was not read")
    assert_extracted(issues[-1].message, templates)


# bytes -> what parse_bytes says of a file that is not a log at all
UNREADABLE = [
    (b"", "the log is empty"),
    (b"\xff\xfehello", "the file is UTF-16 text; save the log as UTF-8"),
    (b"hand 1\n\x00x", "this is a binary file, not a text log (it contains NUL bytes)"),
    (b"hand 1\ndeal Al: \xff\n",
     "the file is not UTF-8 text: byte 0xff cannot be read; save the log as UTF-8"),
    (b"# just a comment\n", "nothing in this file reads as a log statement, only comments"),
    (b"trik 1\nfoo bar\n",
     "nothing in this file reads as a log statement (line 1: unknown statement 'trik')"),
]


@pytest.mark.parametrize(("data", "message"), UNREADABLE, ids=[m for _, m in UNREADABLE])
def test_an_unreadable_log_says_why_in_a_message(templates, data, message):
    with pytest.raises(UnreadableLog) as err:
        parse_bytes(data)
    assert err.value.message == message
    assert_extracted(str(err.value), templates)  # str() keeps the message, for the check layer


def test_files_that_are_not_read_are_messages(templates, tmp_path):
    with pytest.raises(UnreadableFile) as err:
        read_limited(tmp_path)
    assert str(err.value) == ("not a regular file (a directory); only files are read (use - "
                              "for standard input)")
    assert_extracted(str(err.value), templates)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(UnreadableFile) as err:
        read_limited(fifo)
    assert str(err.value) == ("not a regular file (a named pipe); only files are read (use - "
                              "for standard input)")
    with pytest.raises(UnreadableFile) as err:
        read_limited(tmp_path / "missing.log")
    assert str(err.value) == "cannot read the file: No such file or directory"
    assert_extracted(str(err.value), templates)
    big = tmp_path / "big.log"
    big.write_bytes(b"x" * (3 * 2**20))
    with pytest.raises(UnreadableFile) as err:
        read_limited(big, 2 * 2**20)
    assert str(err.value) == "more than 2 MiB; logs over that are not read"
    assert_extracted(str(err.value), templates)
    with open(big, "rb") as stream, pytest.raises(UnreadableFile) as err:
        read_stream(stream, 2**20)
    assert str(err.value) == "more than 1 MiB; logs over that are not read"


def test_the_check_reports_keep_the_messages(templates, tmp_path):
    report = judge_text("hand 1\ntrik 3: Al 2C\n")
    [diagnostic] = [d for d in report.diagnostics if d.kind == codes.SYNTAX]
    assert diagnostic.message == "unknown statement 'trik'"
    assert diagnostic.hint == "did you mean: trick 3: Al 2C"
    assert_extracted(diagnostic.message, templates)
    assert_extracted(diagnostic.hint, templates)
    unread = judge_path(tmp_path)  # a directory
    assert unread.unreadable.startswith("not a regular file (a directory)")
    assert_extracted(unread.unreadable, templates)
    for d in unread.diagnostics:
        assert_extracted(d.message, templates)
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    assert_extracted(judge_path(empty).diagnostics[0].message, templates)


@pytest.mark.parametrize(("record", "summary", "problems"), FAULTY_RECORDS,
                         ids=[s[:40] for _, s, _ in FAULTY_RECORDS])
def test_a_record_s_problems_are_messages(templates, record, summary, problems):
    with pytest.raises(InvalidRecord) as err:
        parse_bytes(record.encode("utf-8"))
    assert str(err.value) == summary
    assert_extracted(str(err.value), templates)
    if problems is not None:
        assert [(p.pointer, p.message) for p in err.value.problems] == problems
    for problem in err.value.problems:
        assert_extracted(problem.message, templates)


def test_many_problems_are_counted_in_a_message(templates):
    cards = ", ".join(f'"{n}X"' for n in list(range(2, 10)) * 15)  # 120 problems
    record = RECORD % f'"hands": [{{"number": 1, "deal": [{{"player": "Al", "cards": [{cards}]}}]}}]'
    with pytest.raises(InvalidRecord) as err:
        parse_bytes(record.encode("utf-8"))
    last = err.value.problems[-1]
    assert last.message == "and 20 more problems"
    assert_extracted(last.message, templates)


def test_a_record_without_statements_is_a_message(templates):
    with pytest.raises(UnreadableLog) as err:
        parse_bytes((RECORD % '"hands": []').encode("utf-8"))
    assert str(err.value) == "the game record holds no statement (no tags, no hands)"
    assert_extracted(str(err.value), templates)


def test_every_description_of_the_schema_is_a_message():
    schema = json.loads((ROOT / "spec" / "game-record.schema.json").read_text("utf-8"))
    found: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            found.extend(v for k, v in node.items() if k == "description" and isinstance(v, str))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    assert set(found) == set(DESCRIPTIONS)
    assert all(isinstance(value, Message) for value in DESCRIPTIONS.values())


def test_words_inside_a_message_are_translated_with_it():
    """The pieces a message is made of reach the catalog one by one: a fake catalog that
    marks every template shows each piece went through it, and the log's words did not."""

    class Marking:
        def gettext(self, text):
            return "<" + text + ">"

        def ngettext(self, singular, plural, n):
            return "<" + (singular if n == 1 else plural) + ">"

    [(message, _)] = _issues("hand 1\nhand 1 Al\n")
    assert translated(message, Marking()) == (
        "<expected <<'dealer', 'pass'> or <the end of the line>> after '1'>")
    [(message, _)] = _issues("hand 1\nhand 1 pass\n")
    assert translated(message, Marking()) == (
        "<expected <a pass direction (left, right, across, hold, none, or N left / N right)> "
        "after 'pass'>")
