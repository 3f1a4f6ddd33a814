"""What the scoresheet audit answers (:class:`AuditResult`, each change a :class:`Fix`) and
how it reads a line's entries, shared by the search without z3 and z3's optimizer."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.judge.table import Table
from referee.proofs.wording import and_list, or_list, semicolon_list, sheet_law_words
from referee.rules.ruleset import Ruleset
from referee.util.message import msg, msgn

__all__ = ["Fix", "AuditResult", "count_entries", "seated"]


@dataclass(frozen=True)
class Fix:
    """One written entry to change."""

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
    points_per_hand: int
    rules: Ruleset  # whose law the sheet is audited against (its words say that law)
    changes: int = 0  # entries changed by each suggestion
    more: bool = False  # further corrections of the same size exist
    lost: dict[int, int] = field(default_factory=dict)  # hand -> points lost, when assumed
    moons: list[int] = field(default_factory=list)  # hands read as a moon
    hands: int = 0
    notes: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)  # hands as written that no play could give
    cut_short: str = ""  # which budget stopped the search; the answer is the best found by then
    undecided: float = 0.0  # seconds within which no answer was found (none is given)

    def _then(self) -> str:
        return sheet_law_words(self.rules, self.moons, self.lost)

    def text(self) -> str:
        """Sentences for a person: what to change, or that the sheet is consistent; and when a
        budget cut the search short, that the answer is only the best found by then."""
        body = self._text()
        if not self.cut_short:
            return body
        # TRANSLATORS: {answer} is the audit's answer, {reason} which budget stopped it
        return msg("{answer}\nthe search was cut short ({reason})", answer=body,
                   reason=self.cut_short)

    def _text(self) -> str:
        body = self._answer()
        return semicolon_list([*self.facts, body]) if self.facts else body

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


def count_entries(table: Table, line) -> int:
    """How many entries of a score or total line (None: no line) the audit reads."""
    return sum(1 for _ in seated(table, line))


def seated(table: Table, line):
    """(seat, entry) of a line's entries that the audit reads: the first of each seat's,
    names not seated left out."""
    if line is None:
        return
    seen = set()
    for entry in line.entries:
        seat = table.seats.get(entry.player.casefold())
        if seat is None or seat in seen:
            continue
        seen.add(seat)
        yield seat, entry
