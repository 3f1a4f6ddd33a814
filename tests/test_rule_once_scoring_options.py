"""Worked examples, written by hand from spec/rules.md, of the scoring options that express the
rulesets of the three programs in examples/rulesets/ (R7.3 penalties, R7.4 a start total, R7.5 the clean-hand pool, R8.1 no moon,
R8.6 the two-player moon, R9.3 the highest total wins), each run through every copy of the
rule: the engine, the ops statement, the scoresheet law (plain and as SMT-LIB) and the audit.
The properties over random hands are in tests/test_rule_once_scoring.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from scoring_by_hand import (
    CANCELLATION,
    NAMES,
    PROGRAM_RULESETS,
    QUICK,
    STANDARD,
    by_the_rulebook,
    law_by_hand,
    scoring_rules,
    sheet_says,
    sheet_text,
)

from referee.log.parser import parse_log
from referee.proofs.audit import audit_scoresheet
from referee.rules import engine, scoring
from referee.rules.ops import PLAIN
from referee.rules.ruleset import with_options

DOUBLE_DECK, CANCELLATION_HEARTS, OREGONIAN = PROGRAM_RULESETS
PENALTIES = with_options(CANCELLATION, penalty_sign=-1)


def _scoring(rules, taken, *, lost=0, pool=0, tricks_won=None, bonus=None, totals=None):
    n = len(taken)
    state = engine.new_game(rules, n)._replace(
        phase=engine.Phase.SCORING, taken=tuple(taken), lost=lost, pool=pool,
        tricks_won=tuple(tricks_won or (1,) * n), bonus=tuple(bonus or (0,) * n))
    return state if totals is None else state._replace(totals=tuple(totals))


def _every_copy_scores(state, choice, want):
    """The engine, the ops statement and the rulebook read by hand all give ``want``."""
    rules = state.rules
    assert engine.hand_scores(state, choice) == tuple(want)
    no_tricks = [w == 0 for w in state.tricks_won]
    assert scoring.hand_scores(PLAIN, rules, state.taken, state.lost, state.bonus, no_tricks,
                               choice, state.pool)[0] == list(want)
    assert by_the_rulebook(rules, state.taken, state.lost, [0] * state.players,
                           state.tricks_won, choice, state.pool)[0] == list(want)


def _law(rules, scores, lost=0, bonus=0) -> bool:
    """The scoresheet law, which every copy states alike (the plain statement, the SMT-LIB
    define-fun run by z3, the law read by hand)."""
    answers = {bool(scoring.sheet_law(PLAIN, rules, scores, lost, bonus)),
               sheet_says(rules, scores, lost, bonus), law_by_hand(rules, scores, lost, bonus)}
    assert len(answers) == 1, answers
    return answers.pop()


def _audit(rules, hands_scores, start=None):
    names = NAMES[:len(hands_scores[0])]
    start = rules.start_total if start is None else start
    return audit_scoresheet(parse_log(sheet_text(names, hands_scores, start)), rules, names)


# -- R7.3: penalties count down ---------------------------------------------------------------
def test_a_penalty_hand_subtracts_the_points_taken():
    state = _scoring(PENALTIES, [10, 14, 0, 5, 13, 10])
    _every_copy_scores(state, None, [-10, -14, 0, -5, -13, -10])
    assert _law(PENALTIES, [-10, -14, 0, -5, -13, -10])  # sums to -52
    assert _law(PENALTIES, [-10, -14, 0, -5, -13, -9], lost=1)  # one point lost
    assert not _law(PENALTIES, [10, 14, 0, 5, 13, 10])  # +52 is not -52
    assert _audit(PENALTIES, [[-10, -14, 0, -5, -13, -10]]).consistent
    assert not _audit(PENALTIES, [[10, 14, 0, 5, 13, 10]]).consistent


def test_a_moon_replaces_the_penalties():
    # R8.2: the moon scores replace the points taken, whatever their sign
    moon = _scoring(PENALTIES, [0, 0, 52, 0, 0, 0])
    _every_copy_scores(moon, "subtract", [0, 0, -26, 0, 0, 0])
    _every_copy_scores(moon, "add", [26, 26, 0, 26, 26, 26])
    assert _law(PENALTIES, [0, 0, -26, 0, 0, 0]) and _law(PENALTIES, [26, 26, 0, 26, 26, 26])
    assert not _law(PENALTIES, [0, 0, -52, 0, 0, 0], lost=1)  # -51 would be; -52 is not


# -- R7.5: the clean-hand pool and what it carries ----------------------------------------------
def test_the_pool_is_shared_by_the_clean_players_and_the_rest_carries():
    # cancellation-oregonian-hearts: totals start at 100 (R7.4), penalties, a pool of 52
    state = engine.new_game(OREGONIAN, 6)
    assert state.totals == (100,) * 6 and state.pool == 0
    played = [
        # three clean players share 52: 17 each, 1 carries
        ([0, 0, 0, 20, 23, 9], [17, 17, 17, -20, -23, -9], 1, [117, 117, 117, 80, 77, 91]),
        # nobody clean: the whole pool (52 + 1) carries
        ([1, 13, 10, 20, 1, 7], [-1, -13, -10, -20, -1, -7], 53, [116, 104, 107, 60, 76, 84]),
        # five clean players share 52 + 53 = 105: 21 each, nothing carries; no moon in it
        ([52, 0, 0, 0, 0, 0], [-52, 21, 21, 21, 21, 21], 0, [64, 125, 128, 81, 97, 105]),
    ]
    for taken, scores, carry, totals in played:
        state = state._replace(phase=engine.Phase.SCORING, taken=tuple(taken), lost=0,
                               tricks_won=(1,) * 6, bonus=(0,) * 6)
        _every_copy_scores(state, None, scores)
        assert scoring.pool_shares(PLAIN, OREGONIAN, taken, state.pool)[1] == carry
        state = engine.apply(state, engine.SCORE)
        assert (state.history[-1].scores, state.totals, state.pool) == (
            tuple(scores), tuple(totals), carry)


def test_a_pool_sheet_is_judged_by_its_totals_only():
    # a share hangs on what earlier hands carried, which a score line does not show
    assert not scoring.has_score_law(OREGONIAN)
    assert law_by_hand(OREGONIAN, [17, 17, 17, -20, -23, -9], 0, 0) is None
    assert _audit(OREGONIAN, [[17, 17, 17, -20, -23, -9], [-1, -13, -10, -20, -1, -7]]).consistent
    names = NAMES[:6]
    text = sheet_text(names, [[17, 17, 17, -20, -23, -9]], 100).replace("Cy 117", "Cy 116")
    assert not audit_scoresheet(parse_log(text), OREGONIAN, names).consistent


# -- R8.6: the two-player moon ----------------------------------------------------------------
def test_a_pair_moon_under_cancellation_hearts():
    # cancellation-hearts: moon 104 (add only), a pair moon of 26
    pair = _scoring(CANCELLATION_HEARTS, [30, 22, 0, 0, 0, 0, 0, 0])
    assert engine.shooter(pair) is None
    _every_copy_scores(pair, None, [0, 0, 26, 26, 26, 26, 26, 26])
    assert _law(CANCELLATION_HEARTS, [0, 0, 26, 26, 26, 26, 26, 26])  # sums to 156, not 52: the pair pattern
    assert not _law(CANCELLATION_HEARTS, [0, 0, 26, 26, 26, 26, 26, 25])
    assert not _law(CANCELLATION_HEARTS, [0, 0, 26, 26, 26, 26, 26, 26], lost=1)
    assert _audit(CANCELLATION_HEARTS, [[0, 0, 26, 26, 26, 26, 26, 26]]).consistent
    # a third player scoring, or a point lost, is no pair moon: the points count as taken
    _every_copy_scores(_scoring(CANCELLATION_HEARTS, [30, 21, 1, 0, 0, 0, 0, 0]), None,
                       [30, 21, 1, 0, 0, 0, 0, 0])
    _every_copy_scores(_scoring(CANCELLATION_HEARTS, [30, 21, 0, 0, 0, 0, 0, 0], lost=1), None,
                       [30, 21, 0, 0, 0, 0, 0, 0])
    # one player taking all 52 is the one-player moon
    _every_copy_scores(_scoring(CANCELLATION_HEARTS, [0, 52, 0, 0, 0, 0, 0, 0]), "add",
                       [104, 0, 104, 104, 104, 104, 104, 104])


def test_a_pair_moon_at_a_table_of_two_is_both_scoring_nothing():
    # R8.6 with two players: both took points and none was lost, so both score 0 (there is
    # nobody else); the scoresheet law must accept what the engine scores
    two = with_options(CANCELLATION, min_players=2, pair_moon_points=26)
    state = _scoring(two, [30, 22])
    _every_copy_scores(state, None, [0, 0])
    assert _law(two, [0, 0])
    assert not _law(two, [0, 1])


def test_the_audit_accepts_a_pair_moon_outside_what_a_seat_can_take():
    rules = with_options(STANDARD, pair_moon_points=104)  # more than the deck's 26
    state = _scoring(rules, [20, 6, 0, 0])
    _every_copy_scores(state, None, [0, 0, 104, 104])
    assert _law(rules, [0, 0, 104, 104])
    assert _audit(rules, [[0, 0, 104, 104]]).consistent
    # +26, not -52 to 0
    penalties = with_options(CANCELLATION_HEARTS, penalty_sign=-1, shooting_the_moon=False)
    _every_copy_scores(_scoring(penalties, [30, 22, 0, 0, 0, 0, 0, 0]), None,
                       [0, 0, 26, 26, 26, 26, 26, 26])
    assert _audit(penalties, [[0, 0, 26, 26, 26, 26, 26, 26]]).consistent


# -- R8.1: no moon ------------------------------------------------------------------------------
def test_without_a_moon_every_point_counts_as_taken():
    rules = with_options(CANCELLATION, shooting_the_moon=False)
    state = _scoring(rules, [0, 0, 52, 0, 0, 0])
    assert engine.shooter(state) is None and engine.scoring_actions(state) == (engine.SCORE,)
    _every_copy_scores(state, None, [0, 0, 52, 0, 0, 0])
    assert _law(rules, [0, 0, 52, 0, 0, 0])
    assert not _law(rules, [0, 0, -26, 0, 0, 0]) and not _law(rules, [26, 26, 0, 26, 26, 26])
    assert not _audit(rules, [[26, 26, 0, 26, 26, 26]]).consistent


# -- R7.4: the start total ----------------------------------------------------------------------
def test_totals_start_at_the_start_total():
    rules = with_options(CANCELLATION, start_total=100)
    state = engine.apply(_scoring(rules, [10, 14, 0, 5, 13, 10]), engine.SCORE)
    assert state.totals == (110, 114, 100, 105, 113, 110)
    assert _audit(rules, [[10, 14, 0, 5, 13, 10]], start=100).consistent
    assert not _audit(rules, [[10, 14, 0, 5, 13, 10]], start=0).consistent  # totals from 0


# -- R9.3: who wins -----------------------------------------------------------------------------
def test_the_lowest_or_the_highest_total_wins():
    totals = (64, 125, 128, 81, 64, 128)
    over = _scoring(OREGONIAN, [0] * 6, totals=totals)._replace(phase=engine.Phase.OVER)
    assert over.winners == (2, 5)  # the highest total wins, equal highest share
    assert over._replace(rules=with_options(OREGONIAN, winning_total="lowest")).winners == (0, 4)


@QUICK
@given(rules_n=scoring_rules(), data=st.data())
def test_the_winners_are_the_seats_with_the_best_total(rules_n, data):
    rules, n = rules_n
    totals = data.draw(st.lists(st.integers(-60, 160), min_size=n, max_size=n))
    state = engine.new_game(rules, n)._replace(phase=engine.Phase.OVER, totals=tuple(totals))
    best = max(totals) if rules.winning_total == "highest" else min(totals)
    assert state.winners == tuple(s for s in range(n) if totals[s] == best)
    assert engine.new_game(rules, n).totals == (rules.start_total,) * n  # R7.4
