"""`referee serve` under a bounded concurrent load, against 127.0.0.1 only.

    python bench/serve_load.py                      # 50 clients for 30 s, one server process
    python bench/serve_load.py --clients 20 --seconds 10 --workers 2
    python bench/serve_load.py --pause 2     # each client waits 2 s between requests

Starts ``referee serve`` on a free port of 127.0.0.1 (this checkout's code), then runs the
clients at once: each sends, one after the other until the time is up, what a scorer's page
sends (mostly checks as a log is typed, now and then a report or an audit) of the bundled
example logs, and notes each answer's status and time (``--pause``: waiting that long after
each answer, as a scorer typing does; without it, none).  Prints the requests answered, the
errors (any status but 200, or no answer) and the latency percentiles; exit 1 on any error.
The server is stopped at the end (its checker processes with it).
tests/test_serve_browser.py runs a short version through the same functions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOGS = ("revoke.log", "clean-10-players.log", "score-mismatch.log", "scoresheet-only.log",
        "wrong-winner.log")
# of every 10 requests of a client: 8 checks, 1 report, 1 audit
MIX = ("api/check",) * 8 + ("report", "api/audit")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def http_client():
    """httpx2, which the test extra installs (Starlette's test client asks for it), or httpx:
    the two have one API."""
    try:
        import httpx2
    except ModuleNotFoundError:
        import httpx as httpx2
    return httpx2


def start_server(workers: int = 1, timeout: float = 60.0) -> tuple[subprocess.Popen, str]:
    """``referee serve`` on 127.0.0.1 and a free port, once it answers: (process, its URL)."""
    httpx = http_client()

    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--workers", str(workers)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"referee serve ended: {process.stderr.read()}")
        try:
            if httpx.get(url + "healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    stop_server(process)
    raise RuntimeError(f"referee serve did not answer within {timeout} s")


def stop_server(process: subprocess.Popen) -> None:
    """Stop the server as Ctrl-C would (its checkers stop with it); kill it past 15 s."""
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if process.stderr:
        process.stderr.close()


async def _client(client, url: str, logs: list[str], deadline: float, seen: list, first: int,
                  pause: float):
    turn = first
    while time.monotonic() < deadline:
        if turn > first and pause:
            await asyncio.sleep(pause)
        path, log = MIX[turn % len(MIX)], logs[turn % len(logs)]
        turn += 1
        started = time.monotonic()
        try:
            if path == "report":
                answer = await client.post(url + path, data={"log": log})
            else:
                answer = await client.post(url + path, json={"log": log})
            seen.append((path, answer.status_code, time.monotonic() - started))
        except Exception as failure:  # noqa: BLE001 - counted as an error
            seen.append((path, type(failure).__name__, time.monotonic() - started))


async def _load(url: str, clients: int, seconds: float, pause: float) -> list:
    httpx = http_client()

    logs = [(ROOT / "examples" / "logs" / name).read_text("utf-8") for name in LOGS]
    seen: list = []
    deadline = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=120) as client:
        await asyncio.gather(*(_client(client, url, logs, deadline, seen, first, pause)
                               for first in range(clients)))
    return seen


def load(url: str, clients: int, seconds: float, pause: float = 0.0) -> dict:
    """Run ``clients`` clients against ``url`` (127.0.0.1 only) for ``seconds``: the count of
    requests, of errors, the latency percentiles (ms) and the requests per second."""
    if not url.startswith(("http://127.0.0.1:", "http://localhost:")):
        raise ValueError("the load is for a server on this machine only (127.0.0.1)")
    started = time.monotonic()
    seen = asyncio.run(_load(url, clients, seconds, pause))
    elapsed = time.monotonic() - started
    times = sorted(latency for _path, _status, latency in seen)

    def percentile(share: float) -> float:
        return round(1000 * times[min(len(times) - 1, int(share * len(times)))], 1)

    errors = [(path, status) for path, status, _ in seen if status != 200]
    return {"requests": len(seen), "errors": len(errors), "first_errors": errors[:5],
            "p50_ms": percentile(0.50), "p90_ms": percentile(0.90),
            "p99_ms": percentile(0.99), "max_ms": round(1000 * times[-1], 1),
            "per_second": round(len(seen) / elapsed, 1),
            "by_kind": {path: _kind(seen, path) for path in sorted(set(MIX))}}


def _kind(seen: list, path: str) -> str:
    """How many requests of one kind, and their median and 90th percentile (ms)."""
    times = sorted(latency for kind, _status, latency in seen if kind == path)
    if not times:
        return "0"
    middle, high = times[len(times) // 2], times[min(len(times) - 1, int(0.9 * len(times)))]
    return f"{len(times)} (p50 {1000 * middle:.0f}, p90 {1000 * high:.0f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--pause", type=float, default=0.0,
                        help="seconds each client waits after an answer (default 0)")
    args = parser.parse_args()
    process, url = start_server(args.workers)
    try:
        found = load(url, args.clients, args.seconds, args.pause)
    finally:
        stop_server(process)
    print(f"{args.clients} clients for {args.seconds:g} s, pausing {args.pause:g} s, "
          f"{args.workers} server process(es): "
          f"{found['requests']} requests ({found['per_second']}/s; {found['by_kind']}), "
          f"{found['errors']} errors {found['first_errors'] or ''}")
    print(f"latency ms: p50 {found['p50_ms']}, p90 {found['p90_ms']}, p99 {found['p99_ms']}, "
          f"max {found['max_ms']}")
    return 1 if found["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
