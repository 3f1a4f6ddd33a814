"""`validate_record`: whether a record reads back, said as `read_record` says it, without holding
its events; and `convert`'s refusal of a log whose record cannot hold a value, which uses it, in
memory that grows with the text (about 9 MB per MB of log, where reading the record's events
back cost about 37)."""

from __future__ import annotations

import pytest
from peak_memory import CLI, growth, played_log, run_measured
from record_texts import SCHEMA_CASES, UNSAID_CASES, edited_texts, record

from referee.log.jsonrecord import InvalidRecord, read_record, validate_record


def _problems(read, text: str) -> list[tuple] | None:
    try:
        read(text)
    except InvalidRecord as err:
        return [(p.line, p.column, p.end_line, p.end_column, p.message, p.pointer)
                for p in err.problems]
    return None


def _texts() -> list[str]:
    return ([record(body).decode() for body, _, _ in SCHEMA_CASES + UNSAID_CASES]
            + edited_texts())


@pytest.mark.parametrize("text", _texts())
def test_a_record_is_refused_as_read_record_refuses_it(text):
    assert _problems(validate_record, text) == _problems(read_record, text)


def test_comments_naming_a_hand_s_statements_are_valid_without_the_events():
    text = record('"hands": [{"number": 1, "kitty": []}, {"number": 2, "kitty": ["2C"]}], '
                  '"comments": [{"text": "first", "above": "/hands/1/number"}, '
                  '{"text": "# k", "beside": "/hands/0/kitty"}, {"text": "#last"}]').decode()
    assert read_record(text).events and validate_record(text) is None
    wrong = text.replace('"/hands/0/kitty"', '"/hands/0/deal/0"')
    said = _problems(validate_record, wrong)
    assert said == _problems(read_record, wrong)
    assert [(p[5], p[4][:30]) for p in said] == [("/comments/1/beside",
                                                  "no statement of this record is")]


def test_a_record_that_is_not_an_object_is_refused_at_its_first_character():
    said = _problems(validate_record, "\u00a0{}")
    assert said == _problems(read_record, "\u00a0{}") and (said[0][0], said[0][1]) == (1, 1)


def _refused(hands: int) -> str:
    """A played log whose last hand has a number no record holds."""
    text = played_log(hands)
    at = text.rindex(f"\nhand {hands} ") + 1
    return text[:at] + "hand 8000000000" + text[at + len(f"hand {hands}"):]


@pytest.mark.slow
def test_convert_refuses_a_value_past_the_bounds_in_memory_that_grows_with_the_text(tmp_path):
    # measured: about 9 MB per MB of log (the record's text, the log's, their line starts and
    # each statement's pointer); holding the record's events cost about 37
    def peak(path):
        done = run_measured(CLI, "convert", str(path), "-o", str(tmp_path / "out.json"),
                            check=False)
        assert done.returncode == 1
        return done.peak_mb

    sizes, peaks, slope = growth(tmp_path, _refused, (200, 800), peak)
    assert sizes[1] - sizes[0] > 1  # enough for the growth to stand out of the noise
    assert slope < 20, (sizes, peaks)
    assert not (tmp_path / "out.json").exists()
