"""Regenerate the bundled example logs and their expected outputs (an explicit command).

    python examples/make_examples.py            # rewrite the generated logs and every .expected.json
    python examples/make_examples.py --expected  # only refresh the .expected.json files

Hand-written logs in examples/logs/ (those not listed here) keep their text; their expected
output is refreshed with the rest.  Review the diff before committing: the expected files are
what the tests hold the referee to.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOGS = HERE / "logs"
sys.path.insert(0, str(HERE.parent))

from referee.log.events import GameOver, HandStart, Score, Tag, Total, Trick  # noqa: E402
from referee.conformance.generate import generate_game  # noqa: E402
from referee.conformance.inject import INJECTABLE, CannotInject, violating_game  # noqa: E402
from referee.replay import check_path  # noqa: E402
from referee.rules.ruleset import load_ruleset, with_options  # noqa: E402
from referee.log.writer import write  # noqa: E402

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
    data["path"] = path.relative_to(HERE.parent).as_posix()
    return data


def main(argv: list[str]) -> int:
    LOGS.mkdir(parents=True, exist_ok=True)
    if "--expected" not in argv:
        for name, text in {**clean_games(), **violation_logs(), **partial_logs()}.items():
            (LOGS / f"{name}.log").write_text(text, encoding="utf-8")
    for path in sorted(LOGS.glob("*.log")):
        data = expected_for(path)
        target = path.with_suffix(".expected.json")
        target.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"{path.name}: {data['verdict']} ({len(data['diagnostics'])} diagnostics)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
