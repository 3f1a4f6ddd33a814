"""The commands that read or write one log, and those that call a layer's own entry point:
``fmt``, ``replay``, ``audit``, ``generate``, ``corpus``, ``verify-rules``."""

from __future__ import annotations

import sys

from referee.run.usage import (
    EXIT_CLEAN,
    EXIT_UNREADABLE,
    EXIT_VIOLATIONS,
    UsageError,
    color,
    language,
    ruleset_choice,
)
from referee.util.terminal import escaped, shown_to


def _read(path: str, reading):
    """``reading`` of the file's bytes, or None when it cannot be read as a log (then said on
    stderr with its place, as check says it)."""
    from referee.log.decode import UnreadableLog
    from referee.util.reading import UnreadableFile, read_input

    try:
        return reading(read_input(path))
    except UnreadableFile as err:
        print(escaped(f"{path}:1:1: {err}"), file=sys.stderr)
    except UnreadableLog as err:
        print(escaped(f"{path}:{err.line}:{err.column}: {err}"), file=sys.stderr)
    return None


def run_fmt(args) -> int:
    from referee.log.decode import decode_log
    from referee.log.writer import format_text

    if args.write and args.path == "-":
        raise UsageError("--write rewrites a file: name one (standard input has none)")

    text = _read(args.path, decode_log)
    if text is None:
        return EXIT_UNREADABLE
    from referee.log.recognise import looks_like_record

    if looks_like_record(text):
        return _fmt_record(args.path, text, args.write)
    canonical, issues = format_text(text)
    for issue in issues:
        print(escaped(f"{args.path}:{issue.line}:{issue.column}: CH001 syntax  {issue.message}"),
              file=sys.stderr)
    if args.write and args.path != "-":
        from referee.util.files import RefusedWrite, replace_text

        try:
            replace_text(args.path, canonical, follow_symlinks=args.follow_symlinks)
        except RefusedWrite as err:
            raise UsageError(str(err)) from None
        except OSError as err:
            raise UsageError(f"{args.path}: cannot write: {err.strerror or err}") from None
    else:
        sys.stdout.write(shown_to(sys.stdout)(canonical))
    return EXIT_VIOLATIONS if issues else EXIT_CLEAN


def _fmt_record(path: str, text: str, write: bool) -> int:
    """A JSON game record's canonical log text on stdout (what ``convert --to log`` writes);
    ``--write`` is refused: it would replace a record with a log."""
    from referee.judge.stream import unreadable
    from referee.log.decode import UnreadableLog
    from referee.output.render import diagnostic_line
    from referee.run.convert import ConversionRefused, convert

    if write:
        raise UsageError(f"{path} is a JSON game record: fmt prints it as a log, and --write "
                         f"would replace the record with that log; `referee convert {path} -o "
                         "FILE.log` writes the log to another file")
    try:
        canonical, _ = convert(text, "log")
    except UnreadableLog as failure:  # an invalid record: one line per problem
        for diag in unreadable(path, failure).diagnostics:
            print(diagnostic_line(path, diag), file=sys.stderr)
        return EXIT_UNREADABLE
    except ConversionRefused as refused:  # pragma: no cover - the reader lets none through
        for line, column, message in refused.reasons:
            print(escaped(f"{path}:{line}:{column}: {message}"), file=sys.stderr)
        return EXIT_VIOLATIONS
    sys.stdout.write(shown_to(sys.stdout)(canonical))
    return EXIT_CLEAN


def run_replay(args) -> int:
    from referee.output.replay_view import show_replay

    rules, folders = ruleset_choice(args)
    return show_replay(args.path, color=color(args), ruleset=rules, allowed_dirs=folders,
                       as_json=args.format == "json")


def run_report(args) -> int:
    from referee.output.html import report_main

    rules, folders = ruleset_choice(args)
    return report_main(args.path, args.output, ruleset=rules, allowed_dirs=folders,
                       language=language(args))


def run_convert(args) -> int:
    from referee.run.convert import convert_main

    return convert_main(args.paths, args.output, args.to, sys.stdout, sys.stderr)


def run_generate(args) -> int:
    from referee.conformance.commands import generate_main

    return generate_main(args.players, args.ruleset, args.seed, args.hands, args.to_end,
                         args.inject, args.strategy, args.output, count=args.count,
                         form=args.form, situation=args.situation)


def run_corpus(args) -> int:
    from referee.conformance.corpus import corpus_main

    return corpus_main(args.directory, args.count, args.seed, quiet=args.quiet)


def run_verify_rules(args) -> int:
    from referee.proofs.budgets import VERIFY_PROPERTY_SECONDS
    from referee.proofs.verify_rules import main_verify

    seconds = VERIFY_PROPERTY_SECONDS if args.timeout is None else args.timeout
    if not seconds > 0:  # also refuses nan
        raise UsageError(f"--timeout must be a positive number of seconds, not {args.timeout}")
    return main_verify(args.ruleset, sys.stdout, seconds=seconds)


def run_audit(args) -> int:
    if args.solutions < 1:
        raise UsageError("--solutions must be 1 or more")
    from referee.proofs.budgets import AUDIT_SECONDS

    seconds = AUDIT_SECONDS if args.timeout is None else args.timeout
    if not 0 < seconds <= 7 * 24 * 3600:  # also refuses nan
        raise UsageError(f"--timeout must be a number of seconds above 0 and at most a week, "
                         f"not {args.timeout}")
    from referee.log.parser import log_text
    from referee.output.render import diagnostic_line
    from referee.proofs.audit_read import open_sheet

    # a block at a time: the setup's events now (a log that is not one is said here), the
    # hands when audited
    sheet = _read(args.path, lambda data: open_sheet(log_text(data), args.path))
    if sheet is None:
        return EXIT_UNREADABLE
    from referee.judge import codes

    rules, folders = ruleset_choice(args)
    # the ruleset the log names (a TOML file too, as check allows), target set
    audit = sheet.audit(ruleset=rules, allowed_dirs=folders, max_solutions=args.solutions,
                        seconds=seconds)
    from referee.output.localized import localized_diagnostic
    from referee.util.i18n import translate

    speak = language(args)
    faults = [d for d in audit.findings.items if d.kind == codes.BAD_SETUP]
    for diag in sorted(faults, key=lambda d: (d.line, d.column)):  # what the audit assumed instead
        print(diagnostic_line(args.path, localized_diagnostic(diag, speak)), file=sys.stderr)
    if audit.table is None or audit.result is None:
        raise UsageError(f"{args.path}: the log has no Players tag")
    print(translate(audit.result.text(), speak))
    return EXIT_CLEAN if audit.result.consistent and not faults else EXIT_VIOLATIONS
