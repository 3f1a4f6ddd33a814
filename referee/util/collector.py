"""Pausing the cyclic garbage collector while one log is read, judged and proved.

The parser, the replay and the invariants each build many thousands of acyclic objects (events,
states, formula text) that stay alive until the log is done; a collection in the middle would
only rescan them (it tripled the parse time of a 3 MB log).  Reference counting still frees
everything as usual.

The collector is one switch for the whole process, and logs may be checked in several threads
(a Dask worker, a library user): the pauses are counted, the first one remembers whether the
collector was running, and the last one to end turns it back on.

What a pause leaves alive the next collection would rescan (a tenth of reading a log): the
last pause to end moves it to the oldest generation (``gc.freeze``, ``gc.unfreeze``), which
only full collections scan; not while objects are frozen (``unfreeze`` would release them).
"""

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
                if not gc.get_freeze_count():
                    gc.freeze()  # (which also starts the youngest generation's count afresh)
                    gc.unfreeze()
                gc.enable()
