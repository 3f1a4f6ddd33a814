"""Which statements a JSON game record holds so that, read back, they are the log's again.

:class:`PlainValues` tells, statement by statement, that the record reader would give back the
same events; a log with a value outside the schema's bounds is converted the long way."""

from __future__ import annotations

import re
from collections.abc import Callable

from referee.log.events import (
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
from referee.log.recordschema import schema
from referee.log.words import TAG_NAME_RE
from referee.rules.ruleset import canonical_direction

__all__ = ["PlainValues"]


class PlainValues:
    """Which values a record holds as they are (the schema's names, texts, numbers and directions,
    which the reader gives back unchanged); each distinct text is judged once."""

    def __init__(self, tag: Callable[[Tag], dict]) -> None:
        self.tag_value = tag  # a tag's value in the record: its text, or the Players' names
        defs = schema()["$defs"]
        self.one_line = re.compile(defs["text"]["not"]["pattern"])
        self.name_length = defs["name"]["minLength"]
        self.count = range(defs["count"]["minimum"], defs["count"]["maximum"] + 1)
        self.points = range(defs["points"]["minimum"], defs["points"]["maximum"] + 1)
        self.direction = re.compile(defs["hand"]["properties"]["pass"]["pattern"])
        self.tag_name = re.compile(defs["tag"]["properties"]["name"]["pattern"])
        self.choices = frozenset(defs["moon"]["properties"]["choice"]["enum"])
        self.cards = max(defs[kind]["properties"]["cards"].get("minItems", 0)
                         for kind in ("holding", "pass"))
        self.entries = defs["entries"]["minItems"]
        self.winners = defs["names"]["minItems"]
        self.judged: dict[str, bool] = {}

    def text(self, value: str) -> bool:
        known = self.judged.get(value)
        if known is None:
            try:
                value.encode("utf-8")  # (a lone surrogate is not JSON a reader takes)
                known = not self.one_line.search(value)
            except UnicodeEncodeError:
                known = False
            self.judged[value] = known
        return known

    def name(self, value: str | None, may_be_none: bool = False) -> bool:
        if value is None:
            return may_be_none
        return len(value) >= self.name_length and self.text(value)

    def event(self, event: Event) -> bool:
        """Whether the record holds this statement so that it reads back the same."""
        if isinstance(event, Trick):
            return self.trick(event)
        if isinstance(event, (Deal, Pass)):
            return self.name(event.player) and len(event.run.cards) >= self.cards and (
                not isinstance(event, Pass) or self.name(event.to, True))
        if isinstance(event, (Score, Total)):
            return len(event.entries) >= self.entries and all(
                self.name(entry.player) and type(entry.value) is int
                and entry.value in self.points for entry in event.entries)
        if isinstance(event, HandStart):
            direction = event.direction
            return type(event.number) is int and event.number in self.count and self.name(
                event.dealer, True) and (direction is None or (
                    bool(self.direction.search(direction))
                    and canonical_direction(direction) == direction))
        if isinstance(event, Comment):
            return event.text == event.text.strip()  # the reader strips a comment's words
        if isinstance(event, Moon):
            return self.name(event.player) and event.choice in self.choices
        if isinstance(event, GameOver):
            return len(event.players) >= self.winners and all(
                self.name(name) and name.casefold() != "none" for name in event.players)
        if isinstance(event, Tag):
            return self.tag(event)
        return isinstance(event, Kitty)

    def trick(self, event: Trick) -> bool:
        compact = event.leader is not None
        return type(event.number) is int and event.number in self.count and (
            not compact or self.name(event.leader)) and all(
                self.name(play.player, compact) and (play.player is None) == compact
                for play in event.plays) and (
                    event.claim is None or self.name(event.claim.player, True))

    def tag(self, event: Tag) -> bool:
        if not (self.tag_name.search(event.name) and TAG_NAME_RE.fullmatch(event.name)):
            return False
        value = self.tag_value(event)["value"]
        if isinstance(value, list):
            return event.name.casefold() == "players" and all(map(self.name, value))
        return self.text(value)
