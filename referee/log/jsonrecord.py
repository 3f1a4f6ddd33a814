"""A game record in JSON (spec/game-record.md) -> the same events a written log gives.

:func:`read_record` decodes the record but its hands, then each hand alone, checks each piece
against the schema and makes the events in the order a log would have them.  Each span is
found in the text when it is first read (:class:`_Found`), so that a record with no fault is
read without looking for the place of any value.  An invalid record raises
:class:`InvalidRecord`, with one :class:`RecordProblem` per problem."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from referee.log.decode import UnreadableLog
from referee.log.events import (
    CardRun,
    Claim,
    Comment,
    Deal,
    Entry,
    Event,
    GameOver,
    HandStart,
    Kitty,
    Moon,
    Pass,
    Play,
    Score,
    Span,
    Tag,
    Total,
    Trick,
    setters,
)
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
from referee.log.recordschema import RecordProblem, capped, placed, problems, shown, valid
from referee.log.words import TAG_NAME_RE, split_players
from referee.rules.cards import Card, card_text
from referee.rules.ruleset import canonical_direction
from referee.util.message import msg, msgn

__all__ = ["FORMAT", "VERSION", "InvalidRecord", "Reading", "players_value", "read_record",
           "record_pointers", "validate_record"]

FORMAT = "referee-game-record"
VERSION = 1
_BLANK = re.compile(r"[ \t\n\r]*")
_CARDS = {card_text(card): Card(card) for card in range(52)}  # the schema's cards
_NOWHERE = Span(1, 1, 1, 1)  # the span of a member that is not there
_new = object.__new__
_SET_CARDS, _SET_SOURCE = setters(CardRun, "cards", "_source")
_SET_SPAN = setters(Span, "line", "column", "end_line", "end_column")


class Reading(NamedTuple):
    """A record's events in log order, and the comments beside statements: (index, text)."""

    events: tuple[Event, ...]
    remarks: tuple[tuple[int, str], ...]


def players_value(names: list[str]) -> str | None:
    """A ``Players`` tag's text for these names (quoted where needed), or None when no text
    splits back into exactly these names."""
    words = []
    for name in names:
        # as it stands, else in single quotes, else in double quotes: the first that reads back
        word = next((w for w in (name, f"'{name}'", f'"{name}"')
                     if split_players(w) == [name]), None)
        if word is None:
            return None
        words.append(word)
    value = " ".join(words)
    return value if split_players(value) == names else None


class _Found(Span):
    """The span of the value at a path of a record, found in its text on first read."""

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


def _place(span: Span) -> tuple[int, int, int, int]:
    return span.line, span.column, span.end_line, span.end_column


class _Plays:
    """The spans of the plays of a trick and of their cards, for :class:`Play`."""

    __slots__ = ("path", "places")

    def __init__(self, places: Places, path: tuple) -> None:
        self.places, self.path = places, path

    def place(self, index: int) -> tuple[Span, Span]:
        return (self.places.span((*self.path, index)),
                self.places.span((*self.path, index, "card")))


class Builder:
    """The events of one record, in log order, and the problems the schema cannot see."""

    def __init__(self, places: Places, keep: bool = True) -> None:
        self.places, self.keep = places, keep
        self.problems: list[RecordProblem] = []
        self.statements: list[tuple[tuple, Event]] = []  # each with its path
        self.names: dict[str, str] = {}  # each name, kept once

    def span(self, value: dict, path: tuple, key: str | None = None) -> Span:
        """The span of ``value`` at ``path``, or of its member ``key``, if it has one."""
        if key is None:
            return _Found(self.places, path)
        return _Found(self.places, (*path, key)) if key in value else _NOWHERE

    def fail(self, path: tuple, message: str) -> None:
        self.problems.append(placed(self.places, path, message))

    def name(self, value: str | None) -> str | None:
        """A player's name, each kept once."""
        return None if value is None else self.names.setdefault(value, value)

    def run(self, cards: list[str], path: tuple) -> CardRun:
        """The cards of the array at ``path``; their spans are made when asked for."""
        run = _new(CardRun)
        _SET_CARDS(run, tuple(map(_CARDS.__getitem__, cards)))
        _SET_SOURCE(run, (self.places.spans, path))
        return run

    def tags(self, tags: list[dict]) -> None:
        for index, tag in enumerate(tags):
            self.tag(("tags", index), tag)

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
        self.statements.append((at, Tag(name, value, self.span(tag, at))))

    def hand(self, at: tuple, hand: dict) -> None:
        """One hand's statements; unless ``keep``, only their paths (and the HandStart, which
        a comment naming its number needs) are kept."""
        first = len(self.statements)
        self._hand(at, hand)
        if not self.keep:
            self.statements[first:] = [(path, event if type(event) is HandStart else None)
                                       for path, event in self.statements[first:]]

    def _hand(self, at: tuple, hand: dict) -> None:
        add = self.statements.append
        if "number" in hand:
            direction = hand.get("pass")
            add((at, HandStart(
                int(hand["number"]), self.name(hand.get("dealer")),
                None if direction is None else canonical_direction(direction),
                self.span(hand, at, "number"), self.span(hand, at, "dealer"),
                self.span(hand, at, "pass"))))
        for index, deal in enumerate(hand.get("deal", ())):
            path = (*at, "deal", index)
            add((path, Deal(self.name(deal["player"]), self.run(deal["cards"], (*path, "cards")),
                            self.span(deal, path), self.span(deal, path, "player"))))
        if "kitty" in hand:
            add(((*at, "kitty"), Kitty(self.run(hand["kitty"], (*at, "kitty")),
                                       self.span(hand, at, "kitty"))))
        for index, passed in enumerate(hand.get("passes", ())):
            path = (*at, "passes", index)
            add((path, Pass(self.name(passed["player"]), self.run(passed["cards"],
                                                                  (*path, "cards")),
                            self.name(passed.get("to")), self.span(passed, path),
                            self.span(passed, path, "player"), self.span(passed, path, "to"))))
        for index, trick in enumerate(hand.get("tricks", ())):
            self.trick((*at, "tricks", index), trick)
        self.closing(at, hand)

    def trick(self, at: tuple, trick: dict) -> None:
        leader = trick.get("leader")
        plays, finder = [], _Plays(self.places, (*at, "plays"))
        for index, play in enumerate(trick["plays"]):
            player = play.get("player")
            if (player is None) == (leader is None):
                self.fail((*at, "plays", index), msg(
                    "a trick with a leader lists only the cards, in seating order from the "
                    "leader") if leader is not None else msg(
                    "this play names no player (only a trick with a leader lists bare cards)"))
            plays.append(Play(self.name(player), _CARDS[play["card"]], finder, index))
        claim = None
        if "winner" in trick:
            claim = Claim(self.name(trick["winner"]), self.span(trick, at, "winner"))
        self.statements.append((at, Trick(
            int(trick["number"]), tuple(plays), claim, self.name(leader),
            self.span(trick, at), self.span(trick, at, "leader"))))

    def closing(self, at: tuple, hand: dict) -> None:
        """The moon, score, total and winner statements of a hand."""
        add = self.statements.append
        if "moon" in hand:
            moon, path = hand["moon"], (*at, "moon")
            add((path, Moon(self.name(moon["player"]), moon["choice"], self.span(moon, path),
                            self.span(moon, path, "player"))))
        for key, kind in (("score", Score), ("total", Total)):
            if key in hand:
                path = (*at, key)
                entries = tuple(Entry(self.name(entry["player"]), int(entry["points"]),
                                      self.span(entry, (*path, index)))
                                for index, entry in enumerate(hand[key]))
                add((path, kind(entries, self.span(hand, at, key))))
        if "winners" in hand:
            path = (*at, "winners")
            names = tuple(map(self.name, hand["winners"]))
            if any(name.casefold() == "none" for name in names):
                self.fail(path, msg("'none' cannot be named as a winner of the game"))
            add((path, GameOver(names, self.span(hand, at, "winners"))))

    def finish(self, comments: list[dict]) -> Reading:
        """The events, with the comments among the statements: a whole-line comment above
        the statement it names (at the end without one), a comment beside a statement at
        the end of its line."""
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
                above.setdefault(index, []).append(Comment(words.strip(), self.span(comment, at)))
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
