"""``referee replay --format json``: the legal cards of the seat to play at every play."""

from __future__ import annotations

import io
import json

import pytest

from referee.conformance import generate as generating
from referee.conformance.generate import generate_game
from referee.log.writer import write
from referee.output.replay_view import show_replay
from referee.rules.cards import card_text
from referee.rules.ruleset import load_ruleset


def _view(tmp_path, text: str) -> dict:
    path = tmp_path / "game.log"
    path.write_text(text, "utf-8")
    out = io.StringIO()
    show_replay(str(path), stream=out, as_json=True)
    return json.loads(out.getvalue())


def _plays(view: dict) -> list[dict]:
    return [play for hand in view["hands"] for trick in hand["tricks"] if "plays" in trick
            for play in trick["plays"]]


STANDARD_HAND = """[Ruleset "standard"]
[Players "Al Beth Charlie Dave"]

hand 1 dealer Beth pass left
deal Al: 3S 7S AS 7H QH 2D 8D 6C 7C 8C 9C KC AC
deal Beth: 4H 8H 10H 3D 4D 7D 9D QD 3C 4C 5C 10C QC
deal Charlie: 2S 4S 6S 10S QS 2H 5H JH KH 10D JD KD 2C
deal Dave: 5S 8S 9S JS KS 3H 6H 9H AH 5D 6D AD JC
pass Al: 7H QH AC
pass Beth: 4H 8H 10H
pass Charlie: QS JH KH
pass Dave: 6H 9H AH
trick 1: Charlie 2C, Dave JC, Al 9C, Beth 10C -> Dave
trick 2: Dave 5S, Al 3S, Beth QH, Charlie 4S -> Dave
"""


def test_legal_cards_written_by_hand(tmp_path):
    # after the passes to the left: Charlie holds 2C and leads it (R4.1); Dave's one club is
    # JC; Al's clubs are 6C 7C 8C 9C KC, Beth's 3C 4C 5C 10C QC AC (R5.2).  In trick 2 Dave
    # may lead anything but a heart (R4.3: hearts are not broken, he holds other suits);
    # Al follows spades; Beth holds no spade and may play any card she holds.
    plays = _plays(_view(tmp_path, STANDARD_HAND))
    assert [(p["player"], p["legal"]) for p in plays] == [
        ("Charlie", ["2C"]),
        ("Dave", ["JC"]),
        ("Al", ["KC", "9C", "8C", "7C", "6C"]),
        ("Beth", ["AC", "QC", "10C", "5C", "4C", "3C"]),
        ("Dave", ["KS", "QS", "JS", "9S", "8S", "5S", "AD", "6D", "5D"]),
        ("Al", ["AS", "7S", "3S"]),
        ("Beth", ["QH", "7H", "QD", "9D", "7D", "4D", "3D", "AC", "QC", "5C", "4C", "3C"]),
        ("Charlie", ["10S", "6S", "4S", "2S"]),
    ]


def test_a_holding_the_record_does_not_give_has_no_legal_cards(tmp_path):
    # Charlie's deal is not recorded: nobody's legal cards in that hand are given
    missing = STANDARD_HAND.replace(
        "deal Charlie: 2S 4S 6S 10S QS 2H 5H JH KH 10D JD KD 2C\n", "")
    assert {p["legal"] is None for p in _plays(_view(tmp_path, missing))} == {True}
    # Al plays a card he does not hold (4S) in trick 2: his later plays have none
    wrong = STANDARD_HAND.replace("Al 3S, Beth QH", "Al 4S, Beth QH") + (
        "trick 3: Dave 5D, Al 2D, Beth 4D, Charlie 10D -> Charlie\n")
    plays = _plays(_view(tmp_path, wrong))
    assert plays[5]["legal"] == ["AS", "7S", "3S"]  # before the card he did not hold
    assert plays[9]["player"] == "Al" and plays[9]["legal"] is None
    assert plays[10]["legal"] == ["QD", "9D", "7D", "4D", "3D"]


@pytest.mark.parametrize("rules, players, seed, strategy", [
    ("cancellation", 7, 4, "simple"), ("standard", 4, 5, "random"),
    ("cancellation", 9, 6, "random"),
])
def test_legal_cards_are_those_the_generating_engine_offered(tmp_path, monkeypatch, rules,
                                                            players, seed, strategy):
    offered = []
    real = generating.engine.legal_plays

    def recording(state):
        legal = real(state)
        offered.append(sorted(card_text(c) for c in legal))
        return legal

    monkeypatch.setattr(generating.engine, "legal_plays", recording)
    text = write(generate_game(load_ruleset(rules), players, seed=seed, hands=3,
                               strategy=strategy))
    monkeypatch.undo()
    shown = [sorted(p["legal"]) for p in _plays(_view(tmp_path, text))]
    assert shown == offered and len(shown) == 3 * (104 // players if players > 4 else 13) * \
        players
