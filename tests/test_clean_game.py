"""The clean-game path (``referee/judge/clean_game.py``) and the full check give one report.

The clean-game path takes a log only when it is a whole clean game in the writer's form; for
anything else it must step aside.  Generated games under the bundled rulesets and under drawn
variants are checked both ways, clean and then edited line by line (a line deleted, written
twice or swapped, a card, a claim, a score or a name changed), so the path meets every kind
of fault at every place.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from line_edits import edit_lines
from sloppy import Sloppy

from referee.run.single import check_text
from referee.testing import rulesets
from referee.conformance.generate import SITUATIONS, generate_game
from referee.judge import walk
from referee.judge.clean_game import Resume, clean_report
from referee.judge.diagnostics import Report
from referee.log.writer import write
from referee.rules.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]


def _both_ways(text: str, rules=None) -> tuple:
    """The report of ``text`` with the clean-game path and without it, as comparable values."""
    seen = []
    for clean in (True, False):
        walk.CLEAN_GAMES = clean
        try:
            report = check_text(text, "game.log", ruleset=rules)
        finally:
            walk.CLEAN_GAMES = True
        seen.append((report.to_json(), [d.related for d in report.diagnostics], report.hands))
    return seen[0], seen[1]


def _taken(text: str, rules=None) -> bool:
    return isinstance(clean_report(text, "game.log", max_diagnostics=100, ruleset=rules), Report)


def _game(rules, players: int, seed: int, **options) -> str:
    return write(generate_game(rules, players, seed=seed, **options))


@pytest.mark.parametrize("name", ["cancellation", "standard"])
def test_generated_whole_games_take_the_clean_path_and_give_the_full_report(name):
    rules = load_ruleset(name)
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(2):
            text = _game(rules, players, seed, strategy="simple")
            assert _taken(text), (players, seed)
            clean, full = _both_ways(text)
            assert clean == full
            assert full[0]["verdict"] == "clean"


@pytest.mark.parametrize("situation", SITUATIONS)
def test_each_situation_takes_the_clean_path(situation):
    """A moon, a set-aside first or last trick, a kitty taken late, a tie for the win."""
    rules = load_ruleset("cancellation")
    text = _game(rules, 6, 3, situation=situation)
    assert _taken(text)
    clean, full = _both_ways(text)
    assert clean == full


def test_a_wrong_score_steps_aside_and_the_full_check_reports_it():
    """Hand-worked on examples/logs/clean-6-players.log: hand 1's play gives Al 4 points; written
    as 5, the clean path steps aside and the full check reports one score mismatch there."""
    text = (ROOT / "examples" / "logs" / "clean-6-players.log").read_text("utf-8")
    assert _taken(text)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("score:"))
    assert lines[at].startswith("score: Al 4, ")
    lines[at] = lines[at].replace("Al 4,", "Al 5,", 1)
    edited = "\n".join(lines) + "\n"
    assert not _taken(edited)
    report = check_text(edited, "game.log")
    assert [(d.kind, d.line) for d in report.diagnostics] == [("score-mismatch", at + 1)]


@pytest.mark.parametrize("line, old, new, expected", [
    # trick 3: the 4Ds and the 3Ds cancel and Dave's 5D wins, not Eve's 2D
    (22, "-> Dave", "-> Eve", ("wrong-winner", 22, "Eve")),
    # a 4S for Al's 3S: the 4S is dealt three times (Al, Dave, Fay), said at the last of them
    (7, "deal Al: 3S", "deal Al: 4S", ("bad-deal", 12, None)),
    # an 8D for the kitty's 7D: Al holds both 8Ds, and no play or score shows the slip
    (13, "kitty: 2H 7D", "kitty: 2H 8D", ("bad-deal", 13, None)),
    # the last total: Fay's 126 plus hand 10's 37 is 163
    (378, "Fay 163", "Fay 164", ("total-mismatch", 378, "Fay")),
], ids=["claim", "deal", "kitty", "total"])
def test_one_slip_steps_aside_and_the_full_check_reports_it_alone(line, old, new, expected):
    """Hand-worked on examples/logs/clean-6-players.log (Dave wins at 44)."""
    lines = (ROOT / "examples" / "logs" / "clean-6-players.log").read_text("utf-8").split("\n")
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    edited = "\n".join(lines)
    assert not _taken(edited)
    report = check_text(edited, "game.log")
    assert [(d.kind, d.line, d.player) for d in report.diagnostics] == [expected]
    assert report.winners == ["Dave"]


def test_a_slip_in_a_late_hand_is_taken_up_from_that_hand():
    """The last total of examples/logs/clean-6-players.log written wrong: the clean path plays
    hands 1 to 10 and stops in hand 11 (line 346); the full check reads the setup and the lines
    from there on, each at its own number, and reports what it reports on the whole log."""
    text = (ROOT / "examples" / "logs" / "clean-6-players.log").read_text("utf-8")
    edited = text.replace("Fay 163", "Fay 164")
    resume = clean_report(edited, "game.log", max_diagnostics=100)
    assert isinstance(resume, Resume)
    assert edited[resume.offset:].startswith("hand 11 dealer")
    assert edited.count("\n", 0, resume.offset) + 1 == 346
    assert [summary.number for summary in resume.summaries] == list(range(1, 11))
    read = resume.text(edited)
    assert read.split("\n")[345:] == edited.split("\n")[345:]
    assert not any(read.split("\n")[5:345])
    clean, full = _both_ways(edited)
    assert clean == full


def test_a_setup_without_a_statement_steps_aside():
    """The setup alone reads as nothing: the full check reads the whole log and says what the
    misspelt tag was meant to be."""
    text = '[Player "Al Beth Charlie Dave Eve Fay"]\nhand 1 dealer Al\n'
    assert not _taken(text)
    clean, full = _both_ways(text)
    assert clean == full


def test_a_comment_steps_aside_and_a_claims_tag_is_taken():
    text = (ROOT / "examples" / "logs" / "clean-6-players.log").read_text("utf-8")
    commented = text.replace("\nhand 2 ", "\n# a comment\nhand 2 ", 1)
    assert not _taken(commented)
    assert check_text(commented).verdict == "clean"
    required = text.replace("[Target", '[Claims "required"]\n[Target', 1)
    assert _taken(required)
    clean, full = _both_ways(required)
    assert clean == full


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "logs").glob("*.log")),
                         ids=lambda p: p.name)
def test_every_example_log_gives_one_report_both_ways(path):
    clean, full = _both_ways(path.read_text("utf-8"))
    assert clean == full


def _numbers_changed(draw, lines: list[str]) -> list[str]:
    """One number of a score or total line, or one card of a line, written otherwise."""
    at = draw(st.sampled_from([i for i, line in enumerate(lines)
                               if line.startswith(("score:", "total:", "deal ", "pass ",
                                                   "trick ", "kitty:", "hand "))]))
    words = lines[at].split(" ")
    i = draw(st.integers(1, len(words) - 1))
    words[i] = draw(st.sampled_from(["0", "1", "26", "-26", "2C", "QS", "AH", "Al", "left",
                                     words[i] + "0", words[i - 1]]))
    lines[at] = " ".join(words)
    return lines


@st.composite
def logs(draw):
    rules = draw(rulesets(variants=True))
    players = draw(st.integers(rules.min_players, min(rules.max_players, 8)))
    seed = draw(st.integers(0, 2**32))
    faults = draw(st.sampled_from((0.0, 0.0, 0.05)))
    hands = draw(st.sampled_from((None, 1, 2)))
    events = generate_game(rules, players, seed=seed, hands=hands, tamper=Sloppy(seed, faults),
                           max_hands=6)
    lines = write(events).splitlines()
    edit = draw(st.sampled_from(("none", "lines", "number")))
    if edit == "lines":
        known = [line for line in lines if line.startswith(("trick", "score", "pass", "moon"))]
        lines = edit_lines(draw, lines, known=known or lines, odd=["winner: Al", "trick 1:"],
                           most=2)
    elif edit == "number":
        lines = _numbers_changed(draw, lines)
    return "\n".join(lines) + "\n", rules


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs())
def test_the_clean_path_and_the_full_check_give_one_report(case):
    text, rules = case
    clean, full = _both_ways(text, rules)
    assert clean == full
