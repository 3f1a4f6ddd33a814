"""Spellings people write at the table: each read with its obvious meaning by both readers,
written back canonically by ``referee fmt``; a line still unreadable gets a hint that shows
the canonical line where one repair makes it clear.

Every expected event, line and message below is written by hand.
"""

from __future__ import annotations

import pytest
from same_reading import assert_same_reading

from referee.log.events import Claim, Entry, Pass, Play, Score, Tag, Total, Trick
from referee.log.parser import parse_log
from referee.log.words import split_players
from referee.log.writer import format_text, write
from referee.rules.cards import Card


def C(text: str) -> Card:
    return Card.parse(text)


def read(line: str):
    """The one event of a line, read the same way by the line reader and by Lark."""
    result = assert_same_reading(line)
    assert result.issues == (), (line, result.issues)
    (event,) = result.events
    return event


def problem(line: str):
    result = assert_same_reading(line)
    assert result.events == (), line
    (found,) = result.issues
    return found


TRICK = Trick(3, (Play("Al", C("2C")), Play("Beth", C("3C"))), Claim("Al"))
SET_ASIDE = Trick(3, (Play("Al", C("2C")), Play("Beth", C("3C"))), Claim(None))


# ---- arrows and nobody ---------------------------------------------------------------------
@pytest.mark.parametrize("line", [
    "trick 3: Al 2C, Beth 3C -> Al",
    "trick 3: Al 2C, Beth 3C → Al",
    "trick 3: Al 2C, Beth 3C => Al",
    "trick 3: Al 2C, Beth 3C ⇒ Al",
    "trick 3: Al 2C, Beth 3C→Al",
    "trick 3: Al 2C, Beth 3C=>Al",
])
def test_every_arrow_claims_the_winner(line):
    assert read(line) == TRICK


@pytest.mark.parametrize("line", [
    "trick 3: Al 2C, Beth 3C -> none",
    "trick 3: Al 2C, Beth 3C -> None",
    "trick 3: Al 2C, Beth 3C -> NONE",
    "trick 3: Al 2C, Beth 3C -> nobody",
    "trick 3: Al 2C, Beth 3C -> Nobody",
    "trick 3: Al 2C, Beth 3C → nobody",
    "trick 3: Al 2C, Beth 3C => None",
])
def test_none_and_nobody_claim_a_set_aside_trick(line):
    assert read(line) == SET_ASIDE


def test_a_player_called_nobody_is_quoted_after_the_arrow():
    assert read('trick 3: Al 2C, Beth 3C -> "Nobody"') == Trick(
        3, (Play("Al", C("2C")), Play("Beth", C("3C"))), Claim("Nobody"))
    assert write([Trick(1, (), Claim("Nobody"))]) == 'trick 1: -> "Nobody"\n'
    assert write([Trick(1, (), Claim("nobody"))]) == 'trick 1: -> "nobody"\n'


def test_arrows_in_compact_tricks_and_passes():
    assert read("trick 4 Dave: 10S 9H → none") == Trick(4, (Play(None, C("10S")), Play(None, C("9H"))),
                                                         Claim(None), "Dave")
    assert read("trick 4 Dave: 10S 9H=>Eve") == Trick(4, (Play(None, C("10S")), Play(None, C("9H"))),
                                                       Claim("Eve"), "Dave")
    assert read("pass Al → Beth: 2H 9H QH") == Pass("Al", _run("2H 9H QH"), "Beth")
    assert read("pass Al=>Beth: 2H") == Pass("Al", _run("2H"), "Beth")
    assert read("pass Al ⇒ Beth: 2H") == Pass("Al", _run("2H"), "Beth")


def _run(cards: str):
    from referee.log.events import CardRun

    return CardRun(tuple(C(card) for card in cards.split()))


def test_the_claim_span_covers_a_one_character_arrow():
    event = read("trick 3: Al 2C, Beth 3C → Al")
    assert (event.claim.span.column, event.claim.span.end_column) == (25, 29)
    assert event.span.end_column == 29


def test_an_arrow_cannot_be_a_name_or_a_card():
    assert problem("trick 3: Al 2C → ").message == "expected a player name or 'none' after '→'"
    assert problem("deal Al: AS KS =").message == "expected the end of the line after 'KS'"


# ---- typographic quotes --------------------------------------------------------------------
def test_typographic_double_quotes_around_names():
    assert read("trick 1: “Mary Ann” 2C, Al 3C → “Mary Ann”") == Trick(
        1, (Play("Mary Ann", C("2C")), Play("Al", C("3C"))), Claim("Mary Ann"))
    assert read("pass “Mary Ann” -> “Jo Jo”: 2H").player == "Mary Ann"
    assert read("deal “Mary Ann”: AS").player == "Mary Ann"
    assert read("trick 3 “Mary Ann”: 2C 3C").leader == "Mary Ann"
    assert read("moon “Mary Ann” add").player == "Mary Ann"
    assert read("hand 1 dealer “Mary Ann”").dealer == "Mary Ann"
    assert read("winners: “Mary Ann”, Al").players == ("Mary Ann", "Al")


def test_typographic_quotes_protect_hash_and_arrow_like_straight_ones():
    assert read("trick 1: “a -> b #2” 2C -> Al") == Trick(1, (Play("a -> b #2", C("2C")),), Claim("Al"))


def test_typographic_quotes_in_tags():
    assert read("[Event “Friday club”]") == Tag("Event", "Friday club")
    assert read("[Players “Al Beth ‘Mary Ann’”]") == Tag("Players", "Al Beth ‘Mary Ann’")
    assert read('[Note "he said “hi”"]') == Tag("Note", "he said “hi”")  # inside straight quotes: text


@pytest.mark.parametrize("value, names", [
    ("Al ‘Mary Ann’ Beth", ["Al", "Mary Ann", "Beth"]),
    ("Al “Mary Ann” Beth", ["Al", "Mary Ann", "Beth"]),
    ("Al 'Mary Ann’ Beth", ["Al", "Mary Ann", "Beth"]),
    ("O’Neil Al", ["O’Neil", "Al"]),
])
def test_typographic_quotes_in_the_players_value(value, names):
    assert split_players(value) == names


def test_an_unclosed_typographic_quote():
    found = problem("trick 1: “Mary 2C")
    assert found.message == "a quoted player name needs its closing '”'"
    assert (found.column, found.end_column) == (10, 15)


def test_single_quotes_in_a_statement_get_a_hint():
    found = problem("trick 1: 'Mary Ann' 2C")
    assert found.message == "expected a player name, not ''Mary'"
    assert found.hint == 'a name with a space is written in double quotes: "Mary Ann"'
    found = problem("deal ‘Mary Ann’: AS")
    assert found.hint == 'did you mean: deal "Mary Ann": AS'


# ---- minus signs and score entries ---------------------------------------------------------
@pytest.mark.parametrize("line", [
    "score: Al 0, Beth 13, Cy -26",
    "score: Al 0, Beth 13, Cy −26",
    "score: Al 0, Beth 13, Cy –26",
    "score: Al: 0, Beth: 13, Cy: −26",
    "score: Al=0, Beth=13, Cy=–26",
    "score: Al = 0, Beth :13, Cy -26",
    "score: Al:0 Beth=13 Cy −26",
])
def test_score_entries_as_people_write_them(line):
    assert read(line) == Score((Entry("Al", 0), Entry("Beth", 13), Entry("Cy", -26)))


def test_total_entries_too():
    assert read("total: Al: −5, “Mary Ann”=+13") == Total((Entry("Al", -5), Entry("Mary Ann", 13)))


def test_an_entry_span_covers_the_separator():
    (first, second) = read("score: Al: 0, Beth=13").entries
    assert (first.span.column, first.span.end_column) == (8, 13)
    assert (second.span.column, second.span.end_column) == (15, 22)


@pytest.mark.parametrize("line, message", [
    ("score: Al:", "expected points (a whole number) after 'Al'"),
    ("score: Al =", "expected points (a whole number) after 'Al'"),
    ("score: Al: x", "expected points (a whole number) after 'Al', not 'x'"),
    ("score: Al −", "expected points (a whole number) after 'Al', not '−'"),
    ("score: Al ::5", "expected points (a whole number) after 'Al', not ':5'"),
])
def test_entries_still_need_points(line, message):
    assert problem(line).message == message


# ---- the Players line ----------------------------------------------------------------------
def test_a_players_line_is_the_players_tag():
    event = read("Players: Al Beth Charlie 'Mary Ann'")
    assert event == Tag("Players", "Al Beth Charlie 'Mary Ann'")
    assert (event.span.column, event.span.end_column) == (1, 36)
    assert read("players : Al, Beth  # clockwise") == Tag("Players", "Al, Beth")
    assert read("  PLAYERS:Al Beth") == Tag("Players", "Al Beth")


def test_a_players_line_needs_names():
    assert problem("Players:").message == ("expected the players' names in seating order, like "
                                           "'Al Beth Charlie' after ':'")


def test_the_singular_player_tag_gets_did_you_mean():
    found = problem('[Player "Al Beth Charlie"]')
    assert found.message == "'Player' is not a tag: the seating is the [Players \"...\"] tag"
    assert found.hint == 'did you mean: [Players "Al Beth Charlie"]'
    assert (found.column, found.end_column) == (2, 8)
    assert problem('[player "Al"]').hint == 'did you mean: [Players "Al"]'
    assert read('[Playerx "Al"]') == Tag("Playerx", "Al")  # another word, another tag
    assert read('[Player-2 "Al"]') == Tag("Player-2", "Al")


def test_a_singular_players_line_gets_did_you_mean():
    found = problem("Player: Al Beth")
    assert found.message == "unknown statement 'Player'"
    assert found.hint == 'did you mean: [Players "Al Beth"]'


# ---- the canonical line in the hint --------------------------------------------------------
@pytest.mark.parametrize("line, hint", [
    ("trick 3 Al 2C, Beth 3C -> Al", "did you mean: trick 3: Al 2C, Beth 3C -> Al"),
    ("trick 3 Al 2C, Beth 3C → nobody", "did you mean: trick 3: Al 2C, Beth 3C -> none"),
    ("trick 3 Beth 2C 5C KC", "did you mean: trick 3 Beth: 2C 5C KC"),
    ("deal Al AS KS 10S", "did you mean: deal Al: AS KS 10S"),
    ("pass Al Beth: 2H 9H", "did you mean: pass Al -> Beth: 2H 9H"),
    ("kitty 7C 4D", "did you mean: kitty: 7C 4D"),
    ("score Al 0, Beth=13", "did you mean: score: Al 0, Beth 13"),
    ("winner Al", "did you mean: winner: Al"),
    ("Players Al Beth", 'did you mean: [Players "Al Beth"]'),
    ("trik 1: Beth 2C", "did you mean: trick 1: Beth 2C"),
    ("dael Al: AS", "did you mean: deal Al: AS"),
    ("hand 2 dealr Al", "did you mean: hand 2 dealer Al"),
    ("hand 2 pass lft", "did you mean: hand 2 pass left"),
    ("moon Fay subract", "did you mean: moon Fay subtract"),
    ("moon 'Mary Ann' add", 'did you mean: moon "Mary Ann" add'),
    ("[Event 'Friday club']", 'did you mean: [Event "Friday club"]'),
])
def test_the_hint_shows_the_canonical_line(line, hint):
    assert problem(line).hint == hint


@pytest.mark.parametrize("line, hint", [
    ("trick 3 Al 2C", None),  # 'trick 3: Al 2C' or 'trick 3 Al: 2C': not clear
    ("trik 1: Beth 2C Charlie", "did you mean 'trick'?"),  # the word, but the line is still bad
    ("xyzzy plugh", None),
])
def test_no_canonical_line_where_it_is_not_clear(line, hint):
    assert problem(line).hint == hint


# ---- fmt writes the canonical form ---------------------------------------------------------
SLOPPY = """\
[Event “Friday club”]
Players: Al Beth Charlie ‘Mary Ann’   # clockwise
hand 1 dealer Al pass left
pass Al → “Mary Ann”: 2H 9H QH
trick 1: Beth 2C, Charlie 5C, “Mary Ann” KC, Al 3C => “Mary Ann”
trick 2: “Mary Ann” 10S, Al 10S ⇒ nobody
trick 3 Beth: 2C 5C -> None
score: Al: 0, Beth=13, Charlie −26, “Mary Ann” –5
total: Al=0 Beth=13 Charlie=-26 “Mary Ann”=-5
trick 3 Al 2C, Beth 3C -> Al
"""
CANONICAL = """\
[Event "Friday club"]
[Players "Al Beth Charlie ‘Mary Ann’"]  # clockwise

hand 1 dealer Al pass left
pass Al -> "Mary Ann": 2H 9H QH
trick 1: Beth 2C, Charlie 5C, "Mary Ann" KC, Al 3C -> "Mary Ann"
trick 2: "Mary Ann" 10S, Al 10S -> none
trick 3 Beth: 2C 5C -> none
score: Al 0, Beth 13, Charlie -26, "Mary Ann" -5
total: Al 0, Beth 13, Charlie -26, "Mary Ann" -5
trick 3 Al 2C, Beth 3C -> Al
"""


def test_fmt_writes_the_canonical_form():
    text, issues = format_text(SLOPPY)
    assert text == CANONICAL
    assert [(issue.line, issue.hint) for issue in issues] == [
        (10, "did you mean: trick 3: Al 2C, Beth 3C -> Al")]


def test_the_canonical_form_reads_as_the_sloppy_one_and_stays():
    sloppy, canonical = parse_log(SLOPPY), parse_log(CANONICAL)
    assert sloppy.events == canonical.events
    assert format_text(CANONICAL) == (CANONICAL, canonical.issues)
    assert assert_same_reading(SLOPPY).events == sloppy.events
    assert write(sloppy.events) == write(canonical.events)


def test_the_players_of_a_sloppy_log_are_seated():
    from referee.judge.walk import judge_text

    report = judge_text("Players: Al Beth Charlie Dave Eve ‘Mary Ann’\nhand 1 dealer Al\n")
    assert report.players == ["Al", "Beth", "Charlie", "Dave", "Eve", "Mary Ann"]
