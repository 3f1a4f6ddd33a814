"""`referee fmt --write` replaces a log all or nothing, keeps its mode, and never writes through
a link: not one planted at a temporary name, not the target's own, not under a kill -9."""

from __future__ import annotations

import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.util.files import TEMPORARY_SUFFIX, remove_stale_copies

ROOT = Path(__file__).resolve().parent.parent
CLEAN = (ROOT / "examples" / "logs" / "clean-6-players.log").read_text("utf-8")
# the same log in an untidy spelling, so that fmt has something to rewrite
UNTIDY = CLEAN.replace("trick ", "TRICK  ").replace(", ", " ,  ")
KILLS = 200
PARALLEL = 4  # kill trials run this many at a time, each on its own file


def fmt(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", "fmt", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def canonical() -> str:
    from referee.log.writer import format_text

    return format_text(UNTIDY)[0]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "game.log"
    path.write_text(UNTIDY, "utf-8")
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_the_mode_of_the_file_is_kept(log):
    log.chmod(0o600)
    done = fmt("--write", str(log), cwd=log.parent)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert log.read_text("utf-8") == canonical()
    assert leftovers(log.parent) == []


def test_a_symlink_is_not_written_through_unless_asked(log):
    link = log.parent / "link.log"
    link.symlink_to(log.name)
    done = fmt("--write", str(link), cwd=log.parent)
    assert done.returncode == 2 and "symbolic link" in done.stderr
    assert "Traceback" not in done.stderr
    assert link.is_symlink() and log.read_text("utf-8") == UNTIDY
    done = fmt("--write", "--follow-symlinks", str(link), cwd=log.parent)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and log.read_text("utf-8") == canonical()


def test_a_hard_linked_file_is_refused(log):
    other = log.parent / "other.log"
    os.link(log, other)
    done = fmt("--write", str(log), cwd=log.parent)
    assert done.returncode == 2 and "hard links" in done.stderr
    assert log.read_text("utf-8") == other.read_text("utf-8") == UNTIDY
    assert log.stat().st_ino == other.stat().st_ino


def test_a_link_planted_at_a_temporary_name_redirects_nothing(log, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", "utf-8")
    for name in (f".{log.name}.referee-fmt", f".{log.name}.referee-tmp"):
        (log.parent / name).symlink_to(victim)
    done = fmt("--write", str(log), cwd=log.parent)
    assert done.returncode == 0, done.stderr
    assert victim.read_text("utf-8") == "keep me"
    assert log.read_text("utf-8") == canonical() and not log.is_symlink()


def test_two_writers_at_once_both_finish(log):
    command = [sys.executable, "-m", "referee", "fmt", "--write", str(log)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    running = [subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
               for _ in range(2)]
    for process in running:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0 and "Traceback" not in err
    assert log.read_text("utf-8") == canonical()
    assert leftovers(log.parent) == []


def _kill_trials(log: Path, trials: int, whole: float, seed: int) -> dict[str, int]:
    command = [sys.executable, "-m", "referee", "fmt", "--write", str(log)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    want = canonical()
    rng = random.Random(seed)
    outcomes = {"before": 0, "after": 0, "copies": 0}
    for _ in range(trials):
        log.write_text(UNTIDY, "utf-8")
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        # most of a run is start-up: aim most kills at its end, where the file is written, and
        # some past it, so that kills land on both sides however loaded the machine is
        time.sleep(rng.uniform(0.3, 2.0) * whole)
        process.send_signal(signal.SIGKILL)
        process.wait()
        text = log.read_text("utf-8")
        assert text in (UNTIDY, want), "the log was truncated or mixed"
        outcomes["before" if text == UNTIDY else "after"] += 1
        # a kill between naming the finished copy and the rename leaves that copy, whole; the
        # next write of the file removes it (here asked directly, as the writer is gone)
        left = leftovers(log.parent)
        if left:
            assert [(log.parent / name).read_text("utf-8") for name in left] == [want], \
                "a partial copy was left"
            outcomes["copies"] += 1
            remove_stale_copies(log)
        assert leftovers(log.parent) == []
    return outcomes


@pytest.mark.slow
def test_a_kill_at_any_moment_loses_nothing_and_leaves_nothing(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    logs = []
    for index in range(PARALLEL):  # each in its own folder, so leftovers are its own
        folder = tmp_path / str(index)
        folder.mkdir()
        logs.append(folder / "game.log")
        logs[-1].write_text(UNTIDY, "utf-8")
    runs = []
    for _ in range(3):  # the middle of three: one slow or quick start does not set the pace
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "referee", "fmt", "--write", str(logs[0])],
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True,
                       capture_output=True)
        runs.append(time.perf_counter() - start)
    whole = sorted(runs)[1]
    with ThreadPoolExecutor(PARALLEL) as pool:
        results = list(pool.map(lambda i: _kill_trials(logs[i], KILLS // PARALLEL, whole, i),
                                range(PARALLEL)))
    assert sum(r["before"] + r["after"] for r in results) >= KILLS
    # the kills did land on both sides of the rename
    assert sum(r["before"] for r in results) and sum(r["after"] for r in results)


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_the_next_write_removes_a_killed_writers_copy_and_nothing_else(log, tmp_path):
    dead = log.parent / f".{log.name}.{_dead_pid()}.0123456789ab{TEMPORARY_SUFFIX}"
    dead.write_text("a copy left by a writer killed before its rename", "utf-8")
    live = log.parent / f".{log.name}.{os.getpid()}.0123456789ab{TEMPORARY_SUFFIX}"
    live.write_text("a live writer's copy", "utf-8")
    other = log.parent / f".other.log.{_dead_pid()}.0123456789ab{TEMPORARY_SUFFIX}"
    other.write_text("another file's copy", "utf-8")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", "utf-8")
    linked = log.parent / f".{log.name}.{_dead_pid()}.fedcba987654{TEMPORARY_SUFFIX}"
    linked.symlink_to(victim)
    done = fmt("--write", str(log), cwd=log.parent)
    assert done.returncode == 0, done.stderr
    assert log.read_text("utf-8") == canonical()
    assert not dead.exists()
    assert live.read_text("utf-8") == "a live writer's copy"  # its writer may still rename it
    assert other.exists() and linked.is_symlink() and victim.read_text("utf-8") == "keep me"
