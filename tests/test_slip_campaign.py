"""The slip campaign's cases that must stay right (scripts/slip_campaign.py): a few slips of
each kind typed into clean logs, each giving exactly its own diagnostics, at the slip, with
nobody else accused and the winner unchanged.  A trick written in seating order whose two
readings both fit stays a lead out of turn of the player written first (the record cannot
tell them apart), and its message says the other reading."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from referee import check_text

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("slip_campaign", ROOT / "scripts" /
                                               "slip_campaign.py")
campaign = importlib.util.module_from_spec(_SPEC)
sys.modules["slip_campaign"] = campaign  # (its dataclasses look their module up)
_SPEC.loader.exec_module(campaign)

# the bundled clean logs only (the generated ones cost more to make than they add here)
POOL = [(path.name, path.read_text("utf-8")) for path in
        sorted((ROOT / "examples" / "logs").glob("clean-*.log")) +
        [ROOT / "examples" / "logs" / "scoresheet-game.log"]]
POOL += [(f"{name} as a sheet", "\n".join(
    line for line in text.split("\n") if line.startswith(("[", "score:", "total:", "winner:"))))
    for name, text in POOL if "trick 1:" in text]
WINNERS = {name: check_text(text).winners or None for name, text in POOL}
SEATING = ("first", "dealer", "last")


def sample(key: str, count: int = 3) -> list:
    slips = [slip for name, text in POOL for slip in campaign.SLIPS[key](name, text)]
    random.Random(7).shuffle(slips)
    return slips[:count]


@pytest.mark.parametrize("key", [k for k in campaign.SLIPS if k not in SEATING])
def test_each_slip_is_one_fault_at_its_place(key):
    for slip in sample(key):
        outcome = campaign.judge(slip, WINNERS[slip.source])
        assert outcome.right, (slip.kind, slip.source, outcome.found)


def test_passes_the_play_follows_are_one_fault():
    for slip in campaign.wrong_way_passes(2):
        outcome = campaign.judge(slip, None)
        assert outcome.right, (slip.source, outcome.found)


@pytest.mark.parametrize("key", SEATING)
def test_a_trick_in_seating_order_is_one_fault_at_its_place(key):
    for slip in sample(key, 4):
        outcome = campaign.judge(slip, WINNERS[slip.source])
        assert outcome.at_slip and outcome.winner, (slip.source, outcome.found)
        if not outcome.nobody_else:  # both readings fit: a lead out of turn, said as such
            (diag,) = check_text(slip.text).diagnostics
            assert diag.kind == "wrong-leader" and "unless the trick is only written" in \
                diag.message
