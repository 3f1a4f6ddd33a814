"""Options at their limits are usage errors (exit 2, one line), never an internal error or a
runaway: a timeout no clock can hold, workers beyond the files and the cores, a conversion over
its own input, fmt --write without a file, audit asked for no solutions."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.cli import main
from referee.run import bulk

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "logs"


def _run(capsys, *args) -> tuple[int, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.mark.parametrize("timeout", ["inf", "1e10", "0", "-1", "nan"])
def test_a_timeout_no_clock_can_hold_is_a_usage_error(timeout, capsys):
    code, said = _run(capsys, "check", "--jobs", "2", "--timeout", timeout,
                      str(EXAMPLES / "revoke.log"))
    assert code == 2 and said.startswith("referee: --timeout must be a positive number")
    assert "internal error" not in said and "CH001" not in said


def test_workers_are_never_more_than_the_files(monkeypatch):
    made = []

    class Pool(bulk._Pool):
        def __init__(self, jobs, check):
            made.append(jobs)
            super().__init__(jobs, check)

    monkeypatch.setattr(bulk, "_Pool", Pool)
    one = [str(EXAMPLES / "revoke.log")]
    assert [r.verdict for r in bulk.check_many(one, jobs=60)] == ["violations"]
    assert made == []  # one file: checked here, no pool at all
    three = [str(EXAMPLES / name) for name in ("revoke.log", "clean-6-players.log",
                                                "syntax.log")]
    reports = list(bulk.check_many(iter(three), jobs=60))
    assert [r.path for r in reports] == three and made == [3]


def test_workers_are_never_more_than_a_few_per_core(monkeypatch):
    made = []
    monkeypatch.setattr(bulk, "default_jobs", lambda: 2)
    monkeypatch.setattr(bulk, "_Pool", lambda jobs, check: made.append(jobs) or
                        (_ for _ in ()).throw(RuntimeError("enough")))
    paths = [str(EXAMPLES / "revoke.log")] * 50
    with pytest.raises(RuntimeError):
        list(bulk.check_many(paths, jobs=1000))
    assert made == [2 * bulk.MAX_JOBS_PER_CORE]


@pytest.mark.parametrize("to, suffix", [("json", ".log"), ("log", ".json")])
def test_convert_does_not_overwrite_its_own_input(to, suffix, tmp_path, capsys):
    source = tmp_path / f"game{suffix}"
    if suffix == ".log":
        shutil.copy(EXAMPLES / "revoke.log", source)
    else:
        assert main(["convert", str(EXAMPLES / "revoke.log"), "-o", str(source)]) == 0
    before = source.read_bytes()
    (tmp_path / "link").symlink_to(source)
    for output in (source, tmp_path / "link"):
        code, said = _run(capsys, "convert", "--to", to, "-o", str(output), str(source))
        assert code == 2 and source.read_bytes() == before, said
    assert "is the input itself; not overwritten" in said or "symbolic link" in said


def test_fmt_write_of_standard_input_and_audit_without_solutions_are_usage_errors(capsys):
    assert _run(capsys, "fmt", "--write", "-") == (
        2, "referee: --write rewrites a file: name one (standard input has none)\n")
    for count in ("0", "-1"):
        assert _run(capsys, "audit", "--solutions", count, str(EXAMPLES / "scoresheet-only.log")
                    ) == (2, "referee: --solutions must be 1 or more\n")


def test_sigterm_stops_the_workers_with_the_run(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from peak_memory import CLI, played_log

    text = played_log(400)
    for number in range(6):
        (tmp_path / f"{number}.log").write_text(text, "utf-8")
    run = subprocess.Popen([sys.executable, "-c", CLI, "check", "--jobs", "2", str(tmp_path)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           cwd=Path(__file__).resolve().parents[1])

    def workers() -> list[int]:
        found = []
        for entry in os.listdir("/proc"):
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if entry.isdigit() and int(stat.read().rsplit(")", 1)[1].split()[1]) == run.pid:
                        found.append(int(entry))
            except OSError:
                continue
        return found

    deadline = time.monotonic() + 60
    while len(started := workers()) < 2 and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.05)
    assert len(started) >= 2, "the workers did not start"
    run.send_signal(signal.SIGTERM)
    run.wait(timeout=30)
    deadline = time.monotonic() + 10
    while (left := [pid for pid in started if os.path.exists(f"/proc/{pid}")]) and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    assert left == [], "workers outlived the run"
