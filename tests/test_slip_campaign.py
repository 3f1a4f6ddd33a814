"""The slip campaign's cases that must stay right (scripts/slip_campaign.py): a few slips of
each kind typed into clean logs, each giving exactly its own diagnostics, at the slip, with
nobody else accused and the winner unchanged; a trick written in seating order from the
first column, the dealer or the last column among them, with every card of one suit or not."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from referee.run.single import check_text

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


@pytest.mark.parametrize("key", campaign.SLIPS)
def test_each_slip_is_one_fault_at_its_place(key):
    for slip in sample(key, 4 if key in SEATING else 3):
        outcome = campaign.judge(slip, WINNERS[slip.source])
        assert outcome.right, (slip.kind, slip.source, outcome.found)


def test_passes_the_play_follows_are_one_fault():
    for slip in campaign.wrong_way_passes(2):
        outcome = campaign.judge(slip, None)
        assert outcome.right, (slip.source, outcome.found)
