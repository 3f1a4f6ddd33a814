"""Text on its way to a terminal: what a file wrote (a name, a key, a path) is shown with its
control characters escaped, so that no file can send the terminal an escape sequence."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["escaped", "escaped_values", "shown_to"]


def escaped(text: str) -> str:
    """``text`` as it may safely reach a terminal: controls (ESC starts terminal escape
    sequences), line and paragraph separators, invisible format characters (bidirectional
    overrides reorder what a reader sees) and other unprintable characters are shown as
    ``\\x1b``, ``\\u2028``; spaces, including the non-ASCII ones, stay."""
    if text.isprintable():  # the usual case
        return text
    return "".join(map(_escaped_char, text))


def escaped_values(value):
    """A JSON-able ``value`` with every string in it, member names included, :func:`escaped`:
    what JSON, JSON lines and SARIF output say of a name, a message or a path, as the text
    output shows it.  JSON would write a C0 control as an escape that any reader turns back
    into the control, and the rest (U+202E, U+2028, C1) as they are; a name that is not
    UTF-8 (its bytes held as lone surrogates) could not be written as UTF-8 at all."""
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
    """How whole lines of a file (a log, a record) are to be written to ``stream``: as they
    are, byte for byte, to a file or a pipe; to a terminal each line :func:`escaped`, as
    ``ls`` shows a name with control characters, so that what a file holds cannot drive the
    terminal.  (The stream is asked once, not for each piece written.)"""
    isatty = getattr(stream, "isatty", None)
    return _escaped_lines if isatty is not None and isatty() else _as_it_is


def _as_it_is(text: str) -> str:
    return text


def _escaped_lines(text: str) -> str:
    return text if text.isprintable() else "\n".join(map(escaped, text.split("\n")))
