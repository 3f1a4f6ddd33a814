"""Command line: argument parsing and exit codes only; every command calls a library function.

Exit codes, like a linter: 0 clean, 1 violations found, 2 unreadable input or a usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path

from referee.check.table import DEFAULT_MAX_DIAGNOSTICS

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_UNREADABLE = 0, 1, 2
LOG_SUFFIXES = (".log", ".txt", ".hearts")


class UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description="Referee for Cancellation Hearts logs.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="replay logs and report every violation")
    check.add_argument("paths", nargs="+", metavar="FILE", help="log files, directories, or - for stdin")
    check.add_argument("--format", choices=("text", "json", "jsonl", "sarif", "github"),
                       default="text")
    check.add_argument("--no-color", action="store_true", help="no colour even on a terminal")
    check.add_argument("--invariants", action="store_true",
                       help="also prove the invariants with z3 (slower)")
    check.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                       help="check files in N worker processes (0: one per core)")
    check.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS",
                       help="with --jobs or --scheduler: give up on a file after this long")
    check.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="check on an existing Dask cluster (tcp://HOST:8786; needs referee[dask])")
    check.add_argument("--max-diagnostics", type=int, default=DEFAULT_MAX_DIAGNOSTICS, metavar="N",
                       help="of each kind, show N diagnostics per file and count the rest "
                            f"(default {DEFAULT_MAX_DIAGNOSTICS})")
    _ruleset_options(check)

    fmt = commands.add_parser("fmt", help="print a log in canonical form")
    fmt.add_argument("path", metavar="FILE")
    fmt.add_argument("--write", action="store_true", help="rewrite the file in place (atomically)")
    fmt.add_argument("--follow-symlinks", action="store_true",
                     help="with --write, rewrite the file a symbolic link points to")

    replay = commands.add_parser("replay", help="print the game trick by trick")
    replay.add_argument("path", metavar="FILE")
    replay.add_argument("--no-color", action="store_true")
    replay.add_argument("--format", choices=("text", "json"), default="text")
    _ruleset_options(replay)

    report = commands.add_parser("report", help="write a game's report as one HTML page")
    report.add_argument("path", metavar="FILE")
    report.add_argument("-o", "--output", default="-", metavar="FILE.html",
                        help="where to write the page (default: standard output)")
    _ruleset_options(report)

    generate = commands.add_parser("generate", help="write a reproducible legal game log")
    generate.add_argument("--players", type=int, required=True)
    generate.add_argument("--ruleset", default="cancellation")
    generate.add_argument("--seed", type=int, default=1)
    length = generate.add_mutually_exclusive_group()
    length.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    length.add_argument("--to-end", action="store_true", help="play until the target (default)")
    generate.add_argument("--inject", metavar="KIND", default=None,
                          help="add exactly one violation of this kind; the expected verdict is "
                               "written beside the log")
    generate.add_argument("--strategy", default="simple", choices=("random", "simple", "moon"))
    generate.add_argument("-o", "--output", default=None, metavar="FILE")

    corpus = commands.add_parser("corpus", help="write a conformance corpus with expected verdicts")
    corpus.add_argument("directory", metavar="DIR")
    corpus.add_argument("--count", type=int, default=50)
    corpus.add_argument("--seed", type=int, default=1)
    corpus.add_argument("--quiet", "-q", action="store_true",
                        help="no progress lines on stderr (none either when it is not a terminal)")

    verify = commands.add_parser("verify-rules", help="prove properties of a ruleset with z3")
    verify.add_argument("ruleset", nargs="?", default=None, metavar="RULESET")

    audit = commands.add_parser("audit", help="find the smallest corrections of a scoresheet (z3)")
    audit.add_argument("path", metavar="FILE")
    audit.add_argument("--solutions", type=int, default=3, help="list up to this many minimal fixes")
    _ruleset_options(audit)

    convert = commands.add_parser("convert", help="a log to a JSON game record, or back")
    convert.add_argument("path", metavar="FILE")
    convert.add_argument("-o", "--output", default=None, metavar="OUT")
    convert.add_argument("--to", choices=("json", "log"), default=None,
                         help="the format to write (default: the other one)")

    explain = commands.add_parser("explain", help="explain a diagnostic code or kind")
    explain.add_argument("code", nargs="?", metavar="CODE-or-KIND")

    rules = commands.add_parser("rules", help="print a ruleset's options or the rulebook")
    rules.add_argument("ruleset", nargs="?", default=None)
    rules.add_argument("--book", action="store_true", help="print the whole rulebook (spec/rules.md)")
    return parser


def _ruleset_options(command: argparse.ArgumentParser) -> None:
    """A log may name a bundled ruleset or a .toml file in its own folder or below; these
    options are how the user, not the log, reaches any other file."""
    command.add_argument("--ruleset", metavar="FILE-or-NAME", default=None,
                         help="check every log with this ruleset, whatever its [Ruleset] tag says")
    command.add_argument("--allow-ruleset-dir", action="append", default=[], metavar="DIR",
                         help="a log may also name ruleset files under DIR (repeatable)")


def _ruleset_choice(args) -> tuple[object, tuple[str, ...]]:
    """(the --ruleset ruleset or None, the --allow-ruleset-dir folders resolved)."""
    from referee.rules.ruleset import RulesetError, load_ruleset

    rules = None
    if args.ruleset is not None:
        try:
            rules = load_ruleset(args.ruleset)
        except RulesetError as err:
            raise UsageError(f"--ruleset: {err}") from None
    folders = []
    for folder in args.allow_ruleset_dir:
        if not os.path.isdir(folder):
            raise UsageError(f"--allow-ruleset-dir: {folder!r} is not a directory")
        folders.append(os.path.realpath(folder))
    return rules, tuple(folders)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return EXIT_UNREADABLE if exit_.code else EXIT_CLEAN
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_UNREADABLE
    try:
        return _COMMANDS[args.command](args)
    except UsageError as err:
        print(f"referee: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    except BrokenPipeError:
        return EXIT_CLEAN
    except KeyboardInterrupt:
        return 130


def _color(args) -> bool | None:
    if getattr(args, "no_color", False) or os.environ.get("NO_COLOR"):
        return False
    return None


def iter_inputs(paths: list[str]) -> Iterator[str]:
    for raw in paths:
        if raw == "-":
            yield raw
            continue
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in LOG_SUFFIXES)
            if not found:
                raise UsageError(f"{raw}: no log files ({', '.join(LOG_SUFFIXES)}) in this directory")
            yield from (str(p) for p in found)
        else:
            yield raw


_EXIT_BY_VERDICT = {"clean": EXIT_CLEAN, "violations": EXIT_VIOLATIONS, "unreadable": EXIT_UNREADABLE}


def _cmd_check(args) -> int:
    from referee.output import formats, render
    from referee.run import bulk

    if args.jobs < 0:
        raise UsageError("--jobs must be 0 (one per core) or more")
    jobs = args.jobs or bulk.default_jobs()
    paths: Iterable[str] = iter_inputs(args.paths)
    progress = None
    if sys.stderr.isatty() and args.format != "text":
        paths = list(paths)
        if len(paths) >= 20:
            progress = _progress(len(paths))
    if args.max_diagnostics < 1:
        raise UsageError("--max-diagnostics must be 1 or more")
    rules, folders = _ruleset_choice(args)
    check = partial(bulk.check_one, invariants=args.invariants,
                    max_diagnostics=args.max_diagnostics, ruleset=rules, allowed_dirs=folders)
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
        worst = [EXIT_CLEAN]  # the run's exit code so far, raised by each report

        def judged(reports):
            for report in reports:
                worst[0] = max(worst[0], _EXIT_BY_VERDICT[report.verdict])
                yield report
                if progress is not None:
                    progress[0].advance(progress[1])

        if args.format in formats.DOCUMENT_WRITERS:  # streamed: one report in memory at a time
            formats.DOCUMENT_WRITERS[args.format](judged(stream), sys.stdout)
        else:
            for report in judged(stream):
                if args.format == "jsonl":
                    print(render.to_jsonl_line(report), flush=progress is not None)
                else:
                    render.render_text([report], color=_color(args))
    finally:
        if progress is not None:
            progress[0].stop()
    return worst[0]


def _usage_errors(reports):
    """A cluster that cannot be reached is the command's problem, not a file's."""
    from referee.run.cluster import ClusterUnavailable

    try:
        yield from reports
    except ClusterUnavailable as err:
        raise UsageError(str(err)) from None


def _progress(total: int):
    from rich.console import Console
    from rich.progress import Progress

    bar = Progress(console=Console(stderr=True), transient=True)
    task = bar.add_task("checking", total=total)
    bar.start()
    return bar, task


def _cmd_fmt(args) -> int:
    from referee.log.parser import UnreadableLog, decode_log
    from referee.log.writer import format_text
    from referee.util.reading import UnreadableFile, read_input

    try:
        text = decode_log(read_input(args.path))
    except UnreadableFile as err:
        print(f"{args.path}:1:1: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    except UnreadableLog as err:
        print(f"{args.path}:{err.line}:{err.column}: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    canonical, issues = format_text(text)
    for issue in issues:
        print(f"{args.path}:{issue.line}:{issue.column}: CH001 syntax  {issue.message}", file=sys.stderr)
    if args.write and args.path != "-":
        from referee.util.files import RefusedWrite, replace_text

        try:
            replace_text(args.path, canonical, follow_symlinks=args.follow_symlinks)
        except RefusedWrite as err:
            raise UsageError(str(err)) from None
        except OSError as err:
            raise UsageError(f"{args.path}: cannot write: {err.strerror or err}") from None
    else:
        sys.stdout.write(canonical)
    return EXIT_VIOLATIONS if issues else EXIT_CLEAN


def _cmd_replay(args) -> int:
    from referee.output.replay_view import show_replay

    rules, folders = _ruleset_choice(args)
    return show_replay(args.path, color=_color(args), ruleset=rules, allowed_dirs=folders,
                       as_json=args.format == "json")


def _cmd_report(args) -> int:
    from referee.output.html import report_main

    rules, folders = _ruleset_choice(args)
    return report_main(args.path, args.output, ruleset=rules, allowed_dirs=folders)


def _cmd_explain(args) -> int:
    from referee.check.codes import all_codes, lookup

    if args.code is None:
        for code in all_codes():
            print(f"{code.code}  {code.kind:<24} {code.clause:<6} {code.summary}")
        return EXIT_CLEAN
    code = lookup(args.code)
    if code is None:
        raise UsageError(f"unknown code or kind {args.code!r}; `referee explain` lists them")
    print(f"{code.code} {code.kind} ({code.severity}, rule {code.clause})\n")
    print(f"What: {code.summary}.")
    print(f"Why: {code.why}")
    print(f"Example:\n    {code.example}")
    from referee.rules.rulebook import clause

    text = clause(code.clause)
    if text:
        print(f"\nRule {code.clause} (spec/rules.md):\n{text}")
    return EXIT_CLEAN


def _cmd_rules(args) -> int:
    from dataclasses import fields

    from referee.rules.ruleset import OPTION_DOCS, RulesetError, bundled_names, load_ruleset

    if args.book:
        from referee.rules.rulebook import rulebook_text

        sys.stdout.write(rulebook_text())
        return EXIT_CLEAN
    name = args.ruleset or "cancellation"
    try:
        rules = load_ruleset(name)
    except RulesetError as err:
        raise UsageError(str(err)) from None
    print(f"ruleset {rules.name}  (bundled: {', '.join(bundled_names())})")
    for field in fields(rules):
        value = getattr(rules, field.name)
        shown = ", ".join(value) if isinstance(value, tuple) else str(value).lower() if isinstance(value, bool) else value
        print(f"  {field.name:<30} {shown!s:<22} # {OPTION_DOCS[field.name]}")
    print(f"  {'(derived) points per hand':<30} {rules.points_per_hand}")
    return EXIT_CLEAN


def _cmd_generate(args) -> int:
    from referee.conformance.commands import generate_main

    return generate_main(args.players, args.ruleset, args.seed, args.hands, args.to_end,
                         args.inject, args.strategy, args.output)


def _cmd_corpus(args) -> int:
    from referee.conformance.corpus import corpus_main

    return corpus_main(args.directory, args.count, args.seed, quiet=args.quiet)


def _cmd_verify_rules(args) -> int:
    from referee.proofs.verify_rules import main_verify

    return main_verify(args.ruleset, sys.stdout)


def _cmd_audit(args) -> int:
    from referee.log.parser import UnreadableLog, parse_bytes
    from referee.output.render import diagnostic_line
    from referee.proofs.audit import audit_scoresheet
    from referee.util.reading import UnreadableFile, read_input

    try:
        parsed = parse_bytes(read_input(args.path))
    except UnreadableFile as err:
        print(f"{args.path}:1:1: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    except UnreadableLog as err:
        print(f"{args.path}:{err.line}:{err.column}: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    from referee.check import codes
    from referee.check.table import Findings
    from referee.proofs.handfacts import table_for

    rules, folders = _ruleset_choice(args)
    findings = Findings()
    # the ruleset the log names (a TOML file too, as check allows), target set
    table = table_for(parsed, args.path, ruleset=rules, allowed_dirs=folders, findings=findings)
    faults = [d for d in findings.items if d.kind == codes.BAD_SETUP]
    for diag in sorted(faults, key=lambda d: (d.line, d.column)):  # what the audit assumed instead
        print(diagnostic_line(args.path, diag), file=sys.stderr)
    if table is None:
        raise UsageError(f"{args.path}: the log has no Players tag")
    result = audit_scoresheet(parsed, table.rules, list(table.names), max_solutions=args.solutions)
    print(result.text())
    return EXIT_CLEAN if result.consistent and not faults else EXIT_VIOLATIONS


def _cmd_convert(args) -> int:
    from referee.run.convert import convert_main

    return convert_main(args.path, args.output, args.to, sys.stdout, sys.stderr)


_COMMANDS = {
    "convert": _cmd_convert,
    "verify-rules": _cmd_verify_rules,
    "audit": _cmd_audit,
    "generate": _cmd_generate,
    "corpus": _cmd_corpus,
    "check": _cmd_check,
    "fmt": _cmd_fmt,
    "replay": _cmd_replay,
    "report": _cmd_report,
    "explain": _cmd_explain,
    "rules": _cmd_rules,
}
