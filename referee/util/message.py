"""Messages that can be shown in another language.

A diagnostic's text is written once, in English, as a template with named placeholders:
``msg("{player} played {card}", player="Beth", card="9H")``.  The result is an ordinary
``str`` (the English text, so every renderer, test and JSON field reads it as before) that
also remembers its template and arguments; a renderer asked for another language looks the
template up in that language's catalog (:mod:`referee.util.i18n`) and fills it again.

Arguments that are themselves words (a suit's name, a clause of a sentence) are passed as
messages too, so they are translated with the sentence.  Babel's extractor finds the
templates by the names ``msg`` and ``msgn`` (see ``[tool.referee-i18n]`` in pyproject.toml).
"""

from __future__ import annotations

from typing import Self


class Message(str):
    """The English text of a message, with the template and arguments it was made from."""

    template: str
    plural: str | None
    number: int | None  # chose singular or plural (not `count`, which would hide str.count)
    args: dict

    def __new__(cls, template: str, args: dict, plural: str | None = None,
                count: int | None = None) -> Self:
        chosen = plural if plural is not None and count != 1 else template
        self = super().__new__(cls, chosen.format_map(args) if args else chosen)
        self.template, self.plural, self.number, self.args = template, plural, count, args
        return self

    def __reduce__(self):
        # str's own pickling would call Message(text) and lose the template (--jobs pickles
        # every report between processes)
        return (Message, (self.template, self.args, self.plural, self.number))


def msg(template: str, /, **args) -> Message:
    """A message: ``template`` with ``{name}`` placeholders filled from ``args``."""
    return Message(template, args)


def msgn(singular: str, plural: str, count: int, /, **args) -> Message:
    """A message whose wording depends on a number (``{n} point`` / ``{n} points``): the
    number is ``count``, and the catalogs choose among their language's plural forms."""
    return Message(singular, args, plural, count)
