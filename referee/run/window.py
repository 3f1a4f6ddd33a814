"""A window of submitted jobs whose results are taken as they finish (``referee match``, here
and on a Dask cluster)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice


def finished_in_window(items: Iterable, submit: Callable, done: Callable,
                       window: int) -> Iterator[tuple[int, object]]:
    """Yield (index, result) for each of ``items`` as its job finishes, where the result is
    what the job returned or the exception it raised.  ``submit(item)`` starts a job and
    returns its future; at most ``window`` jobs are pending at a time.  ``done(futures)``
    returns those of the pending futures that have finished (it may wait; a caller that polls
    returns none, and may raise to stop).  The jobs still pending when the iteration ends are
    cancelled."""
    upcoming = enumerate(items)
    pending: dict = {}

    def top_up() -> None:
        for index, item in islice(upcoming, max(0, window - len(pending))):
            pending[submit(item)] = index

    try:
        top_up()
        while pending:
            for future in done(list(pending)):
                index = pending.pop(future)
                try:
                    yield index, future.result()
                except Exception as err:  # the job's fault, not the run's
                    yield index, err
                top_up()
    finally:
        for future in pending:
            future.cancel()
