"""`referee replay` (text and JSON) and `referee report` follow the check hand by hand
(referee.output.game_view.GameWatch, the text rows spooled, the page written a part at a
time): the output is the one the whole file's parse gives, and memory grows with the text
only."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from peak_memory import growth, run_measured

from referee.conformance.generate import generate_game
from referee.conformance.inject import violating_game
from referee.log.parser import parse_text
from referee.log.writer import write
from referee.output import game_view as view_module
from referee.output.html import render_html
from referee.output.replay_view import show_replay
from referee.rules.ruleset import load_ruleset, with_options
from whole_view import game_view, referee_game, report_html

pytestmark = pytest.mark.slow  # peak memory of child processes on logs of several megabytes


def _game(hands: int, seed: int = 5) -> str:
    rules = with_options(load_ruleset("cancellation"), target=10**9)
    return write(generate_game(rules, 6, seed=seed, hands=hands))


def _replayed(path: Path, as_json: bool = False) -> str:
    out = io.StringIO()
    show_replay(str(path), stream=out, color=False, as_json=as_json)
    return out.getvalue()


def test_a_setup_fault_of_a_late_hand_is_printed_before_the_first_hand(tmp_path):
    lines = _game(3).split("\n")
    third = lines.index(next(line for line in lines if line.startswith("hand 3")))
    at = next(i for i in range(third, len(lines)) if lines[i].startswith("trick 5:"))
    lines[at] = lines[at].replace("trick 5:", "trick 6:", 1)
    path = tmp_path / "late.log"
    path.write_text("\n".join(lines), "utf-8")
    out = _replayed(path).split("\n")
    assert out[0] == (f"{path}:{at + 1}:1: CH101 bad-setup  trick 6 is recorded where trick 5 "
                      "is due [R10.4]")
    assert out[1] == "hand 1"
    assert out[-2] == f"1 violation (referee check {path} lists them)"


@pytest.mark.parametrize("kind", ["revoke", "total-mismatch"])
def test_the_json_replay_and_the_page_are_the_whole_parse_ones(tmp_path, monkeypatch, kind):
    # 7 hands, 3 drawn, 4 comments of which 2 shown, one fault: the streamed document and page
    # against the view of the whole file's parse and every trick
    monkeypatch.setattr(view_module, "MAX_DRAWN_HANDS", 3)
    monkeypatch.setattr(view_module, "MAX_NOTES", 2)
    text = violating_game(load_ruleset("cancellation"), 6, seed=2, kind=kind, hands=7)[0]
    lines = text.split("\n")
    hands = [i for i, line in enumerate(lines) if line.startswith("hand ")]
    for number, at in reversed(list(enumerate(hands))):
        lines.insert(at, f"# before hand {number + 1}")
    path = tmp_path / "game.log"
    path.write_text("\n".join(lines), "utf-8")
    parsed = parse_text(path.read_text("utf-8"))
    whole = game_view(*referee_game(parsed, str(path), base_dir=tmp_path), parsed)
    assert [h["drawn"] for h in whole["hands"]] == [True] * 3 + [False] * 4
    assert len(whole["notes"]) == 2 and whole["diagnostics"]
    replayed = _replayed(path, as_json=True)
    shown = json.loads(replayed)
    assert replayed == json.dumps(shown, ensure_ascii=False, indent=2) + "\n"
    for hand in shown["hands"]:  # the replay also gives each play's legal cards
        for play in (p for t in hand["tricks"] if "plays" in t for p in t["plays"]):
            assert play.pop("legal") is not None
    assert shown == json.loads(json.dumps(whole))
    page, verdict = report_html(path.read_bytes(), str(path), base_dir=tmp_path)
    assert verdict == "violations"
    assert page == render_html(whole)


def test_a_log_whose_setup_fails_still_shows_its_notes(tmp_path):
    path = tmp_path / "bad.log"
    path.write_text('# a comment\n[Players "Al"]\nhand 1\n', "utf-8")
    view = json.loads(_replayed(path, as_json=True))
    assert [n["text"] for n in view["notes"]][:1] == ["a comment"]
    assert view["hands"] == [] and view["verdict"] == "violations"


# ---- memory --------------------------------------------------------------------------------
SHOWN = """
import sys
from referee.output import game_view
game_view.MAX_DRAWN_HANDS = 10  # the drawn hands are a fixed cost; the others are measured
from referee.output.html import report_main
from referee.output.replay_view import show_replay
if sys.argv[2] == "page":
    report_main(sys.argv[1], "/dev/null")
else:
    show_replay(sys.argv[1], stream=open("/dev/null", "w"), color=False,
                as_json=sys.argv[2] == "json")
"""


@pytest.mark.parametrize("form", ["text", "json", "page"])
def test_peak_memory_of_the_replay_grows_with_the_text_not_with_its_tricks(tmp_path, form):
    # the whole file's events and tricks held: about 36 (text), 50 (JSON) and 49 (the report's
    # page) MB per MB of log; a hand at a time: about 4 (the summaries; the rows are spooled),
    # 5 and 5
    sizes, peaks, slope = growth(tmp_path, _game, (40, 250),
                                 lambda path: run_measured(SHOWN, str(path), form).peak_mb)
    assert sizes[1] - sizes[0] > 0.35  # far enough apart for the growth to stand out
    assert slope < 12, (sizes, peaks)
