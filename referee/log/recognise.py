"""Which reader a file's text is for: a JSON game record or a written log.

Kept apart from :mod:`referee.log.jsonrecord` so that reading a log, the usual case, does not
import the JSON reader (and its decoder and schema) just to learn that it is not needed.
"""

from __future__ import annotations

__all__ = ["looks_like_record"]


def looks_like_record(text: str) -> bool:
    """True when the first non-blank character is ``{``: a JSON game record, not a log (no
    statement of a log starts with a brace)."""
    return text.lstrip().startswith("{")
