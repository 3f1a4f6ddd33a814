"""``referee check``: many files, one report each, and the run's exit code."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path

from referee.run.bulk import LOG_SUFFIXES, NOTES_SUFFIX, files_in
from referee.run.usage import (
    EXIT_CLEAN,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    ProgressBar,
    UsageError,
    color,
    language,
    machine_language,
    ruleset_choice,
)
from referee.util.i18n import translate

_EXIT_BY_VERDICT = {"clean": EXIT_CLEAN, "violations": EXIT_VIOLATIONS, "unreadable": EXIT_UNREADABLE}


def iter_inputs(paths: list[str], notes: set[str] | None = None) -> Iterator[str]:
    """The files to check: each path named, and the files :func:`files_in` finds in each
    folder named.  Those found in a folder that may be notes (``.txt``) are added to
    ``notes``: a named file is always read as a log."""
    for raw in paths:
        if raw == "-":
            yield raw
            continue
        path = Path(raw)
        if path.is_dir():
            found = files_in(path)
            if not found:
                raise UsageError(f"{raw}: no log files ({', '.join(LOG_SUFFIXES)}) or JSON game "
                                 "records in this directory")
            for file in found:
                if notes is not None and file.suffix == NOTES_SUFFIX:
                    notes.add(str(file))
                yield str(file)
        else:
            yield raw


def run_check(args) -> int:
    from referee.output import formats, render
    from referee.run import bulk

    if args.jobs < 0:
        raise UsageError("--jobs must be 0 (one per core) or more")
    if not 0 < args.timeout <= bulk.MAX_TIMEOUT:  # (also refuses nan and inf)
        raise UsageError(f"--timeout must be a positive number of seconds, at most "
                         f"{bulk.MAX_TIMEOUT:g} (a week), not {args.timeout:g}")
    jobs = args.jobs or bulk.default_jobs()
    notes: set[str] = set()
    passed: list[str] = []
    paths: Iterable[str] = iter_inputs(args.paths, notes)
    counted = sys.stderr.isatty() and args.format != "text"  # (a bar for the files counted)
    if counted:
        paths = list(paths)
    if args.max_diagnostics < 1:
        raise UsageError("--max-diagnostics must be 1 or more")
    # people read the text; programs read the rest, whose messages follow --lang alone
    lang = language(args) if args.format == "text" else machine_language(args)
    rules, folders = ruleset_choice(args)
    check = partial(bulk.check_one, invariants=args.invariants,
                    max_diagnostics=args.max_diagnostics, ruleset=rules, allowed_dirs=folders)
    progress = ProgressBar(len(paths) if counted else 0, "checking",
                           shown=counted and len(paths) >= 20)
    try:
        if args.scheduler:
            from referee.run.cluster import check_on_cluster

            stream = _usage_errors(check_on_cluster(paths, args.scheduler,
                                                    invariants=args.invariants,
                                                    timeout=args.timeout,
                                                    max_diagnostics=args.max_diagnostics,
                                                    ruleset=rules))
        else:
            stream = bulk.check_many(paths, jobs=jobs, timeout=args.timeout, check=check)
        tally = bulk.Tally()
        reports = progress.passing(tally.counted(bulk.passing_over(stream, notes, passed)))
        if args.format in formats.DOCUMENT_WRITERS:  # streamed: one report in memory at a time
            formats.DOCUMENT_WRITERS[args.format](reports, sys.stdout, lang)
        elif args.format == "jsonl":
            for report in reports:
                print(render.to_jsonl_line(report, lang), flush=progress.bar is not None)
        else:
            for report in reports:
                # a clean file says nothing in text, as with linters; one with something
                # undecided (a note) is shown: its verdict has a caveat
                if args.show_clean or report.verdict != "clean" or report.diagnostics:
                    render.render_text([report], color=color(args), language=lang)
        if passed:  # people read it beside the tally; a program's output stays one document
            print(translate(bulk.passed_over_note(passed), lang),
                  file=sys.stdout if args.format == "text" else sys.stderr)
        if args.format == "text":
            print(render.tally_line(tally.verdicts, lang))
    finally:
        progress.close()
    return max((_EXIT_BY_VERDICT[v] for v in tally.verdicts), default=EXIT_CLEAN)


def _usage_errors(reports):
    """A cluster that cannot be reached is the command's problem, not a file's."""
    from referee.run.cluster import ClusterUnavailable

    try:
        yield from reports
    except ClusterUnavailable as err:
        raise UsageError(str(err)) from None
