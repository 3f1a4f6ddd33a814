"""What the collector pause leaves behind: the objects it made in the oldest generation,
unscanned until a full collection, and garbage cycles still found by one."""

from __future__ import annotations

import gc
import weakref

from referee.util.collector import collector_paused


class _Node:
    pass


def test_what_a_pause_made_waits_in_the_oldest_generation():
    with collector_paused():
        made = [_Node() for _ in range(2000)]
        assert gc.get_count()[0] >= 2000
    assert gc.get_count()[0] < 100  # no young objects left for the next collection to scan
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(node) in oldest for node in made)


def test_a_cycle_made_in_a_pause_is_still_collected():
    with collector_paused():
        node = _Node()
        node.me = node  # a cycle that reference counting cannot free
        gone = weakref.ref(node)
        del node
    assert gone() is not None
    gc.collect()
    assert gone() is None


def test_objects_frozen_by_someone_else_stay_frozen():
    kept = [_Node() for _ in range(10)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            made = _Node()
        assert gc.get_freeze_count() == frozen and gc.isenabled()
        assert made is not None and kept
    finally:
        gc.unfreeze()
