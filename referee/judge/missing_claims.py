"""Claims a record leaves out (R10.9): said once as not checked, or, under
``[Claims "required"]``, reported once per hand that lacks them."""

from __future__ import annotations

from dataclasses import dataclass

from referee.judge import codes
from referee.judge.hand_record import HandRecord
from referee.judge.table import Table
from referee.util.message import msg, msgn

__all__ = ["ClaimsSeen"]


@dataclass(slots=True)
class ClaimsSeen:
    """Which kinds of claim the hands replayed so far wrote at all."""

    tricks: bool = False  # a whole trick was recorded
    played_out: bool = False  # a hand was recorded to its last trick
    winners: bool = False  # a trick's winner was claimed
    sheet: bool = False  # a score, total or moon line was written (readable or not)

    def hand(self, table: Table, record: HandRecord) -> None:
        """Note what ``record`` claims; under [Claims "required"], report what it lacks.  (A
        trick the record stops in has no winner yet, a hand it stops in no scores.)"""
        if self.winners and self.sheet and not table.claims_required:
            return  # (as after a log's first hand: nothing more to learn)
        n = table.size
        unclaimed = [trick.number for trick in record.tricks
                     if trick.claim is None and len(trick.plays) >= n]
        whole = sum(1 for trick in record.tricks if len(trick.plays) >= n)
        played_out = len(record.tricks) >= table.rules.cards_per_player(n)
        self.tricks = self.tricks or bool(whole)
        self.played_out = self.played_out or played_out
        self.winners = self.winners or len(unclaimed) < whole
        self.sheet = self.sheet or record.scored or record.totalled or record.moon is not None
        if not table.claims_required:
            return
        lacks = []
        if unclaimed:
            # TRANSLATORS: {tricks} are trick numbers: "1, 2, 5"
            lacks.append(msgn("no winner for trick {tricks}", "no winner for tricks {tricks}",
                              len(unclaimed), tricks=_numbers(unclaimed)))
        if played_out and not record.scored:
            lacks.append(msg("no score line"))
        if played_out and not record.totalled:
            lacks.append(msg("no total line"))
        if lacks:
            span = record.span if record.span is not None else record.tricks[0].span
            # TRANSLATORS: {lacks} lists what is missing: "no winner for trick 3; no total line"
            table.findings.add(codes.MISSING_CLAIM, span, msg(
                "hand {hand} leaves out claims the log requires ([Claims \"required\"]): "
                "{lacks}", hand=record.number, lacks="; ".join(lacks)), hand=record.number,
                rule="R10.9")

    def note(self, table: Table) -> None:
        """What the claims left out leave unchecked, for a log that does not require them."""
        if table.claims_required or not self.tricks:
            return
        if not self.played_out:
            self.sheet = True  # (no hand is over: no score is due yet)
        if not self.winners and not self.sheet:
            table.findings.note(msg("no trick winners, scores or totals are recorded: only the "
                                    "plays were judged (R10.9)"))
        elif not self.winners:
            table.findings.note(msg("no trick winners are recorded: no winner claim was "
                                    "checked (R10.9)"))
        elif not self.sheet:
            table.findings.note(msg("no score or total lines are recorded: the hands' scores "
                                    "and totals were not checked against a sheet (R10.9)"))


def _numbers(numbers: list[int]) -> str:
    """Trick numbers with runs joined: 1-17, or 3, 5, 9-11."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)
