"""Fuzzing the parser: whatever the input, events and issues (or UnreadableLog), never a crash.

Random text, random bytes, random edits of valid logs, sentences generated from the grammar
itself, and hostile input (huge files, very long lines, inputs built to make a regular
expression backtrack).
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput
from log_strategies import GRAMMAR, LOG_CHARACTERS, SENTENCES, event_lists, mutate

from referee.log.parser import MAX_ISSUES, ParseResult, parse_bytes, parse_log
from referee.log.decode import UnreadableLog
from referee.log.writer import write

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_TEXT = st.one_of(st.text(max_size=300), st.text(LOG_CHARACTERS, max_size=300))


def check(result: ParseResult, text: str) -> None:
    """What every parse must satisfy."""
    assert isinstance(result, ParseResult)
    lines = result.text.split("\n")
    issue_lines = set()
    for issue in result.issues:
        assert 1 <= issue.line <= len(lines), issue
        assert 1 <= issue.column < issue.end_column, issue
        assert issue.line == issue.end_line
        assert issue.message and issue.message[0] != " "
        assert "internal error" not in issue.message, issue
        # The word-by-word grammar accepted a line the fast one refused: they disagree.
        assert issue.message != "this line cannot be read as a statement", (text, issue)
        issue_lines.add(issue.line)
    seen = 0
    for event in result.events:
        line = event.span.line
        assert line > seen, "one event per line, in order"
        seen = line
        assert line not in issue_lines, (event, result.issues)
        assert 1 <= event.span.column < event.span.end_column <= len(lines[line - 1]) + 1


@FUZZ
@given(_TEXT)
def test_random_text(text):
    check(parse_log(text), text)


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(data):
    try:
        result = parse_bytes(data)
    except UnreadableLog as err:
        assert err.line >= 1 and err.column >= 1 and str(err)
    else:
        check(result, result.text)


@FUZZ
@given(event_lists, st.randoms(use_true_random=False))
@pytest.mark.slow
def test_edits_of_valid_logs_touch_only_their_line(evs, rng):
    text = write(evs)
    lines = text.split("\n")
    assume(any(lines))
    k = rng.choice([i for i, line in enumerate(lines) if line])
    lines[k] = mutate(lines[k], rng)
    edited = "\n".join(lines)
    result = parse_log(edited)
    check(result, edited)
    before = [e for e in parse_log(text).events if e.span.line != k + 1]
    after = [e for e in result.events if e.span.line != k + 1]
    assert after == before


# ---- sentences generated from the grammar's word-by-word rules -------------------------------
def _word_grammar_accepts(line: str) -> bool:
    try:
        GRAMMAR.parse(line, start="line")
    except UnexpectedInput:
        return False
    return True


def is_blank(line: str) -> bool:
    """A blank line as spec/log-format.md has it: nothing but blanks, which are spaces, tabs
    and any other Unicode white space except the newline (NEL, NBSP, the line and paragraph
    separators, ideographic space: what ``str.isspace`` calls white space)."""
    return "\n" not in line and (not line or line.isspace())


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(SENTENCES)
@example("\t \t \t \x85")  # NEL is white space, so this line is blank, not an unknown statement
@example("\u00a0\u2028\u3000")
def test_grammar_sentences(line):
    assume("\n" not in line and "\r" not in line)
    result = parse_log(line)
    check(result, line)
    if is_blank(line):  # a blank line is not a statement, and not an error either
        assert not result.events and not result.issues
        return
    if not _word_grammar_accepts(line):
        # refused word by word -> refused by the fast grammar too
        assert result.issues and not result.events, (line, result)
    elif not result.issues:
        assert len(result.events) == 1, (line, result)


def test_small_edits_leave_most_lines_readable():
    rng = random.Random(7)
    samples = ["trick 1: Beth 2C, Charlie 5C -> Dave", "deal Al: AS KS", "hand 3 dealer Al pass 2 left",
               "moon Fay add", "score: Al 0, Beth 13", '[Event "x"]', "kitty:", "winners: Al Beth"]
    readable = 0
    for line in samples * 10:
        edited = mutate(line, rng) if rng.random() < 0.5 else line
        result = parse_log(edited)
        check(result, edited)
        readable += not result.issues
    assert readable > 40


# ---- hostile input -------------------------------------------------------------------------
@pytest.mark.slow
def test_fifty_megabytes_of_noise_is_quick():
    text = "hand 1\n" + "junk line\n" * 5_000_000
    start = time.perf_counter()
    result = parse_log(text)
    # a bound against a hang or quadratic work (alone here: ~4 s), not a benchmark: generous,
    # so a machine under load does not fail it
    assert time.perf_counter() - start < 30
    assert len(result.issues) == MAX_ISSUES + 1 and result.events


def test_fifty_megabyte_line_is_quick():
    start = time.perf_counter()
    result = parse_bytes(b"hand 1\n" + b"A" * 50_000_000)
    assert time.perf_counter() - start < 30
    assert result.events and result.issues[0].message.startswith("line is 50000000 characters long")


def test_no_line_makes_a_regex_backtrack():
    n = 4000
    nasty = [
        'trick 1: "' + "a" * n,
        "trick 1: " + "a-" * (n // 2),
        "trick 1: " + "Al " * (n // 3) + "x",
        "trick 1: " + "a" * n + " 2C",
        "trick 1: " + "Al 2C, " * (n // 8) + "-> " + "b" * 100 + " x",
        "deal " + "a" * n,
        "deal " + "a" * n + ": " + "AS " * 10,
        "pass " + "a" * 2000 + " -> " + "b" * 1900,
        "score: " + "A " * (n // 2),
        "score: " + "Al 1" * (n // 4),
        "winners: " + "a" * n + "!",
        "[" + "a" * n,
        '[a "' + "\\" * (n - 1),
        "hand 1 dealer " + "a" * n + "?",
        "kitty: " + "AS " * (n // 3) + "-",
        '"' * n,
        "->" * (n // 2),
    ]
    start = time.perf_counter()
    for line in nasty:
        assert len(line) <= 4096
        result = parse_log("\n".join([line] * 20))
        check(result, line)
    assert time.perf_counter() - start < 30


def test_a_big_valid_log_round_trips():
    rng = random.Random(3)
    lines = []
    names = ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]
    for hand in range(1, 41):
        lines.append(f"hand {hand} dealer {names[hand % 6]} pass left")
        for trick in range(1, 18):
            plays = ", ".join(f"{n} {rng.choice(['2C', '10S', 'QS', 'AH'])}" for n in names)
            lines.append(f"trick {trick}: {plays} -> {rng.choice(names + ['none'])}")
    text = "\n".join(lines)
    result = parse_log(text)
    assert result.issues == () and len(result.events) == 40 * 18
    assert parse_log(write(result.events)).events == result.events


@pytest.mark.parametrize("blank", [" ", "\t", "\x0b\x0c", "\t \t \t \x85", "\u00a0", "\u1680", "\u2000\u200a",
                                   "\u2028\u2029", "\u202f\u205f\u3000"])
def test_lines_of_unicode_white_space_are_blank(blank):
    assert is_blank(blank)
    between = parse_log(f"hand 1\n{blank}\nhand 2\n")
    assert parse_log(blank) == ParseResult((), (), blank)
    assert between.issues == () and [event.span.line for event in between.events] == [1, 3]


@pytest.mark.parametrize("text", ["x", "\u200b", " x ", "\t\n"])
def test_other_lines_are_not_blank(text):
    assert not is_blank(text)
