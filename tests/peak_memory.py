"""The memory tests' one harness: the peak memory of some code run in a fresh process (its
VmHWM: never pytest's own process, which every test shares), and how it grows between two
sizes of input.  A slope between two sizes leaves out the fixed cost of Python and the package,
so a test can bound what a megabyte of input costs."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]

# ``referee ARGS...`` as the command line runs it; its exit code is the process's
CLI = "import sys\nfrom referee.cli import main\nraise SystemExit(main(sys.argv[1:]))"

_PEAK = """
finally:
    with open({out!r}, "w") as _peak:
        _peak.write(next(line.split()[1] for line in open("/proc/self/status")
                         if line.startswith("VmHWM")))
"""


class Measured(NamedTuple):
    peak_mb: float
    seconds: float
    stdout: str
    returncode: int


def run_measured(code: str, *args: str, keep_stdout: bool = False, timeout: float = 120,
                 check: bool = True) -> Measured:
    """Run ``code`` (Python, with ``args`` as ``sys.argv[1:]``) in a fresh process from the
    repository's root: its peak resident memory in MB, the seconds it took, its standard
    output (when ``keep_stdout``; else discarded) and its exit code.  ``check``: a traceback
    fails the test."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "peak"
        wrapped = "try:\n" + textwrap.indent(code, "    ") + _PEAK.format(out=str(out))
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", wrapped, *args], cwd=ROOT, text=True,
                              stdout=subprocess.PIPE if keep_stdout else subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=timeout)
        seconds = time.perf_counter() - start
        if check:
            assert "Traceback" not in done.stderr, done.stderr[-3000:]
        peak_kib = int(out.read_text())
    return Measured(peak_kib * 1024 / 1e6, seconds, done.stdout or "", done.returncode)


def growth(folder: Path, make: Callable[[int], str | bytes], counts: tuple[int, int],
           measure: Callable[[Path], float], suffix: str = ".log"
           ) -> tuple[list[float], list[float], float]:
    """Write ``make(count)`` for each of the two ``counts`` into ``folder`` and ``measure`` each
    file's peak (MB): (the files' sizes in MB, their peaks, MB of peak per MB of file)."""
    sizes, peaks = [], []
    for count in counts:
        path = folder / f"{count}{suffix}"
        data = make(count)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        sizes.append(path.stat().st_size / 1e6)
        peaks.append(measure(path))
    return sizes, peaks, (peaks[1] - peaks[0]) / (sizes[1] - sizes[0])


def played_log(hands: int, seed: int = 5) -> str:
    """A legal generated 6-player game of ``hands`` hands, under a target no one reaches."""
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset, with_options

    rules = with_options(load_ruleset("cancellation"), target=10**9)
    return write(generate_game(rules, 6, seed=seed, hands=hands))
