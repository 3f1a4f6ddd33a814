"""A game record in JSON (spec/game-record.md) -> the same events a written log gives.

A record is recognised by content (:func:`looks_like_record`: its first non-blank character
is ``{``).  :func:`read_record` makes the events in the order a log would have them, every
span at the line and column of its JSON value.  A valid record is read fast, piece by piece
(:mod:`referee.log.jsonpieces`: the C ``json`` decoder, one hand at a time), each piece
checked against ``spec/game-record.schema.json`` by ``jsonschema-rs`` (yes or no), its events
made from the places of its values (:mod:`referee.log.jsonbuild`).  A record so refused
is read again piece by piece: the record without its hands, and each hand the C decoder or
``jsonschema-rs`` refuses, is decoded by :mod:`referee.log.jsontext`, which knows where every
value is and says what is not JSON, then validated by ``jsonschema``, which says what the
schema refuses; the structure between the pieces (member names, separators) is read by that
decoder's own steps, so a fault there is said where and as it would say it.  An invalid
record raises :class:`InvalidRecord`, an :class:`UnreadableLog` carrying one
:class:`RecordProblem` per problem, each with the JSON pointer of the faulty value.
:func:`record_pointers` gives the pointer of the values at some places, so that a
diagnostic about the game can name it too.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from referee.log.decode import UnreadableLog
from referee.log.events import Comment
from referee.log.jsonbuild import Builder, Reading, players_value
from referee.log.jsonpieces import SURROGATE, Piece, pieces, root_start
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
    MAX_PROBLEMS,
    RecordProblem,
    SchemaPlaces,
    capped,
    piece_problems,
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
    "validate_record",
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
    reading = _read_pieces(text)
    if reading is None:  # not a JSON object: the whole slow reading says why, at once
        reading, problems = _build(text, checked=_check_slowly(text))
        if problems:
            raise InvalidRecord(sorted(problems, key=lambda p: (p.line, p.column)), text)
    if not any(not isinstance(event, Comment) for event in reading.events):
        raise UnreadableLog(msg("the game record holds no statement (no tags, no hands)"), 1, 1)
    return reading


def _not_json(text: str, err: JsonError, positions: Positions | None = None) -> InvalidRecord:
    line, column = (Positions(text) if positions is None else positions).at(err.offset)
    return InvalidRecord([RecordProblem(line, column, line, column + 1,
                                        msg("not JSON: {problem}", problem=err.message),
                                        None)], text)


def _check_slowly(text: str) -> bool:
    """Decode ``text`` with the decoder that knows every place and validate it with
    ``jsonschema``; raises :class:`InvalidRecord` with what is wrong, True when nothing is."""
    try:
        document, where = decode(text)
    except JsonError as err:
        raise _not_json(text, err) from None
    problems = schema_problems(document, SchemaPlaces(text, where))
    if problems:
        raise InvalidRecord(problems, text)
    return True


def _build(text: str, checked: bool) -> tuple[Reading, list[RecordProblem]]:
    """The events of ``text``, ``checked`` (valid as :func:`_check_slowly` says), piece by
    piece, and the problems of what the schema cannot say."""
    builder = Builder(text)
    root: dict[str, object] = {}
    kept: dict[str, Piece] = {}
    for piece in pieces(text, decoded=checked):
        if piece.index is None:
            root[piece.key], kept[piece.key] = piece.value, piece
        else:
            builder.hand(piece.index, piece.value, Places(text, piece.start, piece.end))
    if "tags" in kept:
        builder.tags(root["tags"], Places(text, kept["tags"].start, kept["tags"].end))
    comments = kept.get("comments")
    reading = builder.finish(root.get("comments", []), None if comments is None else
                             Places(text, comments.start, comments.end))
    return reading, builder.problems


def validate_record(text: str) -> None:
    """Raises :class:`InvalidRecord` where :func:`read_record` would, with the same problems,
    without holding the record's events (only each statement's pointer, which a comment may
    name): for a caller that asks only whether a record it wrote reads back."""
    if _read_pieces(text, keep=False) is None:
        read_record(text)


def _read_pieces(text: str, keep: bool = True) -> Reading | None:
    """The events of a record read piece by piece, or what is wrong with it found as the
    whole slow reading (:func:`_check_slowly`, then :func:`_build`) would say it: each piece
    decoded by the C ``json`` decoder and judged by ``jsonschema-rs``, the positioned decoder
    and ``jsonschema`` only for the pieces that need them (the record without its hands, when
    ``jsonschema-rs`` refuses it; each hand it refuses or the C decoder cannot read); the
    structure between them (member names, separators, what follows the document) read by the
    positioned decoder's own steps.  Raises :class:`InvalidRecord`; None where the text is not
    a JSON object (its first character is not ``{``)."""
    reading = _PieceReading(text, keep)
    try:
        for piece in pieces(text, decoded=True, slow=True):
            reading.piece(piece)
        # (finish decodes with their places the pieces the schema refuses, and may find
        # what the C decoder let through: nesting past MAX_DEPTH)
        return reading.finish()
    except JsonError as err:  # the first: the pieces before it are plain JSON
        raise _not_json(text, err, reading.builder.positions) from None
    except NotPlain:
        return None


class _PieceReading:
    """One reading of :func:`_read_pieces`: the record without its hands, the first problems
    of the hands (and how many more), the events while no hand has one."""

    def __init__(self, text: str, keep: bool = True) -> None:
        self.text, self.builder, self.quick = text, Builder(text), quick_check()
        self.keep = keep  # False: of each statement of a hand, only its pointer is kept
        self.root: dict[str, object] = {}
        self.where: dict[str, tuple[int, int]] = {}  # of the record without its hands
        self.kept: dict[str, Piece] = {}
        self.places: dict[str, Places] = {}
        self.found: list[RecordProblem] = []
        self.more = 0  # problems of hands found, not kept in found: after all of those
        self.refused = False  # a hand has a problem, so no events are kept

    def piece(self, piece: Piece) -> None:
        text = self.text
        if piece.index is not None:
            self.hand(piece, SURROGATE.search(text, piece.start, piece.end) is not None)
        elif piece.key == "hands" and piece.where is None and piece.value == [] and \
                text.startswith("[", piece.start):
            self.root["hands"], self.where["/hands"] = [], (piece.start, piece.end)
        else:
            self.root[piece.key], self.kept[piece.key] = piece.value, piece
            if piece.where is not None:
                self.where.update(piece.where)
                return
            places = self.places[piece.key] = Places(text, piece.start, piece.end)
            try:  # (what the C decoder lets through: a name twice, an escaped surrogate)
                _plain(places, 0, piece.value)
                plain = SURROGATE.search(text, piece.start, piece.end) is None
            except NotPlain:
                plain = False
            if not plain:  # the JsonError that says what, if decode sees any
                self.where.update(self._where_of(piece))

    def _where_of(self, piece: Piece) -> dict[str, tuple[int, int]]:
        return decode_at(self.text, piece.start, f"/{escape_pointer(piece.key)}", 1)[1]

    def hand(self, piece: Piece, surrogate: bool) -> None:
        pointer, where = f"/hands/{piece.index}", piece.where
        if where is None and surrogate:
            where = decode_at(self.text, piece.start, pointer, 2)[1]
        if not self.quick.hand(piece.value):
            if where is None:
                where = decode_at(self.text, piece.start, pointer, 2)[1]
            found = piece_problems(piece.value, SchemaPlaces(
                self.text, where, self.builder.positions), "hand", pointer)
            if found:
                self.refuse(found)
                return
        places = Places(self.text, piece.start, piece.end)
        try:
            if self.refused:
                _plain(places, 0, piece.value)
            else:
                self.builder.hand(piece.index, piece.value, places, self.keep)
        except NotPlain:
            if where is None:  # a member name twice: the JsonError that says so
                decode_at(self.text, piece.start, pointer, 2)
            raise

    def refuse(self, found: list[RecordProblem]) -> None:
        self.refused, self.builder.events = True, []
        self.found.extend(found)
        if len(self.found) > 4 * MAX_PROBLEMS:  # only the first ones can be listed
            self.found.sort(key=lambda p: (p.line, p.column, p.message))
            self.more += len(self.found) - MAX_PROBLEMS - 1
            del self.found[MAX_PROBLEMS + 1:]

    def finish(self) -> Reading | None:
        text, root, builder, where = self.text, self.root, self.builder, self.where
        problems = []
        if not self.quick.record(root):
            for key, piece in self.kept.items():
                if f"/{escape_pointer(key)}" not in where:
                    where.update(self._where_of(piece))
            where[""] = (root_start(text), _end(text))
            problems = piece_problems(root, SchemaPlaces(text, where, builder.positions))
        if problems or self.found:
            raise InvalidRecord(capped(problems + self.found, self.more), text)
        try:
            if "tags" in self.kept:
                builder.tags(root["tags"], self._places("tags"))
            reading = builder.finish(root.get("comments", []), None if "comments" not in
                                     self.kept else self._places("comments"))
        except NotPlain:
            return None
        if builder.problems:
            raise InvalidRecord(sorted(builder.problems, key=lambda p: (p.line, p.column)), text)
        return reading


    def _places(self, key: str) -> Places:
        if key not in self.places:  # (a piece the C decoder refused)
            piece = self.kept[key]
            self.places[key] = Places(self.text, piece.start, piece.end)
        return self.places[key]


def _plain(places: Places, index: int, value: object) -> None:
    """Raises NotPlain where an object of the well-formed ``value`` at ``index`` of
    ``places`` has a member name twice."""
    if isinstance(value, dict):
        for name, at in places.members(index, value).items():
            _plain(places, at, value[name])
    elif isinstance(value, list):
        for at, item in zip(places.items(index, len(value)), value):
            _plain(places, at, item)


def _end(text: str) -> int:
    """The offset after the document: blanks only follow it."""
    end = len(text)
    while end and text[end - 1] in " \t\n\r":
        end -= 1
    return end


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
