"""Events -> canonical text: golden lines, the round-trip property, ``referee fmt``."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from log_strategies import LINE_TEXT, event_lists, events

from referee.log.events import (
    CardRun,
    Claim,
    Comment,
    Deal,
    Entry,
    GameOver,
    HandStart,
    Kitty,
    Moon,
    Pass,
    Play,
    Score,
    Tag,
    Total,
    Trick,
)
from referee.log.parser import parse_log
from referee.log.canonical import format_event
from referee.log.writer import format_text, write
from referee.rules.cards import Card
from referee.rules.ruleset import canonical_direction

# ---- the round trip ------------------------------------------------------------------------
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event_lists)
@pytest.mark.slow
def test_round_trip(evs):
    text = write(evs)
    result = parse_log(text)
    assert result.issues == (), (text, result.issues)
    assert result.events == tuple(evs)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event_lists)
def test_write_is_canonical(evs):
    text = write(evs)
    assert write(parse_log(text).events) == text
    assert format_text(text) == (text, ())


def test_directions_in_the_strategy_are_canonical():
    for direction in ("left", "2 right", "0 left", "hold"):
        assert canonical_direction(direction) == direction


# ---- golden lines --------------------------------------------------------------------------
def C(text: str) -> Card:
    return Card.parse(text)


@pytest.mark.parametrize("event, line", [
    (Tag("Event", "Friday club"), '[Event "Friday club"]'),
    (Tag("Note", 'say "hi" \\ bye'), '[Note "say \\"hi\\" \\\\ bye"]'),
    (HandStart(1, "Al", "left"), "hand 1 dealer Al pass left"),
    (HandStart(2), "hand 2"),
    (HandStart(3, None, "2 right"), "hand 3 pass 2 right"),
    (Deal("Al", CardRun((C("AS"), C("10S"), C("2C")))), "deal Al: AS 10S 2C"),
    (Kitty(CardRun((C("7C"), C("4D")))), "kitty: 7C 4D"),
    (Kitty(CardRun(())), "kitty:"),
    (Pass("Al", CardRun((C("2H"),))), "pass Al: 2H"),
    (Pass("Al", CardRun((C("2H"),)), "Mary Ann"), 'pass Al -> "Mary Ann": 2H'),
    (Trick(1, (Play("Beth", C("2C")), Play("Charlie", C("5C"))), Claim("Dave")), "trick 1: Beth 2C, Charlie 5C -> Dave"),
    (Trick(2, (Play("Dave", C("10S")),), Claim(None)), "trick 2: Dave 10S -> none"),
    (Trick(2, (Play("Dave", C("10S")),), Claim("none")), 'trick 2: Dave 10S -> "none"'),
    (Trick(4, ()), "trick 4:"),
    (Trick(3, (Play(None, C("2C")), Play(None, C("5C"))), None, "Beth"), "trick 3 Beth: 2C 5C"),
    (Trick(3, (), Claim("Al"), "Beth"), "trick 3 Beth: -> Al"),
    (Moon("Fay", "add"), "moon Fay add"),
    (Score((Entry("Al", 0), Entry("Beth", -13))), "score: Al 0, Beth -13"),
    (Total((Entry("Олена", 13),)), "total: Олена 13"),
    (GameOver(("Al",)), "winner: Al"),
    (GameOver(("Al", "Zoë Q")), 'winners: Al, "Zoë Q"'),
    (Comment("Friday club"), "# Friday club"),
    (Comment(""), "#"),
])
def test_format_event(event, line):
    assert format_event(event) == line
    assert parse_log(line).events == (event,)


def test_write_puts_a_blank_line_before_each_hand():
    evs = [Tag("Event", "x"), HandStart(1), Kitty(CardRun(())), HandStart(2), Comment("c")]
    assert write(evs) == '[Event "x"]\n\nhand 1\nkitty:\n\nhand 2\n# c\n'
    assert write([HandStart(1)]) == "hand 1\n"
    assert write([]) == ""


@pytest.mark.parametrize("event", [
    Deal("Al", CardRun(())),
    Pass("Al", CardRun(())),
    Score(()),
    GameOver(()),
    GameOver(("none",)),
    Tag("1bad", "x"),
    Tag("Event", "two\nlines"),
    Comment("a\nb"),
    Deal("A\nB", CardRun((C("2C"),))),
    Trick(1, (Play(None, C("2C")),)),
    Trick(1, (Play("Al", C("2C")),), None, "Al"),
    HandStart(1, None, "none"),
    HandStart(1, None, "1 left"),
    HandStart(1, None, "sideways"),
    Moon("Al", "Add"),
])
def test_unwritable_events(event):
    with pytest.raises(ValueError):
        format_event(event)


# ---- referee fmt ---------------------------------------------------------------------------
MESSY = """\
# Friday club
[Event   "Friday club"]   # where
hand 1   DEALER al PASS None
deal al:as,ks , 10♠   # mine



Trick 1: al 2c Beth 5C ->NONE
trik 2: this line is wrong
trick 3 Beth: 2c 5c
score: al 0 Beth +13
"""

FORMATTED = """\
# Friday club
[Event "Friday club"]  # where

hand 1 dealer al pass hold
deal al: AS KS 10S  # mine

trick 1: al 2C, Beth 5C -> none
trik 2: this line is wrong
trick 3 Beth: 2C 5C
score: al 0, Beth 13
"""


def test_format_text():
    text, issues = format_text(MESSY)
    assert text == FORMATTED
    assert [i.line for i in issues] == [9]
    again, again_issues = format_text(FORMATTED)
    assert again == FORMATTED
    assert [(i.line, i.message) for i in again_issues] == [(8, "unknown statement 'trik'")]
    assert parse_log(text).events == parse_log(MESSY).events


def test_format_text_keeps_unread_lines():
    text = "hand 1\n" + "nonsense\n" * 1200 + "hand 2\n"
    formatted, issues = format_text(text)
    assert formatted == text
    assert len(issues) == 1001


def test_format_text_of_nothing():
    assert format_text("") == ("", ())
    assert format_text("\n\n  \n") == ("", ())


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(events.map(format_event), LINE_TEXT, st.just(""), st.just("  # note")), max_size=15))
def test_format_text_is_idempotent_and_keeps_events(lines):
    text = "\n".join(lines)
    formatted, issues = format_text(text)
    assert parse_log(formatted).events == parse_log(text).events
    assert len(issues) == len(parse_log(text).issues)
    assert format_text(formatted)[0] == formatted
