"""The output formats of ``referee check`` that are one document for the whole run, each
written report by report as the reports come (one report in memory at a time), each
``(reports, stream, language)``: the messages in ``language``, the kinds and codes as ever."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from referee.judge.diagnostics import Report
from referee.output.render import write_json
from referee.util.i18n import SOURCE_LANGUAGE


def write_sarif(reports: Iterable[Report], stream: IO[str],
                language: str = SOURCE_LANGUAGE) -> None:
    from referee.output.sarif import write_sarif as write

    write(reports, stream, language)


def write_github(reports: Iterable[Report], stream: IO[str],
                 language: str = SOURCE_LANGUAGE) -> None:
    from referee.output.github import write_github as write

    write(reports, stream, language)


DOCUMENT_WRITERS = {"json": write_json, "sarif": write_sarif, "github": write_github}
