"""A JSON game record whose fault is in its structure (between the members of the document or
between its hands: a separator missing, a member name twice, text after the document) is said
at the place of the fault, in the project's words, and costs memory that grows with the record
by a few MB per MB."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peak_memory import growth, run_measured
from record_texts import played_record, three_hands

from referee.log.jsonrecord import InvalidRecord, read_record
from referee.log.jsontext import Places

_TEXT = json.dumps(three_hands(), indent=1)
_GAP = "\n  },\n  {\n"  # between two items of an array of objects, as json.dumps(indent=1)
_NEXT_HAND = '   "number"'  # writes them; a hand's first member follows


def _gaps(text: str) -> list[int]:
    """The offsets of the gaps between hands."""
    found, at = [], -1
    while (at := text.find(_GAP + _NEXT_HAND, at + 1)) >= 0:
        found.append(at)
    return found


assert len(_gaps(_TEXT)) == 2


def _place(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def _said(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(InvalidRecord) as err:
        read_record(text)
    return [(p.line, p.column, p.message) for p in err.value.problems]


def _last_gap(text: str, new: str) -> tuple[str, int]:
    """``text`` with its last gap between hands made ``new``, and the offset of that gap."""
    at = _gaps(text)[-1]
    return text[:at] + new + text[at + len(_GAP):], at


# (the edit, the offset of the fault in the edited text from the gap's offset, the words)
_GAPS = [
    ("\n  }\n  {\n", 7, "not JSON: expected ',' or ']' in this array"),
    ("\n  },\n  ,{\n", 8, "not JSON: expected a value (an object, array, string, number, "
                          "true, false or null)"),
    ("\n  }]\n  {\n", 8, "not JSON: expected ',' or '}' in this object"),
    # the next hand's first name is read as a value, and its colon is not a separator
    ("\n  },\n", 17, "not JSON: expected ',' or ']' in this array"),
]


@pytest.mark.parametrize("new, shift, words", _GAPS)
def test_a_broken_gap_between_hands_is_said_at_its_place(new, shift, words):
    text, at = _last_gap(_TEXT, new)
    assert _said(text) == [(*_place(text, at + shift), words)]


_ENDS = [
    # a member name twice in the document, after the hands
    (lambda t: t[:t.rindex("}")] + ', "format": "x"\n}', lambda t: t.rindex('"format"'),
     "not JSON: the member name 'format' appears twice in this object"),
    # text after the document
    (lambda t: t + "\n{}", lambda t: t.rindex("{"), "not JSON: text after the end of the document"),
    # a comma before the closing brace
    (lambda t: t[:t.rindex("}")] + ",\n}", lambda t: t.rindex("}"),
     "not JSON: expected a member name in double quotes"),
    # no colon after the last member's name
    (lambda t: t[:t.rindex("}")] + ', "note"\n}', lambda t: t.rindex("}"),
     "not JSON: expected ':' after the member name"),
    # a member name with a lone surrogate escape
    (lambda t: t[:t.rindex("}")] + ', "\\udc00": 1\n}', lambda t: t.rindex('\\udc00'),
     "not JSON: a lone low surrogate escape is not a character"),
    # cut short after the last member
    (lambda t: t[:t.rindex("]") + 1] + ",", lambda t: len(t),
     "not JSON: expected a member name in double quotes"),
]


@pytest.mark.parametrize("edit, where, words", _ENDS)
def test_a_fault_in_the_document_s_own_structure_is_said_at_its_place(edit, where, words):
    text = edit(_TEXT)
    assert _said(text) == [(*_place(text, where(text)), words)]


def test_a_member_name_with_a_surrogate_pair_is_a_name_the_schema_then_refuses():
    text = _TEXT[:_TEXT.rindex("}")] + ', "\\ud83d\\ude00": 1\n}'
    assert _said(text) == [(*_place(text, text.rindex("1")), 'unknown member "\N{GRINNING FACE}" '
                            "(spec/game-record.md lists the members)")]


def test_a_fault_inside_a_hand_before_a_broken_gap_is_said_first():
    # the first problem the decoder meets: a NaN in the first hand, before the gap
    text, _ = _last_gap(_TEXT.replace('"number": 1', '"number": NaN', 1), "\n }\n {\n")
    assert _said(text) == [(*_place(text, text.index("NaN")), "not JSON: expected a value (an "
                            "object, array, string, number, true, false or null)")]


def _structure_offsets(text: str) -> list[int]:
    """The offsets of the document's own structure: its braces, the brackets of its hands,
    the commas and colons between its members and between its hands."""
    document = json.loads(text)
    found = [text.index("{"), text.rindex("}")]
    for key in document:
        at = text.index(f'\n "{key}":')
        found += [at + 1, at + len(key) + 4]  # the name, its colon
    found.append(text.index("[", text.index('\n "hands":')))
    found += [at + 4 for at in _gaps(text)]  # the comma between two hands
    return sorted(found)


_OFFSETS = _structure_offsets(_TEXT)
_NEW = st.sampled_from(["", ",", ":", "}", "]", "{", "[", '"', "x", ",,", '"a": 1,', "\\"])


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_OFFSETS), st.booleans(), _NEW), min_size=1,
                max_size=3))
def test_an_edited_structure_is_said_where_json_stops_reading_it(edits):
    text = _TEXT
    for at, replace, new in sorted(set(edits), reverse=True):  # from the end: offsets hold
        text = text[:at] + new + text[at + (1 if replace else 0):]
    try:
        json.loads(text)
        stops = None
    except json.JSONDecodeError as err:
        stops = Places(text).at(err.pos)
    try:
        read_record(text)
        return  # (an edit that leaves a record: a comma replaced by a comma)
    except InvalidRecord as err:
        first = err.problems[0]
    if stops is None:  # JSON, but not a record: a member the schema does not know, or twice
        assert first.pointer is not None or "appears twice" in first.message
    else:  # where Python's json stops reading, or at a name given twice before it
        assert first.pointer is None and first.message.startswith("not JSON: ")
        assert (first.line, first.column) == stops or (
            "appears twice" in first.message and (first.line, first.column) < stops)


def _broken(hands: int) -> str:
    """A record of ``hands`` played hands whose last two hands have no comma between them."""
    return _last_gap(played_record(hands), "\n  }\n  {\n")[0]


CHECK = ("import sys\nfrom referee.judge.walk import judge_path\n"
         "report = judge_path(sys.argv[1])\n"
         "assert report.verdict == 'unreadable', report.verdict\n"
         "assert len(report.diagnostics) == 1, report.diagnostics\n")


@pytest.mark.slow
def test_peak_memory_of_a_record_broken_between_its_last_hands_grows_by_a_few_mb_per_mb(
        tmp_path):
    # measured: about 7 MB per MB, as a valid record's reading; the whole positioned reading
    # (every value's place) cost about 36
    sizes, peaks, slope = growth(tmp_path, _broken, (50, 250),
                                 lambda path: run_measured(CHECK, str(path)).peak_mb,
                                 suffix=".json")
    assert sizes[1] - sizes[0] > 1.5  # enough for the growth to stand out of the noise
    assert slope < 12, (sizes, peaks)
