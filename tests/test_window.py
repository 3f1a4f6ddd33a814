"""The window of ``referee match``'s games: at most ``window`` pending, every result (or the
exception) with its index, the pending jobs cancelled when the iteration stops."""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

import pytest

from referee.run.cmd_match import finished_in_window


def test_every_item_comes_back_with_its_index_and_no_more_than_the_window_is_pending():
    submitted, taken, most = [], [], 0

    def job(item: int) -> int:
        if item == 3:
            raise ValueError("three")
        return item * item

    def first_done(futures):
        return wait(futures, return_when=FIRST_COMPLETED).done

    with ThreadPoolExecutor(max_workers=2) as pool:
        def submit(item):
            submitted.append(item)
            return pool.submit(job, item)

        for index, outcome in finished_in_window(range(10), submit, first_done, 3):
            most = max(most, len(submitted) - len(taken))
            taken.append((index, outcome))
    assert most == 3
    assert sorted(index for index, _ in taken) == list(range(10))
    outcomes = dict(taken)
    assert isinstance(outcomes.pop(3), ValueError)
    assert outcomes == {i: i * i for i in range(10) if i != 3}


def _unstarted(futures: list[Future]):
    """A ``submit`` whose jobs never start: each is a new future, kept in ``futures``."""
    def submit(item) -> Future:
        futures.append(Future())
        return futures[-1]
    return submit


def test_stopping_early_cancels_what_is_pending():
    futures: list[Future] = []

    def done(pending):
        pending[0].set_result("first")
        return pending[:1]

    games = finished_in_window("abcde", _unstarted(futures), done, 3)
    assert next(games) == (0, "first")
    games.close()
    assert [f.cancelled() for f in futures] == [False, True, True]  # "d" and "e" never started


def test_a_poll_that_raises_stops_the_iteration_and_cancels_the_jobs():
    futures: list[Future] = []

    def done(pending):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        list(finished_in_window(range(5), _unstarted(futures), done, 2))
    assert len(futures) == 2 and all(f.cancelled() for f in futures)
