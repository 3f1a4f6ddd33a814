"""This module reads JSON text with Python's ``json`` decoder made strict (:func:`loads` also
refuses a member name twice, ``NaN``, a number past :data:`MAX_NUMBER` characters, a lone
surrogate and nesting past :data:`MAX_DEPTH`), and finds the places of the values of a text it
read when asked for."""

from __future__ import annotations

import json
import re
from json.decoder import scanstring
from json.scanner import make_scanner

from referee.log.decode import Lines
from referee.log.events import Span
from referee.util.message import msg, msgn

__all__ = ["BLANK", "CHECK", "MAX_DEPTH", "MAX_NUMBER", "STRICT", "JsonError", "Places", "loads",
           "members", "pointer", "refuse_deep"]

MAX_DEPTH = 32  # a game record nests six deep; anything far deeper is not a record
MAX_NUMBER = 40  # characters: no count or score in a game needs more

BLANK = re.compile(r"[ \t\n\r]*")
# what comes before the next bracket that is not in a string, and that bracket (1), or the end
# of the text (blank; a string not closed goes on to it); possessive, so linear
_BRACKET = re.compile(r'(?:[^"\[\]{}]++|"(?:[^"\\]++|\\.)*+"?)*+([\[\]{}]|\Z)')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
# one escape: a high surrogate (1) and the low one after it (2), a lone low one (3), another
_ESCAPE = re.compile(r"\\(?:(u[dD][89abAB][0-9a-fA-F]{2})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?"
                     r"|(u[dD][c-fC-F][0-9a-fA-F]{2})|.)")


class JsonError(ValueError):
    """JsonError says that the text is not one well-formed JSON document; ``offset`` is where
    reading stopped."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    def __str__(self) -> str:
        return self.message  # itself: a Message keeps its template


def pointer(path) -> str:
    """Write the JSON pointer of a path of keys and indices (``~`` as ``~0``, ``/`` as
    ``~1``)."""
    return "".join("/" + str(step).replace("~", "~0").replace("/", "~1") for step in path)


class _Refused(Exception):
    """_Refused signals a name twice, NaN or a number too long (the strict decoder's
    hooks)."""


def _object(pairs: list[tuple[str, object]]) -> dict:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Refused
    return found


def _checked(pairs: list[tuple[str, object]]) -> None:
    _object(pairs)  # (and let it go: the checker holds nothing)


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
_CHECKER = json.JSONDecoder(object_pairs_hook=_checked, parse_int=_number(len),
                            parse_float=_number(len), parse_constant=_constant)
STRICT, CHECK = make_scanner(_DECODER), make_scanner(_CHECKER)


def loads(text: str, hold: bool = True) -> object:
    """Decode the JSON document in ``text`` (unless ``hold``: return None); raise
    :class:`JsonError`."""
    try:
        document = (_DECODER if hold else _CHECKER).decode(text)
    except json.JSONDecodeError as err:
        offset = err.pos - (err.msg == "Invalid \\uXXXX escape")
        raise _fault(text, offset, _words(text, err)) from None
    except (_Refused, RecursionError):  # nesting hundreds deep exhausts the decoder's stack
        raise _fault(text, *_blame(text)) from None
    if _SURROGATE.search(text):
        _refuse_surrogates(text)
    return document


def _fault(text: str, offset: int, message: str) -> JsonError:
    refuse_deep(text, end=offset)  # nesting too deep before the fault is said first
    return JsonError(message, offset)


def refuse_deep(text: str, end: int | None = None) -> list[str]:
    """Raise JsonError at the first bracket of ``text[:end]`` nested past MAX_DEPTH; return
    the brackets still open at its end."""
    opened: list[str] = []
    for match in _BRACKET.finditer(text, 0, len(text) if end is None else end):
        bracket = match.group(1)
        if not bracket:
            break
        if bracket in "[{":
            opened.append(bracket)
            if len(opened) > MAX_DEPTH:
                raise JsonError(_DEEP, match.start(1))
        elif opened:
            opened.pop()
    return opened


_SAID = {
    "Expecting property name enclosed in double quotes":
        msg("expected a member name in double quotes"),
    "Expecting ':' delimiter": msg("expected ':' after the member name"),
    "Unterminated string starting at": msg("the string is not closed"),
    "Invalid \\escape": msg("not a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
    "Invalid \\uXXXX escape": msg("\\u must be followed by four hexadecimal digits"),
    "Extra data": msg("text after the end of the document"),
}
_DEEP = msg("nested more than {depth} deep; a game record is far shallower", depth=MAX_DEPTH)
_NO_VALUE = msg("expected a value (an object, array, string, number, true, false or null)")


def _words(text: str, err: json.JSONDecodeError) -> str:
    said = _SAID.get(err.msg)
    if said is not None:
        return said
    if err.msg == "Invalid control character at":
        # TRANSLATORS: U+{code:04X} is the character's Unicode number (U+0009)
        return msg("a raw control character (U+{code:04X}) in a string; write it as an escape",
                   code=ord(text[err.pos]))
    if err.msg == "Expecting ',' delimiter":
        # TRANSLATORS: {close} is the bracket that ends it, } or ]
        return (msg("expected ',' or '{close}' in this object", close="}")
                if refuse_deep(text, end=err.pos)[-1:] == ["{"]
                else msg("expected ',' or '{close}' in this array", close="]"))
    if err.msg == "Expecting value" and BLANK.match(text, err.pos).end() == len(text):
        return msg("the document ends where a value is expected")
    return _NO_VALUE


def members(text: str, pos: int, scan=CHECK):
    """Yield (name or None, the name's offset, start, end, value as ``scan`` reads it) of each
    member or item of the container at ``pos``; ``end`` is None, and the last, where ``scan``
    refuses the value."""
    named = text[pos] == "{"
    pos = BLANK.match(text, pos + 1).end()
    while text[pos] not in "]}":
        name = name_at = None
        if named:
            name_at = pos
            name, pos = scanstring(text, pos + 1)
            pos = BLANK.match(text, text.index(":", pos) + 1).end()
        try:
            value, end = scan(text, pos)
        except (_Refused, RecursionError):
            yield name, name_at, pos, None, None
            return
        yield name, name_at, pos, end, value
        pos = BLANK.match(text, end).end()
        pos = BLANK.match(text, pos + (text[pos] == ",")).end()


def _blame(text: str) -> tuple[int, str]:
    """Find the offset and words of the first fault the strict decoder refuses in a text that
    is JSON up to it, reading down to it a member at a time."""
    pos, depth = BLANK.match(text).end(), 0
    while text.startswith(("{", "["), pos):
        depth += 1
        if depth > MAX_DEPTH:
            return pos, _DEEP
        seen = set()
        for name, name_at, start, _, _ in members(text, pos, STRICT):
            if name_at is not None and name in seen:
                # TRANSLATORS: {name} is the member's name in quotes, as Python writes it
                return name_at, msg("the member name {name} appears twice in this object",
                                    name=repr(name))
            seen.add(name)
            pos = start  # the last: the value that holds the fault
    number = _NUMBER.match(text, pos)
    if number is None or number.end() - pos <= MAX_NUMBER:
        return pos, _NO_VALUE  # NaN, Infinity
    length = number.end() - pos
    return pos, msgn("a number {n} character long; no value in a game record needs more than a "
                     "few digits", "a number {n} characters long; no value in a game record "
                     "needs more than a few digits", length, n=length)


def _refuse_surrogates(text: str) -> None:
    """Raise JsonError at the first escaped surrogate that is not one of a pair."""
    for match in _ESCAPE.finditer(text):
        if match.group(1) and not match.group(2):
            raise _fault(text, match.start(),
                         msg("a high surrogate escape must be followed by a low one"))
        if match.group(3):
            raise _fault(text, match.start(),
                         msg("a lone low surrogate escape is not a character"))


class Places(Lines):
    """Places finds the start and end offsets of the value at a path (keys and indices) of a
    JSON text, whose :class:`Lines` give each offset's line and column; each container is
    scanned when first asked for."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._children: dict[tuple, dict | list] = {}  # the places in each container seen

    def children(self, path: tuple) -> dict | list:
        """Return (start, end) of each member (by name) or item of the container at
        ``path``."""
        found = self._children.get(path)
        if found is None:
            start = self.where(path)[0]
            places = members(self.text, start)
            if self.text[start] == "{":
                found = {name: (start, end) for name, _, start, end, _ in places}
            else:
                found = [(start, end) for _, _, start, end, _ in places]
            self._children[path] = found
        return found

    def where(self, path: tuple) -> tuple[int, int]:
        if not path:
            return BLANK.match(self.text).end(), len(self.text.rstrip(" \t\n\r"))
        return self.children(path[:-1])[path[-1]]

    def span(self, path: tuple) -> Span:
        return Span(*self.at(self.where(path)[0]), *self.at(self.where(path)[1]))

    def spans(self, path: tuple) -> tuple[Span, ...]:
        """Return the spans of the items of the array at ``path``."""
        return tuple(Span(*self.at(start), *self.at(end)) for start, end in self.children(path))
