"""Bulk checking: order, parallel equals serial, crashes and hangs become per-file errors."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from referee.run.single import check_path
from referee.run.bulk import check_many

pytestmark = pytest.mark.slow  # process pools, restarts and timeouts

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
    assert [(d.kind, d.code) for d in crashed[0].diagnostics] == [("not-checked", "CH002")]
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
    slow = next(r for r in reports if r.path.endswith("revoke.log"))
    # the referee ran out of time: not a syntax fault of the log, which nobody has judged
    assert [(d.kind, d.code, d.rule, d.message) for d in slow.diagnostics] == [
        ("not-checked", "CH002", "R10.7", "checking this file took longer than 2 s")]


def _fail_on_revoke(path: str):
    if path.endswith("revoke.log"):
        raise ValueError("a bug of the referee")
    return check_path(path)


def test_a_fault_of_the_referee_is_its_own_kind_not_the_logs_syntax():
    for jobs in (1, 2):
        reports = list(check_many(LOGS, jobs=jobs, check=_fail_on_revoke))
        failed = next(r for r in reports if r.path.endswith("revoke.log"))
        assert failed.verdict == "unreadable", jobs
        assert [(d.kind, d.severity, d.line, d.column) for d in failed.diagnostics] == [
            ("not-checked", "error", 1, 1)], jobs
        assert "ValueError('a bug of the referee')" in failed.diagnostics[0].message
        assert sum(r.verdict == "unreadable" for r in reports) == 1, jobs


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
