"""The schema of a JSON game record (spec/game-record.schema.json) and its problems in words.

:func:`schema_problems` validates a decoded record with ``jsonschema`` and turns each error
into a :class:`RecordProblem`: the place of the faulty value (line and column, from the
decoder's table) and its JSON pointer, with a message that never quotes more than a short
piece of the value.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from referee.log.events import Span
from referee.log.jsontext import Positions, escape_pointer
from referee.util.record import Record, record

__all__ = ["MAX_PROBLEMS", "Places", "RecordProblem", "schema", "schema_problems", "shown"]

MAX_PROBLEMS = 100  # an invalid record lists this many problems, then counts the rest


@record
class RecordProblem(Record):
    """One thing wrong with a record: where (1-based, columns in characters) and its pointer."""

    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    pointer: str | None  # None where the text is not JSON at all

    def __init__(self, line: int, column: int, end_line: int, end_column: int, message: str,
                 pointer: str | None) -> None:
        self._fill(line, column, end_line, end_column, message, pointer)


def schema() -> dict:
    """The JSON Schema of a record, from the installed package or the source checkout."""
    try:
        source = resources.files("referee.spec").joinpath("game-record.schema.json")
        return json.loads(source.read_text("utf-8"))
    except (ModuleNotFoundError, FileNotFoundError):  # a source checkout, not installed
        path = Path(__file__).resolve().parents[2] / "spec" / "game-record.schema.json"
        return json.loads(path.read_text("utf-8"))


_STATE: dict[str, object] = {}  # the validator, made on first use and never changed


def _validator():
    validator = _STATE.get("validator")
    if validator is None:
        from jsonschema import Draft202012Validator

        validator = _STATE["validator"] = Draft202012Validator(schema())
    return validator


class Places:
    """Where each value of one decoded record is, as spans."""

    def __init__(self, text: str, where: dict[str, tuple[int, int]]) -> None:
        self.where = where
        self.positions = Positions(text)

    def span(self, pointer: str) -> Span:
        start, end = self.where.get(pointer, (0, 0))
        line, column = self.positions.at(start)
        end_line, end_column = self.positions.at(end)
        return Span(line, column, end_line, end_column)

    def problem(self, pointer: str, message: str) -> RecordProblem:
        span = self.span(pointer)
        return RecordProblem(span.line, span.column, span.end_line, span.end_column, message,
                             pointer)


_DESCRIBED = {"type", "pattern", "not", "const", "enum", "anyOf", "minimum", "maximum",
              "minLength"}


def schema_problems(document: object, places: Places) -> list[RecordProblem]:
    found, seen = [], set()
    for error in _validator().iter_errors(document):
        pointer = "".join("/" + escape_pointer(str(part)) for part in error.absolute_path)
        for at, message in _problems(error, pointer):
            if (at, message) not in seen:  # 1e400 is both not an integer and too large
                seen.add((at, message))
                found.append(places.problem(at, message))
    found.sort(key=lambda p: (p.line, p.column, p.message))
    if len(found) > MAX_PROBLEMS:
        rest = len(found) - MAX_PROBLEMS
        last = found[MAX_PROBLEMS - 1]
        found = found[:MAX_PROBLEMS] + [RecordProblem(
            last.line, last.column, last.end_line, last.end_column,
            f"and {rest} more problem{'s' * (rest != 1)}", last.pointer)]
    return found


def _problems(error, pointer: str) -> list[tuple[str, str]]:
    """(pointer, message) of each problem of one error: an unknown member is named at its
    own place, one problem each."""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        return [(f"{pointer}/{escape_pointer(name)}",
                 f"unknown member {shown(name)} (spec/game-record.md lists the members)")
                for name in error.instance if name not in known]
    return [(pointer, _message(error))]


def shown(value: object) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _message(error) -> str:
    """One problem in plain words, never quoting more than a short piece of the value."""
    description = error.schema.get("description") if isinstance(error.schema, dict) else None
    if error.validator in _DESCRIBED and description:
        return f"{shown(error.instance)} is not {description}"
    if error.validator == "minItems":
        return f"an empty list here; at least {error.validator_value} item is needed"
    if error.validator == "minProperties":
        return "an empty hand object records nothing"
    if error.validator == "maxProperties":
        return "a comment stands either above or beside a statement, not both"
    if error.validator == "required":
        missing = [name for name in error.validator_value if name not in error.instance]
        return f"the member {shown(missing[0] if missing else '?')} is missing here"
    if error.validator == "dependentRequired":
        return "a hand with a dealer or a pass direction needs its number (the hand line)"
    message = error.message
    return message if len(message) <= 200 else message[:199] + "…"

