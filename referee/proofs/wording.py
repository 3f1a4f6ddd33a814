"""This module holds the words the proofs' messages share: lists joined into one message, the
scoresheet law of a ruleset said in words (read off :mod:`referee.rules.scoring`, so that what
the audit and ``check --invariants`` say is what they check), and the audit's answer
(:class:`AuditResult`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from referee.proofs.handfacts import seated
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
    """Join the pieces as ``a and b and c``, each piece kept a message of its own."""
    # TRANSLATORS: two statements of one sentence (facts, conditions), the first perhaps
    # itself a list
    return _joined(items, lambda first, then: msg("{first} and {then}", first=first, then=then))


def or_list(items: Sequence[str]) -> str:
    """Join the pieces as ``a or b or c``."""
    # TRANSLATORS: alternatives (corrections, unrecorded cards), the first perhaps a list
    return _joined(items, lambda first, then: msg("{first} or {then}", first=first, then=then))


def semicolon_list(items: Sequence[str]) -> str:
    """Join the pieces as ``a; b; c``."""
    # TRANSLATORS: sentences one after the other, the first perhaps several already
    return _joined(items, lambda first, then: msg("{first}; {then}", first=first, then=then))


# -- the scoresheet law -----------------------------------------------------------------------
@lru_cache(maxsize=256)
def hand_sum(rules: Ruleset, lost: int = 0) -> int:
    """Return the sum :func:`scoring.sum_law` asks of a hand's scores with ``lost`` points lost
    and no bonus, read off the law itself: the law is linear in the scores' sum, so one value fits
    (52 - lost in Cancellation Hearts, lost - 52 where penalties count down)."""
    reach = 2 * rules.points_per_hand + abs(lost)
    for total in range(-reach, reach + 1):
        if scoring.sum_law(PLAIN, rules, [total], lost, 0):
            return total
    raise ValueError(f"{rules.name}: no hand sum satisfies the sum law")  # not linear: a bug


def lost_direction(rules: Ruleset) -> int:
    """Return -1 when a lost point lowers the hand's sum (points score up), +1 when it raises
    it."""
    return hand_sum(rules, 1) - hand_sum(rules, 0)


def moon_possible(rules: Ruleset, players: int) -> bool:
    """Tell whether :func:`scoring.moon_law` allows any moon pattern at this table."""
    scores = [f"v{i}" for i in range(players)]
    return scoring.moon_law(SmtOps(), rules, scores, "l", "b") is not False


def pool_reason(rules: Ruleset) -> Message:
    """Say why a score line cannot be judged on its own under a clean-hand pool (R7.5)."""
    return msg("{ruleset}'s clean-hand pool shares what earlier hands carried, which no line "
               "shows", ruleset=rules.name)


def _lost_words(rules: Ruleset, hand: int, points: int) -> Message:
    """Say how a hand read with ``points`` lost in a set-aside last trick (R6.6) sums."""
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
    """Say the whole sheet's law as the audit states it when the sheet satisfies it: each
    hand's sum (with the hands read as a moon and the points assumed lost), and the totals."""
    totals = (msg("every total adds up from the start total of {start}",
                  start=rules.start_total) if rules.start_total else msg("every total adds up"))
    if not scoring.has_score_law(rules):
        # TRANSLATORS: {totals} is "every total adds up", {reason} why no hand's scores are
        # judged ("NAME's clean-hand pool shares what earlier hands carried, ...")
        return msg("{totals}; no hand's scores are judged on their own: {reason}",
                   totals=totals, reason=pool_reason(rules))
    bonuses = []  # what the bonuses (R7.3) are opens the parenthesis
    if rules.jack_of_diamonds_bonus:
        bonuses.append(msg("{points} for each jack of diamonds taken",
                           points=format(rules.jack_of_diamonds_bonus, "+d")))
    if rules.no_tricks_bonus:
        bonuses.append(msg("{points} for each player who wins no trick",
                           points=format(rules.no_tricks_bonus, "+d")))
    if not bonuses:
        hands, extra = msg("every hand sums to {points}", points=hand_sum(rules)), []
    else:
        hands = msg("every hand sums to {points} plus its bonuses", points=hand_sum(rules))
        extra = [and_list(bonuses)]
    if moons:
        extra.append(msgn("hand {hands} read as a moon", "hands {hands} read as a moon",
                          len(moons), hands=", ".join(map(str, moons))))
    extra += [_lost_words(rules, hand, points) for hand, points in sorted(lost.items())]
    if extra:
        # TRANSLATORS: {law} is "every hand sums to 52", {details} what the bonuses are and
        # the hands that differ ("hand 3 read as a moon")
        hands = msg("{law} ({details})", law=hands, details=semicolon_list(extra))
    # TRANSLATORS: {hands} is "every hand sums to 52 ...", {totals} "every total adds up"
    return msg("{hands} and {totals}", hands=hands, totals=totals)


def owed_words(rules: Ruleset, lost: int | None, may_lose: bool) -> str:
    """Say what a hand's scores must sum to (R7.2) outside a moon: with ``lost`` points lost,
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


# -- the audit's answer ----------------------------------------------------------------------
@dataclass(frozen=True)
class Fix:
    """A Fix names one written entry to change."""

    hand: int
    player: str
    field: str  # "score" or "total"
    old: int
    new: int
    line: int
    column: int

    def text(self) -> str:
        if self.field == "total":
            return msg("change {player}'s hand {hand} total from {old} to {new}",
                       player=self.player, hand=self.hand, old=self.old, new=self.new)
        return msg("change {player}'s hand {hand} score from {old} to {new}",
                   player=self.player, hand=self.hand, old=self.old, new=self.new)


@dataclass
class AuditResult:
    consistent: bool  # the sheet as written satisfies every law
    suggestions: list[list[Fix]]  # the smallest corrections (each a list of changes)
    rules: Ruleset  # whose law the sheet is audited against (its words say that law)
    changes: int = 0  # entries changed by each suggestion
    more: bool = False  # further corrections of the same size exist
    lost: dict[int, int] = field(default_factory=dict)  # hand -> points lost, when assumed
    moons: list[int] = field(default_factory=list)  # hands read as a moon
    hands: int = 0
    facts: list[str] = field(default_factory=list)  # hands as written that no play could give
    cut_short: str = ""  # which budget stopped the search; the answer is the best found by then
    undecided: float = 0.0  # seconds within which no answer was found (none is given)

    def _then(self) -> str:
        return sheet_law_words(self.rules, self.moons, self.lost)

    def text(self) -> str:
        """Write sentences for a person: what to change, or that the sheet is consistent; and
        when a budget cut the search short, that the answer is only the best found by then."""
        body = self._answer()
        if self.facts:
            body = semicolon_list([*self.facts, body])
        if not self.cut_short:
            return body
        # TRANSLATORS: {answer} is the audit's answer, {reason} which budget stopped it
        return msg("{answer}\nthe search was cut short ({reason})", answer=body,
                   reason=self.cut_short)

    def _answer(self) -> str:
        if self.undecided:
            # TRANSLATORS: {seconds} is the audit's time budget (--timeout)
            return msg("not decided within {seconds} s: no correction is claimed (--timeout "
                       "gives the audit longer)", seconds=format(self.undecided, "g"))
        if self.cut_short and not self.suggestions and not self.consistent:
            return msg("no correction was found within the budgets")
        if not self.hands:
            return msg("the log holds no score or total lines to audit")
        if self.consistent:
            return msg("the scoresheet is consistent: {law}", law=self._then())
        fixes = [and_list([f.text() for f in fix]) for fix in self.suggestions]
        if len(fixes) == 1:
            # TRANSLATORS: {fix} is what to change ("change Beth's hand 2 score from 14 to
            # 15"), {law} the law the sheet then satisfies ("every hand sums to 52 and ...")
            return msg("{fix}; then {law}", fix=fixes[0], law=self._then())
        listed = or_list([msg("({number}) {fix}", number=i, fix=text)
                          for i, text in enumerate(fixes, 1)])
        if self.more:
            # TRANSLATORS: {count} corrections (and more exist), each changing {changes}
            # entries; {fixes} lists them "(1) change ... or (2) change ..."
            return msgn("{count}+ corrections of {changes} entry each make the sheet "
                        "consistent: {fixes}; more exist; then {law}",
                        "{count}+ corrections of {changes} entries each make the sheet "
                        "consistent: {fixes}; more exist; then {law}", self.changes,
                        count=len(fixes), changes=self.changes, fixes=listed, law=self._then())
        return msgn("{count} corrections of {changes} entry each make the sheet consistent: "
                    "{fixes}; then {law}",
                    "{count} corrections of {changes} entries each make the sheet consistent: "
                    "{fixes}; then {law}", self.changes,
                    count=len(fixes), changes=self.changes, fixes=listed, law=self._then())


def fixes_of(table, held: list, scores: list) -> list[Fix]:
    """Find the written entries of the ``held`` hands that differ from the true ``scores`` (per
    hand, per seat) and the totals they add up to."""
    out, running = [], [table.rules.start_total] * table.size
    for hand, row in zip(held, scores):
        running = [t + s for t, s in zip(running, row)]
        for line, kind, values in ((hand.score, "score", row), (hand.total, "total", running)):
            out += [Fix(hand.number, table.name(seat), kind, entry.value, values[seat],
                        entry.span.line, entry.span.column)
                    for seat, entry in seated(table, line) if entry.value != values[seat]]
    return out
