"""The collector pause: nested and concurrent pauses leave the collector as they found it."""

from __future__ import annotations

import gc
import threading

from referee.util.collector import collector_paused


def test_nested_pauses_restore_the_collector_once_the_outer_one_ends():
    assert gc.isenabled()
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_pause_leaves_a_collector_that_was_off_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_overlapping_pauses_in_threads_hold_until_the_last_one_ends():
    # A enters, B enters, A leaves, B leaves: B's pause must hold after A's has ended, and the
    # collector must run again after both
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen_after_a = []

    def first():
        with collector_paused():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def second():
        a_in.wait(5)
        with collector_paused():
            b_in.set()
            a_out.wait(5)
            seen_after_a.append(gc.isenabled())

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen_after_a == [False]
    assert gc.isenabled()
