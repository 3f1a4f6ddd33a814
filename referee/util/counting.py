"""Counts in words: ``counted(1, "point")`` is "1 point", ``counted(2, "point")`` "2 points"."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and ``noun``, the noun plural unless the number is exactly one."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
