"""The words of a partial record's conflict (:mod:`referee.proofs.partial`): what each recorded
play shows about its player's holding, what is unrecorded about a seat, and the sentences that
cannot all be true together.  Each is a message (:func:`referee.util.message.msg`).  No z3 here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.proofs.wording import and_list
from referee.rules.cards import NUM_RANKS, card_text
from referee.util.message import msg, msgn

# the number of cards passed, as a word; the suits in the order of cards.SUIT_NAMES
WORDS = {1: msg("one"), 2: msg("two"), 3: msg("three"), 4: msg("four"), 5: msg("five")}
SUITS = (msg("spades"), msg("hearts"), msg("diamonds"), msg("clubs"))


def fact_text(kind: str, card: int, led: int | None, number: int) -> str:
    """What a play shows, said after its player's name ("show out of spades in trick 2")."""
    if kind == "void":
        # TRANSLATORS: this and the next follow a player's name after "no ... let": "no
        # cards ... let Beth show out of spades in trick 2"
        return msg("show out of {suit} in trick {trick}", suit=SUITS[led // NUM_RANKS],
                   trick=number)
    if kind == "firstpts":
        return msg("play {card} to the first trick", card=card_text(card))
    if kind == "lowest":
        return msg("lead {card} as the lowest club dealt", card=card_text(card))
    if kind == "firstlead":
        return msg("lead {card} to the first trick", card=card_text(card))
    return msg("lead {card} in trick {trick} before hearts were broken", card=card_text(card),
               trick=number)


def unknown_text(who: str, sender: str, what: set[str], passed: int) -> str:
    """'three cards Al could have passed to Beth', ... for what is unrecorded about the seat
    of ``who`` (``what``: "deal", "in", "out"); ``sender`` passes to it, ``passed`` cards."""
    count = WORDS.get(passed, str(passed))
    if "deal" in what:
        if what & {"in", "out"}:
            return msg("cards that could have been dealt to {player} and passed", player=who)
        return msg("cards that could have been dealt to {player}", player=who)
    if what == {"in"}:
        # TRANSLATORS: {count} is a number as a word ("three"); {sender} and {player} names
        return msgn("{count} card {sender} could have passed to {player}",
                    "{count} cards {sender} could have passed to {player}", passed,
                    count=count, sender=sender, player=who)
    if what == {"out"}:
        # TRANSLATORS: {count} is a number as a word ("three"); {player} a name
        return msgn("{count} card {player} could have passed on",
                    "{count} cards {player} could have passed on", passed, count=count,
                    player=who)
    # TRANSLATORS: {count} is a number as a word ("three"); {player} and {sender} names
    return msgn("{count} card {player} could have passed on or received from {sender}",
                "{count} cards {player} could have passed on or received from {sender}",
                passed, count=count, player=who, sender=sender)


def _is_record(label) -> bool:
    return label.name.startswith(("deal", "pass"))


def sentences(name: Callable[[int], str], labels: Sequence, seats: list[int]) -> list[str]:
    """Each seat's facts 'given' its records, then the statements of no seat (the kitty);
    ``labels`` have ``name``, ``seat`` and ``text``, ``name(seat)`` is a seat's player."""
    out = []
    for seat in seats:
        own = [l.text for l in labels if l.seat == seat and not _is_record(l)]
        records = [l.text for l in labels if l.seat == seat and _is_record(l)]
        if own and records:
            # TRANSLATORS: after "no ... let": "Beth show out of spades in trick 2 (line 12)
            # given the deal to Beth (line 4)"; {facts} what the plays show, {records} the lines
            out.append(msg("{player} {facts} given {records}", player=name(seat),
                           facts=and_list(own), records=and_list(records)))
        elif own:
            out.append(msg("{player} {facts}", player=name(seat), facts=and_list(own)))
        elif records:
            out.append(_stand(records))
    others = [l.text for l in labels if l.seat is None]
    if others:
        out.append(_stand(others))
    return out


def _stand(records: list[str]) -> str:
    # TRANSLATORS: after "no ... let": "the deal to Beth (line 4) and the kitty (line 9) stand"
    return msg("{records} stand", records=and_list(records))
