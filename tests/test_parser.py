"""The written log -> events: golden tests for every statement, error messages, decoding."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.log import parser, words
from referee.log.events import (
    NO_SPAN,
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
    Span,
    Tag,
    Total,
    Trick,
)
from referee.log.parser import (
    MAX_ISSUES,
    MAX_LINE,
    ParseResult,
    SyntaxIssue,
    parse_bytes,
    parse_log,
)
from referee.log.decode import UnreadableLog, decode_log
from referee.log.words import split_players
from referee.rules.cards import Card
from referee.util.suggest import did_you_mean

ROOT = Path(__file__).resolve().parent.parent

EXAMPLE = """\
# Friday club, table 2
[Event "Friday club"]
[Date "2026-11-27"]
[Ruleset "cancellation"]
[Players "Al Beth Charlie Dave Eve Fay"]
[Target "150"]

hand 1 dealer Al pass left
deal Al: AS KS 10S 4S 2H 9H QH JD 8D 7D 3D KC 9C 6C 5C 2C 3S
kitty: 7C 4D
pass Al: 2H 9H QH
pass Al -> Beth: 2H 9H QH
trick 1: Beth 2C, Charlie 5C, Dave KC, Eve 9C, Fay 3C, Al 2C -> Dave
trick 2: Dave 10S, Eve 9H, Fay 9H, Al 10S, Beth 4D, Charlie 3D -> none
trick 3 Beth: 2C 5C KC 9C 3C 2C
moon Fay subtract
score: Al 0, Beth 13, Charlie 0, Dave 5, Eve 0, Fay 34
total: Al 0, Beth 13, Charlie 0, Dave 5, Eve 0, Fay 34
winner: Al
"""


def C(text: str) -> Card:
    return Card.parse(text)


def run(*cards: str) -> CardRun:
    return CardRun(tuple(C(c) for c in cards))


def plays(*pairs: str) -> tuple[Play, ...]:
    out = []
    for pair in pairs:
        name, card = pair.rsplit(" ", 1)
        out.append(Play(name, C(card)))
    return tuple(out)


def entries(text: str) -> tuple[Entry, ...]:
    return tuple(Entry(name, int(value)) for name, value in (e.split() for e in text.split(", ")))


def one(line: str):
    result = parse_log(line)
    assert result.issues == (), result.issues
    assert len(result.events) == 1, result.events
    return result.events[0]


def issue(line: str) -> SyntaxIssue:
    result = parse_log(line)
    assert result.events == (), result.events
    assert len(result.issues) == 1, result.issues
    return result.issues[0]


# ---- a log with every kind of statement (spec/log-format.md's short game, extended) ----------
def test_example_parses_exactly():
    result = parse_log(EXAMPLE)
    assert result.issues == ()
    assert result.text == EXAMPLE
    names = ("Al", "Beth", "Charlie", "Dave", "Eve", "Fay")
    expected = (
        Comment("Friday club, table 2"),
        Tag("Event", "Friday club"),
        Tag("Date", "2026-11-27"),
        Tag("Ruleset", "cancellation"),
        Tag("Players", "Al Beth Charlie Dave Eve Fay"),
        Tag("Target", "150"),
        HandStart(1, "Al", "left"),
        Deal("Al", run(*"AS KS 10S 4S 2H 9H QH JD 8D 7D 3D KC 9C 6C 5C 2C 3S".split())),
        Kitty(run("7C", "4D")),
        Pass("Al", run("2H", "9H", "QH")),
        Pass("Al", run("2H", "9H", "QH"), to="Beth"),
        Trick(1, plays("Beth 2C", "Charlie 5C", "Dave KC", "Eve 9C", "Fay 3C", "Al 2C"), Claim("Dave")),
        Trick(2, plays("Dave 10S", "Eve 9H", "Fay 9H", "Al 10S", "Beth 4D", "Charlie 3D"), Claim(None)),
        Trick(3, tuple(Play(None, C(c)) for c in "2C 5C KC 9C 3C 2C".split()), None, leader="Beth"),
        Moon("Fay", "subtract"),
        Score(entries("Al 0, Beth 13, Charlie 0, Dave 5, Eve 0, Fay 34")),
        Total(entries("Al 0, Beth 13, Charlie 0, Dave 5, Eve 0, Fay 34")),
        GameOver(("Al",)),
    )
    assert result.events == expected
    assert split_players(result.events[4].value) == list(names)


def test_example_spans():
    events = parse_log(EXAMPLE).events
    comment, event_tag, *_ = events
    assert comment.span == Span(1, 1, 1, 23)
    assert event_tag.span == Span(2, 1, 2, 22)
    hand = events[6]
    assert (hand.span, hand.dealer_span, hand.direction_span) == (Span(8, 1, 8, 27), Span(8, 15, 8, 17), Span(8, 23, 8, 27))
    deal = events[7]
    assert deal.span == Span(9, 1, 9, 61) and deal.player_span == Span(9, 6, 9, 8)
    assert deal.run.spans[:3] == (Span(9, 10, 9, 12), Span(9, 13, 9, 15), Span(9, 16, 9, 19))
    assert deal.run.spans[-1] == Span(9, 59, 9, 61)
    assert len(deal.run.spans) == 17
    passed = events[10]
    assert passed.player_span == Span(12, 6, 12, 8) and passed.to_span == Span(12, 12, 12, 16)
    trick = events[11]
    assert trick.span == Span(13, 1, 13, 69)
    assert trick.plays[0].span == Span(13, 10, 13, 17) and trick.plays[0].card_span == Span(13, 15, 13, 17)
    assert trick.plays[1].span == Span(13, 19, 13, 29)
    assert trick.claim.span == Span(13, 62, 13, 69)
    set_aside = events[12]
    assert set_aside.claim.span == Span(14, 64, 14, 71)
    compact = events[13]
    assert compact.leader_span == Span(15, 9, 15, 13)
    assert compact.plays[0].span == compact.plays[0].card_span == Span(15, 15, 15, 17)
    moon = events[14]
    assert moon.span == Span(16, 1, 16, 18) and moon.player_span == Span(16, 6, 16, 9)
    score = events[15]
    assert score.span == Span(17, 1, 17, 55)
    assert score.entries[1].span == Span(17, 14, 17, 21)
    assert events[17].span == Span(19, 1, 19, 11)


def test_every_span_points_at_its_text():
    lines = EXAMPLE.split("\n")
    for event in parse_log(EXAMPLE).events:
        text = lines[event.span.line - 1][event.span.column - 1 : event.span.end_column - 1]
        assert text and text == text.strip()
        if isinstance(event, Deal):
            for card, span in zip(event.run.cards, event.run.spans):
                assert Card.parse(lines[span.line - 1][span.column - 1 : span.end_column - 1]) == card
        if isinstance(event, Trick):
            for play in event.plays:
                whole = lines[play.span.line - 1][play.span.column - 1 : play.span.end_column - 1]
                assert whole.endswith(lines[play.card_span.line - 1][play.card_span.column - 1 : play.card_span.end_column - 1])
                if play.player:
                    assert whole.startswith(play.player)


# ---- every statement form ------------------------------------------------------------------
@pytest.mark.parametrize("line, event", [
    ('[Event "Friday club"]', Tag("Event", "Friday club")),
    ('[my_tag-2 "a \\"quoted\\" # word \\\\ here"]', Tag("my_tag-2", 'a "quoted" # word \\ here')),
    ('[Empty ""]', Tag("Empty", "")),
    ("  [ Players   \"Al Beth\" ]  # seats", Tag("Players", "Al Beth")),
    ("hand 1", HandStart(1)),
    ("hand 12 dealer Al", HandStart(12, "Al")),
    ("hand 2 pass right", HandStart(2, None, "right")),
    ("hand 3 dealer Zoë pass across", HandStart(3, "Zoë", "across")),
    ("hand 4 pass hold", HandStart(4, None, "hold")),
    ("hand 4 pass none", HandStart(4, None, "hold")),
    ("hand 5 pass 1 left", HandStart(5, None, "left")),
    ("hand 5 pass 2 Right", HandStart(5, None, "2 right")),
    ('HAND 6 DEALER "Mary Ann" PASS LEFT', HandStart(6, "Mary Ann", "left")),
    ("deal Al: AS KS 10S", Deal("Al", run("AS", "KS", "10S"))),
    ("deal Al:AS,KS , 10S", Deal("Al", run("AS", "KS", "10S"))),
    ('deal "Mary Ann": ts q♠ 10♠ 7♣\ufe0f qs', Deal("Mary Ann", run("10S", "QS", "10S", "7C", "QS"))),
    ("Deal Олена: 2h # the rest later", Deal("Олена", run("2H"))),
    ("kitty: 7C 4D", Kitty(run("7C", "4D"))),
    ("kitty:", Kitty(CardRun(()))),
    ("kitty: # none this time", Kitty(CardRun(()))),
    ("pass Al: 2H 9H QH", Pass("Al", run("2H", "9H", "QH"))),
    ("pass Al -> Beth: 2H", Pass("Al", run("2H"), "Beth")),
    ("pass Al->Beth:2H", Pass("Al", run("2H"), "Beth")),
    ('pass "A->B" -> "C: D": 2H', Pass("A->B", run("2H"), "C: D")),
    ("trick 1: Beth 2C, Charlie 5C -> Dave", Trick(1, plays("Beth 2C", "Charlie 5C"), Claim("Dave"))),
    ("trick 2: Beth 2C Charlie 5C", Trick(2, plays("Beth 2C", "Charlie 5C"))),
    ("trick 3: Beth 2C -> none", Trick(3, plays("Beth 2C"), Claim(None))),
    ("trick 3: Beth 2C -> NONE", Trick(3, plays("Beth 2C"), Claim(None))),
    ('trick 3: Beth 2C -> "none"', Trick(3, plays("Beth 2C"), Claim("none"))),
    ("trick 4:", Trick(4, ())),
    ("trick 4: -> Al", Trick(4, (), Claim("Al"))),
    ('Trick 5:\t"Mary Ann" 10♠,Zoë q♠ -> "Mary Ann"', Trick(5, plays("Mary Ann 10S", "Zoë QS"), Claim("Mary Ann"))),
    ('trick 6: "a # b" 2C -> "c -> d" # said Al -> Beth', Trick(6, plays("a # b 2C"), Claim("c -> d"))),
    ("trick 7: O'Neil 2C, Mary-Jo 3C", Trick(7, plays("O'Neil 2C", "Mary-Jo 3C"))),
    ("trick 3 Beth: 2C 5C KC", Trick(3, tuple(Play(None, C(c)) for c in ("2C", "5C", "KC")), None, "Beth")),
    ("trick 3 Beth: 2C -> none", Trick(3, (Play(None, C("2C")),), Claim(None), "Beth")),
    ("trick 8 Beth:", Trick(8, (), None, "Beth")),
    ("moon Fay subtract", Moon("Fay", "subtract")),
    ("MOON Олена Add", Moon("Олена", "add")),
    ("score: Al 0, Beth 13", Score(entries("Al 0, Beth 13"))),
    ("score: Al -26 Beth +5", Score((Entry("Al", -26), Entry("Beth", 5)))),
    ('total: "Mary Ann" 130', Total((Entry("Mary Ann", 130),))),
    ("winner: Al", GameOver(("Al",))),
    ('winners: Al, "Mary Ann" Zoë', GameOver(("Al", "Mary Ann", "Zoë"))),
    ("# just a note  ", Comment("just a note")),
    ("#", Comment("")),
])
def test_statement(line, event):
    assert one(line) == event


def test_statements_keep_plain_str_names():
    events = parse_log("hand 1 dealer Al\ndeal Al: AS\nwinner: Al\nmoon Al add\n").events
    for value in (events[0].dealer, events[1].player, events[2].players[0], events[3].player):
        assert type(value) is str


def test_events_are_frozen_dataclasses_whose_spans_do_not_compare():
    import copy
    import dataclasses
    import pickle

    trick = parse_log("trick 3: Al 2C, Bo 10S -> none\n").events[0]
    plain = Trick(3, (Play("Al", Card.parse("2C")), Play("Bo", Card.parse("10S"))), Claim(None))
    assert trick == plain and hash(trick) == hash(plain) and trick != dataclasses.replace(plain, number=4)
    assert repr(trick) == repr(plain) == (
        "Trick(number=3, plays=(Play(player='Al', card=Card.parse('2C')), "
        "Play(player='Bo', card=Card.parse('10S'))), claim=Claim(player=None), leader=None)")
    played = trick.plays[1]  # a play is a tuple whose spans are found when first asked for
    assert played.span == Span(1, 17, 1, 23) and played == Play("Bo", Card.parse("10S"), NO_SPAN)
    assert Play("Cy", played.card, played.span, played.card_span).card_span == Span(1, 20, 1, 23)
    for copied in (pickle.loads(pickle.dumps(trick)), copy.deepcopy(trick)):
        assert copied == trick and copied.plays[1].card_span == Span(1, 20, 1, 23)
    with pytest.raises(dataclasses.FrozenInstanceError):
        trick.number = 4
    with pytest.raises(AttributeError):  # (FrozenInstanceError is one)
        del trick.plays[0].span
    assert Span(1, 2, 1, 3) != (1, 2, 1, 3) and Span(1, 2, 1, 3) == Span.point(1, 2)


def test_blank_lines_comments_and_missing_final_newline():
    result = parse_log("\n\n   \n# one\n\thand 1   \n\n# two\ndeal Al: AS")
    assert result.issues == ()
    assert result.events == (Comment("one"), HandStart(1), Comment("two"), Deal("Al", run("AS")))
    assert [e.span.line for e in result.events] == [4, 5, 7, 8]


def test_empty_text():
    assert parse_log("") == ParseResult((), (), "")
    assert parse_log("\n \n").events == ()


def test_crlf_and_bom():
    text = "\ufeffhand 1\r\ndeal Al: AS KS\r\ntrick 1: Al 2C\rwinner: Al\r\n"
    result = parse_log(text)
    assert result.issues == ()
    assert result.text == "hand 1\ndeal Al: AS KS\ntrick 1: Al 2C\nwinner: Al\n"
    assert result.events[1].run.spans[1] == Span(2, 13, 2, 15)
    assert parse_bytes(text.encode("utf-8")).events == result.events


# ---- error messages ------------------------------------------------------------------------
def test_unknown_keyword_with_did_you_mean():
    result = parse_log("hand 1\ntrik 1: Beth 2C -> Beth\ndeal Al: AS\n")
    assert [type(e) for e in result.events] == [HandStart, Deal]
    assert result.issues == (SyntaxIssue(2, 1, 2, 5, "unknown statement 'trik'",
                                         "did you mean: trick 1: Beth 2C -> Beth"),)


def test_a_near_miss_that_still_does_not_read_gets_the_word_only():
    found = issue("trik 1: Beth 2C Charlie")  # 'trick' alone does not mend it
    assert found.message == "unknown statement 'trik'" and found.hint == "did you mean 'trick'?"


def test_unknown_keyword_without_suggestion():
    found = issue("  xyzzy plugh")
    assert (found.line, found.column, found.end_column) == (1, 3, 8)
    assert found.message == "unknown statement 'xyzzy'" and found.hint is None


def test_keyword_glued_to_a_word_is_not_a_keyword():
    found = issue("handy 3")
    assert found.message == "unknown statement 'handy'" and found.hint == "did you mean: hand 3"


def test_missing_colon_in_deal():
    found = issue("deal Al AS KS")
    assert (found.line, found.column, found.end_column) == (1, 9, 11)
    assert found.message == "expected ':' after the player name in a deal line"


def test_missing_colon_in_pass():
    assert issue("pass Al -> Beth 2H").message == "expected ':' after the player name in a pass line"


def test_bad_card():
    found = issue("deal Al: AS 1S KS")
    assert (found.line, found.column, found.end_line, found.end_column) == (1, 13, 1, 15)
    assert found.message.startswith("'1S' is not a card: expected a rank")
    assert "like 10S or QS" in found.message


def test_bad_card_in_trick_points_at_the_card():
    found = issue("trick 4: Al 2C, Beth ZZ, Cy 3C")
    assert (found.column, found.end_column) == (22, 24)
    assert found.message.startswith("'ZZ' is not a card")


def test_missing_card_after_player():
    found = issue("trick 1: Beth 2C, Charlie -> Beth")
    assert found.message == "expected a card like 10S or QS after 'Charlie'"
    assert found.column == 26
    found = issue("trick 1: Beth Charlie 5C")
    assert found.message.startswith("expected a card like 10S or QS after 'Beth'")
    assert (found.column, found.end_column) == (15, 22)


def test_missing_card_or_points_at_the_end_of_the_line():
    for line in ("trick 1: Beth 2C, Charlie", "trick 1: Beth 2C, Charlie ", "trick 1: Beth 2C, Charlie \t"):
        found = issue(line)
        assert found.message == "expected a card like 10S or QS after 'Charlie'", line
        assert (found.column, found.end_column) == (26, 27), line
    for line in ("score: Al 1, Bo", "score: Al 1, Bo ", "total: Al 1, Bo  "):
        found = issue(line)
        assert found.message == "expected points (a whole number) after 'Bo'", line
        assert (found.column, found.end_column) == (16, 17), line


def test_any_blank_around_a_trick_number():
    result = parse_log("trick\x1f3\u00a0: Al 2C\ntrick \u20034 Bo: 3C\n")
    assert result.issues == ()
    assert [(trick.number, trick.leader) for trick in result.events] == [(3, None), (4, "Bo")]


def test_cards_without_leader_suggest_compact_form():
    found = issue("trick 3: 2C 5C KC")
    assert found.message == "expected a player name before the card '2C'"
    assert found.column == 10 and "trick 3 Beth:" in found.hint


def test_bad_numbers():
    found = issue("hand x")
    assert (found.column, found.message) == (6, "expected a hand number after 'hand'")
    found = issue("trick one: Al 2C")
    assert (found.column, found.message) == (7, "expected a trick number after 'trick'")
    found = issue("score: Al 13, Beth 1x")
    assert (found.column, found.end_column) == (20, 22)
    assert found.message == "expected points (a whole number) after 'Beth', not '1x'"


def test_hand_options_with_hints():
    found = issue("hand 2 dealr Al")
    assert found.message == "expected 'dealer', 'pass' or the end of the line after '2'"
    assert found.hint == "did you mean: hand 2 dealer Al" and found.column == 8
    found = issue("hand 2 pass lft")
    assert found.message == "expected a pass direction (left, right, across, hold, none, or N left / N right) after 'pass'"
    assert found.hint == "did you mean: hand 2 pass left"
    found = issue("moon Fay subract")
    assert found.message == "expected 'subtract' or 'add' after 'Fay'" and found.hint == "did you mean: moon Fay subtract"
    # where the mended word does not mend the line, the hint names the word
    assert issue("hand 2 dealr Al pass").hint == "did you mean 'dealer'?"
    assert issue("moon Fay subract now").hint == "did you mean 'subtract'?"


def test_text_after_a_complete_statement():
    found = issue("trick 3: Beth 2C -> Al extra")
    assert (found.column, found.message) == (24, "expected the end of the line after 'Al'")
    found = issue("deal Al: AS -> Beth")
    assert (found.column, found.message) == (13, "expected the end of the line after 'AS'")


def test_empty_bodies():
    assert issue("deal Al:").message == "expected cards like 10S or QS after ':'"
    assert issue("score:").message.startswith("expected a player name and points")
    assert issue("trick 2: Al 2C ->").message == "expected a player name or 'none' after '->'"


def test_unterminated_quotes():
    assert issue('[Event "Friday club]').message == "a quoted value needs its closing '\"'"
    assert issue('deal "Mary Ann: AS').message == "a quoted player name needs its closing '\"'"
    assert issue('trick 1: "Mary Ann 2C').message == "a quoted player name needs its closing '\"'"


def test_none_is_not_a_winner():
    found = issue("winner: Al none")
    assert (found.column, found.end_column) == (12, 16)
    assert found.message.startswith("'none' cannot be a winner's name")


def test_one_typo_does_not_hide_the_rest():
    text = "hand 1\ndeal Al AS\ndeal Al: AS\ntrik 1:\ntrick 1: Al 2C\nscore: Al x\ntotal: Al 1\n"
    result = parse_log(text)
    assert [e.span.line for e in result.events] == [1, 3, 5, 7]
    assert [i.line for i in result.issues] == [2, 4, 6]


def test_every_line_bad():
    text = "".join(f"x{i} y\n" for i in range(300))
    result = parse_log(text)
    assert result.events == ()
    assert [i.line for i in result.issues] == list(range(1, 301))


def test_issue_on_the_line_after_a_statement_keeps_that_statement():
    result = parse_log("kitty: 2C\n???\n")
    assert result.events == (Kitty(run("2C")),) and result.issues[0].line == 2
    result = parse_log("hand 1 dealer Al zzz\nhand 2\n")
    assert result.events == (HandStart(2),) and result.issues[0].line == 1


def test_long_line_is_skipped_unread():
    long = "trick 1: " + "Al 2C, " * 1000
    result = parse_log(f"hand 1\n{long}\ndeal Al: AS\n{'#' * (MAX_LINE + 1)}")
    assert [type(e) for e in result.events] == [HandStart, Deal]
    assert [(i.line, i.column) for i in result.issues] == [(2, 1), (4, 1)]
    assert result.issues[0].message == f"line is {len(long)} characters long; the longest statement is far shorter"
    assert result.issues[0].end_column == len(long) + 1
    assert parse_log("#" * MAX_LINE).issues == ()


def test_huge_single_line_is_fast():
    result = parse_log("hand 1\n" + "x" * 5_000_000 + "\nhand 2")
    assert result.events == (HandStart(1), HandStart(2))
    assert result.issues[0].message.startswith("line is 5000000 characters long")


def test_too_many_issues_stop_reading():
    text = "nonsense\n" * (MAX_ISSUES + 500)
    result = parse_log(text)
    assert len(result.issues) == MAX_ISSUES + 1
    assert "the rest was not read" in result.issues[-1].message
    assert result.issues[-1].line == MAX_ISSUES


def test_nul_in_text_is_an_issue_not_a_crash():
    assert parse_log("hand 1\x00\n").issues[0].column == 7


# ---- decoding ------------------------------------------------------------------------------
def test_decode_strips_bom_and_normalises_newlines():
    assert decode_log(b"\xef\xbb\xbfa\r\nb\rc\n") == "a\nb\nc\n"


def test_invalid_utf8_position():
    data = "hand 1\ndeal Олена: AS\n".encode() + b"trick 1: Al \xff2C\n"
    with pytest.raises(UnreadableLog) as info:
        decode_log(data)
    assert (info.value.line, info.value.column) == (3, 13)
    assert "not UTF-8" in info.value.message and str(info.value) == info.value.message
    with pytest.raises(UnreadableLog) as info:
        decode_log("Олена \xe9".encode()[:-1])  # a truncated two-byte character at the end
    assert (info.value.line, info.value.column) == (1, 7)


def test_nul_bytes_mean_binary():
    with pytest.raises(UnreadableLog) as info:
        parse_bytes(b"hand 1\ndeal Al:\x00 AS\n")
    assert (info.value.line, info.value.column) == (2, 9)
    assert "binary" in info.value.message


def test_utf16_is_refused():
    with pytest.raises(UnreadableLog, match="UTF-16"):
        parse_bytes("hand 1\n".encode("utf-16"))


@pytest.mark.parametrize("data", [b"", b"   \n\n\t", b"\xef\xbb\xbf", b"# only\n# comments\n"])
def test_nothing_to_read(data):
    with pytest.raises(UnreadableLog):
        parse_bytes(data)


def test_nothing_log_like_reports_first_issue():
    with pytest.raises(UnreadableLog) as info:
        parse_bytes(b"Dear diary,\ntoday we played hearts.\n")
    assert (info.value.line, info.value.column) == (1, 1)
    assert "unknown statement 'Dear'" in info.value.message


def test_parse_bytes_keeps_issues_when_some_lines_read():
    result = parse_bytes(b"hand 1\nbogus\n")
    assert result.events == (HandStart(1),) and result.issues[0].line == 2


# ---- players, suggestions, grammar ---------------------------------------------------------
@pytest.mark.parametrize("value, names", [
    ("Al Beth Charlie", ["Al", "Beth", "Charlie"]),
    ("Al  'Mary Ann'\t\"Jo Jo\" O'Neil", ["Al", "Mary Ann", "Jo Jo", "O'Neil"]),
    ("Al, Beth,Cy", ["Al", "Beth", "Cy"]),
    ("Олена Zoë José", ["Олена", "Zoë", "José"]),
    ("'Tis Al", ["'Tis", "Al"]),
    ("", []),
])
def test_split_players(value, names):
    assert split_players(value) == names


def test_did_you_mean():
    assert did_you_mean("trik", ["hand", "trick"]) == "trick"
    assert did_you_mean("BETH", ["Al", "Beth"]) == "Beth"
    assert did_you_mean("Bet", ["Al", "Beth"]) == "Beth"
    assert did_you_mean("zzz", ["Al", "Beth"]) is None
    assert did_you_mean("", ["Al"]) is None


def test_parser_is_built_once():
    assert parser._parser() is parser._parser()


def _regex_tree(pattern: str) -> str:
    import re._parser as sre_parse  # the parsed form: escapes and literal characters agree

    return repr(list(sre_parse.parse(pattern)))


def test_grammar_terminals_match_the_python_patterns():
    lark = parser._parser()
    assert _regex_tree(lark.get_terminal("NAME").pattern.to_regexp()) == _regex_tree(words.NAME_PATTERN)
    assert _regex_tree(lark.get_terminal("TAG_NAME").pattern.to_regexp()) == _regex_tree(words.TAG_NAME_RE.pattern)


def test_grammar_file_is_the_packaged_one():
    assert parser.grammar_text() == (ROOT / "grammars" / "log.lark").read_text("utf-8")


def _spec() -> str:
    return (ROOT / "spec" / "log-format.md").read_text("utf-8")


def test_spec_grammar_excerpt_is_in_the_grammar():
    grammar = (ROOT / "grammars" / "log.lark").read_text("utf-8")
    blocks = re.findall(r"```lark\n(.*?)```", _spec(), re.S)
    assert blocks
    for block in blocks:
        for line in block.splitlines():
            assert line in grammar.splitlines(), line


def test_spec_examples_parse_cleanly():
    blocks = re.findall(r"```log\n(.*?)```", _spec(), re.S)
    assert len(blocks) >= 10
    for block in blocks:
        result = parse_log(block)
        assert result.issues == (), (block, result.issues)
        assert result.events


def test_spec_error_table_is_what_the_parser_says():
    rows = re.findall(r"^\| `(.+?)` \| (.+?) \|\s*(.*?)\s*\|$", _spec(), re.M)
    assert len(rows) >= 10
    for line, message, hint in rows:
        found = issue(line)
        assert found.message == message, line
        assert (found.hint or "") == hint, line
