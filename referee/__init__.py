"""referee: a rules-verification and referee toolkit for Cancellation Hearts."""

__version__ = "0.1.0"


def __getattr__(name: str):
    """``referee.Table`` and ``referee.IllegalAction``, imported when first asked for, so that
    ``import referee`` stays as light as the command's cold start needs."""
    if name in ("Table", "IllegalAction", "PositionError"):
        from referee.play import positions, table

        return getattr(table if name != "PositionError" else positions, name)
    raise AttributeError(f"module 'referee' has no attribute {name!r}")
