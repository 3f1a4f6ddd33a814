"""The line reader (referee/log/parser.py) against the grammar: identical readings.

``parser._parse(text, fast_lines=False)`` sends every line through Lark; the default reads
the common lines by hand.  Both must give the same events, the same spans (which equality
ignores, so they are compared separately) and the same issues, on every log we have and on
fuzzed text; and the fast path must really take the common lines.
"""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from log_strategies import LOG_CHARACTERS, SENTENCES, event_lists, mutate
from same_reading import assert_same_reading, spans

from referee.log import build, parser
from referee.log.build import EventBuilder, statement
from referee.log.events import NO_SPAN, Span
from referee.log.writer import write

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_corpus", ROOT / "bench" / "corpus.py")
bench_corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_corpus)
LOGS = sorted((ROOT / "examples").rglob("*.log"))
FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
@pytest.mark.slow
def test_example_logs_read_the_same(path):
    assert_same_reading(path.read_text("utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("fancy", [False, True])
def test_synthetic_corpus_reads_the_same(fancy):
    assert_same_reading(bench_corpus.make_corpus(150_000, seed=11, fancy=fancy))


@pytest.mark.parametrize("line", [
    "trick 1: Al \n", "trick 1: Al", "trick 1: Al  \n  \n\ttrick 2: Bo 2C", "trick 1:",
    "trick 1: -> none", 'trick 1: "A -> B" 2C, Bo 3C -> "Mary Ann"', "trick 1: Al 2C -> Bo -> Cy",
    "trick 1: Al 2C # x", "TRICK  3 \"Mary Ann\" : 2c 10♠ T♥️ -> none  ", "trick 3 Beth:",
    "trick 3 Beth: -> Al", "deal Al:", "deal Al: AS - KS", "deal Al: AS, KS,",
    "deal \"A\\\"B\": AS",
    "kitty:", "kitty:  \n", "kitty: ZZ", "pass Al -> Bo: 2C", "pass Al->Bo:2C", "pass Al -> : 2C",
    "score: Al 1, Bo -2, Cy +3", "score: Al", "total: Al 1 Bo", "winner: none",
    "winners: Al, \"Mary Ann\"", "winner:", "hand 1 dealer Al pass left", "hand 01 pass 1 left",
    "Hand 2 DEALER Bo PASS None ", "hand 3 dealer\"Mary Ann\"pass 2 right", "hand 4 pass",
    "hand 5 dealer pass left", "hand", "hand 6 pass 2", "hand 7 # comment", "  trick 1: Al 2C",
    "trick 1: Al 2C\u2028Bo 3C", "trick 1: Al 2C\x0bBo 3C", "deal Олена: 2♠︎ 3♠️",
    "trick 1\u00a0: Al 2C", "\n\n  \n\t\n", "kitty: # x", "trick 1: # x", "trick 3 Al: # c",
    "deal Al: AS # c", "score: Al 1 # c", 'deal "A#B": AS', 'trick 1: "a # b" 2C -> "c#"',
    "moon Al add", "pass Al: #", "winner: Al#",
    '[Event "x"]', '[ Event   "x" ]  # c', '[Event"x"]#c', '\t[Ev-ent_2 "a \\" b # c"]', '[Event "x"',
    '[Event "x"] y', '[1 "x"]', '[Event x]', '[]', '[Event "x" "y"]', '[Олена "x"]',
    "moon Al SUBTRACT", 'moon "Mary Ann" add  # c', "moon Al add#c", "moon Al addx", "moon Al",
    "moon add add", "moon Al add Bo", "  moon Al add", "moon-Al add", "Moon Олена Add",
    "#", "# c", "   #c  ", "\t#", "#[x]", "hand 1 dealer Al # c", "hand 2 pass 2 left#c",
    "  hand 3", "hand 4 dealer Al pass left extra", "hand 5#c", '\u00a0hand 6 dealer "A#B"',
    # spellings people write (tests/test_spellings.py has what they mean)
    "trick 1: Al 2C → Bo", "trick 1: Al 2C=>Bo", "trick 1: Al 2C ⇒ nobody", "trick 1: Al 2C -> None",
    "trick 1: Al 2C → Bo -> Cy", "trick 1: Al 2C =", "trick 1: Al 2C => ", "trick 1: Al=2C",
    "trick 3 Al: 2C → “Mary Ann”", "trick 3 “Mary Ann”: 2C", "pass Al → Bo: 2C", "pass Al=>Bo:2C",
    "pass “A → B”: 2C", "deal “Mary Ann”: AS", "deal Al: AS => Bo", "kitty: 7C → Bo",
    "score: Al: 0, Bo=13, Cy −26, Di –5", "score: Al:", "score: Al = ", "score: Al=>5",
    "total: “Mary Ann”: −5 # c", "trick 1: “a # b” 2C → “c → d”", "trick 1: “Mary 2C",
    '[Event “Friday club”]', '[Event “x”] # c', '[Event “x]', '[Player "x"]', '[player "x"]',
    '[Playerx "x"]', "Players: Al Beth", "players:Al,Beth # c", "Players:", "Players Al", "Player: Al",
    "  PLAYERS : ‘Mary Ann’ Al", "winners: “Mary Ann”, nobody", "moon “Mary Ann” add",
    "hand 1 dealer “Mary Ann” pass left",
    # near the lines as the writer writes them (build.PLAIN_LINES)
    "deal Al: 2S 10C\n\n  \n", "deal Al: 2S 10C  ", "deal Al:  2S", "deal Al: 2S  10C", "deal Al: 1S",
    "pass Al-Jo -> O'Neil: AS 10H", "pass Al ->Bo: AS", "pass Al -> Bo -> Cy: AS", "pass none: AS",
    "score: Al -26, Bo 0\n\n", "total: Al 123456789, Bo -0", "score: Al 1234567890", "score: Al 5,",
    "total: Al 5, Bo 6 ", "score: Al 5,Bo 6", "score: Al --5", "score: Al 5, Al 6",
])
def test_awkward_lines_read_the_same(line):
    assert_same_reading(line)
    assert_same_reading("hand 1\n" + line + "\ntrick 2: Al 2C\n")


@pytest.mark.slow
@FUZZ
@given(SENTENCES)
def test_grammar_sentences_read_the_same(line):
    assert_same_reading(line)


@pytest.mark.slow  # both readers on every run of lines
@FUZZ
@given(st.lists(st.one_of(SENTENCES, st.text(LOG_CHARACTERS, max_size=60)), max_size=8))
def test_runs_of_lines_read_the_same(lines):
    assert_same_reading("\n".join(lines))


@FUZZ
@given(event_lists, st.randoms(use_true_random=False))
@pytest.mark.slow
def test_edited_logs_read_the_same(evs, rng):
    lines = write(evs).split("\n")
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(lines))
        lines[k] = mutate(lines[k], rng)
    assert_same_reading("\n".join(lines))


def test_edited_example_lines_read_the_same():
    rng = random.Random(5)
    text = (ROOT / "examples" / "logs" / "clean-6-players.log").read_text("utf-8")
    lines = text.split("\n")
    for _ in range(300):
        edited = list(lines)
        k = rng.randrange(len(edited))
        edited[k] = mutate(edited[k], rng)
        assert_same_reading("\n".join(edited[max(0, k - 2) : k + 3]))


def test_the_fast_path_reads_every_line_of_a_well_formed_log(monkeypatch):
    """Only the lines the terminals refuse go to Lark: tags, comments, moon lines, indented
    lines and trailing comments are read by the line reader too."""
    text = (ROOT / "examples" / "logs" / "clean-6-players.log").read_text("utf-8")
    text += "  trick 99: Al ZZ\n  # a comment\ntrik 1: Al 2C\n\tdeal Al: AS # c\nhand 2 # c\n"
    text += "[Note \"x\"] # c\nmoon Al add # c\n"
    given_to_lark: list[str] = []
    original = parser._Reading.lark

    def spy(reading, source, start, end, line):
        given_to_lark.extend(source[start:end].splitlines())
        original(reading, source, start, end, line)

    monkeypatch.setattr(parser._Reading, "lark", spy)
    result = parser.parse_log(text)
    lines = text.count("\n")
    assert [issue.line for issue in result.issues] == [lines - 6, lines - 4]
    assert given_to_lark == ["trik 1: Al 2C"]
    assert len(result.events) + len(result.issues) == sum(1 for row in text.splitlines() if row.strip())


def test_a_plain_trick_reads_as_the_general_reading_reads_it():
    """A trick line as the writer writes it is matched whole (build.PLAIN_TRICK_LINE) and its
    plays cut by str.split; every other by the terminals' patterns, which also read the plain
    ones for a builder with a trick method of its own, and Lark: all give the same events and
    spans."""
    text = (ROOT / "examples" / "logs" / "clean-10-players.log").read_text("utf-8")
    text += ("trick 9: Al 10S, Mary-Jo QH, O'Neil 2C -> none\ntrick 10: Al 2C\n\n  \n"
             "  trick 11: Al 2C -> Bo\n \ntrick 12: Al 2C -> Nobody\ntrick 13: Al 2C ->  Bo\n")
    whole = re.compile(rf"[^\S\n]*{build.PLAIN_TRICK_LINE}")
    tricks = [line for line in text.splitlines() if line.lstrip().startswith("trick")]
    assert sum(whole.fullmatch(line + "\n") is not None for line in tricks) == len(tricks) - 1

    class General(EventBuilder):  # reads every trick by TRICK_HEAD and TRICK_REST
        trick = statement(EventBuilder.trick.build)

    plain = parser._parse(text)
    for general in (parser._parse(text, builder=General), parser._parse(text, fast_lines=False)):
        assert plain.events == general.events and plain.issues == general.issues
        assert spans(plain.events) == spans(general.events)


def test_plain_deal_and_pass_lines_read_as_the_general_reading_reads_them():
    """Deal and pass lines as the writer writes them are matched whole (build.PLAIN_LINES):
    the places worked out by hand, and the events and spans of the terminals' reading and of
    Lark's."""
    text = "hand 1\ndeal Al: 2S 10C\n\n  pass Al -> Bo: 10C\npass Bo: 2S\n"
    for name, line in build.PLAIN_LINES.items():
        assert re.search(rf"(?m)^[^\S\n]*{line}", text), name
    plain = parser._parse(text)
    deal, to_bo, from_bo = plain.events[1:]
    assert (deal.player, deal.span, deal.player_span, deal.run.spans) == (
        "Al", Span(2, 1, 2, 16), Span(2, 6, 2, 8), (Span(2, 10, 2, 12), Span(2, 13, 2, 16)))
    assert (to_bo.player, to_bo.to, to_bo.span, to_bo.player_span, to_bo.to_span,
            to_bo.run.spans) == ("Al", "Bo", Span(4, 3, 4, 21), Span(4, 8, 4, 10),
                                 Span(4, 14, 4, 16), (Span(4, 18, 4, 21),))
    assert (from_bo.to, from_bo.span, from_bo.player_span, from_bo.to_span, from_bo.run.spans) == (
        None, Span(5, 1, 5, 12), Span(5, 6, 5, 8), NO_SPAN, (Span(5, 10, 5, 12),))

    class General(EventBuilder):  # reads every deal and pass by HEAD and REST
        deal = statement(EventBuilder.deal.build)
        passing = statement(EventBuilder.passing.build)

    for general in (parser._parse(text, builder=General), parser._parse(text, fast_lines=False)):
        assert plain.events == general.events and plain.issues == general.issues
        assert spans(plain.events) == spans(general.events)
