"""A hand of endless tricks (a hostile log can make one hand as long as the file): the tricks
past any hand's count are one too many, said as before, and kept without their plays, so that
`replay` (and every command that holds a hand) grows with the lines, not with their plays'
events: about 7 MB per MB, where keeping every play cost about 29."""

from __future__ import annotations

import pytest
from peak_memory import CLI, growth, run_measured

from referee.judge import setup
from referee.judge.walk import judge_text

HEAD = ('[Event "x"]\n[Ruleset "cancellation"]\n[Players "Al Beth Charlie Dave Eve Fay"]\n'
        '[Target "150"]\n\nhand 1 dealer Fay pass left\n')
TRICK = "trick {}: Al 2C, Beth 3C, Charlie 4C, Dave 5C, Eve 6C, Fay 7C -> Fay\n"


def _long_hand(tricks: int) -> str:
    return HEAD + "".join(TRICK.format(number) for number in range(1, tricks + 1))


def _said(text: str) -> list[tuple]:
    report = judge_text(text)
    return [(d.kind, d.line, d.column, str(d.message)) for d in report.diagnostics] + [
        report.to_json()["suppressed"]]


def test_tricks_past_the_kept_ones_are_said_as_when_every_play_is_kept(monkeypatch):
    text = _long_hand(400)
    cut = _said(text)
    monkeypatch.setattr(setup, "MAX_HAND_TRICKS", 10_000)
    assert cut == _said(text)
    assert ("bad-setup", 406, 1, "hand 1 already has all its 17 tricks; trick 400 is one too "
            "many") not in cut  # (past the 100 kept of the kind: counted)
    assert ("bad-setup", 30, 1, "hand 1 already has all its 17 tricks; trick 24 is one too "
            "many") in cut


@pytest.mark.parametrize("command", ["replay"])
@pytest.mark.slow
def test_peak_memory_of_a_hand_of_endless_tricks_grows_with_its_lines(command, tmp_path):
    def peak(path):
        return run_measured(CLI, command, str(path), check=False).peak_mb

    sizes, peaks, slope = growth(tmp_path, _long_hand, (10_000, 40_000), peak)
    assert sizes[1] - sizes[0] > 1.5
    assert slope < 14, (sizes, peaks)


def test_convert_refuses_a_hand_of_more_tricks_than_a_record_holds_where_it_says_so():
    from referee.run.convert import ConversionRefused, convert

    with pytest.raises(ConversionRefused) as refused:
        convert(_long_hand(400))
    # the 129th trick, on line 6 + 129: refused as it is read, before the hand is held whole
    assert refused.value.reasons == [
        (135, 1, "a hand of a record holds at most 128 tricks; this is one more")]
    assert convert(_long_hand(128))[1] == "json"


def test_a_record_with_more_tricks_in_a_hand_than_it_may_hold_is_refused():
    import json

    from referee.run.convert import convert

    document = json.loads(convert(_long_hand(128))[0])
    document["hands"][0]["tricks"].append(document["hands"][0]["tricks"][-1])
    report = judge_text(json.dumps(document, indent=1))
    assert report.verdict == "unreadable"
    assert [d.pointer for d in report.diagnostics] == ["/hands/0/tricks"]
