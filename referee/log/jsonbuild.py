"""The events of a JSON game record that its schema accepts, piece by piece.

A span is made from two offsets of the piece's :class:`~referee.log.jsontext.Places`, and a
JSON pointer only for a problem."""

from __future__ import annotations

import re
from typing import NamedTuple

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
    fast,
    setters,
)
from referee.log.jsontext import STRING, Places, Positions
from referee.log.recordschema import RecordProblem, shown
from referee.log.words import TAG_NAME_RE, split_players
from referee.rules.cards import Card, card_text
from referee.rules.ruleset import canonical_direction
from referee.util.message import msg

__all__ = ["Builder", "Reading", "players_value"]

_CARDS = {card_text(card): Card(card) for card in range(52)}  # the schema's cards
_STRING = re.compile(STRING)

_make_span = fast(Span)
_make_play = fast(Play)
_new = object.__new__
_SET_CARDS, _SET_SOURCE = setters(CardRun, "cards", "_source")


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


def _spans(positions: Positions, text: str, start: int, end: int) -> tuple[Span, ...]:
    """The spans of the cards of the array of strings at ``start``-``end`` of ``text``."""
    return tuple(_span(positions, *m.span()) for m in _STRING.finditer(text, start, end))


def _span(positions: Positions, start: int, end: int) -> Span:
    line, column = positions.at(start)
    end_line, end_column = positions.at(end)
    return _make_span(line, column, line if end_line == line else end_line, end_column)


class Builder:
    """The events of one record, in log order, with the pointer of each statement."""

    def __init__(self, text: str) -> None:
        self.source, self.positions = text, Positions(text)
        self.nowhere = _span(self.positions, 0, 0)  # the span of a value that is not there
        self.problems: list[RecordProblem] = []
        self.heads: list[tuple[str, Event]] = []  # the tags' (pointer, event)
        self.events: list[tuple[str, Event]] = []  # the hands'
        self.names: dict[str, str] = {}  # each name found on one line, kept once
        self.places: Places | None = None  # those of the piece being read

    # ---- places ----------------------------------------------------------------------------
    def span(self, index: int | None) -> Span:
        """The span of the value at ``index`` of the piece; for a value that is not there,
        the first character's, as a pointer to nothing had."""
        if index is None:
            return self.nowhere
        places = self.places
        return _span(self.positions, places.starts[index], places.ends[index])

    def fail(self, pointer: str, index: int, message: str) -> None:
        span = self.span(index)
        self.problems.append(RecordProblem(span.line, span.column, span.end_line,
                                           span.end_column, message, pointer))

    def name(self, value: str) -> str:
        """A player's name, each kept once."""
        return self.names.setdefault(value, value)

    def run(self, cards: list[str], index: int) -> CardRun:
        """The cards of the array at ``index``; their spans are made when asked for."""
        places = self.places
        run = _new(CardRun)
        _SET_CARDS(run, tuple(map(_CARDS.__getitem__, cards)))
        _SET_SOURCE(run, (_spans, self.positions, self.source, places.starts[index],
                          places.ends[index]))
        return run

    # ---- the pieces ------------------------------------------------------------------------
    def tags(self, tags: list[dict], places: Places) -> None:
        self.places = places
        for index, (tag, at) in enumerate(zip(tags, places.items(0, len(tags)))):
            self.tag(f"/tags/{index}", tag, at)

    def tag(self, at: str, tag: dict, index: int) -> None:
        where = self.places.members(index, tag)
        name, value = tag["name"], tag["value"]
        if not TAG_NAME_RE.fullmatch(name):  # (the schema takes Player, which a log may not)
            # TRANSLATORS: {name} is the tag's name as JSON writes it ("Date")
            self.fail(at + "/name", where["name"], msg(
                "{name} is not a tag name: a letter or _, then letters, digits, _ or -",
                name=shown(name)))
        if isinstance(value, list):
            written = players_value(value)
            if written is None or name.casefold() != "players":
                self.fail(at + "/value", where["value"],
                          msg("only a Players tag may list names, and only names that a "
                              "Players tag can write (no name with both kinds of quote)"))
                written = ""
            value = written
        self.heads.append((at, Tag(name, value, self.span(index))))

    def hand(self, number: int, hand: dict, places: Places, keep: bool = True) -> None:
        """One hand of the record (the ``number``-th, from 0), its places those of the hand;
        unless ``keep``, its statements' events are not kept, only their pointers (and its
        HandStart, which a pointer to its number names): what its comments need."""
        first = len(self.events)
        self._hand(number, hand, places)
        if not keep:
            events = self.events
            events[first:] = [(at, event if type(event) is HandStart else None)
                              for at, event in events[first:]]

    def _hand(self, number: int, hand: dict, places: Places) -> None:
        self.places = places
        at, where = f"/hands/{number}", places.members(0, hand)
        if "number" in hand:
            direction = hand.get("pass")
            if direction is not None:
                direction = canonical_direction(direction)
            dealer = where.get("dealer")
            self.events.append((at, HandStart(
                int(hand["number"]), None if dealer is None else
                self.name(hand["dealer"]), direction,
                self.span(where["number"]), self.span(dealer), self.span(where.get("pass")))))
        if "deal" in hand:
            self.deals(at, hand["deal"], where["deal"])
        if "kitty" in hand:
            self.events.append((at + "/kitty", Kitty(
                self.run(hand["kitty"], where["kitty"]),
                self.span(where["kitty"]))))
        if "passes" in hand:
            for index, (passed, place) in enumerate(zip(
                    hand["passes"], places.items(where["passes"], len(hand["passes"])))):
                self.passing(f"{at}/passes/{index}", passed, place)
        if "tricks" in hand:
            for index, (trick, place) in enumerate(zip(
                    hand["tricks"], places.items(where["tricks"], len(hand["tricks"])))):
                self.trick(f"{at}/tricks/{index}", trick, place)
        self.closing(at, hand, where)

    def deals(self, at: str, deals: list[dict], index: int) -> None:
        for number, (deal, place) in enumerate(zip(deals, self.places.items(index,
                                                                            len(deals)))):
            pointer, where = f"{at}/deal/{number}", self.places.members(place, deal)
            self.events.append((pointer, Deal(
                self.name(deal["player"]), self.run(deal["cards"], where["cards"]),
                self.span(place), self.span(where["player"]))))

    def passing(self, at: str, passed: dict, index: int) -> None:
        where = self.places.members(index, passed)
        to = passed.get("to")
        self.events.append((at, Pass(
            self.name(passed["player"]), self.run(passed["cards"], where["cards"]),
            None if to is None else self.name(to), self.span(index),
            self.span(where["player"]), self.span(where.get("to")))))

    def trick(self, at: str, trick: dict, index: int) -> None:
        places = self.places
        where = places.members(index, trick)
        leader = trick.get("leader")
        plays = []
        for number, (play, place) in enumerate(zip(trick["plays"], places.items(
                where["plays"], len(trick["plays"])))):
            plays.append(self.play(at, number, play, place, leader is None))
        claim = None
        if "winner" in trick:
            winner = trick["winner"]
            claim = Claim(None if winner is None else self.name(winner),
                          self.span(where["winner"]))
        self.events.append((at, Trick(
            int(trick["number"]), tuple(plays), claim,
            None if leader is None else self.name(leader),
            self.span(index), self.span(where.get("leader")))))

    def play(self, at: str, number: int, play: dict, index: int, named: bool) -> Play:
        """A play of the trick at ``at``; ``named``: the trick has no leader, so each play
        names its player."""
        places, count = self.places, len(play)
        # its members are strings, one place each: "card" first or second
        card_at = index + 1 if count == 1 or next(iter(play)) == "card" else index + 2
        card = _CARDS[play["card"]]
        player = play.get("player")
        if (player is None) == named:
            self.fail(f"{at}/plays/{number}", index, msg(
                "a trick with a leader lists only the cards, in seating order from the "
                "leader") if not named else msg("this play names no player (only a trick "
                                                "with a leader lists bare cards)"))
        if player is not None:
            player = self.name(player)
        positions = self.positions
        return _make_play(player, card, _span(positions, places.starts[index], places.ends[index]),
                          _span(positions, places.starts[card_at], places.ends[card_at]))

    def closing(self, at: str, hand: dict, where: dict[str, int]) -> None:
        """The moon, score, total and winner statements of a hand."""
        places = self.places
        if "moon" in hand:
            moon, place = hand["moon"], where["moon"]
            inside = places.members(place, moon)
            self.events.append((at + "/moon", Moon(
                self.name(moon["player"]),
                moon["choice"], self.span(place), self.span(inside["player"]))))
        for key, kind in (("score", Score), ("total", Total)):
            if key in hand:
                pointer, entries = f"{at}/{key}", []
                for entry, place in zip(hand[key], places.items(where[key], len(hand[key]))):
                    entries.append(Entry(self.name(entry["player"]), int(entry["points"]),
                                         self.span(place)))
                self.events.append((pointer, kind(tuple(entries), self.span(where[key]))))
        if "winners" in hand:
            pointer, place = at + "/winners", where["winners"]
            names = tuple(map(self.name, hand["winners"]))
            if any(name.casefold() == "none" for name in names):
                self.fail(pointer, place, msg("'none' cannot be named as a winner of the game"))
            self.events.append((pointer, GameOver(names, self.span(place))))

    def finish(self, comments: list[dict], places: Places | None) -> Reading:
        """The events, with the comments among the statements: a whole-line comment above
        the statement it names (at the end without one), a comment beside a statement at
        the end of its line."""
        statements = self.heads + self.events
        self.heads = self.events = []
        index_of = {pointer: index for index, (pointer, _) in enumerate(statements)}
        index_of.update({pointer + "/number": index for index, (pointer, event)
                         in enumerate(statements) if isinstance(event, HandStart)})
        self.places = places
        above: dict[int, list[Event]] = {}
        remarks: dict[int, str] = {}
        items = places.items(0, len(comments)) if comments else ()
        for number, (comment, place) in enumerate(zip(comments, items)):
            at, where = f"/comments/{number}", places.members(place, comment)
            text = comment["text"]
            target = comment.get("above", comment.get("beside"))
            index = len(statements) if target is None else index_of.get(target)
            if index is None:
                key = "above" if "above" in comment else "beside"
                # TRANSLATORS: {pointer} is the JSON pointer the comment names, as written
                self.fail(f"{at}/{key}", where[key], msg(
                    "no statement of this record is at {pointer} (a tag, a hand's number, a "
                    "deal, the kitty, a pass, a trick, the moon, score, total or winners)",
                    pointer=shown(target)))
            elif "beside" in comment:
                if index in remarks:
                    self.fail(at + "/beside", where["beside"],
                              msg("a statement has at most one comment beside it"))
                remarks[index] = text if text.startswith("#") else "# " + text
            else:  # as the log reader makes it: the text after the # without the blanks
                words = text.removeprefix("#")
                above.setdefault(index, []).append(Comment(words.strip(), self.span(place)))
        if not above and not remarks:
            return Reading(tuple(event for _, event in statements), ())
        events: list[Event] = []
        moved: list[tuple[int, str]] = []
        for index, (_, event) in enumerate(statements + [("", None)]):
            events.extend(above.get(index, ()))
            if event is not None:
                if index in remarks:
                    moved.append((len(events), remarks[index]))
                events.append(event)
        return Reading(tuple(events), tuple(moved))
