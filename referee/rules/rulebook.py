"""The rulebook (spec/rules.md, shipped as package data): whole, or one clause or section by
its id."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path


@lru_cache(maxsize=1)
def rulebook_text() -> str:
    """spec/rules.md from the installed package, or from the source checkout."""
    try:
        return resources.files("referee.spec").joinpath("rules.md").read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return (Path(__file__).resolve().parents[2] / "spec" / "rules.md").read_text("utf-8")


_ID = re.compile(r"R?(\d+)(?:\.(\d+))?", re.IGNORECASE)


def clause_id(text: str) -> str | None:
    """``text`` as a clause or section id (``5.2``, ``r5.2`` -> ``R5.2``; ``R5``), or None if
    it does not look like one (whether the rulebook defines it is :func:`clause`'s answer)."""
    found = _ID.fullmatch(text.strip())
    if found is None:
        return None
    section, number = found.groups()
    return f"R{int(section)}" + (f".{int(number)}" if number else "")


def clause(clause_id: str) -> str | None:
    """The text of one clause (its list item with nested lines), or of a section (``R5``: its
    heading and the title of each of its clauses); None if the rulebook does not define it."""
    lines = rulebook_text().splitlines()
    if "." not in clause_id:
        return _section(lines, clause_id)
    head = re.compile(rf"^- \*\*{re.escape(clause_id)}\*\*")
    for index, line in enumerate(lines):
        if head.match(line):
            block = [line]
            for follow in lines[index + 1:]:
                if not follow.startswith("  ") or not follow.strip():
                    break
                block.append(follow)
            return "\n".join(block)
    return None


_TITLE = re.compile(r"^- \*\*R\d+\.\d+\*\* \*[^*]*\*")


def _section(lines: list[str], section_id: str) -> str | None:
    heading = f"## {section_id} "
    for index, line in enumerate(lines):
        if line.startswith(heading):
            block = [line]
            for follow in lines[index + 1:]:
                if follow.startswith("## "):
                    break
                title = _TITLE.match(follow)
                if title:
                    block.append(title.group(0))
            return "\n".join(block)
    return None
