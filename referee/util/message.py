"""This module makes messages that can be shown in another language.

``msg("{player} played {card}", player="Beth", card="9H")`` is a ``str`` holding the English
text that also remembers its template and arguments, so that a renderer can fill the template
of another language's catalog (:mod:`referee.util.i18n`); arguments that are messages are
translated with it.  Babel's extractor finds the templates by the names ``msg`` and ``msgn``."""

from __future__ import annotations

from typing import Self


class Message(str):
    """A Message holds the English text of a message, with the template and arguments it was
    made from."""

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
    """Make a message: ``template`` with ``{name}`` placeholders filled from ``args``."""
    return Message(template, args)


def msgn(singular: str, plural: str, count: int, /, **args) -> Message:
    """Make a message whose wording depends on a number (``{n} point`` / ``{n} points``): the
    number is ``count``, and the catalogs choose among their language's plural forms."""
    return Message(singular, args, plural, count)
