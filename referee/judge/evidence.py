"""What a play fault is reported with: the fault's words, and the evidence that proves it (the
card the player held and where it came from or was later played, or where the copies of a card
already went), each a message a catalog can translate."""

from __future__ import annotations

from referee.judge.holdings import Knowledge
from referee.judge.table import Table, related
from referee.log.events import Trick
from referee.rules.cards import CLUBS, HEARTS, NUM_RANKS, card_text, cards_text
from referee.rules.legality import Fault
from referee.rules.ruleset import is_point_card
from referee.rules.tricks import lead_card
from referee.util.message import Message, msg, msgn

LEAD_FAULTS = {Fault.MUST_LEAD_LOWEST_CLUB, Fault.MUST_LEAD_A_CLUB, Fault.FIRST_LEAD_POINTS,
                Fault.HEARTS_NOT_BROKEN}

def copies_seen(table: Table, know: Knowledge, tricks: list[Trick], index: int,
                card: int) -> list[Message]:
    """Where the copies of ``card`` went before this play (only wanted for a third copy)."""
    gone = [msg("one is in the kitty")] * (know.kitty or ()).count(card)
    for trick, plays in zip(tricks[:index + 1], know.tricks):
        gone += [msg("{player} played one in trick {trick} (line {line})",
                     player=table.name(seat), trick=trick.number, line=trick.span.line)
                 for seat, what, _ in plays if what == card]
    return gone[:table.rules.decks]


def listed(parts: list[Message]) -> Message:
    """Messages in a list separated by semicolons, as one message (each part translated)."""
    joined = parts[0]
    for part in parts[1:]:
        # TRANSLATORS: two items of a list: {earlier} the items so far, {later} the next one
        joined = msg("{earlier}; {later}", earlier=joined, later=part)
    return joined


def play_evidence(table: Table, know: Knowledge, seat: int, holding, fault: Fault,
                  trick_cards, number: int):
    """' while holding 7S, which Beth played in trick 9 (line 57)' and the related lines; for a
    lead: '; Dave held 2S (dealt on line 11)'.  None when the fault is not proven, as after an
    unreadable trick or an unrecorded play when no later play shows the card held."""
    wanted = _witnesses_held(holding, fault, trick_cards, table.rules.lead_suit_switch)
    uncertain = know.known[seat] and know.uncertain(seat)
    if not wanted:
        return None if uncertain else ("", ())
    card = max(wanted, key=lambda c: c % NUM_RANKS) if fault is Fault.REVOKE else wanted[0]
    who, lead = table.name(seat), fault in LEAD_FAULTS
    if know.known[seat] and not uncertain:
        # TRANSLATORS: {origin} is where the card came from: "dealt on line 9"
        return (msg("; {player} held {cards} ({origin})", player=who, cards=card_text(card),
                    origin=know.origin(table, seat, card)) if lead else
                msg(" while holding {cards} ({origin})", cards=card_text(card),
                    origin=know.origin(table, seat, card))), ()
    # (a seat with a play the record does not show may have played any of them there)
    if uncertain and seat not in know.unrecorded and \
            sum(holding[c] for c in wanted) > know.missing:
        held, n = cards_text(c for c in wanted for _ in range(holding[c])), know.missing
        return (msgn("; {player} held {cards} as recorded, of which the unreadable trick took "
                     "at most {n}", "; {player} held {cards} as recorded, of which the "
                     "unreadable tricks took at most {n}", n, player=who, cards=held, n=n)
                if lead else
                msgn(" while holding {cards} as recorded, of which the unreadable trick took at "
                     "most {n}", " while holding {cards} as recorded, of which the unreadable "
                     "tricks took at most {n}", n, cards=held, n=n)), ()
    for candidate in (card, *wanted):
        for later_trick, span in know.later_plays(seat, candidate, number):
            note = msg("{player} played {card} in trick {trick}", player=who,
                       card=card_text(candidate), trick=later_trick)
            shown = card_text(candidate)
            return (msg("; {player} held {cards}, which {player} played in trick {trick} "
                        "(line {line})", player=who, cards=shown, trick=later_trick,
                        line=span.line) if lead else
                    msg(" while holding {cards}, which {player} played in trick {trick} "
                        "(line {line})", player=who, cards=shown, trick=later_trick,
                        line=span.line)), (related(span, note),)
    return None if uncertain else (_held(who, card_text(card), lead), ())


def _witnesses_held(holding, fault: Fault, trick_cards, switch: bool) -> list[int]:
    """The cards of ``holding`` any one of which makes the play a ``fault`` (under a lead-suit
    switch, the suit to follow is the current lead suit, R5.5)."""
    if fault is Fault.REVOKE or fault is Fault.MUST_PLAY_TWIN_CLUB:
        suit = lead_card(trick_cards, switch) // NUM_RANKS
        return [c for c in range(suit * NUM_RANKS, (suit + 1) * NUM_RANKS) if holding[c]]
    if fault is Fault.MUST_LEAD_LOWEST_CLUB or fault is Fault.MUST_LEAD_A_CLUB:
        return [c for c in range(CLUBS * NUM_RANKS, (CLUBS + 1) * NUM_RANKS) if holding[c]]
    if fault is Fault.HEARTS_NOT_BROKEN:
        return [c for c, k in enumerate(holding) if k and c // NUM_RANKS != HEARTS]
    return [c for c, k in enumerate(holding) if k and not is_point_card(c)]


def _held(who: str, cards: str, lead: bool) -> Message:
    return (msg("; {player} held {cards}", player=who, cards=cards) if lead
            else msg(" while holding {cards}", cards=cards))

