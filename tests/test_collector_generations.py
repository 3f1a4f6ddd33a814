"""What the collector pause leaves behind: garbage cycles that the collector still frees by
itself, so that a process that checks log after log does not grow."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from referee.run.single import check_text
from referee.util.collector import collector_paused

LOG = (Path(__file__).resolve().parent.parent / "examples" / "logs" / "revoke.log").read_text()


class _Node:
    pass


def test_the_callers_garbage_cycles_are_freed_between_checks_without_a_call_to_collect():
    assert gc.isenabled()
    gone = []
    for _ in range(30):
        node = _Node()
        node.me = node  # a cycle that only the collector can free
        gone.append(weakref.ref(node))
        del node
        check_text(LOG)
    kept = [[] for _ in range(5000)]  # allocations that let the collector run, as a program's do
    assert sum(ref() is not None for ref in gone) <= 1
    assert kept


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


def test_report_after_report_the_objects_kept_do_not_grow():
    from referee.serve.checkers import report

    data = (Path(__file__).resolve().parent.parent / "examples" / "logs" /
            "clean-8-players.log").read_bytes()
    for _ in range(10):
        report(data, "en", "")
    before = len(gc.get_objects())
    for _ in range(30):  # each page's template leaves garbage cycles holding the whole game
        report(data, "en", "")
    assert len(gc.get_objects()) - before < 20_000  # 30 pages' cycles would be about 900,000
