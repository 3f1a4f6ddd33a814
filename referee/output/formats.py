"""The output formats of ``referee check`` that are one document for the whole run, each
written report by report as the reports come (one report in memory at a time)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from referee.check.diagnostics import Report
from referee.output.render import write_json


def write_sarif(reports: Iterable[Report], stream: IO[str]) -> None:
    from referee.output.sarif import write_sarif as write

    write(reports, stream)


def write_github(reports: Iterable[Report], stream: IO[str]) -> None:
    from referee.output.github import write_github as write

    write(reports, stream)


DOCUMENT_WRITERS = {"json": write_json, "sarif": write_sarif, "github": write_github}
