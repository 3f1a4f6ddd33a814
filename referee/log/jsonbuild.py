"""The events of a JSON game record that its schema accepts, piece by piece: the tags, each
hand as it is read, then the comments among the statements (spec/game-record.md).

Each piece comes with its :class:`~referee.log.jsontext.Places`, the offsets of its values by
index, so that a span is made from two offsets and a JSON pointer only for a problem; the
spans of a run of cards are made when first asked for, from the offsets the run keeps.
"""

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

_DIRECTION = re.compile(r"left|right|across|hold|none|[0-9]{1,9} (?:left|right)")
_CARDS = {card_text(card): Card(card) for card in range(52)}
# what no text of a log can hold (the schema says so too; a card, a tag name or a direction
# is matched whole here, since a schema pattern's $ also matches before a final newline)
_BREAK = re.compile("[\0\n\r]").search
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


def _one_line(what: str) -> str:
    """What the text of a record must not hold, by what it is."""
    if what == "name":
        return msg("a player's name must be on one line (no line break, no NUL)")
    if what == "tag value":
        return msg("a tag value must be on one line (no line break, no NUL)")
    return msg("a comment must be on one line (no line break, no NUL)")


def _spans(positions: Positions, text: str, start: int, end: int) -> tuple[Span, ...]:
    """The spans of the cards of the array of strings at ``start``-``end`` of ``text``."""
    return tuple(_span(positions, *m.span()) for m in _STRING.finditer(text, start, end))


def _span(positions: Positions, start: int, end: int) -> Span:
    line, column = positions.at(start)
    end_line, end_column = positions.at(end)
    return _make_span(line, column, line if end_line == line else end_line, end_column)


class _Lines:
    """Offsets -> spans, fast for offsets at or after the last one asked about (the line
    it is on is kept): the builder asks in the order of the text, nearly."""

    __slots__ = ("first", "last", "line", "positions", "starts")

    def __init__(self, positions: Positions) -> None:
        self.positions, self.starts = positions, positions.starts
        self.line, self.first, self.last = 1, 0, self.next_start(1)  # its first offset, past it

    def next_start(self, line: int) -> int:
        """Where the line after ``line`` starts (far beyond the text for the last line)."""
        return self.starts[line] if line < len(self.starts) else 1 << 62

    def span(self, start: int, end: int) -> Span:
        if start >= self.last and start < self.next_start(self.line + 1):  # the next line
            self.line += 1
            self.first, self.last = self.last, self.next_start(self.line)
        elif not self.first <= start < self.last:
            line, column = self.positions.at(start)
            self.line, self.first, self.last = line, start - column + 1, self.next_start(line)
        line, first = self.line, self.first
        if end < self.last:
            return _make_span(line, start - first + 1, line, end - first + 1)
        end_line, end_column = self.positions.at(end)
        return _make_span(line, start - first + 1, end_line, end_column)


class Builder:
    """The events of one record, in log order, with the pointer of each statement."""

    def __init__(self, text: str) -> None:
        self.source, self.positions = text, Positions(text)
        self.lines = _Lines(self.positions)
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
        return self.lines.span(places.starts[index], places.ends[index])

    def fail(self, pointer: str, index: int, message: str) -> None:
        span = self.span(index)
        self.problems.append(RecordProblem(span.line, span.column, span.end_line,
                                           span.end_column, message, pointer))

    def text(self, value: str, what: str, pointer: str, index: int) -> str:
        """``value``, which must be on one line; ``what`` it is (for _one_line)."""
        if _BREAK(value):
            self.fail(pointer, index, _one_line(what))
        return value

    def name(self, value: str, pointer: str, index: int) -> str:
        known = self.names.get(value)
        if known is None:
            if _BREAK(value):
                self.fail(pointer, index, _one_line("name"))
                return value
            known = self.names[value] = value
        return known

    def run(self, pointer: str, cards: list[str], index: int) -> CardRun:
        """The cards of the array at ``index``; their spans are made when asked for."""
        places, first = self.places, index + 1
        made = tuple(map(_CARDS.get, cards))
        if None in made:
            made = tuple(self.card(card, f"{pointer}/{i}", first + i)
                         for i, card in enumerate(cards))
        run = _new(CardRun)
        _SET_CARDS(run, made)
        _SET_SOURCE(run, (_spans, self.positions, self.source, places.starts[index],
                          places.ends[index]))
        return run

    def card(self, text: str, pointer: str, index: int) -> Card:
        card = _CARDS.get(text)
        if card is None:
            self.fail(pointer, index, msg("{card} is not a card", card=shown(text)))
            return Card(0)
        return card

    # ---- the pieces ------------------------------------------------------------------------
    def tags(self, tags: list[dict], places: Places) -> None:
        self.places = places
        for index, (tag, at) in enumerate(zip(tags, places.items(0, len(tags)))):
            self.tag(f"/tags/{index}", tag, at)

    def tag(self, at: str, tag: dict, index: int) -> None:
        where = self.places.members(index, tag)
        name, value = tag["name"], tag["value"]
        if not TAG_NAME_RE.fullmatch(name) or "\n" in name:
            # TRANSLATORS: {name} is the tag's name as JSON writes it ("Date")
            self.fail(at + "/name", where["name"], msg(
                "{name} is not a tag name: a letter or _, then letters, digits, _ or -",
                name=shown(name)))
        if isinstance(value, list):
            for number, (player, place) in enumerate(
                    zip(value, self.places.items(where["value"], len(value)))):
                self.text(player, "name", f"{at}/value/{number}", place)
            written = players_value(value)
            if written is None or name.casefold() != "players":
                self.fail(at + "/value", where["value"],
                          msg("only a Players tag may list names, and only names that a "
                              "Players tag can write (no name with both kinds of quote)"))
                written = ""
            value = written
        self.heads.append((at, Tag(name, self.text(value, "tag value", at + "/value",
                                                   where["value"]), self.span(index))))

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
                if not _DIRECTION.fullmatch(direction):
                    self.fail(at + "/pass", where["pass"], msg(
                        "{direction} is not a pass direction", direction=shown(direction)))
                direction = canonical_direction(direction)
            dealer = where.get("dealer")
            self.events.append((at, HandStart(
                int(hand["number"]), None if dealer is None else
                self.name(hand["dealer"], at + "/dealer", dealer), direction,
                self.span(where["number"]), self.span(dealer), self.span(where.get("pass")))))
        if "deal" in hand:
            self.deals(at, hand["deal"], where["deal"])
        if "kitty" in hand:
            self.events.append((at + "/kitty", Kitty(
                self.run(at + "/kitty", hand["kitty"], where["kitty"]),
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
                self.name(deal["player"], pointer + "/player", where["player"]),
                self.run(pointer + "/cards", deal["cards"], where["cards"]), self.span(place),
                self.span(where["player"]))))

    def passing(self, at: str, passed: dict, index: int) -> None:
        where = self.places.members(index, passed)
        to = passed.get("to")
        self.events.append((at, Pass(
            self.name(passed["player"], at + "/player", where["player"]),
            self.run(at + "/cards", passed["cards"], where["cards"]),
            None if to is None else self.name(to, at + "/to", where["to"]), self.span(index),
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
            claim = Claim(None if winner is None else
                          self.name(winner, at + "/winner", where["winner"]),
                          self.span(where["winner"]))
        self.events.append((at, Trick(
            int(trick["number"]), tuple(plays), claim,
            None if leader is None else self.name(leader, at + "/leader", where["leader"]),
            self.span(index), self.span(where.get("leader")))))

    def play(self, at: str, number: int, play: dict, index: int, named: bool) -> Play:
        """A play of the trick at ``at``; ``named``: the trick has no leader, so each play
        names its player."""
        places, count = self.places, len(play)
        # its members are strings, one place each: "card" first or second
        card_at = index + 1 if count == 1 or next(iter(play)) == "card" else index + 2
        card = _CARDS.get(play["card"])
        if card is None:
            card = self.card(play["card"], f"{at}/plays/{number}/card", card_at)
        player = play.get("player")
        if (player is None) == named:
            self.fail(f"{at}/plays/{number}", index, msg(
                "a trick with a leader lists only the cards, in seating order from the "
                "leader") if not named else msg("this play names no player (only a trick "
                                                "with a leader lists bare cards)"))
        if player is not None:
            player = self.name(player, f"{at}/plays/{number}/player",
                               index + 3 - (card_at - index))
        span = self.lines.span
        return _make_play(player, card, span(places.starts[index], places.ends[index]),
                          span(places.starts[card_at], places.ends[card_at]))

    def closing(self, at: str, hand: dict, where: dict[str, int]) -> None:
        """The moon, score, total and winner statements of a hand."""
        places = self.places
        if "moon" in hand:
            moon, place = hand["moon"], where["moon"]
            inside = places.members(place, moon)
            self.events.append((at + "/moon", Moon(
                self.name(moon["player"], at + "/moon/player", inside["player"]),
                moon["choice"], self.span(place), self.span(inside["player"]))))
        for key, kind in (("score", Score), ("total", Total)):
            if key in hand:
                pointer, entries = f"{at}/{key}", []
                for number, (entry, place) in enumerate(zip(hand[key], places.items(
                        where[key], len(hand[key])))):
                    inside = places.members(place, entry)
                    entries.append(Entry(
                        self.name(entry["player"], f"{pointer}/{number}/player",
                                  inside["player"]), int(entry["points"]), self.span(place)))
                self.events.append((pointer, kind(tuple(entries), self.span(where[key]))))
        if "winners" in hand:
            pointer, place = at + "/winners", where["winners"]
            names = tuple(self.name(name, f"{pointer}/{i}", item) for i, (name, item) in
                          enumerate(zip(hand["winners"], places.items(place,
                                                                      len(hand["winners"])))))
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
            text = self.text(comment["text"], "comment", at + "/text", where["text"])
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
