"""Counts in words: ``counted(1, "point")`` is "1 point", ``counted(2, "point")`` "2 points"."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and ``noun``, the noun plural unless the number is exactly one."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def whole_number(text: str, max_digits: int) -> int | None:
    """``text`` as a whole number when it is 1 to ``max_digits`` ASCII digits, else None.
    (``str.isdigit`` also accepts digits like "²" that ``int`` refuses.)"""
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None
