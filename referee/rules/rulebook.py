"""The rulebook (spec/rules.md, shipped as package data): whole, or one clause by its id."""

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


def clause(clause_id: str) -> str | None:
    """The text of one clause (its list item with nested lines), or None if it is not defined."""
    lines = rulebook_text().splitlines()
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
