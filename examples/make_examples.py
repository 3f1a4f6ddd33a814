"""Refresh the rendered snapshots of the example logs (an explicit command).

    python examples/make_examples.py           # refresh every examples/logs/*.expected.json
    python examples/make_examples.py --logs    # first write the generated logs that are missing

The verdicts are not the script's to give.  ``examples/logs/facts.toml`` holds the
hand-written facts of every log (verdict, and each diagnostic's kind, line, column and player;
final totals and winners): a person reads them off the log, and this script, like every other
script, never writes facts.toml.  The ``.expected.json`` files are snapshots of the referee's
full JSON output (messages, spans, hints, per-hand points) for the renderer tests; this script
refreshes only them, and only for a log whose output agrees with its facts: a log whose output
disagrees, or that has no facts yet, is reported and its snapshot left alone (exit status 1).
So a regression cannot be re-blessed here; fix the referee, or, if a fact was misread, correct
facts.toml by hand after re-reading the log.

``--logs`` writes the generated example logs (clean games, one violation each, partial
records) that do not exist yet; it never overwrites a log, whose facts were read off its
text.  A new log needs its facts written by hand before it gets a snapshot.  Review the diff
before committing.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOGS = HERE / "logs"
FACTS_FILE = "facts.toml"  # hand-written; read here, never written
sys.path.insert(0, str(HERE.parent))

from referee.conformance.generate import generate_game  # noqa: E402
from referee.conformance.inject import INJECTABLE, violating_game  # noqa: E402
from referee.conformance.verdicts import CannotInject  # noqa: E402
from referee.log.events import GameOver, HandStart, Score, Tag, Total, Trick  # noqa: E402
from referee.log.writer import write  # noqa: E402
from referee.run.single import check_path  # noqa: E402
from referee.rules.ruleset import load_ruleset, with_options  # noqa: E402

CANCELLATION = load_ruleset("cancellation")
STANDARD = load_ruleset("standard")


def clean_games() -> dict[str, str]:
    logs = {}
    for players in range(6, 12):
        events = generate_game(CANCELLATION, players, seed=100 + players, strategy="simple",
                               event_name=f"Club night, table {players - 5}")
        logs[f"clean-{players}-players"] = write(events)
    logs["clean-standard"] = write(generate_game(STANDARD, 4, seed=7, strategy="simple",
                                                 event_name="Classic hearts"))
    return logs


def violation_logs() -> dict[str, str]:
    logs = {}
    for kind in INJECTABLE:
        rules = STANDARD if kind == "illegal-play" else CANCELLATION
        if kind == "game-end":
            rules = with_options(rules, target=60)
        players = 4 if rules.max_players == 4 else 6
        for seed in range(1, 200):
            try:
                text, _ = violating_game(rules, players, seed=seed, kind=kind,
                                         hands={"game-end": None, "wrong-dealer": 2}.get(kind, 1))
            except CannotInject:
                continue
            logs[kind] = f"# One {kind} violation (generated, seed {seed}).\n" + text
            break
    return logs


def partial_logs() -> dict[str, str]:
    events = generate_game(CANCELLATION, 7, seed=5, hands=2, strategy="simple")
    play_only = [e for e in events if isinstance(e, (Tag, HandStart, Trick))]
    sheet_only = [e for e in events if isinstance(e, (Tag, Score, Total))]
    full = generate_game(CANCELLATION, 8, seed=9, strategy="simple")
    sheet_game = [e for e in full if isinstance(e, (Tag, Score, Total, GameOver))]
    text = write(events[: _second_hand_trick(events, 5)])
    last = text.rstrip("\n").split("\n")
    cut = last[-1].split(",")
    last[-1] = ",".join(cut[:3])  # the dispute arose after the third card of the trick
    return {
        "play-only": "# Only the tricks were written down; deals and scores were not.\n" + write(play_only),
        "scoresheet-only": "# A club's paper scoresheet for two hands.\n" + write(sheet_only),
        "scoresheet-game": "# The whole scoresheet of a finished game.\n" + write(sheet_game),
        "stops-mid-trick": "# The game was stopped here to call the referee.\n" + "\n".join(last) + "\n",
    }


def _second_hand_trick(events, number: int) -> int:
    hands = 0
    for index, event in enumerate(events):
        hands += isinstance(event, HandStart)
        if hands == 2 and isinstance(event, Trick) and event.number == number:
            return index + 1
    raise ValueError("no such trick")


def expected_for(path: Path) -> dict:
    report = check_path(path)
    data = report.to_json()
    try:
        data["path"] = path.relative_to(HERE.parent).as_posix()
    except ValueError:  # a folder outside the repository (the tests use one)
        data["path"] = f"examples/logs/{path.name}"
    return data


def agrees_with_facts(facts: dict | None, data: dict) -> list[str]:
    """Why a report's JSON disagrees with a log's hand-written facts (empty: it agrees)."""
    if facts is None:
        return [f"no facts in {FACTS_FILE}: write them by hand first"]
    problems = []
    if data["verdict"] != facts["verdict"]:
        problems.append(f"verdict {data['verdict']}, the facts say {facts['verdict']}")
    key = ("kind", "line", "column", "player")
    found = sorted(tuple(d.get(k) for k in key) for d in data["diagnostics"])
    wanted = sorted(tuple(d.get(k) for k in key) for d in facts.get("diagnostics", []))
    if found != wanted:
        problems.append(f"diagnostics {found}, the facts say {wanted}")
    if data.get("winners") != facts.get("winners"):
        problems.append(f"winners {data.get('winners')}, the facts say {facts.get('winners')}")
    return problems


def refresh_snapshots(folder: Path = LOGS) -> int:
    """Rewrite each log's .expected.json when its output agrees with its facts; 1 if any did not."""
    facts = tomllib.loads((folder / FACTS_FILE).read_text("utf-8"))
    status = 0
    for path in sorted(folder.glob("*.log")):
        data = expected_for(path)
        problems = agrees_with_facts(facts.get(path.stem), data)
        if problems:
            status = 1
            print(f"{path.name}: NOT refreshed, the output disagrees with {FACTS_FILE}: "
                  + "; ".join(problems), file=sys.stderr)
            continue
        target = path.with_suffix(".expected.json")
        target.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"{path.name}: {data['verdict']} ({len(data['diagnostics'])} diagnostics)")
    return status


def write_missing_logs(folder: Path = LOGS) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in {**clean_games(), **violation_logs(), **partial_logs()}.items():
        path = folder / f"{name}.log"
        if not path.exists():
            path.write_text(text, encoding="utf-8")
            print(f"{path.name}: written; add its facts to {FACTS_FILE} by hand")


def main(argv: list[str]) -> int:
    if "--logs" in argv:
        write_missing_logs()
    return refresh_snapshots()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
