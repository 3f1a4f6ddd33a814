"""This module pauses the cyclic garbage collector while one log is read, judged and proved.

A collection in the middle would only rescan the many acyclic objects a check keeps until the
log is done (it tripled the parse time of a 3 MB log); reference counting still frees them.
The pauses of several threads are counted: the last to end turns the collector back on and
leaves what the pause kept alive to its usual generations.  Moving that to the oldest one
(``gc.freeze``, ``gc.unfreeze``) would spare a rescan, but it resets the counts that bring a full
collection: a process that checks log after log (a server, a test suite) would never free a
garbage cycle again."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_pauses = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    global _pauses, _was_enabled
    with _LOCK:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _LOCK:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()
