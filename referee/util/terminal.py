"""This module readies text for a terminal: what a file wrote (a name, a key, a path) is shown
with its control characters escaped, so that no file can send the terminal an escape sequence."""

from __future__ import annotations

from collections.abc import Callable


def escaped(text: str) -> str:
    """Escape ``text`` so that it may safely reach a terminal: every unprintable character but
    a space (controls, separators, bidirectional overrides) shown as ``\\x1b``, ``\\u2028``."""
    if text.isprintable():  # the usual case
        return text
    return "".join(map(_escaped_char, text))


def escaped_values(value):
    """Escape every string in the JSON-able ``value``, member names included, with
    :func:`escaped`, as the text output shows it: a JSON reader would turn an escaped control
    back into the control, and a lone surrogate could not be written as UTF-8 at all."""
    if isinstance(value, str):
        return escaped(value)
    if isinstance(value, dict):
        return {escaped(k) if isinstance(k, str) else k: escaped_values(v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [escaped_values(item) for item in value]
    return value


def _escaped_char(char: str) -> str:
    if char.isprintable():
        return char
    import unicodedata

    if unicodedata.category(char) == "Zs":
        return char
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def shown_to(stream) -> Callable[[str], str]:
    """Say how whole lines of a file are to be written to ``stream``: as they are to a file or
    a pipe, each line :func:`escaped` to a terminal (as ``ls`` shows a name)."""
    isatty = getattr(stream, "isatty", None)
    return _escaped_lines if isatty is not None and isatty() else str


def _escaped_lines(text: str) -> str:
    return text if text.isprintable() else "\n".join(map(escaped, text.split("\n")))
