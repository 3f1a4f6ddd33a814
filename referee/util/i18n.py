"""The players' languages: gettext catalogs, the language to use, and translating messages.

The catalogs' sources are ``referee/locale/LANG/LC_MESSAGES/referee.po`` (managed with Babel:
``python scripts/i18n.py``).  Building the package compiles them to ``.mo`` files beside the
sources (setup.py); a source checkout that has no ``.mo`` compiles the ``.po`` in memory once.
English is the source language and needs no catalog.  A message missing from a catalog is
shown in English, never dropped.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping
from functools import cache
from importlib import resources

from referee.util.message import Message

DOMAIN = "referee"
SOURCE_LANGUAGE = "en"
LANGUAGES = ("en", "it", "de", "fr", "uk")  # English first: the default
# The environment variables gettext consults, in its order of precedence.
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def N_(text: str) -> str:
    """``text`` itself, marked for the catalogs: a fixed text (a heading, a word of a
    table) kept in a constant and translated where it is shown."""
    return text


class UnknownLanguage(ValueError):
    """A language asked for by name that has no catalog."""


def choose_language(asked: str | None, environ: Mapping[str, str]) -> str:
    """The language to speak: ``asked`` (``--lang``) when given, else the first supported
    language the environment names as gettext reads it; English when none is supported.

    ``asked`` must be one of :data:`LANGUAGES` (a usage error otherwise); an environment
    that names an unsupported language (``LANG=pt_BR.UTF-8``) falls back to English."""
    if asked is not None:
        code = _code(asked)
        if code not in LANGUAGES:
            raise UnknownLanguage(f"no translation for {asked!r}: choose one of "
                                  f"{', '.join(LANGUAGES)}")
        return code
    for variable in LANGUAGE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        # LANGUAGE is a priority list (it:de); the others name one locale (de_DE.UTF-8)
        for part in value.split(":"):
            code = _code(part)
            if code in LANGUAGES:
                return code
        if variable != "LANGUAGE":
            return SOURCE_LANGUAGE  # the locale gettext would use has no catalog here
    return SOURCE_LANGUAGE


def _code(locale_name: str) -> str:
    """``de_DE.UTF-8@euro`` -> ``de``; ``C`` and ``POSIX`` are English."""
    base = locale_name.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    code = base.split("_")[0]
    return SOURCE_LANGUAGE if code in ("c", "posix") else code


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The translations for ``language``; for English, or a language without a catalog,
    the identity."""
    if language == SOURCE_LANGUAGE or language not in LANGUAGES:
        return gettext.NullTranslations()
    folder = resources.files("referee") / "locale" / language / "LC_MESSAGES"
    compiled = folder / f"{DOMAIN}.mo"
    if compiled.is_file():
        return gettext.GNUTranslations(io.BytesIO(compiled.read_bytes()))
    source = folder / f"{DOMAIN}.po"
    if not source.is_file():
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compile_po(source.read_bytes())))


def compile_po(po_bytes: bytes) -> bytes:
    """A ``.po`` catalog compiled to ``.mo`` bytes (Babel reads and writes both formats);
    fuzzy entries are left out, as msgfmt does."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    parsed = read_po(io.BytesIO(po_bytes))
    out = io.BytesIO()
    write_mo(out, parsed, use_fuzzy=False)
    return out.getvalue()


def translate(text: str, language: str) -> str:
    """``text`` in ``language`` (see :func:`translated`); English is the text itself."""
    if language == SOURCE_LANGUAGE:
        return text
    return translated(text, catalog(language))


def translated(text: str, found: gettext.NullTranslations) -> str:
    """``text`` through the catalog ``found``: a :class:`Message` is looked up by its template
    and filled with its arguments (those that are messages translated too); a plain string
    is looked up as it is (for fixed texts: headings, the code table)."""
    if not isinstance(text, Message):
        return found.gettext(text) if text else text
    if text.plural is not None:
        template = found.ngettext(text.template, text.plural, text.number or 0)
    else:
        template = found.gettext(text.template)
    # only arguments that are messages are words to translate: a player may be named "hold"
    args = {name: translated(value, found) if isinstance(value, Message) else value
            for name, value in text.args.items()}
    try:
        return template.format_map(args)
    except (KeyError, IndexError, ValueError):
        # a catalog entry whose placeholders do not match its source: English, not a crash
        return str(text)
