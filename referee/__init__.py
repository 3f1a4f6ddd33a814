"""referee: a rules-verification and referee toolkit for Cancellation Hearts."""

import importlib

__version__ = "0.1.0"


def __getattr__(name: str):
    """``referee.Table`` and ``referee.IllegalAction``, imported when first asked for, so that
    ``import referee`` stays as light as the command's cold start needs."""
    homes = {"Table": "table", "IllegalAction": "table", "PositionError": "positions"}
    if name in homes:
        # imported by name: the package's root sits above every layer, not inside them
        return getattr(importlib.import_module(f"referee.play.{homes[name]}"), name)
    raise AttributeError(f"module 'referee' has no attribute {name!r}")
