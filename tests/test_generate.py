"""The generator: reproducible to the byte, legal, realistic enough, and its command.

The hashes below pin the output: a change to the generator, the strategies, the writer or
the random numbers changes them, which means every published seed gives another game (and
``examples/corpus`` must be regenerated).  Change them only on purpose.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from referee.conformance.commands import generate_main
from referee.conformance.gamestats import CASES
from referee.conformance.strategies import STRATEGIES
from referee.conformance.gamestats import GameStats
from referee.conformance.rng import Rng
from referee.conformance.generate import generate_game, ruleset_toml
from referee.conformance.inject import INJECTABLE, can_occur, violating_game
from referee.conformance.verdicts import CannotInject, Expected
from referee.log.writer import write
from referee.run.single import check_text
from referee.rules.ruleset import load_ruleset, with_options

CANCELLATION = load_ruleset("cancellation")
STANDARD = load_ruleset("standard")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# -- reproducibility ------------------------------------------------------------------------
def test_splitmix64_matches_the_reference_outputs():
    # Vigna's splitmix64.c: seed 0 and seed 1234567
    zero = Rng(0)
    assert [zero.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    other = Rng(1234567)
    assert [other.next64() for _ in range(3)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423]


def test_rng_helpers():
    rng = Rng("a string seed")
    assert Rng("a string seed").next64() == rng.next64()
    assert Rng(-1).next64() == Rng("-1").next64()  # seeds outside 0..2**64-1 are hashed
    draws = Counter(rng.below(6) for _ in range(6000))
    assert set(draws) == set(range(6)) and min(draws.values()) > 800
    items = list(range(30))
    rng.shuffle(items)
    assert sorted(items) == list(range(30)) and items != list(range(30))
    sample = rng.sample("abcdefgh", 3)
    assert len(set(sample)) == 3
    with pytest.raises(ValueError):
        rng.below(0)


@pytest.mark.parametrize("make, digest", [
    (lambda: write(generate_game(CANCELLATION, 6, seed=1, hands=2)), "a484f7cae3813a6c"),
    (lambda: write(generate_game(CANCELLATION, 11, seed=2, hands=1, strategy="simple")),
     "e94f46f0650f98b5"),
    (lambda: write(generate_game(STANDARD, 4, seed=3, strategy="simple")), "c50b15d0b5b51da1"),
    (lambda: write(generate_game(CANCELLATION, 8, seed=4, hands=1, strategy="moon")),
     "6c7d994660915a05"),
    (lambda: violating_game(CANCELLATION, 7, seed=5, kind="revoke", hands=2)[0],
     "9a57913239a53183"),
    (lambda: violating_game(STANDARD, 4, seed=6, kind="bad-pass", hands=2, strategy="simple")[0],
     "92c460ba48758827"),
], ids=["random-6p", "simple-11p", "standard-game", "moon-8p", "revoke", "bad-pass"])
def test_the_same_seed_gives_the_same_bytes(make, digest):
    first = make()
    assert make() == first
    assert _digest(first) == digest


def test_another_seed_gives_another_game():
    assert write(generate_game(CANCELLATION, 9, seed=42, hands=1)) != write(
        generate_game(CANCELLATION, 9, seed=43, hands=1))


# -- legality and realism -------------------------------------------------------------------
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_strategy_plays_legal_complete_games(strategy):
    for players in (4, 6, 9, 11):
        rules = STANDARD if players == 4 else with_options(CANCELLATION, target=60)
        report = check_text(write(generate_game(rules, players, seed=players, strategy=strategy)))
        assert report.verdict == "clean", [d.message for d in report.diagnostics]
        assert report.winners and all(h.complete for h in report.hands)


def test_strategies_make_the_tricky_cases_occur():
    simple, moon = GameStats(), GameStats()
    for seed in range(40):
        generate_game(CANCELLATION, 6 + seed % 6, seed=seed, hands=3, strategy="simple",
                      stats=simple)
        generate_game(CANCELLATION, 6 + seed % 6, seed=seed, hands=1, strategy="moon", stats=moon)
    assert simple.hands == 120 and simple.moon_attempts > 0
    for case in ("void", "set-aside", "kitty-pickup"):
        assert case in simple.cases(), case
    assert moon.moons["subtract"] + moon.moons["add"] > 0  # aiming for the moon succeeds


def test_stats_add_up_and_summarise():
    one, two, both = GameStats(), GameStats(), GameStats()
    generate_game(CANCELLATION, 7, seed=1, strategy="simple", stats=one)
    generate_game(STANDARD, 4, seed=2, strategy="moon", stats=two)
    both.add(one)
    both.add(two)
    assert both.hands == one.hands + two.hands and both.games == 2 and both.ended == 2
    assert both.moons == one.moons + two.moons
    summary = both.summary()
    assert summary["hands"] == both.hands
    assert set(summary["per_1000_hands"]) == set(summary["counts"])
    assert set(both.cases()) <= set(CASES) and "game-end" in both.cases()


def test_ruleset_toml_round_trips(tmp_path):
    variant = with_options(CANCELLATION, pass_cycle=("2 left", "hold"), moon_choices=("add",),
                           first_trick_points=False, target=77)
    path = tmp_path / "variant.toml"
    path.write_text(ruleset_toml(variant), encoding="utf-8")
    assert load_ruleset(str(path)) == variant


# -- injection ------------------------------------------------------------------------------
def test_game_end_can_be_injected_into_an_unfinished_game():
    text, expected = violating_game(CANCELLATION, 6, seed=3, kind="game-end", hands=1)
    report = check_text(text)
    assert [(d.kind, d.line) for d in report.diagnostics] == [("game-end", expected.line)]
    assert text.rstrip().split("\n")[expected.line - 1].startswith("winner")


def test_can_occur_names_the_impossible_combinations():
    assert not can_occur("illegal-play", CANCELLATION)
    assert can_occur("illegal-play", STANDARD)
    assert not can_occur("miscounted-cancellation", STANDARD)
    assert all(can_occur(kind, CANCELLATION) for kind in INJECTABLE if kind != "illegal-play")


def test_expected_matches_only_its_own_diagnostic():
    text, expected = violating_game(CANCELLATION, 6, seed=11, kind="revoke", hands=1)
    (diagnostic,) = check_text(text).diagnostics
    assert expected.matches(diagnostic)
    assert not Expected("revoke", expected.line + 1).matches(diagnostic)
    assert not Expected(expected.kind, expected.line, player="Nobody").matches(diagnostic)
    assert Expected.from_json(expected.to_json()) == expected


# -- the command ----------------------------------------------------------------------------
def test_generate_main_writes_a_clean_log(tmp_path, capsys):
    target = tmp_path / "game.log"
    assert generate_main(7, "cancellation", 5, 2, False, None, "simple", str(target)) == 0
    text = target.read_text("utf-8")
    assert text == write(generate_game(CANCELLATION, 7, seed=5, hands=2, strategy="simple"))
    assert check_text(text).verdict == "clean"
    assert not (tmp_path / "game.log.expected.json").exists()
    assert generate_main(4, "standard", 5, None, True, None, "random", None) == 0
    out = capsys.readouterr()
    assert check_text(out.out).winners and out.err == ""


@pytest.mark.parametrize("kind", INJECTABLE)
def test_generate_main_injects_every_kind_with_its_verdict(tmp_path, kind):
    rules = "standard" if kind == "illegal-play" else "cancellation"
    players = 4 if rules == "standard" else 8
    target = tmp_path / f"{kind}.log"
    for seed in range(60):
        if generate_main(players, rules, seed, 2, False, kind, "random", str(target)) == 0:
            break
    else:
        pytest.fail(f"no seed gives a place for {kind}")
    verdict = json.loads((tmp_path / f"{kind}.log.expected.json").read_text("utf-8"))
    assert verdict["verdict"] == "violations" and verdict["log"] == f"{kind}.log"
    (want,) = [Expected.from_json(v) for v in verdict["violations"]]
    assert want.kind == kind
    report = check_text(target.read_text("utf-8"))
    assert len(report.diagnostics) == 1 and want.matches(report.diagnostics[0])


def test_generate_main_to_stdout_puts_the_verdict_on_stderr(capsys):
    assert generate_main(6, "cancellation", 8, 1, False, "wrong-winner", "random", None) == 0
    out = capsys.readouterr()
    verdict = json.loads(out.err)
    (want,) = [Expected.from_json(v) for v in verdict["violations"]]
    assert [d.line for d in check_text(out.out).diagnostics] == [want.line]


@pytest.mark.parametrize("arguments, message", [
    ((5, "cancellation", 1, 1, False, None, "random"), "6-11 players, not 5"),
    ((6, "nonsense", 1, 1, False, None, "random"), "unknown ruleset"),
    ((6, "cancellation", 1, 2, True, None, "random"), "not both"),
    ((6, "cancellation", 1, 0, False, None, "random"), "at least 1"),
    ((6, "cancellation", 1, 1, False, None, "clever"), "unknown strategy"),
    ((6, "cancellation", 1, 1, False, "cheating", "random"), "cannot inject"),
    ((6, "cancellation", 1, 1, False, "illegal-play", "random"), "no cancellation game"),
    ((6, "cancellation", 1, 1, False, "wrong-dealer", "random"), "try another --seed"),
])
def test_generate_main_usage_errors(arguments, message, capsys, tmp_path):
    assert generate_main(*arguments, str(tmp_path / "x.log")) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.log").exists()


def test_cannot_inject_is_raised_when_there_is_no_place():
    with pytest.raises(CannotInject):
        violating_game(CANCELLATION, 6, seed=1, kind="wrong-dealer", hands=1)


def test_a_log_generated_under_a_ruleset_file_names_that_file(tmp_path, capsys):
    from referee.run.single import check_path

    rules = tmp_path / "rules" / "club.toml"
    rules.parent.mkdir()
    rules.write_text('base = "cancellation"\nname = "club"\ntarget = 60\n', "utf-8")
    target = tmp_path / "logs" / "game.log"
    target.parent.mkdir()
    assert generate_main(7, str(rules), 3, None, True, None, "simple", str(target)) == 0
    assert '[Ruleset "../rules/club.toml"]' in target.read_text("utf-8")
    # the file lies outside the log's folder: generate says how to check it, and check
    # reads it only when allowed to
    assert "--allow-ruleset-dir" in capsys.readouterr().err
    refused = check_path(target)
    assert [d.kind for d in refused.diagnostics] == ["bad-setup"]
    assert "--allow-ruleset-dir" in refused.diagnostics[0].message
    allowed = (tmp_path / "rules",)
    report = check_path(target, allowed_dirs=allowed)
    assert report.verdict == "clean" and report.ruleset == "club" and report.winners
    injected = tmp_path / "logs" / "revoke.log"
    assert generate_main(7, str(rules), 3, 2, False, "revoke", "random", str(injected)) == 0
    kinds = {d.kind for d in check_path(injected, allowed_dirs=allowed).diagnostics}
    assert kinds == {"revoke"}


def test_a_log_generated_beside_its_ruleset_file_needs_no_option(tmp_path, capsys):
    from referee.run.single import check_path

    rules = tmp_path / "club.toml"
    rules.write_text('base = "cancellation"\nname = "club"\ntarget = 60\n', "utf-8")
    target = tmp_path / "game.log"
    assert generate_main(7, str(rules), 3, None, True, None, "simple", str(target)) == 0
    assert '[Ruleset "club.toml"]' in target.read_text("utf-8")
    assert capsys.readouterr().err == ""
    assert check_path(target).verdict == "clean"
