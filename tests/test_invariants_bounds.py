"""``check --invariants`` on many minimal hands: a hand whose holdings arithmetic alone shows
to exist asks z3 nothing, so the check costs about what the plain check costs."""

from __future__ import annotations

import time

from referee.log.parser import parse_log
from referee.proofs.handfacts import gather, hand_records, table_for
from referee.proofs.invariants import attach_invariants
from referee.proofs.partial import check_hand, plainly_consistent
from referee import check_text

HEAD = '[Players "Al Beth Charlie Dave Eve Fay"]\n'


def one_play_hands(count: int) -> str:
    return HEAD + "".join(f"hand {h}\ntrick 1: Beth 3C\n" for h in range(1, count + 1))


def test_many_one_play_hands_cost_about_the_plain_check():
    # each hand asked z3 whether holdings exist: about 25 ms of CPU a hand, 300 hands 7 s
    text = one_play_hands(300)
    attach_invariants(check_text(one_play_hands(1)))  # z3 and the laws' definitions loaded
    start = time.process_time()
    plain = check_text(text)
    middle = time.process_time()
    attach_invariants(plain)
    end = time.process_time()
    assert end - middle < 2 * (middle - start) + 0.5, (middle - start, end - middle)
    exist = [i for i in plain.invariants if i["name"] == "holdings-exist"]
    assert exist and {i["status"] for i in exist} == {"proved"}


def _facts(text: str):
    parsed = parse_log(text)
    table = table_for(parsed, "<string>")
    return table, [gather(table, record) for record in hand_records(table, parsed)]


def test_arithmetic_settles_only_hands_of_plays_that_show_nothing_but_the_card():
    # one lead: its holder held it, nothing else is shown
    table, (lead,) = _facts(HEAD + "hand 1\ntrick 1: Beth 3C\n")
    assert plainly_consistent(lead) and check_hand(table, lead).consistent
    # Charlie shows out of clubs: a fact about the holdings that z3 still decides
    table, (out,) = _facts(HEAD + "hand 1\ntrick 1: Beth 3C, Charlie 4D\n")
    assert not plainly_consistent(out) and check_hand(table, out).consistent
    # three copies of the 3 of clubs in two decks: no holdings, and z3 names the plays
    table, (three,) = _facts(HEAD + "hand 1\ntrick 1: Beth 3C, Charlie 3C, Dave 3C\n")
    assert not plainly_consistent(three)
    verdict = check_hand(table, three)
    assert verdict.consistent is False and verdict.conflict.lines == (3,)
