"""Manage the translation catalogs with Babel.

    python scripts/i18n.py extract   # referee/locale/referee.pot from the source's msg()/msgn()
                                     # (Python and the report's Jinja2 template)
    python scripts/i18n.py update    # merge the template into every language's .po
    python scripts/i18n.py compile   # .po -> .mo beside it (the package build does this too)
    python scripts/i18n.py check     # every message translated, with the same placeholders

A translator edits ``referee/locale/LANG/LC_MESSAGES/referee.po`` (any .po editor) after
``extract`` and ``update``; ``check`` is what tests/test_translations.py asserts.
"""

from __future__ import annotations

import argparse
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "referee" / "locale"
TEMPLATE = LOCALE / "referee.pot"
DOMAIN = "referee"
TRANSLATED = ("it", "de", "fr", "uk")
# msg(template, **args); msgn(singular, plural, count, **args); N_(text) marks a fixed text
KEYWORDS = {"msg": None, "msgn": (1, 2), "N_": None}
# the report's template marks its texts with the same names, msg("...") and msgn(...)
METHODS = [("**.py", "python"), ("**/templates/**.j2", "jinja2.ext:babel_extract")]


def extracted() -> Catalog:
    """Every message the source marks, as a Babel catalog (the template)."""
    found = Catalog(project="referee", domain=DOMAIN, charset="utf-8")
    for filename, line, message, comments, context in extract_from_dir(
            ROOT / "referee", METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True):
        found.add(message, locations=[(f"referee/{filename}", line)],
                  auto_comments=comments, context=context)
    # the code table's texts are data, not calls: `explain` and the report translate them
    sys.path.insert(0, str(ROOT))
    from referee.judge.codes import all_codes

    for code in all_codes():
        for text in (code.summary, code.why):
            found.add(text, locations=[("referee/judge/codes.py", 0)],
                      auto_comments=[f"{code.code} {code.kind}"])
    return found


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(language: str) -> Catalog:
    with po_path(language).open("rb") as handle:
        return read_po(handle, locale=language)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(language: str, template: Catalog) -> list[str]:
    """What is wrong with one language's catalog: untranslated, fuzzy or obsolete-only
    entries, and translations whose placeholders differ from their source."""
    found, out = read_catalog(language), []
    for source in template:
        if not source.id:
            continue
        entry = found.get(source.id, context=source.context)
        label = source.id if isinstance(source.id, str) else source.id[0]
        if entry is None or entry.fuzzy or not _complete(entry.string):
            out.append(f"{language}: no translation for {label!r}")
            continue
        wanted = placeholders(label if isinstance(source.id, str) else source.id[1]) | \
            placeholders(label)
        for text in (entry.string if isinstance(entry.string, tuple) else (entry.string,)):
            if placeholders(text) - wanted or (wanted - placeholders(text)) - {"n"}:
                out.append(f"{language}: {label!r} -> {text!r}: the placeholders differ")
    return out


def _complete(text) -> bool:
    return all(text) if isinstance(text, tuple) else bool(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("extract", "update", "compile", "check"))
    action = parser.parse_args(argv).action
    template = extracted()
    if action == "extract":
        TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
        with TEMPLATE.open("wb") as handle:
            write_po(handle, template, omit_header=False, sort_output=True, width=100)
        print(f"{len(template)} messages written to {TEMPLATE.relative_to(ROOT)}")
    elif action == "update":
        for language in TRANSLATED:
            path = po_path(language)
            found = read_catalog(language) if path.exists() else Catalog(locale=language,
                                                                          domain=DOMAIN)
            found.update(template, update_header_comment=False)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as handle:
                write_po(handle, found, sort_output=True, width=100, ignore_obsolete=True)
            print(f"{path.relative_to(ROOT)} updated")
    elif action == "compile":
        for language in TRANSLATED:
            with po_path(language).with_suffix(".mo").open("wb") as handle:
                write_mo(handle, read_catalog(language), use_fuzzy=False)
    else:
        found = [p for language in TRANSLATED for p in problems(language, template)]
        for problem in found:
            print(problem)
        print(f"{len(template)} messages, {len(found)} problems")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
