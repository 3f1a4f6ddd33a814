"""Files that are not logs: devices, pipes, endless input. Every command says so with a
position and exit code 2, at once, within a byte limit; none blocks or grows without end."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = (("check",), ("fmt",), ("replay",), ("audit",))
QUICK = 20  # seconds; reading 256 MiB of /dev/zero through stdin takes well under this


def referee(*args: str, stdin=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT, stdin=stdin,
                          capture_output=True, text=True, timeout=QUICK,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_at_once(command, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    done = referee(*command, device)
    assert done.returncode == 2
    shown = done.stdout + done.stderr
    assert f"{device}:1:1:" in shown and "not a regular file" in shown
    assert "Traceback" not in shown and "internal error" not in shown


@pytest.mark.parametrize("command", COMMANDS)
def test_a_named_pipe_does_not_block(command, tmp_path):
    fifo = tmp_path / "game.log"
    os.mkfifo(fifo)
    start = time.monotonic()
    done = referee(*command, str(fifo))
    assert time.monotonic() - start < QUICK
    assert done.returncode == 2 and "named pipe" in done.stdout + done.stderr


def test_endless_standard_input_is_cut_off_at_the_limit():
    with open("/dev/zero", "rb") as endless:
        done = referee("check", "-", stdin=endless)
    assert done.returncode == 2
    assert "<stdin>:1:1:" in done.stdout and "MiB" in done.stdout


def test_the_limit_does_not_trust_the_reported_size(tmp_path):
    from referee.util.reading import UnreadableFile, read_limited

    path = tmp_path / "big.log"
    path.write_bytes(b"# x\n" * 1000)
    assert len(read_limited(path, limit=4000)) == 4000
    with pytest.raises(UnreadableFile, match="more than"):
        read_limited(path, limit=3999)


def test_a_directory_named_as_a_file_is_refused(tmp_path):
    for command in ("fmt", "replay", "audit"):
        done = referee(command, str(tmp_path))
        assert done.returncode == 2 and "a directory" in done.stdout + done.stderr
