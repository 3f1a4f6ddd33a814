"""This module judges a hand's moon, score and total lines (R7, R8): against what the engine
computed when the hand is played out, otherwise against what any play could give (the sheet check).
Where set-aside piles make a score hard to see (R6.5, R6.6), a wrong score's tricks are played
again."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from referee.judge import codes
from referee.judge.table import CheckTable
from referee.log.events import Moon, Score, Total
from referee.rules import engine, scoring
from referee.rules.cards import HEARTS, NUM_RANKS, QUEEN_OF_SPADES, cards_text
from referee.rules.ops import PLAIN
from referee.rules.options import KittyTo, SetAsideLast
from referee.rules.ruleset import Ruleset, card_points
from referee.rules.state import State, TrickRecord
from referee.rules.tricks import resolve_under
from referee.util.message import msg, msgn
from referee.util.suggest import did_you_mean


def entries_by_seat(table: CheckTable, line: Score | Total, hand: int,
                    kind: str) -> dict[int, tuple]:
    """Resolve a score/total line: seat -> (value, entry); report duplicates and gaps.  A name
    not seated is reported and read as the seated name it resembles if that one has no entry of
    its own on the line (the seats with no entry are the likelier), or as the one seat with no
    entry when it is the only such name; a name written twice where one seat has no entry is
    read, in the entry that stands in that seat's place, as that seat's; with every seat's entry
    there, the later of the two is the correction that counts.  So a misspelt or repeated name
    costs one diagnostic."""
    found: dict[int, tuple] = {}
    misspelt, twice = [], []
    for entry in line.entries:
        seat = table.seats.get(entry.player)  # (as nearly always: no call)
        if seat is None:
            seat = table.find(entry.player)
            if seat is None:
                misspelt.append(entry)
                continue
        if seat in found:
            twice.append((entry, seat))
            continue
        found[seat] = (entry.value, entry)
    for entry, seat in twice:
        _twice(table, found, line, entry, seat, hand, kind)
    if misspelt:
        missing = [table.name(s) for s in range(table.size) if s not in found]
        for entry in misspelt:
            seat = table.seat(entry.player, entry.span, hand=hand, guess=True, suggestion=(
                missing[0] if len(misspelt) == len(missing) == 1
                else did_you_mean(entry.player, table.names, prefer=missing)))
            if seat is not None and seat not in found:
                found[seat] = (entry.value, entry)
    missing = [table.name(s) for s in range(table.size) if s not in found]
    if missing and found:
        table.findings.add(kind, line.span, msg("no entry for {players}",
                                                players=", ".join(missing)), hand=hand)
    return found


def _twice(table: CheckTable, found: dict[int, tuple], line: Score | Total, entry, seat: int,
           hand: int, kind: str) -> None:
    """Report the name of ``seat`` written a second time (in ``entry``).  When one seat has no
    entry and the line's other entries keep the seating order, the one of the two entries that
    stands in that seat's place is read as its entry; when none lacks one, the later entry is
    read (a correction)."""
    n, hint = table.size, None
    missing = [s for s in range(n) if s not in found]
    if not missing:  # every seat has its entry: the later one is the table's correction
        found[seat] = (entry.value, entry)
    elif len(missing) == 1:
        offsets, places = set(), {}  # (seat - place on the line), and where the two stand
        for index, other in enumerate(line.entries):
            if other is entry or other is found[seat][1]:
                places[index] = other
            elif (other_seat := table.find(other.player)) is not None:
                offsets.add((other_seat - index) % n)
        if len(offsets) == 1:
            offset = offsets.pop()
            stands = {(index + offset) % n: other for index, other in places.items()}
            if missing[0] in stands:
                other = stands[missing[0]]
                found[missing[0]] = (other.value, other)
                if other is not entry:  # the first of the two is the other seat's entry
                    found[seat], entry = (entry.value, entry), other
                # TRANSLATORS: {name} is a seated player's name, in quotes
                hint = msg("did you mean {name}?", name=repr(table.name(missing[0])))
    table.findings.add(kind, entry.span, msg("{player} appears twice on this line",
                                             player=table.name(seat)),
                       hand=hand, player=table.name(seat), hint=hint)


def choose_moon(table: CheckTable, state: State, moon: Moon | None, written: dict[int, tuple],
                hand: int, totals: tuple[Total, tuple[int, ...]] | None = None
                ) -> tuple[str, bool]:
    """Choose the scoring action for a played hand, judging the moon line (R8.1, R8.2, R8.5);
    return it and whether the score line is judged (not when one diagnostic said that it is
    written for the other choice).  ``totals`` are the hand's total line and the sheet's totals
    before it: when the moon line, the scores and the totals disagree on the choice, the two
    that agree stand and the third is the one fault."""
    rules, add = table.rules, table.findings.add
    shooter = engine.shooter(state)
    if moon is not None:
        seat = table.seat(moon.player, moon.player_span, hand=hand)
        if shooter is None:
            rule = "R8.1"
            if state.lost:  # nobody took every point: some were lost (R6.6)
                rule = "R8.4"
            if seat is not None:
                add(codes.BAD_MOON, moon.span, not_a_moon(table, state, seat),
                    hand=hand, player=table.name(seat), rule=rule)
            return engine.SCORE, True
        if seat is not None and seat != shooter:
            add(codes.BAD_MOON, moon.player_span, msg(
                "{shooter} shot the moon, not {player}", shooter=table.name(shooter),
                player=table.name(seat)), hand=hand, player=table.name(seat), rule="R8.1")
        if moon.choice not in rules.moon_choices:
            # TRANSLATORS: {choices} and {written} are the moon line's words (subtract, add)
            add(codes.BAD_MOON, moon.span, msg(
                "{ruleset} allows only {choices} for the moon, not {written}", ruleset=rules.name,
                choices=either(rules.moon_choices), written=moon.choice),
                hand=hand, player=table.name(shooter), rule="R8.2")
            return rules.moon_choices[0], True
    elif shooter is None:
        return engine.SCORE, True
    if len(rules.moon_choices) == 1:
        return rules.moon_choices[0], True
    scores = _follows(state, {s: v for s, (v, _) in written.items()})
    carried = None if totals is None else _follows(state, _implied(table, *totals))
    if moon is not None:
        return _moon_line_or_sheet(table, state, moon, written, hand, scores, carried)
    if scores is not None:
        if carried is not None and carried != scores:  # the totals carry the other choice on
            _written_for(table, written, hand, shooter, scores, carried)
            return carried, False
        return scores, True
    if _taken_shape(table, shooter, written):  # (the one fault is the line's form)
        return carried or _nearest(state, written, carried), True
    if written:
        add(codes.BAD_MOON, next(iter(written.values()))[1].span, msg(
            "{shooter} took every point, but the scores follow neither moon choice ({choices}) "
            "and no moon line says which was chosen", shooter=table.name(shooter),
            choices=either(rules.moon_choices, nor=True)), hand=hand,
            player=table.name(shooter), rule="R8.5")
        return _nearest(state, written, carried), True
    table.findings.note(msg("hand {hand}: {shooter} shot the moon; no moon line or score "
                            "says which choice, {choice} assumed", hand=hand,
                            shooter=table.name(shooter), choice=rules.moon_choices[0]))
    return rules.moon_choices[0], True


def _implied(table: CheckTable, total: Total, previous: tuple[int, ...]) -> dict[int, int]:
    """Return seat -> the hand score the ``total`` line implies over the ``previous`` totals."""
    implied: dict[int, int] = {}
    for entry in total.entries:
        seat = table.find(entry.player)
        if seat is not None and seat not in implied:
            implied[seat] = entry.value - previous[seat]
    return implied


def _nearest(state: State, written: dict[int, tuple], carried: str | None) -> str:
    """Return the moon choice whose scores the fewest written ones differ from (a tie: the one the
    totals follow, ``carried``, else the first), so that only the scores that are slips are
    reported."""
    def differ(choice: str) -> tuple[int, bool]:
        scores = engine.hand_scores(state, choice)
        return sum(1 for s, (v, _) in written.items() if scores[s] != v), choice != carried
    return min(state.rules.moon_choices, key=differ)


def _follows(state: State, values: dict[int, int]) -> str | None:
    """Return the first moon choice whose hand scores the (some, not none) ``values`` are."""
    if not values:
        return None
    for choice in state.rules.moon_choices:
        scores = engine.hand_scores(state, choice)
        if all(scores[s] == v for s, v in values.items()):
            return choice
    return None


def _moon_line_or_sheet(table: CheckTable, state: State, moon: Moon, written: dict[int, tuple],
                        hand: int, scores: str | None, carried: str | None) -> tuple[str, bool]:
    """Judge an allowed moon choice against the score line, written for the choice ``scores``,
    and the totals, for ``carried``: scores written for the other choice are one fault, the
    moon line's when the totals do not follow it, else the score line's (a slip among scores
    written for the choice the totals follow is a fault of its own)."""
    if scores == moon.choice or not written:
        return moon.choice, True
    shooter = engine.shooter(state)
    if scores is None:  # a slip among scores written for the choice the totals carry on?
        if carried in (None, moon.choice) or _nearest(state, written, carried) != carried:
            return moon.choice, True
        scores = carried
    elif carried == moon.choice:
        _written_for(table, written, hand, shooter, scores, moon.choice)
        return moon.choice, False
    # TRANSLATORS: {written} and {choice} are moon choices (subtract, add), as written
    table.findings.add(codes.BAD_MOON, moon.span, msg(
        "the moon line says {written}, but the scores are written for {choice}",
        written=moon.choice, choice=scores), hand=hand, player=table.name(shooter), rule="R8.5")
    return scores, True


def _written_for(table: CheckTable, written: dict[int, tuple], hand: int, shooter: int,
                 scores: str, totals: str) -> None:
    """Report a score line written for the moon choice ``scores`` where the totals follow the
    choice ``totals``: one fault, not one per score."""
    # TRANSLATORS: {written} and {choice} are moon choices (subtract, add), as written
    table.findings.add(codes.BAD_MOON, next(iter(written.values()))[1].span, msg(
        "the scores are written for the moon choice {written}, but the totals for {choice}",
        written=scores, choice=totals), hand=hand, player=table.name(shooter), rule="R8.5")


def _claims_by_seat(table: CheckTable, tricks: Sequence,
                    wrong_claims: list[int]) -> dict[int, list]:
    """Map each seat to the lines of the wrong winner claims of tricks claimed for it or won by
    it."""
    rules, lines, found = table.rules, set(wrong_claims), {}
    for trick in tricks:
        if trick.claim is None or trick.claim.span.line not in lines:
            continue
        if trick.leader is not None:
            leader = table.seats.get(trick.leader.casefold())
            seats = [None if leader is None else (leader + i) % table.size
                     for i in range(len(trick.plays))]
        else:
            seats = [table.seats.get((p.player or "").casefold()) for p in trick.plays]
        outcome = resolve_under(rules, [p.card for p in trick.plays])
        concerned = {table.seats.get((trick.claim.player or "").casefold())}
        if outcome.winner is not None:
            concerned.add(seats[outcome.winner])
        for seat in concerned - {None}:
            found.setdefault(seat, []).append(trick.claim.span.line)
    return found


def judge_scores(table: CheckTable, state: State, written: dict[int, tuple], hand: int,
                 wrong_claims: list[int], tricks: Sequence, played: Tricks) -> None:
    """Compare written hand scores with the computed ones (R7.3), naming the wrong claims and the
    set-aside piles or lost points (from the ``played`` tricks) behind a mismatch."""
    result = state.history[-1]
    claims = _claims_by_seat(table, tricks, wrong_claims) if wrong_claims else {}
    for seat, (value, entry) in written.items():
        if value == result.scores[seat]:
            continue
        who, lines = table.name(seat), claims.get(seat, [])
        if result.shooter is not None and value == result.taken[seat]:
            table.findings.add(codes.BAD_MOON, entry.span, msg(
                "{shooter} shot the moon, so {player}'s hand score is {score}, not the {points} "
                "taken", shooter=table.name(result.shooter), player=who,
                score=result.scores[seat], points=points(value)), hand=hand, player=who,
                rule="R8.2")
            continue
        took = (msg("{player} took {points}", player=who, points=points(result.taken[seat]))
                if result.shooter is None else
                # TRANSLATORS: {choice} is the moon line's word (subtract, add)
                msg("{shooter} shot the moon ({choice})", shooter=table.name(result.shooter),
                    choice=result.choice))
        pile, went = ("", "") if result.shooter is not None else \
            pile_reason(table, state, played, seat, value)
        # TRANSLATORS: {took} says what the player took; {kitty} and {cause} are empty or
        # a clause of their own (" (2 of them in the kitty ...)", "; the winner claimed ...")
        table.findings.add(codes.SCORE_MISMATCH, entry.span, msg(
            "{player}'s hand {hand} score is written as {value}, but {took}{kitty}: the score is "
            "{score}{cause}", player=who, hand=hand, value=value, took=joined(took, pile),
            kitty=kitty_part(state, seat), score=result.scores[seat],
            cause=joined(cause(lines), went)),
            hand=hand, player=who)


def judge_totals(table: CheckTable, total: Total, previous: tuple[int, ...] | None,
                 scores: tuple[int, ...] | None, written_scores: dict[int, tuple],
                 hand: int, true_after: tuple[int, ...] | None = None,
                 older: tuple[int, ...] | None = None
                 ) -> tuple[tuple[int, ...] | None, bool]:
    """Check the sheet's arithmetic (R7.4); return the written totals and whether they are the
    true ones, as they are when they include a hand the sheet leaves out.

    A total equal to the referee's own running total is right whatever the line before said."""
    written = entries_by_seat(table, total, hand, codes.TOTAL_MISMATCH)
    if len(written) != table.size:
        return None, False
    sheet = tuple(written[s][0] for s in range(table.size))
    given = {}  # each seat's score: as written, else the referee's when it has one
    whole = previous is not None  # (and every score known: can the whole line be one fault?)
    for seat in written:
        if seat in written_scores:
            given[seat] = written_scores[seat][0]
        elif scores is not None:
            given[seat] = scores[seat]
        else:
            whole = False
    if whole and older not in (None, previous) and \
            _two_back(table, total, sheet, previous, older, given, hand):
        return sheet, False
    wrong = {}  # seat -> its previous total, for each total that is no right one on any basis
    for seat, score in given.items():
        value = sheet[seat]
        before = previous[seat] if previous is not None else 0
        # a wrong score (reported on its own) with the right total: the total is right
        true = scores[seat] if scores is not None else score
        if value != before + score and value != before + true and (
                true_after is None or value != true_after[seat]):
            wrong[seat] = before
    if whole and len(wrong) > 1:
        if _copied(table, total, hand, sheet, previous, given) or \
                _moon_totals(table, total, hand, sheet, previous, given):
            return sheet, False
        if _left_out(table, total, hand, sheet, previous, given, wrong):
            return sheet, True
    for seat in wrong:
        _wrong_total(table, written[seat][1], sheet[seat], wrong[seat], given[seat], hand, seat)
    return sheet, False


def _two_back(table: CheckTable, total: Total, sheet: tuple[int, ...], previous: tuple[int, ...],
              older: tuple[int, ...], given: dict[int, int], hand: int) -> bool:
    """Report totals that add the hand's scores to the ``older`` totals, of two hands back, not
    the ``previous`` ones (every seat's score ``given``): one fault; tell whether they do."""
    if any(sheet[s] != older[s] + given[s] for s in given):
        return False
    # TRANSLATORS: {older} and {previous} are hand numbers, {hand} - 2 and {hand} - 1
    table.findings.add(codes.TOTAL_MISMATCH, total.span, msg(
        "hand {hand}'s totals add its scores to the totals of hand {older}, not of hand "
        "{previous}: each total is the previous total plus the hand score", hand=hand,
        older=hand - 2, previous=hand - 1), hand=hand, rule="R7.4")
    return True


def _wrong_total(table: CheckTable, entry, value: int, before: int, score: int, hand: int,
                 seat: int) -> None:
    """Report one seat's total that is not its previous total plus its score."""
    said = msg("{player}'s total is written as {value}, but {before} + {score} = {total}",
               player=table.name(seat), value=value, before=before, score=score,
               total=before + score) if score >= 0 else \
        msg("{player}'s total is written as {value}, but {before} - {loss} = {total}",
            player=table.name(seat), value=value, before=before, loss=-score,
            total=before + score)  # (not "100 + -22")
    table.findings.add(codes.TOTAL_MISMATCH, entry.span, said, hand=hand,
                       player=table.name(seat))


def _copied(table: CheckTable, total: Total, hand: int, sheet: tuple[int, ...],
            previous: tuple[int, ...], given: dict[int, int]) -> bool:
    """Report a total line that repeats the previous totals, or the hand's scores, instead of
    adding them up: one fault; tell whether it does."""
    if sheet == previous:
        # TRANSLATORS: {previous} is a hand number, {hand} - 1
        said = msg("hand {hand}'s totals repeat the totals of hand {previous}: each total is the "
                   "previous total plus the hand score", hand=hand, previous=hand - 1)
    elif all(sheet[s] == given[s] for s in given):
        said = msg("hand {hand}'s totals repeat its scores: each total is the previous total "
                   "plus the hand score", hand=hand)
    else:
        return False
    table.findings.add(codes.TOTAL_MISMATCH, total.span, said, hand=hand, rule="R7.4")
    return True


def _moon_totals(table: CheckTable, total: Total, hand: int, sheet: tuple[int, ...],
                 previous: tuple[int, ...], given: dict[int, int]) -> bool:
    """Report a moon hand's totals that add the scores of the other moon choice than the one its
    scores are written for (and, when played, the moon line chose): one fault, on the total
    line; tell whether they do."""
    n, rules = table.size, table.rules
    written = moon_of(rules, [given[s] for s in range(n)])
    carried = moon_of(rules, [sheet[s] - previous[s] for s in range(n)])
    if written is None or carried is None or carried[0] != written[0] or \
            carried[1] == written[1]:
        return False
    # TRANSLATORS: {written} and {choice} are moon choices (subtract, add), as written
    table.findings.add(codes.BAD_MOON, total.span, msg(
        "the totals add the scores of the moon choice {written}, but the scores are written "
        "for {choice}", written=carried[1], choice=written[1]), hand=hand,
        player=table.name(written[0]), rule="R8.5")
    return True


def _left_out(table: CheckTable, total: Total, hand: int, sheet: tuple[int, ...],
              previous: tuple[int, ...], given: dict[int, int], wrong: dict[int, int]
              ) -> bool:
    """Report totals that add to the previous ones the hand's scores and those of a whole hand the
    sheet leaves out (its score and total lines skipped): one fault; tell whether they do (every
    total that differs is ``wrong``, no right one on another basis)."""
    rules, n = table.rules, table.size
    between = [sheet[s] - previous[s] - given[s] for s in range(n)]
    if {s for s in range(n) if between[s]} != set(wrong) or not scoring.has_score_law(rules) or \
            between == [given[s] for s in range(n)] or explain(rules, between, 0) is None:
        return False  # (the hand's scores added twice is another slip)
    # TRANSLATORS: {scores} are players and numbers: "Al 0, Beth 15, Charlie 2"
    table.findings.add(codes.TOTAL_MISMATCH, total.span, msg(
        "hand {hand}'s totals include the scores of a hand that is not on the sheet: {scores}",
        hand=hand, scores=", ".join(f"{table.name(s)} {between[s]}" for s in range(n))),
        hand=hand, rule="R7.4")
    return True


def finish_hand(table: CheckTable, state: State, record, wrong_claims: list[int],
                played: Tricks, previous: tuple[int, ...] | None = None
                ) -> tuple[State, dict[int, tuple]]:
    """Score a fully played hand (not yet concluded) and judge its moon and score lines
    (``previous``: the sheet's totals before the hand, which its total line builds on)."""
    hand, score = record.number, record.score
    written = entries_by_seat(table, score, hand, codes.SCORE_MISMATCH) if score else {}
    totals = None if previous is None or record.total is None else (record.total, previous)
    choice, judged = choose_moon(table, state, record.moon, written, hand, totals)
    state = engine.record_hand_unchecked(state, choice)
    if written and judged and (state.history[-1].shooter is None or
                               not _taken_form(table, state, written, hand)):
        judge_scores(table, state, written, hand, wrong_claims, record.tricks, played)
    return state, written


def _taken_form(table: CheckTable, state: State, written: dict[int, tuple], hand: int) -> bool:
    """Report a moon hand's whole score line written as the points taken (every seat but the
    shooter's 0, where the moon gives them more): one fault, not one per score."""
    result = state.history[-1]
    shooter = result.shooter
    if not _taken_shape(table, shooter, written) or \
            sum(1 for s, (v, _) in written.items() if v != result.scores[s]) < 2:
        return False
    _as_taken(table, next(iter(written.values()))[1].span, hand, shooter, result.choice,
              result.scores)
    return True


# -- the sheet check: a hand not played out (R7.2, R6.6, R8.2) ------------------------------
class Reading(NamedTuple):
    """A Reading says how a hand's written scores are explained: points lost, and whether as a
    moon."""

    lost: int
    moon: bool


@lru_cache(maxsize=256)  # pure; asked for every hand of a sheet
def _bonuses(rules: Ruleset, players: int) -> tuple[int, ...]:
    """Return what the ruleset's bonuses can add to the scores of ``players`` seats (one: a
    seat)."""
    amounts = set()
    for jacks in range(rules.decks + 1):
        for empty in range(players + 1):
            bounds, amount = scoring.bonus_range(PLAIN, rules, players, jacks, empty)
            if all(bounds):
                amounts.add(amount)
    return tuple(amounts)  # in the set's own order, which the readings' ties follow


@lru_cache(maxsize=256)  # pure; asked for every hand of a sheet
def seat_ranges(rules: Ruleset, players: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Return (outside a moon hand, in a moon hand) the lowest and highest score one seat can have,
    bonuses included."""
    bonus = _bonuses(rules, 1)
    low, high = min(bonus), max(bonus)
    pattern = [value for choice in rules.moon_choices
               for value in scoring.moon_scores(rules, players, 0, choice)] or [0]
    if rules.pair_moon_points:  # R8.6: the pair scores 0, every other seat the pair's points
        pattern += [0, rules.pair_moon_points]
    # with penalties (R7.3) a seat's points count down from 0
    taken = (0, rules.points_per_hand) if rules.penalty_sign == 1 else (-rules.points_per_hand, 0)
    return ((taken[0] + low, taken[1] + high), (min(pattern) + low, max(pattern) + high))


def explain(rules: Ruleset, scores: Sequence[int], max_lost: int) -> Reading | None:
    """Find the reading of a hand's scores with the fewest points lost (at most ``max_lost``) under
    which :func:`scoring.sheet_law` holds and every score is one a seat can have; return None when
    no play could give these scores."""
    whole, written = rules.points_per_hand, sum(scores)
    (low, high), (moon_low, moon_high) = seat_ranges(rules, len(scores))
    plain = all(low <= v <= high for v in scores)
    best = None
    for bonus in _bonuses(rules, len(scores)):
        # the points lost that make the sum law hold (R7.2; with penalties, R7.3, its mirror)
        for lost in {0, whole + rules.penalty_sign * (bonus - written)}:
            if not 0 <= lost <= max_lost or (best is not None and lost >= best.lost):
                continue
            if not scoring.sheet_law(PLAIN, rules, scores, lost, bonus):
                continue
            moon = bool(scoring.moon_law(PLAIN, rules, scores, lost, bonus))
            if plain or (moon and all(moon_low <= v <= moon_high for v in scores)):
                best = Reading(lost, moon and not plain)
    return best


def loss_possible(table: CheckTable, record) -> tuple[bool, str]:
    """Tell whether points may have been lost in the hand's set-aside last trick, and why not: the
    ruleset must let nobody take that trick (R6.6), and the record must not show it won."""
    rules = table.rules
    if rules.set_aside_last != SetAsideLast.NOBODY:
        return False, msg("under {ruleset} a set-aside last trick goes to its leader (R6.6)",
                          ruleset=rules.name)
    last = rules.cards_per_player(table.size)
    for trick in record.tricks:
        if trick.number != last:
            continue
        if trick.claim is not None and trick.claim.player is not None:
            return False, msg("the log shows trick {trick} won by {player} (line {line})",
                              trick=last, player=trick.claim.player, line=trick.claim.span.line)
        if trick.claim is not None:
            return True, msg("as the set-aside trick {trick} on line {line} shows", trick=last,
                             line=trick.claim.span.line)
        if len(trick.plays) == table.size and \
                resolve_under(rules, [play.card for play in trick.plays]).winner is not None:
            return False, msg("trick {trick} (line {line}) is won, not set aside",
                              trick=last, line=trick.span.line)
    return True, ""


def sum_fact(rules: Ruleset, hand: int, scores: Sequence[int], why_not_lost: str) -> str:
    """State the plain fact about a hand whose scores no play could give."""
    whole, written = rules.points_per_hand, sum(scores)
    held = written * rules.penalty_sign
    if held > whole:
        return short_fact(rules, hand, scores)
    if held < whole and why_not_lost:
        # TRANSLATORS: {fact} is "hand 3 adds up to 20, six less than the deck holds"
        return msg("{fact}, and no points can have been lost: {reason}",
                   fact=short_fact(rules, hand, scores), reason=why_not_lost)
    (low, high), _ = seat_ranges(rules, len(scores))
    odd = [v for v in scores if not low <= v <= high]
    if odd:
        return msg("hand {hand} adds up to {total}, but its scores include {score}: outside a "
                   "moon hand a score is {low} to {high}, and these scores are no moon pattern",
                   hand=hand, total=written, score=odd[0], low=low, high=high)
    # TRANSLATORS: {whole} is the number of points in the decks (26 or 52)
    return msg("hand {hand} adds up to {total}: neither the {whole} points of the decks (less "
               "any lost) nor a moon pattern", hand=hand, total=written, whole=whole)


def judge_sheet(table: CheckTable, record, previous: tuple[int, ...] | None,
                written: dict[int, tuple], doubts: list[int]
                ) -> tuple[int, ...] | None:
    """Judge the score line of a hand not played out: its scores must be ones some play gives.
    Return the scores the referee stands by; a hand whose line no play gives goes to ``doubts``."""
    n, rules, hand = table.size, table.rules, record.number
    if len(written) != n:
        return None
    values = [written[s][0] for s in range(n)]
    if not scoring.has_score_law(rules):
        table.findings.note(msg(
            "a score line alone is not judged under {ruleset}: its clean-hand pool shares what "
            "earlier hands carried, which the sheet does not show (R7.5); totals are checked as "
            "arithmetic", ruleset=rules.name))
        return tuple(values)
    possible, why = loss_possible(table, record)
    max_lost = rules.points_per_hand if possible else 0
    shown, why = (why, "") if possible else ("", why)
    reading = explain(rules, values, max_lost)
    implied = _sheet_implied(table, record, previous, values)
    differ = [s for s, v in implied.items() if v != values[s]]
    fixed = [implied.get(s, v) for s, v in enumerate(values)]
    better = explain(rules, fixed, max_lost) if differ else None
    # (as good a reading: the totals carry the sheet's arithmetic on, so the score that
    # differs from them is the slip; two scores swapped are blamed, not the two totals)
    if better is not None and (reading is None or better.lost <= reading.lost):
        if len(differ) > 1 and _moon_form(table, hand, values, fixed, written):
            return tuple(fixed)
        fact = short_fact(rules, hand, values)
        for seat in differ:
            who, (value, entry) = table.name(seat), written[seat]
            table.findings.add(codes.SCORE_MISMATCH, entry.span, msg(
                "{fact}: {player}'s score is written as {value}, but {player}'s total {total} = "
                "{previous} + {score} makes it {score}", fact=fact, player=who, value=value,
                total=implied[seat] + previous[seat], previous=previous[seat],
                score=implied[seat]), hand=hand, player=who, rule="R7.2")
        return tuple(fixed)
    if reading is None:
        table.findings.add(codes.SCORE_MISMATCH, record.score.span,
                           sum_fact(rules, hand, values, why), hand=hand, rule="R7.2")
        doubts.append(hand)
    elif reading.lost:
        lost = msgn("{n} point was lost", "{n} points were lost", reading.lost, n=reading.lost)
        # TRANSLATORS: {lost} is "2 points were lost"; {shown} says which line shows it
        table.findings.note(msg("hand {hand} adds up to {total}: {lost} in the set-aside last "
                                "trick (R6.6), {shown}", hand=hand, total=sum(values), lost=lost,
                                shown=shown) if shown else
                            msg("hand {hand} adds up to {total}: consistent only if {lost} in a "
                                "set-aside last trick (R6.6), which the record does not show",
                                hand=hand, total=sum(values), lost=lost))
    return tuple(values)


def moon_as_taken(table: CheckTable, record, scores: Sequence[int] | None
                  ) -> tuple[int, ...] | None:
    """Report the score line of a hand not played whose moon line names the player who, as the
    scores (and totals) have it, took every point: the scores are the points taken, not the
    moon's (R8.1, R8.2).  One fault; return the moon's scores, which the referee stands by, or
    None."""
    moon, rules = record.moon, table.rules
    seat = table.find(moon.player) if moon is not None else None
    if seat is None or scores is None or moon.choice not in rules.moon_choices or \
            not rules.shooting_the_moon or scoring.has_bonus(rules) or \
            not scoring.has_score_law(rules) or \
            scores[seat] * rules.penalty_sign != rules.points_per_hand or \
            any(v for s, v in enumerate(scores) if s != seat):
        return None
    right = scoring.moon_scores(rules, table.size, seat, moon.choice)
    _as_taken(table, record.score.span, record.number, seat, moon.choice, right)
    return right


def judge_sheet_moon(table: CheckTable, record, scores: Sequence[int] | None) -> bool:
    """Judge the moon line of a hand not played against the scores the referee stands by
    (:func:`judge_sheet`'s) when only a moon gives them: they name the shooter and the choice
    (R8.1, R8.5).  Tell whether the line was judged."""
    moon, hand, rules = record.moon, record.number, table.rules
    if moon is None or scores is None or not scoring.has_score_law(rules):
        return False
    found = moon_of(rules, scores)
    reading = explain(rules, scores, 0) if found is not None else None
    if reading is None or not (reading.moon or sum(scores) * rules.penalty_sign !=
                               rules.points_per_hand):
        return False  # (scores some play without a moon gives as well)
    shooter, choice = found
    seat = table.seat(moon.player, moon.player_span, hand=hand)
    if seat is not None and seat != shooter:
        table.findings.add(codes.BAD_MOON, moon.player_span, msg(
            "{shooter} shot the moon, not {player}", shooter=table.name(shooter),
            player=table.name(seat)), hand=hand, player=table.name(seat), rule="R8.1")
    elif moon.choice not in rules.moon_choices:
        table.findings.add(codes.BAD_MOON, moon.span, msg(
            "{ruleset} allows only {choices} for the moon, not {written}", ruleset=rules.name,
            choices=either(rules.moon_choices), written=moon.choice),
            hand=hand, player=table.name(shooter), rule="R8.2")
    elif moon.choice != choice:
        # TRANSLATORS: {written} and {choice} are moon choices (subtract, add), as written
        table.findings.add(codes.BAD_MOON, moon.span, msg(
            "the moon line says {written}, but the scores are written for {choice}",
            written=moon.choice, choice=choice), hand=hand, player=table.name(shooter),
            rule="R8.5")
    return True


def _sheet_implied(table: CheckTable, record, previous: tuple[int, ...] | None,
                   values: list[int]) -> dict[int, int]:
    """Return seat -> the hand score the hand's total line implies over the ``previous`` totals;
    none for a line that repeats the previous totals or the scores, or for scores of the moon
    the moon line declares (the fault is the total line's, :func:`judge_totals`)."""
    total, moon = record.total, record.moon
    if total is None or previous is None or (moon is not None and moon_of(table.rules, values)
                                             == (table.find(moon.player),
                                                 moon.choice)):
        return {}
    implied = _implied(table, total, previous)
    if len(implied) == table.size and (all(v == 0 for v in implied.values()) or
                                       all(v + previous[s] == values[s]
                                           for s, v in implied.items())):
        return {}
    return implied


def moon_of(rules: Ruleset, scores: Sequence[int]) -> tuple[int, str] | None:
    """Return (the shooter, the choice) whose moon scores ``scores`` are, or None."""
    for choice in (rules.moon_choices if rules.shooting_the_moon else ()):
        for seat in range(len(scores)):
            if tuple(scores) == scoring.moon_scores(rules, len(scores), seat, choice):
                return seat, choice
    return None


def _moon_form(table: CheckTable, hand: int, values: list[int], fixed: list[int],
               written: dict[int, tuple]) -> bool:
    """Report a sheet's score line written in another form than the moon scores its totals
    imply: for the other moon choice, or as the points taken (every other seat 0).  One fault;
    tell whether it is one."""
    moon = moon_of(table.rules, fixed)
    if moon is None:
        return False
    shooter, choice = moon
    other = moon_of(table.rules, values)
    if other is not None and other[0] == shooter:
        _written_for(table, written, hand, shooter, other[1], choice)
        return True
    if any(v for s, v in enumerate(values) if s != shooter):
        return False
    _as_taken(table, next(iter(written.values()))[1].span, hand, shooter, choice, fixed)
    return True


def _taken_shape(table: CheckTable, shooter: int | None, written: dict[int, tuple]) -> bool:
    """Tell whether a whole score line gives every seat but the ``shooter``'s 0, as the points
    taken in a moon hand are."""
    return shooter is not None and len(written) == table.size and \
        not any(v for s, (v, _) in written.items() if s != shooter)


def _as_taken(table: CheckTable, line, hand: int, shooter: int, choice: str,
              scores: Sequence[int]) -> None:
    """Report a moon hand's score line written as the points taken: one fault, on the line."""
    # TRANSLATORS: {scores} are players and numbers: "Al 26, Beth 0, Charlie 26"; {choice} is
    # the moon line's word (subtract, add)
    table.findings.add(codes.BAD_MOON, line, msg(
        "{shooter} shot the moon, so the hand scores are {scores} ({choice}), not the points "
        "taken", shooter=table.name(shooter), choice=choice,
        scores=", ".join(f"{table.name(s)} {v}" for s, v in enumerate(scores))),
        hand=hand, player=table.name(shooter), rule="R8.2")


# -- the words of the score diagnostics ----------------------------------------------------
# TRANSLATORS: a number in words, as in "hand 3 adds up to 20, six less than the deck holds"
NUMBER_WORDS = (msg("no"), msg("one"), msg("two"), msg("three"), msg("four"), msg("five"),
                msg("six"), msg("seven"), msg("eight"), msg("nine"))


def points(number: int) -> str:
    """Say ``1 point``, ``26 points`` as a message."""
    return msgn("{n} point", "{n} points", number, n=number)


def either(words: Sequence[str], *, nor: bool = False) -> str:
    """Join the ruleset's words, untranslated, as ``subtract or add`` (``nor``:
    ``subtract nor add``)."""
    if len(words) == 1:
        return words[0]
    earlier = either(words[:-1], nor=nor)
    if nor:
        # TRANSLATORS: the words a ruleset allows, after "neither moon choice"
        return msg("{earlier} nor {last}", earlier=earlier, last=words[-1])
    return msg("{earlier} or {last}", earlier=earlier, last=words[-1])


def not_a_moon(table: CheckTable, state: State, seat: int) -> str:
    """Say that a moon is declared for a seat that did not take every point (R8.1)."""
    who, took, whole = table.name(seat), state.taken[seat], points(table.rules.points_per_hand)
    if not state.lost:
        return msg("{player} is declared to have shot the moon but took {took} of the {whole}",
                   player=who, took=took, whole=whole)
    # TRANSLATORS: {lost} is a number of points (English says "were" even for 1)
    return msgn("{player} is declared to have shot the moon but took {took} of the {whole} "
                "({lost} were lost in a set-aside last trick)", "{player} is declared to have "
                "shot the moon but took {took} of the {whole} ({lost} were lost in a set-aside "
                "last trick)", state.lost, player=who, took=took, whole=whole, lost=state.lost)


def cause(lines: list[int]) -> str:
    """Name the wrong winner claims that explain a wrong score by their lines; return "" for
    none."""
    if not lines:
        return ""
    if len(lines) == 1:
        return msg("; the winner claimed on line {line} was wrong", line=lines[0])
    return msg("; the winners claimed on lines {lines} and {last} were wrong",
               lines=", ".join(map(str, lines[:-1])), last=lines[-1])


def kitty_part(state: State, seat: int) -> str:
    """Say ' (2 of them in the kitty, collected with trick 2, ...)' for a kitty with points
    (R6.7)."""
    if state.kitty_taken is None or state.kitty_taken[0] != seat:
        return ""
    kitty_points = sum(map(card_points, state.kitty))
    if not kitty_points:
        return ""
    trick, why = state.kitty_taken[1], ""
    if state.rules.kitty_to == KittyTo.FIRST_TRICK and trick == 2:
        why = msg(", with the pile of the set-aside trick 1")
    elif state.rules.kitty_to == KittyTo.FIRST_TRICK and trick > 2:
        why = msg(", with the pile of the set-aside trick 1 to {last}", last=trick - 1)
    # TRANSLATORS: {points} of the hand score's points; {why} is empty or the clause above
    return msg(" ({points} of them in the kitty, collected with trick {trick}{why})",
               points=kitty_points, trick=trick, why=why)


def short_fact(rules: Ruleset, hand: int, values: Sequence[int]) -> str:
    """Say what a hand's scores add up to, against the points the decks hold."""
    whole, written = rules.points_per_hand, sum(values)
    held = written * rules.penalty_sign  # with penalties (R7.3) -52 is the decks' 52 points
    if held == whole:
        return msg("hand {hand} adds up to {total}", hand=hand, total=written)
    difference = abs(held - whole)
    # the difference is said in words up to nine, past it in digits
    shown = NUMBER_WORDS[difference] if difference < len(NUMBER_WORDS) else str(difference)
    args = {"hand": hand, "total": written, "difference": shown}
    if held > whole and rules.decks > 1:
        # TRANSLATORS: {difference} is a number in words ("six"), in digits past nine
        return msg("hand {hand} adds up to {total}, {difference} more than the decks hold", **args)
    if held > whole:
        return msg("hand {hand} adds up to {total}, {difference} more than the deck holds", **args)
    if rules.decks > 1:
        return msg("hand {hand} adds up to {total}, {difference} less than the decks hold", **args)
    return msg("hand {hand} adds up to {total}, {difference} less than the deck holds", **args)


def joined(first: str, second: str) -> str:
    """Put two clauses of a message one after the other, each translated on its own."""
    if not second:
        return first
    if not first:
        return second
    return msg("{first}{second}", first=first, second=second)


# -- why a score is what it is (R6.5, R6.6) -----------------------------------------------
# the hand's finished tricks as the engine records them, played again when first asked for
Tricks = Callable[[], Sequence[TrickRecord]]


def played_tricks(state: State, tricks: Sequence[Sequence[tuple]]) -> Tricks:
    """Return the records of the whole ``tricks`` played from ``state`` (the start of play)."""
    done: list[TrickRecord] = []

    def records() -> Sequence[TrickRecord]:
        if not done:
            current = state
            for plays in tricks:
                if len(plays) != current.players or current.phase is not engine.Phase.PLAY:
                    break
                current = engine.play_cards(current._replace(leader=plays[0][0]),
                                            [(seat, card) for seat, card, *_ in plays])
                done.append(current.last_trick)
        return done
    return records


def pile_reason(table: CheckTable, state: State, tricks: Tricks, seat: int,
                value: int) -> tuple[str, str]:
    """Return (how ``seat`` came by points that include a set-aside pile, where the points its
    written ``value`` counts went instead), each "" when no pile or lost points are involved."""
    records = [r for r in tricks() if r.points or r.winner is None]
    set_aside = [r.number for r in records if r.winner is None]
    parts, with_pile = [], False  # where the seat's points came from, trick by trick
    for record in records:
        if record.winner != seat:
            continue
        own = sum(card_points(card) for _, card in record.plays)
        pile = _pile_points(state, record)
        with_pile = with_pile or bool(pile)
        if pile:
            # TRANSLATORS: "4 in trick 12 and the 4 set aside from trick 11 that Al collected
            # with it"
            parts.append(msg("{own} in trick {trick} and the {pile} set aside from trick "
                             "{tricks} that {player} collected with it", own=own,
                             trick=record.number, pile=pile, player=table.name(seat),
                             tricks=_before(set_aside, record.number)))
        elif own:
            parts.append(msg("{own} in trick {trick}", own=own, trick=record.number))
    if with_pile:
        # TRANSLATORS: {parts} lists the player's tricks with points, as above
        return msg(" ({parts})", parts=", ".join(parts)), ""
    result = state.history[-1]
    difference = value - result.taken[seat]
    for record in records:
        pile = _pile_points(state, record)
        if record.winner is not None and pile and pile == difference:
            # TRANSLATORS: {points} set aside from tricks {tricks} went with trick {trick}
            return "", msg("; the {points} set aside from trick {tricks} went to {player} with "
                           "trick {trick}", points=pile, tricks=_before(set_aside, record.number),
                           player=table.name(record.winner), trick=record.number)
    if result.lost and difference == result.lost:
        return "", msg("; nobody takes the {points} of the set-aside last trick {trick} (R6.6)",
                       points=points(result.lost), trick=state.tricks_per_hand)
    return "", ""


def _pile_points(state: State, record: TrickRecord) -> int:
    """Return the points a won trick carried besides its own cards and the kitty: the pile's."""
    if record.winner is None:
        return 0
    kitty = list(state.kitty) if state.kitty_taken is not None and \
        state.kitty_taken[1] == record.number else []
    rest = list(record.collected)
    for card in [c for _, c in record.plays] + kitty:
        if card in rest:
            rest.remove(card)
    return sum(card_points(card) for card in rest)


def _before(set_aside: list[int], trick: int) -> str:
    """Name the set-aside tricks whose pile the won ``trick`` collected: those just before it."""
    run = []
    for number in range(trick - 1, 0, -1):
        if number not in set_aside:
            break
        run.append(number)
    run.reverse()
    return ", ".join(map(str, run)) if run else str(trick - 1)


def kitty_breaks_nothing(state: State) -> str:
    """Return the clause saying that a kitty's hearts (or Black Maria) did not break hearts, or
    ""."""
    if state.kitty_taken is None or state.kitty_taken[0] != state.leader:
        return ""
    breakers = [c for c in state.kitty
                if c // NUM_RANKS == HEARTS
                or (c == QUEEN_OF_SPADES and state.rules.queen_breaks_hearts)]
    if not breakers:
        return ""
    # TRANSLATORS: {cards} are the kitty's hearts; the kitty is collected, never played
    return msg("; the kitty's {cards}, collected with trick {trick}, did not break hearts: "
               "cards collected are not played", cards=cards_text(breakers),
               trick=state.kitty_taken[1])
