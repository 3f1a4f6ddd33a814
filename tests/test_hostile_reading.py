"""Hostile input in the reading layer (referee/log): time, cards, the cache, memory."""

from __future__ import annotations

import time

import pytest

from referee.log.events import Deal, Kitty, Pass, Trick
from referee.log.parser import parse_log
from referee.replay import check_text
from referee.rules.cards import parse_card

GROWTH = 4  # the larger input is this many times the smaller
LINEAR_LIMIT = 2 * GROWTH  # quadratic work would take GROWTH ** 2 times as long
SEPARATORS = 1000  # commas in the smaller line


def _cpu_seconds(text: str) -> float:
    best = float("inf")
    for _ in range(2):
        start = time.process_time()
        parse_log(text)
        best = min(best, time.process_time() - start)
    return best


# ---- time: a run of separators in a body -------------------------------------------------------
@pytest.mark.parametrize("line", [
    "trick 1: {commas} Al\n",  # plays: a name without its card after the run
    "trick 1: Al 2C{commas}\n",  # plays: the run after the last play
    "score: {commas} Al\n",  # entries
    "winner: Al{commas} 2\n",  # names
    "deal Al: 2C{commas}\n",  # cards
])
def test_a_run_of_commas_in_a_body_is_read_in_linear_time(line):
    def log(scale: int) -> str:
        return "hand 1\n" + line.format(commas="," * (SEPARATORS * scale)) * 20

    small, large = _cpu_seconds(log(1)), _cpu_seconds(log(GROWTH))
    assert large / max(small, 1e-4) < LINEAR_LIMIT


# ---- a variation selector after a letter suit --------------------------------------------------
@pytest.mark.parametrize("selector", ["\ufe0e", "\ufe0f"])
def test_a_variation_selector_after_a_letter_suit_reads_as_the_card(selector):
    s = selector
    text = (f"hand 1\ndeal Al: 2C{s} 3c{s} 10S{s}\npass Al: QS{s}\nkitty: 2H{s}\n"
            f"trick 1: Al 2C{s}, Bo 3H{s}\ntrick 2 Al: 4D{s} 5D{s}\ntrik 3: Al 2C\n")
    result = parse_log(text)
    by_kind = {type(event): event for event in result.events}
    assert by_kind[Deal].run.cards == tuple(map(parse_card, ("2C", "3C", "10S")))
    assert by_kind[Pass].run.cards == (parse_card("QS"),)
    assert by_kind[Kitty].run.cards == (parse_card("2H"),)
    tricks = [event for event in result.events if isinstance(event, Trick)]
    assert [tuple(p.card for p in t.plays) for t in tricks] == [
        (parse_card("2C"), parse_card("3H")), (parse_card("4D"), parse_card("5D"))]
    # the line after them is read, and judged: one syntax issue, for it alone
    assert [(issue.line, issue.message) for issue in result.issues] == [(7, "unknown statement 'trik'")]


@pytest.mark.parametrize("selector", ["\ufe0e", "\ufe0f"])
def test_the_lines_after_a_card_with_a_selector_are_still_judged(selector):
    # the second hand is led by the wrong seat: a wrong-leader diagnostic, after the selector
    log = '[Players "A B C D E F"]\nhand 1\ntrick 1: A 2C{}\nhand 2\ntrick 1: A 2C\n'
    clean, marked = check_text(log.format("")), check_text(log.format(selector))
    assert [d.kind for d in marked.diagnostics] == [d.kind for d in clean.diagnostics]
    assert "syntax" not in {d.kind for d in marked.diagnostics}
    assert [d.kind for d in marked.diagnostics] == ["wrong-leader"]
