"""``referee explain`` and ``referee rules``: the code table, the rulesets and the rulebook."""

from __future__ import annotations

import sys

from referee.run.usage import EXIT_CLEAN, UsageError, language
from referee.util.i18n import translate
from referee.util.message import msg, msgn
from referee.util.terminal import escaped


def run_explain(args) -> int:
    """A kind (by code or name) with every clause it may cite, quoted; a clause (``R5.2``,
    ``5.2``, a section ``R5``), quoted, with the kinds that cite it; or the clauses and kinds
    on a topic (``kitty``, ``luna``, ``set aside``).  Clauses are quoted in the reader's
    language, in bold and italics on a terminal and as plain text otherwise."""
    from referee.judge.codes import all_codes, lookup
    from referee.rules.rulebook import clause_id

    lang = language(args)
    if args.code is None:
        for code in all_codes():
            print(f"{code.code}  {code.kind:<24} {code.clause:<6} {translate(code.summary, lang)}")
        return EXIT_CLEAN
    quote = _quoter(sys.stdout)
    code = lookup(args.code)
    if code is not None:
        _explain_kind(code, lang, quote)
        return EXIT_CLEAN
    wanted = clause_id(args.code)
    if wanted is not None:
        _explain_clause(wanted, lang, quote)
        return EXIT_CLEAN
    _explain_topic(args.code, lang, quote)
    return EXIT_CLEAN


def _explain_kind(code, lang: str, quote) -> None:
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
            quote(found)


def _explain_clause(wanted: str, lang: str, quote) -> None:
    from referee.judge.codes import all_codes
    from referee.rules.rulebook import clause_blocks

    found = clause_blocks(wanted, lang)
    if found is None:
        raise UsageError(f"spec/rules.md has no clause {wanted}; `referee rules --book` "
                         "prints the rulebook")
    print(translate(msg("Rule {clause} (spec/rules.md):", clause=wanted), lang))
    quote(found)
    print()
    citing = [c for c in all_codes() if wanted in c.clauses]
    kinds = ", ".join(translate(msg("{code} {kind} (its default)", code=c.code, kind=c.kind),
                                lang) if c.clause == wanted else f"{c.code} {c.kind}"
                      for c in citing)
    print(translate(msg("Cited by: {kinds}", kinds=kinds) if citing
                    else msg("No diagnostic kind cites {clause}.", clause=wanted), lang))


def _explain_topic(topic: str, lang: str, quote) -> None:
    """The clauses on ``topic`` (one is quoted whole), and the kinds whose summary names it."""
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
        _explain_clause(found[0], lang, quote)
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


def _quoter(stream):
    """How a clause's paragraphs reach ``stream``: on a terminal in bold and italics (rich,
    wrapped to its width, each note indented); to a pipe or a file as plain text."""
    from referee.rules.rulebook import plain

    isatty = getattr(stream, "isatty", None)
    if isatty is None or not isatty():
        return lambda found: print(plain(found), file=stream)
    return lambda found: styled(found, stream, terminal=True)


_STYLES = {"strong": "bold", "em": "italic", "code": "bold cyan"}


def styled(found, stream, terminal: bool | None = None) -> None:
    """Write a clause's paragraphs with rich: marks as bold, italic and code styles; a note
    indented under its clause.  ``terminal`` forces styles on (True) or off (False)."""
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
        shown = ", ".join(value) if isinstance(value, tuple) else str(value).lower() if isinstance(value, bool) else value
        print(escaped(f"  {field.name:<30} {shown!s:<22} # {OPTION_DOCS[field.name]}"))
    print(f"  {'(derived) points per hand':<30} {rules.points_per_hand}")
    return EXIT_CLEAN
