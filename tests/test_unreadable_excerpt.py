"""A file that is not text is reported at its first bad byte, with that line shown beneath:
each undecodable byte as U+FFFD (one character, as the column counts it), control characters
escaped; a file with no text to show gets
no excerpt (an empty line with a caret under nothing said nothing)."""

from __future__ import annotations

import io

from referee.judge.diagnostics import not_checked_report
from referee.output import render
from referee.run.single import check_path


def _text(report) -> str:
    out = io.StringIO()
    render.render_text([report], stream=out, color=False)
    return out.getvalue()


def test_a_line_that_is_not_utf8_is_shown_with_the_bad_byte_marked(tmp_path):
    log = tmp_path / "latin1.log"
    log.write_bytes(b'[Players "Al Beth Cy Di Ed Flo"]\nhand 1 dealer Al pass left\n'
                    b"deal Al: 2C 3\x80C 4C\ntrick 1: Al 2C\n")
    assert _text(check_path(log)).splitlines()[:3] == [
        f"{log}:3:14: CH001 syntax  the file is not UTF-8 text: byte 0x80 cannot be read; "
        "save the log as UTF-8 [R10.1]",
        "    3 | deal Al: 2C 3\ufffdC 4C",
        "      | " + " " * 13 + "^",
    ]


def test_a_binary_line_is_shown_escaped_and_cut_short(tmp_path):
    log = tmp_path / "binary.log"
    log.write_bytes(b"ab\x00cd\x1b[31m" + b"z" * 10_000)
    lines = _text(check_path(log)).splitlines()
    assert lines[0].endswith("1:3: CH001 syntax  this is a binary file, not a text log "
                             "(it contains NUL bytes) [R10.1]")
    assert lines[1].startswith("    1 | ab\\x00cd\\x1b[31mzzz") and "\x1b" not in lines[1]
    assert len(lines[1]) < 200  # the line is cut around the fault, not printed whole
    assert lines[2] == "      |   ^^^^"  # under the NUL as it is shown


def test_the_caret_stays_under_a_nul_after_bytes_that_are_not_utf8(tmp_path):
    log = tmp_path / "mixed.log"
    log.write_bytes(b"deal A: 2C \x80\x81 \x00 4C\n")
    lines = _text(check_path(log)).splitlines()
    assert lines[0].startswith(f"{log}:1:15: CH001 syntax  this is a binary file")
    assert lines[1] == "    1 | deal A: 2C \ufffd\ufffd \\x00 4C"
    assert lines[2] == "      | " + " " * 14 + "^^^^"  # under the NUL, as it is shown


def test_a_bad_byte_far_into_one_line_is_reported_without_holding_the_line(tmp_path):
    log = tmp_path / "long.log"
    log.write_bytes(b"#" + b"x" * 100_000 + b"\xff\n")
    lines = _text(check_path(log)).splitlines()
    assert lines[0].startswith(f"{log}:1:100002: CH001 syntax  the file is not UTF-8 text")
    assert not lines[1].startswith("    1 |")  # no excerpt: the summary line follows


def test_a_file_with_no_text_to_show_has_no_empty_excerpt(tmp_path):
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    assert _text(check_path(empty)) == (f"{empty}:1:1: CH001 syntax  the log is empty [R10.1]\n"
                                        f"{empty}: unreadable: the log is empty\n")
    report = not_checked_report("slow.log", "checking this file took longer than 3 s")
    assert "|" not in _text(report)
