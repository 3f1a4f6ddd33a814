"""What a checker process does for a request: check a log, make its report page, audit its
score sheet.  Each job takes the log's bytes and returns plain values, which cross between
processes as they are.  A log is read with no folder: it may name a bundled ruleset only.
"""

from __future__ import annotations

from referee.rules.ruleset import Ruleset

# a label that names no folder: nothing is looked for beside it
LABEL = "<log>"


def warm() -> None:
    """Import what the jobs use, so that the first request waits for no import."""
    import referee.output.html  # noqa: F401
    import referee.output.render  # noqa: F401
    import referee.proofs.audit_read  # noqa: F401
    import referee.run.single  # noqa: F401


def bundled(name: str) -> Ruleset | None:
    """The bundled ruleset ``name`` (checked before any loading), or None for the log's own
    choice."""
    from referee.rules.ruleset import load_ruleset
    from referee.rules.ruleset_files import bundled_names

    if not name:
        return None
    if name not in bundled_names():
        raise ValueError(name)
    return load_ruleset(name)


def check(data: bytes, language: str, ruleset: str) -> dict:
    """The check of one log: its verdict, a one-line summary, and the rest as ``check
    --format json`` has it."""
    from referee.judge.codes import NOTE
    from referee.output.render import more_diagnostics, report_json
    from referee.run.single import check_bytes
    from referee.util.i18n import translate
    from referee.util.message import msg, msgn

    report = check_bytes(data, LABEL, base_dir=None, ruleset=bundled(ruleset))
    document = report_json(report, language)
    count = sum(d.severity != NOTE for d in report.diagnostics) + sum(report.suppressed.values())
    summary = {"clean": msg("clean"), "unreadable": msg("unreadable"),
               "violations": msgn("{n} violation", "{n} violations", count, n=count)}
    return {"verdict": report.verdict, "summary": translate(summary[report.verdict], language),
            "diagnostics": document["diagnostics"], "error": document["error"],
            "more": [more_diagnostics(kind, left, language)
                     for kind, left in report.suppressed.items()]}


def report(data: bytes, language: str, ruleset: str, name: str = LABEL
           ) -> tuple[str, str | None]:
    """(the report page, None), or (why the bytes are not a log, the reason's place).
    ``name`` is the log's name on the page, and nothing else."""
    from referee.log.decode import UnreadableLog
    from referee.output.html import render_html, report_view
    from referee.output.render import reason_in

    try:
        view, _verdict = report_view(data, name, base_dir=None, ruleset=bundled(ruleset),
                                     language=language)
    except UnreadableLog as problem:
        return reason_in(problem, language), f"{problem.line}:{problem.column}"
    return render_html(view, language), None


def audit(data: bytes, language: str, ruleset: str) -> dict:
    """The audit of a score sheet: its answer's text, whether the sheet is consistent, and
    the setup faults it assumed past (each ``line:column: message``)."""
    from referee.judge import codes
    from referee.log.decode import UnreadableLog
    from referee.log.parser import log_text
    from referee.output.render import localized_diagnostic, reason_in
    from referee.proofs.audit_read import open_sheet
    from referee.util.i18n import translate
    from referee.util.message import msg

    try:
        sheet = open_sheet(log_text(data), LABEL)
    except UnreadableLog as problem:
        return {"text": reason_in(problem, language), "consistent": False,
                "faults": [], "readable": False}
    found = sheet.audit(ruleset=bundled(ruleset), max_solutions=2)
    faults = sorted((d for d in found.findings.items if d.kind == codes.BAD_SETUP),
                    key=lambda d: (d.line, d.column))
    shown = [localized_diagnostic(d, language) for d in faults]
    lines = [f"{d.line}:{d.column}: {d.message}" for d in shown]
    if found.table is None or found.result is None:
        return {"text": translate(msg("the log has no Players tag"), language),
                "consistent": False, "faults": lines, "readable": True}
    return {"text": translate(found.result.text(), language), "readable": True,
            "consistent": bool(found.result.consistent and not faults), "faults": lines}
