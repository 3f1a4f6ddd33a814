"""A game record in JSON (spec/game-record.md) -> the same events a written log gives.

A record is recognised by content (:func:`looks_like_record`: its first non-blank character
is ``{``).  :func:`read_record` makes the events in the order a log would have them, every
span at the line and column of its JSON value.  A valid record is read fast, piece by piece
(:mod:`referee.log.jsonpieces`: the C ``json`` decoder, one hand at a time), each piece
checked against ``spec/game-record.schema.json`` by ``jsonschema-rs`` (yes or no), its events
made from the places of its values (:mod:`referee.log.jsonbuild`).  Anything else is read
as before any of that: decoded by :mod:`referee.log.jsontext`, which knows where every value
is and says what is not JSON, then validated by ``jsonschema``, which says what the schema
refuses.  An invalid record raises :class:`InvalidRecord`, an :class:`UnreadableLog` carrying
one :class:`RecordProblem` per problem, each with the JSON pointer of the faulty value.
:func:`record_pointers` gives the pointer of the values at some places, so that a
diagnostic about the game can name it too.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from referee.log.decode import UnreadableLog
from referee.log.events import Comment
from referee.log.jsonbuild import Builder, Reading, players_value
from referee.log.jsonpieces import Piece, pieces, root_start
from referee.log.jsontext import (
    JsonError,
    NotPlain,
    Places,
    Positions,
    decode,
    decode_at,
    escape_pointer,
)
from referee.log.recognise import looks_like_record
from referee.log.recordschema import (
    RecordProblem,
    SchemaPlaces,
    quick_check,
    schema,
    schema_problems,
)
from referee.util.message import msg, msgn

__all__ = [
    "FORMAT",
    "VERSION",
    "InvalidRecord",
    "Reading",
    "RecordProblem",
    "looks_like_record",
    "players_value",
    "read_record",
    "record_pointers",
    "schema",
]

FORMAT = "referee-game-record"
VERSION = 1


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
    try:
        reading, _ = _build(text, checked=False)
    except NotPlain:
        reading = None
    if reading is None:
        reading, problems = _build(text, checked=_check_slowly(text))
        if problems:
            raise InvalidRecord(sorted(problems, key=lambda p: (p.line, p.column)), text)
    if not any(not isinstance(event, Comment) for event in reading.events):
        raise UnreadableLog(msg("the game record holds no statement (no tags, no hands)"), 1, 1)
    return reading


def _check_slowly(text: str) -> bool:
    """Decode ``text`` with the decoder that knows every place and validate it with
    ``jsonschema``; raises :class:`InvalidRecord` with what is wrong, True when nothing is."""
    try:
        document, where = decode(text)
    except JsonError as err:
        line, column = Positions(text).at(err.offset)
        raise InvalidRecord([RecordProblem(line, column, line, column + 1,
                                           msg("not JSON: {problem}", problem=err.message),
                                           None)], text) from None
    problems = schema_problems(document, SchemaPlaces(text, where))
    if problems:
        raise InvalidRecord(problems, text)
    return True


def _build(text: str, checked: bool) -> tuple[Reading, list[RecordProblem]]:
    """The events of ``text`` piece by piece, each hand's values let go once it has its
    events, and the problems of what the schema cannot say.  Unless ``checked`` (valid as
    :func:`_check_slowly` says), the text must be plain JSON, each piece valid as
    ``jsonschema-rs`` says and without a problem, else NotPlain: an invalid record is said
    to be so by :func:`_check_slowly`, as it would say it first."""
    quick = None if checked else quick_check()
    builder = Builder(text)
    root: dict[str, object] = {}
    kept: dict[str, Piece] = {}
    for piece in pieces(text, decoded=checked):
        if piece.index is None:
            root[piece.key], kept[piece.key] = piece.value, piece
            continue
        if quick is not None and not quick.hand(piece.value):
            raise NotPlain("hand")
        builder.hand(piece.index, piece.value, Places(text, piece.start, piece.end))
        if quick is not None and builder.problems:
            raise NotPlain("problems")
    if quick is not None and not quick.record(root):
        raise NotPlain("record")
    if "tags" in kept:
        builder.tags(root["tags"], Places(text, kept["tags"].start, kept["tags"].end))
    comments = kept.get("comments")
    reading = builder.finish(root.get("comments", []), None if comments is None else
                             Places(text, comments.start, comments.end))
    if quick is not None and builder.problems:
        raise NotPlain("problems")
    return reading, builder.problems


def record_pointers(text: str, places: Iterable[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """(line, column) -> the JSON pointer of the value of the record that starts there, for
    each of ``places`` that is the start of one; empty for text that is not JSON.  Only
    the pieces that hold one of the places are decoded with their places."""
    positions = Positions(text)
    wanted = {positions.offset(line, column): (line, column) for line, column in places}
    wanted = {offset: at for offset, at in wanted.items() if positions.at(offset) == at}
    offsets = sorted(wanted)
    found: dict[int, str] = {}

    def holds(start: int, end: int) -> bool:
        at = bisect_left(offsets, start)
        return at < len(offsets) and offsets[at] < end

    try:
        found[root_start(text)] = ""
        for piece in pieces(text, decoded=True):  # (text that is not JSON has no diagnostic)
            pointer = (f"/{escape_pointer(piece.key)}" if piece.index is None else
                       f"/hands/{piece.index}")
            if piece.index is None and piece.key == "hands" and piece.value == []:
                found[piece.start] = pointer  # the array of hands: its hands came before
            elif holds(piece.start, piece.end):
                found.update((start, at) for at, (start, _) in decode_at(
                    text, piece.start, pointer, 1 if piece.index is None else 2)[1].items())
    except (NotPlain, JsonError):
        try:
            found = {start: at for at, (start, _) in decode(text)[1].items()}
        except JsonError:
            return {}
    return {wanted[offset]: found[offset] for offset in offsets if offset in found}
