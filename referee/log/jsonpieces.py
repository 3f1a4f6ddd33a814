"""A JSON game record piece by piece with the C ``json`` decoder: each member of the document,
and each hand of its ``hands`` one at a time, with its start and end offsets.

This is the fast way in, for a record that is well-formed JSON: the decoded values of one
hand can go as soon as its events are made, and no place is kept for a value nobody asks
about.  Whatever the C decoder would let through and :func:`referee.log.jsontext.decode`
refuses (a member name twice in the document, ``NaN``, a number longer than
:data:`~referee.log.jsontext.MAX_NUMBER` characters, an escaped surrogate, a lone one
included) raises :class:`~referee.log.jsontext.NotPlain`, as does any text that is not JSON:
the caller then reads it more slowly, to say exactly what is wrong (``slow``: each piece the C
decoder refuses with the positioned decoder, the structure between the pieces by that
decoder's own steps).  (A member name
twice in a nested object is found by :meth:`~referee.log.jsontext.Places.members`.)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from json.scanner import make_scanner
from typing import NamedTuple

from referee.log.jsontext import (
    MAX_NUMBER,
    JsonError,
    NotPlain,
    Reader,
    decode_at,
    escape_pointer,
)

__all__ = ["SURROGATE", "Piece", "pieces", "root_start"]

_BLANK = re.compile(r"[ \t\n\r]*")
# an escaped surrogate: the C decoder makes a lone one a character, decode refuses it
SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _constant(word: str):
    raise NotPlain(word)  # NaN, Infinity, -Infinity: not JSON


def _integer(text: str) -> int:
    if len(text) > MAX_NUMBER:
        raise NotPlain(text[:10])
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER or not math.isfinite(value := float(text)):
        raise NotPlain(text[:10])
    return value


_SCAN = make_scanner(json.JSONDecoder(parse_constant=_constant, parse_int=_integer,
                                      parse_float=_float, strict=True))


def _scan(text: str, pos: int) -> tuple[object, int]:
    """The value at ``pos`` and the offset after it (the scanner's StopIteration, which a
    generator may not let out, as NotPlain)."""
    try:
        return _SCAN(text, pos)
    except StopIteration:
        raise NotPlain("no value") from None


class Piece(NamedTuple):
    """A member of the document (``index`` None) or a hand (``key`` "hands", its index); a
    ``hands`` array is given after its hands, with ``value`` an empty list."""

    key: str
    index: int | None
    start: int
    end: int
    value: object
    where: dict[str, tuple[int, int]] | None = None  # its places, when decode read it


def root_start(text: str) -> int:
    """The offset of the document (the first character that is not a blank)."""
    return _BLANK.match(text).end()


def pieces(text: str, decoded: bool = False, slow: bool = False) -> Iterator[Piece]:
    """The pieces of ``text``, a JSON object, in the order written; raises NotPlain.
    ``decoded``: :func:`~referee.log.jsontext.decode` read the text (so an escaped surrogate
    is one of a pair).  ``slow``: a piece the C decoder refuses is read by
    :func:`~referee.log.jsontext.decode_at` instead, given with its places (``where``), or
    its :class:`~referee.log.jsontext.JsonError` raised, as is one in the structure between
    the pieces: what is not JSON is found where ``decode`` would find it."""
    if not decoded and SURROGATE.search(text):
        raise NotPlain("surrogate")
    scan = _slow_scan if slow else _piece_scan
    try:
        yield from _members(text, scan)
    except JsonError:
        if slow:
            raise
        raise NotPlain("not JSON") from None
    except (ValueError, RecursionError):
        raise NotPlain("not JSON") from None


def _piece_scan(text: str, pos: int, key: str, index: int | None) -> Piece:
    value, end = _scan(text, pos)
    return Piece(key, index, pos, end, value)


def _slow_scan(text: str, pos: int, key: str, index: int | None) -> Piece:
    try:
        return _piece_scan(text, pos, key, index)
    except (NotPlain, ValueError, RecursionError):
        pointer = f"/{escape_pointer(key)}" if index is None else f"/hands/{index}"
        value, where = decode_at(text, pos, pointer, 1 if index is None else 2)
        return Piece(key, index, pos, where[pointer][1], value, where)


def _members(text: str, scan) -> Iterator[Piece]:
    """The pieces of the object that is the document, its structure read as
    :func:`~referee.log.jsontext.decode` reads it (its JsonError where that stops)."""
    reader = Reader(text)
    reader.pos = root_start(text)
    if not text.startswith("{", reader.pos):
        raise NotPlain("not an object")
    seen: set[str] = set()
    closed = reader.opened("}")
    while not closed:
        key = reader.name(seen)
        seen.add(key)
        start = _BLANK.match(text, reader.pos).end()
        if key == "hands" and text.startswith("[", start):
            reader.pos = start
            yield from _hands(reader, scan)
            yield Piece(key, None, start, reader.pos, [])
        else:
            piece = scan(text, start, key, None)
            reader.pos = piece.end
            yield piece
        closed = reader.separator("}")
    reader.end()


def _hands(reader: Reader, scan) -> Iterator[Piece]:
    """Each item of the array at the offset ``reader`` has reached, which it leaves after the
    array."""
    if reader.opened("]"):
        return
    index = 0
    while True:
        piece = scan(reader.text, _BLANK.match(reader.text, reader.pos).end(), "hands", index)
        reader.pos = piece.end
        yield piece
        index += 1
        if reader.separator("]"):
            return
