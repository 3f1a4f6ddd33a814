"""``referee explain`` and ``referee rules``: the code table, the rulesets and the rulebook."""

from __future__ import annotations

import sys

from referee.run.usage import EXIT_CLEAN, UsageError, language
from referee.util.i18n import translate
from referee.util.message import msg
from referee.util.terminal import escaped


def run_explain(args) -> int:
    """A kind (by code or name) with every clause it may cite, quoted; or a clause (``R5.2``,
    ``5.2``, a section ``R5``), quoted, with the kinds that cite it."""
    from referee.check.codes import all_codes, lookup
    from referee.rules.rulebook import clause, clause_id

    lang = language(args)
    if args.code is None:
        for code in all_codes():
            print(f"{code.code}  {code.kind:<24} {code.clause:<6} {translate(code.summary, lang)}")
        return EXIT_CLEAN
    code = lookup(args.code)
    if code is None:
        wanted = clause_id(args.code)
        if wanted is None:
            raise UsageError(f"unknown code, kind or clause {args.code!r}; `referee explain` "
                             "lists the codes, `referee rules --book` the clauses")
        text = clause(wanted)
        if text is None:
            raise UsageError(f"spec/rules.md has no clause {wanted}; `referee rules --book` "
                             "prints the rulebook")
        print(translate(msg("Rule {clause} (spec/rules.md):", clause=wanted), lang)
              + f"\n{text}\n")
        citing = [c for c in all_codes() if wanted in c.clauses]
        kinds = ", ".join(translate(msg("{code} {kind} (its default)", code=c.code, kind=c.kind),
                                    lang) if c.clause == wanted else f"{c.code} {c.kind}"
                          for c in citing)
        print(translate(msg("Cited by: {kinds}", kinds=kinds) if citing
                        else msg("No diagnostic kind cites {clause}.", clause=wanted), lang))
        return EXIT_CLEAN
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
        text = clause(cited) or translate(msg("(not in the rulebook)"), lang)
        print(f"\n{translate(where, lang)}\n{text}")
    return EXIT_CLEAN


def run_rules(args) -> int:
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
    print(escaped(f"ruleset {rules.name}  (bundled: {', '.join(bundled_names())})"))
    for field in fields(rules):
        value = getattr(rules, field.name)
        shown = ", ".join(value) if isinstance(value, tuple) else str(value).lower() if isinstance(value, bool) else value
        print(escaped(f"  {field.name:<30} {shown!s:<22} # {OPTION_DOCS[field.name]}"))
    print(f"  {'(derived) points per hand':<30} {rules.points_per_hand}")
    return EXIT_CLEAN
