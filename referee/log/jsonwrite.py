"""A log's events -> a JSON game record (spec/game-record.md), and a record back to log text.

:func:`record_of` turns the events of a readable log into a record that holds them exactly:
its statements, read in order (:func:`referee.log.jsonrecord.read_record`), are the log's
events, its comments the log's comments, whole-line and beside a statement.  A hand's
statements sit in a hand object in the order deal, kitty, passes, tricks, moon, score, total,
winners; a log that writes them in another order goes on in a further hand object without a
number, so the order is kept (and the referee judges it as in the log).  Tags come first: a
tag after the first statement of the game has no place in a record (:class:`NotRecordable`).

:func:`log_text` is the other way: the canonical log text of a record's events, the text
``referee fmt`` prints for the log the record came from.
"""

from __future__ import annotations

import json

from referee.log.events import (
    CardRun,
    Comment,
    Deal,
    Event,
    GameOver,
    HandStart,
    Kitty,
    Moon,
    Pass,
    Score,
    Tag,
    Total,
    Trick,
)
from referee.log.jsonrecord import FORMAT, VERSION, Reading, players_value
from referee.log.parser import split_players
from referee.log.writer import format_event
from referee.rules.cards import card_text

__all__ = ["NotRecordable", "dump", "log_text", "record_of", "record_text"]

LINE_WIDTH = 100  # a JSON value that fits on a line this wide is written on one line

# the place of each statement in a hand object: a kind of a higher rank cannot come before
# one of a lower rank; those of a listed kind may repeat
_RANK = {HandStart: 0, Deal: 1, Kitty: 2, Pass: 3, Trick: 4, Moon: 5, Score: 6, Total: 7,
         GameOver: 8}
_LISTED = {Deal: "deal", Pass: "passes", Trick: "tricks"}


class NotRecordable(ValueError):
    """The log says something a record cannot hold; ``line`` and ``column`` say where."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def _cards(run: CardRun) -> list[str]:
    return [card_text(card) for card in run.cards]


def _entries(entries) -> list[dict]:
    return [{"player": entry.player, "points": entry.value} for entry in entries]


def _trick(event: Trick) -> dict:
    data: dict = {"number": event.number}
    if event.leader is not None:
        data["leader"] = event.leader
        data["plays"] = [{"card": card_text(play.card)} for play in event.plays]
    else:
        data["plays"] = [{"player": play.player, "card": card_text(play.card)}
                         for play in event.plays]
    if event.claim is not None:
        data["winner"] = event.claim.player
    return data


def _hand_line(event: HandStart) -> dict:
    data: dict = {"number": event.number}
    if event.dealer is not None:
        data["dealer"] = event.dealer
    if event.direction is not None:
        data["pass"] = event.direction
    return data


def _value(event: Event):
    """The JSON of one statement inside its hand object."""
    if isinstance(event, Trick):
        return _trick(event)
    if isinstance(event, Deal):
        return {"player": event.player, "cards": _cards(event.run)}
    if isinstance(event, Pass):
        data = {"player": event.player}
        if event.to is not None:
            data["to"] = event.to
        data["cards"] = _cards(event.run)
        return data
    if isinstance(event, Kitty):
        return _cards(event.run)
    if isinstance(event, Moon):
        return {"player": event.player, "choice": event.choice}
    if isinstance(event, (Score, Total)):
        return _entries(event.entries)
    if isinstance(event, GameOver):
        return list(event.players)
    raise TypeError(f"not a statement of a hand: {event!r}")  # pragma: no cover


_KEYS = {Kitty: "kitty", Moon: "moon", Score: "score", Total: "total", GameOver: "winners"}


class _Record:
    """The record being made, statement by statement."""

    def __init__(self) -> None:
        self.tags: list[dict] = []
        self.hands: list[dict] = []
        self.comments: list[dict] = []
        self.waiting: list[str] = []  # whole-line comments for the next statement
        self.rank = -1  # of the last statement in the current hand object

    def statement(self, event: Event) -> str:
        """Put one statement in place; its pointer."""
        if isinstance(event, Tag):
            if self.hands:
                raise NotRecordable("a tag after the first statement of the game: a record "
                                    "keeps its tags first (move it above)", event.span.line,
                                    event.span.column)
            self.tags.append(_tag(event))
            return f"/tags/{len(self.tags) - 1}"
        kind = type(event)
        rank = _RANK[kind]
        listed = _LISTED.get(kind)
        if not self.hands or rank == 0 or rank < self.rank or (
                rank == self.rank and listed is None):
            self.hands.append({})
        hand = self.hands[-1]
        self.rank = rank
        at = f"/hands/{len(self.hands) - 1}"
        if rank == 0:
            hand.update(_hand_line(event))
            return at
        if listed is not None:
            hand.setdefault(listed, []).append(_value(event))
            return f"{at}/{listed}/{len(hand[listed]) - 1}"
        hand[_KEYS[kind]] = _value(event)
        return f"{at}/{_KEYS[kind]}"

    def document(self) -> dict:
        for text in self.waiting:
            self.comments.append({"text": text})
        data: dict = {"format": FORMAT, "version": VERSION}
        for key in ("tags", "hands", "comments"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data


def _tag(event: Tag) -> dict:
    if event.key == "players":
        names = split_players(event.value)
        if names and players_value(names) == event.value:
            return {"name": event.name, "value": names}
    return {"name": event.name, "value": event.value}


def _remark(lines: list[str], event: Event) -> str | None:
    """The comment at the end of the statement's line, as ``referee fmt`` keeps it."""
    span = event.span
    if not 1 <= span.line <= len(lines) or span.end_line != span.line:
        return None
    rest = lines[span.line - 1][span.end_column - 1:]
    cut = rest.find("#")
    return rest[cut:].rstrip() if cut >= 0 else None


def record_of(events: tuple[Event, ...], text: str = "") -> dict:
    """The record of a log's events (``text``, the log's text, gives the comments beside
    statements).  Raises :class:`NotRecordable`."""
    made = _Record()
    lines = text.split("\n") if text else []
    for event in events:
        if isinstance(event, Comment):
            made.waiting.append("# " + event.text if event.text else "#")
            continue
        pointer = made.statement(event)
        for comment in made.waiting:
            made.comments.append({"text": comment, "above": pointer})
        made.waiting = []
        remark = _remark(lines, event) if lines else None
        if remark is not None:
            made.comments.append({"text": remark, "beside": pointer})
    return made.document()


def record_text(events: tuple[Event, ...], text: str = "") -> str:
    """:func:`record_of` as JSON text."""
    return dump(record_of(events, text)) + "\n"


def log_text(reading: Reading) -> str:
    """The canonical log text of a record: one statement per line, a blank line before each
    hand, a comment beside a statement after two blanks (``referee fmt``'s form)."""
    remarks = dict(reading.remarks)
    lines: list[str] = []
    for index, event in enumerate(reading.events):
        if isinstance(event, HandStart) and lines and lines[-1] != "":
            lines.append("")
        line = format_event(event)
        if index in remarks:
            line += "  " + remarks[index]
        lines.append(line)
    return "\n".join(lines) + "\n" if lines else ""


def dump(value, indent: int = 0, lead: int = 0) -> str:
    """JSON text with each value on one line when it fits in :data:`LINE_WIDTH` columns
    (``lead``: how many columns of the line are taken before the value), and a list of plain
    values (the cards of a deal) always on one line."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if lead + len(flat) <= LINE_WIDTH or not isinstance(value, (dict, list)) or not value or (
            isinstance(value, list) and not any(isinstance(v, (dict, list)) for v in value)):
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        rows = []
        for key, item in value.items():
            prefix = f"{inner}{json.dumps(key, ensure_ascii=False)}: "
            rows.append(prefix + dump(item, indent + 2, len(prefix)))
        return "{\n" + ",\n".join(rows) + "\n" + " " * indent + "}"
    rows = [inner + dump(item, indent + 2, len(inner)) for item in value]
    return "[\n" + ",\n".join(rows) + "\n" + " " * indent + "]"
