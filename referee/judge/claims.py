"""Winner claims judged against the trick resolution (R6): the wrongly claimed seat named,
and a miscounted cancellation told apart from any other wrong winner."""

from __future__ import annotations

from referee.judge import codes
from referee.judge.holdings import SeatedPlay
from referee.judge.table import Table
from referee.log.events import Trick
from referee.rules.cards import NUM_RANKS, SUIT_SINGULAR, card_text
from referee.rules.options import NothingSurvives, SetAsideWhen
from referee.rules.state import State, TrickRecord
from referee.rules.tricks import lead_card
from referee.util.message import Message, msg, msgn


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
    add, number, rules = table.findings.add, record.number, table.rules
    cancelled = record.outcome.cancelled
    # the suit that decides the trick: the led one, or under R5.5 the last one switched to
    led = lead_card([c for _, c in record.plays], rules.lead_suit_switch) // NUM_RANKS
    by_leader = _won_by_leader(record, led, rules)
    winner = _winner_text(table, record, led, by_leader)
    if claimed is None and by_leader:
        # TRANSLATORS: {winner} says why the leader wins: "every heart in it cancelled (KH),
        # so its leader Eve wins it"
        add(codes.MISCOUNTED_CANCELLATION, claim.span, msg(
            "trick {trick} is claimed as set aside, but no trick is set aside under {ruleset}: "
            "{winner}", trick=number, ruleset=rules.name, winner=winner), hand=hand,
            trick=number, rule="R6.4")
    elif claimed is None:
        pairs = ", ".join(sorted(card_text(c) for c in cancelled))
        # TRANSLATORS: {winner} is who wins instead: "Dave wins it with KC"
        message = (msg("trick {trick} is claimed as set aside, but an uncancelled {suit} "
                       "survives ({pairs} cancelled): {winner}", trick=number,
                       suit=SUIT_SINGULAR[led], pairs=pairs, winner=winner) if pairs else
                   msg("trick {trick} is claimed as set aside, but an uncancelled {suit} "
                       "survives: {winner}", trick=number, suit=SUIT_SINGULAR[led],
                       winner=winner))
        add(codes.MISCOUNTED_CANCELLATION, claim.span, message, hand=hand, trick=number,
            rule="R6.3")
    elif actual is None or record.outcome.winner is None:
        # TRANSLATORS: {why} says why nobody wins: "every spade in it cancelled (KS, QS)"
        add(codes.MISCOUNTED_CANCELLATION, claim.span, msg(
            "trick {trick} is claimed for {player}, but {why}: it is set aside", trick=number,
            player=table.name(claimed), why=_why_set_aside(record, led, rules.name)),
            hand=hand, trick=number, player=table.name(claimed), rule="R6.4")
    else:
        their = [c for s, c in record.plays if s == claimed]
        if their and their[0] in cancelled:
            add(codes.MISCOUNTED_CANCELLATION, claim.span, msg(
                "trick {trick} is claimed for {player}, whose {card} was cancelled by its twin; "
                "{winner}", trick=number, player=table.name(claimed), card=card_text(their[0]),
                winner=winner), hand=hand, trick=number, player=table.name(claimed),
                rule="R6.2")
        else:
            add(codes.WRONG_WINNER, claim.span, msg(
                "trick {trick} is claimed for {player}, but {winner}", trick=number,
                player=table.name(claimed), winner=winner), hand=hand, trick=number,
                player=table.name(claimed), rule="R6.1")
    return claimed


def _won_by_leader(record: TrickRecord, led: int, rules) -> bool:
    """Whether the leader has the trick only by ``nothing_survives = "leader_wins"``: it
    would be set aside otherwise (R6.4)."""
    if rules.nothing_survives != NothingSurvives.LEADER_WINS or record.outcome.winner != 0:
        return False
    return _two_pairs(record, rules) or not _led_survives(record, led)


def _two_pairs(record: TrickRecord, rules) -> bool:
    return rules.set_aside_when == SetAsideWhen.TWO_PAIRS and len(record.outcome.cancelled) >= 2


def _led_survives(record: TrickRecord, led: int) -> bool:
    cancelled = record.outcome.cancelled
    return any(c // NUM_RANKS == led and c not in cancelled for _, c in record.plays)


def _winner_text(table: Table, record: TrickRecord, led: int, by_leader: bool) -> Message:
    """Who wins the trick and with what, or why its leader wins it, or that nobody does."""
    if record.winner is None or record.outcome.winner is None:
        return msg("nobody wins it")
    winner = table.name(record.winner)
    if not by_leader:
        return msg("{winner} wins it with {card}", winner=winner,
                   card=card_text(record.plays[record.outcome.winner][1]))
    cancelled = record.outcome.cancelled
    if not _led_survives(record, led):
        pairs = ", ".join(sorted(card_text(c) for c in cancelled if c // NUM_RANKS == led))
        return msg("every {suit} in it cancelled ({pairs}), so its leader {leader} wins it",
                   suit=SUIT_SINGULAR[led], pairs=pairs, leader=winner)
    pairs = ", ".join(sorted(card_text(c) for c in cancelled))
    return msgn("{n} pair cancelled ({pairs}), so its leader {leader} wins it",
                "{n} pairs cancelled ({pairs}), so its leader {leader} wins it",
                len(cancelled), n=len(cancelled), pairs=pairs, leader=winner)


def _why_set_aside(record: TrickRecord, led: int, ruleset: str) -> Message:
    """Why a trick with cancelled cards has no winner: its led suit all cancelled (naming only
    the led suit's pairs), or, under ``two_pairs``, two pairs of any suits."""
    cancelled = record.outcome.cancelled
    if not _led_survives(record, led):
        led_pairs = ", ".join(sorted(card_text(c) for c in cancelled if c // NUM_RANKS == led))
        return msg("every {suit} in it cancelled ({pairs})", suit=SUIT_SINGULAR[led],
                   pairs=led_pairs)
    pairs = ", ".join(sorted(card_text(c) for c in cancelled))
    return msgn("{n} pair cancelled ({pairs}), which sets a trick aside under {ruleset}",
                "{n} pairs cancelled ({pairs}), which sets a trick aside under {ruleset}",
                len(cancelled), n=len(cancelled), pairs=pairs, ruleset=ruleset)
