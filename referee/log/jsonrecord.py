"""A game record in JSON (spec/game-record.md) -> the same events a written log gives.

A record is recognised by content (:func:`looks_like_record`: its first non-blank character
is ``{``).  :func:`read_record` decodes it with :mod:`referee.log.jsontext`, which knows where
every value is, validates it against ``spec/game-record.schema.json`` with ``jsonschema``
and makes the events in the order a log would have them; every span points at the line and
column of its JSON value.  An invalid record raises :class:`InvalidRecord`, an
:class:`UnreadableLog` carrying one :class:`RecordProblem` per problem, each with the JSON
pointer of the faulty value.  :func:`record_pointers` gives the table from a value's place
back to its pointer, so that a diagnostic about the game can name it too.
"""

from __future__ import annotations

import re
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
    Tag,
    Total,
    Trick,
)
from referee.log.jsontext import JsonError, Positions, decode
from referee.log.recognise import looks_like_record
from referee.log.recordschema import Places, RecordProblem, schema, schema_problems, shown
from referee.log.words import TAG_NAME_RE, split_players
from referee.rules.cards import Card, card_text
from referee.rules.ruleset import canonical_direction
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
_DIRECTION = re.compile(r"left|right|across|hold|none|[0-9]{1,9} (?:left|right)")
_CARDS = {card_text(card): Card(card) for card in range(52)}
# what no text of a log can hold (the schema says so too; a card, a tag name or a direction
# is matched whole here, since a schema pattern's $ also matches before a final newline)
_ONE_LINE = str.maketrans("", "", "\0\n\r")


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


# What the text of a record must not hold, by what it is (the message, made once).
_ON_ONE_LINE = {
    "name": msg("a player's name must be on one line (no line break, no NUL)"),
    "tag value": msg("a tag value must be on one line (no line break, no NUL)"),
    "comment": msg("a comment must be on one line (no line break, no NUL)"),
}


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


def read_record(text: str) -> Reading:
    """The events of a JSON game record; raises :class:`InvalidRecord` with every problem."""
    try:
        document, where = decode(text)
    except JsonError as err:
        line, column = Positions(text).at(err.offset)
        raise InvalidRecord([RecordProblem(line, column, line, column + 1,
                                           msg("not JSON: {problem}", problem=err.message),
                                           None)], text) from None
    places = Places(text, where)
    problems = schema_problems(document, places)
    if problems:
        raise InvalidRecord(problems, text)
    builder = _Builder(places)
    reading = builder.build(document)
    if builder.problems:
        raise InvalidRecord(sorted(builder.problems, key=lambda p: (p.line, p.column)), text)
    if not any(not isinstance(event, Comment) for event in reading.events):
        raise UnreadableLog(msg("the game record holds no statement (no tags, no hands)"), 1, 1)
    return reading


def record_pointers(text: str) -> dict[tuple[int, int], str]:
    """(line, column) where each value of the record starts -> its JSON pointer; empty for
    text that is not JSON."""
    try:
        _, where = decode(text)
    except JsonError:
        return {}
    positions = Positions(text)
    return {positions.at(start): pointer for pointer, (start, _) in where.items()}


# ---- events -------------------------------------------------------------------------------
# (numbers go through int(): the schema's integers include 15.0, which a log writes as 15)
class _Builder:
    """The events of one valid record, in log order, with the pointer of each statement."""

    def __init__(self, places: Places) -> None:
        self.places = places
        self.span = places.span
        self.problems: list[RecordProblem] = []
        self.events: list[tuple[str, Event]] = []  # (pointer of the statement, event)

    def add(self, pointer: str, event: Event) -> None:
        self.events.append((pointer, event))

    def fail(self, pointer: str, message: str) -> None:
        self.problems.append(self.places.problem(pointer, message))

    def build(self, document: dict) -> Reading:
        for index, tag in enumerate(document.get("tags", ())):
            self.tag(f"/tags/{index}", tag)
        for index, hand in enumerate(document.get("hands", ())):
            self.hand(f"/hands/{index}", hand)
        return self.place_comments(document.get("comments", ()))

    def text(self, pointer: str, value: str, what: str) -> str:
        """``value``, which must be on one line; ``what`` it is: a key of _ON_ONE_LINE."""
        if value.translate(_ONE_LINE) != value:
            self.fail(pointer, _ON_ONE_LINE[what])
        return value

    def tag(self, at: str, tag: dict) -> None:
        name, value = tag["name"], tag["value"]
        if not TAG_NAME_RE.fullmatch(name) or "\n" in name:
            # TRANSLATORS: {name} is the tag's name as JSON writes it ("Date")
            self.fail(at + "/name", msg("{name} is not a tag name: a letter or _, then letters, "
                                        "digits, _ or -", name=shown(name)))
        if isinstance(value, list):
            for index, player in enumerate(value):
                self.text(f"{at}/value/{index}", player, "name")
            written = players_value(value)
            if written is None or name.casefold() != "players":
                self.fail(at + "/value", msg("only a Players tag may list names, and only names "
                                             "that a Players tag can write (no name with both "
                                             "kinds of quote)"))
                written = ""
            value = written
        self.add(at, Tag(name, self.text(at + "/value", value, "tag value"),
                         self.span(at)))

    def name(self, pointer: str, value: str) -> str:
        return self.text(pointer, value, "name")

    def hand(self, at: str, hand: dict) -> None:
        if "number" in hand:
            direction = hand.get("pass")
            if direction is not None:
                if not _DIRECTION.fullmatch(direction):
                    self.fail(at + "/pass", msg("{direction} is not a pass direction",
                                                direction=shown(direction)))
                direction = canonical_direction(direction)
            self.add(at, HandStart(
                int(hand["number"]), self.name(at + "/dealer", hand["dealer"]) if "dealer" in hand
                else None, direction, self.span(at + "/number"), self.span(at + "/dealer"),
                self.span(at + "/pass")))
        for index, deal in enumerate(hand.get("deal", ())):
            where = f"{at}/deal/{index}"
            self.add(where, Deal(self.name(where + "/player", deal["player"]),
                                 self.run(where + "/cards", deal["cards"]), self.span(where),
                                 self.span(where + "/player")))
        if "kitty" in hand:
            self.add(at + "/kitty", Kitty(self.run(at + "/kitty", hand["kitty"]),
                                          self.span(at + "/kitty")))
        for index, passed in enumerate(hand.get("passes", ())):
            self.passing(f"{at}/passes/{index}", passed)
        for index, trick in enumerate(hand.get("tricks", ())):
            self.trick(f"{at}/tricks/{index}", trick)
        self.closing(at, hand)

    def passing(self, at: str, passed: dict) -> None:
        to = passed.get("to")
        self.add(at, Pass(self.name(at + "/player", passed["player"]),
                          self.run(at + "/cards", passed["cards"]),
                          None if to is None else self.name(at + "/to", to), self.span(at),
                          self.span(at + "/player"), self.span(at + "/to")))

    def closing(self, at: str, hand: dict) -> None:
        """The moon, score, total and winner statements of a hand."""
        if "moon" in hand:
            moon = hand["moon"]
            self.add(at + "/moon", Moon(self.name(at + "/moon/player", moon["player"]),
                                        moon["choice"], self.span(at + "/moon"),
                                        self.span(at + "/moon/player")))
        for key, kind in (("score", Score), ("total", Total)):
            if key in hand:
                where = f"{at}/{key}"
                entries = tuple(Entry(self.name(f"{where}/{i}/player", entry["player"]),
                                      int(entry["points"]), self.span(f"{where}/{i}"))
                                for i, entry in enumerate(hand[key]))
                self.add(where, kind(entries, self.span(where)))
        if "winners" in hand:
            where = at + "/winners"
            names = tuple(self.name(f"{where}/{i}", name) for i, name in enumerate(hand["winners"]))
            if any(name.casefold() == "none" for name in names):
                self.fail(where, msg("'none' cannot be named as a winner of the game"))
            self.add(where, GameOver(names, self.span(where)))

    def run(self, at: str, cards: list[str]) -> CardRun:
        made = []
        for index, text in enumerate(cards):
            card = _CARDS.get(text)
            if card is None:
                self.fail(f"{at}/{index}", msg("{card} is not a card", card=shown(text)))
                card = Card(0)
            made.append(card)
        return CardRun(tuple(made), tuple(self.span(f"{at}/{i}") for i in range(len(cards))))

    def trick(self, at: str, trick: dict) -> None:
        leader = trick.get("leader")
        plays = []
        for index, play in enumerate(trick["plays"]):
            where = f"{at}/plays/{index}"
            card = self.run(where + "/card", [play["card"]]).cards[0]
            player = play.get("player")
            if (player is None) == (leader is None):
                self.fail(where, msg("a trick with a leader lists only the cards, in seating "
                                     "order from the leader") if leader is not None else
                          msg("this play names no player (only a trick with a leader lists bare "
                              "cards)"))
            player = None if player is None else self.name(where + "/player", player)
            plays.append(Play(player, card, self.span(where), self.span(where + "/card")))
        claim = None
        if "winner" in trick:
            winner = trick["winner"]
            claim = Claim(None if winner is None else self.name(at + "/winner", winner),
                          self.span(at + "/winner"))
        self.add(at, Trick(int(trick["number"]), tuple(plays), claim,
                           None if leader is None else self.name(at + "/leader", leader),
                           self.span(at), self.span(at + "/leader")))

    def place_comments(self, comments: list[dict]) -> Reading:
        """The comments among the statements: a whole-line comment above the statement it
        names (at the end without one), a comment beside a statement at the end of its line."""
        index_of = {pointer: index for index, (pointer, _) in enumerate(self.events)}
        index_of.update({pointer + "/number": index for index, (pointer, event)
                         in enumerate(self.events) if isinstance(event, HandStart)})
        above: dict[int, list[Event]] = {}
        remarks: dict[int, str] = {}
        for number, comment in enumerate(comments):
            at = f"/comments/{number}"
            text = self.text(at + "/text", comment["text"], "comment")
            target = comment.get("above", comment.get("beside"))
            index = len(self.events) if target is None else index_of.get(target)
            if index is None:
                key = "above" if "above" in comment else "beside"
                # TRANSLATORS: {pointer} is the JSON pointer the comment names, as written
                self.fail(f"{at}/{key}", msg("no statement of this record is at {pointer} (a tag, "
                                             "a hand's number, a deal, the kitty, a pass, a "
                                             "trick, the moon, score, total or winners)",
                                             pointer=shown(target)))
            elif "beside" in comment:
                if index in remarks:
                    self.fail(at + "/beside",
                              msg("a statement has at most one comment beside it"))
                remarks[index] = text if text.startswith("#") else "# " + text
            else:  # as the log reader makes it: the text after the # without the blanks
                words = text.removeprefix("#")
                above.setdefault(index, []).append(Comment(words.strip(), self.span(at)))
        events: list[Event] = []
        moved: list[tuple[int, str]] = []
        for index, (_, event) in enumerate(self.events + [("", None)]):
            events.extend(above.get(index, ()))
            if event is not None:
                if index in remarks:
                    moved.append((len(events), remarks[index]))
                events.append(event)
        return Reading(tuple(events), tuple(moved))
