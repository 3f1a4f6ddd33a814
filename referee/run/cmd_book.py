"""``referee explain`` and ``referee rules``: the code table, the rulesets and the rulebook."""

from __future__ import annotations

import sys

from referee.run.usage import EXIT_CLEAN, UsageError


def run_explain(args) -> int:
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
    print(f"ruleset {rules.name}  (bundled: {', '.join(bundled_names())})")
    for field in fields(rules):
        value = getattr(rules, field.name)
        shown = ", ".join(value) if isinstance(value, tuple) else str(value).lower() if isinstance(value, bool) else value
        print(f"  {field.name:<30} {shown!s:<22} # {OPTION_DOCS[field.name]}")
    print(f"  {'(derived) points per hand':<30} {rules.points_per_hand}")
    return EXIT_CLEAN
