"""Text on its way to a terminal: what a file wrote (a name, a key, a path) is shown with its
control characters escaped, so that no file can send the terminal an escape sequence."""

from __future__ import annotations

__all__ = ["escaped"]


def escaped(text: str) -> str:
    """``text`` as it may safely reach a terminal: controls (ESC starts terminal escape
    sequences), line and paragraph separators, invisible format characters (bidirectional
    overrides reorder what a reader sees) and other unprintable characters are shown as
    ``\\x1b``, ``\\u2028``; spaces, including the non-ASCII ones, stay."""
    if text.isprintable():  # the usual case
        return text
    return "".join(map(_escaped_char, text))


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


def as_shown(text: str, stream) -> str:
    """``text`` (whole lines: a log, a record) as it is to be written to ``stream``: as it is,
    byte for byte, to a file or a pipe; to a terminal each line :func:`escaped`, as ``ls``
    shows a name with control characters, so that what a file holds cannot drive the
    terminal."""
    isatty = getattr(stream, "isatty", None)
    if isatty is None or not isatty() or text.isprintable():
        return text
    return "\n".join(map(escaped, text.split("\n")))
