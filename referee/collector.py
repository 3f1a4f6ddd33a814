"""Pausing the cyclic garbage collector while one log is read, judged and proved.

The parser, the replay and the invariants each build many thousands of acyclic objects (events,
states, formula text) that stay alive until the log is done; a collection in the middle would
only rescan them (it tripled the parse time of a 3 MB log).  Reference counting still frees
everything as usual, and the collector resumes as it was when the log is done.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
