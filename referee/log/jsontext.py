"""JSON text: Python's ``json`` decoder made strict where a game record should be, and the
places of the values of a text it read.

:func:`loads` also refuses a member name twice, ``NaN``, a number longer than
:data:`MAX_NUMBER` characters, a lone surrogate and nesting deeper than :data:`MAX_DEPTH`;
:func:`pieces` reads a document a member at a time, so that a record's hands need not all be
held."""

from __future__ import annotations

import json
import re
from array import array
from bisect import bisect_right
from collections.abc import Iterator
from json.decoder import scanstring
from json.scanner import make_scanner

from referee.util.message import msg, msgn

__all__ = ["MAX_DEPTH", "MAX_NUMBER", "STRING", "JsonError", "Places", "Positions",
           "escape_pointer", "loads", "pieces", "refuse_deep"]

MAX_DEPTH = 32  # a game record nests six deep; anything far deeper is not a record
MAX_NUMBER = 40  # characters: no count or score in a game needs more

STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'  # a well-formed string
_BLANK = re.compile(r"[ \t\n\r]*")
# what comes before the next bracket that is not in a string, and that bracket (1), or the end
# of the text (blank; a string not closed goes on to it); possessive, so linear
_BRACKET = re.compile(r'(?:[^"\[\]{}]++|"(?:[^"\\]++|\\.)*+"?)*+([\[\]{}]|\Z)')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
# one escape: a high surrogate (1) and the low one after it (2), a lone low one (3), another
_ESCAPE = re.compile(r"\\(?:(u[dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?"
                     r"|(u[dD][c-fC-F][0-9a-fA-F]{2})|.)")


class JsonError(ValueError):
    """The text is not one well-formed JSON document; ``offset`` is where reading stopped."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    def __str__(self) -> str:
        return self.message  # itself: a Message keeps its template


def escape_pointer(token: str) -> str:
    """One reference token of a JSON pointer: ``~`` as ``~0``, ``/`` as ``~1``."""
    return token.replace("~", "~0").replace("/", "~1")


class _Refused(Exception):
    """What the strict decoder's hooks refuse: a name twice, NaN, a number too long."""


def _object(pairs: list[tuple[str, object]]) -> dict:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Refused
    return found


def _number(kind):
    def parse(text: str):
        if len(text) > MAX_NUMBER:
            raise _Refused
        return kind(text)

    return parse


def _constant(word: str):
    raise _Refused


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_int=_number(int),
                            parse_float=_number(float), parse_constant=_constant)
_SCAN = make_scanner(_DECODER)


def loads(text: str) -> object:
    """The JSON document in ``text``; raises :class:`JsonError`."""
    try:
        document = _DECODER.decode(text)
    except json.JSONDecodeError as err:
        raise _said(text, err) from None
    except (_Refused, RecursionError) as err:
        raise _refused(text, err, _BLANK.match(text).end(), 0) from None
    if _SURROGATE.search(text):
        _refuse_surrogates(text)
    return document


def pieces(text: str, spread: str) -> Iterator[tuple[str, int | None, object, int, int]]:
    """(name, None, value, start, end) of each member of the document, but for the items of a
    member ``spread`` whose value is an array: (name, index, item, start, end) each, then
    (name, None, [], start, end); refused as by :func:`loads`."""
    pos, seen = _BLANK.match(text, _BLANK.match(text).end() + 1).end(), set()
    closed = text.startswith("}", pos)
    pos += closed
    while not closed:
        name_at = _after(text, pos, '"', "Expecting property name enclosed in double quotes")
        try:
            name, pos = scanstring(text, name_at)
        except json.JSONDecodeError as err:
            raise _said(text, err) from None
        if name in seen:
            raise _fault(text, name_at - 1, _twice(name))
        seen.add(name)
        pos = _BLANK.match(text, _after(text, _BLANK.match(text, pos).end(), ":",
                                        "Expecting ':' delimiter")).end()
        if name == spread and text.startswith("[", pos):
            start, index, pos = pos, 0, _BLANK.match(text, pos + 1).end()
            done = text.startswith("]", pos)
            pos += done
            while not done:
                value, end = _scan(text, pos, 2)
                yield name, index, value, pos, end
                index, pos, done = index + 1, *_next(text, end, "]")
            yield name, None, [], start, pos
            end = pos
        else:
            value, end = _scan(text, pos, 1)
            yield name, None, value, pos, end
        pos, closed = _next(text, end, "}")
    if _BLANK.match(text, pos).end() != len(text):
        raise _said(text, json.JSONDecodeError("Extra data", text, _BLANK.match(text, pos).end()))
    if _SURROGATE.search(text):
        _refuse_surrogates(text)


def _after(text: str, pos: int, char: str, complaint: str) -> int:
    """The offset after ``char`` at ``pos``; else the decoder's ``complaint`` there."""
    if not text.startswith(char, pos):
        raise _said(text, json.JSONDecodeError(complaint, text, pos))
    return pos + 1


def _next(text: str, end: int, close: str) -> tuple[int, bool]:
    """Past the ',' after the value that ends at ``end`` (then the next one's offset, False),
    or past ``close`` (the offset after it, True)."""
    pos = _BLANK.match(text, end).end()
    if text.startswith(close, pos):
        return pos + 1, True
    return _BLANK.match(text, _after(text, pos, ",", "Expecting ',' delimiter")).end(), False


def _scan(text: str, pos: int, depth: int) -> tuple[object, int]:
    """The value at ``pos``, nested ``depth`` deep, and the offset after it."""
    try:
        return _SCAN(text, pos)
    except json.JSONDecodeError as err:
        raise _said(text, err) from None
    except StopIteration as err:  # its value is where, inside the value, one was expected
        raise _said(text, json.JSONDecodeError("Expecting value", text, err.value)) from None
    except (_Refused, RecursionError) as err:
        raise _refused(text, err, pos, depth) from None


def _said(text: str, err: json.JSONDecodeError) -> JsonError:
    return _fault(text, err.pos - (err.msg == "Invalid \\uXXXX escape"), _words(text, err))


def _refused(text: str, err: Exception, pos: int, depth: int) -> JsonError:
    """The JsonError of what the strict decoder refuses in the value at ``pos``."""
    if isinstance(err, RecursionError):
        refuse_deep(text)  # nesting hundreds deep is what exhausts the decoder's stack
    return _fault(text, *_blame(text, pos, depth))


def _twice(name: str) -> str:
    # TRANSLATORS: {name} is the member's name in quotes, as Python writes it
    return msg("the member name {name} appears twice in this object", name=repr(name))


def _fault(text: str, offset: int, message: str) -> JsonError:
    """The JsonError of the first fault: nesting too deep before ``offset``, else ``message``
    there."""
    refuse_deep(text, end=offset)
    return JsonError(message, offset)


def refuse_deep(text: str, start: int = 0, end: int | None = None, depth: int = 0
                ) -> list[str]:
    """Raises JsonError at the first bracket of ``text[start:end]`` (nested ``depth`` deep)
    nested deeper than MAX_DEPTH; else the brackets still open at its end."""
    opened: list[str] = []
    for match in _BRACKET.finditer(text, start, len(text) if end is None else end):
        bracket = match.group(1)
        if not bracket:
            break
        if bracket in "[{":
            opened.append(bracket)
            if depth + len(opened) > MAX_DEPTH:
                raise JsonError(_deep(), match.start(1))
        elif opened:
            opened.pop()
        else:
            depth -= 1  # one opened before start
    return opened


_SAID = {
    "Expecting property name enclosed in double quotes":
        lambda: msg("expected a member name in double quotes"),
    "Expecting ':' delimiter": lambda: msg("expected ':' after the member name"),
    "Unterminated string starting at": lambda: msg("the string is not closed"),
    "Invalid \\escape":
        lambda: msg("not a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
    "Invalid \\uXXXX escape": lambda: msg("\\u must be followed by four hexadecimal digits"),
    "Extra data": lambda: msg("text after the end of the document"),
}


def _words(text: str, err: json.JSONDecodeError) -> str:
    """The decoder's complaint in the project's words."""
    said = _SAID.get(err.msg)
    if said is not None:
        return said()
    if err.msg == "Invalid control character at":
        # TRANSLATORS: U+{code:04X} is the character's Unicode number (U+0009)
        return msg("a raw control character (U+{code:04X}) in a string; write it as an escape",
                   code=ord(text[err.pos]))
    if err.msg == "Expecting ',' delimiter":
        # TRANSLATORS: {close} is the bracket that ends it, } or ]
        return (msg("expected ',' or '{close}' in this object", close="}")
                if refuse_deep(text, end=err.pos)[-1:] == ["{"]
                else msg("expected ',' or '{close}' in this array", close="]"))
    if err.msg == "Expecting value" and _BLANK.match(text, err.pos).end() == len(text):
        return msg("the document ends where a value is expected")
    return _no_value()


def _deep() -> str:
    return msg("nested more than {depth} deep; a game record is far shallower", depth=MAX_DEPTH)


def _no_value() -> str:
    return msg("expected a value (an object, array, string, number, true, false or null)")


def _blame(text: str, pos: int, depth: int) -> tuple[int, str]:
    """The offset and words of the first fault the strict decoder finds in the value at
    ``pos`` (nested ``depth`` deep), in a text that is JSON up to it: the way down to it is
    read a member at a time, each member before it decoded whole."""
    while text.startswith(("{", "["), pos):
        depth += 1
        if depth > MAX_DEPTH:
            return pos, _deep()
        named, seen = text[pos] == "{", set()
        pos = _BLANK.match(text, pos + 1).end()
        while True:
            if named:
                name, after = scanstring(text, pos + 1)
                if name in seen:
                    return pos, _twice(name)
                seen.add(name)
                pos = _BLANK.match(text, text.index(":", after) + 1).end()
            try:
                end = _SCAN(text, pos)[1]
            except (_Refused, RecursionError):
                break  # the value at pos holds the fault
            pos = _BLANK.match(text, text.index(",", end) + 1).end()
    number = _NUMBER.match(text, pos)
    if number is None or number.end() - pos <= MAX_NUMBER:
        return pos, _no_value()  # NaN, Infinity
    length = number.end() - pos
    return pos, msgn("a number {n} character long; no value in a game record needs more than a "
                     "few digits", "a number {n} characters long; no value in a game record "
                     "needs more than a few digits", length, n=length)


def _refuse_surrogates(text: str) -> None:
    """Raises JsonError at the first escaped surrogate that is not one of a pair."""
    for match in _ESCAPE.finditer(text):
        if match.group(1) and not match.group(2):
            raise _fault(text, match.start(),
                         msg("a high surrogate escape must be followed by a low one"))
        if match.group(3):
            raise _fault(text, match.start(),
                         msg("a lone low surrogate escape is not a character"))


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
_SCALAR = r'[^\s,:\[\]{}"]+'
_TOKEN = re.compile(rf'({STRING})(?:[ \t\n\r]*:[ \t\n\r]*(?:({STRING}|{_SCALAR})|([\[{{])))?'
                    rf'|({_SCALAR})|([\[{{])|[\]}}]')


class Places:
    """Where each value of the well-formed JSON value at ``start``-``end`` is, by its index in
    document order: packed arrays of start and end offsets and of the index after its last
    descendant, so that no pointer per value is made."""

    __slots__ = ("after", "ends", "found", "starts")

    def __init__(self, text: str, start: int = 0, end: int | None = None) -> None:
        starts, ends, after, stack = array("q"), array("q"), array("q"), []
        add_start, add_end, add_after = starts.append, ends.append, after.append
        for m in _TOKEN.finditer(text, start, len(text) if end is None else end):
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
        self.found: dict[int, dict | list] = {}  # the children of each container looked into

    def members(self, index: int, value: dict) -> dict[str, int]:
        """Name -> index of each member of the object at ``index``, decoded as ``value``."""
        found, at, after = {}, index + 1, self.after
        for name in value:
            found[name] = at
            at = after[at]
        return found

    def items(self, index: int, count: int) -> list[int]:
        """The index of each of the ``count`` items of the array at ``index``."""
        found, at, after = [], index + 1, self.after
        for _ in range(count):
            found.append(at)
            at = after[at]
        return found

    def find(self, document: object, path) -> tuple[int, int]:
        """The start and end offsets of the value at ``path`` (keys and indices) of the
        decoded ``document``."""
        index, value = 0, document
        for step in path:
            children = self.found.get(index)
            if children is None:
                children = self.found[index] = (self.members(index, value) if isinstance(
                    value, dict) else self.items(index, len(value)))
            index, value = children[step], value[step]
        return self.starts[index], self.ends[index]
