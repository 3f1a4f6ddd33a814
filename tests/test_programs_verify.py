"""verify-rules, the sheet laws and the partial-record facts under the three program files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.proofs.rulemodel import load_rule_model
from referee.proofs.verify_rules import verify_rules
from referee.rules.cards import NUM_RANKS, QUEEN_OF_SPADES, SPADES
from referee.rules.ruleset import is_point_card

pytestmark = pytest.mark.slow  # z3 proofs of whole programs: minutes

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "examples" / "rulesets"


def results(name: str, *properties: str):
    model = load_rule_model(str(RULESETS / f"{name}.toml"))
    return {r.name: r for r in verify_rules(model, properties=properties or None)}


def test_verify_rules_finds_a_trick_1_dead_end_following():
    found = results("DoubleDeckCancellationHearts", "no-deadlock-follow")["no-deadlock-follow"]
    assert not found.holds and "no card may be played" in found.counterexample
    witness = found.witness
    holding, led = witness["holding"], witness["led"]
    assert witness["first_trick"] and led // NUM_RANKS == SPADES
    # the position that examples/rulesets/DoubleDeckCancellationHearts.toml describes (spec/rules.md
    # R5.6): the only spades held are Black Marias, and a card that scores nothing is held too
    spades = [c for c in range(SPADES * NUM_RANKS, (SPADES + 1) * NUM_RANKS) if holding[c]]
    assert spades == [QUEEN_OF_SPADES]
    assert any(holding[c] and not is_point_card(c) for c in range(52))


def test_verify_rules_finds_a_first_lead_from_a_hand_of_points():
    found = results("DoubleDeckCancellationHearts", "no-deadlock-lead")["no-deadlock-lead"]
    assert not found.holds and found.witness["first_trick"]
    held = [c for c, k in enumerate(found.witness["holding"]) if k]
    assert held and all(is_point_card(c) for c in held)


def test_the_verify_rules_command_prints_the_dead_end():
    done = subprocess.run(
        [sys.executable, "-m", "referee", "verify-rules",
         str(RULESETS / "DoubleDeckCancellationHearts.toml")], capture_output=True, text=True,
        cwd=ROOT, timeout=600, check=False, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1
    assert "no-deadlock-follow" in done.stdout and "following" in done.stdout
    assert "QS" in done.stdout


@pytest.mark.parametrize("name", ["cancellation-hearts", "cancellation-oregonian-hearts"])
def test_cancellation_hearts_and_oregonian_verify_clean(name):
    found = results(name)
    failing = {k: r.counterexample for k, r in found.items() if r.applicable and not r.holds}
    assert failing == {}
    assert found["legal-list-agrees"].applicable  # the model reads these rules as the engine
    # cancellation-oregonian-hearts has no moon: that property does not apply
    assert found["moon-only-all-points"].applicable == (name == "cancellation-hearts")


@pytest.mark.parametrize("log", ["DoubleDeckCancellationHearts-game.log",
                                 "cancellation-hearts-game.log",
                                 "cancellation-oregonian-hearts-game.log"])
def test_the_invariants_and_the_audit_accept_each_program_game(log):
    path = str(RULESETS / log)
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    checked = subprocess.run([sys.executable, "-m", "referee", "check", "--invariants", path],
                             capture_output=True, text=True, cwd=ROOT, timeout=600, check=False,
                             env=env)
    assert checked.returncode == 0, checked.stdout
    audited = subprocess.run([sys.executable, "-m", "referee", "audit", path],
                             capture_output=True, text=True, cwd=ROOT, timeout=600, check=False,
                             env=env)
    assert audited.returncode == 0 and "consistent" in audited.stdout, audited.stdout


def test_the_audit_corrects_a_pair_moon_sheet_by_the_pair_moon_pattern(tmp_path):
    text = (RULESETS / "cancellation-hearts-game.log").read_text("utf-8")
    # only the score is miswritten: the totals still show Hana's 26
    text = text.replace("Fay 26, Gus 26, Hana 26\ntotal", "Fay 26, Gus 26, Hana 25\ntotal")
    (tmp_path / "cancellation-hearts.toml").write_text(
        (RULESETS / "cancellation-hearts.toml").read_text("utf-8"), encoding="utf-8")
    log = tmp_path / "game.log"
    log.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee", "audit", str(log)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, check=False,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1, done.stdout
    assert "change Hana's hand 2 score from 25 to 26" in done.stdout
