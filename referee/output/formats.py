"""The output formats of ``referee check`` that are one document for the whole run, each
written report by report as the reports come (one report in memory at a time), each
``(reports, stream, language)``: the messages in ``language``, the kinds and codes as ever."""

from __future__ import annotations

from importlib import import_module

from referee.output.render import write_json
from referee.util.i18n import SOURCE_LANGUAGE


def _imported_when_used(module: str, name: str):
    """The writer ``name`` of ``module``, which is imported only when a run asks for it."""

    def write(reports, stream, language: str = SOURCE_LANGUAGE) -> None:
        getattr(import_module(module), name)(reports, stream, language)

    return write


DOCUMENT_WRITERS = {
    "json": write_json,
    "sarif": _imported_when_used("referee.output.sarif", "write_sarif"),
    "github": _imported_when_used("referee.output.github", "write_github"),
}
