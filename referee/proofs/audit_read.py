"""``referee audit`` of one log, read a block at a time as ``check`` reads it.

The sheet's hands go into the audit's question (:class:`referee.proofs.audit.SheetQuestion`)
one at a time, straight from :class:`referee.judge.stream.Stream` and
:func:`referee.judge.setup.hands_of`: the audit holds the text, one block, one hand and its z3
terms within the size budgets, never the whole file's events, and a sheet past the budgets is
counted to its end without a term of it built.  The setup (seating, ruleset) is the one the
whole file's events give, from the stream's setup events, as ``check`` has it.  A JSON game
record, and a log whose reading stops early (the stream is not exact), are read whole.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from referee.judge.hand_record import Unread
from referee.judge.setup import hands_of, setup_table
from referee.judge.stream import Stream
from referee.judge.table import Findings, Table
from referee.log.events import Event
from referee.log.parser import ParseResult, parse_text
from referee.log.recognise import looks_like_record
from referee.proofs.audit_answer import AuditResult
from referee.proofs.audit import SheetQuestion, audit_scoresheet
from referee.proofs.budgets import AUDIT_SECONDS
from referee.proofs.handfacts import log_folder
from referee.rules.ruleset import Ruleset

__all__ = ["Audit", "SheetLog", "open_sheet"]


class Audit(NamedTuple):
    """What ``referee audit`` says of a log: the setup (None without a Players tag), the
    setup's diagnostics, and the audit (None without a setup)."""

    table: Table | None
    findings: Findings
    result: AuditResult | None


class SheetLog:
    """A log opened for the audit (:func:`open_sheet`); :meth:`audit` reads the rest."""

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.base_dir: Path | None = log_folder(path)
        self._parsed: ParseResult | None = None
        self._stream: Stream | None = None
        self._setup: list[Event] = []
        if looks_like_record(text):
            self._parsed = parse_text(text)
        else:
            self._stream = Stream(text, Findings())  # its syntax diagnostics: not the audit's
            self._setup = self._stream.setup_events()

    def audit(self, *, ruleset: Ruleset | None = None, allowed_dirs: tuple[str | Path, ...] = (),
              max_solutions: int = 3, seconds: float = AUDIT_SECONDS) -> Audit:
        """The setup (``ruleset`` whatever the log names; else the one it names, a file among
        ``allowed_dirs`` too) and the audit of every hand under it, decided within
        ``seconds`` or said to be undecided."""
        if self._stream is not None:
            streamed = self._streamed(ruleset, allowed_dirs)
            if streamed is not None:
                table, findings, question = streamed
                answer = (question.answer(max_solutions, seconds) if question is not None
                          else None)
                return Audit(table, findings, answer)
            self._parsed = parse_text(self.text)
        parsed = self._parsed
        assert parsed is not None
        findings = Findings()
        table = setup_table(parsed.events, findings, self.base_dir, ruleset=ruleset,
                            allowed_dirs=allowed_dirs)
        if table is None:
            return Audit(None, findings, None)
        return Audit(table, findings, audit_scoresheet(parsed, table.rules, list(table.names),
                                                       max_solutions=max_solutions,
                                                       seconds=seconds))

    def _streamed(self, ruleset: Ruleset | None, allowed_dirs: tuple[str | Path, ...]
                  ) -> tuple[Table | None, Findings, SheetQuestion | None] | None:
        """The setup and the question put, or None when the stream is not what the whole
        file's reading gives (then nothing was asked of z3 yet)."""
        stream = self._stream
        assert stream is not None
        findings = Findings()
        table = setup_table(self._setup, findings, self.base_dir, ruleset=ruleset,
                            allowed_dirs=allowed_dirs)
        self._setup = []
        question = None
        if table is None:
            stream.drain()
        else:
            question = SheetQuestion(Table(table.rules, list(table.names), Findings()))
            for record, _claims in hands_of(question.table, _read(stream)):
                if record is not None:
                    question.add(record)
        if not stream.exact:
            return None
        return table, findings, question


def open_sheet(text: str, path: str) -> SheetLog:
    """The decoded log ``text`` of the file ``path`` opened for the audit: raises
    UnreadableLog, as :func:`referee.log.parser.parse_text` does, when it is not a log."""
    return SheetLog(text, path)


def _read(stream: Stream) -> Iterator[Event]:
    """The stream's statements; its unreadable lines left out, as the whole parse has them."""
    for item in stream.statements():
        if not isinstance(item, Unread):
            yield item
