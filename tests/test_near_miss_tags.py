"""A setup tag written with a slip (``[Plyers "..."]``, ``[Rulset "standard"]``) is one fault,
reported at that tag, and read as the tag it misspells: checking without the seating, or with
the default ruleset, would accuse players of what only follows from the slip."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.run.single import check_text

LOGS = Path(__file__).resolve().parents[1] / "examples" / "logs"


def _line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith(start))


@pytest.mark.parametrize("log, tag, slip, meant", [
    ("clean-6-players.log", "[Players ", "[Plyers ", "Players"),
    ("clean-9-players.log", "[Players ", "[players: ", None),  # not a tag name: a syntax slip
    ("clean-11-players.log", "[Players ", "[Player ", None),  # a word of the grammar: said so
    ("clean-11-players.log", "[Players ", "[Playrs ", "Players"),
    ("clean-standard.log", "[Ruleset ", "[Rulset ", "Ruleset"),
    ("clean-standard.log", "[Ruleset ", "[RULESETS ", "Ruleset"),
    ("clean-7-players.log", "[Target ", "[Targt ", "Target"),
])
def test_a_misspelt_setup_tag_is_one_fault_at_its_line(log, tag, slip, meant):
    clean = (LOGS / log).read_text("utf-8")
    assert check_text(clean).verdict == "clean"
    text = clean.replace(tag, slip, 1)
    report = check_text(text)
    line = _line_of(text, slip)
    if meant is None:
        assert [(d.kind, d.line) for d in report.diagnostics] == [("syntax", line)]
        return
    [fault] = report.diagnostics
    assert (fault.kind, fault.line, fault.column, fault.rule) == ("bad-setup", line, 1, "R10.2")
    written = slip.strip("[ ")
    assert fault.message == (f"no [{meant}] tag, but a [{written}] tag: did you mean [{meant}]? "
                             f"It is read as the {meant} tag")
    # the rest of the log is checked as it would be with the tag spelt right
    assert report.hands == check_text(clean).hands and report.unchecked == []


def test_a_misspelt_players_tag_does_not_hide_a_real_fault():
    text = (LOGS / "revoke.log").read_text("utf-8").replace("[Players ", "[Plyers ", 1)
    assert sorted(d.kind for d in check_text(text).diagnostics) == ["bad-setup", "revoke"]


def test_other_tags_are_not_taken_for_setup_tags():
    clean = (LOGS / "clean-6-players.log").read_text("utf-8")
    # tags of their own, near to no setup tag: still no seating
    for name in ("Place", "Date", "Seats", "Spieler"):
        report = check_text(clean.replace("[Players ", f"[{name} ", 1))
        [fault] = report.diagnostics
        assert fault.message.startswith('the log has no [Players "..."] tag'), name
        assert (fault.line, fault.column) == (1, 1)
    # a near miss beside the tag itself is just another tag
    both = clean.replace("[Players ", '[Plyers "Zed"]\n[Players ', 1)
    assert check_text(both).verdict == "clean"
