"""A :class:`~referee.play.table.Table` at a position of a log or JSON record.

The record is replayed strictly: every deal, pass, play and moon choice is applied through the
table, so the position is one the rules reach. A record that breaks a rule before the position
is refused with the line and the rule (``referee check`` says everything about it).
"""

from __future__ import annotations

from pathlib import Path

from referee.judge.setup import setup_table
from referee.judge.table import Findings
from referee.log.decode import UnreadableLog
from referee.log.events import Deal, Event, HandStart, Kitty, Moon, Pass, Score, Trick
from referee.log.parser import log_text, parse_text
from referee.rules.engine import SCORE, AFTER_LAST_WINNER
from referee.rules.state import IllegalAction, Phase
from referee.util.reading import MAX_LOG_BYTES, UnreadableFile, read_limited


class PositionError(ValueError):
    """A log or record that gives no position: unreadable, or breaking a rule before it."""


def table_from_log(cls, path: str | Path, *, hand: int | None, trick: int):
    try:
        text = log_text(read_limited(path, MAX_LOG_BYTES))
        events = parse_text(text).events
    except (UnreadableFile, UnreadableLog, OSError) as err:
        raise PositionError(f"{path}: {err}") from None
    findings = Findings()
    seated = setup_table(events, findings, Path(path).parent)
    if seated is None or findings.items:
        first = findings.items[0] if findings.items else None
        where = f"line {first.line}: {first.message}" if first else "no seating"
        raise PositionError(f"{path}: {where}")
    walk = _Walk(cls, seated.rules, tuple(seated.names), path, events)
    return walk.to(hand, trick)


class _Walk:
    """One strict replay of a record's events onto a fresh table."""

    def __init__(self, cls, rules, names, path, events: tuple[Event, ...]):
        self.cls, self.rules, self.names, self.path = cls, rules, names, path
        self.events = events
        self.seats = {name.casefold(): seat for seat, name in enumerate(names)}
        self.table = None
        self.hands: list[tuple[int, ...]] = [()] * len(names)
        self.kitty: tuple[int, ...] = ()
        self.dealt = False
        self.moon: str | None = None

    def to(self, hand: int | None, trick: int):
        for index, event in enumerate(self.events):
            if self._reached(hand, trick, event):
                return self.table
            try:
                self._apply(index, event)
            except IllegalAction as err:
                clause = f" ({err.clause})" if err.clause else ""
                raise PositionError(f"{self.path}, line {event.span.line}: {err}{clause}; "
                                    "referee check says more") from None
        if hand is None and self.table is not None:
            self._deal_pending()
            return self.table
        raise PositionError(f"{self.path}: the record ends before hand {hand}, trick {trick}")

    def _reached(self, hand: int | None, trick: int, event: Event) -> bool:
        table = self.table
        if hand is None or table is None or table.hand_number != hand or not isinstance(
                event, Trick):
            return False
        self._deal_pending()
        return (table.phase is Phase.PLAY and table.trick_number == trick == event.number
                and not table.trick)

    def _apply(self, index: int, event: Event) -> None:
        if isinstance(event, HandStart):
            self._start(index, event)
        elif isinstance(event, Deal):
            self.hands[self._seat(event.player, event)] = event.run.cards
        elif isinstance(event, Kitty):
            self.kitty = event.run.cards
        else:
            self._deal_pending()
            if isinstance(event, Pass):
                self.table.pass_cards(self._seat(event.player, event), event.run.cards)
            elif isinstance(event, Trick):
                self._trick(event)
            elif isinstance(event, Moon):
                self.moon = event.choice
            elif isinstance(event, Score) and self.table.phase is Phase.SCORING:
                self.table.score(self.moon or SCORE)
                self.moon = None

    def _start(self, index: int, event: HandStart) -> None:
        if self.table is None:
            self.table = self.cls(self.names, self.rules, dealer=self._first_dealer(index, event))
        elif self.table.phase is Phase.SCORING:
            self.table.score(self.moon or SCORE)  # a hand with no score line written
            self.moon = None
        if self.table.phase is not Phase.DEAL:
            raise IllegalAction(f"hand {event.number} starts before hand "
                                f"{self.table.hand_number} is over", clause="R7.3")
        self.hands, self.kitty, self.dealt = [()] * len(self.names), (), False

    def _first_dealer(self, index: int, event: HandStart) -> int:
        if event.dealer is not None:
            return self._seat(event.dealer, event)
        if self.rules.first_leader == AFTER_LAST_WINNER:
            return len(self.names) - 1
        first = next((e for e in self.events[index:] if isinstance(e, Trick)), None)
        if first is not None and first.plays and first.plays[0].player is not None:
            return (self._seat(first.plays[0].player, first) - 1) % len(self.names)  # R2.5
        return 0

    def _deal_pending(self) -> None:
        if self.table is not None and self.table.phase is Phase.DEAL and not self.dealt:
            self.table.deal(self.hands, self.kitty)
            self.dealt = True

    def _trick(self, event: Trick) -> None:
        table = self.table
        if event.number != table.trick_number:
            raise IllegalAction(f"trick {event.number} is written where trick "
                                f"{table.trick_number} is due", clause="R10.6")
        if event.leader is not None and self._seat(event.leader, event) != table.to_play:
            raise IllegalAction(f"{event.leader} leads out of turn", clause="R5.1")
        for play in event.plays:
            if play.player is not None and self._seat(play.player, event) != table.to_play:
                raise IllegalAction(f"{play.player} plays out of turn", clause="R5.1")
            table.play(play.card)

    def _seat(self, name: str, event: Event) -> int:
        seat = self.seats.get(name.casefold())
        if seat is None:
            raise IllegalAction(f"{name} is not seated", clause="R10.5")
        return seat
