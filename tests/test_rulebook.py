"""The rulebook (spec/rules.md) keeps every clause the code cites and documents every option."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from referee.rules.options import OPTION_DOCS
from referee.rules.ruleset import load_ruleset

ROOT = Path(__file__).parents[1]
RULEBOOK = ROOT / "spec" / "rules.md"
# Where the package's code and data live: referee/ and the referee.grammars package dir.
SOURCE_DIRS = (ROOT / "referee", ROOT / "grammars")
SOURCE_SUFFIXES = {".py", ".toml", ".lark"}

CITATION = re.compile(r"R\d+\.\d+")
DEFINITION = re.compile(r"^- \*\*(R\d+\.\d+)\*\* ", re.MULTILINE)

REQUIRED_CLAUSES = {
    1: 4,   # table and cards
    2: 4,   # deal
    3: 3,   # passing
    4: 6,   # leading
    5: 4,   # following
    6: 7,   # winning and cancellation
    7: 4,   # scoring
    8: 5,   # the moon
    9: 4,   # end
    10: 6,  # the record
}
REQUIRED_IDS = [f"R{section}.{n}" for section, count in REQUIRED_CLAUSES.items()
                for n in range(1, count + 1)]


@pytest.fixture(scope="module")
def text() -> str:
    return RULEBOOK.read_text("utf-8")


@pytest.fixture(scope="module")
def defined(text: str) -> Counter:
    return Counter(DEFINITION.findall(text))


def cited_ids() -> dict[str, list[str]]:
    """Every clause id cited in the package source, with the files citing it."""
    found: dict[str, list[str]] = {}
    for folder in SOURCE_DIRS:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                continue
            for clause in set(CITATION.findall(path.read_text("utf-8", errors="replace"))):
                found.setdefault(clause, []).append(str(path.relative_to(ROOT)))
    return found


def option_table(text: str) -> dict[str, tuple[str, str, str, str]]:
    """Rows of the table in the "## Options" section: option -> (cancellation, standard, doc, clauses)."""
    section = text.split("\n## Options", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"`\w+`", cells[0]):
            rows[cells[0].strip("`")] = tuple(cells[1:])
    return rows


def toml_value(cell: str):
    literal = cell.strip()
    assert literal.startswith("`") and literal.endswith("`"), f"value {cell!r} is not a `literal`"
    value = tomllib.loads(f"v = {literal[1:-1]}")["v"]
    return tuple(value) if isinstance(value, list) else value


@pytest.mark.parametrize("clause", REQUIRED_IDS)
def test_required_clause_defined_exactly_once(defined: Counter, clause: str) -> None:
    assert defined[clause] == 1, f"{clause} is defined {defined[clause]} times in {RULEBOOK}"


def test_no_clause_defined_twice(defined: Counter) -> None:
    assert [clause for clause, count in defined.items() if count > 1] == []


def test_clause_definitions_are_in_their_sections(text: str) -> None:
    section = None
    for line in text.splitlines():
        heading = re.match(r"## R(\d+) ", line)
        if heading:
            section = heading.group(1)
        definition = DEFINITION.match(line)
        if definition:
            assert definition.group(1).split(".")[0] == f"R{section}", line


def test_every_cited_clause_is_defined(defined: Counter) -> None:
    cited = cited_ids()
    assert cited, "no clause citations found in the package source; is the search path right?"
    missing = {clause: files for clause, files in cited.items() if clause not in defined}
    assert missing == {}, f"clauses cited by the code but missing from {RULEBOOK}: {missing}"


def test_every_clause_cited_in_the_rulebook_is_defined(text: str, defined: Counter) -> None:
    assert sorted(set(CITATION.findall(text)) - set(defined)) == []


def test_every_option_is_in_the_table(text: str) -> None:
    table = option_table(text)
    assert sorted(set(OPTION_DOCS) - set(table)) == []
    assert sorted(set(table) - set(OPTION_DOCS)) == [], "table lists options the code does not know"


@pytest.mark.parametrize("ruleset_name, column", [("cancellation", 0), ("standard", 1)])
def test_option_table_values_match_the_bundled_rulesets(text: str, ruleset_name: str, column: int) -> None:
    ruleset = load_ruleset(ruleset_name)
    table = option_table(text)
    wrong = {
        option: (row[column], getattr(ruleset, option))
        for option, row in table.items()
        if option in OPTION_DOCS and toml_value(row[column]) != getattr(ruleset, option)
    }
    assert wrong == {}, f"Options table disagrees with {ruleset_name}.toml: {wrong}"


def test_option_table_names_defined_clauses(text: str, defined: Counter) -> None:
    for option, row in option_table(text).items():
        clauses = CITATION.findall(row[3])
        assert clauses, f"option {option} names no clause"
        assert all(clause in defined for clause in clauses), (option, clauses)


def test_points_per_hand_is_derived_and_stated(text: str) -> None:
    # R7.2: 52 for two decks, 26 for one; the design note's "26x2+13x2" (78) is named and rejected.
    assert load_ruleset("cancellation").points_per_hand == 52
    assert load_ruleset("standard").points_per_hand == 26
    assert "78" in text and "26×2+13×2" in text


def test_required_sections_present(text: str) -> None:
    for heading in ("## Contradictions in the source texts", "## The standard ruleset", "## Options",
                    "## Worked examples"):
        assert heading in text


def test_a_clause_id_is_read_as_people_type_it() -> None:
    from referee.rules.rulebook import clause_id

    assert [clause_id(text) for text in ("R5.2", "5.2", "r5.2", " R10.5 ", "R05.02", "R5")] == [
        "R5.2", "R5.2", "R5.2", "R10.5", "R5.2", "R5"]
    assert [clause_id(text) for text in ("revoke", "R5.", "5.2.1", "", "R")] == [None] * 5


def test_a_section_is_its_heading_and_the_titles_of_its_clauses() -> None:
    from referee.rules.rulebook import clause

    assert clause("R3") == ("## R3 Passing\n- **R3.1** *Three cards.*\n- **R3.2** *Simultaneous.*\n"
                            "- **R3.3** *Direction.*")
    assert clause("R99") is None and clause("R3.9") is None
