"""Every bundled example log is held to hand-written facts, and its snapshot to the same facts.

``examples/logs/facts.toml`` says, for each log, what a person reading it finds: the verdict,
each diagnostic's kind, line, column and player (and hand and trick), and for finished games
the final totals and winners.  No script writes it.  ``check_path`` must give exactly those
diagnostics: none missing, none extra.

``examples/logs/*.expected.json`` are snapshots of the referee's full JSON output, refreshed by
``python examples/make_examples.py`` (review the diff); they pin the rendering of everything
else (messages, spans, hints, per-hand points).  A snapshot that disagrees with the facts fails
with a message that says so: re-blessing the snapshot cannot change a verdict.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
from verdict_facts import FACTS_FILE, differences, load

from referee.run.single import check_path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "examples" / "logs"
LOGS = sorted(FOLDER.glob("*.log"))
FACTS = load(FOLDER)
KINDS_WITH_EXAMPLES = (
    "syntax", "bad-setup", "bad-deal", "bad-pass", "wrong-dealer", "wrong-leader", "out-of-turn",
    "card-not-held", "illegal-lead", "illegal-play", "revoke", "miscounted-cancellation",
    "wrong-winner", "score-mismatch", "bad-moon", "total-mismatch", "game-end", "missing-claim",
)


def test_there_are_examples():
    names = {p.stem for p in LOGS}
    assert {f"clean-{n}-players" for n in range(6, 12)} <= names
    assert {"clean-standard", "play-only", "scoresheet-only", "stops-mid-trick"} <= names
    assert set(KINDS_WITH_EXAMPLES) <= names


def test_every_log_has_hand_written_facts_and_every_fact_a_log():
    assert set(FACTS) == {p.stem for p in LOGS}


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_the_referee_agrees_with_the_hand_written_facts(path: Path):
    problems = differences(FACTS[path.stem], check_path(path).to_json())
    assert not problems, (f"check_path({path.name}) disagrees with the hand-written "
                          f"examples/logs/{FACTS_FILE}:\n  " + "\n  ".join(problems))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_the_snapshot_agrees_with_the_hand_written_facts(path: Path):
    snapshot = path.with_suffix(".expected.json")
    problems = differences(FACTS[path.stem], json.loads(snapshot.read_text("utf-8")))
    assert not problems, (
        f"the snapshot {snapshot.name} disagrees with the hand-written examples/logs/{FACTS_FILE} "
        "(was it regenerated from a referee that is wrong?); the facts are what a person reads "
        "off the log, so fix the referee and refresh the snapshot, or, if a fact was misread, "
        "correct it by hand after re-reading the log:\n  " + "\n  ".join(problems))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_example_matches_its_snapshot(path: Path):
    expected = json.loads(path.with_suffix(".expected.json").read_text("utf-8"))
    actual = check_path(path).to_json()
    actual["path"] = path.relative_to(ROOT).as_posix()
    assert actual == expected, ("output differs from the snapshot; if only the rendering changed, "
                                "refresh with `python examples/make_examples.py` and review the diff")


@pytest.mark.parametrize("path", [p for p in LOGS if p.stem.startswith("clean-")], ids=lambda p: p.stem)
def test_clean_games_are_clean_and_finished(path: Path):
    report = check_path(path)
    assert report.verdict == "clean", [d.message for d in report.diagnostics]
    assert report.winners, "a complete game names its winners"
    assert all(h.complete for h in report.hands)
    last = report.hands[-1].totals
    assert max(last.values()) >= (100 if "standard" in path.stem else 150)


@pytest.mark.parametrize("kind", KINDS_WITH_EXAMPLES)
def test_each_kind_example_reports_exactly_that_kind(kind: str):
    report = check_path(FOLDER / f"{kind}.log")
    assert [d.kind for d in report.diagnostics] == [kind]


def test_the_facts_hold_hand_and_trick_for_play_faults():
    for name in ("revoke", "illegal-lead", "illegal-play", "card-not-held", "out-of-turn",
                 "wrong-leader", "wrong-winner", "miscounted-cancellation"):
        (entry,) = FACTS[name]["diagnostics"]
        assert {"player", "hand", "trick"} <= set(entry), name


def test_differences_notices_each_kind_of_disagreement():
    report = check_path(FOLDER / "revoke.log").to_json()
    facts = FACTS["revoke"]
    assert differences(facts, report) == []
    moved = dict(facts, diagnostics=[dict(facts["diagnostics"][0], column=36)])
    assert any(p.startswith("missing: revoke at line 21 column 36") for p in differences(moved, report))
    assert any(p.startswith("extra: revoke at line 21 column 35") for p in differences(moved, report))
    other = dict(facts, diagnostics=[dict(facts["diagnostics"][0], player="Beth", trick=2)])
    assert len(differences(other, report)) == 2
    wrong_trick = dict(facts, diagnostics=[dict(facts["diagnostics"][0], trick=2)])
    assert differences(wrong_trick, report) == ["revoke at line 21 column 35 (Charlie): trick 1, the facts say 2"]
    assert differences(dict(facts, verdict="clean", diagnostics=[]), report)[0].startswith("verdict")
    clean = FACTS["clean-standard"]
    report = check_path(FOLDER / "clean-standard.log").to_json()
    assert differences(dict(clean, totals=dict(clean["totals"], Al=54)), report)
    assert differences(dict(clean, winners=["Al"]), report)
    assert differences(dict(clean, hands=9), report)


def _make_examples():
    spec = importlib.util.spec_from_file_location("make_examples", ROOT / "examples" / "make_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_regenerate_script_refreshes_only_snapshots_that_agree_with_the_facts(tmp_path, capsys):
    folder = tmp_path / "logs"
    shutil.copytree(FOLDER, folder)
    (folder / "revoke.expected.json").write_text("{}", encoding="utf-8")  # a stale snapshot
    facts_text = (folder / FACTS_FILE).read_text("utf-8")
    wrong = facts_text.replace('{ kind = "wrong-leader", line = 25, column = 10,',
                               '{ kind = "wrong-leader", line = 25, column = 11,')
    assert wrong != facts_text
    (folder / FACTS_FILE).write_text(wrong, encoding="utf-8")
    (folder / "extra.log").write_text((FOLDER / "revoke.log").read_text("utf-8"), encoding="utf-8")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert _make_examples().refresh_snapshots(folder) == 1
    err = capsys.readouterr().err
    assert "wrong-leader.log: NOT refreshed" in err and "extra.log: NOT refreshed" in err
    assert "revoke.log" not in err
    after = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert set(after) == set(before)  # no new file: no snapshot for a log without facts
    changed = {name for name in after if after[name] != before[name]}
    assert changed == {"revoke.expected.json"}  # the facts file and the disagreeing snapshot stay
    assert after["revoke.expected.json"] == (FOLDER / "revoke.expected.json").read_bytes()


def test_no_script_names_the_facts_file():
    """The facts are written by hand: outside the tests only make_examples.py names the facts
    file, and the test above shows it reads it and leaves it alone."""
    offenders = []
    for path in ROOT.rglob("*.py"):
        if ".git" in path.parts or path.parent.name == "tests" or path.name == "make_examples.py":
            continue
        if FACTS_FILE in path.read_text("utf-8", errors="replace"):
            offenders.append(path.relative_to(ROOT).as_posix())
    assert offenders == []
    doc = (ROOT / "examples" / "make_examples.py").read_text("utf-8").split('"""')[1]
    assert "never writes facts.toml" in " ".join(doc.split())
