"""This module gathers what a log records about each hand, as plain numbers, for the z3 checks.

It uses the check's own setup and grouping (so hand numbers and seats agree with the report),
with seats resolved and card multisets counted: one :class:`HandFacts` per hand.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from referee.judge import holding_rule
from referee.judge.holding_rule import compact_seated
from referee.judge.hand_record import HandRecord
from referee.judge.holdings import SeatedPlay
from referee.judge.setup import group_hands, setup_table
from referee.judge.table import Findings, CheckTable
from referee.log.events import Span, Trick
from referee.log.parser import ParseResult
from referee.rules.cards import DECK_SIZE, EMPTY_COUNTS, Counts, counts_of
from referee.rules.ruleset import Ruleset, direction_offset


@dataclass(slots=True)
class TrickFacts:
    span: Span
    plays: list[SeatedPlay]


def seat_plays(table: CheckTable, trick: Trick, names: dict) -> list[SeatedPlay]:
    """Find the seats of a trick's plays (as :func:`referee.judge.holdings.seat_plays`, reporting
    nothing): compact tricks run in seating order from the leader; unknown names are left out.
    ``names`` remembers the seats of the names as written, from trick to trick."""
    seats = table.seats
    if trick.leader is not None:
        leader = seats.get(trick.leader.casefold())
        if leader is None:
            return []
        return compact_seated(leader, trick.plays, table.size)
    with suppress(KeyError):  # the usual record: every name as seated (unique casefolded)
        return [(seats[p.player], p.card, p) for p in trick.plays]
    out = []
    for play in trick.plays:
        name = play.player
        seat = names.get(name, -1)
        if seat == -1:
            seat = names[name] = seats.get(name.casefold()) if name is not None else None
        if seat is not None:
            out.append((seat, play.card, play))
    return out


@dataclass(slots=True)
class HandFacts:
    number: int
    record: HandRecord
    players: int
    rules: Ruleset
    offset: int  # seats to the left that passes travel (0: no passing)
    deals: dict[int, tuple[int, ...]] = field(default_factory=dict)  # seat -> cards dealt
    deal_spans: dict[int, Span] = field(default_factory=dict)
    kitty: Counts | None = None  # recorded or inferred
    kitty_recorded: bool = False
    passes: dict[int, tuple[int, ...]] = field(default_factory=dict)  # seat -> cards sent
    pass_spans: dict[int, Span] = field(default_factory=dict)
    tricks: list[TrickFacts] = field(default_factory=list)
    prefix: int = 0  # tricks recorded in order from trick 1 (the ones the z3 checks use)
    complete: bool = False  # every trick recorded in full

    @property
    def cards_per_player(self) -> int:
        return self.rules.cards_per_player(self.players)

    def sender(self, seat: int) -> int:
        return holding_rule.sender(seat, self.offset, self.players)

    def holding_known(self, seat: int) -> bool:
        return holding_rule.settled(seat, self.deals, self.passes, self.offset, self.players)

    def played(self) -> list[int]:
        counts = [0] * DECK_SIZE
        for trick in self.tricks[: self.prefix]:
            for _, card, _ in trick.plays:
                counts[card] += 1
        return counts


def table_for(parsed: ParseResult, path: str | None = None, *, ruleset: Ruleset | None = None,
              allowed_dirs: tuple[str | Path, ...] = (),
              findings: Findings | None = None) -> CheckTable | None:
    """Return the check's seating and ruleset for this log (None without a Players tag), by
    the check's own rule for the ruleset files a log may name; send the setup's diagnostics to
    ``findings`` when given."""
    return setup_table(parsed.events, findings if findings is not None else Findings(),
                       log_folder(path), ruleset=ruleset, allowed_dirs=allowed_dirs)


def log_folder(path: str | None) -> Path | None:
    """Return the folder of the log file ``path``, where the ruleset files it names are looked
    for; return None for standard input or a text without a file."""
    if path and not path.startswith("<") and path != "-":
        return Path(path).parent
    return None


def hand_records(table: CheckTable, parsed: ParseResult) -> list[HandRecord]:
    records, _claims = group_hands(table, parsed.events)
    return records


def gather(table: CheckTable, record: HandRecord) -> HandFacts:
    """Gather the hand's statements as written (faults and all: the z3 laws judge them), seats
    resolved, with the kitty recorded or left over."""
    facts = HandFacts(record.number, record, table.size, table.rules, _offset(table, record))
    for seat, deal in record.deals.items():
        facts.deals[seat] = deal.run.cards
        facts.deal_spans[seat] = deal.span
    if facts.offset:
        for seat, pass_ in record.passes.items():
            facts.passes[seat] = pass_.run.cards
            facts.pass_spans[seat] = pass_.span
    _seat_tricks(table, record, facts)
    facts.kitty, facts.kitty_recorded = _kitty(facts)
    return facts


def _seat_tricks(table: CheckTable, record: HandRecord, facts: HandFacts) -> None:
    """Seat the tricks; return them, the prefix of them recorded in order and whether it is
    all."""
    n, tricks, names = table.size, facts.tricks, {}
    prefix, growing, full = 0, True, True
    for trick in record.tricks:
        seated = seat_plays(table, trick, names)
        tricks.append(TrickFacts(trick.span, seated))
        size = len(seated)
        if size < n:
            full = False
        if growing:
            if (trick.number != prefix + 1 or size > n
                    or len({seat for seat, _, _ in seated}) != size):
                growing = False
            else:
                prefix += 1
                growing = size == n  # an unfinished trick ends the usable prefix
    facts.prefix = prefix
    facts.complete = full and prefix == len(tricks) == facts.cards_per_player


def _kitty(facts: HandFacts) -> tuple[Counts | None, bool]:
    """Return (the kitty's counts or None, whether they are recorded rather than left
    over)."""
    record, rules, n = facts.record, facts.rules, facts.players
    kitty_size = rules.kitty_size(n)
    if record.kitty is not None:
        return counts_of(record.kitty.run.cards), True
    if kitty_size == 0:
        return EMPTY_COUNTS, True  # nothing to record
    if len(facts.deals) == n:
        dealt = counts_of(card for cards in facts.deals.values() for card in cards)
        return holding_rule.kitty_left(rules.decks, dealt, kitty_size), False
    if facts.complete:
        return holding_rule.kitty_left(rules.decks, facts.played(), kitty_size), False
    return None, False


def _offset(table: CheckTable, record: HandRecord) -> int:
    rules, n = table.rules, table.size
    direction = rules.pass_direction(record.number)
    start = record.start
    if start is not None and start.direction is not None:
        with suppress(ValueError):
            direction_offset(start.direction, n)
            direction = start.direction
    if rules.pass_count == 0:
        return 0
    return direction_offset(direction, n)


def seated(table: CheckTable, line):
    """Return (seat, entry) of a score or total line's entries (None: no line): keep the first
    of each seat's and leave out names not seated."""
    if line is None:
        return
    seen = set()
    for entry in line.entries:
        seat = table.seats.get(entry.player.casefold())
        if seat is None or seat in seen:
            continue
        seen.add(seat)
        yield seat, entry
