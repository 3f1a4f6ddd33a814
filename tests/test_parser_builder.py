"""One event builder per parse, as a visitor: parses share no state and take no lock.

Each parse makes its own :class:`EventBuilder` (``parse_log(text, builder=...)`` chooses its
class); the line reader and Lark's tables are shared but immutable.  So parses in several
threads at once read what they read alone, two parses can be inside their callbacks at the
same moment, a parse started inside another's callback leaves the outer one untouched, and a
builder class of one's own sees every statement whichever reader (fast or Lark) read it.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from same_reading import spans

from referee.log import parser
from referee.log.build import EventBuilder, statement
from referee.log.events import HandStart, Trick

ROOT = Path(__file__).resolve().parent.parent
LOGS = sorted((ROOT / "examples" / "logs").glob("*.log"))
# Lines only Lark reads (errors, a trailing comment after a REST that starts with '#'),
# between lines the fast reader takes.
AWKWARD = ("trik 1: Al 2C\ntrick 2: Al ZZ\ntrick 3: # c\n[Tag \"x\"]\nmoon Al add\n"
           "deal Al AS\nhand 4 dealer Al pass 2 left\n# note\nscore: Al\n")
TEXTS = [path.read_text("utf-8") for path in LOGS] + [AWKWARD, LOGS[0].read_text("utf-8") + AWKWARD]
READINGS = (True, False)  # fast_lines: the line reader and Lark, or Lark alone
WAIT = 30  # seconds a thread waits for the other before the test fails


def _reading(result: parser.ParseResult):
    return result.events, spans(result.events), result.issues


@pytest.mark.parametrize("fast_lines", READINGS)
@pytest.mark.slow
def test_parses_in_many_threads_read_what_they_read_alone(fast_lines):
    alone = [_reading(parser._parse(text, fast_lines)) for text in TEXTS]
    jobs = [index for index in range(len(TEXTS)) for _ in range(6)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(lambda index: _reading(parser._parse(TEXTS[index], fast_lines)), jobs))
    assert together == [alone[index] for index in jobs]


class _Meeting(EventBuilder):
    """Waits, in its first trick, until another parse is in its first trick too: two parses
    serialised by a lock would never meet (the barrier would time out)."""

    meeting: threading.Barrier

    @statement
    def trick(self, line, col, head, rest_col, rest):
        if line == 1:
            self.meeting.wait()
        return EventBuilder.trick.build(self, line, col, head, rest_col, rest)


@pytest.mark.parametrize("fast_lines", READINGS)
def test_two_parses_are_inside_their_callbacks_at_once(fast_lines):
    class Meeting(_Meeting):
        meeting = threading.Barrier(2, timeout=WAIT)

    texts = ["trick 1: Al 2C, Bo 3C\ntrick 2: Al 4C\n", "trick 1: Cy 5H\ntrik 2\n"]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda text: parser._parse(text, fast_lines, builder=Meeting), texts))
    assert [_reading(result) for result in results] == [_reading(parser.parse_log(text)) for text in texts]


class _Recording(EventBuilder):
    """Keeps itself and the builders of every parse made while it read."""

    made: list[EventBuilder]

    def __init__(self, terminals, max_problems):
        super().__init__(terminals, max_problems)
        self.made.append(self)


def test_every_parse_has_a_builder_of_its_own():
    class Recording(_Recording):
        made = []

    first = parser.parse_log(TEXTS[0], builder=Recording)
    second = parser.parse_log(AWKWARD, builder=Recording)
    one, two = Recording.made
    assert one is not two and one.events is not two.events and one.problems is not two.problems
    assert first.events == tuple(one.events) and second.events == tuple(two.events)
    assert first == parser.parse_log(TEXTS[0])  # the second parse left the first's result alone


@pytest.mark.parametrize("fast_lines", READINGS)
def test_a_parse_inside_a_callback_leaves_the_outer_parse_alone(fast_lines):
    inner_text = AWKWARD

    class Nesting(EventBuilder):
        inner: list[parser.ParseResult] = []

        @statement
        def trick(self, line, col, head, rest_col, rest):
            self.inner.append(parser._parse(inner_text, fast_lines))
            return EventBuilder.trick.build(self, line, col, head, rest_col, rest)

    outer_text = TEXTS[-1]
    outer = parser._parse(outer_text, fast_lines, builder=Nesting)
    assert _reading(outer) == _reading(parser._parse(outer_text, fast_lines))
    assert Nesting.inner and all(_reading(inner) == _reading(parser._parse(inner_text))
                                 for inner in Nesting.inner)


class _Renumbering(EventBuilder):
    """A builder of one's own: every trick numbered 100 more, every hand line counted."""

    hands: list[int]

    @statement
    def trick(self, line, col, head, rest_col, rest):
        trick = EventBuilder.trick.build(self, line, col, head, rest_col, rest)
        return Trick(trick.number + 100, trick.plays, trick.claim, trick.leader, trick.span,
                     trick.leader_span)

    def hand_line(self, m, line, at):
        self.hands.append(line)
        super().hand_line(m, line, at)


@pytest.mark.parametrize("fast_lines", READINGS)
def test_a_builder_class_of_ones_own_sees_every_statement(fast_lines):
    class Renumbering(_Renumbering):
        hands = []

    text = TEXTS[-1]
    plain = parser.parse_log(text)
    mine = parser._parse(text, fast_lines, builder=Renumbering)
    assert mine.issues == plain.issues
    assert len(mine.events) == len(plain.events)
    for theirs, ours in zip(plain.events, mine.events):
        if isinstance(theirs, Trick):
            assert ours.number == theirs.number + 100 and ours.plays == theirs.plays
        else:
            assert ours == theirs
    assert Renumbering.hands == [event.span.line for event in plain.events if isinstance(event, HandStart)]


def test_the_default_builder_is_the_event_builder():
    text = TEXTS[0]
    assert parser.parse_log(text, builder=EventBuilder) == parser.parse_log(text)
