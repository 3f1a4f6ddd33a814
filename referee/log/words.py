"""This module reads and writes the words of a log line: player names (quoting and unquoting),
tag names, and the names inside a statement's head or claim token."""

from __future__ import annotations

import re

# NAME_PATTERN is the NAME terminal of grammars/log.lark (a test checks that they agree): a word
# that starts with a letter, or a string in straight double quotes with \" and \\ escapes, or
# in typographic ones (no escapes).
_BARE = r"[^\W\d_](?:[\w'’\u0300-\u036f]|-(?!>))*"
QUOTED_PATTERN = r'(?:"(?:[^"\\\n]|\\.)*"|“[^”\n]*”)'
NAME_PATTERN = rf"(?:{_BARE}|\"(?:[^\"\\\n]|\\.)*\"|“[^”\n]*”)"
NAME_RE = re.compile(NAME_PATTERN)
BARE_NAME_RE = re.compile(_BARE)
QUOTES = ('"', "“")  # what a quoted name or value starts with
_ESCAPE_RE = re.compile(r"\\(.)")
_BLANKS = r"[^\S\n]*"
ARROW_PATTERN = r"(?:->|=>|→|⇒)"  # ARROW in the grammar
ARROW_RE = re.compile(ARROW_PATTERN)
# The words for nobody after an arrow (any case), in English and the rulebooks' languages; a
# player so called is quoted there.
NOBODY = ("none", "nobody", "nessuno", "niemand", "personne", "ніхто")

# These cut pieces of the coarse head and claim tokens (the grammar has already checked their
# shape).
PASS_HEAD = re.compile(
    rf"[^\W\d]+{_BLANKS}({NAME_PATTERN})(?:{_BLANKS}{ARROW_PATTERN}{_BLANKS}({NAME_PATTERN}))?")
HEAD_NUMBER_NAME = re.compile(rf"[^\W\d]+{_BLANKS}([0-9]+){_BLANKS}({NAME_PATTERN})")
# PLAYER_WORD matches a name in the value of a [Players "..."] tag: in single or double quotes,
# straight or typographic, or a run of characters up to a blank, a comma or a semicolon.
PLAYER_WORD = re.compile(
    r"""['‘]([^'‘’]+)['’](?=[\s,;]|$)|["“]([^"“”]+)["”](?=[\s,;]|$)|([^\s,;]+)""")
# The words that join the last two names of a list ("Eve and Fay") in the languages of the
# rulebooks; in a list written with commas, one followed by a name without a comma is no name.
AND = frozenset({"and", "&", "e", "ed", "und", "et", "y", "та", "і", "й"})
TAG_NAME_RE = re.compile(r"(?!(?i:player)(?![\w\-]))[^\W\d][\w\-]*")  # TAG_NAME in the grammar


# token -> name; bounded (cleared when full); racing threads store equal values
NAME_CACHE: dict[str, str] = {}


def name_value(token: str) -> str:
    """Return the player name a NAME token stands for: quotes removed, escapes resolved,
    shared."""
    cached = NAME_CACHE.get(token)
    if cached is not None:
        return cached
    token = str(token)  # a lark Token is a str subclass: events hold plain str
    value = unquote(token) if token.startswith(QUOTES) else token
    if len(NAME_CACHE) > 50_000:
        NAME_CACHE.clear()
    NAME_CACHE[token] = value
    return value


def unquote(token: str) -> str:
    """Return the text of a quoted string token: straight quotes with escapes, or typographic."""
    if token.startswith("“"):
        return token[1:-1]
    return _ESCAPE_RE.sub(r"\1", token[1:-1])


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def needs_quotes(name: str) -> bool:
    """Tell whether ``name`` must be written in double quotes (spaces, punctuation, 'none',
    ...)."""
    return BARE_NAME_RE.fullmatch(name) is None or name.casefold() in NOBODY


def shown(text: str, limit: int = 24) -> str:
    """Shorten text for a message: 'Charlie', 'AS KS 10S …'."""
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pass_head(value: str) -> tuple[str, int, str | None, int]:
    """Find the NAME tokens and offsets of a ``deal Al:`` or ``pass Al -> Beth:`` head (the
    recipient absent: None, -1)."""
    m = PASS_HEAD.match(value)
    return m.group(1), m.start(1), m.group(2), m.start(2)


def claim_player(claim: str) -> str | None:
    """Return the player of a ``-> Dave`` claim (any arrow); None for ``-> none`` or ``-> nobody``
    (bare, any case)."""
    name = claim[1 if claim[0] in "→⇒" else 2 :].strip()
    if name.casefold() in NOBODY:
        return None
    return name_value(name)


def split_players(value: str) -> list[str]:
    """Split the names of a ``[Players "..."]`` tag: they are separated by blanks (or commas or
    semicolons); a name with spaces is in single or double quotes: ``Al 'Mary Ann' "Jo Jo"``.
    O'Neil needs no quotes.  As a list is written by hand, ``Al, Beth, Eve and Fay`` is four
    names, and a full stop after the last name (and no other) is not part of it."""
    found = list(PLAYER_WORD.finditer(value))
    names = [m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None
             else m.group(3) for m in found]
    if re.search(r"[,;]", value):
        names = [name for i, (m, name) in enumerate(zip(found, names))
                 if not (m.group(3) and name.casefold() in AND and i + 1 < len(found)
                         and not re.search(r"[,;]", value[m.end():found[i + 1].start()]))]
    if found and found[-1].group(3) and names[-1].endswith(".") and len(names[-1]) > 1 \
            and not any(name.endswith(".") for name in names[:-1]):
        names[-1] = names[-1][:-1]
    return names
