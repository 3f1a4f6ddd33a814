"""This module writes a log's events as a JSON game record (spec/game-record.md), and a record
back as log text.

:func:`record_text` and :class:`RecordWriter` make a record whose statements, read in order, are
the log's events; a hand written in another order goes on in a further hand object without a
number, and a tag after the first statement raises :class:`NotRecordable`."""

from __future__ import annotations

import json
from json.encoder import c_make_encoder, encode_basestring

from referee.log.events import (CardRun, Comment, Deal, Event, GameOver, HandStart, Kitty, Moon,
                                Pass, Score, Tag, Total, Trick)
from referee.log.jsonrecord import (FORMAT, HAND_MEMBERS, VERSION, Reading, players_value,
                                    schema, valid)
from referee.log.words import TAG_NAME_RE, split_players
from referee.log.writer import remark, write
from referee.rules.cards import card_text
from referee.rules.ruleset import canonical_direction

__all__ = ["NotRecordable", "RecordWriter", "dump", "log_text", "record_text"]

LINE_WIDTH = 100  # a JSON value that fits on a line this wide is written on one line

# each statement's place in a hand object (a higher rank cannot come before a lower one), its
# member and whether it is a list (whose items may repeat the rank)
_PLACE = {kind: (rank, key, listed)
          for rank, (key, kind, listed) in enumerate(HAND_MEMBERS, start=1)}
_PLACE[HandStart] = (0, None, False)
# how many of each a hand object may hold (the schema's bounds: far more than any hand has)
_MAX_ITEMS = {key: schema()["$defs"]["hand"]["properties"][key]["maxItems"]
              for key, _, listed in HAND_MEMBERS if listed}
_WHAT = {"deal": "deal lines", "passes": "pass lines", "tricks": "tricks"}


class NotRecordable(ValueError):
    """NotRecordable says that the log says something a record cannot hold; ``line`` and
    ``column`` say where."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def _cards(run: CardRun) -> list[str]:
    return [card_text(card) for card in run.cards]


def _value(event: Event):
    """Make the JSON of one statement inside its hand object (a HandStart: its members)."""
    if isinstance(event, Trick):
        if event.leader is not None:
            data = {"number": event.number, "leader": event.leader,
                    "plays": [{"card": card_text(play.card)} for play in event.plays]}
        else:
            data = {"number": event.number, "plays": [
                {"player": play.player, "card": card_text(play.card)} for play in event.plays]}
        if event.claim is not None:
            data["winner"] = event.claim.player  # (None: set aside)
        return data
    if isinstance(event, HandStart):
        data = {"number": event.number, "dealer": event.dealer, "pass": event.direction}
        return {key: value for key, value in data.items() if value is not None}
    if isinstance(event, (Deal, Pass)):
        data = {"player": event.player}
        if isinstance(event, Pass) and event.to is not None:
            data["to"] = event.to
        data["cards"] = _cards(event.run)
        return data
    if isinstance(event, Kitty):
        return _cards(event.run)
    if isinstance(event, Moon):
        return {"player": event.player, "choice": event.choice}
    if isinstance(event, (Score, Total)):
        return [{"player": entry.player, "points": entry.value} for entry in event.entries]
    return list(event.players)  # a GameOver, the one kind left


def _tag(event: Tag) -> dict:
    if event.key == "players":
        names = split_players(event.value)
        if names and players_value(names) == event.value:
            return {"name": event.name, "value": names}
    return {"name": event.name, "value": event.value}


def record_text(events: tuple[Event, ...], text: str = "") -> str:
    """Write the record of a log's events (``text``, the log's text, gives the comments beside
    statements).  Raise :class:`NotRecordable`."""
    writer = RecordWriter(judge=False)
    lines = text.split("\n") if text else []
    for event in events:
        line = event.span.line
        writer.event(event, lines[line - 1] if 1 <= line <= len(lines) else None)
    return "".join(writer.pieces())


def log_text(reading: Reading) -> str:
    """Write the canonical log text of a record, as ``referee fmt`` writes it."""
    return write(reading.events, dict(reading.remarks))


def dump(value) -> str:
    """Write JSON text with each value on one line when it fits in :data:`LINE_WIDTH` columns,
    and a list of plain values (a deal's cards) always on one line."""
    return _laid(_node(value), 0, 0)


_PLAIN = frozenset((str, int, float, bool, type(None)))
_TEXT = frozenset((str,))
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))
if c_make_encoder is None:  # pragma: no cover - Python without its C accelerator
    _one_line = _ENCODER.encode
else:  # the C encoder made once: json.dumps makes one at each call
    _encode = c_make_encoder(None, _ENCODER.default, encode_basestring, None, ": ", ", ",
                             False, False, True)

    def _one_line(value) -> str:
        return "".join(_encode(value, 0))


def _node(value):
    """Make a value's JSON on one line, once: a plain value's text, or (text, the nodes of its
    members, whether it is an object)."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is dict:
        if _PLAIN.issuperset(map(type, value.values())):  # a play: its members
            return _one_line(value), value, True                 # only when laid out
        members = [(encode_basestring(key), _node(item)) for key, item in value.items()]
        return ("{" + ", ".join([f"{key}: {item if type(item) is str else item[0]}"
                                 for key, item in members]) + "}", members, True)
    if kind is list:
        if _TEXT.issuperset(map(type, value)):  # cards: always on one line
            return "[" + ", ".join(map(encode_basestring, value)) + "]"
        items = [_node(item) for item in value]
        return ("[" + ", ".join([item if type(item) is str else item[0] for item in items])
                + "]", items, False)
    return json.dumps(value)  # a number, null


def _laid(node, indent: int, lead: int) -> str:
    """Lay out a value's node as :func:`dump` does."""
    if type(node) is str:
        return node
    flat, members, is_object = node
    if lead + len(flat) <= LINE_WIDTH or not members or (
            not is_object and all(type(item) is str for item in members)):
        return flat
    if type(members) is dict:
        members = [(encode_basestring(key), _node(item)) for key, item in members.items()]
    inner = " " * (indent + 2)
    if is_object:
        rows = []
        for key, item in members:
            prefix = f"{inner}{key}: "
            rows.append(prefix + _laid(item, indent + 2, len(prefix)))
    else:
        width = LINE_WIDTH - len(inner)  # (the plays of a trick: each on one line, mostly)
        rows = [inner + (item if type(item) is str else item[0] if len(item[0]) <= width
                         else _laid(item, indent + 2, len(inner))) for item in members]
    close = "}" if is_object else "]"
    return ("{\n" if is_object else "[\n") + ",\n".join(rows) + "\n" + " " * indent + close


class RecordWriter:
    """A RecordWriter writes what :func:`record_text` writes, given a log an event at a time; it
    holds the text of each complete tag, hand object and comment, not the events; ``plain`` (unless
    not ``judge``d) tells whether the record read back gives the log's events (:func:`plain_piece`,
    :func:`plain_event`); if not, a log is converted the long way."""

    def __init__(self, judge: bool = True) -> None:
        self.plain = judge
        self._lists = {key: _Listing(key) for key in ("tags", "hands", "comments")}
        self.hand: dict | None = None  # the hand object being made
        self.waiting: list[str] = []  # whole-line comments for the next statement
        self.rank = -1  # of the last statement in the current hand object

    def put(self, key: str, value: dict) -> int:
        """Write a complete tag, hand object or comment; return its index in its list."""
        if self.plain:
            self.plain = plain_piece(key, value)
        listing = self._lists[key]
        listing.add(value)
        return len(listing.rows) - 1

    def statement(self, event: Event) -> str:
        """Put one statement in place; return its pointer."""
        if isinstance(event, Tag):
            if self.hand is not None or self._lists["hands"].rows:
                raise NotRecordable("a tag after the first statement of the game: a record "
                                    "keeps its tags first (move it above)", event.span.line,
                                    event.span.column)
            return f"/tags/{self.put('tags', _tag(event))}"
        rank, key, listed = _PLACE[type(event)]
        if self.hand is None or rank == 0 or rank < self.rank or (
                rank == self.rank and not listed):
            self.close_hand()
            self.hand = {}
        hand = self.hand
        self.rank = rank
        at = f"/hands/{len(self._lists['hands'].rows)}"
        if rank == 0:
            hand.update(_value(event))
            return at
        if not listed:
            hand[key] = _value(event)
            return f"{at}/{key}"
        items = hand.setdefault(key, [])
        if len(items) >= _MAX_ITEMS[key]:  # (before a hostile hand is held whole)
            raise NotRecordable(f"a hand of a record holds at most {_MAX_ITEMS[key]} "
                                f"{_WHAT[key]}; this is one more", event.span.line,
                                event.span.column)
        items.append(_value(event))
        return f"{at}/{key}/{len(items) - 1}"

    def close_hand(self) -> None:
        if self.hand is not None:
            self.put("hands", self.hand)
            self.hand = None

    def event(self, event: Event, line: str | None) -> None:
        """Take one event of the log, ``line`` its line's text (None: no comment beside it).
        Raise :class:`NotRecordable`."""
        if self.plain:
            self.plain = plain_event(event)
        if isinstance(event, Comment):
            self.waiting.append("# " + event.text if event.text else "#")
            return
        pointer = self.statement(event)
        for comment in self.waiting:
            self.put("comments", {"text": comment, "above": pointer})
        self.waiting = []
        beside = remark(line, event) if line is not None else None
        if beside is not None:
            self.put("comments", {"text": beside, "beside": pointer})

    def pieces(self) -> list[str]:
        """Return the record's JSON text in pieces (once every event is given)."""
        self.close_hand()
        for text in self.waiting:
            self.put("comments", {"text": text})
        self.waiting = []
        lists = self._lists
        if all(listing.values is not None for listing in lists.values()):  # a small record
            data = {"format": FORMAT, "version": VERSION}
            data.update((key, made.values) for key, made in lists.items() if made.values)
            return [dump(data) + "\n"]
        pieces = [f"{{\n  \"format\": {json.dumps(FORMAT)},\n  \"version\": {VERSION}"]
        for listing in lists.values():
            listing.pieces(pieces)
        pieces.append("\n}\n")
        return pieces


class _Listing:
    """A _Listing holds one list of a record (tags, hands or comments) as text: each value's
    rows, and while the whole list is short enough to be written on one line, the values
    themselves."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.lead = len(f'  "{key}": ')
        self.rows: list[str] = []
        self.values: list[dict] | None = []  # None once the list is too long for a line
        self.width = 0  # of the list on one line

    def add(self, value: dict) -> None:
        node = _node(value)
        self.rows.append("    " + _laid(node, 4, 4))
        if self.values is not None:
            self.values.append(value)
            self.width += len(node[0])
            if 2 * len(self.values) + self.width > LINE_WIDTH:
                self.values = None

    def pieces(self, pieces: list[str]) -> None:
        if not self.rows:
            return
        if self.values is not None and self.lead + 2 * len(self.values) + self.width <= LINE_WIDTH:
            pieces.append(f',\n  "{self.key}": ' + dump(self.values))
            return
        pieces.append(f',\n  "{self.key}": [\n')
        for index, row in enumerate(self.rows):
            if index:
                pieces.append(",\n")
            pieces.append(row)
        pieces.append("\n  ]")


def plain_piece(key: str, value: dict) -> bool:
    """Tell whether a complete tag, hand object or comment (``key``: its list) is valid, as the
    reader asks (jsonschema-rs)."""
    if key == "hands":
        return valid("hand", value)
    return valid("record", {"format": FORMAT, "version": VERSION, key: [value]})


def plain_event(event: Event) -> bool:
    """Tell whether the reader, which checks more than the schema, gives back the event as it
    is."""
    if isinstance(event, Tag):
        return TAG_NAME_RE.fullmatch(event.name) is not None
    if isinstance(event, HandStart):
        return event.direction is None or canonical_direction(event.direction) == event.direction
    if isinstance(event, Comment):
        return event.text == event.text.strip()  # the reader strips a comment's words
    if isinstance(event, GameOver):
        return all(name.casefold() != "none" for name in event.players)
    if isinstance(event, Trick) and event.leader is not None:
        return all(play.player is None for play in event.plays)
    return True
