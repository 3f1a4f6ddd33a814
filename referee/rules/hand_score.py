"""The concrete reading of :func:`referee.rules.scoring.hand_scores` that the engine runs.

Written out because it runs once per hand of every check (twice as fast as the ops form);
tests/test_rule_once_scoring.py holds the two equal on random hands under every scoring
option.
"""

from __future__ import annotations

from referee.rules.state import State

SUBTRACT = "subtract"  # the shooter scores -moon_points (R8.2)


def shooter(state: State) -> int | None:
    """The seat that took every point of the decks, if any (R8.1, R8.4)."""
    rules = state.rules
    if not rules.shooting_the_moon:
        return None
    whole = rules.points_per_hand
    for seat, points in enumerate(state.taken):
        if points == whole and state.lost == 0:
            return seat
    return None


def moon_pair(state: State) -> tuple[int, int] | None:
    """R8.6: the two seats that took every point between them, nobody else scoring."""
    if not state.rules.pair_moon_points or state.lost:
        return None
    scorers = tuple(seat for seat, points in enumerate(state.taken) if points)
    return scorers if len(scorers) == 2 else None  # type: ignore[return-value]


def pool_shares(rules, taken, carried: int) -> tuple[list[int], int]:
    """R7.5: (each seat's share of the clean-hand pool, what carries to the next hand)."""
    pool = rules.clean_hand_pool + carried
    clean = [seat for seat, points in enumerate(taken) if points == 0]
    shares = [0] * len(taken)
    if not clean:
        return shares, pool
    for seat in clean:
        shares[seat] = pool // len(clean)
    return shares, pool % len(clean)


def hand_scores(state: State, moon: int | None, choice: str | None) -> tuple[int, ...]:
    """Hand scores for the scoresheet (R7.3, R7.5, R8.2, R8.6), bonuses included."""
    rules, n = state.rules, state.players
    pair = moon_pair(state) if moon is None else None
    if moon is not None:
        if choice == SUBTRACT:
            scores = [-rules.moon_points if seat == moon else 0 for seat in range(n)]
        else:
            scores = [0 if seat == moon else rules.moon_points for seat in range(n)]
    elif pair is not None:
        scores = [0 if seat in pair else rules.pair_moon_points for seat in range(n)]
    elif rules.penalty_sign == 1:
        scores = list(state.taken)
    else:
        scores = [-points for points in state.taken]
    if rules.clean_hand_pool:
        shares = pool_shares(rules, state.taken, state.pool)[0]
        scores = [score + share for score, share in zip(scores, shares)]
    no_tricks = rules.no_tricks_bonus if moon is None or rules.no_tricks_bonus_in_moon_hand else 0
    for seat in range(n):
        scores[seat] += state.bonus[seat]
        if no_tricks and state.tricks_won[seat] == 0:
            scores[seat] += no_tricks
    return tuple(scores)
