"""Bulk checking: order, parallel equals serial, crashes and hangs become per-file errors."""

from __future__ import annotations

import os
import time
from pathlib import Path

from referee.replay import check_path
from referee.run.bulk import check_many

LOGS = sorted(str(p) for p in (Path(__file__).resolve().parents[1] / "examples" / "logs").glob("*.log"))


def _crash_on_revoke(path: str):
    if path.endswith("revoke.log"):
        os._exit(3)
    return check_path(path)


def _hang_on_revoke(path: str):
    if path.endswith("revoke.log"):
        time.sleep(30)
    return check_path(path)


def test_parallel_results_equal_serial_results_in_input_order():
    serial = [r.to_json() for r in check_many(LOGS, jobs=1)]
    parallel = [r.to_json() for r in check_many(LOGS, jobs=2)]
    assert [r["path"] for r in parallel] == LOGS
    assert parallel == serial


def test_a_crashing_worker_is_reported_for_its_file_and_the_run_goes_on():
    reports = list(check_many(LOGS, jobs=2, check=_crash_on_revoke))
    assert [r.path for r in reports] == LOGS
    crashed = [r for r in reports if r.path.endswith("revoke.log")]
    assert crashed[0].verdict == "unreadable" and "crashed" in crashed[0].unreadable
    others = [r for r in reports if not r.path.endswith("revoke.log")]
    assert all(r.unreadable is None for r in others)


def test_a_hanging_file_times_out():
    subset = [p for p in LOGS if p.endswith(("revoke.log", "syntax.log", "clean-6-players.log"))]
    start = time.monotonic()
    reports = list(check_many(subset, jobs=2, timeout=2, check=_hang_on_revoke))
    assert time.monotonic() - start < 20
    verdicts = {Path(r.path).name: r.verdict for r in reports}
    assert verdicts["revoke.log"] == "unreadable"
    assert verdicts["syntax.log"] == "violations" and verdicts["clean-6-players.log"] == "clean"


def _manager_threads() -> list:
    import threading

    return [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]


def test_no_pool_thread_outlives_a_run_with_restarts():
    # a thread left behind is woken at interpreter exit through pipes already closed, which
    # printed "Exception ignored ... OSError: [Errno 9]" after some runs
    subset = [p for p in LOGS if p.endswith(("revoke.log", "syntax.log", "clean-6-players.log"))]
    list(check_many(subset, jobs=2, timeout=2, check=_hang_on_revoke))
    list(check_many(LOGS[:6], jobs=2, check=_crash_on_revoke))
    assert _manager_threads() == []
