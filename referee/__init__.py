"""The referee package is a rules-verification and referee toolkit for Cancellation Hearts.

``referee.check(path)`` checks a log and returns its report (:func:`referee.run.single.check`).
"""

import importlib

__version__ = "0.1.0"


_HOMES = {
    "check": "referee.run.single",
    **dict.fromkeys(("Table", "IllegalAction", "PositionError"), "referee.play.table"),
}
__all__ = ["__version__", *_HOMES]


def __getattr__(name: str):
    """Import a public name (``referee.check``, ``referee.Table``, ...) when it is first asked
    for, so that ``import referee`` stays as light as the command's cold start needs."""
    home = _HOMES.get(name)
    if home is not None:
        return getattr(importlib.import_module(home), name)
    raise AttributeError(f"module 'referee' has no attribute {name!r}")
