"""This module holds what the referee knows about the table while it judges a log: seats, ruleset,
findings."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import NamedTuple

from referee.judge import codes, diagnostics
from referee.judge.diagnostics import Diagnostic
from referee.log.events import Play, Span, Trick
from referee.rules.ruleset import Ruleset
from referee.rules.state import TrickRecord
from referee.util.message import msg, msgn
from referee.util.suggest import did_you_mean

DEFAULT_MAX_DIAGNOSTICS = 100  # per kind and file; past it a log's faults are only counted


@dataclass(slots=True)
class Findings:
    """Findings collects diagnostics; it reports a (kind, line, column, player) once, and keeps at
    most ``limit`` of each kind, counting the rest in ``suppressed``."""

    items: list[Diagnostic] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    limit: int = DEFAULT_MAX_DIAGNOSTICS
    suppressed: dict[str, int] = field(default_factory=dict)
    _seen: set = field(default_factory=set)
    _noted: set = field(default_factory=set)  # the notes in ``unchecked``, found in O(1)
    _kept: dict[str, int] = field(default_factory=dict)
    notes_dropped: int = 0  # notes past ``limit``, counted, not kept
    # the log's text when it is read a block at a time (the setup reads there the names its lines
    # write: a seat whose name no line writes)
    text: str | None = None

    def add(self, kind: str, span: Span, message: str, **details) -> None:
        key = (kind, span.line, span.column, details.get("player"))
        if key in self._seen:
            return
        self._seen.add(key)
        kept = self._kept.get(kind, 0)
        if kept >= self.limit:
            self.suppressed[kind] = self.suppressed.get(kind, 0) + 1
            return
        self._kept[kind] = kept + 1
        self.items.append(diagnostics.make(kind, span, message, **details))

    def note(self, text: str) -> None:
        if text not in self._noted:
            self._noted.add(text)
            if len(self.unchecked) < self.limit:
                self.unchecked.append(text)
            else:
                self.notes_dropped += 1

    def notes(self) -> list[str]:
        """Return what was not checked, with the notes past the limit counted in a last one."""
        if not self.notes_dropped:
            return self.unchecked
        return self.unchecked + [msgn(
            "and {n:,} more note of what was not checked (--max-diagnostics N shows more)",
            "and {n:,} more notes of what was not checked (--max-diagnostics N shows more)",
            self.notes_dropped, n=self.notes_dropped)]


class TracedTrick(NamedTuple):
    """A TracedTrick holds one finished trick as the walk saw it, for the views of a game (`referee
    replay`, `referee report`): it sets what was written beside what the engine made of it."""

    hand: int
    record: TrickRecord  # the engine's resolution: plays that stood, cancellations, winner
    pile: tuple[int, ...]  # the set-aside cards waiting after this trick
    written: Trick  # the trick as written, with its claim
    plays: tuple[tuple[int, int, Play], ...]  # (seat, card, play as written), seats resolved
    kitty: tuple[int, ...]  # the hand's kitty as the engine holds it


@dataclass(slots=True)
class CheckTable:
    """A CheckTable holds what the check knows of a log's table: the rules, the seated names and
    how a written name finds its seat, the findings, and the tricks kept for the views."""

    rules: Ruleset
    names: list[str]
    findings: Findings
    seats: dict[str, int] = field(default_factory=dict)
    trace: list[TracedTrick] | None = None  # every finished trick, for the views of a game
    claims_required: bool = False  # [Claims "required"]: a claim left out is a fault (R10.9)
    # the setup tags written again after play began, by line, with the line of the first: the
    # hands' grouping reports them, as a second game when the game starts again after them
    repeats: dict | None = None

    def __post_init__(self) -> None:
        # each name as seated and casefolded, so the usual exact spelling is one lookup
        self.seats = {folded(name): seat for seat, name in enumerate(self.names)}
        self.seats.update({name.casefold(): seat for seat, name in enumerate(self.names)})
        self.seats.update({name: seat for seat, name in enumerate(self.names)})

    @property
    def size(self) -> int:
        return len(self.names)

    def find(self, name: str) -> int | None:
        """Return the seat of ``name`` in any case or Unicode form, or None (nothing reported)."""
        seats = self.seats
        seat = seats.get(name)  # (the exact spelling, as nearly always: one lookup)
        if seat is None:
            seat = seats.get(name.casefold())
        return seats.get(folded(name)) if seat is None else seat

    def seat(self, name: str | None, span: Span, *, hand: int | None = None,
             guess: bool = False, suggestion: str | None = None) -> int | None:
        """Return the seat of ``name``.  An unknown name is reported (R10.5) and gives None, or with
        ``guess`` the seat of ``suggestion`` or else of the name it most resembles (so that a
        typo costs one diagnostic)."""
        if name is None:
            return None
        seat = self.find(name)
        if seat is None:
            suggestion = suggestion or did_you_mean(name, self.names)
            # TRANSLATORS: {name} is a player's name as written, in quotes
            self.findings.add(
                codes.BAD_SETUP, span, msg("{name} is not seated at this table (players: "
                                           "{players})", name=repr(name),
                                           players=", ".join(self.names)),
                rule="R10.5", hand=hand,
                # TRANSLATORS: {name} is a seated player's name, in quotes
                hint=msg("did you mean {name}?", name=repr(suggestion)) if suggestion else None,
            )
            if guess and suggestion:
                seat = self.seats[suggestion.casefold()]
        return seat

    def name(self, seat: int) -> str:
        return self.names[seat]


def folded(name: str) -> str:
    """Return the form that the spellings of one name share: its letters composed (a phone may
    send "é" as "e" and an accent), case folded, and a typographic apostrophe as a straight one."""
    return unicodedata.normalize("NFC", name).casefold().replace("’", "'")
