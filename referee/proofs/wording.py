"""Words shared by the proofs' messages: lists joined into one message, and the scoresheet law
of a ruleset said in words, read off :mod:`referee.rules.scoring` so that what the audit and
``check --invariants`` say is what they check.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from referee.proofs.smt_ops import SmtOps
from referee.rules import scoring
from referee.rules.ops import PLAIN
from referee.rules.ruleset import Ruleset
from referee.util.message import Message, msg, msgn


# -- lists ------------------------------------------------------------------------------------
# A list is joined as a balanced tree of two-part messages, not as a chain: each message keeps
# its parts' text, so a chain of n items holds every prefix (memory quadratic in n) and is
# translated by recursion n deep; a balanced tree holds each item's text log2(n) times and is
# translated log2(n) deep.  The text is the same, each connective joining text on both sides.
def _joined(items: Sequence[str], join) -> str:
    if len(items) == 1:
        return items[0]
    middle = len(items) // 2
    return join(_joined(items[:middle], join), _joined(items[middle:], join))


def and_list(items: Sequence[str]) -> str:
    """``a and b and c``, each piece kept a message of its own."""
    # TRANSLATORS: two statements of one sentence (facts, conditions), the first perhaps
    # itself a list
    return _joined(items, lambda first, then: msg("{first} and {then}", first=first, then=then))


def or_list(items: Sequence[str]) -> str:
    """``a or b or c``."""
    # TRANSLATORS: alternatives (corrections, unrecorded cards), the first perhaps a list
    return _joined(items, lambda first, then: msg("{first} or {then}", first=first, then=then))


def semicolon_list(items: Sequence[str]) -> str:
    """``a; b; c``."""
    # TRANSLATORS: sentences one after the other, the first perhaps several already
    return _joined(items, lambda first, then: msg("{first}; {then}", first=first, then=then))


# -- the scoresheet law -----------------------------------------------------------------------
@lru_cache(maxsize=256)
def hand_sum(rules: Ruleset, lost: int = 0) -> int:
    """The sum :func:`scoring.sum_law` asks of a hand's scores with ``lost`` points lost and no
    bonus, read off the law itself: the law is linear in the scores' sum, so one value fits
    (52 - lost in Cancellation Hearts, lost - 52 where penalties count down)."""
    reach = 2 * rules.points_per_hand + abs(lost)
    for total in range(-reach, reach + 1):
        if scoring.sum_law(PLAIN, rules, [total], lost, 0):
            return total
    raise ValueError(f"{rules.name}: no hand sum satisfies the sum law")  # not linear: a bug


def lost_direction(rules: Ruleset) -> int:
    """-1 when a lost point lowers the hand's sum (points score up), +1 when it raises it."""
    return hand_sum(rules, 1) - hand_sum(rules, 0)


def moon_possible(rules: Ruleset, players: int) -> bool:
    """Whether :func:`scoring.moon_law` allows any moon pattern at this table."""
    scores = [f"v{i}" for i in range(players)]
    return scoring.moon_law(SmtOps(), rules, scores, "l", "b") is not False


def pool_reason(rules: Ruleset) -> Message:
    """Why a score line cannot be judged on its own under a clean-hand pool (R7.5)."""
    return msg("{ruleset}'s clean-hand pool shares what earlier hands carried, which no line "
               "shows", ruleset=rules.name)


def bonus_words(rules: Ruleset) -> str | None:
    """What the ruleset's bonuses (R7.3) add to a hand, or None without any."""
    parts = []
    if rules.jack_of_diamonds_bonus:
        parts.append(msg("{points} for each jack of diamonds taken",
                         points=format(rules.jack_of_diamonds_bonus, "+d")))
    if rules.no_tricks_bonus:
        parts.append(msg("{points} for each player who wins no trick",
                         points=format(rules.no_tricks_bonus, "+d")))
    return and_list(parts) if parts else None


def totals_words(rules: Ruleset) -> Message:
    """R7.4 as the audit states it: every total is the previous one plus the hand's score."""
    if rules.start_total:
        return msg("every total adds up from the start total of {start}", start=rules.start_total)
    return msg("every total adds up")


def lost_words(rules: Ruleset, hand: int, points: int) -> Message:
    """How a hand read with ``points`` lost in a set-aside last trick (R6.6) sums."""
    if lost_direction(rules) < 0:
        # TRANSLATORS: {points} is a number of points; English writes point(s) for any number
        return msgn("hand {hand} less {points} point(s) lost in a set-aside last trick",
                    "hand {hand} less {points} point(s) lost in a set-aside last trick",
                    points, hand=hand, points=points)
    return msgn("hand {hand} sums to {total}, {points} point(s) being lost in a set-aside last "
                "trick", "hand {hand} sums to {total}, {points} point(s) being lost in a "
                "set-aside last trick", points, hand=hand, points=points,
                total=hand_sum(rules, points))


def sheet_law_words(rules: Ruleset, moons: Sequence[int], lost: dict[int, int]) -> Message:
    """The whole sheet's law as the audit states it when the sheet satisfies it: each hand's
    sum (with the hands read as a moon and the points assumed lost), and the totals."""
    totals = totals_words(rules)
    if not scoring.has_score_law(rules):
        # TRANSLATORS: {totals} is "every total adds up", {reason} why no hand's scores are
        # judged ("NAME's clean-hand pool shares what earlier hands carried, ...")
        return msg("{totals}; no hand's scores are judged on their own: {reason}",
                   totals=totals, reason=pool_reason(rules))
    bonuses = bonus_words(rules)
    if bonuses is None:
        hands, extra = msg("every hand sums to {points}", points=hand_sum(rules)), []
    else:  # what the bonuses are opens the parenthesis
        hands = msg("every hand sums to {points} plus its bonuses", points=hand_sum(rules))
        extra = [bonuses]
    if moons:
        extra.append(msgn("hand {hands} read as a moon", "hands {hands} read as a moon",
                          len(moons), hands=", ".join(map(str, moons))))
    extra += [lost_words(rules, hand, points) for hand, points in sorted(lost.items())]
    if extra:
        # TRANSLATORS: {law} is "every hand sums to 52", {details} what the bonuses are and
        # the hands that differ ("hand 3 read as a moon")
        hands = msg("{law} ({details})", law=hands, details=semicolon_list(extra))
    # TRANSLATORS: {hands} is "every hand sums to 52 ...", {totals} "every total adds up"
    return msg("{hands} and {totals}", hands=hands, totals=totals)


def owed_words(rules: Ruleset, lost: int | None, may_lose: bool) -> str:
    """What a hand's scores must sum to (R7.2) outside a moon: with ``lost`` points lost,
    or (None) any the record allows (``may_lose``), plus any bonuses."""
    base = hand_sum(rules)
    if lost is not None:
        if lost_direction(rules) < 0:
            owed = msg("{whole} - {lost} lost = {owed}", whole=base, lost=lost,
                       owed=hand_sum(rules, lost))
        else:
            owed = msg("{whole} + {lost} lost = {owed}", whole=base, lost=lost,
                       owed=hand_sum(rules, lost))
    elif may_lose:
        owed = (msg("{whole} less any lost points", whole=base) if lost_direction(rules) < 0
                else msg("{whole} plus any lost points", whole=base))
    else:
        owed = str(base)
    if scoring.has_bonus(rules):
        # TRANSLATORS: {owed} is a sum the scores must have ("52 less any lost points")
        return msg("{owed} plus what bonuses add", owed=owed)
    return owed
