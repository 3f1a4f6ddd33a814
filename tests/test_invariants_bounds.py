"""``check --invariants`` on many minimal hands: a hand whose holdings arithmetic alone shows
to exist asks z3 nothing, so the check costs about what the plain check costs."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.run.single import check_text
from referee.log.parser import parse_log
from referee.proofs import partial
from referee.proofs.handfacts import gather, hand_records, table_for
from referee.proofs.invariants import attach_invariants
from referee.proofs.partial import check_hand, holdings_filled
from referee.rules.cards import card_text

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


def test_arithmetic_fills_hands_of_plays_and_leaves_conflicts_to_z3():
    # one lead: its holder held it, nothing else is shown
    table, (lead,) = _facts(HEAD + "hand 1\ntrick 1: Beth 3C\n")
    assert holdings_filled(lead) and check_hand(table, lead).consistent
    # Charlie shows out of clubs: he holds his 4D and no club, and the seats still fill
    table, (out,) = _facts(HEAD + "hand 1\ntrick 1: Beth 3C, Charlie 4D\n")
    assert holdings_filled(out) and check_hand(table, out).consistent
    # three copies of the 3 of clubs in two decks: no holdings, and z3 names the plays
    table, (three,) = _facts(HEAD + "hand 1\ntrick 1: Beth 3C, Charlie 3C, Dave 3C\n")
    assert not holdings_filled(three)
    verdict = check_hand(table, three)
    assert verdict.consistent is False and verdict.conflict.lines == (3,)


def show_out_hands(count: int) -> str:
    return HEAD + "".join(f"hand {h}\ntrick 1: Beth 3C, Charlie 4D\n" for h in range(1, count + 1))


def test_hands_whose_plays_show_a_suit_out_ask_z3_nothing(monkeypatch):
    # Charlie's 4D on Beth's 3C shows he held no club: each such hand asked z3 (about 25 ms)
    asked = []
    build = partial._build  # the z3 model of a hand: what a question to z3 starts from
    monkeypatch.setattr(partial, "_build", lambda *a: asked.append(a) or build(*a))
    report = check_text(show_out_hands(300))
    attach_invariants(report)
    assert asked == []
    exist = [i for i in report.invariants if i["name"] == "holdings-exist"]
    assert len(exist) == 300 and {i["status"] for i in exist} == {"proved"}


@pytest.mark.parametrize("text, filled, conflict", [
    # Charlie shows out of clubs in trick 1 and plays the 2 of clubs in trick 2: no holdings
    (HEAD + "hand 1\ntrick 1: Beth 3C, Charlie 4D, Dave 5C, Eve 6C, Fay 7C, Al 8C\n"
     "trick 2: Charlie 2C\n", False, (3, 4)),
    # a heart led to trick 1: Beth held only hearts (and the queen of spades), 17 of the 26
    # hearts less the five played; the others show out of nothing
    (HEAD + "hand 1\ntrick 1: Beth 3H, Charlie 4D, Dave 5H, Eve 6H, Fay 7H, Al 8H\n", True, None),
    # standard, 4 players: the 3 of clubs led to trick 1 says nobody held the 2, which must
    # then be in a kitty of 0 cards
    ('[Players "Al Beth Charlie Dave"]\n[Ruleset "standard"]\nhand 1\ntrick 1: Al 3C\n',
     False, (4,)),
    # with 3 players the kitty holds one card: the 2 of clubs
    ('[Players "Al Beth Charlie"]\n[Ruleset "standard"]\nhand 1\ntrick 1: Al 3C\n', True, None),
])
def test_filled_holdings_agree_with_z3(text, filled, conflict):
    table, (facts,) = _facts(text)
    assert holdings_filled(facts) is filled
    verdict = check_hand(table, facts)
    assert verdict.consistent is (conflict is None)
    assert (verdict.conflict and verdict.conflict.lines) == conflict


NAMES = ("Al", "Beth", "Charlie", "Dave", "Eve", "Fay")


@st.composite
def play_hands(draw):
    n = draw(st.sampled_from((3, 4, 6)))
    head = f'[Players "{" ".join(NAMES[:n])}"]\n'
    if n < 6 and draw(st.booleans()):
        head += '[Ruleset "standard"]\n'
    cards = draw(st.lists(st.integers(0, 51), min_size=1, max_size=3 * n))
    lines = [f"hand {draw(st.sampled_from((1, 2)))}\n"]
    for t, k in enumerate(range(0, len(cards), n)):
        start = draw(st.integers(0, n - 1))
        lines.append(f"trick {t + 1}: " + ", ".join(
            f"{NAMES[(start + j) % n]} {card_text(c)}" for j, c in enumerate(cards[k:k + n]))
            + "\n")
    return head + "".join(lines)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(play_hands())
def test_holdings_filled_only_where_z3_finds_holdings(text):
    table, facts = _facts(text)
    for hand in facts:
        if hand.prefix and holdings_filled(hand):
            assert check_hand(table, hand).consistent is True
