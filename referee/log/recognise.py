"""This module tells which reader a file's text is for; it is kept apart so that reading a log
does not import the JSON reader."""

from __future__ import annotations

__all__ = ["looks_like_record"]


def looks_like_record(text: str) -> bool:
    """Tell whether the first non-blank character is ``{``: a JSON game record, not a log (no
    statement of a log starts with a brace)."""
    return text.lstrip().startswith("{")
