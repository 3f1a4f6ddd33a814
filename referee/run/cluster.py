"""This module checks files on an existing Dask cluster (optional extra ``referee[dask]``).

Workers need not see this machine's files: each file is read here and its bytes are sent,
because checking is a pure function of (bytes, name).  The worker has no folder of the log's to
read a ruleset file from: only a bundled ruleset a log names, or ``ruleset``, is used.  At most
``window`` files are in flight and reports come back in input order, as with ``--jobs``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from referee.judge.diagnostics import Report, not_checked_report, unreadable_report
from referee.judge.table import DEFAULT_MAX_DIAGNOSTICS
from referee.rules.ruleset import Ruleset


class ClusterUnavailable(RuntimeError):
    """A ClusterUnavailable says that there is no Dask cluster to check on (the extra is not
    installed, or the scheduler is unreachable)."""


def client_of(scheduler: str, timeout: float = 30.0):
    """Connect a client to the Dask scheduler at ``scheduler`` (ClusterUnavailable when there
    is none)."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterUnavailable(
            "--scheduler needs the dask extra: pip install 'referee[dask]'") from None
    try:
        return Client(scheduler, timeout=timeout)
    except (OSError, ValueError, TimeoutError) as err:
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None


def check_on_cluster(paths: Iterable[str], scheduler: str, *, invariants: bool = False,
                     window: int = 64, timeout: float = 120.0,
                     max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS,
                     ruleset: Ruleset | None = None) -> Iterator[Report]:
    from referee.run.bulk import in_order
    from referee.run.single import check_bytes
    from referee.util.message import msg
    from referee.util.reading import UnreadableFile, read_input

    client = client_of(scheduler, min(timeout, 30.0))

    def submit(path: str):
        try:
            data = read_input(path)
        except UnreadableFile as err:
            return unreadable_report(_name(path), str(err))
        return client.submit(check_bytes, data, _name(path), invariants=invariants,
                             max_diagnostics=max_diagnostics, ruleset=ruleset, pure=False)

    try:
        for path, future in in_order(paths, submit, window):
            if isinstance(future, Report):
                yield future
                continue
            try:
                yield future.result(timeout=timeout)
            except Exception as err:  # a worker's failure is this file's error, not the run's
                yield not_checked_report(_name(path), msg(
                    "checking this file failed on the cluster: {error}", error=repr(err)))
    finally:
        client.close()


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path
