"""Check files on an existing Dask cluster (optional extra ``referee[dask]``).

Workers need not see this machine's files: each file is read here and its bytes are sent,
because checking is a pure function of (bytes, name).  At most ``window`` files are in flight
and reports come back in input order, as with ``--jobs``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

from referee.judge.diagnostics import Report
from referee.rules.ruleset import Ruleset


class ClusterUnavailable(RuntimeError):
    """No Dask cluster to check on (the extra is not installed, or the scheduler is unreachable)."""


def check_remote(data: bytes, name: str, invariants: bool = False,
                 max_diagnostics: int | None = None, ruleset: Ruleset | None = None) -> Report:
    """What a worker runs: the same check as a local run, on the bytes of one file.  The
    worker has no folder of the log's to read a ruleset file from: only a bundled ruleset a
    log names, or ``ruleset`` (read here, sent with the bytes), is used."""
    from referee.judge.table import DEFAULT_MAX_DIAGNOSTICS
    from referee.run.single import check_bytes

    return check_bytes(data, name, invariants=invariants,
                       max_diagnostics=max_diagnostics or DEFAULT_MAX_DIAGNOSTICS, ruleset=ruleset,
                       allowed_dirs=())


def client_of(scheduler: str, timeout: float = 30.0):
    """A client of the Dask scheduler at ``scheduler`` (ClusterUnavailable when there is none)."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterUnavailable("--scheduler needs the dask extra: pip install 'referee[dask]'") from None
    try:
        return Client(scheduler, timeout=timeout)
    except (OSError, ValueError, TimeoutError) as err:
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None


def _read(path: str) -> tuple[bytes | None, str | None]:
    from referee.util.reading import UnreadableFile, read_input

    try:
        return read_input(path), None
    except UnreadableFile as err:
        return None, str(err)


def check_on_cluster(paths: Iterable[str], scheduler: str, *, invariants: bool = False,
                     window: int = 64, timeout: float = 120.0,
                     max_diagnostics: int | None = None,
                     ruleset: Ruleset | None = None) -> Iterator[Report]:
    from referee.judge.diagnostics import not_checked_report, unreadable_report
    from referee.util.message import msg

    client = client_of(scheduler, min(timeout, 30.0))
    pending: deque = deque()
    paths = iter(paths)
    try:
        while True:
            while len(pending) < window:
                path = next(paths, None)
                if path is None:
                    break
                data, problem = _read(path)
                name = "<stdin>" if path == "-" else path
                future = None if data is None else client.submit(
                    check_remote, data, name, invariants, max_diagnostics, ruleset, pure=False)
                pending.append((name, future, problem))
            if not pending:
                return
            name, future, problem = pending.popleft()
            if future is None:
                yield unreadable_report(name, problem)
                continue
            try:
                yield future.result(timeout=timeout)
            except Exception as err:  # a worker's failure is this file's error, not the run's
                yield not_checked_report(name, msg("checking this file failed on the cluster: {error}",
                                                        error=repr(err)))
    finally:
        client.close()
