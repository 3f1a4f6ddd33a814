"""JSON text -> Python values, with the place of every value (Python's json module gives none).

:func:`decode` returns the document and a table from each value's JSON pointer (RFC 6901,
``/hands/2/tricks/4``) to its start and end offsets in the text.  It is strict where a record
should be (a duplicate key, a lone surrogate escape or text after the document is an error,
not something to guess about) and safe on hostile input: linear in the text (each character
is looked at a bounded number of times; strings and numbers are matched by regular
expressions without backtracking), nesting deeper than :data:`MAX_DEPTH` is refused before it
can exhaust the stack, and numbers longer than :data:`MAX_NUMBER` characters are refused
before ``int`` or ``float`` sees them.  Every failure is a :class:`JsonError` with an offset.

:class:`Places` finds the places again, fast, in text already known to be well-formed (that
the C ``json`` decoder read): packed offsets by each value's index, no pointer per value.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Container

from referee.util.message import msg, msgn

__all__ = ["MAX_DEPTH", "MAX_NUMBER", "STRING", "JsonError", "NotPlain", "Places", "Positions",
           "Reader", "decode", "decode_at", "escape_pointer"]

MAX_DEPTH = 32  # a game record nests six deep; anything far deeper is not a record
MAX_NUMBER = 40  # characters: no count or score in a game needs more

_BLANK = re.compile(r"[ \t\n\r]*")
_PLAIN = re.compile(r'[^"\\\x00-\x1f]*')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_LITERALS = (("true", True), ("false", False), ("null", None))


class JsonError(ValueError):
    """The text is not one well-formed JSON document; ``offset`` is where reading stopped."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    def __str__(self) -> str:
        return self.message  # itself: a Message keeps its template


class NotPlain(Exception):
    """What the fast reading cannot be sure of (a member name twice in an object, say): the
    text is for :func:`decode`, which says exactly what is wrong, if anything."""


def escape_pointer(token: str) -> str:
    """One reference token of a JSON pointer: ``~`` as ``~0``, ``/`` as ``~1``."""
    return token.replace("~", "~0").replace("/", "~1")


def _lone_high() -> str:
    return msg("a high surrogate escape must be followed by a low one")


class Positions:
    """Offsets -> 1-based (line, column), columns in characters, from one scan of the text."""

    __slots__ = ("_starts",)

    def __init__(self, text: str) -> None:
        # packed: a list of ints would cost 36 bytes a line, more than a short line itself
        self._starts = array("q", [0])
        self._starts.extend(m.end() for m in re.finditer("\n", text))

    @property
    def starts(self) -> array:
        """The offset where each line starts (the first line's, 0, at index 0)."""
        return self._starts

    def at(self, offset: int) -> tuple[int, int]:
        index = bisect_right(self._starts, offset) - 1
        return index + 1, offset - self._starts[index] + 1

    def offset(self, line: int, column: int) -> int:
        """The offset of 1-based (line, column); -1 for a line the text does not have."""
        return self._starts[line - 1] + column - 1 if 1 <= line <= len(self._starts) else -1


# One token of JSON text already known to be well-formed: a string (group 1), which may be
# the name of a member whose value follows, a scalar (2) or an opening bracket (3); another
# scalar (4), an opening bracket (5); else a closing bracket.  (The name is matched once.)
STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'  # a well-formed string
_SCALAR = r'[^\s,:\[\]{}"]+'
_TOKEN = re.compile(rf'({STRING})(?:[ \t\n\r]*:[ \t\n\r]*(?:({STRING}|{_SCALAR})|([\[{{])))?'
                    rf'|({_SCALAR})|([\[{{])|[\]}}]')


class Places:
    """Where each value of one well-formed JSON value of a text is, by its index in document
    order (the value itself 0, then its members and items, depth first): packed arrays of its
    start and end offsets and of the index after its last descendant (``after``), so that
    the members of an object follow from its decoded keys without a pointer per value."""

    __slots__ = ("after", "ends", "starts")

    def __init__(self, text: str, start: int, end: int) -> None:
        starts, ends, after, stack = array("q"), array("q"), array("q"), []
        add_start, add_end, add_after = starts.append, ends.append, after.append
        for m in _TOKEN.finditer(text, start, end):
            kind = m.lastindex
            if kind is None:
                index = stack.pop()
                ends[index] = m.end()
                after[index] = len(starts)
            elif kind == 3 or kind == 5:
                stack.append(len(starts))
                add_start(m.start(kind))
                add_end(0)
                add_after(0)
            else:
                add_after(len(starts) + 1)
                add_start(m.start(kind))
                add_end(m.end(kind))
        self.starts, self.ends, self.after = starts, ends, after

    def members(self, index: int, value: dict) -> dict[str, int]:
        """Name -> index of each member of the object at ``index``, decoded as ``value``."""
        found, at, after = {}, index + 1, self.after
        for name in value:
            found[name] = at
            at = after[at]
        if at != after[index]:  # fewer members decoded than written: a name given twice
            raise NotPlain
        return found

    def items(self, index: int, count: int) -> list[int]:
        """The index of each of the ``count`` items of the array at ``index``."""
        found, at, after = [], index + 1, self.after
        for _ in range(count):
            found.append(at)
            at = after[at]
        return found


class Reader:
    """One decoding: the text, the place table being filled, the offset reached.  Its steps
    (:meth:`opened`, :meth:`name`, :meth:`separator`, :meth:`end`) read the structure of a
    document whose values someone else reads, with the same errors at the same places."""

    __slots__ = ("pos", "text", "where")

    def __init__(self, text: str) -> None:
        self.text = text
        self.where: dict[str, tuple[int, int]] = {}
        self.pos = 0

    def blank(self) -> None:
        self.pos = _BLANK.match(self.text, self.pos).end()

    def value(self, pointer: str, depth: int):
        self.blank()
        start = self.pos
        if start >= len(self.text):
            raise JsonError(msg("the document ends where a value is expected"), start)
        char = self.text[start]
        if char == "{" or char == "[":
            if depth >= MAX_DEPTH:
                raise JsonError(msg("nested more than {depth} deep; a game record is far "
                                    "shallower", depth=MAX_DEPTH), start)
            result = self.members(pointer, depth) if char == "{" else self.items(pointer, depth)
        elif char == '"':
            result = self.string()
        else:
            result = self.scalar()
        self.where[pointer] = (start, self.pos)
        return result

    def members(self, pointer: str, depth: int) -> dict:
        result: dict = {}
        if self.opened("}"):
            return result
        while True:
            key = self.name(result)
            result[key] = self.value(pointer + "/" + escape_pointer(key), depth + 1)
            if self.separator("}"):
                return result

    def name(self, seen: Container[str]) -> str:
        """The name of the member at the offset reached (after blanks), one not in ``seen``,
        and past the ':' that follows it."""
        text = self.text
        self.blank()
        key_start = self.pos
        if not text.startswith('"', key_start):
            raise JsonError(msg("expected a member name in double quotes"), key_start)
        key = self.string()
        if key in seen:
            # TRANSLATORS: {name} is the member's name in quotes, as Python writes it
            raise JsonError(msg("the member name {name} appears twice in this object",
                                name=repr(key)), key_start)
        self.blank()
        if not text.startswith(":", self.pos):
            raise JsonError(msg("expected ':' after the member name"), self.pos)
        self.pos += 1
        return key

    def items(self, pointer: str, depth: int) -> list:
        result: list = []
        if self.opened("]"):
            return result
        while True:
            result.append(self.value(f"{pointer}/{len(result)}", depth + 1))
            if self.separator("]"):
                return result

    def opened(self, close: str) -> bool:
        """Past the opening bracket at the offset reached; True, past ``close`` too, when
        nothing is between them but blanks."""
        self.pos += 1
        self.blank()
        if self.text.startswith(close, self.pos):
            self.pos += 1
            return True
        return False

    def end(self) -> None:
        """Nothing but blanks may follow the document."""
        self.blank()
        if self.pos < len(self.text):
            raise JsonError(msg("text after the end of the document"), self.pos)

    def separator(self, close: str) -> bool:
        """Past a ',' (False: another member follows) or the closing bracket (True)."""
        self.blank()
        char = self.text[self.pos:self.pos + 1]
        self.pos += 1
        if char == close:
            return True
        if char == ",":
            return False
        # TRANSLATORS: {close} is the bracket that ends it, } or ]
        raise JsonError(msg("expected ',' or '{close}' in this object", close=close)
                        if close == "}" else
                        msg("expected ',' or '{close}' in this array", close=close), self.pos - 1)

    def string(self) -> str:
        text = self.text
        pos = self.pos + 1
        parts = []
        while True:
            end = _PLAIN.match(text, pos).end()
            parts.append(text[pos:end])
            pos = end
            char = text[pos:pos + 1]
            if char == '"':
                self.pos = pos + 1
                return "".join(parts)
            if char == "\\":
                char, pos = self.escape(pos)
                parts.append(char)
            elif not char:
                raise JsonError(msg("the string is not closed"), self.pos)
            else:
                # TRANSLATORS: U+{code:04X} is the character's Unicode number (U+0009)
                raise JsonError(msg("a raw control character (U+{code:04X}) in a string; "
                                    "write it as an escape", code=ord(char)), pos)

    def escape(self, pos: int) -> tuple[str, int]:
        """The character of the escape at ``pos`` (its backslash) and the offset after it."""
        text = self.text
        kind = text[pos + 1:pos + 2]
        if kind in _ESCAPES:
            return _ESCAPES[kind], pos + 2
        if kind != "u":
            raise JsonError(msg("not a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
                            pos)
        code = self.hex4(pos)
        if 0xDC00 <= code <= 0xDFFF:
            raise JsonError(msg("a lone low surrogate escape is not a character"), pos)
        if 0xD800 <= code <= 0xDBFF:
            if text[pos + 6:pos + 8] != "\\u":
                raise JsonError(_lone_high(), pos)
            low = self.hex4(pos + 6)
            if not 0xDC00 <= low <= 0xDFFF:
                raise JsonError(_lone_high(), pos)
            return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)), pos + 12
        return chr(code), pos + 6

    def hex4(self, pos: int) -> int:
        match = _HEX4.match(self.text, pos + 2)
        if match is None:
            raise JsonError(msg("\\u must be followed by four hexadecimal digits"), pos)
        return int(match.group(), 16)

    def scalar(self):
        text, start = self.text, self.pos
        for word, value in _LITERALS:
            if text.startswith(word, start):
                self.pos = start + len(word)
                return value
        match = _NUMBER.match(text, start)
        if match is None or match.end() == start:
            raise JsonError(msg("expected a value (an object, array, string, number, true, "
                                "false or null)"), start)
        number = match.group()
        if len(number) > MAX_NUMBER:
            length = len(number)
            raise JsonError(msgn("a number {n} character long; no value in a game record needs "
                                 "more than a few digits", "a number {n} characters long; no "
                                 "value in a game record needs more than a few digits", length,
                                 n=length), start)
        self.pos = match.end()
        if number.isdigit() or (number[0] == "-" and number[1:].isdigit()):
            return int(number)
        return float(number)


def decode_at(text: str, start: int, pointer: str, depth: int
              ) -> tuple[object, dict[str, tuple[int, int]]]:
    """The value at offset ``start`` of ``text`` (nested ``depth`` deep, its pointer
    ``pointer``) and the place of each of its values, as :func:`decode` gives them."""
    reader = Reader(text)
    reader.pos = start
    return reader.value(pointer, depth), reader.where


def decode(text: str) -> tuple[object, dict[str, tuple[int, int]]]:
    """The document in ``text`` and, for each of its values, pointer -> (start, end) offsets.

    The whole document's pointer is ``""``.  Raises :class:`JsonError`."""
    reader = Reader(text)
    document = reader.value("", 0)
    reader.end()
    return document, reader.where
