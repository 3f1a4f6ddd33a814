"""This module finds what the record lets the referee know about one hand before play: deals, kitty,
passes.

It checks the deal and kitty (R2) and the passes (R3), then decides, seat by seat, whether the
holding after passing is *known* (deal and passes recorded) or *inferred* (the cards the player is
seen to play; R5.2 can then be proven only from a later play of the led suit)."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.judge import codes
from referee.judge.hand_record import HandRecord
from referee.judge.holding_rule import (
    beyond,
    compact_seated,
    holdings_after_passing,
    kitty_left,
    receiver,
    sender,
)
from referee.judge.table import CheckTable
from referee.log.events import Play, Span, Trick
from referee.rules.cards import (
    DECK_SIZE,
    EMPTY_COUNTS,
    TWO_OF_CLUBS,
    Card,
    Counts,
    card_text,
    cards_of,
    cards_text,
    counts_of,
)
from referee.rules.options import PassDirection
from referee.rules.ruleset import direction_offset
from referee.util.message import msg, msgn
from referee.util.suggest import did_you_mean

# TRANSLATORS: a pass direction, as in "hand 2 passes right under cancellation, not left"
# (hold: nobody passes)
DIRECTION_WORDS = {PassDirection.LEFT: msg("left"), PassDirection.RIGHT: msg("right"),
                   PassDirection.ACROSS: msg("across"), PassDirection.HOLD: msg("hold")}


def direction_name(direction: str) -> str:
    """Name a pass direction ('left', '2 right') as a message; return a direction it cannot read as
    it is."""
    if direction in DIRECTION_WORDS:
        return DIRECTION_WORDS[direction]
    steps, _, side = direction.partition(" ")
    if side == PassDirection.LEFT:
        # TRANSLATORS: {n} seats to the left, as in "hand 3 passes 2 left"
        return msg("{n} left", n=steps)
    if side == PassDirection.RIGHT:
        return msg("{n} right", n=steps)
    return direction


NONE_SPOKEN_FOR: frozenset[tuple[int, Card]] = frozenset()

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
    # cards each holding has lost to unreadable tricks so far: a known holding is then an
    # upper bound (a card not in it is not held), and it proves a suit held only with more
    # cards of the suit than it may have lost
    missing: int = 0
    # seats that played a card the record does not show (a trick closed without their card):
    # their holding is an upper bound too, and proves a card held only by a later play
    unrecorded: set[int] = field(default_factory=set)
    # the plays ruled to be of a card the seat does not hold, as (trick index, position): each
    # stands for an unknown card of its seat (which joins ``unrecorded``), is no copy played,
    # and settles neither its trick's lead suit nor its outcome
    not_held: set[tuple[int, int]] | None = None  # (made at the first: a set per hand costs)
    # (seat, card): a seat of inferred holding plays a card whose every copy the seats of known
    # holding hold and play; it cannot hold one
    spoken_for: frozenset[tuple[int, Card]] = NONE_SPOKEN_FOR

    def uncertain(self, seat: int) -> bool:
        """Tell whether the seat's known holding may hold cards it has already played."""
        return bool(self.missing) or seat in self.unrecorded

    def later_plays(self, seat: int, card: int, after: int) -> list[tuple[int, Span]]:
        """Return (trick number, span) of the plays of ``card`` by ``seat`` from trick ``after``
        on."""
        return [(trick.number, play.span)
                for trick, plays in zip(self.record.tricks, self.tricks) if trick.number >= after
                for who, what, play in plays if who == seat and what == card]

    def origin(self, table: CheckTable, seat: int, card: int) -> str:
        """Say where a known card came from: 'dealt on line 9' or 'passed by Al on line 14'."""
        if self.offset:
            source = sender(seat, self.offset, table.size)
            if self.sent.get(source, EMPTY_COUNTS)[card]:
                return msg("passed by {player} on line {line}", player=table.name(source),
                           line=self.record.passes[source].span.line)
        deal = self.record.deals.get(seat)
        return msg("dealt on line {line}", line=deal.span.line) if deal else msg("as recorded")


def seat_plays(table: CheckTable, trick: Trick, hand: int) -> list[SeatedPlay]:
    """Resolve a trick's plays to seats; compact tricks run in seating order from the leader."""
    if trick.leader is not None:
        leader = table.seat(trick.leader, trick.leader_span, hand=hand)
        if leader is None:
            return []
        return compact_seated(leader, trick.plays, table.size)
    seats = table.seats
    try:  # every name spelled as seated (as nearly always): no casefold, no span built
        return [(seats[play[0]], play[1], play) for play in trick.plays]
    except KeyError:
        pass
    names = [None if play.player is None else table.find(play.player)
             for play in trick.plays]
    due = _due_seat(names, table.size)
    seated: list[SeatedPlay] = []
    for play, seat in zip(trick.plays, names):
        if seat is None:
            # a name like no seated one where a whole trick in seating order lacks one seat
            # is that seat's, the one whose turn it is
            suggestion = table.name(due) if due is not None and \
                did_you_mean(play.player, table.names) is None else None
            seat = table.seat(play.player, play.span, hand=hand, guess=True,
                              suggestion=suggestion)
        if seat is not None:
            seated.append((seat, play.card, play))
    return seated


def _due_seat(seats: list[int | None], n: int) -> int | None:
    """Return the seat a whole trick's one unseated play (None) stands in when the others run in
    seating order around it, or None."""
    if len(seats) != n or seats.count(None) != 1:
        return None
    place = seats.index(None)
    first = (seats[1] - 1) % n if place == 0 else seats[0]
    order = [(first + step) % n for step in range(n)]
    return order[place] if all(seat is None or seat == due
                               for seat, due in zip(seats, order)) else None


def repeats_previous(tricks: list[Trick], index: int) -> bool:
    """Tell whether trick line ``index`` writes the trick before it again, play for play."""
    earlier, trick = tricks[index - 1], tricks[index]
    return bool(trick.plays) and earlier.number == trick.number and \
        earlier.leader == trick.leader and \
        [(p.player, p.card) for p in earlier.plays] == [(p.player, p.card) for p in trick.plays]


def gather(table: CheckTable, record: HandRecord, direction: str) -> Knowledge:
    """Gather what the referee knows of the hand before play (``direction``: the pass due), and
    report the faults of the deal, the kitty and the passes on the way."""
    n, hand = table.size, record.number
    dealt, seen = deals_of(table, record)
    kitty, extra = recorded_kitty(table, record, seen)
    if extra:  # which of the kitty and the deals holds the copy too many is not known
        dealt = {seat: held for seat, held in dealt.items() if not any(held[c] for c in extra)}
    if len(dealt) == n:
        kitty = kitty_from_deal(table, record, seen, kitty)
    # a wrong `pass DIRECTION` header is corrected where the hand is grouped; the cards move
    # the way due unless the play shows they moved the way written (the header's, or every
    # pass's arrow), and the one fault is reported here
    offset = direction_offset(direction, n)
    sent_cards = _passes(table, record, dealt, offset)
    # a line that writes the trick before it again is counted once (its number is compared
    # first: no call for the trick of another number, as nearly every one is)
    lines = record.tricks
    tricks = [[] if index and trick.number == lines[index - 1].number and
              repeats_previous(lines, index) else seat_plays(table, trick, hand)
              for index, trick in enumerate(lines)]
    written = _written_offset(table, record, offset)
    followed = written is not None and _fits_better(table, dealt, sent_cards, tricks,
                                                     written[0], offset)
    report_direction(table, record, written[0] if followed else None)
    if followed:
        offset = written[0]
        if written[1]:
            _report_arrows(table, record, direction, offset)
    elif offset:
        for seat in record.passes:
            _check_target(table, record, seat, direction, offset)
    after = holdings_after_passing(dealt, sent_cards, offset, n)
    known = [holding is not None for holding in after]
    spoken_for: frozenset[tuple[int, Card]] = NONE_SPOKEN_FOR
    if not all(known):  # the others hold the cards they are seen to play (R5.2)
        played, decks = _played(tricks, n), table.rules.decks
        spoken_for = _spoken_for(after, played, decks)
        after = tuple(held if held is not None else
                      tuple(0 if (seat, card) in spoken_for else min(c, decks)
                            for card, c in enumerate(played[seat]))
                      for seat, held in enumerate(after))
    if kitty is None:
        kitty = _kitty_from_plays(table, tricks)
    _note_unknowns(table, record, kitty, known)
    sent = {seat: counts_of(cards) for seat, cards in sent_cards.items()}
    return Knowledge(list(after), known, kitty, tricks, record, offset, sent,
                     spoken_for=spoken_for)


def _spoken_for(after: tuple[Counts | None, ...], played: list[list[int]], decks: int
                ) -> frozenset[tuple[int, Card]]:
    """Find the (seat, card) plays of seats of inferred holding (None in ``after``) of a card that
    the seats of known holding hold and play every copy of: the one play their holdings do not back
    is the wrong one."""
    backed = [0] * DECK_SIZE
    for held, plays in zip(after, played):
        if held is not None:
            for card, count in enumerate(plays):
                if count and held[card]:
                    backed[card] += min(count, held[card])
    return frozenset((seat, card) for seat, held in enumerate(after) if held is None
                     for card, count in enumerate(played[seat]) if count and backed[card] >= decks)


def _passes(table: CheckTable, record: HandRecord, dealt: dict[int, Counts], offset: int
            ) -> dict[int, tuple[Card, ...]]:
    """Return the valid passes by sender: of the count due (R3.1), of cards in the hand dealt
    (R3.2).

    A card the ruleset keeps from passing is reported and still moves (R3.1)."""
    sent: dict[int, tuple[Card, ...]] = {}
    rules, add, hand = table.rules, table.findings.add, record.number
    for seat, pass_ in sorted(record.passes.items(), key=lambda item: item[1].span.line):
        if offset == 0:
            add(codes.BAD_PASS, pass_.span, msg("hand {hand} is a hold hand: nobody passes",
                                                hand=hand),
                hand=hand, player=table.name(seat), rule="R3.3")
            continue
        who, cards, count = table.name(seat), pass_.run.cards, rules.pass_count
        if len(cards) != count:
            add(codes.BAD_PASS, pass_.span, msg(
                "{player} passed {cards}, not {count}", player=who, cards=card_count(len(cards)),
                count=count), hand=hand, player=who, rule="R3.1")
        # all of the pass's R3.1 findings come before its R3.2 ones (--max-diagnostics keeps
        # the first of a kind)
        for index, card in enumerate(cards):
            if rules.unpassable_cards and not rules.may_pass(card):
                add(codes.BAD_PASS, pass_.run.span_of(index, pass_.span), msg(
                    "{player} passed {card}, which may not be passed under {ruleset}",
                    player=who, card=card_text(card), ruleset=rules.name),
                    hand=hand, player=who, rule="R3.1")
        left = list(dealt[seat]) if seat in dealt else None  # the cards dealt not yet passed
        held = True
        for index, card in enumerate(cards):
            if left is not None and not left[card]:
                add(codes.BAD_PASS, pass_.run.span_of(index, pass_.span), msg(
                    "{player} passed {card}, which is not in the hand dealt to {player} (line "
                    "{line})", player=who, card=card_text(card),
                    line=record.deals[seat].span.line), hand=hand, player=who, rule="R3.2")
                held = False
            elif left is not None:
                left[card] -= 1
        if held and len(cards) == count:
            sent[seat] = cards
    return sent


def _written_offset(table: CheckTable, record: HandRecord, due: int) -> tuple[int, bool] | None:
    """Return (the seats to the left the passes travel as written, whether the arrows say it) when
    the header or every pass's arrow says another way than ``due``; return None otherwise."""
    n = table.size
    if record.wrong_direction is not None:
        offset = _header_offset(table, record)
        return (offset, False) if offset else None
    if due == 0 or len(record.passes) < n:
        return None
    offsets = set()
    for seat, pass_ in record.passes.items():
        target = None if pass_.to is None else table.seats.get(pass_.to.casefold())
        if target is None:
            return None
        offsets.add((target - seat) % n)
    offset = offsets.pop()
    return (offset, True) if not offsets and offset not in (0, due) else None


def _fits_better(table: CheckTable, dealt: dict[int, Counts], sent: dict[int, tuple[Card, ...]],
                 tricks: list[list[SeatedPlay]], written: int, due: int) -> bool:
    """Tell whether fewer plays lack their card after passing ``written`` seats than ``due``."""
    n = table.size
    played = _played(tricks, n)

    def lacking(offset: int) -> int:
        after = holdings_after_passing(dealt, sent, offset, n)
        return sum(max(0, count - held[card])
                   for seat, held in enumerate(after) if held is not None
                   for card, count in enumerate(played[seat]) if count)
    return lacking(written) < lacking(due)


def report_direction(table: CheckTable, record: HandRecord, followed: int | None = None) -> None:
    """Report once a `pass DIRECTION` header that is not the one due (R3.3); ``followed`` says that
    the play shows the cards moved that many seats to the left, as written."""
    start = record.start
    if start is None or _header_offset(table, record) is None:
        return
    due, written = start.direction, record.wrong_direction
    if followed is None:
        message = msg("hand {hand} passes {due} under {ruleset}, not {written}; the cards are "
                      "taken to move {due}", hand=record.number, due=direction_name(due),
                      ruleset=table.rules.name, written=direction_name(written))
    else:
        # TRANSLATORS: {due} and {written} are pass directions (left, right, 2 left)
        message = msg("hand {hand} passes {due} under {ruleset}, not {written}; the play shows "
                      "the cards moved {written}, so the hand is judged so", hand=record.number,
                      due=direction_name(due), ruleset=table.rules.name,
                      written=direction_name(written))
    table.findings.add(codes.BAD_PASS, start.direction_span, message, hand=record.number,
                       rule="R3.3")


def _report_arrows(table: CheckTable, record: HandRecord, direction: str, offset: int) -> None:
    """Report that every pass's arrow names the seat ``offset`` to the left, as the play shows, not
    the one due: one fault, at the first pass (R3.3)."""
    first = min(record.passes.values(), key=lambda pass_: pass_.span.line)
    n = table.size
    side = (PassDirection.LEFT if offset == 1 else PassDirection.RIGHT if offset == n - 1 else
            f"{offset} left" if offset <= n // 2 else f"{n - offset} right")
    # TRANSLATORS: {direction} and {written} are pass directions (left, right, 2 left)
    table.findings.add(codes.BAD_PASS, first.to_span, msg(
        "in hand {hand} every pass goes {written}, but passing {direction} is due under "
        "{ruleset}; the play shows the cards moved {written}, so the hand is judged so",
        hand=record.number, written=direction_name(side), direction=direction_name(direction),
        ruleset=table.rules.name), hand=record.number, rule="R3.3")


def _check_target(table: CheckTable, record: HandRecord, seat: int, direction: str,
                  offset: int) -> None:
    """Report a pass to the wrong seat (R3.3), unless the hand's wrong header sends it there."""
    pass_, hand = record.passes[seat], record.number
    if pass_.to is None:
        return
    target = table.seats.get(pass_.to)
    if target is None:
        target = table.seat(pass_.to, pass_.to_span, hand=hand)
    due = receiver(seat, offset, table.size)
    header = _header_offset(table, record)
    if target is None or target == due or (header is not None and
                                           target == receiver(seat, header, table.size)):
        return
    who = table.name(seat)
    table.findings.add(codes.BAD_PASS, pass_.to_span, msg(
        "in hand {hand} {player} passes to {target}, but passing {direction} goes to {due}",
        hand=hand, player=who, target=table.name(target), direction=direction_name(direction),
        due=table.name(due)), hand=hand, player=who, rule="R3.3")


def _header_offset(table: CheckTable, record: HandRecord) -> int | None:
    """Return the seats to the left a wrong `pass DIRECTION` header sends the cards, if it is
    readable."""
    if record.wrong_direction is None:
        return None
    try:
        return direction_offset(record.wrong_direction, table.size)
    except ValueError:
        return None


def _played(tricks: list[list[SeatedPlay]], n: int) -> list[list[int]]:
    played = [[0] * DECK_SIZE for _ in range(n)]
    for plays in tricks:
        for seat, card, _ in plays:
            played[seat][card] += 1
    return played


def _kitty_from_plays(table: CheckTable, tricks: list[list[SeatedPlay]]) -> tuple[Card, ...] | None:
    """Find the kitty of a hand played out in full: the cards nobody played; return () without
    one."""
    rules, n = table.rules, table.size
    kitty_size = rules.kitty_size(n)
    if not kitty_size:
        return ()
    complete = len(tricks) == rules.cards_per_player(n) and all(len(p) == n for p in tricks)
    if not complete:
        return None
    played = counts_of(card for plays in tricks for _, card, _ in plays)
    rest = kitty_left(rules.decks, played, kitty_size)
    return cards_of(rest) if rest is not None else None


def _note_unknowns(table: CheckTable, record: HandRecord, kitty: tuple[Card, ...] | None,
                   known: list[bool]) -> None:
    hand, note = record.number, table.findings.note
    if kitty is None:
        note(msg("hand {hand}: the kitty is not recorded, so its points are not checked",
                 hand=hand))
    if not all(known) and record.tricks:
        unknown = [table.name(s) for s in range(table.size) if not known[s]]
        whose = (msg("no deal lines are recorded") if not record.deals else
                 msg("the holdings of {players} are not fully recorded",
                     players=", ".join(unknown)))
        # TRANSLATORS: {whose} is "no deal lines are recorded" or "the holdings of ... are not
        # fully recorded"
        note(msg("hand {hand}: {whose}; revokes and illegal leads are proven only from later "
                 "plays", hand=hand, whose=whose))


# -- the deal and the kitty (R2.1, R2.2, R2.4): each fault said once, where it is ----------
def card_count(number: int) -> str:
    """Say ``1 card``, ``13 cards`` as a message."""
    return msgn("{n} card", "{n} cards", number, n=number)


def deals_of(table: CheckTable, record: HandRecord) -> tuple[dict[int, Counts], list[int]]:
    """Return the deals of the right size by seat, and the copies of each card dealt (R2.1, R2.4);
    leave out any deal holding a card dealt beyond the decks, which settles no holding."""
    rules, n, add, hand = table.rules, table.size, table.findings.add, record.number
    per = rules.cards_per_player(n)
    dealt: dict[int, Counts] = {}
    seen = [0] * DECK_SIZE
    deals = sorted(record.deals.items(), key=lambda item: item[1].span.line)
    for seat, deal in deals:
        cards = deal.run.cards
        for index, card in enumerate(cards):
            seen[card] += 1
            # a deal with cards too many explains a copy too many of one of them: its size
            # is the fault, said once
            if seen[card] == rules.decks + 1 and not in_long_deal(table, record, card):
                # (no player named: the record does not say which of the deals is wrong)
                # TRANSLATORS: {decks} is the number of decks, 1 or 2; {lines} the deal lines
                add(codes.BAD_DEAL, deal.run.span_of(index, deal.span), msgn(
                    "{card} is dealt more often than the deck holds (lines {lines})",
                    "{card} is dealt more often than the {n} decks hold (lines {lines})",
                    rules.decks, card=card_text(card), n=rules.decks,
                    lines=", ".join(str(d.span.line) for _, d in deals if card in d.run.cards)),
                    hand=hand, rule="R2.4")
        if rules.two_of_clubs_apart and cards.count(TWO_OF_CLUBS) > 1:
            add(codes.BAD_DEAL, deal.span, msg(
                "{player} was dealt both 2C; under {ruleset} they go to different players",
                player=table.name(seat), ruleset=rules.name), hand=hand,
                player=table.name(seat), rule="R2.4")
        if len(cards) != per:
            add(codes.BAD_DEAL, deal.span, msg(
                "{player} was dealt {cards}; with {players} players each gets {per}",
                player=table.name(seat), cards=card_count(len(cards)), players=n, per=per),
                hand=hand, player=table.name(seat), rule="R2.1")
        else:
            dealt[seat] = counts_of(cards)
    if max(seen) > rules.decks:
        dealt = {seat: counts for seat, counts in dealt.items()
                 if all(seen[card] <= rules.decks for card in record.deals[seat].run.cards)}
    return dealt, seen


def in_long_deal(table: CheckTable, record: HandRecord, card: Card) -> bool:
    """Tell whether a deal of more cards than a player gets holds ``card`` (its size is the
    fault)."""
    per = table.rules.cards_per_player(table.size)
    return any(len(deal.run.cards) > per and card in deal.run.cards
               for deal in record.deals.values())


def recorded_kitty(table: CheckTable, record: HandRecord, seen: list[int]
                   ) -> tuple[tuple[Card, ...] | None, tuple[Card, ...]]:
    """Return the kitty as written, if it has the right size (R2.2) and no copy beyond the decks
    (R2.4), and the cards it holds a copy too many of."""
    if record.kitty is None:
        return None, ()
    rules, n, add, hand = table.rules, table.size, table.findings.add, record.number
    kitty_size = rules.kitty_size(n)
    cards = record.kitty.run.cards
    copies = list(seen)
    beyond_decks: list[Card] = []
    for index, card in enumerate(cards):
        copies[card] += 1
        if copies[card] == rules.decks + 1 and not in_long_deal(table, record, card):
            add(codes.BAD_DEAL, record.kitty.run.span_of(index, record.kitty.span),
                msg("{card} in the kitty is one copy more than the decks hold",
                    card=card_text(card)), hand=hand, rule="R2.4")
            beyond_decks.append(card)
    right = not beyond_decks
    if len(cards) != kitty_size:
        add(codes.BAD_DEAL, record.kitty.span, msg(
            "the kitty has {cards}; with {players} players it has {size}",
            cards=card_count(len(cards)), players=n, size=kitty_size), hand=hand, rule="R2.2")
        right = False
    return (tuple(cards) if right else None), tuple(beyond_decks)


def kitty_from_deal(table: CheckTable, record: HandRecord, seen: list[int],
                     kitty: tuple[Card, ...] | None) -> tuple[Card, ...] | None:
    """Return the cards left over when every deal is recorded (``seen``: the copies dealt), unless a
    kitty is recorded, which must leave none over (R2.4)."""
    rules = table.rules
    if kitty is None:
        rest = kitty_left(rules.decks, seen, rules.kitty_size(table.size))
        return cards_of(rest) if rest is not None else None
    together = list(seen)
    for card in kitty:
        together[card] += 1
    missing = cards_of(beyond(rules.decks, together))
    if missing:
        last = max(record.deals.values(), key=lambda d: d.span.line)
        table.findings.add(
            codes.BAD_DEAL, last.span, msg(
                "the deal and kitty leave out {cards}",
                cards=cards_text(missing[:8]) + (" ..." if len(missing) > 8 else "")),
            hand=record.number, rule="R2.4")
    return kitty
