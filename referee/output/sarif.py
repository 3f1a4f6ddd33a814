"""This module writes ``referee check --format sarif``: the run as one SARIF 2.1.0 log, for
code-scanning tools.

Its rules are the diagnostic kinds; each diagnostic is a result (columns count code points);
what was not checked and the diagnostics past ``--max-diagnostics`` are notifications.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import PurePath, PurePosixPath
from typing import IO
from urllib.parse import quote

from referee import __version__
from referee.judge.codes import ERROR, NOTE, WARNING, all_codes
from referee.judge.diagnostics import Diagnostic, Report
from referee.output.render import localized, more_diagnostics
from referee.rules.rulebook import clause, clause_plain
from referee.util.i18n import SOURCE_LANGUAGE, translate
from referee.util.message import msg
from referee.util.terminal import escaped_values

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {ERROR: "error", WARNING: "warning", NOTE: "note"}
MAX_NOTIFICATIONS = 10_000  # past it, notifications are counted in a last one


def rules(language: str = SOURCE_LANGUAGE) -> list[dict]:
    """Make the reporting descriptors: one per diagnostic kind, its summary, why and clause (as
    plain text and markdown) in ``language``."""
    out = []
    for code in all_codes():
        plain = clause_plain(code.clause, language) or ""
        marked = clause(code.clause, language) or ""
        summary, why = translate(code.summary, language), translate(code.why, language)
        help_text = (f"{summary}. {why}\nExample: {code.example}\n"
                     f"Rule {code.clause} (spec/rules.md):\n{plain}")
        out.append({
            "id": code.code, "name": code.kind,
            "shortDescription": {"text": summary},
            "fullDescription": {"text": why},
            "help": {"text": help_text,
                     "markdown": f"{summary}. {why}\n\nExample: `{code.example}`\n\n"
                                 f"{marked}"},
            "defaultConfiguration": {"level": LEVELS[code.severity]},
            "properties": {"clause": code.clause, "kind": code.kind},
        })
    return out


def artifact_uri(path: str) -> str:
    """Write a path as a URI reference: relative paths stay relative, absolute ones become file
    URIs; every other byte of the name, one not UTF-8 too (``%FF``), is percent-encoded."""
    pure = PurePath(path)
    if pure.is_absolute():
        return pure.as_uri()
    return quote(os.fsencode(str(PurePosixPath(*pure.parts)) if pure.parts else path),
                 safe="/")


def _region(line: int, column: int, end_line: int | None = None,
            end_column: int | None = None) -> dict | None:
    if line < 1:
        return None
    region = {"startLine": line}
    if column >= 1:
        region["startColumn"] = column
    if end_line is not None and end_column is not None and (
            end_line > line or (end_line == line and end_column > max(column, 1))):
        region["endLine"], region["endColumn"] = end_line, end_column
    return region


def _location(uri: str, region: dict | None, **extra) -> dict:
    physical = {"artifactLocation": {"uri": uri}}
    if region is not None:
        physical["region"] = region
    return {**extra, "physicalLocation": physical}


def result(path: str, diag: Diagnostic, index: dict[str, int]) -> dict:
    """Make a SARIF result of one diagnostic."""
    uri = artifact_uri(path)
    text = f"{diag.message} [{diag.rule}]" + (f" ({diag.hint})" if diag.hint else "")
    out = {
        "ruleId": diag.code, "level": LEVELS.get(diag.severity, "error"),
        "message": {"text": text},
        "locations": [_location(uri, _region(diag.line, diag.column, diag.end_line,
                                             diag.end_column))],
        "properties": {"kind": diag.kind, "clause": diag.rule,
                       **{k: v for k, v in (("hand", diag.hand), ("trick", diag.trick),
                                            ("player", diag.player)) if v is not None}},
    }
    if diag.code in index:
        out["ruleIndex"] = index[diag.code]
    if diag.related:
        out["relatedLocations"] = [
            _location(uri, _region(rel.line, rel.column), id=number,
                      message={"text": rel.note})
            for number, rel in enumerate(diag.related)]
    return out


def _notifications(report: Report, language: str = SOURCE_LANGUAGE) -> list[dict]:
    uri = artifact_uri(report.path)
    out = [{"level": "note", "message": {"text": translate(
                msg("not checked: {note}", note=note), language)},
            "locations": [_location(uri, None)]} for note in report.unchecked]
    out += [{"level": "warning", "message": {"text": more_diagnostics(kind, count, language)},
             "locations": [_location(uri, None)]} for kind, count in report.suppressed.items()]
    return out


def write_sarif(reports: Iterable[Report], stream: IO[str],
                language: str = SOURCE_LANGUAGE) -> None:
    """Write the SARIF log of ``reports`` result by result, its texts in ``language``."""
    descriptors = rules(language)
    index = {rule["id"]: number for number, rule in enumerate(descriptors)}
    tool = {"driver": {"name": "referee", "version": __version__, "rules": descriptors}}
    head = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION}
    stream.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "runs": [{"tool": '
                 + json.dumps(tool, ensure_ascii=False)
                 + ('' if language == SOURCE_LANGUAGE else f', "language": "{language}"')
                 + ', "columnKind": "unicodeCodePoints", "results": [')
    notes: list[dict] = []
    dropped, first = 0, True
    for report in reports:
        report = localized(report, language)
        for diag in report.diagnostics:
            stream.write(("\n" if first else ",\n") + json.dumps(
                escaped_values(result(report.path, diag, index)), ensure_ascii=False))
            first = False
        for note in _notifications(report, language):
            if len(notes) < MAX_NOTIFICATIONS:
                notes.append(escaped_values(note))
            else:
                dropped += 1
    if dropped:
        notes.append({"level": "note", "message": {"text": f"and {dropped:,} more notifications"}})
    invocation = {"executionSuccessful": True, "toolExecutionNotifications": notes}
    stream.write("\n], \"invocations\": [" + json.dumps(invocation, ensure_ascii=False)
                 + "]}]}\n")
