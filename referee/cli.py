"""This module holds the command line's argument table and exit codes only; each command is a
function of the parsed arguments, ``run_NAME`` in the module ``_COMMANDS`` names.

Exit codes, like a linter: 0 clean, 1 violations found, 2 unreadable input or a usage error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable

from referee.judge.table import DEFAULT_MAX_DIAGNOSTICS
from referee.rules.options import OnFault
from referee.run.commands import EXIT_CLEAN, EXIT_UNREADABLE, UsageError
from referee.util.terminal import escaped


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee",
                                     description="Referee for Cancellation Hearts logs.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check",
                                help="check logs against the rules and report every violation")
    check.add_argument("paths", nargs="+", metavar="FILE",
                       help="log files, directories, or - for stdin")
    check.add_argument("--format", choices=("text", "json", "jsonl", "sarif", "github"),
                       default="text")
    check.add_argument("--no-color", action="store_true", help="no colour even on a terminal")
    _language_option(check)
    check.add_argument("--show-clean", action="store_true",
                       help="text: print the report of a clean file too (the tally counts it)")
    check.add_argument("--invariants", action="store_true",
                       help="also prove the invariants with z3 (slower)")
    check.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                       help="check files in N worker processes (0: one per core)")
    check.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS",
                       help="with --jobs or --scheduler: give up on a file after this long")
    check.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="check on an existing Dask cluster (tcp://HOST:8786; "
                            "needs referee[dask])")
    check.add_argument("--max-diagnostics", type=int, default=DEFAULT_MAX_DIAGNOSTICS, metavar="N",
                       help="of each kind, show N diagnostics per file and count the rest "
                            f"(default {DEFAULT_MAX_DIAGNOSTICS})")
    _ruleset_options(check)

    fmt = commands.add_parser("fmt",
                              help="print a log (a JSON game record: as its log) in canonical form")
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
    _language_option(report)
    _ruleset_options(report)

    generate = commands.add_parser("generate", help="write reproducible legal games (logs or "
                                   "JSON game records)")
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
    generate.add_argument("--count", type=int, default=None, metavar="N",
                          help="write N games into the folder -o DIR (game i from a seed derived "
                               "from --seed and i), with a manifest.json")
    generate.add_argument("--format", dest="form", choices=("log", "json"), default="log",
                          help="write logs (default) or JSON game records")
    generate.add_argument("--situation", default=None,
                          choices=("moon", "set-aside-first", "set-aside-last", "kitty-pickup",
                                   "kitty-delayed", "tie"),
                          help="steer each game towards this rare situation (docs/generate.md "
                               "states how often each is reached)")
    generate.add_argument("-o", "--output", default=None, metavar="FILE-or-DIR")

    corpus = commands.add_parser("corpus", help="write a conformance corpus with expected verdicts")
    corpus.add_argument("directory", metavar="DIR")
    corpus.add_argument("--count", type=int, default=50)
    corpus.add_argument("--seed", type=int, default=1)
    corpus.add_argument("--quiet", "-q", action="store_true",
                        help="no progress lines on stderr (none either when it is not a terminal)")

    verify = commands.add_parser("verify-rules", help="prove properties of a ruleset with z3")
    verify.add_argument("ruleset", nargs="?", default=None, metavar="RULESET")
    verify.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="z3 time for each property (default 120); past it the property is "
                             "undecided (exit 1)")

    audit = commands.add_parser("audit", help="find the smallest corrections of a scoresheet (z3)")
    audit.add_argument("path", metavar="FILE")
    audit.add_argument("--solutions", type=int, default=3,
                       help="list up to this many minimal fixes")
    audit.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                       help="time for the answer (default 10); past it the audit is said to be "
                            "not decided (exit 1)")
    _language_option(audit)
    _ruleset_options(audit)

    convert = commands.add_parser("convert", help="logs to JSON game records, or back")
    convert.add_argument("paths", nargs="+", metavar="FILE",
                         help="one file (- for stdin), or several with -o DIR")
    convert.add_argument("-o", "--output", default=None, metavar="OUT-or-DIR",
                         help="the file to write; with several files (or an existing folder), "
                              "the folder each is written into as NAME.json or NAME.log")
    convert.add_argument("--to", choices=("json", "log"), default=None,
                         help="the format to write (default: the other one)")

    explain = commands.add_parser("explain", help="explain a diagnostic code or kind, quote a "
                                  "rule clause (R5.2), or list the clauses on a topic (kitty)")
    explain.add_argument("code", nargs="?", metavar="CODE-or-KIND-or-CLAUSE-or-WORD")
    _language_option(explain)

    match = commands.add_parser("match", help="play seeded games between programs, checking "
                                "every move (spec/protocol.md)")
    match.add_argument("programs", nargs="+", metavar="CMD",
                       help="a program's command line, quoted (one process per seat; seat s is "
                       "played by CMD number s mod the number of CMDs)")
    match.add_argument("--games", type=int, default=10, metavar="N")
    match.add_argument("--players", type=int, default=None, metavar="N",
                       help="seats per game (default: the ruleset's fewest)")
    match.add_argument("--ruleset", default="cancellation", metavar="NAME-or-FILE")
    match.add_argument("--seed", default="1",
                       help="the match's seed: the same seed, the same deals")
    match.add_argument("--duplicate", action="store_true",
                       help="play each deal once per rotation of the seats")
    match.add_argument("--time-per-move", type=int, default=1000, metavar="MS")
    match.add_argument("--jobs", type=int, default=1, metavar="N", help="games in parallel")
    match.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="play the games on this Dask cluster (each command must run on its "
                       "workers, from this folder)")
    match.add_argument("--conformance", action="store_true",
                       help="also ask each program its legal cards, trick outcomes and scores")
    match.add_argument("--on-fault", default=OnFault.FORFEIT, choices=tuple(OnFault),
                       help="forfeit: a faulty program loses the game; play: the referee plays "
                       "legal cards for it from there on")
    match.add_argument("--max-hands", type=int, default=200, metavar="N",
                       help="stop a game that has not ended after N hands")
    match.add_argument("-o", "--output", default=None, metavar="DIR",
                       help="write each game's log (and the positions of differences) here")
    match.add_argument("--record", action="store_true",
                       help="with -o, also each game's JSON record")
    match.add_argument("--format", choices=("text", "json"), default="text")
    serve = commands.add_parser("serve", help="a web page to check logs from a phone or a laptop "
                                "(needs referee[serve])")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (0.0.0.0: every network of this machine, "
                            "such as a club's Wi-Fi; default 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1, metavar="N",
                       help="server processes (behind a reverse proxy)")
    serve.add_argument("--forwarded-allow-ips", default="127.0.0.1", metavar="IPS",
                       help="proxies whose X-Forwarded-* headers are trusted (default 127.0.0.1)")

    rules = commands.add_parser("rules", help="print a ruleset's options or the rulebook")
    rules.add_argument("ruleset", nargs="?", default=None)
    rules.add_argument("--book", action="store_true",
                       help="print the whole rulebook (spec/rules.md; "
                            "with --lang its clauses in that language, spec/rules.LANG.md)")
    _language_option(rules)
    return parser


def _language_option(command: argparse.ArgumentParser) -> None:
    command.add_argument("--lang", default=None, metavar="it|de|fr|uk|en",
                         help="the language of the text people read (default: LANGUAGE, "
                         "LC_ALL, LC_MESSAGES, LANG; English)")


def _ruleset_options(command: argparse.ArgumentParser) -> None:
    """Add the options by which the user, not the log, reaches a ruleset file outside the
    log's folder."""
    command.add_argument("--ruleset", metavar="FILE-or-NAME", default=None,
                         help="check every log with this ruleset, whatever its [Ruleset] tag says")
    command.add_argument("--allow-ruleset-dir", action="append", default=[], metavar="DIR",
                         help="a log may also name ruleset files under DIR (repeatable)")


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
        return command(args.command)(args)
    except UsageError as err:
        print(escaped(f"referee: {err}"), file=sys.stderr)
        return EXIT_UNREADABLE
    except BrokenPipeError:
        return EXIT_CLEAN
    except KeyboardInterrupt:
        return 130


# _COMMANDS names each command's module, imported only when it runs; its function is run_NAME
_COMMANDS = {**dict.fromkeys(("check", "fmt", "replay", "report", "convert", "generate", "corpus",
                              "verify-rules", "audit", "explain", "rules"), "referee.run.commands"),
             "match": "referee.run.cmd_match", "serve": "referee.serve.app"}


def command(name: str) -> Callable[[argparse.Namespace], int]:
    """Return the function that runs command ``name`` (its module imported now, not at
    start-up)."""
    return getattr(importlib.import_module(_COMMANDS[name]), "run_" + name.replace("-", "_"))
