"""A report in the language its reader chose: every text a person reads in it (the
diagnostics' messages, hints and evidence notes, what was not checked, why the file is
unreadable) translated, everything a program reads (kinds, codes, places, names, cards,
numbers) as it was.

The renderers translate at this one boundary and write the result as they write an English
report.  Which language a renderer is given is the command's choice (``referee check``: the
text follows ``--lang`` or the environment, the machine formats ``--lang`` only).
"""

from __future__ import annotations

from dataclasses import replace

from referee.judge.diagnostics import Diagnostic, Related, Report
from referee.util.i18n import SOURCE_LANGUAGE, translate


def localized(report: Report, language: str) -> Report:
    """``report`` with its texts in ``language``; in English, ``report`` itself."""
    if language == SOURCE_LANGUAGE:
        return report
    return replace(
        report,
        diagnostics=[localized_diagnostic(d, language) for d in report.diagnostics],
        unchecked=[translate(note, language) for note in report.unchecked],
        unreadable=None if report.unreadable is None else translate(report.unreadable, language),
    )


def localized_diagnostic(diag: Diagnostic, language: str) -> Diagnostic:
    if language == SOURCE_LANGUAGE:
        return diag
    return replace(
        diag, message=translate(diag.message, language),
        hint=None if diag.hint is None else translate(diag.hint, language),
        related=tuple(Related(r.line, r.column, translate(r.note, language))
                      for r in diag.related))


def reason_in(problem: Exception, language: str) -> str:
    """Why an input is unreadable, in ``language`` (the exception's one argument, a message
    when the code that raised it wrote one)."""
    reason = problem.args[0] if len(problem.args) == 1 else None
    return translate(reason, language) if isinstance(reason, str) else str(problem)
