"""referee: a rules-verification and referee toolkit for Cancellation Hearts.

``referee.check(path)`` checks a log and returns its report (:func:`referee.run.single.check`).
"""

import importlib
import types

__version__ = "0.1.0"


_HOMES = {
    "check_path": "referee.run.single", "check_text": "referee.run.single",
    "check_bytes": "referee.run.single", "check_parsed": "referee.run.single",
    "Table": "referee.play.table", "IllegalAction": "referee.play.table",
    "PositionError": "referee.play.positions",
}
__all__ = ["__version__", "check", *_HOMES]


class _CheckPackage(types.ModuleType):
    """The type of the package :mod:`referee.check`, which holds the referee's code and is
    called to check a log: the name ``referee.check`` is the package's, so the entry point is
    the package itself."""

    def __call__(self, path=None, **options):
        return importlib.import_module("referee.run.single").check(path, **options)

    __call__.__doc__ = "Check one log and return its report: see referee.run.single.check."


# imported by name: the package's root sits above every layer, not inside them
importlib.import_module("referee.check").__class__ = _CheckPackage


def __getattr__(name: str):
    """The public names (``referee.Table``, ``referee.check_text``, ...), each imported when first
    asked for, so that ``import referee`` stays as light as the command's cold start needs."""
    home = _HOMES.get(name)
    if home is not None:
        return getattr(importlib.import_module(home), name)
    raise AttributeError(f"module 'referee' has no attribute {name!r}")
