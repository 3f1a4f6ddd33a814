"""Text output never passes a log's control characters to the terminal, and excerpts show the
line the diagnostic names even when a line holds a Unicode line separator."""

from __future__ import annotations

import io
from pathlib import Path

from referee.output.render import render_text
from referee.run.single import check_text
from referee.util.terminal import escaped

REVOKE = (Path(__file__).resolve().parent.parent / "examples" / "logs" / "revoke.log").read_text()
REVOKE_LINE = 21  # Charlie revokes on this line (examples/logs/revoke.log)


def _text(report, color=False) -> str:
    out = io.StringIO()
    render_text([report], stream=out, color=color, width=200)
    return out.getvalue()


def test_escape_sequences_are_shown_escaped_not_sent():
    hostile = REVOKE.replace("[Event \"generated game, seed 1\"]",
                             "[Event \"\x1b]0;owned\x07\x1b[2J\"]\n# \x1b[31m red \x9b1m")
    hostile = hostile.replace("trick 1: Al 10C", "trick 1: Al\x1b[8m 10C", 1)
    for color in (False, True):
        text = _text(check_text(hostile, "g\x1bame.log"), color=color)
        assert "\x1b]" not in text and "\x9b" not in text and "\x07" not in text
        assert "\\x1b" in text  # the file name and the faulty line, escaped
        if not color:
            assert "\x1b" not in text


def test_a_line_separator_inside_a_line_does_not_shift_the_excerpt():
    # the separator is inside a comment above the revoke: excerpts count lines at "\n" only
    hostile = REVOKE.replace("# One revoke violation", "# One\u2028revoke\u2029violation\x0c")
    report = check_text(hostile)
    revoke = next(d for d in report.diagnostics if d.kind == "revoke")
    assert revoke.line == REVOKE_LINE
    text = _text(report)
    excerpt_row = next(row for row in text.splitlines() if row.startswith(f"{REVOKE_LINE:>5} | "))
    assert "Charlie AD" in excerpt_row
    assert "\u2028" not in text


def test_the_caret_stays_under_the_card_after_an_escape():
    line = "trick 1: Al\x1b 10C, Beth 5C"
    from referee.output.render import excerpt

    shown, caret = excerpt([line], 1, line.index("10C") + 1, line.index("10C") + 4)
    assert shown.endswith("trick 1: Al\\x1b 10C, Beth 5C")
    assert shown.index("10C") == caret.index("^^^")


def test_escaped_keeps_printable_text_and_spaces():
    assert escaped("Al Beth\u00a0Zoë ♥") == "Al Beth\u00a0Zoë ♥"
    assert escaped("a\x1bb\u202ec\U000e0001") == "a\\x1bb\\u202ec\\U000e0001"


def test_replay_shows_names_and_notes_escaped(tmp_path):
    from referee.output.replay_view import show_replay

    hostile = REVOKE.replace("Al Beth Charlie", "Al\x1b[5m Beth Charlie").replace(
        " Al:", " Al\x1b[5m:").replace(" Al ", " Al\x1b[5m ")
    hostile += "hand 2 dealer [bold]x\n"  # a name that is rich markup, in a note
    # (hand 1's trick lines cannot be read, so its tricks are unknown): hand 2 stops at Al
    hostile += "trick 1: Beth 2C, Charlie 3C, Dave 4C, Eve 5C, Fay 6C\n"
    path = tmp_path / "hostile.log"
    path.write_text(hostile, "utf-8")
    out = io.StringIO()
    show_replay(str(path), color=True, stream=out)
    text = out.getvalue()
    assert "\x1b[5m" not in text and "\\x1b[5m" in text


# ---- every command's own lines: a name, key or path a file wrote reaches stderr escaped ----
HOSTILE = "x\x1b]0;owned\x07"


def _run(capsys, *args) -> tuple[int, str]:
    from referee.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


def test_a_ruleset_s_name_and_an_unknown_key_are_shown_escaped(tmp_path, capsys):
    named = tmp_path / "named.toml"
    named.write_text(f'base = "cancellation"\nname = "{HOSTILE}"\n', "utf-8")
    keyed = tmp_path / "keyed.toml"
    keyed.write_text(f'base = "cancellation"\n"{HOSTILE}" = 1\n', "utf-8")
    for args in (("rules", str(named)), ("rules", str(keyed)),
                 ("check", "--ruleset", str(keyed), str(tmp_path / "none.log"))):
        code, said = _run(capsys, *args)
        assert "\x1b" not in said and "\x07" not in said and "\\x1b" in said, (args, said)
        assert code in (0, 2)


def test_a_path_with_control_characters_is_shown_escaped_by_fmt(tmp_path, capsys):
    path = tmp_path / f"{HOSTILE}.log"
    path.write_text(REVOKE.replace("trick 1:", "trikc 1:", 1), "utf-8")
    code, said = _run(capsys, "fmt", str(path))
    assert code == 1 and str(path) not in said  # (the log's own text holds no ESC)
    assert f"{escaped(str(path))}:" in said


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_fmt_and_convert_write_a_log_byte_for_byte_to_a_pipe_and_escaped_to_a_terminal(
        tmp_path, monkeypatch, capsys):
    from referee.cli import main

    path = tmp_path / "game.log"
    path.write_text(REVOKE.replace('"generated game, seed 1"', f'"{HOSTILE}"'), "utf-8")
    record = tmp_path / "game.json"
    assert main(["convert", str(path), "-o", str(record)]) == 0
    for args in (["fmt", str(path)], ["convert", str(record)]):
        code, piped = _run(capsys, *args)
        assert code == 0 and HOSTILE in piped  # the text itself, exactly
        terminal = _Terminal()
        monkeypatch.setattr("sys.stdout", terminal)
        assert main(args) == 0
        monkeypatch.undo()
        shown = terminal.getvalue()
        assert "\x1b" not in shown and shown == piped.replace(HOSTILE, escaped(HOSTILE))
