"""This module writes one event as its canonical line, as ``referee fmt`` writes it (ValueError
for an event no line can express).  It stands apart from :mod:`referee.log.writer`, so that the
messages about unreadable lines can show a canonical line without importing the parser."""

from __future__ import annotations

import re

from referee.log.events import (CardRun, Claim, Comment, Deal, Entry, Event, GameOver, HandStart,
                                Kitty, Moon, Pass, Score, Tag, Total, Trick)
from referee.log.words import TAG_NAME_RE, needs_quotes, quote
from referee.rules.cards import card_text
from referee.rules.options import MoonChoice

__all__ = ["blank_before", "format_event"]

# _DIRECTION matches what HandStart.direction holds (ruleset.canonical_direction's output;
# "1 left" is "left").
_DIRECTION = re.compile(r"left|right|across|hold|(?!1 )[0-9]+ (?:left|right)")


def _text(value: str, what: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError(f"{what} {value!r} cannot be written on one line")
    return value


def _name(name: str) -> str:
    _text(name, "player name")
    return quote(name) if needs_quotes(name) else name


def _cards(run: CardRun, what: str = "") -> str:
    if what and not run.cards:
        raise ValueError(f"a {what} line needs at least one card")
    return " ".join(card_text(card) for card in run.cards)


def _claim(claim: Claim | None) -> str:
    if claim is None:
        return ""
    return " -> " + ("none" if claim.player is None else _name(claim.player))


def _entries(entries: tuple[Entry, ...]) -> str:
    if not entries:
        raise ValueError("a score or total line needs at least one entry")
    return ", ".join(f"{_name(e.player)} {e.value}" for e in entries)


def _trick(event: Trick) -> str:
    if event.leader is not None:
        if any(play.player is not None for play in event.plays):
            raise ValueError(f"trick {event.number}: a compact trick cannot name the players of"
                             " its cards")
        cards = " ".join(card_text(play.card) for play in event.plays)
        head = f"trick {event.number} {_name(event.leader)}:"
        return head + (" " + cards if cards else "") + _claim(event.claim)
    if any(play.player is None for play in event.plays):
        raise ValueError(f"trick {event.number}: every play needs a player unless the trick names"
                         " its leader")
    plays = ", ".join(f"{_name(play.player)} {card_text(play.card)}"  # type: ignore[arg-type]
                      for play in event.plays)
    return f"trick {event.number}:" + (" " + plays if plays else "") + _claim(event.claim)


def format_event(event: Event) -> str:
    """Write one event as its canonical line (without the newline)."""
    if isinstance(event, Trick):
        return _trick(event)
    if isinstance(event, Deal):
        return f"deal {_name(event.player)}: {_cards(event.run, 'deal')}"
    if isinstance(event, Pass):
        to = f" -> {_name(event.to)}" if event.to is not None else ""
        return f"pass {_name(event.player)}{to}: {_cards(event.run, 'pass')}"
    if isinstance(event, Kitty):
        return "kitty:" + (" " + _cards(event.run) if event.run.cards else "")
    if isinstance(event, Score):
        return "score: " + _entries(event.entries)
    if isinstance(event, Total):
        return "total: " + _entries(event.entries)
    if isinstance(event, HandStart):
        text = f"hand {event.number}"
        if event.dealer is not None:
            text += f" dealer {_name(event.dealer)}"
        if event.direction is not None:
            if not _DIRECTION.fullmatch(event.direction):
                raise ValueError(f"{event.direction!r} is not a canonical pass direction")
            text += f" pass {event.direction}"
        return text
    if isinstance(event, Tag):
        if not TAG_NAME_RE.fullmatch(event.name):
            raise ValueError(f"{event.name!r} cannot be a tag name")
        return f"[{event.name} {quote(_text(event.value, 'tag value'))}]"
    if isinstance(event, Moon):
        if event.choice not in tuple(MoonChoice):
            raise ValueError(f"{event.choice!r} is not a moon choice (subtract or add)")
        return f"moon {_name(event.player)} {event.choice}"
    if isinstance(event, GameOver):
        if not event.players or any(p.casefold() == "none" for p in event.players):
            raise ValueError("a winner line needs at least one winner, and 'none' cannot be one")
        keyword = "winner" if len(event.players) == 1 else "winners"
        return f"{keyword}: " + ", ".join(_name(p) for p in event.players)
    if isinstance(event, Comment):
        text = _text(event.text, "comment").strip()
        return "# " + text if text else "#"
    raise TypeError(f"not a log event: {event!r}")


def blank_before(event: Event, previous: Event | None, started: bool) -> bool:
    """Tell whether a blank line goes before ``event``: before each ``hand`` line, and before the
    first statement after the tags (``previous``: the statement before, None if none or an
    unread line came after it; ``started``: any line comes before)."""
    if isinstance(event, HandStart):
        return started
    return isinstance(previous, Tag) and not isinstance(event, (Tag, Comment))
