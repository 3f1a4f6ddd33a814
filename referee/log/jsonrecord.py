"""A game record in JSON (spec/game-record.md) -> the same events a written log gives.

:func:`read_record` decodes it whole, checks it against the schema and makes the events in
the order a log would have them.  An invalid record raises :class:`InvalidRecord`, with one
:class:`RecordProblem` per problem."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator

from referee.log.decode import UnreadableLog
from referee.log.events import Comment
from referee.log.jsonbuild import Builder, Reading
from referee.log.jsontext import (
    CHECK,
    STRICT,
    JsonError,
    Places,
    loads,
    members,
    pointer,
    refuse_deep,
)
from referee.log.recordschema import RecordProblem, capped, problems, valid
from referee.util.message import msg, msgn

__all__ = [
    "FORMAT", "VERSION", "InvalidRecord", "read_record", "record_pointers", "validate_record"
]

FORMAT = "referee-game-record"
VERSION = 1
_BLANK = re.compile(r"[ \t\n\r]*")


class InvalidRecord(UnreadableLog):
    """A JSON game record that cannot be read: not JSON, or not valid against the schema."""

    def __init__(self, problems: list[RecordProblem], text: str) -> None:
        super().__init__(_summary(problems), problems[0].line, problems[0].column)
        self.problems = tuple(problems)
        self.text = text  # the record, for excerpts


def _summary(problems: list[RecordProblem]) -> str:
    """The one line that says what is wrong with an invalid record: its first problem."""
    first, count = problems[0], len(problems)
    if count == 1 and first.pointer:
        # TRANSLATORS: {pointer} is a JSON pointer (/hands/0/deal/1), {problem} what is wrong there
        return msg("not a valid game record at {pointer}: {problem}", pointer=first.pointer,
                   problem=first.message)
    if count == 1:
        return msg("not a valid game record: {problem}", problem=first.message)
    if first.pointer:
        return msgn("not a valid game record: {n} problem, the first at {pointer}: {problem}",
                    "not a valid game record: {n} problems, the first at {pointer}: {problem}",
                    count, n=count, pointer=first.pointer, problem=first.message)
    return msgn("not a valid game record: {n} problem, the first: {problem}",
                "not a valid game record: {n} problems, the first: {problem}",
                count, n=count, problem=first.message)


def read_record(text: str) -> Reading:
    """The events of a JSON game record; raises :class:`InvalidRecord` with every problem."""
    reading = _read(text)
    if not any(not isinstance(event, Comment) for event in reading.events):
        raise UnreadableLog(msg("the game record holds no statement (no tags, no hands)"), 1, 1)
    return reading


def validate_record(text: str) -> None:
    """Raises :class:`InvalidRecord` where :func:`read_record` would, with the same problems,
    without holding the record's events (only each statement's path, which a comment may
    name): for a caller that asks only whether a record it wrote reads back."""
    _read(text, keep=False)


def _read(text: str, keep: bool = True) -> Reading:
    """The reading of a record: its members but its hands decoded first, then each hand
    alone, so that the hands are never all held as decoded objects."""
    places = Places(text)
    builder = Builder(places, keep)
    try:
        loads(text, hold=False)
        root, hands = _root(text)
        found = _problems(places, "record", root, ())
        if not found:
            builder.tags(root.get("tags", ()))
        for index, hand in enumerate(hands):
            found += _problems(places, "hand", hand, ("hands", index), found)
            if not found:
                builder.hand(("hands", index), hand)
    except JsonError as err:
        line, column = places.at(err.offset)
        raise InvalidRecord([RecordProblem(line, column, line, column + 1, msg(
            "not JSON: {problem}", problem=err.message), None)], text) from None
    if found:
        raise InvalidRecord(capped(found), text)
    reading = builder.finish(root.get("comments", ()))
    if builder.problems:
        raise InvalidRecord(sorted(builder.problems, key=lambda p: (p.line, p.column)), text)
    return reading


def _root(text: str) -> tuple[object, Iterator[object]]:
    """The record decoded, but for its hands, when an array, as an empty list; and its hands,
    each decoded when it is reached."""
    start = _BLANK.match(text).end()
    if text[start] != "{":
        return loads(text), iter(())
    root, hands = {}, iter(())
    for name, _, at, _, _ in members(text, start, CHECK):
        if name == "hands" and text[at] == "[":
            root[name] = []
            hands = (hand for _, _, _, _, hand in members(text, at, STRICT))
        else:
            root[name] = STRICT(text, at)[0]
    return root, hands


def _problems(places: Places, part: str, value: object, prefix: tuple,
              found: list[RecordProblem] = ()) -> list[RecordProblem]:
    """jsonschema's problems of a part of the record jsonschema-rs refuses; a record refused
    at all (``found`` empty) is first searched for nesting past MAX_DEPTH (not JSON a record
    may be)."""
    if valid(part, value):
        return []
    if not found:
        refuse_deep(places.text)
    return problems(part, value, places, prefix)


def record_pointers(text: str, places: Iterable[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """(line, column) -> the JSON pointer of the value of the record that starts there, for
    each of ``places`` that is the start of one; empty for text that is not JSON.  Only the
    values that hold one of the places are looked into."""
    try:
        loads(text, hold=False)
        refuse_deep(text)
    except JsonError:
        return {}
    located = Places(text)
    wanted = {located.offset(line, column): (line, column) for line, column in places}
    wanted = {offset: at for offset, at in wanted.items() if located.at(offset) == at}
    offsets = sorted(wanted)
    found: dict[tuple[int, int], str] = {}
    paths: list[tuple] = [()]
    while paths:
        path = paths.pop()
        start, end = located.where(path)
        if start in wanted:
            found[wanted[start]] = pointer(path)
        at = bisect_left(offsets, start + 1)
        if at < len(offsets) and offsets[at] < end and text[start] in "[{":
            children = located.children(path)
            keys = children if isinstance(children, dict) else range(len(children))
            paths.extend((*path, key) for key in keys)
    return found
