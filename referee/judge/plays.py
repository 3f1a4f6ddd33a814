"""This module walks the tricks of one hand on the engine and judges every play and claim.

Each play is judged on the holding the record supports, then stands as written so that one fault
does not hide the next; a fault is reported with the evidence that proves it, and a wrong winner
claim tells a miscounted cancellation apart (R6)."""

from __future__ import annotations

from collections.abc import Iterable

from referee.judge import codes, gaps
from referee.judge.diagnostics import Related
from referee.judge.holdings import Knowledge, SeatedPlay
from referee.judge.scoring import joined, kitty_breaks_nothing
from referee.judge.table import CheckTable, TracedTrick
from referee.log.events import Play, Trick
from referee.rules import engine
from referee.rules.cards import (
    CLUBS,
    DECK_SIZE,
    HEARTS,
    NUM_RANKS,
    SUIT_NAMES,
    SUIT_SINGULAR,
    card_text,
    cards_text,
    remove_card,
)
from referee.rules.legality import Fault, card_fault
from referee.rules.options import FirstLeader, NothingSurvives, SetAsideWhen
from referee.rules.ruleset import bonus_points, is_point_card
from referee.rules.state import Phase, State, TrickRecord
from referee.rules.tricks import lead_card, resolve_under
from referee.util.message import Message, msg, msgn

LEAD_FAULTS = {Fault.MUST_LEAD_LOWEST_CLUB, Fault.MUST_LEAD_A_CLUB, Fault.FIRST_LEAD_POINTS,
                Fault.HEARTS_NOT_BROKEN}

# the diagnostic each play fault is reported as (turn order and phase are judged apart)
FAULT_CODES = {
    Fault.NOT_HELD: codes.CARD_NOT_HELD, Fault.REVOKE: codes.REVOKE,
    **{fault: codes.ILLEGAL_LEAD for fault in LEAD_FAULTS},
    Fault.MUST_PLAY_TWIN_CLUB: codes.ILLEGAL_PLAY, Fault.FIRST_TRICK_POINTS: codes.ILLEGAL_PLAY,
}


def judge_tricks(table: CheckTable, state: State, know: Knowledge, *, dealer_known: bool,
                 written_dealer: int | None = None) -> tuple[State, bool, list[int]]:
    """Judge one hand's tricks (a first lead left of a ``written_dealer`` shows that dealer); return
    the state after them, whether every trick was recorded and completed, and the lines of the wrong
    winner claims."""
    tricks, hand, wrong_claims = know.record.tricks, know.record.number, []
    excused_leader: int | None = None
    free_lead = False  # after an unreadable trick, whoever leads may
    unread, lost = know.record.gaps, []  # the unreadable tricks: where, and their numbers
    played = [0] * DECK_SIZE  # copies of each card seen so far: kitty, then plays
    for card in know.kitty or ():
        played[card] += 1
    short: list[int] = []  # the tricks closed without a card from some seat
    doubtful: list[int] = []  # won as claimed only as written, with a card ruled not held
    absent: list[int] = []  # the tricks not recorded, or recorded without any card
    gaps.in_numbered_order(table, know, hand)
    numbering = gaps.Numbering(tricks, unread, state.tricks_per_hand)
    index = 0
    while index < len(tricks):
        state, index, free_lead, excused_leader = _clean_tricks(
            table, state, know, index, played, numbering.offset, hand, wrong_claims,
            (free_lead, excused_leader))
        if index >= len(tricks):
            break
        trick = tricks[index]
        if unread and index in unread:
            state = gaps.unknown_tricks(state, know, unread.count(index), lost)
            free_lead = True
        state, judged, freed = gaps.placed(table, state, know, numbering, index, hand,
                                                  (absent, lost))
        free_lead = free_lead or freed
        index += 1
        if not judged:
            continue
        last = gaps.stops_in(state, know, index - 1)
        state, said = _led(table, state, know, index - 1, hand, excused_leader, free=free_lead,
                           last=last, dealer_known=dealer_known, written_dealer=written_dealer)
        plays, free_lead, excused_leader = know.tricks[index - 1], False, None
        skipped = None if last and not said else gaps.skipped_seats(state.leader, plays,
                                                                    table.size)
        batch, unsettled = _judge_trick(table, state, know, index - 1, played, hand, skipped)
        state, closed_short = gaps.close_short(table, engine.play_cards(state, batch), trick,
                                               batch, hand, know, last_in_log=last, said=said)
        if state.trick:
            break
        if table.trace is not None:
            table.trace.append(TracedTrick(hand, state.last_trick, state.pile, trick,
                                           tuple(plays), state.kitty))
        state, free_lead, excused_leader = _settle(table, state, trick, hand, wrong_claims,
                                                   (short, doubtful), closed_short, unsettled)
    cut = False  # (the record stops inside an unreadable trick line)
    if unread and not state.trick:  # unreadable tricks after the last one read
        state, cut = _after_the_last(table, state, know, lost)
    if tricks and not state.trick:
        state = gaps.ended_short(table, state, know, hand, absent)
    if doubtful:
        _doubtful(table, state, know, doubtful, (lost, short, absent))
    gaps.note_unjudged(table, hand, lost, short, absent)
    if cut or state.phase is Phase.PLAY:
        _stopped(table, state, know, hand, cut=cut)
    complete = state.phase is Phase.SCORING and not lost and not short and not absent
    return state, complete, wrong_claims


def _settle(table: CheckTable, state: State, trick: Trick, hand: int, wrong_claims: list[int],
            unsure: tuple[list[int], list[int]], closed_short: bool, unsettled: bool
            ) -> tuple[State, bool, int | None]:
    """Judge what a trick just played settles; return (the state, whether whoever leads next may,
    the seat a wrong claim excuses for leading).  A trick short of a card, or with a card ruled not
    held its outcome depends on, settles nothing: when its claim names the winner as written the
    hand's scores decide (``unsure``: the lists of the tricks short, and of those), else who won
    it, and what it carried, are not known."""
    record, claim = state.last_trick, trick.claim
    if not (closed_short or unsettled):
        return state, False, claim and judge_claim(table, state, trick, hand, wrong_claims)
    short, doubtful = unsure
    if not closed_short and claim is not None and record.winner == (
            None if claim.player is None else table.seats.get(claim.player, -1)):
        doubtful.append(record.number)  # (the card it stands for may have broken hearts)
        return state._replace(hearts_broken=True), False, None
    short.append(record.number)
    return state._replace(hearts_broken=True), True, None


def _doubtful(table: CheckTable, state: State, know: Knowledge, doubtful: list[int],
              unjudged: tuple[list[int], list[int], list[int]]) -> None:
    """Count the ``doubtful`` tricks among the short ones when the hand has no other trick
    ``unjudged`` (lost, short, absent) and its score line does not give the scores of its play as
    written (a card ruled not held then counts as played, the reading of the fewest faults)."""
    lost, short, absent = unjudged
    score = know.record.score
    if lost or short or absent:
        return
    if score is not None and state.phase is Phase.SCORING:
        written = {table.seats.get(entry.player, -1): entry.value for entry in score.entries}
        if any(all(written.get(seat) == value for seat, value in
                   enumerate(engine.hand_scores(state, choice)))
               for choice in engine.scoring_actions(state)):
            return
    short += doubtful


# The check's fast-trick path: a run of clean tricks (each numbered as due, a card from every
# seat in seating order from the leader, every card a copy the decks still have that the
# legality layers pass, a claim of the winner or none) is played on one engine.HandPlay, the
# holdings as lists, with no State between tricks; the first trick that is not clean goes the
# whole way.  tests/test_fast_tricks.py holds the two ways to one report.  Without it (False)
# the full check, which every log not in the writer's clean form takes, runs 1.45 times as
# long (1.41 s against 0.97 s on bench/speed.py's games; 35.4 calls per card play, not 22.3);
# a game whose last total is wrong, checked mostly on the clean-game path, 5% longer.
FAST_TRICKS = True


def _clean_tricks(table: CheckTable, state: State, know: Knowledge, index: int, played: list[int],
                  offset: int, hand: int, wrong_claims: list[int],
                  leads: tuple[bool, int | None]) -> tuple[State, int, bool, int | None]:
    """Play the clean tricks from ``index`` on; return (the state after them, the index of the first
    trick not played, ``leads`` as they then stand)."""
    if not FAST_TRICKS or know.record.gaps or state.phase is not Phase.PLAY:
        return state, index, *leads
    n, seats, trace = table.size, table.seats, table.trace
    rules, lowest = table.rules, state.lowest_club
    hand_play = claimed = None
    holdings = [list(held) for held in state.holdings]
    broken, leader, number = state.hearts_broken, state.leader, state.trick_number
    for trick, plays in zip(know.record.tricks[index:], know.tricks[index:]):
        if trick.number - offset != number or len(plays) != n:
            break
        order = gaps.rotation(n, leader)
        cards = clean_cards(rules, plays, order, holdings, played, broken, number == 1, lowest)
        if cards is None:
            break
        if hand_play is None:
            hand_play = engine.HandPlay(state)
        record = hand_play.finish(tuple(zip(order, cards)), cards)
        index += 1
        if trace is not None:
            trace.append(TracedTrick(hand, record, hand_play.pile, trick, tuple(plays),
                                     state.kitty))
        claim = trick.claim
        if claim is not None and (None if claim.player is None else
                                  seats.get(claim.player, -1)) != record.winner:
            claimed = trick
            break
        if hand_play.over:
            break
        broken, leader, number = hand_play.broken, hand_play.leader, hand_play.number
    if hand_play is None:
        return state, index, *leads
    state = hand_play.state(tuple(map(tuple, holdings)))
    return state, index, False, claimed and judge_claim(table, state, claimed, hand,
                                                        wrong_claims)


def clean_cards(rules, plays: Iterable[SeatedPlay], order: list[int], holdings: list[list[int]],
                played: list[int] | None, broken: bool, first: bool, lowest: int | None
                ) -> tuple[int, ...] | None:
    """Take the cards of a whole clean trick from ``holdings`` and count them in ``played``; return
    them, or None with nothing taken.  Pass no ``played`` where every holding is known exactly,
    dealt from whole decks, so that no held card is a copy beyond them: counting copies costs 3% of
    a clean game's check."""
    decks, switch, led, cards = rules.decks, rules.lead_suit_switch, -1, []
    for (seat, card, _), due in zip(plays, order):
        held, suit = holdings[seat], card // NUM_RANKS
        if played is not None:
            played[card] += 1
        if seat != due or not held[card] or played is not None and played[card] > decks or (
                suit != led and any(held[led * NUM_RANKS:(led + 1) * NUM_RANKS]) if cards
                and not first else (first or suit == HEARTS and not broken) and card_fault(
                    rules, held, card, cards, first_trick=first, hearts_broken=broken,
                    lowest=lowest) is not None):
            if played is not None:
                played[card] -= 1
                for card in cards:
                    played[card] -= 1
            for seat, card in zip(order, cards):
                holdings[seat][card] += 1
            return None
        held[card] -= 1
        if not cards or (switch and suit != led):
            led = suit
        cards.append(card)
    return tuple(cards)


def _led(table: CheckTable, state: State, know: Knowledge, index: int, hand: int,
        excused_leader: int | None, *, free: bool, last: bool, dealer_known: bool,
        written_dealer: int | None) -> tuple[State, frozenset[int]]:
    """Put the plays of trick ``index`` in order and settle its leader; return the state the trick
    is played in and the seats whose missing card a diagnostic said.  A trick led by another seat
    than the rules say is reported unless it shows who dealt, follows a wrong claim or only lacks
    cards; play goes on with the seat that led."""
    said = gaps.put_in_order(table, state, know, index, hand, excused_leader, last_in_log=last,
                             any_leader=free or (index == 0 and not dealer_known))
    plays = know.tricks[index]
    n, leader = table.size, plays[0][0]
    if free:
        return state._replace(leader=leader), said
    read = None if excused_leader is not None or not (index or dealer_known) else \
        gaps.read_otherwise(table, state, know, index, hand)
    if leader == state.leader or read == gaps.TAKEN:
        return state, said
    by_left = index == 0 and state.rules.first_leader in (
        FirstLeader.LEFT_OF_DEALER, FirstLeader.AFTER_LAST_WINNER)
    if not last and not (by_left and not dealer_known) and \
            gaps.skipped_seats(state.leader, plays, n) is not None:
        return state, said
    # with no dealer known, any holder of the lowest club may be its first holder from the
    # dealer's left (under a two-of-clubs first lead)
    any_holder = index == 0 and not dealer_known and state.lowest_club is not None and \
        state.holdings[leader][state.lowest_club]
    if by_left and not dealer_known:
        state = state._replace(dealer=(leader - 1) % n)
    elif by_left and written_dealer is not None and leader == (written_dealer + 1) % n:
        state = state._replace(dealer=written_dealer)
    elif leader != excused_leader and not any_holder:
        _wrong_leader(table, state, plays[0], hand, index, rotates=read == gaps.BOTH and index > 0)
    return state._replace(leader=leader), said


def _judge_trick(table: CheckTable, state: State, know: Knowledge, index: int, played: list[int],
                 hand: int, skipped: frozenset[int] | None
                 ) -> tuple[list[tuple[int, int]], bool]:
    """Judge each play of one trick; return the (seat, card) plays that stand, and whether the
    trick's outcome depends on which card a play ruled not held stands for.  From the first play
    whose lead suit a ``skipped`` seat's card (or a card ruled not held) may have set, only holding
    the card is judged."""
    n, decks = table.size, table.rules.decks
    number, lead, holdings = state.trick_number, state.leader, state.holdings
    in_order = skipped is not None
    blind = n  # the position from which the lead suit is not known
    if skipped and (lead in skipped or table.rules.lead_suit_switch):
        # (no play out of place: the cards left out are the trick's last, after every written one)
        blind = next((p for p, (seat, _, _) in enumerate(know.tricks[index])
                      if seat != (lead + p) % n), n)
    irregular = False  # a play out of seating order was seen: check each seat from here on
    cards: list[int] = []
    batch: list[tuple[int, int]] = []
    ruled: list[tuple[int, list[int] | None]] = []  # (place in cards, the cards it may be)
    for position, (seat, card, play) in enumerate(know.tricks[index]):
        holding = holdings[seat]
        if not in_order and (irregular or position >= n or seat != (lead + position) % n):
            if position >= n:
                table.findings.add(codes.OUT_OF_TURN, play.span, msgn(
                    "trick {trick} already has a card from its {n} player; {player}'s {card} "
                    "is one too many",
                    "trick {trick} already has a card from each of the {n} players; "
                    "{player}'s {card} is one too many", n, trick=number, n=n,
                    player=table.name(seat), card=card_text(card)),
                    hand=hand, trick=number, player=table.name(seat))
                continue
            holding = _out_of_order(table, state, seat, play, position, batch, hand,
                                    reported=irregular)
            irregular = True
        played[card] += 1
        copies = played[card] > decks and copies_seen(table, know, index, card)
        if _judge_play(table, state, know, seat, card, play, hand, number, copies, holding,
                       cards, held_only=position >= blind):
            # the card ruled not held stands for an unknown card of the seat: no copy played,
            # and the seat's holding keeps the card it played as an upper bound; the lead suit
            # it may have set is not known to the plays after it
            ruled.append((len(cards), None if irregular else
                          _stand_ins(table, state, know, seat, holding, cards)))
            played[card] -= 1
            know.unrecorded.add(seat)
            if know.not_held is None:
                know.not_held = set()
            know.not_held.add((index, position))
            if not cards or table.rules.lead_suit_switch:
                blind = min(blind, position + 1)
        cards.append(card)
        batch.append((seat, card))
    if not ruled:
        return batch, False
    return batch, not (len(ruled) == 1 and len(cards) == n and
                       _outcome_settled(table.rules, cards, *ruled[0]))


def _stand_ins(table: CheckTable, state: State, know: Knowledge, seat: int, holding,
               trick_cards: list[int]) -> list[int] | None:
    """Return the cards a seat ruled not to hold the card it wrote may have played instead (the
    fewest faults: one it holds and may play), when its holding is known exactly; else None."""
    if not know.known[seat] or know.uncertain(seat):
        return None
    first, broken, lowest = state.trick_number == 1, state.hearts_broken, state.lowest_club
    return [c for c, k in enumerate(holding) if k and card_fault(
        table.rules, holding, c, trick_cards, first_trick=first, hearts_broken=broken,
        lowest=lowest) is None]


def _outcome_settled(rules, cards: list[int], place: int, stand_ins: list[int] | None) -> bool:
    """Tell whether the trick has the same winner whichever card is at ``place``, the written one
    or any of its ``stand_ins``, none of them a card that scores or breaks hearts: then what the
    trick carries and who wins it do not depend on it."""
    if not stand_ins:
        return False
    trial, winners = list(cards), set()
    for card in (cards[place], *stand_ins):
        if is_point_card(card) or bonus_points(rules, card):
            return False
        trial[place] = card
        winners.add(resolve_under(rules, trial).winner)
    return len(winners) == 1


def _out_of_order(table: CheckTable, state: State, seat: int, play: Play, position: int,
                  batch: list[tuple[int, int]], hand: int, *, reported: bool):
    """Report a play out of seating order once per trick; return the seat's holding as it is now.

    When the play is a second card in one trick, its first is already gone from the holding."""
    number, holding = state.trick_number, state.holdings[seat]
    again = [earlier for earlier_seat, earlier in batch if earlier_seat == seat]
    if not reported:
        expected = (state.leader + position) % table.size
        message = (msg("{player} plays a second card to trick {trick}",
                       player=table.name(seat), trick=number) if again
                   else msg("{player} plays where {next} is next in seating order",
                            player=table.name(seat), next=table.name(expected)))
        table.findings.add(codes.OUT_OF_TURN, play.span, message, hand=hand, trick=number,
                           player=table.name(seat))
    for earlier in again:
        holding = remove_card(holding, earlier)
    return holding


def _wrong_leader(table: CheckTable, state: State, first: SeatedPlay, hand: int, index: int, *,
                  rotates: bool = False) -> None:
    """Report a lead out of turn; ``rotates`` says that, read from the seat due to lead, it is the
    same trick.

    With ``rotates`` the message says it may be written from another column (R10.8)."""
    seat, _, play = first
    record = state.last_trick
    leader, rule = table.name(state.leader), "R4.1"
    if (index == 0 or record is None) and state.rules.first_leader == FirstLeader.AFTER_LAST_WINNER:
        why = (msg("the first trick is led by {leader}, the first seat", leader=leader)
               if hand == 1 else
               # TRANSLATORS: {previous} is the player the first leader sits left of
               msg("the first trick is led by {leader}, left of {previous}, who won (or led, "
                   "set aside) the last trick of the previous hand", leader=leader,
                   previous=table.name(state.dealer)))
    elif (index == 0 or record is None) and state.lowest_club is not None:
        # TRANSLATORS: {card} is the lowest club dealt (2C, or 3C when both 2C are in the kitty)
        why = msg("the first trick is led by {leader}, the first holder of {card} from the left "
                  "of the dealer {dealer}", leader=leader, card=card_text(state.lowest_club),
                  dealer=table.name(state.dealer))
    elif index == 0 or record is None:
        why = msg("the first trick is led by {leader}, left of the dealer {dealer}",
                  leader=leader, dealer=table.name(state.dealer))
    elif record.winner is None:
        why = msg("trick {trick} was set aside, so its leader {leader} leads again",
                  trick=record.number, leader=leader)
        rule = "R4.6"
    else:
        why = msg("{leader} won trick {trick} and leads next", leader=leader,
                  trick=record.number)
        rule = "R4.5"
    if rotates:
        # TRANSLATORS: {player} is written first in the trick, {leader} is due to lead it
        why = joined(why, msg(" (unless the trick is only written from {player}'s column: read "
                              "from {leader}, it is the same trick)", player=table.name(seat),
                              leader=leader))
    table.findings.add(
        # TRANSLATORS: {why} says who should have led, e.g. "Dave won trick 3 and leads next"
        codes.WRONG_LEADER, play.span, msg("{player} led trick {trick}, but {why}",
                                           player=table.name(seat), trick=state.trick_number,
                                           why=why),
        hand=hand, trick=state.trick_number, player=table.name(seat), rule=rule)


def _judge_play(table: CheckTable, state: State, know: Knowledge, seat: int, card: int, play: Play,
                hand: int, number: int, copies: list[str] | bool, holding, trick_cards, *,
                held_only: bool = False) -> bool:
    """Judge one play; return whether it is ruled a card the seat does not hold."""
    rules, add, who = table.rules, table.findings.add, table.name(seat)
    if copies:
        # TRANSLATORS: {decks} is how many copies of each card the decks hold; {gone} where
        # they went ("Beth played one in trick 3 (line 14); one is in the kitty")
        add(codes.CARD_NOT_HELD, play.card_span, msg(
            "{player} played {card}, but the decks hold {decks} and they are gone: {gone}",
            player=who, card=card_text(card), decks=rules.decks, gone=listed(copies)),
            hand=hand, trick=number, player=who, rule="R2.4")
        return True
    fault = card_fault(rules, holding, card, trick_cards, first_trick=number == 1,
                       hearts_broken=state.hearts_broken, lowest=state.lowest_club)
    if fault is None or (held_only and fault is not Fault.NOT_HELD):
        return False
    if fault is Fault.NOT_HELD:
        if not know.known[seat]:
            return (seat, card) in know.spoken_for and _spoken_for(table, know, seat, card, play,
                                                                   hand, number)
        # (also after an unreadable trick: the holding only shrank)
        add(codes.CARD_NOT_HELD, play.card_span, msg(
            "{player} played {card}, which {player} does not hold at trick {trick} (deal "
            "and passes as recorded)", player=who, card=card_text(card), trick=number),
            hand=hand, trick=number, player=who, rule=fault.clause)
        return True
    proof = play_evidence(table, know, seat, holding, fault, trick_cards, number)
    if proof is None:  # the holding is uncertain and nothing proves the fault
        return False
    evidence, links = proof
    code, shown, why = FAULT_CODES[fault], card_text(card), fault.text
    if code == codes.ILLEGAL_LEAD:
        # TRANSLATORS: {fault} is the rule broken; {evidence} is empty or a clause that brings
        # its own punctuation: "; Dave held 2S (dealt on line 11)"
        kitty = kitty_breaks_nothing(state) if fault is Fault.HEARTS_NOT_BROKEN else ""
        message = msg("{player} led {card} in trick {trick}: {fault}{evidence}", player=who,
                      card=shown, trick=number, fault=why, evidence=joined(evidence, kitty))
    elif code == codes.REVOKE:
        suit = lead_card(trick_cards, rules.lead_suit_switch) // NUM_RANKS
        # TRANSLATORS: {evidence} is empty or a clause that brings its own punctuation:
        # " while holding 7S (dealt on line 9)"
        message = msg("{player} played {card} to a {suit} lead{evidence}", player=who,
                      card=shown, suit=SUIT_SINGULAR[suit], evidence=evidence)
    else:
        # TRANSLATORS: {fault} is the rule broken; {evidence} is empty or a clause that brings
        # its own punctuation: " while holding 3S (dealt on line 10)"
        message = msg("{player} played {card} to trick {trick}: {fault}{evidence}",
                      player=who, card=shown, trick=number, fault=why, evidence=evidence)
    add(code, play.card_span, message, hand=hand, trick=number, player=who, rule=fault.clause,
        related=links)
    return False


def _spoken_for(table: CheckTable, know: Knowledge, seat: int, card: int, play: Play, hand: int,
                number: int) -> bool:
    """Report a card played by a seat of inferred holding whose every copy the seats of known
    holding hold and play; return True."""
    who, known = table.name(seat), know.known
    gone = [msg("{player} played one in trick {trick} (line {line})", player=table.name(other),
                trick=trick.number, line=trick.span.line)
            for trick, plays in zip(know.record.tricks, know.tricks)
            for other, what, _ in plays if what == card and known[other]]
    # TRANSLATORS: {decks} is how many copies of each card the decks hold; {gone} who played
    # them ("Eve played one in trick 8 (line 61); Fay played one in trick 11 (line 64)")
    table.findings.add(codes.CARD_NOT_HELD, play.card_span, msg(
        "{player} played {card}, but the decks hold {decks} and players whose holdings are "
        "recorded hold and play them all: {gone}", player=who, card=card_text(card),
        decks=table.rules.decks, gone=listed(gone[:table.rules.decks])),
        hand=hand, trick=number, player=who, rule="R2.4")
    return True


def _after_the_last(table: CheckTable, state: State, know: Knowledge, lost: list[int]
                    ) -> tuple[State, bool]:
    """Step past the unreadable tricks after the last one read (their numbers join ``lost``);
    return the state and whether the record stops inside the last of them, a line cut off."""
    unread, count = know.record.gaps, len(know.record.tricks)
    trailing = sum(1 for gap in unread if gap >= count)
    cut = trailing > 0 and not (know.record.scored or know.record.totalled) and \
        _cut_off(table, know)
    state = gaps.unknown_tricks(state, know, trailing - cut, lost)
    return state, cut and state.phase is Phase.PLAY


def _stopped(table: CheckTable, state: State, know: Knowledge, hand: int, *, cut: bool) -> None:
    """Note where the record stops in the hand (``cut``: inside a trick line that cannot be
    read)."""
    if cut:
        table.findings.note(msg("the record stops in hand {hand} at trick {trick}, whose line "
                                "cannot be read", hand=hand, trick=state.trick_number))
    else:
        table.findings.note(_where_it_stops(table, state, know, hand))
        _dead_end(table, state, know, hand)


def _cut_off(table: CheckTable, know: Knowledge) -> bool:
    """Tell whether the hand's last unreadable trick line is cut off: what cannot be read is at
    its end, so the record stops inside that trick."""
    lost = [unread for unread in know.record.unread if unread.kind == "trick"]
    if not lost:
        return False
    span = lost[-1].span
    return any(item.kind == codes.SYNTAX and item.line == span.line and
               item.end_column >= span.end_column for item in table.findings.items)


def _where_it_stops(table: CheckTable, state: State, know: Knowledge, hand: int) -> Message:
    seat = state.to_play
    where = {"hand": hand, "trick": state.trick_number, "player": table.name(seat)}
    if know.known[seat] and not know.uncertain(seat):
        legal = engine.legal_plays(state)
        if legal:
            return msg("the record stops in hand {hand} at trick {trick}: {player} to play "
                       "(legal: {cards})", cards=cards_text(legal), **where)
        return msg("the record stops in hand {hand} at trick {trick}: {player} to play "
                   "(no card is legal here)", **where)
    if state.trick:
        suit = state.trick_cards[0] // NUM_RANKS
        return msg("the record stops in hand {hand} at trick {trick}: {player} to play "
                   "({suit} led)", suit=SUIT_NAMES[suit], **where)
    return msg("the record stops in hand {hand} at trick {trick}: {player} to play", **where)


def _dead_end(table: CheckTable, state: State, know: Knowledge, hand: int) -> None:
    """Report where the record stops with the ruleset leaving the player no legal card to play
    (R5.6)."""
    seat, holding = state.to_play, state.holdings[state.to_play]
    if not know.known[seat] or seat in know.unrecorded or not any(holding) or \
            engine.legal_plays(state):
        return
    why: dict[str, list[str]] = {}
    for card in (c for c, k in enumerate(holding) if k):
        fault = engine.play_fault(state, seat, card)
        why.setdefault(fault.text if fault else "?", []).append(card_text(card))
    # TRANSLATORS: {cards} are cards of one holding, {fault} why none of them may be played
    reasons = listed([msg("{cards}: {fault}", cards=" ".join(cards), fault=text)
                       for text, cards in why.items()])
    tricks = know.record.tricks
    span = tricks[-1].span if tricks else know.record.span
    who = table.name(seat)
    # TRANSLATORS: {ruleset} is the ruleset's name; {reasons} why each card is not legal
    table.findings.add(codes.NO_LEGAL_CARD, span, msg(
        "the record stops in hand {hand} at trick {trick} with {player} to play, and no card "
        "is legal here under {ruleset} ({reasons})", hand=hand, trick=state.trick_number,
        player=who, ruleset=table.rules.name, reasons=reasons),
        hand=hand, trick=state.trick_number, player=who, rule="R5.6")


def judge_claim(table: CheckTable, state: State, trick: Trick, hand: int,
                wrong_claims: list[int]) -> int | None:
    """Judge a winner claim; return the wrongly claimed seat, if any, and add its line to
    ``wrong_claims``."""
    record, claim = state.last_trick, trick.claim
    actual = record.winner
    claimed = None
    if claim.player is not None:
        claimed = table.seat(claim.player, claim.span, hand=hand)
        if claimed is None:  # a name that is not seated: table.seat has reported it
            return None
    if claimed == actual:
        return None
    add, number, rules = table.findings.add, record.number, table.rules
    cancelled = record.outcome.cancelled
    # the suit that decides the trick: the led one, or under R5.5 the last one switched to
    led = lead_card([c for _, c in record.plays], rules.lead_suit_switch) // NUM_RANKS
    by_leader = _won_by_leader(record, led, rules)
    winner = _winner_text(table, record, led, by_leader)
    code = codes.MISCOUNTED_CANCELLATION
    who = None if claimed is None else table.name(claimed)
    their = [c for s, c in record.plays if s == claimed]
    if claimed is None and by_leader:
        rule = "R6.4"
        # TRANSLATORS: {winner} says why the leader wins: "every heart in it cancelled (KH),
        # so its leader Eve wins it"
        message = msg("trick {trick} is claimed as set aside, but no trick is set aside under "
                      "{ruleset}: {winner}", trick=number, ruleset=rules.name, winner=winner)
    elif claimed is None:
        pairs, rule = ", ".join(sorted(card_text(c) for c in cancelled)), "R6.3"
        # TRANSLATORS: {winner} is who wins instead: "Dave wins it with KC"
        message = (msg("trick {trick} is claimed as set aside, but an uncancelled {suit} "
                       "survives ({pairs} cancelled): {winner}", trick=number,
                       suit=SUIT_SINGULAR[led], pairs=pairs, winner=winner) if pairs else
                   msg("trick {trick} is claimed as set aside, but an uncancelled {suit} "
                       "survives: {winner}", trick=number, suit=SUIT_SINGULAR[led],
                       winner=winner))
    elif actual is None or record.outcome.winner is None:
        rule = "R6.4"
        # TRANSLATORS: {why} says why nobody wins: "every spade in it cancelled (KS, QS)"
        message = msg("trick {trick} is claimed for {player}, but {why}: it is set aside",
                      trick=number, player=who, why=_cancelled(record, led, ruleset=rules.name))
    elif their and their[0] in cancelled:
        rule = "R6.2"
        message = msg("trick {trick} is claimed for {player}, whose {card} was cancelled by its "
                      "twin; {winner}", trick=number, player=who, card=card_text(their[0]),
                      winner=winner)
    else:
        code, rule = codes.WRONG_WINNER, "R6.1"
        message = msg("trick {trick} is claimed for {player}, but {winner}", trick=number,
                      player=who, winner=winner)
    add(code, claim.span, message, hand=hand, trick=number, player=who, rule=rule)
    if claimed is not None:
        wrong_claims.append(claim.span.line)
    return claimed


def _won_by_leader(record: TrickRecord, led: int, rules) -> bool:
    """Tell whether the leader has the trick only by ``nothing_survives = "leader_wins"`` (R6.4)."""
    if rules.nothing_survives != NothingSurvives.LEADER_WINS or record.outcome.winner != 0:
        return False
    two_pairs = (rules.set_aside_when == SetAsideWhen.TWO_PAIRS
                 and len(record.outcome.cancelled) >= 2)
    return two_pairs or not _led_survives(record, led)


def _led_survives(record: TrickRecord, led: int) -> bool:
    cancelled = record.outcome.cancelled
    return any(c // NUM_RANKS == led and c not in cancelled for _, c in record.plays)


def _winner_text(table: CheckTable, record: TrickRecord, led: int, by_leader: bool) -> Message:
    """Say who wins the trick and with what, or why its leader wins it, or that nobody does."""
    if record.winner is None or record.outcome.winner is None:
        return msg("nobody wins it")
    if not by_leader:
        return msg("{winner} wins it with {card}", winner=table.name(record.winner),
                   card=card_text(record.plays[record.outcome.winner][1]))
    return _cancelled(record, led, leader=table.name(record.winner))


def _cancelled(record: TrickRecord, led: int, *, leader: str = "", ruleset: str = "") -> Message:
    """Say why a trick's ``leader`` wins it, or (none named) why it has no winner under ``ruleset``:
    every card of its led suit cancelled, or its pairs."""
    cancelled = record.outcome.cancelled
    if not _led_survives(record, led):
        pairs = ", ".join(sorted(card_text(c) for c in cancelled if c // NUM_RANKS == led))
        if leader:
            return msg("every {suit} in it cancelled ({pairs}), so its leader {leader} wins it",
                       suit=SUIT_SINGULAR[led], pairs=pairs, leader=leader)
        return msg("every {suit} in it cancelled ({pairs})", suit=SUIT_SINGULAR[led],
                   pairs=pairs)
    pairs, n = ", ".join(sorted(card_text(c) for c in cancelled)), len(cancelled)
    if leader:
        return msgn("{n} pair cancelled ({pairs}), so its leader {leader} wins it",
                    "{n} pairs cancelled ({pairs}), so its leader {leader} wins it",
                    n, n=n, pairs=pairs, leader=leader)
    return msgn("{n} pair cancelled ({pairs}), which sets a trick aside under {ruleset}",
                "{n} pairs cancelled ({pairs}), which sets a trick aside under {ruleset}",
                n, n=n, pairs=pairs, ruleset=ruleset)


def copies_seen(table: CheckTable, know: Knowledge, index: int, card: int) -> list[Message]:
    """Say where the copies of ``card`` went before this play (only wanted for a third copy)."""
    gone = [msg("one is in the kitty")] * (know.kitty or ()).count(card)
    ruled_out = know.not_held or ()
    for at, (trick, plays) in enumerate(zip(know.record.tricks[:index + 1], know.tricks)):
        gone += [msg("{player} played one in trick {trick} (line {line})",
                     player=table.name(seat), trick=trick.number, line=trick.span.line)
                 for position, (seat, what, _) in enumerate(plays)
                 if what == card and (at, position) not in ruled_out]
    return gone[:table.rules.decks]


def listed(parts: list[Message]) -> Message:
    """Join messages in a list separated by semicolons into one message (each part translated)."""
    joined = parts[0]
    for part in parts[1:]:
        # TRANSLATORS: two items of a list: {earlier} the items so far, {later} the next one
        joined = msg("{earlier}; {later}", earlier=joined, later=part)
    return joined


def play_evidence(table: CheckTable, know: Knowledge, seat: int, holding, fault: Fault,
                  trick_cards, number: int):
    """Return the evidence of a fault, ' while holding 7S, which Beth played in trick 9 (line 57)'
    (a lead: '; Dave held 2S (dealt on line 11)'), and the related lines; return None when the fault
    is not proven."""
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
                        line=span.line)), (Related(span.line, span.column, note),)
    if uncertain:
        return None
    return (msg("; {player} held {cards}", player=who, cards=card_text(card)) if lead
            else msg(" while holding {cards}", cards=card_text(card))), ()


def _witnesses_held(holding, fault: Fault, trick_cards, switch: bool) -> list[int]:
    """Find the cards of ``holding`` any one of which makes the play a ``fault``."""
    if fault is Fault.REVOKE or fault is Fault.MUST_PLAY_TWIN_CLUB:
        suit = lead_card(trick_cards, switch) // NUM_RANKS
        return [c for c in range(suit * NUM_RANKS, (suit + 1) * NUM_RANKS) if holding[c]]
    if fault is Fault.MUST_LEAD_LOWEST_CLUB or fault is Fault.MUST_LEAD_A_CLUB:
        return [c for c in range(CLUBS * NUM_RANKS, (CLUBS + 1) * NUM_RANKS) if holding[c]]
    if fault is Fault.HEARTS_NOT_BROKEN:
        return [c for c, k in enumerate(holding) if k and c // NUM_RANKS != HEARTS]
    return [c for c, k in enumerate(holding) if k and not is_point_card(c)]

