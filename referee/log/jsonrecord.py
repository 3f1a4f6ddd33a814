"""A game record in JSON (spec/game-record.md) -> the same events a written log gives.

:func:`read_record` reads it a piece at a time, so that the hands need not all be held, checks
each piece against the schema and makes the events in the order a log would have them.  An
invalid record raises :class:`InvalidRecord`, with one :class:`RecordProblem` per problem."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from functools import partial

from referee.log.decode import UnreadableLog
from referee.log.events import Comment
from referee.log.jsonbuild import Builder, Reading
from referee.log.jsontext import (
    JsonError,
    Places,
    Positions,
    escape_pointer,
    loads,
    pieces,
    refuse_deep,
)
from referee.log.recordschema import (
    MAX_PROBLEMS,
    RecordProblem,
    capped,
    problems,
    valid,
)
from referee.util.message import msg, msgn

__all__ = [
    "FORMAT", "VERSION", "InvalidRecord", "read_record", "record_pointers", "validate_record"
]

FORMAT = "referee-game-record"
VERSION = 1
_OBJECT = re.compile(r"[ \t\n\r]*\{")


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
    without holding the record's events (only each statement's pointer, which a comment may
    name): for a caller that asks only whether a record it wrote reads back."""
    _read(text, keep=False)


def _read(text: str, keep: bool = True) -> Reading:
    try:
        if not _OBJECT.match(text):  # not an object: JSON's refusal, or the schema's
            document = loads(text)
            refuse_deep(text)
            raise InvalidRecord(capped(problems("record", document, partial(
                Places(text).find, document), Positions(text))), text)
        reading = _Reading(text, keep)
        for piece in pieces(text, "hands"):
            reading.piece(*piece)
        return reading.finish()
    except JsonError as err:
        line, column = Positions(text).at(err.offset)
        raise InvalidRecord([RecordProblem(line, column, line, column + 1, msg(
            "not JSON: {problem}", problem=err.message), None)], text) from None


class _Reading:
    """One reading of a record: the record without its hands, the problems of its hands, the
    events while no hand has a problem.  A piece the schema refuses is searched for nesting
    past MAX_DEPTH (not JSON a record may be) before jsonschema is asked about it."""

    def __init__(self, text: str, keep: bool) -> None:
        self.text, self.keep, self.builder = text, keep, Builder(text)
        self.root: dict[str, object] = {}  # the record, its hands an empty list
        self.spans: dict[str, tuple[int, int]] = {}  # the offsets of each of its members
        self.found: list[RecordProblem] = []  # the first problems of the hands
        self.more = 0  # and how many more, all after those in the text

    def piece(self, name: str, index: int | None, value: object, start: int, end: int) -> None:
        if index is None:
            self.root[name], self.spans[name] = value, (start, end)
            return
        if not valid("hand", value):
            refuse_deep(self.text, start, end, 2)
            found = problems("hand", value, partial(Places(self.text, start, end).find, value),
                             self.builder.positions, ("hands", index))
            if found:
                self.refuse(found)
                return
        if not self.found:
            self.builder.hand(index, value, Places(self.text, start, end), self.keep)

    def refuse(self, found: list[RecordProblem]) -> None:
        """Holds the first problems of the hands only (the hands come in the order of the
        text), and no events once one has a problem."""
        self.found += found
        self.builder.events = []
        if len(self.found) > 4 * MAX_PROBLEMS:
            self.found.sort(key=lambda p: (p.line, p.column, p.message))
            self.more += len(self.found) - MAX_PROBLEMS - 1
            del self.found[MAX_PROBLEMS + 1:]

    def finish(self) -> Reading:
        text, root, builder = self.text, self.root, self.builder
        found = self.found
        if not valid("record", root):
            refuse_deep(text)
            found = found + problems("record", root, self.where, builder.positions)
        if found:
            raise InvalidRecord(capped(found, self.more), text)
        if "tags" in root:
            builder.tags(root["tags"], Places(text, *self.spans["tags"]))
        reading = builder.finish(root.get("comments", []), Places(
            text, *self.spans["comments"]) if "comments" in root else None)
        if builder.problems:
            raise InvalidRecord(sorted(builder.problems, key=lambda p: (p.line, p.column)), text)
        return reading

    def where(self, path: tuple) -> tuple[int, int]:
        """The offsets of the value at ``path`` of the record."""
        if not path:
            return _OBJECT.match(self.text).end() - 1, len(self.text.rstrip(" \t\n\r"))
        return Places(self.text, *self.spans[path[0]]).find(self.root[path[0]], path[1:])


def record_pointers(text: str, places: Iterable[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """(line, column) -> the JSON pointer of the value of the record that starts there, for
    each of ``places`` that is the start of one; empty for text that is not JSON.  Only the
    values that hold one of the places are looked into."""
    positions = Positions(text)
    wanted = {positions.offset(line, column): (line, column) for line, column in places}
    wanted = {offset: at for offset, at in wanted.items() if positions.at(offset) == at}
    offsets = sorted(wanted)
    try:
        document = loads(text)
        refuse_deep(text)
    except JsonError:
        return {}
    found: dict[tuple[int, int], str] = {}
    values = Places(text)
    stack = [(0, document, "")]
    while stack:
        index, value, pointer = stack.pop()
        start, end = values.starts[index], values.ends[index]
        if start in wanted:
            found[wanted[start]] = pointer
        at = bisect_left(offsets, start + 1)
        if at < len(offsets) and offsets[at] < end and isinstance(value, (dict, list)):
            children = (values.members(index, value) if isinstance(value, dict) else
                        dict(enumerate(values.items(index, len(value)))))
            stack.extend((child, value[key], f"{pointer}/{escape_pointer(str(key))}")
                         for key, child in children.items())
    return found
