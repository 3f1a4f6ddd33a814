"""What the record lets the referee know about one hand before play: deals, kitty, passes.

Checks the deal (R2.1, R2.2, R2.4) and the passes (R3), then decides, seat by seat, whether
the holding after passing is *known* (deal and the relevant passes recorded) or *inferred*
(the cards the player is seen to play in this hand, which they certainly held; R5.2 can
then be proven only from a later play of the led suit).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee.check import codes
from referee.check.table import Table
from referee.log.events import Deal, HandStart, Kitty, Pass, Play, Span, Trick
from referee.rules.cards import (
    CARDS,
    DECK_SIZE,
    Card,
    Counts,
    card_text,
    cards_of,
    cards_text,
    counts_of,
)
from referee.rules.ruleset import direction_offset


@dataclass(slots=True)
class HandRecord:
    """The statements of one hand, names resolved to seats."""

    number: int
    start: HandStart | None = None
    deals: dict[int, Deal] = field(default_factory=dict)
    kitty: Kitty | None = None
    passes: dict[int, Pass] = field(default_factory=dict)
    tricks: list[Trick] = field(default_factory=list)
    moon: object | None = None
    score: object | None = None
    total: object | None = None
    span: Span | None = None

    @property
    def has_play(self) -> bool:
        return bool(self.deals or self.kitty or self.passes or self.tricks)


SeatedPlay = tuple[int, Card, Play]  # (seat, card, the play as written): built for every card


@dataclass(slots=True)
class Knowledge:
    holdings: list[Counts]  # after passing: known, or inferred from the seat's plays
    known: list[bool]
    kitty: tuple[Card, ...] | None  # None: not recorded and not inferable
    tricks: list[list[SeatedPlay]]  # plays of each recorded trick with seats resolved
    record: HandRecord
    offset: int  # seats to the left that passes travel this hand
    sent: dict[int, Counts]  # the valid passes, by sender

    def later_plays(self, seat: int, card: int, after: int) -> list[tuple[int, Span]]:
        """(trick number, span) of the plays of ``card`` by ``seat`` from trick ``after`` on."""
        return [(trick.number, play.span)
                for trick, plays in zip(self.record.tricks, self.tricks) if trick.number >= after
                for who, what, play in plays if who == seat and what == card]

    def origin(self, table: Table, seat: int, card: int) -> str:
        """Where a known holding's card came from: 'dealt on line 9' or 'passed by Al on line 14'."""
        if self.offset:
            sender = (seat - self.offset) % table.size
            if self.sent.get(sender, (0,) * DECK_SIZE)[card]:
                return f"passed by {table.name(sender)} on line {self.record.passes[sender].span.line}"
        deal = self.record.deals.get(seat)
        return f"dealt on line {deal.span.line}" if deal else "as recorded"


def seat_plays(table: Table, trick: Trick, hand: int) -> list[SeatedPlay]:
    """Resolve a trick's plays to seats; compact tricks run in seating order from the leader."""
    seated: list[SeatedPlay] = []
    if trick.leader is not None:
        leader = table.seat(trick.leader, trick.leader_span, hand=hand)
        if leader is None:
            return seated
        for offset, play in enumerate(trick.plays):
            seated.append(((leader + offset) % table.size, play.card, play))
        return seated
    seats = table.seats
    for play in trick.plays:
        seat = seats.get(play.player)  # exact spelling first: no casefold, no span built
        if seat is None:
            seat = table.seat(play.player, play.span, hand=hand, guess=True)
        if seat is not None:
            seated.append((seat, play.card, play))
    return seated


def gather(table: Table, record: HandRecord, expected_direction: str) -> Knowledge:
    rules, n, add = table.rules, table.size, table.findings.add
    hand = record.number
    per, kitty_size = rules.cards_per_player(n), rules.kitty_size(n)

    dealt: dict[int, Counts] = {}
    seen = [0] * DECK_SIZE
    for seat, deal in sorted(record.deals.items(), key=lambda item: item[1].span.line):
        cards = deal.run.cards
        for index, card in enumerate(cards):
            seen[card] += 1
            if seen[card] == rules.decks + 1:
                add(codes.BAD_DEAL, deal.run.span_of(index, deal.span),
                    f"{card_text(card)} is dealt more often than the {rules.decks} deck(s) hold",
                    hand=hand, player=table.name(seat), rule="R2.4")
        if len(cards) != per:
            add(codes.BAD_DEAL, deal.span, f"{table.name(seat)} was dealt {len(cards)} cards; with "
                f"{n} players each gets {per}", hand=hand, player=table.name(seat), rule="R2.1")
        else:
            dealt[seat] = counts_of(cards)

    kitty: tuple[Card, ...] | None = None
    if record.kitty is not None:
        cards = record.kitty.run.cards
        for index, card in enumerate(cards):
            seen[card] += 1
            if seen[card] == rules.decks + 1:
                add(codes.BAD_DEAL, record.kitty.run.span_of(index, record.kitty.span),
                    f"{card_text(card)} in the kitty is one copy more than the decks hold",
                    hand=hand, rule="R2.4")
        if len(cards) != kitty_size:
            add(codes.BAD_DEAL, record.kitty.span, f"the kitty has {len(cards)} cards; with {n} "
                f"players it has {kitty_size}", hand=hand, rule="R2.2")
        else:
            kitty = tuple(cards)
    if len(dealt) == n:
        missing = cards_of(tuple(max(0, rules.decks - count) for count in seen))
        if record.kitty is None and len(missing) == kitty_size:
            kitty = tuple(missing)
        elif missing and record.kitty is not None:
            last = max(record.deals.values(), key=lambda d: d.span.line)
            add(codes.BAD_DEAL, last.span, f"the deal and kitty leave out {cards_text(missing[:8])}"
                f"{' ...' if len(missing) > 8 else ''}", hand=hand, rule="R2.4")

    direction = _check_direction(table, record, expected_direction)
    offset = direction_offset(direction, n)
    sent: dict[int, Counts] = {}
    sent_cards: dict[int, tuple[Card, ...]] = {}
    for seat, pass_ in sorted(record.passes.items(), key=lambda item: item[1].span.line):
        who = table.name(seat)
        if offset == 0:
            add(codes.BAD_PASS, pass_.span, f"hand {hand} is a hold hand: nobody passes",
                hand=hand, player=who, rule="R3.3")
            continue
        ok = True
        if len(pass_.run.cards) != rules.pass_count:
            add(codes.BAD_PASS, pass_.span, f"{who} passed {len(pass_.run.cards)} cards, not "
                f"{rules.pass_count}", hand=hand, player=who, rule="R3.1")
            ok = False
        if pass_.to is not None:
            target = table.seat(pass_.to, pass_.to_span, hand=hand)
            if target is not None and target != (seat + offset) % n:
                add(codes.BAD_PASS, pass_.to_span, f"in hand {hand} ({direction}) {who} passes to "
                    f"{table.name((seat + offset) % n)}, not {table.name(target)}",
                    hand=hand, player=who, rule="R3.3")
        if seat in dealt:
            remaining = list(dealt[seat])
            for index, card in enumerate(pass_.run.cards):
                if remaining[card] == 0:
                    add(codes.BAD_PASS, pass_.run.span_of(index, pass_.span),
                        f"{who} passed {card_text(card)}, which is not in the hand dealt to "
                        f"{who} (line {record.deals[seat].span.line})", hand=hand, player=who,
                        rule="R3.2")
                    ok = False
                else:
                    remaining[card] -= 1
        if ok:
            sent[seat] = counts_of(pass_.run.cards)
            sent_cards[seat] = pass_.run.cards

    holdings: list[Counts] = []
    known: list[bool] = []
    for seat in range(n):
        sender = (seat - offset) % n
        if seat in dealt and (offset == 0 or (seat in sent and sender in sent)):
            counts = dealt[seat]
            if offset:
                changed = list(counts)
                for card in sent_cards[seat]:
                    changed[card] -= 1
                for card in sent_cards[sender]:
                    changed[card] += 1
                counts = tuple(changed)
            holdings.append(counts)
            known.append(True)
        else:
            holdings.append((0,) * DECK_SIZE)
            known.append(False)

    tricks = [seat_plays(table, trick, hand) for trick in record.tricks]
    if not all(known):
        played = [[0] * DECK_SIZE for _ in range(n)]
        for plays in tricks:
            for seat, card, _ in plays:
                played[seat][card] += 1
        for seat in range(n):
            if not known[seat]:
                holdings[seat] = tuple(min(c, rules.decks) for c in played[seat])
    complete = len(tricks) == per and all(len(p) == n for p in tricks)
    if kitty is None and complete and kitty_size:
        all_played = Counter(card for plays in tricks for _, card, _ in plays)
        rest = [CARDS[c] for c in range(DECK_SIZE) for _ in range(max(0, rules.decks - all_played[c]))]
        if len(rest) == kitty_size:
            kitty = tuple(rest)
    if kitty is None and not kitty_size:
        kitty = ()
    if kitty is None:
        table.findings.note(f"hand {hand}: the kitty is not recorded, so its points are not checked")
    if not all(known) and record.tricks:
        unknown = [table.name(s) for s in range(n) if not known[s]]
        whose = ("no deal lines are recorded" if not record.deals else
                 f"the holdings of {', '.join(unknown)} are not fully recorded")
        table.findings.note(f"hand {hand}: {whose}; revokes and illegal leads are proven only "
                            "from later plays")
    return Knowledge(holdings, known, kitty, tricks, record, offset, sent)


def _check_direction(table: Table, record: HandRecord, expected: str) -> str:
    start = record.start
    if start is None or start.direction is None:
        return expected
    if start.direction != expected:
        try:
            direction_offset(start.direction, table.size)
        except ValueError:
            return expected
        table.findings.add(
            codes.BAD_PASS, start.direction_span, f"hand {record.number} passes {expected} under "
            f"{table.rules.name}, not {start.direction}", hand=record.number, rule="R3.3")
    return start.direction
