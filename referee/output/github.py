"""This module writes ``referee check --format github``: a GitHub Actions workflow command per
diagnostic (``::error file=F,line=L,col=C,title=CH201 revoke::message``), escaped as the runner
reads it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from referee.judge.codes import ERROR, NOTE, WARNING
from referee.judge.diagnostics import Diagnostic, Report
from referee.output.render import localized, more_diagnostics, related_line
from referee.util.i18n import SOURCE_LANGUAGE, translate
from referee.util.message import msg
from referee.util.terminal import escaped

COMMANDS = {ERROR: "error", WARNING: "warning", NOTE: "notice"}
_DATA = str.maketrans({"%": "%25", "\r": "%0D", "\n": "%0A"})
_PROPERTY = str.maketrans({"%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"})


def escape_data(text: str) -> str:
    return text.translate(_DATA)


def escape_property(text: str) -> str:
    return text.translate(_PROPERTY)


def command(name: str, message: str, **properties) -> str:
    """Write ``::name key=value,...::message`` with every part escaped."""
    props = ",".join(f"{key}={escape_property(str(value))}"
                     for key, value in properties.items() if value is not None)
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def annotation(path: str, diag: Diagnostic, language: str = SOURCE_LANGUAGE) -> str:
    """Write one diagnostic as a workflow command; its evidence follows on lines of its
    own."""
    message = escaped(f"{diag.message} [{diag.rule}]" + (f" ({diag.hint})" if diag.hint else ""))
    for rel in diag.related:
        message += "\n" + escaped(related_line(rel, language))
    one_line = diag.end_line == diag.line and diag.end_column > diag.column
    return command(COMMANDS.get(diag.severity, "error"), message, file=escaped(path),
                   line=diag.line if diag.line >= 1 else None,
                   col=diag.column if diag.line >= 1 and diag.column >= 1 else None,
                   endColumn=diag.end_column if one_line else None,
                   title=f"{diag.code} {diag.kind}")


def report_lines(report: Report, language: str = SOURCE_LANGUAGE) -> list[str]:
    """Write the annotations of a report, its texts in ``language`` (kinds and codes as
    ever)."""
    report = localized(report, language)
    path = escaped(report.path)
    out = [annotation(report.path, diag, language) for diag in report.diagnostics]
    out += [command("warning", more_diagnostics(kind, count, language), file=path,
                    title=translate(msg("more diagnostics"), language))
            for kind, count in report.suppressed.items()]
    out += [command("notice", escaped(note), file=path,
                    title=translate(msg("not checked"), language))
            for note in report.unchecked]
    return out


def write_github(reports: Iterable[Report], stream: IO[str],
                 language: str = SOURCE_LANGUAGE) -> None:
    for report in reports:
        for line in report_lines(report, language):
            stream.write(line + "\n")
        stream.flush()
