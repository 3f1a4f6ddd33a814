"""This module reads the rulebook: spec/rules.md and its translations, shipped as package data.

It gives the whole book, one clause or section by its id, and the clauses on a topic.  A clause
is read once as blocks of ``(text, mark)`` pieces (:func:`clause_blocks`), which plain text,
safe HTML and the terminal render.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache
from itertools import takewhile
from typing import NamedTuple

from referee.util.i18n import LANGUAGES, SOURCE_LANGUAGE
from referee.util.spec import spec_text

STRONG, EM, CODE = "strong", "em", "code"
Piece = tuple[str, str]  # (text, mark); mark is STRONG, EM, CODE or ""


class Block(NamedTuple):
    """A Block holds one paragraph of a clause: ``depth`` 0 for the clause (or a section's
    heading and titles), 1 for a note nested under it; its text as marked pieces."""

    depth: int
    pieces: tuple[Piece, ...]


def book_file(lang: str = SOURCE_LANGUAGE) -> str:
    """Name the rulebook's file in ``lang``: ``rules.md`` in English, else ``rules.it.md``."""
    return "rules.md" if lang == SOURCE_LANGUAGE else f"rules.{lang}.md"


@lru_cache(maxsize=len(LANGUAGES))
def rulebook_text(lang: str = SOURCE_LANGUAGE) -> str:
    """Read the rulebook in ``lang`` (one of :data:`referee.util.i18n.LANGUAGES`) from the
    installed package, or from the source checkout."""
    if lang not in LANGUAGES:
        raise ValueError(f"no rulebook in {lang!r}")
    return spec_text(book_file(lang))


_ID = re.compile(r"R?(\d+)(?:\.(\d+))?", re.IGNORECASE)


def clause_id(text: str) -> str | None:
    """Read ``text`` as a clause or section id (``5.2``, ``r5.2`` -> ``R5.2``; ``R5``), or
    return None if it does not look like one (whether the rulebook defines it is
    :func:`clause`'s answer)."""
    found = _ID.fullmatch(text.strip())
    if found is None:
        return None
    section, number = found.groups()
    return f"R{int(section)}" + (f".{int(number)}" if number else "")


_HEAD = re.compile(r"^- \*\*(R\d+\.\d+)\*\*")


@lru_cache(maxsize=len(LANGUAGES))
def _clauses(lang: str) -> dict[str, str]:
    """Map each clause id to its markdown (its list item and the lines nested under it), in
    book order."""
    lines = rulebook_text(lang).splitlines()
    found: dict[str, str] = {}
    for index, line in enumerate(lines):
        head = _HEAD.match(line)
        if head is None:
            continue
        nested = takewhile(lambda follow: follow.startswith("  ") and follow.strip(),
                           lines[index + 1:])
        found.setdefault(head.group(1), "\n".join([line, *nested]))
    return found


def clause_ids(lang: str = SOURCE_LANGUAGE) -> list[str]:
    """List the ids of the clauses the rulebook in ``lang`` defines, in book order."""
    return list(_clauses(lang))


def clause(clause_id: str, lang: str = SOURCE_LANGUAGE) -> str | None:
    """Return the markdown of one clause (its list item with nested lines), or of a section
    (``R5``: its heading and the title of each of its clauses), in ``lang``; None if the
    rulebook does not define it.  A translation that lacks a clause gives the English one."""
    if "." not in clause_id:
        text = _section(rulebook_text(lang).splitlines(), clause_id)
    else:
        text = _clauses(lang).get(clause_id)
    if text is None and lang != SOURCE_LANGUAGE:
        return clause(clause_id)
    return text


_TITLE = re.compile(r"^- \*\*R\d+\.\d+\*\* \*[^*]*\*")


def _section(lines: list[str], section_id: str) -> str | None:
    heading = f"## {section_id} "
    for index, line in enumerate(lines):
        if line.startswith(heading):
            rest = takewhile(lambda follow: not follow.startswith("## "), lines[index + 1:])
            titles = [title.group(0) for title in map(_TITLE.match, rest) if title]
            return "\n".join([line, *titles])
    return None


# ---- the marked text of a clause ------------------------------------------------------------

_ITEM = re.compile(r"^( *)- (.*)$")
_MARK = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*|`([^`]+)`")


def pieces(markdown: str) -> tuple[Piece, ...]:
    """Split one paragraph's inline markdown into marked pieces: ``**strong**``, ``*em*``,
    ```code```; anything else is text as written."""
    out: list[Piece] = []
    at = 0
    for found in _MARK.finditer(markdown):
        if found.start() > at:
            out.append((markdown[at:found.start()], ""))
        strong, em, code = found.groups()
        out.append((strong, STRONG) if strong is not None else
                   (em, EM) if em is not None else (code, CODE))
        at = found.end()
    if at < len(markdown):
        out.append((markdown[at:], ""))
    return tuple(out)


def blocks(markdown: str) -> list[Block]:
    """Split a clause's (or a section's) markdown into paragraphs: each list item with the
    lines that continue it joined by spaces; a section's heading is one strong paragraph."""
    paragraphs: list[tuple[int, list[str]]] = []
    for line in markdown.splitlines():
        item = _ITEM.match(line)
        if line.startswith("## "):
            paragraphs.append((0, [f"**{line[3:].strip()}**"]))
        elif item:
            paragraphs.append((min(len(item.group(1)) // 2, 1), [item.group(2).strip()]))
        elif paragraphs:
            paragraphs[-1][1].append(line.strip())
    return [Block(depth, pieces(" ".join(words))) for depth, words in paragraphs]


def clause_blocks(clause_id: str, lang: str = SOURCE_LANGUAGE,
                  notes: bool = True) -> list[Block] | None:
    """Return a clause (or section) in ``lang`` as marked paragraphs; without ``notes``, only
    the clause itself (no *Why* or *Options*).  None if the rulebook does not define it."""
    text = clause(clause_id, lang)
    if text is None:
        return None
    found = blocks(text)
    return found if notes else [b for b in found if b.depth == 0]


def plain(found: list[Block]) -> str:
    """Write marked paragraphs as plain text: one line each, a note indented as ``  - ``."""
    return "\n".join(("  - " if block.depth else "") + "".join(t for t, _ in block.pieces)
                     for block in found)


def clause_plain(clause_id: str, lang: str = SOURCE_LANGUAGE) -> str | None:
    """Return a clause in ``lang`` as plain text, without markdown; None if it is not
    defined."""
    found = clause_blocks(clause_id, lang)
    return None if found is None else plain(found)


def _html_pieces(marked: tuple[Piece, ...]) -> str:
    # the text is escaped first: it can never make a tag; a mark is its tag's name
    return "".join(f"<{mark}>{html.escape(text)}</{mark}>" if mark else html.escape(text)
                   for text, mark in marked)


def render_html(found: list[Block]) -> str:
    """Render marked paragraphs as safe HTML: the text escaped, then only ``<strong>``,
    ``<em>`` and ``<code>`` added; the notes follow as ``<ul class="notes">``."""
    own = " ".join(_html_pieces(b.pieces) for b in found if b.depth == 0)
    extra = [f"<li>{_html_pieces(b.pieces)}</li>" for b in found if b.depth]
    return own + (f'<ul class="notes">{"".join(extra)}</ul>' if extra else "")


def clause_quote(clause_id: str, lang: str = SOURCE_LANGUAGE) -> dict[str, str]:
    """Quote a clause as a page shows it, in ``lang``: ``{"id", "title", "text", "html"}``,
    the text without its id, title and notes; "" each when the rulebook does not define it."""
    found = clause_blocks(clause_id, lang, notes=False)
    if not found:
        return {"id": clause_id, "title": "", "text": "", "html": ""}
    title, marked = "", list(found[0].pieces)
    shown = [piece for piece in marked if piece[0].strip()]
    if len(shown) > 1 and shown[0][1] == STRONG and shown[1][1] == EM:  # **R6.6** *Title.*
        title, marked = shown[1][0].strip(), marked[marked.index(shown[1]) + 1:]
    body = [Block(0, tuple(marked)), *found[1:]]
    return {"id": clause_id, "title": title, "text": plain(body).strip(),
            "html": render_html(body).strip()}


def clause_title(clause_id: str, lang: str = SOURCE_LANGUAGE) -> str:
    """Return a clause's title in ``lang`` (``Set-aside last trick``), "" when it has none."""
    return clause_quote(clause_id, lang)["title"].rstrip(".")


# ---- clauses by topic -----------------------------------------------------------------------

_FOLD = str.maketrans({"œ": "oe", "æ": "ae", "ʼ": "'", "’": "'", "-": " ", "_": " "})


def _folded(text: str) -> str:
    """Fold ``text`` as a topic is looked for in it: case, accents, hyphens and runs of spaces
    do not count (``Set-aside`` is ``set aside``, ``Cœur`` is ``coeur``)."""
    text = unicodedata.normalize("NFKD", text.casefold().translate(_FOLD))
    text = "".join(char for char in text if not unicodedata.combining(char))
    return " ".join(text.split())


@lru_cache(maxsize=1)
def _topic_index() -> dict[str, list[tuple[str, str, str]]]:
    """Map each clause id to (title, the clause's own text, its notes) folded, in every
    language."""
    index: dict[str, list[tuple[str, str, str]]] = {}
    for lang in LANGUAGES:
        for ident in _clauses(lang):
            found = clause_blocks(ident, lang) or []
            own = plain([b for b in found if b.depth == 0])
            rest = plain([b for b in found if b.depth])
            index.setdefault(ident, []).append(
                (_folded(clause_title(ident, lang)), _folded(own), _folded(rest)))
    return index


MIN_TOPIC = 3  # letters: a shorter word would find nearly every clause


def find_clauses(topic: str) -> list[str]:
    """Find the clauses on ``topic`` in any language, those whose title has it first, then
    text, then notes.  A word matches a word of the clause it starts; when nothing matches, the
    topic is tried again a letter shorter, down to five letters (``місяць`` finds ``місяця``)."""
    wanted = _folded(topic)
    if len(wanted.replace(" ", "")) < MIN_TOPIC:
        return []
    while True:
        found = _ranked(wanted)
        if found or len(wanted) <= 5:
            return found
        wanted = wanted[:-1].rstrip()


def _pattern(wanted: str) -> re.Pattern:
    return re.compile(rf"(?<!\w){re.escape(wanted)}")


def matches(topic: str, text: str) -> bool:
    """Tell whether ``text`` is on ``topic`` as :func:`find_clauses` reads a clause (a word of
    it starts with the topic, case, accents and hyphens aside), tried once as written."""
    wanted = _folded(topic)
    return len(wanted.replace(" ", "")) >= MIN_TOPIC and bool(
        _pattern(wanted).search(_folded(text)))


def _ranked(wanted: str) -> list[str]:
    pattern = _pattern(wanted)
    ranked = []
    for order, (ident, versions) in enumerate(_topic_index().items()):
        ranks = [rank for title, own, rest in versions
                 for rank, text in enumerate((title, own, rest)) if pattern.search(text)]
        if ranks:
            ranked.append((min(ranks), order, ident))
    return [ident for _, _, ident in sorted(ranked)]
