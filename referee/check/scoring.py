"""Judge a hand's moon, score and total lines against what the engine computed (R7, R8)."""

from __future__ import annotations

from referee.check import codes
from referee.check.table import Table
from referee.log.events import Moon, Score, Total
from referee.rules import engine
from referee.rules.engine import State
from referee.rules.ruleset import card_points
from referee.util.counting import counted


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


def judge_scores(table: Table, state: State, written: dict[int, tuple], hand: int,
                 wrong_claims: list[int]) -> None:
    """Compare written hand scores with the computed ones (R7.3)."""
    result = state.history[-1]
    cause = (f"; the winner claimed on line {wrong_claims[0]} was wrong" if wrong_claims else "")
    for seat, (value, span) in written.items():
        if value == result.scores[seat]:
            continue
        who = table.name(seat)
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
        if value != before + score:
            table.findings.add(codes.TOTAL_MISMATCH, span, f"{table.name(seat)}'s total is written "
                               f"as {value}, but {before} + {score} = {before + score}",
                               hand=hand, player=table.name(seat))
    return tuple(written[s][0] for s in range(table.size))


def finish_hand(table: Table, state: State, moon: Moon | None, score: Score | None,
                hand: int, wrong_claims: list[int]) -> tuple[State, dict[int, tuple]]:
    """Score a fully played hand (not yet concluded) and judge its moon and score lines."""
    written = entries_by_seat(table, score, hand, codes.SCORE_MISMATCH) if score else {}
    choice = choose_moon(table, state, moon, written, hand)
    state = engine.record_hand_unchecked(state, choice)
    if written:
        judge_scores(table, state, written, hand, wrong_claims)
    return state, written
