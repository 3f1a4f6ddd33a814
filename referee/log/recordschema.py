"""The schema of a JSON game record (spec/game-record.schema.json) and its problems in words.

:func:`valid` says quickly whether a piece of a record is valid (``jsonschema-rs``, some two
hundred times faster than ``jsonschema`` on a record of megabytes); :func:`problems` asks
``jsonschema`` about a piece it refuses, for messages in the project's words."""

from __future__ import annotations

import json
from importlib import resources
from operator import attrgetter
from pathlib import Path

from referee.log.jsontext import Places, pointer
from referee.util.message import msg, msgn
from referee.util.record import Record, record

__all__ = ["DESCRIPTIONS", "MAX_PROBLEMS", "RecordProblem", "capped", "problems", "schema",
           "shown", "valid"]

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


_STATE: dict[tuple[str, bool], object] = {}  # the validators, made on first use


def _validator(part: str, quick: bool):
    """A validator of a record with its hands as an empty list (``part`` "record") or of one
    hand.  ``quick``: jsonschema-rs's ``is_valid``; else jsonschema's ``iter_errors``, which
    alone says what is wrong."""
    key = (part, quick)
    if key not in _STATE:
        whole = schema()
        part_schema = whole if part == "record" else {
            "$schema": whole["$schema"], "$defs": whole["$defs"],
            **whole["properties"]["hands"]["items"]}
        if quick:
            import jsonschema_rs

            _STATE[key] = jsonschema_rs.validator_for(part_schema).is_valid
        else:
            from jsonschema import Draft202012Validator

            _STATE[key] = Draft202012Validator(part_schema).iter_errors
    return _STATE[key]


def valid(part: str, value: object) -> bool:
    """jsonschema-rs's yes or no: is ``value`` a valid record without its hands (``part``
    "record", its ``hands`` an empty list when an array) or a valid hand ("hand")."""
    try:
        return _validator(part, True)(value)
    except Exception:  # noqa: BLE001 - a value it cannot take: jsonschema is asked
        return False


def problems(part: str, value: object, places: Places, prefix: tuple = ()) -> list[RecordProblem]:
    """jsonschema's problems of ``value``, a record without its hands or a hand (``part``)
    at ``prefix``, placed in the text by ``places``."""
    found, seen = [], set()
    for error in _validator(part, False)(value):
        for path, message in _problems(error, tuple(error.absolute_path)):
            if (path, message) not in seen:  # 1e400 is both not an integer and too large
                seen.add((path, message))
                found.append(placed(places, prefix + path, message))
    return found


def placed(places: Places, path: tuple, message: str) -> RecordProblem:
    """A problem of the value at ``path`` of the record."""
    span = places.span(path)
    return RecordProblem(span.line, span.column, span.end_line, span.end_column, message,
                         pointer(path))


_DESCRIBED = {"type", "pattern", "not", "const", "enum", "anyOf", "minimum", "maximum",
              "minLength"}


def capped(found: list[RecordProblem]) -> list[RecordProblem]:
    """The first :data:`MAX_PROBLEMS` problems in the order of the text, then one that counts
    the rest."""
    found = sorted(found, key=attrgetter("line", "column", "message"))
    if len(found) > MAX_PROBLEMS:
        rest = len(found) - MAX_PROBLEMS
        last = found[MAX_PROBLEMS - 1]
        found = found[:MAX_PROBLEMS] + [RecordProblem(
            last.line, last.column, last.end_line, last.end_column,
            msgn("and {n} more problem", "and {n} more problems", rest, n=rest), last.pointer)]
    return found


def _problems(error, path: tuple) -> list[tuple[tuple, str]]:
    """(path, message) of each problem of one error: an unknown member is named at its own
    place, one problem each."""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        # TRANSLATORS: {name} is the member's name as JSON writes it ("colour")
        return [((*path, name), msg("unknown member {name} (spec/game-record.md lists the "
                                    "members)", name=shown(name)))
                for name in error.instance if name not in known]
    if error.validator == "anyOf":
        # a branch that took the value's kind and failed inside it (a Players array with one
        # bad name) says more than "not any of these": its problems, each at its own place
        deeper = [sub for sub in error.context or () if sub.path]
        if deeper:
            return [found for sub in deeper for found in _problems(sub, (*path, *sub.path))]
    return [(path, _message(error))]


def shown(value: object) -> str:
    """A value for a message: JSON's own text, shortened; a container by its kind."""
    if isinstance(value, dict):
        return msg("an object")
    if isinstance(value, list):
        return msg("an array")
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _message(error) -> str:
    """One problem in plain words, never quoting more than a short piece of the value."""
    description = error.schema.get("description") if isinstance(error.schema, dict) else None
    if error.validator in _DESCRIBED and description:
        # TRANSLATORS: {value} is the JSON value (or "an object"), {what} what it should be
        return msg("{value} is not {what}", value=shown(error.instance),
                   what=DESCRIPTIONS.get(description, description))
    if error.validator == "minItems":
        return msgn("an empty list here; at least {n} item is needed",
                    "an empty list here; at least {n} items are needed",
                    error.validator_value, n=error.validator_value)
    if error.validator == "minProperties":
        return msg("an empty hand object records nothing")
    if error.validator == "maxProperties":
        return msg("a comment stands either above or beside a statement, not both")
    if error.validator == "required":
        missing = [name for name in error.validator_value if name not in error.instance]
        # TRANSLATORS: {name} is the member's name as JSON writes it ("cards")
        return msg("the member {name} is missing here",
                   name=shown(missing[0] if missing else "?"))
    if error.validator == "dependentRequired":
        return msg("a hand with a dealer or a pass direction needs its number (the hand line)")
    message = error.message
    # TRANSLATORS: {problem} is the schema validator's own English words; leave it as it is
    return msg("{problem}", problem=message if len(message) <= 200 else message[:199] + "…")


# The schema's descriptions (spec/game-record.schema.json, which a test holds to this table),
# as messages: "... is not a card: a rank 2-10, ...".
DESCRIPTIONS = {text: text for text in (
    msg("One game as data, statement by statement as a written log has it "
        "(spec/game-record.md)."),
    msg('the string "referee-game-record"'),
    msg("1, the version of the format this schema describes"),
    msg("a string on one line (no line break, no NUL)"),
    msg("a player's name: a non-empty string on one line (no line break, no NUL)"),
    msg("a card: a rank 2-10, J, Q, K or A, then a suit S, H, D or C (10S, QH)"),
    msg("a whole number from 0 to 999999999"),
    msg("a whole number of points, at most nine digits, may be negative"),
    msg("the JSON pointer of a statement in this record (/hands/0/tricks/3)"),
    msg("a tag name: a letter or _, then letters, digits, _ or -"),
    msg("a string on one line, or (for Players) the names in seating order"),
    msg("a pass direction: left, right, across, hold (or none), or 'N left' / 'N right'"),
    msg("the player claimed to win the trick, or null: claimed set aside"),
    msg("subtract or add"),
)}

