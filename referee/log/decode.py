"""This module decodes bytes into the text of a log (UTF-8 only, BOM stripped, line ends turned
into LF), and finds the lines of a text by the offsets where they start."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from functools import cached_property

from referee.util.message import msg

__all__ = ["Lines", "UnreadableLog", "decode_log", "normalise"]

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_UTF8_BOM = b"\xef\xbb\xbf"
_SHOWN_BEFORE = 4096  # longest start of an undecodable line that is shown at all
_SHOWN_AFTER = 120  # bytes of an undecodable line kept after its first bad byte, to show it


class UnreadableLog(Exception):
    """UnreadableLog says that the input cannot be read as a log at all (binary, not UTF-8,
    empty, nothing log-like)."""

    def __init__(self, message: str, line: int = 1, column: int = 1, shown_line: str = ""):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.shown_line = shown_line  # the offending line, an undecodable byte as U+FFFD

    def __str__(self) -> str:
        return self.message  # itself: a Message keeps its template (str(err) would copy it)


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """Return the 1-based line and character column of byte ``offset`` (the bytes before it are
    UTF-8)."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
    return line, column


def _shown_line(data: bytes, offset: int) -> str:
    """Show the line of byte ``offset`` as text, each byte that is not UTF-8 as one U+FFFD (the
    caret stays under it), cut a little past that byte (a binary file may be one line)."""
    start = data.rfind(b"\n", 0, offset) + 1
    if offset - start > _SHOWN_BEFORE:
        return ""  # the excerpt is cut around the column, but would need the whole line first
    end = data.find(b"\n", offset, offset + _SHOWN_AFTER)
    end = offset + _SHOWN_AFTER if end < 0 else end
    return data[start:end].decode("utf-8", errors="replace").replace("\r", " ")


def decode_log(data: bytes) -> str:
    """Decode UTF-8 bytes into text; raise UnreadableLog (at the first offending byte) for a
    binary file, UTF-16 text or invalid UTF-8."""
    if data.startswith(_UTF16_BOMS):
        raise UnreadableLog(msg("the file is UTF-16 text; save the log as UTF-8"), 1, 1)
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM):]
    nul = data.find(b"\x00")
    if nul >= 0:
        line, column = _position(data, nul)
        raise UnreadableLog(msg("this is a binary file, not a text log (it contains NUL bytes)"),
                            line, column, _shown_line(data, nul))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, column = _position(data, err.start)
        # TRANSLATORS: 0x{byte:02x} is the first byte that is not UTF-8, in hexadecimal (0xff)
        raise UnreadableLog(msg("the file is not UTF-8 text: byte 0x{byte:02x} cannot be read; "
                                "save the log as UTF-8", byte=data[err.start]), line, column,
                            _shown_line(data, err.start)) from None
    return normalise(text)


def normalise(text: str) -> str:
    """Remove a BOM at the start, and turn CRLF and CR into LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


class Lines:
    """Lines gives the lines of ``text`` as ``text.split("\\n")`` gives them, without holding
    them: it holds the offsets of the line starts only, found when first asked for."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def starts(self) -> array:
        # packed: a list of ints would cost 36 bytes a line, more than a short line itself
        text, starts = self.text, array("q", [0])
        at = text.find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = text.find("\n", at + 1)
        return starts

    def line(self, number: int) -> str:
        """Return line ``number`` (from 1), or "" when the text has no such line."""
        starts = self.starts
        if not 0 < number <= len(starts):
            return ""
        return self.text[starts[number - 1]:starts[number] - 1 if number < len(starts) else None]

    def at(self, offset: int) -> tuple[int, int]:
        """Return the 1-based (line, column) of an offset."""
        index = bisect_right(self.starts, offset) - 1
        return index + 1, offset - self.starts[index] + 1

    def offset(self, line: int, column: int) -> int:
        """Return the offset of 1-based (line, column); -1 for a line the text does not have."""
        starts = self.starts
        return starts[line - 1] + column - 1 if 1 <= line <= len(starts) else -1
