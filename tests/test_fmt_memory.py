"""``referee fmt`` reads a log a block of lines at a time: its output is the same wherever the
blocks are cut, and its memory grows with the text, not with the whole file's events."""

from __future__ import annotations

import pytest
from peak_memory import CLI, growth, played_log, run_measured

from referee.log.writer import format_pieces, format_text

pytestmark = pytest.mark.slow  # peak memory of child processes on logs of several megabytes

# blank runs, a comment beside a statement and on its own line, an unreadable line, a hand
# without the blank line before it, and blanks at both ends
MESSY = (
    "\n\n[Event   \"Club night\"]\n"
    "[Players \"Al Beth Cy\"]\n"
    "\n\n\n"
    "hand 1 dealer Al pass left\n"
    "deal Al:  2C 3C   # dealt\n"
    "   #   a remark   \n"
    "trick 1: Al 2C , Beth 3C, Cy 4C ->Al\n"
    "zzz not a statement\n"
    "hand 2\n"
    "\n\n"
    "score: Al 1,Beth 0 , Cy 0\n"
    "\n\n"
)
CANONICAL = (
    '[Event "Club night"]\n'
    '[Players "Al Beth Cy"]\n'
    "\n"
    "hand 1 dealer Al pass left\n"
    "deal Al: 2C 3C  # dealt\n"
    "# a remark\n"
    "trick 1: Al 2C, Beth 3C, Cy 4C -> Al\n"
    "zzz not a statement\n"
    "\n"
    "hand 2\n"
    "\n"
    "score: Al 1, Beth 0, Cy 0\n"
)


@pytest.mark.parametrize("size", [1, 40, 100, 1 << 15])
@pytest.mark.parametrize("newline, bom", [("\n", ""), ("\r\n", "\ufeff"), ("\r", "")])
def test_the_canonical_text_is_the_same_wherever_the_blocks_are_cut(size, newline, bom):
    issues: list = []
    text = bom + MESSY.replace("\n", newline)
    assert "".join(format_pieces(text, issues, size)) == CANONICAL
    assert [(issue.line, issue.column) for issue in issues] == [(12, 1)]


def test_format_text_is_its_pieces_joined():
    text, issues = format_text(MESSY)
    assert text == CANONICAL
    assert [issue.line for issue in issues] == [12]


def test_a_log_past_the_issue_limit_keeps_the_lines_not_read_as_written():
    # 1,000 unreadable lines stop the reading: the lines after are kept as they are, in the
    # last block as in the blocks never read
    text = "hand 1\n" + "zzz\n" * 1000 + "trick 1 :  Al 2C\n\n\n" + "deal  Al: 2C\n" * 3
    for size in (1, 50, 1 << 15):
        issues: list = []
        out = "".join(format_pieces(text, issues, size))
        assert out == "hand 1\n" + "zzz\n" * 1000 + "trick 1 :  Al 2C\n\n" + "deal  Al: 2C\n" * 3
        assert len(issues) == 1001


# ---- memory --------------------------------------------------------------------------------
def test_fmt_peak_memory_grows_with_the_text_not_with_its_events(tmp_path):
    # the whole file's events held at once: about 24 MB per MB of log; a block at a time,
    # the text, its canonical form and the pieces made so far: about 4 MB per MB
    sizes, peaks, slope = growth(tmp_path, played_log, (200, 800),
                                 lambda path: run_measured(CLI, "fmt", str(path)).peak_mb)
    assert sizes[1] > 1.3  # large enough for the growth to stand out of the noise
    assert slope < 9, (sizes, peaks)
