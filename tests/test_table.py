"""referee.Table: a game in progress, its legality, undo, views and records."""

from __future__ import annotations

import doctest
import re

import pytest

import referee
from referee.conformance.rng import Rng
from referee.conformance.generate import generate_game
from referee.log.writer import write
from referee.play.table import PositionError, Table
from referee.rules.cards import Card
from referee.rules.state import Phase
from referee.rules.ruleset import load_ruleset
from referee.run.single import check_text

NAMES = ["Al", "Beth", "Cy", "Di", "Ed", "Flo"]


def play_out(table: Table, rng: Rng, hands: int | None = None) -> None:
    """Play uniformly random legal cards (and the first passable cards) to the end."""
    while not table.is_over and (hands is None or len(table.results) < hands):
        if table.phase is Phase.PASS:
            for seat in table.to_pass:
                table.pass_cards(seat, table.holding(seat)[:table.rules.pass_count])
        elif table.phase is Phase.PLAY:
            legal = table.legal_cards()
            table.play(legal[rng.below(len(legal))])
        else:
            choices = table.scoring_choices()
            table.score(choices[rng.below(len(choices))])


# the example of docs/match.md, with its answers
EXAMPLE = """
>>> table = Table(["Al", "Beth", "Cy", "Di", "Ed", "Flo"], seed=7)
>>> table.phase.value, table.hand_number, table.names[table.dealer]
('pass', 1, 'Al')
>>> for seat in table.to_pass:                        # hand 1 passes three cards left (R3.3)
...     table.pass_cards(seat, table.holding(seat)[-3:])
>>> table.phase.value, table.names[table.to_play]     # the seat left of the dealer leads (R4.1)
('play', 'Beth')
>>> " ".join(map(str, table.holding(table.to_play)))
'3S 5S 8S 9S AS 4H 4H 6H 6H 10H 5D 8D KD 8C 8C 10C AC'
>>> " ".join(map(str, table.legal_cards()))            # no heart as the first lead
'3S 5S 8S 9S AS 5D 8D KD 8C 10C AC'
>>> fault = table.fault("4H")
>>> fault.clause, fault.text
('R4.2', 'the first lead may not be a heart or a Black Maria')
>>> while table.trick_number == 1:
...     outcome = table.play(table.legal_cards()[0])
>>> " ".join(f"{table.names[seat]} {card}" for seat, card in outcome.plays)
'Beth 3S Cy 6S Di 2S Ed 4S Flo 2S Al 6S'
>>> sorted(map(str, outcome.outcome.cancelled)), table.names[outcome.winner]  # R6.2, R6.3
(['2S', '6S'], 'Ed')
>>> table.undo(); len(table.trick), table.names[table.to_play]
(5, 'Al')
>>> print(table.log().splitlines()[-1])               # the trick in progress, no winner yet
trick 1: Beth 3S, Cy 6S, Di 2S, Ed 4S, Flo 2S
"""


def test_the_doctests_hold():
    example = doctest.DocTestParser().get_doctest(EXAMPLE, {"Table": Table}, "Table", None, 0)
    result = doctest.DocTestRunner().run(example)
    assert result.failed == 0 and result.attempted == 13


def test_the_public_names():
    assert referee.Table is Table
    assert issubclass(referee.IllegalAction, ValueError)


@pytest.mark.parametrize("players", [6, 8, 11])
def test_a_game_played_to_its_end_writes_a_clean_log_and_record(players):
    table = Table(players, seed=players)
    play_out(table, Rng(players))
    assert table.is_over and max(table.totals) >= table.rules.target  # R9.1
    low = min(table.totals)
    assert table.winners == tuple(s for s, t in enumerate(table.totals) if t == low)  # R9.3
    for text in (table.log(), table.record()):
        report = check_text(text)
        assert report.verdict == "clean", [d.message for d in report.diagnostics]
        assert report.winners == [table.names[s] for s in table.winners]


def test_the_standard_ruleset_too():
    table = Table(["N", "E", "S", "W"], "standard", seed=3)
    play_out(table, Rng(3), hands=2)
    assert check_text(table.log()).verdict == "clean"
    assert len(table.results) == 2 and table.results[1].totals == table.totals


def test_an_illegal_card_raises_with_its_clause_and_changes_nothing():
    table = Table(NAMES, seed=7)
    for seat in table.to_pass:
        table.pass_cards(seat, table.holding(seat)[-3:])
    before = (table.state, table.log())
    with pytest.raises(referee.IllegalAction) as caught:
        table.play("4H")  # Beth holds 4H; a heart may not be the first lead (R4.2)
    assert caught.value.clause == "R4.2"
    with pytest.raises(referee.IllegalAction) as caught:
        table.play("2C")  # Beth holds no 2C (R5.4)
    assert caught.value.clause == "R5.4"
    assert (table.state, table.log()) == before


def test_a_revoke_names_r5_2():
    table = Table(NAMES, seed=7)
    for seat in table.to_pass:
        table.pass_cards(seat, table.holding(seat)[-3:])
    table.play("3S")  # Beth leads a spade; Cy holds 6S 7S JS QS and 5D
    assert table.names[table.to_play] == "Cy"
    assert table.fault("2D").clause == "R5.2"
    assert table.fault("6S") is None


def test_passes_are_simultaneous_and_checked():
    table = Table(NAMES, seed=1)
    held = table.holding(3)
    with pytest.raises(referee.IllegalAction) as caught:
        table.pass_cards(3, held[:2])  # two cards, not three (R3.1)
    assert caught.value.clause == "R3.1"
    missing = next(c for c in map(Card, range(52)) if c not in held)
    with pytest.raises(referee.IllegalAction):
        table.pass_cards(3, (held[0], held[1], missing))
    table.pass_cards(3, held[:3])  # any seat may pass first
    with pytest.raises(referee.IllegalAction):
        table.pass_cards(3, held[3:6])
    assert table.holding(3) == held  # nothing moves until every seat has passed (R3.2)
    assert 3 not in table.to_pass and len(table.to_pass) == 5
    for seat in reversed(table.to_pass):
        table.pass_cards(seat, table.holding(seat)[:3])
    assert table.phase is Phase.PLAY
    # hand 1 passes left: seat 4 received seat 3's cards
    assert set(held[:3]) <= set(table.holding(4))


def test_undo_takes_back_plays_passes_and_scores():
    table = Table(NAMES, seed=5)
    states, logs = [], []
    while len(table.results) < 1:
        states.append(table.state)
        logs.append(table.log())
        if table.phase is Phase.PASS:
            table.pass_cards(table.to_pass[0], table.holding(table.to_pass[0])[:3])
        elif table.phase is Phase.PLAY:
            table.play(table.legal_cards()[0])
        else:
            table.score(table.scoring_choices()[0])
    assert table.phase is Phase.PASS and table.hand_number == 2  # the next hand is dealt
    while states:
        table.undo()
        assert table.state == states.pop() and table.log() == logs.pop()
    with pytest.raises(IndexError):
        table.undo()


def test_a_view_holds_only_what_the_seat_may_know():
    table = Table(NAMES, seed=7)
    for seat in table.to_pass:
        table.pass_cards(seat, table.holding(seat)[-3:])
    while table.trick_number == 1:
        table.play(table.legal_cards()[0])
    view = table.view(1)  # Beth, after trick 1, which Ed won with the kitty (AS JC)
    assert view.holding == table.holding(1)
    assert view.passed_to == 2 and view.received_from == 0
    assert [str(c) for c in view.received] == ["8C", "10C", "AC"]
    first = view.tricks[0]
    assert first.winner == 4 and len(first.collected) == 6  # the trick, not the kitty's cards
    assert table.tricks[0].collected != first.collected  # the engine's record has the kitty
    text = repr(view)
    other = table.holding(2)
    assert "holdings" not in text and view.kitty_waiting == 0
    assert all(getattr(view, f) != other for f in ("holding", "dealt"))


def test_a_view_before_the_passes_hides_what_is_not_yet_received():
    table = Table(NAMES, seed=7)
    table.pass_cards(0, table.holding(0)[:3])
    assert table.view(0).passed is not None and table.view(0).received is None
    assert table.view(1).passed is None


def test_an_explicit_deal_without_a_seed():
    rules = load_ruleset("cancellation")
    table = Table(NAMES, rules)
    assert table.phase is Phase.DEAL
    with pytest.raises(referee.IllegalAction) as caught:
        table.deal([[0] * 17] * 6, [0, 1])
    assert caught.value.clause == "R2.4"
    table.deal()  # a shuffle from seed 0
    assert table.phase is Phase.PASS and sum(len(table.holding(s)) for s in range(6)) == 102


def test_from_log_plays_up_to_a_position_and_goes_on_as_the_log_did(tmp_path):
    events = generate_game(load_ruleset("cancellation"), 7, seed=11, hands=3)
    path = tmp_path / "game.log"
    path.write_text(write(events))
    table = Table.from_log(path, hand=2, trick=5)
    assert (table.hand_number, table.trick_number, table.trick) == (2, 5, ())
    assert len(table.results) == 1
    assert all(len(table.holding(s)) == 14 - 4 for s in range(7))  # 7 players: 14 cards
    whole = Table.from_log(path)
    written = re.sub(r"^(pass \w+) -> \w+:", r"\1:", whole.log(), flags=re.M)
    assert written == path.read_text().replace(
        '"generated game, seed 11"', '"a game at a referee.Table"')


def test_from_log_reads_a_record_with_a_moon(tmp_path):
    for seed in range(40):
        events = generate_game(load_ruleset("cancellation"), 6, seed=seed, hands=4,
                               strategy="moon")
        text = write(events)
        if "\nmoon " in text:
            break
    else:
        pytest.skip("no moon in 40 seeded games")
    path = tmp_path / "moon.log"
    path.write_text(text)
    table = Table.from_log(path)
    moons = [r for r in table.results if r.shooter is not None]
    assert moons and table.log().count("\nmoon ") == text.count("\nmoon ")
    totals = [line for line in text.splitlines() if line.startswith("total:")]
    assert table.log().splitlines()[-1] == totals[-1] or table.log().endswith(totals[-1] + "\n")


def test_from_log_refuses_a_record_that_breaks_a_rule_before_the_position(tmp_path):
    path = tmp_path / "revoke.log"
    path.write_text(write(generate_game(load_ruleset("cancellation"), 6, seed=2, hands=1))
                    .replace("trick 1:", "trick 2:", 1))
    with pytest.raises(PositionError) as caught:
        Table.from_log(path, hand=1, trick=3)
    assert "line" in str(caught.value) and "R10.6" in str(caught.value)
    with pytest.raises(PositionError):
        Table.from_log(tmp_path / "absent.log")
    (tmp_path / "binary.log").write_bytes(b"\x00\xff" * 100)
    with pytest.raises(PositionError):
        Table.from_log(tmp_path / "binary.log")


def test_from_log_reads_a_json_record_at_the_same_position(tmp_path):
    table = Table(6, seed=21)
    play_out(table, Rng(21), hands=2)
    (tmp_path / "game.json").write_text(table.record())
    (tmp_path / "game.log").write_text(table.log())
    from_record = Table.from_log(tmp_path / "game.json", hand=2, trick=9)
    from_log = Table.from_log(tmp_path / "game.log", hand=2, trick=9)
    assert from_record.state == from_log.state and from_record.trick_number == 9
    assert referee.PositionError is PositionError


@pytest.mark.parametrize("players", [0, 5, 12, 10**9])
def test_a_count_of_seats_the_ruleset_does_not_allow_is_refused_at_once(players):
    with pytest.raises(referee.IllegalAction, match=f"6-11 players, not {players}"):
        Table(players)


@pytest.mark.parametrize("seat", [-1, 6, 99, "Al", None])
def test_a_seat_that_is_not_at_the_table_is_refused(seat):
    table = Table(6, seed=1)
    for ask in (table.holding, table.view):
        with pytest.raises(referee.IllegalAction, match="there is no seat"):
            ask(seat)
