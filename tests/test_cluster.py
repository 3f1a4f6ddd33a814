"""Checking on a Dask cluster gives the same reports as a local run (LocalCluster on loopback)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

from referee.run.bulk import check_many  # noqa: E402
from referee.run.cluster import check_on_cluster  # noqa: E402

pytestmark = pytest.mark.slow  # starts a Dask scheduler and workers

ROOT = Path(__file__).resolve().parents[1]
LOGS = sorted(str(p) for p in (ROOT / "examples" / "logs").glob("*.log"))


@pytest.fixture(scope="module")
def scheduler():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def test_cluster_reports_equal_local_reports_in_order(scheduler, tmp_path):
    missing = str(tmp_path / "missing.log")
    paths = LOGS + [missing]
    local = [r.to_json() for r in check_many(paths, jobs=1)]
    remote = [r.to_json() for r in check_on_cluster(paths, scheduler, window=8)]
    assert scheduler.startswith("tcp://127.0.0.1:")
    assert [r["path"] for r in remote] == paths
    assert remote == local


def test_an_unreachable_scheduler_is_a_usage_error_not_a_traceback():
    from referee.cli import main

    assert main(["check", "--scheduler", "tcp://127.0.0.1:1", "--timeout", "2", LOGS[0]]) == 2


def test_a_match_on_the_cluster_plays_the_games_a_local_match_plays(scheduler, monkeypatch,
                                                                     capsys):
    from referee.cli import main

    monkeypatch.chdir(ROOT)  # the workers run the command from this folder
    arguments = ["match", f"{sys.executable} examples/bots/random_bot.py 1", "--games", "3",
                 "--max-hands", "1", "--format", "json"]
    assert main(arguments) == 0
    here = json.loads(capsys.readouterr().out)
    assert main([*arguments, "--scheduler", scheduler]) == 0
    there = json.loads(capsys.readouterr().out)
    assert [game["game"] for game in here["games"]] == ["game-0001", "game-0002", "game-0003"]
    assert there == here
