"""``referee convert`` of a log to a JSON record reads the log a block of lines at a time and
writes the record a hand object at a time: the same text wherever the blocks are cut, the
same refusals, and memory that grows with the text, not with the whole file's events."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from line_edits import edit_lines
from peak_memory import CLI, growth, played_log, run_measured

from referee.log.decode import UnreadableLog, decode_log, normalise
from referee.run.convert import ConversionRefused, convert, convert_pieces

pytestmark = pytest.mark.slow  # peak memory of child processes on logs of several megabytes

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples" / "logs").glob("*.log"))
SMALL = [p.read_text("utf-8") for p in EXAMPLES if p.stat().st_size < 6000][:12]

LOG = (
    '[Players "Al Beth Cy"]\n'
    "# before the game\n"
    "hand 1 dealer Al pass left\n"
    "deal Al: 2C 3C  # dealt\n"
    "trick 1: Al 2C, Beth 3C, Cy 4C -> Al\n"
    "kitty: 5C\n"  # after a trick: a further hand object
    "hand 2\n"
    "score: Al 1, Beth 0, Cy 0\n"
    "# the end\n"
)
RECORD = """{
  "format": "referee-game-record",
  "version": 1,
  "tags": [{"name": "Players", "value": ["Al", "Beth", "Cy"]}],
  "hands": [
    {
      "number": 1,
      "dealer": "Al",
      "pass": "left",
      "deal": [{"player": "Al", "cards": ["2C", "3C"]}],
      "tricks": [
        {
          "number": 1,
          "plays": [
            {"player": "Al", "card": "2C"},
            {"player": "Beth", "card": "3C"},
            {"player": "Cy", "card": "4C"}
          ],
          "winner": "Al"
        }
      ]
    },
    {"kitty": ["5C"]},
    {
      "number": 2,
      "score": [
        {"player": "Al", "points": 1},
        {"player": "Beth", "points": 0},
        {"player": "Cy", "points": 0}
      ]
    }
  ],
  "comments": [
    {"text": "# before the game", "above": "/hands/0"},
    {"text": "# dealt", "beside": "/hands/0/deal/0"},
    {"text": "# the end"}
  ]
}
"""


def _streamed(text: str, size: int) -> str:
    from referee.run.convert import _written

    pieces, plain = _written(normalise(text), size)
    assert plain  # every value is one the record holds as it is
    return "".join(pieces)


@pytest.mark.parametrize("size", [1, 30, 1 << 15])
def test_the_record_is_the_same_wherever_the_blocks_are_cut(size):
    assert _streamed(LOG, size) == RECORD
    assert convert(LOG)[0] == RECORD


def test_a_small_record_is_written_on_one_line():
    assert convert("hand 1\n")[0] == (
        '{"format": "referee-game-record", "version": 1, "hands": [{"number": 1}]}\n')


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_each_example_is_written_as_the_whole_log_s_record(path):
    from referee.log.jsonwrite import record_text
    from referee.log.parser import parse_log

    text = decode_log(path.read_bytes())
    parsed = parse_log(text)
    if parsed.issues or all(type(e).__name__ == "Comment" for e in parsed.events):
        pytest.skip("not converted")
    try:
        whole = record_text(parsed.events, parsed.text)
    except ValueError:
        pytest.skip("not recordable")
    assert _streamed(text, 64) == whole
    assert "".join(convert_pieces(text)[0]) == whole


@pytest.mark.parametrize("line, words", [
    ("hand 1234567890", "1234567890 is not a whole number from 0 to 999999999"),
    ("trick 9999999999: Al 2C", "9999999999 is not a whole number from 0 to 999999999"),
    ("hand 1 pass 1234567890 left", '"1234567890 left" is not a pass direction'),
])
def test_a_value_past_the_record_s_bounds_is_refused_as_before(line, words):
    # such a log is made into a record whole and read back: the reader says what is wrong
    with pytest.raises(ConversionRefused) as refused:
        convert("[Players \"Al Beth Cy\"]\nhand 1\n" + "deal Al: 2C\n" * 50 + line + "\n")
    (where_line, column, message), = refused.value.reasons
    assert (where_line, column) == (1, 1)
    assert message.startswith("this log cannot be held exactly in a record: " + words)


def test_points_past_nine_digits_are_refused_at_the_number_as_the_log_s_syntax():
    with pytest.raises(ConversionRefused) as refused:
        convert("[Players \"Al Beth Cy\"]\nhand 1\n" + "deal Al: 2C\n" * 50 + "score: Al 12345678901\n")
    (where_line, column, message), = refused.value.reasons
    assert (where_line, column) == (53, 11)
    assert message.startswith("11 digits is too long for points: write at most nine digits")


def test_an_unreadable_line_or_a_late_tag_is_refused_after_the_whole_log_is_read():
    hands = "".join(f"hand {number}\ndeal Al: 2C\n" for number in range(1, 1001))  # 2,000 lines
    text = hands + "[Event \"late\"]\n" + "zzz\n" + "deal Al: 2C\n"
    with pytest.raises(ConversionRefused) as refused:
        convert(text)
    assert [reason[:2] for reason in refused.value.reasons] == [(2002, 1)]
    with pytest.raises(ConversionRefused) as refused:
        convert(text.replace("zzz\n", ""))
    late = ("a tag after the first statement of the game: a record keeps its tags first "
            "(move it above)")
    assert refused.value.reasons == [(2001, 1, late)]


def test_an_unreadable_line_is_said_before_a_value_past_the_bounds():
    with pytest.raises(ConversionRefused) as refused:
        convert("hand 1234567890\ndeal Al: 2C\nzzz\n")
    assert [reason[:2] for reason in refused.value.reasons] == [(3, 1)]
    assert refused.value.reasons[0][2].startswith("unknown statement 'zzz'")


ODD_LINES = ["", "   ", "# a comment", "#   spaced   ", "zzz what", "hand 1234567890",
             "trick 1234567890: Al 2C", "score: Al 1234567890", "hand 3 pass 1234567890 left",
             'hand 4 dealer "A b" pass 2 left', 'deal "x y": 2C', "winner: Al", "moon Al add",
             "kitty:", '[Event "late"]', "trick 2 Al: 2C 3C -> none", "total: Al -999999999"]


@st.composite
def edited_logs(draw):
    lines = draw(st.sampled_from(SMALL)).splitlines()
    return "\n".join(edit_lines(draw, lines, known=lines[:], odd=ODD_LINES, most=6)) + "\n"


def _outcome(make, text):
    try:
        return make(text)
    except (ConversionRefused, UnreadableLog) as failure:
        return type(failure).__name__, getattr(failure, "reasons", str(failure))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited_logs(), st.sampled_from([1, 80, 1 << 15]))
def test_an_edited_log_is_converted_or_refused_as_the_whole_log_read_back(text, size):
    from referee.run.convert import _record_read_back, _written

    def streamed(text):
        pieces, plain = _written(normalise(text), size)
        return "".join(pieces) if plain else _record_read_back(text)

    assert _outcome(streamed, text) == _outcome(_record_read_back, text)


# ---- memory --------------------------------------------------------------------------------
def test_convert_peak_memory_grows_with_the_text_not_with_its_events(tmp_path):
    # the whole file's events, its record as objects, and the record read back: about 185 MB
    # per MB of log; a hand object at a time: the text, and the record's text (4.6 MB per MB
    # of log) held until it is written, about 6 MB per MB
    sizes, peaks, slope = growth(tmp_path, played_log, (200, 800),
                                 lambda path: run_measured(CLI, "convert", str(path)).peak_mb)
    assert sizes[1] > 1.3  # large enough for the growth to stand out of the noise
    assert slope < 12, (sizes, peaks)



def test_a_value_past_the_records_bounds_is_refused_without_the_whole_logs_events(monkeypatch):
    # a 10-digit hand number: the streamed record is read back and refused with the reader's
    # own words, as the long way refused it, without making the log's events whole
    import referee.run.convert as conversion

    def whole(_text):
        raise AssertionError("the log was converted the long way")

    text = played_log(3) + "hand 1234567890\n"
    with pytest.raises(ConversionRefused) as refused:
        convert(text)
    monkeypatch.setattr(conversion, "_record_read_back", whole)
    with pytest.raises(ConversionRefused) as streamed:
        convert(text)
    assert streamed.value.reasons == refused.value.reasons == [
        (1, 1, "this log cannot be held exactly in a record: 1234567890 is not a whole number "
               "from 0 to 999999999")]
