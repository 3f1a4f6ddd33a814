"""This module reads a game record in JSON (spec/game-record.md) into the same events a written
log gives.

:func:`read_record` decodes the record but its hands, then each hand alone, checks each piece
against the schema (spec/game-record.schema.json) and makes the events in the order a log
would have them.  :func:`valid` is jsonschema-rs's quick yes or no (some two hundred times
faster than jsonschema on a record of megabytes); :func:`problems` asks jsonschema about a
piece it refuses, for messages in the project's words.  Each span is found in the text when it
is first read (:class:`_Found`).  An invalid record raises :class:`InvalidRecord`."""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from operator import attrgetter
from typing import NamedTuple

from referee.log.decode import UnreadableLog
from referee.log.events import (CardRun, Claim, Comment, Deal, Entry, Event, GameOver, HandStart,
                                Kitty, Moon, Pass, Play, Score, Span, Tag, Total, Trick)
from referee.log.jsontext import (BLANK, CHECK, STRICT, JsonError, Places, loads, members,
                                  pointer, refuse_deep)
from referee.log.words import TAG_NAME_RE, split_players
from referee.rules.cards import CARD_BY_TEXT
from referee.rules.ruleset import canonical_direction
from referee.util.message import msg, msgn
from referee.util.record import Record, record
from referee.util.spec import spec_text

__all__ = ["DESCRIPTIONS", "FORMAT", "HAND_MEMBERS", "MAX_PROBLEMS", "VERSION", "InvalidRecord",
           "Reading", "RecordProblem", "players_value", "problems", "read_record",
           "record_pointers", "schema", "valid", "validate_record"]

FORMAT = "referee-game-record"
VERSION = 1
_NOWHERE = Span(1, 1, 1, 1)  # the span of a member that is not there
_new = object.__new__
_SET_CARDS, _SET_SOURCE = (CardRun.__dict__[name].__set__ for name in ("cards", "_source"))
_SET_SPAN = tuple(Span.__dict__[name].__set__
                  for name in ("line", "column", "end_line", "end_column"))
_place = attrgetter("line", "column", "end_line", "end_column")
# the members of a hand object after its number, in log order: (member, kind, whether a list)
HAND_MEMBERS = (("deal", Deal, True), ("kitty", Kitty, False), ("passes", Pass, True),
                ("tricks", Trick, True), ("moon", Moon, False), ("score", Score, False),
                ("total", Total, False), ("winners", GameOver, False))


class Reading(NamedTuple):
    """A Reading holds a record's events in log order, and the comments beside statements:
    (index, text)."""

    events: tuple[Event, ...]
    remarks: tuple[tuple[int, str], ...]


def players_value(names: list[str]) -> str | None:
    """Write a ``Players`` tag's text for these names (quoted where needed); return None when no
    text splits back into exactly these names."""
    words = []
    for name in names:
        word = next((w for w in (name, f"'{name}'", f'"{name}"')
                     if split_players(w) == [name]), None)
        if word is None:
            return None
        words.append(word)
    value = " ".join(words)
    return value if split_players(value) == names else None


class _Found(Span):
    """A _Found holds the span of the value at a path of a record; it finds it in the record's text
    on first read."""

    __slots__ = ("_path", "_places")

    def __init__(self, places: Places, path: tuple) -> None:
        object.__setattr__(self, "_places", places)
        object.__setattr__(self, "_path", path)

    def __getattr__(self, name: str):  # only called while a slot is empty
        if name not in Span.__dataclass_fields__:
            raise AttributeError(f"'Span' object has no attribute {name!r}")
        span = self._places.span(self._path)
        for set_value, value in zip(_SET_SPAN, _place(span)):
            set_value(self, value)
        return getattr(self, name)

    def __eq__(self, other):
        return _place(self) == _place(other) if isinstance(other, Span) else NotImplemented

    def __hash__(self) -> int:
        return hash(_place(self))

    def __repr__(self) -> str:
        return repr(Span(*_place(self)))

    def __reduce__(self):
        return Span, _place(self)


class _Plays:
    """A _Plays finds the spans of the plays of a trick and of their cards, for :class:`Play`."""

    __slots__ = ("path", "places")

    def __init__(self, places: Places, path: tuple) -> None:
        self.places, self.path = places, path

    def place(self, index: int) -> tuple[Span, Span]:
        return (self.places.span((*self.path, index)),
                self.places.span((*self.path, index, "card")))


class Builder:
    """A Builder makes the events of one record, in log order, and collects the problems the
    schema cannot see."""

    def __init__(self, places: Places, keep: bool = True) -> None:
        self.places, self.keep = places, keep
        self.problems: list[RecordProblem] = []
        self.statements: list[tuple[tuple, Event]] = []  # each with its path
        self.names: dict[str, str] = {}  # each name, kept once

    def span(self, value: dict, path: tuple, key: str) -> Span:
        """Return the span of the member ``key`` of ``value`` at ``path``, if it has one."""
        return _Found(self.places, (*path, key)) if key in value else _NOWHERE

    def fail(self, path: tuple, message: str) -> None:
        self.problems.append(placed(self.places, path, message))

    def name(self, value: str | None) -> str | None:
        return None if value is None else self.names.setdefault(value, value)

    def run(self, cards: list[str], path: tuple) -> CardRun:
        run = _new(CardRun)
        _SET_CARDS(run, tuple(map(CARD_BY_TEXT.__getitem__, cards)))
        _SET_SOURCE(run, (self.places.spans, path))
        return run

    def tag(self, at: tuple, tag: dict) -> None:
        name, value = tag["name"], tag["value"]
        if not TAG_NAME_RE.fullmatch(name):  # (the schema takes Player, which a log may not)
            # TRANSLATORS: {name} is the tag's name as JSON writes it ("Date")
            self.fail((*at, "name"), msg(
                "{name} is not a tag name: a letter or _, then letters, digits, _ or -",
                name=shown(name)))
        if isinstance(value, list):
            written = players_value(value)
            if written is None or name.casefold() != "players":
                self.fail((*at, "value"),
                          msg("only a Players tag may list names, and only names that a "
                              "Players tag can write (no name with both kinds of quote)"))
                written = ""
            value = written
        self.statements.append((at, Tag(name, value, _Found(self.places, at))))

    def hand(self, at: tuple, hand: dict) -> None:
        """Add the statements of a hand object; unless ``keep``, keep only the statements' paths
        (and the HandStart, for the comments)."""
        first = len(self.statements)
        if "number" in hand:
            direction = hand.get("pass")
            self.statements.append((at, HandStart(
                int(hand["number"]), self.name(hand.get("dealer")),
                None if direction is None else canonical_direction(direction),
                self.span(hand, at, "number"), self.span(hand, at, "dealer"),
                self.span(hand, at, "pass"))))
        for key, kind, listed in HAND_MEMBERS:
            if key in hand:
                items = enumerate(hand[key]) if listed else ((None, hand[key]),)
                for index, value in items:
                    path = (*at, key) if index is None else (*at, key, index)
                    self.statements.append((path, self.statement(kind, value, path)))
        if not self.keep:
            self.statements[first:] = [(path, event if type(event) is HandStart else None)
                                       for path, event in self.statements[first:]]

    def statement(self, kind: type, value, path: tuple) -> Event:
        """Make the event of the member of a hand object at ``path``."""
        span = _Found(self.places, path)
        if kind is Trick:
            return self.trick(path, value, span)
        if kind is Kitty:
            return Kitty(self.run(value, path), span)
        if kind is GameOver:
            names = tuple(map(self.name, value))
            if any(name.casefold() == "none" for name in names):
                self.fail(path, msg("'none' cannot be named as a winner of the game"))
            return GameOver(names, span)
        if kind is Score or kind is Total:
            return kind(tuple(Entry(self.name(entry["player"]), int(entry["points"]),
                                    _Found(self.places, (*path, index)))
                              for index, entry in enumerate(value)), span)
        player, player_span = self.name(value["player"]), _Found(self.places, (*path, "player"))
        if kind is Moon:
            return Moon(player, value["choice"], span, player_span)
        run = self.run(value["cards"], (*path, "cards"))
        if kind is Deal:
            return Deal(player, run, span, player_span)
        return Pass(player, run, self.name(value.get("to")), span, player_span,
                    self.span(value, path, "to"))

    def trick(self, at: tuple, trick: dict, span: Span) -> Trick:
        leader = trick.get("leader")
        plays, finder = [], _Plays(self.places, (*at, "plays"))
        for index, play in enumerate(trick["plays"]):
            player = play.get("player")
            if (player is None) == (leader is None):
                self.fail((*at, "plays", index), msg(
                    "a trick with a leader lists only the cards, in seating order from the "
                    "leader") if leader is not None else msg(
                    "this play names no player (only a trick with a leader lists bare cards)"))
            plays.append(Play(self.name(player), CARD_BY_TEXT[play["card"]], finder, index))
        claim = None
        if "winner" in trick:
            claim = Claim(self.name(trick["winner"]), self.span(trick, at, "winner"))
        return Trick(int(trick["number"]), tuple(plays), claim, self.name(leader), span,
                     self.span(trick, at, "leader"))

    def finish(self, comments: list[dict]) -> Reading:
        """Return the events, each whole-line comment above the statement it names (at the end
        without one), and the comments beside statements."""
        statements = self.statements
        if not comments:
            return Reading(tuple(event for _, event in statements), ())
        index_of = {pointer(path): index for index, (path, _) in enumerate(statements)}
        index_of.update({pointer(path) + "/number": index for index, (path, event)
                         in enumerate(statements) if isinstance(event, HandStart)})
        above: dict[int, list[Event]] = {}
        remarks: dict[int, str] = {}
        for number, comment in enumerate(comments):
            at, text = ("comments", number), comment["text"]
            target = comment.get("above", comment.get("beside"))
            index = len(statements) if target is None else index_of.get(target)
            if index is None:
                key = "above" if "above" in comment else "beside"
                # TRANSLATORS: {pointer} is the JSON pointer the comment names, as written
                self.fail((*at, key), msg(
                    "no statement of this record is at {pointer} (a tag, a hand's number, a "
                    "deal, the kitty, a pass, a trick, the moon, score, total or winners)",
                    pointer=shown(target)))
            elif "beside" in comment:
                if index in remarks:
                    self.fail((*at, "beside"), msg("a statement has at most one comment beside it"))
                remarks[index] = text if text.startswith("#") else "# " + text
            else:  # as the log reader makes it: the text after the # without the blanks
                words = text.removeprefix("#")
                above.setdefault(index, []).append(Comment(words.strip(),
                                                           _Found(self.places, at)))
        events: list[Event] = []
        moved: list[tuple[int, str]] = []
        for index, (_, event) in enumerate([*statements, ((), None)]):
            events.extend(above.get(index, ()))
            if event is not None:
                if index in remarks:
                    moved.append((len(events), remarks[index]))
                events.append(event)
        return Reading(tuple(events), tuple(moved))


class InvalidRecord(UnreadableLog):
    """InvalidRecord says that a JSON game record cannot be read: it is not JSON, or not valid
    against the schema."""

    def __init__(self, problems: list[RecordProblem], text: str) -> None:
        super().__init__(_summary(problems), problems[0].line, problems[0].column)
        self.problems = tuple(problems)
        self.text = text  # the record, for excerpts


def _summary(problems: list[RecordProblem]) -> str:
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
    """Read the events of a JSON game record; raise :class:`InvalidRecord` with every
    problem."""
    reading = _read(text)
    if not any(not isinstance(event, Comment) for event in reading.events):
        raise UnreadableLog(msg("the game record holds no statement (no tags, no hands)"), 1, 1)
    return reading


def validate_record(text: str) -> None:
    """Raise :class:`InvalidRecord` where :func:`read_record` would, without holding the
    record's events."""
    _read(text, keep=False)


def _read(text: str, keep: bool = True) -> Reading:
    places = Places(text)
    builder = Builder(places, keep)
    try:
        loads(text, hold=False)
        root, hands = _root(text)
        found = _problems(places, "record", root, ())
        if not found:
            for index, tag in enumerate(root.get("tags", ())):
                builder.tag(("tags", index), tag)
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
    """Decode the record but its hands (an empty list), and return it with its hands, each
    decoded when reached."""
    start = BLANK.match(text).end()
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
    """List jsonschema's problems of a part jsonschema-rs refuses; the first refused part first
    has the text searched for nesting past MAX_DEPTH."""
    if valid(part, value):
        return []
    if not found:
        refuse_deep(places.text)
    return problems(part, value, places, prefix)


def record_pointers(text: str, places: Iterable[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """Map (line, column) to the JSON pointer of the value that starts there, for each of
    ``places`` that is the start of one; return an empty map for text that is not JSON."""
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


# ---- the schema ----------------------------------------------------------------------------
MAX_PROBLEMS = 100  # an invalid record lists this many problems, then counts the rest


@record
class RecordProblem(Record):
    """A RecordProblem tells one thing wrong with a record: where (1-based, columns in
    characters) and its pointer."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    pointer: str | None  # None where the text is not JSON at all


def schema() -> dict:
    """Read the JSON Schema of a record (spec/game-record.schema.json)."""
    return json.loads(spec_text("game-record.schema.json"))


_STATE: dict[tuple[str, bool], object] = {}  # the validators, made on first use


def _validator(part: str, quick: bool):
    """Return jsonschema-rs's ``is_valid`` (``quick``) or jsonschema's ``iter_errors`` of a
    record with its hands as an empty list (``part`` "record") or of one hand."""
    key = (part, quick)
    if key not in _STATE:
        whole = schema()
        part_schema = whole if part == "record" else {
            "$schema": whole["$schema"], "$defs": whole["$defs"],
            **whole["properties"]["hands"]["items"]}
        if quick:
            import jsonschema_rs

            _STATE[key] = jsonschema_rs.validator_for(part_schema).is_valid
        else:
            from jsonschema import Draft202012Validator

            _STATE[key] = Draft202012Validator(part_schema).iter_errors
    return _STATE[key]


def valid(part: str, value: object) -> bool:
    """Tell whether ``value`` is a valid record without its hands (``part`` "record") or
    hand."""
    try:
        return _validator(part, True)(value)
    except Exception:  # noqa: BLE001 - a value it cannot take: jsonschema is asked
        return False


def problems(part: str, value: object, places: Places, prefix: tuple = ()) -> list[RecordProblem]:
    """List jsonschema's problems of ``value`` (``part`` as for :func:`valid`) at ``prefix``."""
    found, seen = [], set()
    for error in _validator(part, False)(value):
        for path, message in _of_error(error, tuple(error.absolute_path)):
            if (path, message) not in seen:  # 1e400 is both not an integer and too large
                seen.add((path, message))
                found.append(placed(places, prefix + path, message))
    return found


def placed(places: Places, path: tuple, message: str) -> RecordProblem:
    """Make a problem of the value at ``path`` of the record."""
    span = places.span(path)
    return RecordProblem(span.line, span.column, span.end_line, span.end_column, message,
                         pointer(path))


_DESCRIBED = {"type", "pattern", "not", "const", "enum", "anyOf", "minimum", "maximum",
              "minLength"}


def capped(found: list[RecordProblem]) -> list[RecordProblem]:
    """Keep the first :data:`MAX_PROBLEMS` problems in text order, then one that counts the
    rest."""
    found = sorted(found, key=attrgetter("line", "column", "message"))
    if len(found) > MAX_PROBLEMS:
        rest = len(found) - MAX_PROBLEMS
        last = found[MAX_PROBLEMS - 1]
        found = found[:MAX_PROBLEMS] + [RecordProblem(
            last.line, last.column, last.end_line, last.end_column,
            msgn("and {n} more problem", "and {n} more problems", rest, n=rest), last.pointer)]
    return found


def _of_error(error, path: tuple) -> list[tuple[tuple, str]]:
    """List (path, message) of each problem of one error (an unknown member at its own
    place)."""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        # TRANSLATORS: {name} is the member's name as JSON writes it ("colour")
        return [((*path, name), msg("unknown member {name} (spec/game-record.md lists the "
                                    "members)", name=shown(name)))
                for name in error.instance if name not in known]
    if error.validator == "anyOf":
        # a branch that took the value's kind and failed inside it (a Players array with one
        # bad name) says more than "not any of these": its problems, each at its own place
        deeper = [sub for sub in error.context or () if sub.path]
        if deeper:
            return [found for sub in deeper for found in _of_error(sub, (*path, *sub.path))]
    return [(path, _message(error))]


def shown(value: object) -> str:
    """Show a value for a message: JSON's own text, shortened; a container by its kind."""
    if isinstance(value, dict):
        return msg("an object")
    if isinstance(value, list):
        return msg("an array")
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _message(error) -> str:
    description = error.schema.get("description") if isinstance(error.schema, dict) else None
    if error.validator in _DESCRIBED and description:
        # TRANSLATORS: {value} is the JSON value (or "an object"), {what} what it should be
        return msg("{value} is not {what}", value=shown(error.instance),
                   what=DESCRIPTIONS.get(description, description))
    if error.validator == "minItems":
        return msgn("an empty list here; at least {n} item is needed",
                    "an empty list here; at least {n} items are needed",
                    error.validator_value, n=error.validator_value)
    if error.validator == "minProperties":
        return msg("an empty hand object records nothing")
    if error.validator == "maxProperties":
        return msg("a comment stands either above or beside a statement, not both")
    if error.validator == "required":
        missing = [name for name in error.validator_value if name not in error.instance]
        # TRANSLATORS: {name} is the member's name as JSON writes it ("cards")
        return msg("the member {name} is missing here",
                   name=shown(missing[0] if missing else "?"))
    if error.validator == "dependentRequired":
        return msg("a hand with a dealer or a pass direction needs its number (the hand line)")
    message = error.message
    # TRANSLATORS: {problem} is the schema validator's own English words; leave it as it is
    return msg("{problem}", problem=message if len(message) <= 200 else message[:199] + "…")


# This table gives the schema's descriptions (spec/game-record.schema.json, which a test holds
# to this table) as messages: "... is not a card: a rank 2-10, ...".
DESCRIPTIONS = {text: text for text in (
    msg("One game as data, statement by statement as a written log has it "
        "(spec/game-record.md)."),
    msg('the string "referee-game-record"'),
    msg("1, the version of the format this schema describes"),
    msg("a string on one line (no line break, no NUL)"),
    msg("a player's name: a non-empty string on one line (no line break, no NUL)"),
    msg("a card: a rank 2-10, J, Q, K or A, then a suit S, H, D or C (10S, QH)"),
    msg("a whole number from 0 to 999999999"),
    msg("a whole number of points, at most nine digits, may be negative"),
    msg("the JSON pointer of a statement in this record (/hands/0/tricks/3)"),
    msg("a tag name: a letter or _, then letters, digits, _ or -"),
    msg("a string on one line, or (for Players) the names in seating order"),
    msg("a pass direction: left, right, across, hold (or none), or 'N left' / 'N right'"),
    msg("the player claimed to win the trick, or null: claimed set aside"),
    msg("subtract or add"),
)}

