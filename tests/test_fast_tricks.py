"""The check's fast path for clean tricks (``judge/plays.py``, ``FAST_TRICKS``) and the whole
way give one report: the same diagnostics at the same places with the same words, the same
hand summaries, notes and winners, and the same finished tricks to a trace.

The games are generated with random (often illegal) plays and then edited line by line
(lines deleted, written twice, swapped, a claim changed), so that clean runs of tricks meet
every kind of fault at every place in a hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from line_edits import edit_lines
from sloppy import Sloppy

from referee.judge import plays
from referee.judge.walk import judge_parsed
from referee.conformance.generate import generate_game
from referee.log.parser import parse_log
from referee.log.writer import write
from referee.rules.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
RULESETS = {name: load_ruleset(name) for name in ("cancellation", "standard")}


def _both_ways(text: str) -> tuple[tuple, tuple]:
    seen = []
    for fast in (True, False):
        plays.FAST_TRICKS = fast
        try:
            trace: list = []
            report = judge_parsed(parse_log(text), "game.log", trace=trace)
        finally:
            plays.FAST_TRICKS = True
        seen.append((report.to_json(), [d.related for d in report.diagnostics], trace))
    return seen[0], seen[1]


@st.composite
def games(draw):
    rules = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    players = draw(st.integers(rules.min_players, min(rules.max_players, 9)))
    seed = draw(st.integers(0, 2**32))
    faults = draw(st.sampled_from((0.0, 0.02, 0.1)))
    events = generate_game(rules, players, seed=seed, hands=2, tamper=Sloppy(seed, faults, anywhere=0.2))
    lines = write(events).splitlines()
    names = next(line for line in lines if line.startswith("[Players")).split('"')[1].split()
    tricks = [i for i, line in enumerate(lines) if line.startswith("trick")]
    for _ in range(draw(st.integers(0, 2))):  # a claim rewritten: right, wrong or unseated
        at = draw(st.sampled_from(tricks))
        claim = draw(st.sampled_from([*names, "none", "Nobody", names[0].lower()]))
        lines[at] = lines[at].rsplit(" -> ", 1)[0] + " -> " + claim
    if draw(st.booleans()):
        lines = edit_lines(draw, lines, known=[lines[i] for i in tricks],
                           odd=["trick 7:", "trick 3: Al"], most=3)
    return "\n".join(lines) + "\n"


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_the_fast_path_and_the_whole_way_give_one_report(text):
    fast, whole = _both_ways(text)
    assert fast == whole


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "logs").glob("*.log")),
                         ids=lambda p: p.name)
def test_every_example_log_gives_one_report_both_ways(path):
    fast, whole = _both_ways(path.read_text("utf-8"))
    assert fast == whole


def test_a_wrong_claim_after_clean_tricks_is_reported_at_the_claim():
    """Hand-worked: in "trick 3: Dave 5D, Eve 2D, Fay 4D, Al 3D, Beth 4D, Charlie 3D -> Dave"
    the 4Ds and the 3Ds cancel and Dave's 5D wins; claimed for Eve (2D, not cancelled), it is
    one wrong-winner at the arrow, after two clean tricks, and the tricks after it stay clean."""
    text = (ROOT / "examples" / "logs" / "clean-6-players.log").read_text("utf-8")
    lines = text.splitlines()
    assert lines[21] == "trick 3: Dave 5D, Eve 2D, Fay 4D, Al 3D, Beth 4D, Charlie 3D -> Dave"
    lines[21] = lines[21].replace("-> Dave", "-> Eve")
    edited = "\n".join(lines) + "\n"
    report = judge_parsed(parse_log(edited), "game.log")
    assert [(d.kind, d.line, d.column, d.player) for d in report.diagnostics] == [
        ("wrong-winner", 22, 62, "Eve")]
    fast, whole = _both_ways(edited)
    assert fast == whole
