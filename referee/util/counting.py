"""This module reads whole numbers from text within a digit limit."""

from __future__ import annotations


def whole_number(text: str, max_digits: int) -> int | None:
    """Read ``text`` as a whole number when it is 1 to ``max_digits`` ASCII digits, else None.
    (``str.isdigit`` also accepts digits like "²" that ``int`` refuses.)"""
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None
