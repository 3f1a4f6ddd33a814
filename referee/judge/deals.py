"""The deal and the kitty of one hand (R2.1, R2.2, R2.4): each fault said once, where it is,
and which deals may settle a holding."""

from __future__ import annotations

from referee.judge import codes
from referee.judge.hand_record import HandRecord
from referee.judge.holding_rule import beyond, kitty_left
from referee.judge.table import Table
from referee.rules.cards import (
    DECK_SIZE,
    TWO_OF_CLUBS,
    Card,
    Counts,
    card_text,
    cards_of,
    cards_text,
    counts_of,
)
from referee.util.message import msg, msgn

__all__ = ["card_count", "deals_of", "in_long_deal", "kitty_from_deal", "recorded_kitty"]


def card_count(number: int) -> str:
    """``1 card``, ``13 cards``: a message."""
    return msgn("{n} card", "{n} cards", number, n=number)


def deals_of(table: Table, record: HandRecord) -> tuple[dict[int, Counts], list[int]]:
    """The deals of the right size by seat, and the copies of each card dealt (R2.1, R2.4).  A
    card dealt beyond the decks is blamed once; since the record does not say which deal is
    wrong, none of them settles a holding."""
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


def in_long_deal(table: Table, record: HandRecord, card: Card) -> bool:
    """Whether a deal of more cards than a player gets holds ``card``: then its size is the
    fault that explains a copy too many of it, said once, on that deal."""
    per = table.rules.cards_per_player(table.size)
    return any(len(deal.run.cards) > per and card in deal.run.cards
               for deal in record.deals.values())


def recorded_kitty(table: Table, record: HandRecord, seen: list[int]
                   ) -> tuple[tuple[Card, ...] | None, tuple[Card, ...]]:
    """The kitty as written, if it has the right size (R2.2) and no copy beyond the decks
    (R2.4: the kitty line is blamed, and not used); and the cards it holds a copy too many of."""
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


def kitty_from_deal(table: Table, record: HandRecord, seen: list[int],
                     kitty: tuple[Card, ...] | None) -> tuple[Card, ...] | None:
    """With every deal recorded (``seen``: the copies dealt): the kitty is the cards left
    over, unless one is recorded; a recorded kitty must leave none over (R2.4).  A kitty
    line already reported as wrong is replaced by the cards left over, not blamed again."""
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
