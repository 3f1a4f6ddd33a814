"""This module writes the scoresheet laws that :mod:`referee.proofs.invariants` proves,
``score-sum`` and ``totals``, as SMT-LIB text per hand; the score law is
:func:`referee.rules.scoring.sheet_law`, written out by :class:`~referee.proofs.smt_ops.SmtOps`
as a ``define-fun`` once per table and ruleset.
"""

from __future__ import annotations

from referee.judge.diagnostics import Related
from referee.judge.scoring import loss_possible
from referee.judge.table import CheckTable
from referee.log.events import Span
from referee.proofs.handfacts import HandFacts, seated
from referee.proofs.smt_ops import DEFINITIONS, Group, Item, Law, SmtOps, smt_int, smt_sum, smt_term
from referee.proofs.wording import hand_sum, lost_direction, moon_possible, owed_words, pool_reason
from referee.rules import scoring
from referee.util.message import msg, msgn

SMT = SmtOps()


class Sheet:
    """A Sheet states the scoresheet laws of one log, a hand at a time; it remembers the last
    total line for the running sums."""

    def __init__(self, table: CheckTable) -> None:
        self.table = table
        self.base: dict[int, int] | None = {s: table.rules.start_total for s in range(table.size)}
        self.base_span: Span | None = None
        self.pending: list[dict[int, int] | None] = []  # hand scores since the base
        self.last: tuple = (None, {})  # the last line read, and its entries

    def _entries(self, line) -> dict[int, tuple[int, Span]]:
        if self.last[0] is line:
            return self.last[1]
        found = {seat: (entry.value, entry.span) for seat, entry in seated(self.table, line)}
        self.last = (line, found)
        return found

    def score_law(self, facts: HandFacts, lost: str | None, lost_value: int | None) -> Law:
        law = Law("score-sum", "R7.2")
        rules, n = facts.rules, facts.players
        score = facts.record.score
        if score is None:
            return law.skip(msg("no score line"))
        entries = self._entries(score)
        if len(entries) < n:
            return law.skip(msg("the score line does not name every player"))
        if not scoring.has_score_law(rules):
            return law.skip(pool_reason(rules))
        values = [entries[s][0] for s in range(n)]
        whole = rules.points_per_hand
        bonus = scoring.has_bonus(rules)
        may_lose = loss_possible(self.table, facts.record)[0]  # as the ruleset and record allow
        lost_term = lost if lost is not None else ("L" if may_lose else "0")
        unknowns = ((["(L Int)"] if lost is None and may_lose else [])
                    + (["(B Int)"] if bonus else []))
        body = (f"({_score_fun(rules, n)} {' '.join(smt_int(v) for v in values)} {lost_term} "
                f"{'B' if bonus else '0'})")
        if unknowns:
            bounds = [f"(<= 0 L) (<= L {whole})"] if lost is None and may_lose else []
            if bonus:
                bounds.append(_bonus_bounds(rules, n))
            smt = f"(exists ({' '.join(unknowns)}) (and {' '.join(bounds)} {body}))"
        else:
            smt = body
        shown = sum(values)

        def expand() -> list[Item]:
            owed = owed_words(rules, lost_value, lost is None and may_lose)
            if moon_possible(rules, n):
                say = msg("the scores sum to {shown}; they must sum to {owed}, or follow a moon "
                          "pattern", shown=shown, owed=owed)
            else:
                say = msg("the scores sum to {shown}; they must sum to {owed}", shown=shown,
                          owed=owed)
            return [Item(smt, say, score.span)]

        law.groups.append(Group([smt], expand, ground=not unknowns))
        law.detail = msg("the scores sum to {shown}", shown=shown)
        short = 0  # the points lost, when the sum reads as a loss the record allows
        if lost is None and may_lose:
            short = (shown - hand_sum(rules)) // lost_direction(rules)
        if 0 < short < whole:
            law.detail = msgn("the scores sum to {shown}: consistent only if {points} point(s) "
                              "were lost in a set-aside last trick (R6.6), which the record does "
                              "not show", "the scores sum to {shown}: consistent only if "
                              "{points} point(s) were lost in a set-aside last trick (R6.6), "
                              "which the record does not show", short, shown=shown, points=short)
        return law

    def totals_law(self, facts: HandFacts, summary) -> Law:
        law = Law("totals", "R7.4")
        n = facts.players
        scores = None
        if facts.record.score is not None:
            entries = self._entries(facts.record.score)
            scores = {s: v for s, (v, _) in entries.items()}
        elif summary is not None and summary.complete and summary.points:
            scores = {s: summary.points.get(self.table.name(s)) for s in range(n)}
        self.pending.append(scores)
        total = facts.record.total
        if total is None:
            return law.skip(msg("no total line"))
        written = self._entries(total)
        atoms, facts_of = [], []
        base, base_span = self.base, self.base_span
        pending = self.pending
        for seat, (value, span) in (sorted(written.items()) if base is not None else ()):
            if seat not in base:
                continue
            parts = [base[seat]]
            for hand in pending:
                if hand is None or hand.get(seat) is None:
                    break
                parts.append(hand[seat])
            else:
                atoms.append(f"(= {smt_int(value)} {smt_sum(list(map(smt_int, parts)))})")
                facts_of.append((seat, value, span, parts))

        def expand() -> list[Item]:
            related = ((Related(base_span.line, base_span.column,
                                msg("the previous total line")),) if base_span else ())
            # TRANSLATORS: {sum} is the addition written out ("30 + 2"), {result} its value
            return [Item(atom, msg("{player}'s total is {value}, but {sum} = {result}",
                                   player=self.table.name(seat), value=value,
                                   sum=" + ".join(map(str, parts)), result=sum(parts)),
                         span, related)
                    for atom, (seat, value, span, parts) in zip(atoms, facts_of)]

        if atoms:
            law.groups.append(Group(list(dict.fromkeys(atoms)), expand))
        if len(facts_of) < n:
            law.partial = True
            law.detail = msg("{checked} of {players} totals follow from the sheet",
                             checked=len(facts_of), players=n)
        else:
            law.detail = msg("every total is the previous total plus the hand score")
        self.base = {s: v for s, (v, _) in written.items()} if len(written) == n else None
        self.base_span = total.span
        self.pending = []
        return law


def _bonus_bounds(rules, n: int) -> str:
    """State B, what the ruleset's bonuses can add to a hand's scores
    (:func:`scoring.bonus_range`)."""
    bounds, amount = scoring.bonus_range(SMT, rules, n, "J", "N")
    return f"(exists ((J Int) (N Int)) (and {' '.join(bounds)} {SMT.eq('B', amount)}))"


def _score_fun(rules, n: int) -> str:
    """Define the score law (:func:`scoring.sheet_law`, R7.2, R8.2) as a function of the n
    scores, the points lost (l) and what bonuses add (b)."""
    bonus = scoring.has_bonus(rules)
    whole, moon = rules.points_per_hand, rules.moon_points
    # the name says everything the body depends on
    name = (f"score{n}_{whole}_{moon}_{'_'.join(rules.moon_choices)}_{int(bonus)}"
            f"_{rules.penalty_sign}_{rules.pair_moon_points}_{int(rules.shooting_the_moon)}"
            .replace("-", "m"))
    if name not in DEFINITIONS:
        scores = [f"v{i}" for i in range(n)]
        params = " ".join(f"({v} Int)" for v in scores)
        body = smt_term(scoring.sheet_law(SMT, rules, scores, "l", "b"))
        DEFINITIONS[name] = f"(define-fun {name} ({params} (l Int) (b Int)) Bool {body})"
    return name
