"""Judge a hand's moon, score and total lines (R7, R8): against what the engine computed when
the hand is played out, and otherwise against what any play could give (the sheet check)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from referee.check import codes
from referee.check.table import Table
from referee.log.events import Moon, Score, Total
from referee.rules import engine, scoring
from referee.rules.engine import State
from referee.rules.ops import PLAIN
from referee.rules.ruleset import Ruleset, card_points
from referee.rules.tricks import resolve_under
from referee.util.counting import counted

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def entries_by_seat(table: Table, line: Score | Total, hand: int, kind: str) -> dict[int, tuple]:
    """Resolve a score/total line: seat -> (value, span); duplicates and gaps are reported."""
    found: dict[int, tuple] = {}
    for entry in line.entries:
        seat = table.seat(entry.player, entry.span, hand=hand)
        if seat is None:
            continue
        if seat in found:
            table.findings.add(kind, entry.span, f"{table.name(seat)} appears twice on this line",
                               hand=hand, player=table.name(seat))
            continue
        found[seat] = (entry.value, entry.span)
    missing = [table.name(s) for s in range(table.size) if s not in found]
    if missing and found:
        table.findings.add(kind, line.span, f"no entry for {', '.join(missing)}", hand=hand)
    return found


def choose_moon(table: Table, state: State, moon: Moon | None, written: dict[int, tuple],
                hand: int) -> str:
    """The scoring action for a played hand, judging the moon line (R8.1, R8.2, R8.5)."""
    rules, add = table.rules, table.findings.add
    shooter = engine.shooter(state)
    if moon is not None:
        seat = table.seat(moon.player, moon.player_span, hand=hand)
        if shooter is None:
            if seat is not None:
                took = state.taken[seat]
                add(codes.BAD_MOON, moon.span, f"{table.name(seat)} is declared to have shot the moon "
                    f"but took {took} of the {counted(rules.points_per_hand, 'point')}"
                    + (f" ({state.lost} were lost in a set-aside last trick)" if state.lost else ""),
                    hand=hand, player=table.name(seat), rule="R8.1")
            return engine.SCORE
        if seat is not None and seat != shooter:
            add(codes.BAD_MOON, moon.player_span, f"{table.name(shooter)} shot the moon, not "
                f"{table.name(seat)}", hand=hand, player=table.name(seat), rule="R8.1")
        if moon.choice not in rules.moon_choices:
            add(codes.BAD_MOON, moon.span, f"{rules.name} allows only "
                f"{' or '.join(rules.moon_choices)} for the moon, not {moon.choice}",
                hand=hand, player=table.name(shooter), rule="R8.2")
            return rules.moon_choices[0]
        return moon.choice
    if shooter is None:
        return engine.SCORE
    if len(rules.moon_choices) == 1:
        return rules.moon_choices[0]
    for choice in rules.moon_choices:
        scores = engine.hand_scores(state, choice)
        if written and all(written.get(s, (v,))[0] == v for s, v in enumerate(scores)):
            return choice
    if written:
        add(codes.BAD_MOON, next(iter(written.values()))[1], f"{table.name(shooter)} took every "
            f"point, but the scores follow neither moon choice ({' nor '.join(rules.moon_choices)})"
            " and no moon line says which was chosen", hand=hand,
            player=table.name(shooter), rule="R8.5")
    else:
        table.findings.note(f"hand {hand}: {table.name(shooter)} shot the moon; no moon line or "
                            f"score says which choice, {rules.moon_choices[0]} assumed")
    return rules.moon_choices[0]


def _claims_by_seat(table: Table, tricks: Sequence, wrong_claims: list[int]) -> dict[int, list]:
    """Seat -> the lines of the wrong winner claims that concern it: the trick was claimed for
    it, or it won the trick claimed for another."""
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


def judge_scores(table: Table, state: State, written: dict[int, tuple], hand: int,
                 wrong_claims: list[int], tricks: Sequence = ()) -> None:
    """Compare written hand scores with the computed ones (R7.3); a mismatch names the wrong
    winner claims that concern its player, each by its own line."""
    result = state.history[-1]
    claims = _claims_by_seat(table, tricks, wrong_claims) if wrong_claims else {}
    for seat, (value, span) in written.items():
        if value == result.scores[seat]:
            continue
        who, lines = table.name(seat), claims.get(seat, [])
        cause = ("" if not lines else f"; the winner claimed on line {lines[0]} was wrong"
                 if len(lines) == 1 else f"; the winners claimed on lines "
                 f"{', '.join(map(str, lines[:-1]))} and {lines[-1]} were wrong")
        if result.shooter is not None and value == result.taken[seat]:
            table.findings.add(codes.BAD_MOON, span, f"{table.name(result.shooter)} shot the moon, "
                               f"so {who}'s hand score is {result.scores[seat]}, not the "
                               f"{counted(value, 'point')} taken", hand=hand, player=who, rule="R8.2")
            continue
        took = (f"{who} took {counted(result.taken[seat], 'point')}" if result.shooter is None else
                f"{table.name(result.shooter)} shot the moon ({result.choice})")
        table.findings.add(codes.SCORE_MISMATCH, span, f"{who}'s hand {hand} score is written as "
                           f"{value}, but {took}{_kitty_part(state, seat)}: the score is "
                           f"{result.scores[seat]}{cause}", hand=hand, player=who)


def _kitty_part(state: State, seat: int) -> str:
    """' (2 of them in the kitty, collected with trick 2: trick 1 was set aside)' when the
    seat collected a kitty with points (R6.7)."""
    if state.kitty_taken is None or state.kitty_taken[0] != seat:
        return ""
    points = sum(map(card_points, state.kitty))
    if not points:
        return ""
    trick = state.kitty_taken[1]
    why = (f", with the pile of the set-aside trick {'1' if trick == 2 else f'1 to {trick - 1}'}"
           if state.rules.kitty_to == "first_trick" and trick > 1 else "")
    return f" ({points} of them in the kitty, collected with trick {trick}{why})"


def judge_totals(table: Table, total: Total, previous: tuple[int, ...] | None,
                 scores: tuple[int, ...] | None, written_scores: dict[int, tuple],
                 hand: int) -> tuple[int, ...] | None:
    """Check the sheet's arithmetic (R7.4): total = previous total + this hand's score.

    The basis is the sheet itself: the hand score as written where there is one (a wrong
    score is already reported) and otherwise the computed one.  Returns the written totals.
    """
    written = entries_by_seat(table, total, hand, codes.TOTAL_MISMATCH)
    if len(written) != table.size:
        return None
    for seat, (value, span) in written.items():
        score = written_scores[seat][0] if seat in written_scores else (
            scores[seat] if scores is not None else None)
        if score is None:
            continue
        before = previous[seat] if previous is not None else 0
        # a wrong score (reported on its own) with the right total: the total is right
        true = scores[seat] if scores is not None else score
        if value != before + score and value != before + true:
            table.findings.add(codes.TOTAL_MISMATCH, span, f"{table.name(seat)}'s total is written "
                               f"as {value}, but {before} + {score} = {before + score}",
                               hand=hand, player=table.name(seat))
    return tuple(written[s][0] for s in range(table.size))


def finish_hand(table: Table, state: State, moon: Moon | None, score: Score | None,
                hand: int, wrong_claims: list[int], tricks: Sequence = ()
                ) -> tuple[State, dict[int, tuple]]:
    """Score a fully played hand (not yet concluded) and judge its moon and score lines;
    ``wrong_claims`` are the lines of the hand's wrong winner claims, among its ``tricks``."""
    written = entries_by_seat(table, score, hand, codes.SCORE_MISMATCH) if score else {}
    choice = choose_moon(table, state, moon, written, hand)
    state = engine.record_hand_unchecked(state, choice)
    if written:
        judge_scores(table, state, written, hand, wrong_claims, tricks)
    return state, written


# -- the sheet check: a hand not played out (R7.2, R6.6, R8.2) ------------------------------
class Reading(NamedTuple):
    """How a hand's written scores are explained: points lost, and whether as a moon."""

    lost: int
    moon: bool


def in_words(number: int) -> str:
    return NUMBER_WORDS[number] if 0 <= number < len(NUMBER_WORDS) else str(number)


def _bonuses(rules: Ruleset, players: int) -> set[int]:
    """What the ruleset's bonuses can add to the scores of ``players`` seats (one: a seat)."""
    amounts = set()
    for jacks in range(rules.decks + 1):
        for empty in range(players + 1):
            bounds, amount = scoring.bonus_range(PLAIN, rules, players, jacks, empty)
            if all(bounds):
                amounts.add(amount)
    return amounts


def seat_ranges(rules: Ruleset, players: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """(outside a moon hand, in a moon hand): the lowest and highest score one seat can have.
    Outside a moon a seat takes 0 to all of the decks' points; a moon hand's scores are those
    of :func:`scoring.moon_scores`; either plus what bonuses can add to one seat."""
    bonus = _bonuses(rules, 1)
    low, high = min(bonus), max(bonus)
    pattern = [value for choice in rules.moon_choices
               for value in scoring.moon_scores(rules, players, 0, choice)]
    return ((low, rules.points_per_hand + high), (min(pattern) + low, max(pattern) + high))


def explain(rules: Ruleset, scores: Sequence[int], max_lost: int) -> Reading | None:
    """The reading of a hand's scores with the fewest points lost (at most ``max_lost``) under
    which :func:`scoring.sheet_law` holds and every score is one a seat can have; None when
    no play could give these scores."""
    whole, written = rules.points_per_hand, sum(scores)
    (low, high), (moon_low, moon_high) = seat_ranges(rules, len(scores))
    plain = all(low <= v <= high for v in scores)
    best = None
    for bonus in _bonuses(rules, len(scores)):
        for lost in {0, whole + bonus - written}:
            if not 0 <= lost <= max_lost or (best is not None and lost >= best.lost):
                continue
            if not scoring.sheet_law(PLAIN, rules, scores, lost, bonus):
                continue
            moon = bool(scoring.moon_law(PLAIN, rules, scores, lost, bonus))
            if plain or (moon and all(moon_low <= v <= moon_high for v in scores)):
                best = Reading(lost, moon and not plain)
    return best


def loss_possible(table: Table, record) -> tuple[bool, str]:
    """(points may have been lost in the hand's set-aside last trick, why not): the ruleset
    must let nobody take that trick (R6.6), and the record must not show it won."""
    rules = table.rules
    if rules.set_aside_last != "nobody":
        return False, f"under {rules.name} a set-aside last trick goes to its leader (R6.6)"
    last = rules.cards_per_player(table.size)
    for trick in record.tricks:
        if trick.number != last:
            continue
        if trick.claim is not None and trick.claim.player is not None:
            return False, (f"the log shows trick {last} won by {trick.claim.player} "
                           f"(line {trick.claim.span.line})")
        if trick.claim is not None:
            return True, f"as the set-aside trick {last} on line {trick.claim.span.line} shows"
        if trick.claim is None and len(trick.plays) == table.size:
            cards = [play.card for play in trick.plays]
            outcome = resolve_under(rules, cards)
            if outcome.winner is not None:
                return False, f"trick {last} (line {trick.span.line}) is won, not set aside"
    return True, ""


def sum_fact(rules: Ruleset, hand: int, scores: Sequence[int], why_not_lost: str) -> str:
    """The plain fact about a hand whose scores no play could give."""
    whole, written = rules.points_per_hand, sum(scores)
    if written > whole:
        return _short_fact(rules, hand, scores)
    if written < whole and why_not_lost:
        return (f"{_short_fact(rules, hand, scores)}, and no points can have been lost: "
                f"{why_not_lost}")
    (low, high), _ = seat_ranges(rules, len(scores))
    odd = [v for v in scores if not low <= v <= high]
    if odd:
        return (f"hand {hand} adds up to {written}, but its scores include {odd[0]}: outside a "
                f"moon hand a score is {low} to {high}, and these scores are no moon pattern")
    return (f"hand {hand} adds up to {written}: neither the {whole} points of the decks (less "
            "any lost) nor a moon pattern")


def judge_sheet(table: Table, record, previous: tuple[int, ...] | None,
                written: dict[int, tuple]) -> tuple[int, ...] | None:
    """Judge the score line of a hand not played out: its scores must be ones some play gives
    (:func:`explain`).  When the total line shows what a score should be and that reading is
    better (possible, or with fewer points lost), the score is the fault, not the total.
    Returns the scores the referee stands by, None when the line does not name every seat."""
    n, rules, hand = table.size, table.rules, record.number
    if len(written) != n:
        return None
    values = [written[s][0] for s in range(n)]
    possible, why = loss_possible(table, record)
    max_lost = rules.points_per_hand if possible else 0
    shown = why if possible else ""
    why = "" if possible else why
    reading = explain(rules, values, max_lost)
    implied = _implied(table, record.total, previous)
    differ = [s for s, v in implied.items() if v != values[s]]
    fixed = [implied.get(s, v) for s, v in enumerate(values)]
    better = explain(rules, fixed, max_lost) if differ else None
    if better is not None and (reading is None or better.lost < reading.lost):
        fact = _short_fact(rules, hand, values)
        for seat in differ:
            who, (value, span) = table.name(seat), written[seat]
            table.findings.add(codes.SCORE_MISMATCH, span, f"{fact}: {who}'s score is written as "
                               f"{value}, but {who}'s total {implied[seat] + previous[seat]} = "
                               f"{previous[seat]} + {implied[seat]} makes it {implied[seat]}",
                               hand=hand, player=who, rule="R7.2")
        return tuple(fixed)
    if reading is None:
        table.findings.add(codes.SCORE_MISMATCH, record.score.span,
                           sum_fact(rules, hand, values, why), hand=hand, rule="R7.2")
    elif reading.lost:
        lost = f"{counted(reading.lost, 'point')} {'was' if reading.lost == 1 else 'were'} lost"
        table.findings.note(f"hand {hand} adds up to {sum(values)}: " + (
            f"{lost} in the set-aside last trick, {shown}" if shown else f"consistent only if "
            f"{lost} in a set-aside last trick (R6.6), which the record does not show"))
    return tuple(values)


def _short_fact(rules: Ruleset, hand: int, values: Sequence[int]) -> str:
    whole, written = rules.points_per_hand, sum(values)
    if written == whole:
        return f"hand {hand} adds up to {written}"
    holds = "the decks hold" if rules.decks > 1 else "the deck holds"
    side = "more" if written > whole else "less"
    return f"hand {hand} adds up to {written}, {in_words(abs(written - whole))} {side} than {holds}"


def _implied(table: Table, total: Total | None, previous: tuple[int, ...] | None) -> dict:
    """Seat -> the hand score a total line implies (its total less the previous one)."""
    if total is None or previous is None:
        return {}
    implied: dict[int, int] = {}
    for entry in total.entries:
        seat = table.seats.get(entry.player.casefold())
        if seat is not None and seat not in implied:
            implied[seat] = entry.value - previous[seat]
    return implied
