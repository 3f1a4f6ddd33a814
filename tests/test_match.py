"""referee match: games between programs, every move checked, every fault recorded, no process
left behind."""

from __future__ import annotations

import ctypes
import json
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from referee.play.match import MatchOptions, play_game
from referee.rules.ruleset import load_ruleset, with_options
from referee.run.single import check_path, check_text

ROOT = Path(__file__).resolve().parents[1]
PY_BOT = [sys.executable, str(ROOT / "examples" / "bots" / "random_bot.py")]
JS_BOT = ["node", str(ROOT / "examples" / "bots" / "random_bot.js")]
HOSTILE = [sys.executable, str(ROOT / "tests" / "bots" / "hostile_bot.py")]
RULES = with_options(load_ruleset("cancellation"), target=40)  # games of two or three hands
pytestmark = pytest.mark.slow  # every test starts programs as processes


def alive(mark: str) -> list[str]:
    """The command lines of the bots still running that carry ``mark``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if mark in line and "pytest" not in line and "-m referee" not in line:
                found.append(line)
    return found


def referee(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=timeout)


def test_two_random_bots_play_a_clean_game_to_the_end():
    result = play_game([PY_BOT + ["1"], PY_BOT + ["2"]], (0, 1) * 3, game="g", seed=5,
                       options=MatchOptions(RULES, conformance=True))
    assert result.ended == "target" and result.forfeit is None and not result.differences
    assert max(result.totals) >= RULES.target
    assert [sum(column) for column in zip(*result.hand_scores)] == list(result.totals)
    report = check_text(result.log)
    assert report.verdict == "clean" and report.winners == [result.names[s] for s in
                                                            result.winners]
    assert check_text(result.record).verdict == "clean"


def test_the_same_seed_deals_the_same_cards():
    one = play_game([PY_BOT + ["1"]], (0,) * 6, game="g", seed="s", options=MatchOptions(RULES))
    two = play_game([PY_BOT + ["7"]], (0,) * 6, game="g", seed="s", options=MatchOptions(RULES))
    deals = [[line for line in r.log.splitlines() if line.startswith("deal ")][:6]
             for r in (one, two)]
    assert deals[0] == deals[1]


@pytest.mark.parametrize("mode, reason", [
    ("illegal", "illegal"), ("hang", "timeout"), ("crash", "crashed"),
    ("garbage", "malformed"), ("huge", "oversized"), ("close", "closed"),
    ("wrongtype", "malformed"),
])
def test_a_hostile_program_forfeits_with_its_reason_and_leaves_no_process(mode, reason):
    mark = f"mark-{uuid.uuid4().hex}"
    started = time.monotonic()
    result = play_game([HOSTILE + [mode, "2", mark], PY_BOT + ["3", mark]], (0, 1, 1, 1, 1, 1),
                       game="g", seed=9, options=MatchOptions(RULES, time_per_move=0.3))
    assert time.monotonic() - started < 20
    assert result.ended == "forfeit" and result.forfeit[:2] == (0, reason)
    if mode == "illegal":
        assert "(R" in result.forfeit[2]  # the rule the card breaks
    report = check_text(result.log)
    assert [(d.kind, d.player) for d in report.diagnostics] == [("game-forfeited", "A1")]
    assert alive(mark) == []


def test_with_on_fault_play_the_referee_plays_for_the_seat_and_the_game_goes_on():
    mark = f"mark-{uuid.uuid4().hex}"
    result = play_game([HOSTILE + ["crash", "2", mark], PY_BOT + ["3"]], (0, 1, 1, 1, 1, 1),
                       game="g", seed=9, options=MatchOptions(RULES, on_fault="play"))
    assert result.ended == "target" and result.forfeit is None
    assert [(seat, reason) for seat, reason, _ in result.substituted] == [(0, "crashed")]
    assert "referee plays for this seat" in result.log
    assert check_text(result.log).verdict == "clean"
    assert alive(mark) == []


def test_a_too_strict_program_shows_under_conformance_at_its_first_difference():
    result = play_game([HOSTILE + ["strict"], PY_BOT + ["3"]], (0, 1, 1, 1, 1, 1), game="g",
                       seed=4, options=MatchOptions(RULES, conformance=True))
    first = result.differences[0]
    assert first.seat == 0 and first.what == "legal cards" and first.hand == 1
    assert set(first.program) < set(first.referee)  # it refused a legal card
    report = check_text(first.position)  # the position is a clean log that stops there
    assert report.verdict == "clean"
    assert any("A1 to play" in note for note in report.unchecked)


def test_a_too_lax_program_shows_too():
    result = play_game([HOSTILE + ["lax"], PY_BOT + ["3"]], (0, 1, 1, 1, 1, 1), game="g",
                       seed=4, options=MatchOptions(RULES, conformance=True))
    assert result.differences and set(result.differences[0].program) > set(
        result.differences[0].referee)


def test_the_command_writes_clean_logs_standings_and_json(tmp_path):
    out = tmp_path / "games"
    done = referee("match", f"{sys.executable} examples/bots/random_bot.py 1",
                   f"{sys.executable} examples/bots/random_bot.py 2", "--games", "2",
                   "--max-hands", "2",
                   "--duplicate", "--conformance", "-o", str(out), "--record", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {g["ended"] for g in data["games"]} == {"limit"}
    assert [g["game"] for g in data["games"]] == ["game-0001-r0", "game-0001-r1",
                                                  "game-0002-r0", "game-0002-r1"]
    assert data["games"][1]["programs"] == [1, 0, 1, 0, 1, 0]  # the seats rotated
    assert sum(s["games"] for s in data["standings"]) == 8
    for standing in data["standings"]:
        assert standing["hands"] > 0 and standing["ci95"] > 0 and standing["differences"] == 0
    for path in sorted(out.iterdir()):
        assert check_path(path).verdict == "clean", path
    first = [line for line in (out / "game-0001-r0.log").read_text().splitlines()
             if line.startswith("deal ")]
    second = [line for line in (out / "game-0001-r1.log").read_text().splitlines()
              if line.startswith("deal ")]
    assert [line.split(":")[1] for line in first[:6]] == [line.split(":")[1] for line in second[:6]]


def test_the_command_exits_1_on_a_forfeit_and_says_why():
    done = referee("match", f"{sys.executable} tests/bots/hostile_bot.py illegal 1",
                   f"{sys.executable} examples/bots/random_bot.py", "--games", "1")
    assert done.returncode == 1
    assert "forfeits (illegal)" in done.stdout and "(R" in done.stdout


@pytest.mark.parametrize("args", [
    ["match", "''"], ["match", "x", "--players", "3"], ["match", "x", "--games", "0"],
    ["match", "x", "--ruleset", "nonesuch"], ["match", "'unclosed"],
])
def test_usage_errors_exit_2(args):
    done = referee(*args)
    assert done.returncode == 2 and "referee:" in done.stderr and "Traceback" not in done.stderr


def test_a_program_that_cannot_start_forfeits():
    done = referee("match", "/nonexistent/program", "--games", "1", "--format", "json")
    assert done.returncode == 1
    forfeit = json.loads(done.stdout)["games"][0]["forfeit"]
    assert forfeit["reason"] == "crashed" and "cannot start" in forfeit["detail"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_an_interrupt_leaves_no_process(signum):
    mark = f"mark-{uuid.uuid4().hex}"
    match = subprocess.Popen(
        [sys.executable, "-m", "referee", "match", f"{sys.executable} tests/bots/hostile_bot.py "
         f"hang 1 {mark}", "--games", "4", "--jobs", "2", "--time-per-move", "60000"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while len(alive(mark)) < 12 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(alive(mark)) == 12  # two games of six seats
    match.send_signal(signum)
    assert match.wait(20) == 130
    assert alive(mark) == []


def test_what_a_program_leaves_in_a_session_of_its_own_does_not_outlive_the_match():
    mark = f"mark-{uuid.uuid4().hex}"
    done = referee("match", f"{sys.executable} tests/bots/hostile_bot.py escape 1 {mark}",
                   "--games", "2", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert alive(mark) == []


def test_a_game_s_escaped_processes_are_killed_when_it_ends_not_at_the_match_s_end():
    from referee.play.program import PR_GET_CHILD_SUBREAPER, Processes, adopting_orphans

    mark, registry = f"mark-{uuid.uuid4().hex}", Processes()
    with adopting_orphans(registry):
        result = play_game([HOSTILE + ["escape", "1", mark], PY_BOT], (0, 1, 1, 1, 1, 1),
                           game="g", seed=5, options=MatchOptions(RULES), registry=registry)
        assert result.ended == "target"
        assert alive(mark) == []
    reaper = ctypes.c_int(-1)  # and this process adopts no more orphans than before
    ctypes.CDLL(None).prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(reaper), 0, 0, 0)
    assert reaper.value == 0


def test_a_match_run_in_process_gives_back_the_signal_handlers(capsys):
    from referee.cli import main

    before = [signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)]
    assert main(["match", f"{sys.executable} examples/bots/random_bot.py", "--games", "1",
                 "--max-hands", "1"]) == 0
    assert [signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)] == before
    assert "points/hand" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_python_and_the_node_bot_play_each_other_cleanly():
    result = play_game([PY_BOT + ["1"], JS_BOT + ["2"]], (0, 1) * 3, game="g", seed=2,
                       options=MatchOptions(RULES, conformance=True))
    assert result.ended == "target" and not result.differences and result.forfeit is None
    standard = play_game([PY_BOT + ["1"], JS_BOT + ["2"]], (0, 1) * 2, game="g", seed=2,
                         options=MatchOptions(load_ruleset("standard"), players=4,
                                              conformance=True))
    assert standard.ended == "target" and not standard.differences


RULES_BOT = [sys.executable, str(ROOT / "tests" / "bots" / "rules_bot.py")]


def test_a_program_that_answers_every_query_rightly_shows_no_difference():
    result = play_game([RULES_BOT], (0,) * 6, game="g", seed=3,
                       options=MatchOptions(RULES, conformance=True, max_hands=2))
    assert result.forfeit is None and not result.differences and len(result.hand_scores) == 2


def test_every_message_of_a_conformance_game_follows_the_protocols_schema(tmp_path):
    import jsonschema

    schema = json.loads((ROOT / "spec" / "protocol.schema.json").read_text("utf-8"))
    transcript = tmp_path / "transcript.jsonl"
    result = play_game([RULES_BOT + ["", str(transcript)]], (0,) * 6, game="g", seed=3,
                       options=MatchOptions(RULES, conformance=True))
    assert result.forfeit is None and not result.differences
    messages = [json.loads(line) for line in transcript.read_text("utf-8").splitlines()]
    validator = jsonschema.Draft202012Validator(schema)
    for message in messages:
        validator.validate(message)
    # both ways: what the referee tells and asks, and what the program answers
    assert {m["type"] for m in messages} >= {
        "start", "deal", "pass_request", "received", "play_request", "played", "trick_query",
        "trick", "score_query", "hand_end", "game_end", "ready", "pass", "play",
        "trick_answer", "score_answer"}
    wrong = dict(messages[0], players="Al")
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(wrong)


@pytest.mark.parametrize("mode, what, trick", [("wrong-winner", "trick winner", 2),
                                                ("wrong-score", "scores", None)])
def test_a_wrong_winner_or_score_shows_at_its_first_occurrence(mode, what, trick):
    result = play_game([RULES_BOT + [mode]], (0,) * 6, game="g", seed=3,
                       options=MatchOptions(RULES, conformance=True, max_hands=1))
    first = result.differences[0]
    assert (first.what, first.hand, first.trick) == (what, 1, trick)
    assert first.program != first.referee
    assert result.differences_counted == {seat: 1 for seat in range(6)}  # once per seat
    position = first.position.splitlines()
    if trick is not None:  # the position ends with the trick the program misjudged
        assert position[-1].startswith(f"trick {trick}:")
    else:  # the hand's every trick is played; its score line is not written yet
        assert position[-1].startswith("trick 17:")


def test_games_on_a_dask_cluster_give_the_local_results(tmp_path):
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    try:
        args = ["match", f"{sys.executable} examples/bots/random_bot.py 1", "--games", "2",
                "--max-hands", "1", "--format", "json"]
        remote = referee(*args, "--scheduler", cluster.scheduler_address)
        local = referee(*args)
    finally:
        cluster.close()
    assert remote.returncode == local.returncode == 0, remote.stderr
    assert json.loads(remote.stdout)["games"] == json.loads(local.stdout)["games"]
