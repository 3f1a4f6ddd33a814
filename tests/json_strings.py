"""Every string of a decoded JSON document, member names included: what an escaping test reads."""

from __future__ import annotations


def strings_in(value):
    """Yield each string in ``value`` (a decoded JSON document), member names included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
