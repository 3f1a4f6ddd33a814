"""Checking on a Dask cluster gives the same reports as a local run (LocalCluster on loopback)."""

from __future__ import annotations

from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

from referee.run.bulk import check_many  # noqa: E402
from referee.run.cluster import check_on_cluster  # noqa: E402

pytestmark = pytest.mark.slow  # starts a Dask scheduler and workers

LOGS = sorted(str(p) for p in (Path(__file__).resolve().parents[1] / "examples" / "logs").glob("*.log"))


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
