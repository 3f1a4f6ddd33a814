"""Winner claims judged against the trick resolution (R6): the wrongly claimed seat named,
and a miscounted cancellation told apart from any other wrong winner."""

from __future__ import annotations

from referee.check import codes
from referee.check.holdings import SeatedPlay
from referee.check.table import Table
from referee.log.events import Trick
from referee.rules.cards import NUM_RANKS, SUIT_SINGULAR, card_text
from referee.rules.engine import State


def judge_claim(table: Table, state: State, trick: Trick, plays: list[SeatedPlay],
                 hand: int) -> int | None:
    """Compare a winner claim with the rules; return the wrongly claimed seat, if any."""
    record = state.last_trick
    claim = trick.claim
    actual = record.winner
    if claim.player is None:
        claimed = None
    else:
        claimed = table.seat(claim.player, claim.span, hand=hand)
        if claimed is None:
            return None
    if claimed == actual:
        return None
    add, number = table.findings.add, record.number
    cancelled = record.outcome.cancelled
    winner_text = (f"{table.name(actual)} wins it with "
                   f"{card_text(record.plays[record.outcome.winner][1])}"
                   if actual is not None and record.outcome.winner is not None
                   else "nobody wins it")
    led = record.plays[0][1] // NUM_RANKS
    pairs = ", ".join(sorted(card_text(c) for c in cancelled))
    if claimed is None:
        gone = f" ({pairs} cancelled)" if pairs else ""
        add(codes.MISCOUNTED_CANCELLATION, claim.span, f"trick {number} is claimed as set aside, "
            f"but an uncancelled {SUIT_SINGULAR[led]} survives{gone}: {winner_text}", hand=hand,
            trick=number, rule="R6.3")
    elif actual is None or record.outcome.winner is None:
        add(codes.MISCOUNTED_CANCELLATION, claim.span, f"trick {number} is claimed for "
            f"{table.name(claimed)}, but {_why_set_aside(record, led, table.rules.name)}: "
            "it is set aside", hand=hand, trick=number, player=table.name(claimed), rule="R6.4")
    else:
        their = [c for s, c in record.plays if s == claimed]
        if their and their[0] in cancelled:
            add(codes.MISCOUNTED_CANCELLATION, claim.span, f"trick {number} is claimed for "
                f"{table.name(claimed)}, whose {card_text(their[0])} was cancelled by its twin; "
                f"{winner_text}", hand=hand, trick=number, player=table.name(claimed), rule="R6.2")
        else:
            add(codes.WRONG_WINNER, claim.span, f"trick {number} is claimed for "
                f"{table.name(claimed)}, but {winner_text}", hand=hand, trick=number,
                player=table.name(claimed), rule="R6.1")
    return claimed


def _why_set_aside(record, led: int, ruleset: str) -> str:
    """Why a trick with cancelled cards has no winner: its led suit all cancelled (naming only
    the led suit's pairs), or, under ``two_pairs``, two pairs of any suits."""
    cancelled = record.outcome.cancelled
    if not any(c // NUM_RANKS == led and c not in cancelled for _, c in record.plays):
        led_pairs = ", ".join(sorted(card_text(c) for c in cancelled if c // NUM_RANKS == led))
        return f"every {SUIT_SINGULAR[led]} in it cancelled ({led_pairs})"
    pairs = ", ".join(sorted(card_text(c) for c in cancelled))
    return f"{len(cancelled)} pairs cancelled ({pairs}), which sets a trick aside under {ruleset}"
