"""This module implements the commands, each a function of the parsed arguments
(``referee.cli`` names them), and what they share: the exit codes, the usage error, and the
options read the same way by several commands (--ruleset, --allow-ruleset-dir, --no-color,
--lang)."""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path

from referee.util.i18n import translate
from referee.util.message import msg, msgn
from referee.util.terminal import escaped, shown_to

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_UNREADABLE = 0, 1, 2


class UsageError(Exception):
    """A UsageError says that the command was asked something it cannot do; the command line
    prints it, exit 2."""


def ruleset_choice(args) -> tuple[object, tuple[str, ...]]:
    """Return (the --ruleset ruleset or None, the --allow-ruleset-dir folders resolved)."""
    from referee.rules.ruleset_files import RulesetError
    from referee.rules.ruleset import load_ruleset

    rules = None
    if args.ruleset is not None:
        try:
            rules = load_ruleset(args.ruleset)
        except RulesetError as err:
            raise UsageError(f"--ruleset: {err}") from None
    folders = []
    for folder in getattr(args, "allow_ruleset_dir", ()):
        if not os.path.isdir(folder):
            raise UsageError(f"--allow-ruleset-dir: {folder!r} is not a directory")
        folders.append(os.path.realpath(folder))
    return rules, tuple(folders)


def color(args) -> bool | None:
    """Return False when colour is refused (--no-color, NO_COLOR); None lets the renderer
    decide."""
    return False if getattr(args, "no_color", False) or os.environ.get("NO_COLOR") else None


def language(args, machine: bool = False) -> str:
    """Choose the language to speak: ``--lang``, else the environment as gettext reads it; for
    output that programs read (``machine``), English, which no machine's locale changes."""
    from referee.util.i18n import UnknownLanguage, choose_language

    try:
        return choose_language(getattr(args, "lang", None), {} if machine else os.environ)
    except UnknownLanguage as err:
        raise UsageError(str(err)) from None


class ProgressBar:
    """A ProgressBar shows ``total`` steps on a terminal's standard error, and nothing
    elsewhere."""

    def __init__(self, total: int, what: str, shown: bool = True):
        self.bar = None
        if shown and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(transient=True, console=Console(stderr=True))
            self.task = self.bar.add_task(what, total=total)
            self.bar.start()

    def advance(self) -> None:
        if self.bar is not None:
            self.bar.advance(self.task)

    def passing(self, items):
        """Yield ``items`` as they come, a step for each."""
        for item in items:
            yield item
            self.advance()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


_EXIT_BY_VERDICT = {"clean": EXIT_CLEAN, "violations": EXIT_VIOLATIONS,
                    "unreadable": EXIT_UNREADABLE}


def iter_inputs(paths: list[str], notes: set[str]) -> Iterator[str]:
    """Yield the files to check: each path named, and the files :func:`files_in` finds in
    each folder named; those found that may be notes (``.txt``) are added to ``notes``."""
    from referee.run.bulk import LOG_SUFFIXES, NOTES_SUFFIX, files_in

    for raw in paths:
        if raw == "-" or not Path(raw).is_dir():
            yield raw
            continue
        found = files_in(Path(raw))
        if not found:
            raise UsageError(f"{raw}: no log files ({', '.join(LOG_SUFFIXES)}) or JSON game "
                             "records in this directory")
        notes.update(str(file) for file in found if file.suffix == NOTES_SUFFIX)
        yield from map(str, found)


# each of these formats is one document for the whole run, written as the reports come
_DOCUMENT_WRITERS = {"json": ("referee.output.render", "write_json"),
                     "sarif": ("referee.output.sarif", "write_sarif"),
                     "github": ("referee.output.github", "write_github")}


def run_check(args) -> int:
    from importlib import import_module

    from referee.output import render
    from referee.run import bulk
    from referee.run.cluster import ClusterUnavailable, check_on_cluster

    if args.jobs < 0:
        raise UsageError("--jobs must be 0 (one per core) or more")
    if not 0 < args.timeout <= bulk.MAX_TIMEOUT:  # (also refuses nan and inf)
        raise UsageError(f"--timeout must be a positive number of seconds, at most "
                         f"{bulk.MAX_TIMEOUT:g} (a week), not {args.timeout:g}")
    jobs = args.jobs or bulk.default_jobs()
    notes: set[str] = set()
    passed: list[str] = []
    verdicts: Counter[str] = Counter()
    paths: Iterable[str] = iter_inputs(args.paths, notes)
    counted = sys.stderr.isatty() and args.format != "text"  # (a bar for the files counted)
    if counted:
        paths = list(paths)
    if args.max_diagnostics < 1:
        raise UsageError("--max-diagnostics must be 1 or more")
    # people read the text; programs read the rest, whose messages follow --lang alone
    lang = language(args, machine=args.format != "text")
    rules, folders = ruleset_choice(args)
    check = partial(bulk.check_one, invariants=args.invariants,
                    max_diagnostics=args.max_diagnostics, ruleset=rules, allowed_dirs=folders)
    progress = ProgressBar(len(paths) if counted else 0, "checking",
                           shown=counted and len(paths) >= 20)
    try:
        if args.scheduler:
            stream = check_on_cluster(paths, args.scheduler, invariants=args.invariants,
                                      timeout=args.timeout, max_diagnostics=args.max_diagnostics,
                                      ruleset=rules)
        else:
            stream = bulk.check_many(paths, jobs=jobs, timeout=args.timeout, check=check)
        reports = progress.passing(bulk.passing_over(stream, notes, passed, verdicts))
        if args.format in _DOCUMENT_WRITERS:  # streamed: one report in memory at a time
            module, writer = _DOCUMENT_WRITERS[args.format]
            getattr(import_module(module), writer)(reports, sys.stdout, lang)
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
            print(render.tally_line(verdicts, lang))
    except ClusterUnavailable as err:  # the command's problem, not a file's
        raise UsageError(str(err)) from None
    finally:
        progress.close()
    return max((_EXIT_BY_VERDICT[v] for v in verdicts), default=EXIT_CLEAN)


def _read(path: str, reading):
    """Apply ``reading`` to the file's bytes, or return None when it cannot be read (said on
    stderr)."""
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
    from referee.log.recognise import looks_like_record
    from referee.log.writer import format_text

    if args.write and args.path == "-":
        raise UsageError("--write rewrites a file: name one (standard input has none)")
    text = _read(args.path, decode_log)
    if text is None:
        return EXIT_UNREADABLE
    if looks_like_record(text):  # printed as its log, as ``convert --to log`` writes it
        from referee.run.convert import convert_file

        if args.write:
            raise UsageError(f"{args.path} is a JSON game record: fmt prints it as a log, and "
                             "--write would replace the record with that log; `referee convert "
                             f"{args.path} -o FILE.log` writes the log to another file")
        return convert_file(args.path, None, "log", sys.stdout, sys.stderr, text=text)
    canonical, issues = format_text(text)
    for issue in issues:
        print(escaped(f"{args.path}:{issue.line}:{issue.column}: CH001 syntax  {issue.message}"),
              file=sys.stderr)
    if args.write:
        from referee.util.files import RefusedWrite, write_parts

        try:  # a read-only file is replaced, as its folder allows
            write_parts(args.path, (canonical,), follow_symlinks=args.follow_symlinks,
                        link_advice="--follow-symlinks rewrites the file it points to",
                        replace_read_only=True)
        except RefusedWrite as err:
            raise UsageError(str(err)) from None
        except OSError as err:
            raise UsageError(f"{args.path}: cannot write: {err.strerror or err}") from None
    else:
        sys.stdout.write(shown_to(sys.stdout)(canonical))
    return EXIT_VIOLATIONS if issues else EXIT_CLEAN


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
    from referee.judge import codes
    from referee.log.parser import log_text
    from referee.output.render import diagnostic_line, localized_diagnostic
    from referee.proofs.audit import open_sheet
    from referee.proofs.budgets import AUDIT_SECONDS

    if args.solutions < 1:
        raise UsageError("--solutions must be 1 or more")
    seconds = AUDIT_SECONDS if args.timeout is None else args.timeout
    if not 0 < seconds <= 7 * 24 * 3600:  # also refuses nan
        raise UsageError(f"--timeout must be a number of seconds above 0 and at most a week, "
                         f"not {args.timeout}")
    # read the sheet a block at a time: the setup's events now (a log that is not one is said
    # here), the hands when audited
    sheet = _read(args.path, lambda data: open_sheet(log_text(data), args.path))
    if sheet is None:
        return EXIT_UNREADABLE
    rules, folders = ruleset_choice(args)
    audit = sheet.audit(ruleset=rules, allowed_dirs=folders, max_solutions=args.solutions,
                        seconds=seconds)
    speak = language(args)
    # what the audit assumed instead, and the lines it could not read and left out
    faults = [d for d in audit.findings.items if d.kind == codes.BAD_SETUP]
    faults += sheet.unreadable.items
    for diag in sorted(faults, key=lambda d: (d.line, d.column)):
        print(diagnostic_line(args.path, localized_diagnostic(diag, speak)), file=sys.stderr)
    if audit.table is None or audit.result is None:
        raise UsageError(f"{args.path}: the log has no Players tag")
    print(translate(audit.result.text(), speak))
    return EXIT_CLEAN if audit.result.consistent and not faults else EXIT_VIOLATIONS


def run_explain(args) -> int:
    """Explain a kind (by code or name) with the clauses it may cite; a clause (``R5.2``,
    ``5.2``, ``R5``) with the kinds that cite it; or the clauses and kinds on a topic
    (``kitty``)."""
    from referee.judge.codes import all_codes, lookup
    from referee.rules.rulebook import clause_id

    lang = language(args)
    if args.code is None:
        for code in all_codes():
            print(f"{code.code}  {code.kind:<24} {code.clause:<6} {translate(code.summary, lang)}")
        return EXIT_CLEAN
    code = lookup(args.code)
    if code is not None:
        _explain_kind(code, lang)
    elif (wanted := clause_id(args.code)) is not None:
        _explain_clause(wanted, lang)
    else:
        _explain_topic(args.code, lang)
    return EXIT_CLEAN


def _explain_kind(code, lang: str) -> None:
    from referee.rules.rulebook import clause_blocks

    # TRANSLATORS: {severity} is error, warning or note, as the JSON output writes it
    head = (msg("{severity}, rule {clause}; also {also}", severity=code.severity,
                clause=code.clause, also=", ".join(code.also)) if code.also
            else msg("{severity}, rule {clause}", severity=code.severity, clause=code.clause))
    print(f"{code.code} {code.kind} ({translate(head, lang)})\n")
    print(translate(msg("What: {summary}.", summary=translate(code.summary, lang)), lang))
    print(translate(msg("Why: {why}", why=translate(code.why, lang)), lang))
    print(translate(msg("Example:"), lang) + f"\n    {code.example}")
    for cited in code.clauses:
        where = (msg("Rule {clause} (spec/rules.md):", clause=cited) if cited == code.clause
                 else msg("Rule {clause} (spec/rules.md, where it is more precise):",
                          clause=cited))
        print(f"\n{translate(where, lang)}")
        found = clause_blocks(cited, lang)
        if found is None:
            print(translate(msg("(not in the rulebook)"), lang))
        else:
            _quote(found)


def _explain_clause(wanted: str, lang: str) -> None:
    from referee.judge.codes import all_codes
    from referee.rules.rulebook import clause_blocks

    found = clause_blocks(wanted, lang)
    if found is None:
        raise UsageError(f"spec/rules.md has no clause {wanted}; `referee rules --book` "
                         "prints the rulebook")
    print(translate(msg("Rule {clause} (spec/rules.md):", clause=wanted), lang))
    _quote(found)
    print()
    citing = [c for c in all_codes() if wanted in c.clauses]
    kinds = ", ".join(translate(msg("{code} {kind} (its default)", code=c.code, kind=c.kind),
                                lang) if c.clause == wanted else f"{c.code} {c.kind}"
                      for c in citing)
    print(translate(msg("Cited by: {kinds}", kinds=kinds) if citing
                    else msg("No diagnostic kind cites {clause}.", clause=wanted), lang))


def _explain_topic(topic: str, lang: str) -> None:
    """Print the clauses on ``topic`` (one is quoted whole), and the kinds whose summary names
    it."""
    from referee.judge.codes import all_codes
    from referee.rules.rulebook import clause_title, find_clauses, matches

    found = find_clauses(topic)
    kinds = [c for c in all_codes()
             if matches(topic, f"{c.kind} {c.summary} {translate(c.summary, lang)}")]
    if not found and not kinds:
        raise UsageError(f"unknown code, kind, clause or topic {topic!r}; `referee explain` "
                         "lists the codes, `referee rules --book` the clauses")
    shown = escaped(topic)
    if len(found) == 1:
        _explain_clause(found[0], lang)
    elif found:
        print(translate(msgn("{n} clause on {topic}:", "{n} clauses on {topic}:", len(found),
                             n=len(found), topic=shown), lang))
        for ident in found:
            print(f"  {ident:<6} {clause_title(ident, lang)}")
        print(translate(msg("`referee explain {clause}` quotes a clause.", clause=found[0]),
                        lang))
    if kinds:
        print(translate(msg("Diagnostic kinds on {topic}: {kinds}", topic=shown, kinds=", ".join(
            f"{c.code} {c.kind}" for c in kinds)), lang))


def _quote(found) -> None:
    """Print a clause's paragraphs: on a terminal in bold and italics, else as plain text."""
    from referee.rules.rulebook import plain

    if getattr(sys.stdout, "isatty", lambda: False)():
        styled(found, sys.stdout, terminal=True)
    else:
        print(plain(found))


_STYLES = {"strong": "bold", "em": "italic", "code": "bold cyan"}


def styled(found, stream, terminal: bool | None = None) -> None:
    """Write a clause's paragraphs with rich, a note indented under its clause; ``terminal``
    forces styles on (True) or off (False)."""
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    console = Console(file=stream, force_terminal=terminal, highlight=False)
    for block in found:
        text = Text("- " if block.depth else "")
        for piece, mark in block.pieces:
            text.append(piece, style=_STYLES.get(mark))
        console.print(Padding(text, (0, 0, 0, 2 * block.depth)) if block.depth else text)


def run_rules(args) -> int:
    from dataclasses import fields

    from referee.rules.options import OPTION_DOCS
    from referee.rules.ruleset_files import RulesetError, bundled_names
    from referee.rules.ruleset import load_ruleset

    if args.book:
        from referee.rules.rulebook import rulebook_text

        sys.stdout.write(rulebook_text(language(args)))
        return EXIT_CLEAN
    name = args.ruleset or "cancellation"
    try:
        rules = load_ruleset(name)
    except RulesetError as err:
        raise UsageError(str(err)) from None
    print(escaped(f"ruleset {rules.name}  (bundled: {', '.join(bundled_names())})"))
    for field in fields(rules):
        value = getattr(rules, field.name)
        shown = ", ".join(value) if isinstance(value, tuple) else \
            str(value).lower() if isinstance(value, bool) else value
        print(escaped(f"  {field.name:<30} {shown!s:<22} # {OPTION_DOCS[field.name]}"))
    print(f"  {'(derived) points per hand':<30} {rules.points_per_hand}")
    return EXIT_CLEAN
