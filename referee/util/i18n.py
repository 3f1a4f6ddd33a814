"""This module speaks the players' languages: it finds gettext catalogs, chooses the language
to use, and translates messages.

A catalog is ``referee/locale/LANG/LC_MESSAGES/referee.mo``, or its ``.po`` compiled in memory
once in a source checkout.  English needs no catalog, and a message a catalog lacks is shown
in English."""

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
# gettext consults these environment variables, in this order of precedence
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def N_(text: str) -> str:
    """Return ``text`` itself, marked for the catalogs: a fixed text translated where it is
    shown."""
    return text


class UnknownLanguage(ValueError):
    """An UnknownLanguage is a language asked for by name that has no catalog."""


def choose_language(asked: str | None, environ: Mapping[str, str]) -> str:
    """Choose the language to speak: ``asked`` (``--lang``, one of :data:`LANGUAGES`) when
    given, else the first supported language the environment names as gettext reads it; else
    English."""
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
    """Shorten a locale name to its language: ``de_DE.UTF-8@euro`` -> ``de``; ``C`` and
    ``POSIX`` are English."""
    base = locale_name.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    code = base.split("_")[0]
    return SOURCE_LANGUAGE if code in ("c", "posix") else code


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """Load the translations for ``language``; the identity for English or without a
    catalog."""
    if language == SOURCE_LANGUAGE or language not in LANGUAGES:
        return gettext.NullTranslations()
    folder = resources.files("referee") / "locale" / language / "LC_MESSAGES"
    compiled, source = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    if compiled.is_file():
        return gettext.GNUTranslations(io.BytesIO(compiled.read_bytes()))
    if not source.is_file():
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compile_po(source.read_bytes())))


def compile_po(po_bytes: bytes) -> bytes:
    """Compile a ``.po`` catalog to ``.mo`` bytes (Babel reads and writes both formats);
    fuzzy entries are left out, as msgfmt does."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    parsed = read_po(io.BytesIO(po_bytes))
    out = io.BytesIO()
    write_mo(out, parsed, use_fuzzy=False)
    return out.getvalue()


def translate(text: str, language: str) -> str:
    """Translate ``text`` into ``language`` (see :func:`translated`); English is the text
    itself."""
    if language == SOURCE_LANGUAGE:
        return text
    return translated(text, catalog(language))


def translated(text: str, found: gettext.NullTranslations) -> str:
    """Translate ``text`` through the catalog ``found``: a :class:`Message` by its template,
    filled with its arguments (those that are messages translated too); a plain string as it
    is."""
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
        # a catalog entry whose placeholders do not match its source gives English, not a crash
        return str(text)
