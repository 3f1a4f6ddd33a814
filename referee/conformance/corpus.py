"""This module writes the conformance corpus (``referee corpus``, spec/conformance.md):
generated logs, each with its expected verdict, and a manifest."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from referee.judge import codes
from referee.conformance.gamestats import CASES, GAME_END, GameStats
from referee.conformance.rng import Rng
from referee.conformance.generate import generate_game
from referee.conformance.inject import INJECTABLE, can_occur, hands_for, violating_game
from referee.conformance.verdicts import CannotInject, Expected, expected_document, json_text
from referee.log.events import GameOver, HandStart, Moon, Score, Total
from referee.log.writer import write
from referee.rules.ruleset import Ruleset, load_ruleset, with_options
from referee.util.files import RefusedWrite, write_parts
from referee.util.terminal import escaped

FORMAT = "referee-corpus/1"
MANIFEST = "manifest.json"
EXPECTED_SUFFIX = ".expected.json"
SHORT_TARGETS = {"cancellation": 60, "standard": 50}  # complete games kept short
PLANNED_TRIES = 1000  # seeds tried with the planned player count before the common one
FALLBACK_PLAYERS = 6  # where set-asides and kitties are commonest (a kitty of 2 cards)
FALLBACK_HANDS = 3  # hands per try there: each hand is another chance for a rare case
SEARCH_LIMIT = 50_000  # a safety net: reached only if a case could never occur (a bug)
Progress = Callable[[int, int], None]  # (logs made, logs in all)
PROGRESS_EVERY = 100  # logs between two progress lines


class CorpusError(Exception):
    """CorpusError says that the corpus cannot be written (a case not found, a directory that is
    not a corpus)."""


@dataclass(slots=True)
class Entry:
    """An Entry describes one log of the corpus and how it was made."""

    label: str
    rules: Ruleset
    players: int
    seed: int
    hands: int | None
    strategy: str
    kind: str | None = None  # the injected violation, None for a clean log
    text: str = ""
    expected: dict = field(default_factory=dict)
    cases: list[str] = field(default_factory=list)
    stats: GameStats = field(default_factory=GameStats)

    def file_name(self, index: int) -> str:
        return f"{index:03d}-{self.rules.name}-{self.players}p-{self.label}.log"


def _rulesets() -> dict[str, Ruleset]:
    return {name: load_ruleset(name) for name in ("cancellation", "standard")}


def _short(rules: Ruleset) -> Ruleset:
    return with_options(rules, target=SHORT_TARGETS.get(rules.name, rules.target))


def _build(entry: Entry) -> bool:
    """Generate the entry's log; return False when the injection has no place in this game."""
    entry.stats = GameStats()
    how = dict(seed=entry.seed, hands=entry.hands, strategy=entry.strategy, stats=entry.stats,
               event_name=f"conformance corpus: {entry.label}")
    if entry.kind is None:
        events = generate_game(entry.rules, entry.players, **how)
        entry.text, entry.expected = write(events), _clean_document(events)
    else:
        try:
            entry.text, expected = violating_game(entry.rules, entry.players, kind=entry.kind,
                                                  **how)
        except CannotInject:
            return False
        entry.expected = expected_document([expected])
    entry.cases = entry.stats.cases()
    return True


def _clean_document(events) -> dict:
    """Make the verdict of a clean log, with the scores the generating engine computed."""
    hands, current, moon, winners = [], None, None, None
    for event in events:
        if isinstance(event, HandStart):
            current, moon = event.number, None
        elif isinstance(event, Moon):
            moon = {"player": event.player, "choice": event.choice}
        elif isinstance(event, Score):
            scores = {e.player: e.value for e in event.entries}
        elif isinstance(event, Total):
            hands.append({"number": current, "scores": scores,
                          "totals": {e.player: e.value for e in event.entries}, "moon": moon})
        elif isinstance(event, GameOver):
            winners = list(event.players)
    return expected_document([], hands=hands, winners=winners)


def _search(entry: Entry, want: str | None, rng: Rng) -> Entry:
    """Try seeds from a random start until the entry builds and shows case ``want``.

    The first PLANNED_TRIES seeds keep the entry's own table and length, which spread the
    corpus over the tables.  A case can be rare there (two set-aside tricks in a row at 9
    players: about 1 hand in 5000), so the later seeds play where every case occurs in more
    than one try in a hundred.
    """
    start = rng.below(10**6)
    for step in range(SEARCH_LIMIT):
        if step == PLANNED_TRIES:  # where the case is frequent: fewest players, several hands
            fewest = FALLBACK_PLAYERS if entry.rules.allows_players(FALLBACK_PLAYERS) else (
                entry.rules.min_players)
            hands = None if entry.hands is None else max(entry.hands, FALLBACK_HANDS)
            entry = replace(entry, players=fewest, hands=hands)
        entry.seed = start + step
        if _build(entry) and (want is None or want in entry.cases):
            return entry
    raise CorpusError(f"no seed in {start}..{start + SEARCH_LIMIT - 1} gives {entry.label} "
                      f"({entry.rules.name}, {entry.players} players): a bug, please report it")


def _covering(rulesets: dict[str, Ruleset]) -> list[tuple[Entry, str | None]]:
    """List the covering set, in order: what every corpus contains whatever its seed and count."""
    cancellation, standard = rulesets["cancellation"], rulesets["standard"]
    seats = list(range(cancellation.min_players, cancellation.max_players + 1))
    # (the entry to search for, the case it must show): first clean complete games, every
    # player count of both rulesets (game end; ties searched below)
    wanted: list[tuple[Entry, str | None]] = []
    for players in seats:
        wanted.append((Entry("clean-game", _short(cancellation), players, 0, None, "simple"),
                       GAME_END))
    wanted.append((Entry("clean-game", standard, standard.min_players, 0, None, "simple"),
                   GAME_END))
    # the tricky cases, each searched for in short games: (case, rules, hands, strategy)
    tricky = [
        ("set-aside-first", cancellation, 1, "simple"),
        ("set-aside-last", cancellation, 1, "simple"),
        ("consecutive-set-aside", cancellation, 1, "simple"),
        ("kitty-delayed", cancellation, 1, "simple"),
        ("lost-points", cancellation, 1, "simple"),
        ("moon-subtract", cancellation, 1, "moon"),
        ("moon-add", cancellation, 1, "moon"),
        ("moon-add", standard, 1, "moon"),
        ("tie", _short(cancellation), None, "simple"),
        ("tie", _short(standard), None, "random"),
    ]
    spread = [6, 7, 9, 10, 11, 8]  # the kitty-delayed case (4th) needs a kitty
    for index, (case, rules, hands, strategy) in enumerate(tricky):
        players = rules.min_players if rules.max_players == 4 else spread[index % len(spread)]
        wanted.append((Entry(case, rules, players, 0, hands, strategy), case))
    # one injected violation of every kind, in each ruleset where it can occur
    position = 0
    for kind in INJECTABLE:
        for rules in (cancellation, standard):
            if not can_occur(kind, rules):
                continue
            players = (seats[position % len(seats)] if rules is cancellation
                       else rules.min_players)
            position += rules is cancellation
            hands = hands_for(kind, 2)
            if kind == codes.GAME_END and rules is cancellation:
                rules, hands = _short(rules), None  # a finished game with a wrong winner
            strategy = "simple" if position % 2 else "random"
            wanted.append((Entry(kind, rules, players, 0, hands, strategy, kind), None))
    return wanted


def _extra(rng: Rng, rulesets: dict[str, Ruleset]) -> Entry:
    """Pick a random log beyond the covering set: any ruleset, table, kind (or none) and length."""
    cancellation, standard = rulesets["cancellation"], rulesets["standard"]
    kinds = [None] * len(INJECTABLE) + list(INJECTABLE)
    while True:
        rules = (cancellation, standard)[rng.below(4) == 0]
        players = (rules.min_players + rng.below(rules.max_players - rules.min_players + 1))
        kind = kinds[rng.below(len(kinds))]
        if kind is None or can_occur(kind, rules):
            break
    hands = hands_for(kind, 1 + rng.below(2))  # a wrong dealer needs a second hand
    return Entry(f"extra-{kind or 'clean'}", rules, players, 0, hands,
                 ("random", "simple")[rng.below(2)], kind)


def plan(count: int, seed: int, progress: Progress | None = None) -> list[Entry]:
    """Generate the corpus's logs: the covering set first, then random ones up to ``count``.

    It calls ``progress(done, total)`` after each log.
    """
    rng = Rng(f"corpus:{seed}")
    rulesets = _rulesets()
    wanted = _covering(rulesets)
    total = max(count, len(wanted))
    entries: list[Entry] = []
    while len(entries) < total:
        if len(entries) < len(wanted):
            entry, want = wanted[len(entries)]
        else:
            entry, want = _extra(rng, rulesets), None
        entries.append(_search(entry, want, rng))
        if progress is not None:
            progress(len(entries), total)
    return entries


def _manifest(entries: list[Entry], names: list[str], count: int, seed: int) -> dict:
    logs, by_case, by_kind, by_players, by_ruleset = [], {}, {}, {}, {}
    total = GameStats()
    for entry, name in zip(entries, names):
        total.add(entry.stats)
        logs.append({
            "log": name, "expected": name + EXPECTED_SUFFIX, "ruleset": entry.rules.name,
            "players": entry.players, "target": entry.rules.target, "seed": entry.seed,
            "hands": entry.hands, "strategy": entry.strategy,
            "verdict": entry.expected["verdict"], "injected": entry.kind, "cases": entry.cases,
        })
        by_kind.setdefault(entry.kind or "clean", []).append(name)
        by_players.setdefault(str(entry.players), []).append(name)
        by_ruleset.setdefault(entry.rules.name, []).append(name)
        for case in entry.cases:
            by_case.setdefault(case, []).append(name)
    return {
        "format": FORMAT, "seed": seed, "count": count, "logs": logs,
        "cases": {case: by_case.get(case, []) for case in CASES}, "kinds": by_kind,
        "players": dict(sorted(by_players.items(), key=lambda item: int(item[0]))),
        "rulesets": by_ruleset, "stats": total.summary(),
    }


def write_corpus(directory: str | Path, count: int, seed: int,
                 progress: Progress | None = None) -> dict:
    """Write the corpus into ``directory`` and return the manifest (``progress``: see plan)."""
    folder = Path(directory)
    if folder.exists() and not folder.is_dir():
        raise CorpusError(f"{folder} is not a directory")
    old = folder / MANIFEST
    if folder.is_dir() and any(folder.iterdir()):
        if not old.is_file():
            raise CorpusError(f"{folder} is not empty and holds no {MANIFEST}: "
                              "give an empty or new directory")
        try:
            listed = json.loads(old.read_text("utf-8")).get("logs", [])
        except (OSError, ValueError, AttributeError) as err:
            raise CorpusError(f"cannot read the old {old}: {err}") from None
        for item in listed:  # a regenerated corpus replaces the old one's files
            for key in ("log", "expected"):
                name = item.get(key) if isinstance(item, dict) else None
                if isinstance(name, str) and "/" not in name and "\\" not in name:
                    (folder / name).unlink(missing_ok=True)
    entries = plan(count, seed, progress)
    names = [entry.file_name(index) for index, entry in enumerate(entries, start=1)]
    folder.mkdir(parents=True, exist_ok=True)
    for entry, name in zip(entries, names):  # each file whole or not at all
        write_parts(folder / name, [entry.text])
        write_parts(folder / (name + EXPECTED_SUFFIX), [json_text(dict(entry.expected, log=name))])
    manifest = _manifest(entries, names, count, seed)
    write_parts(folder / MANIFEST, [json_text(manifest)])  # last: the corpus is whole now
    return manifest


def show_progress(done: int, total: int) -> None:
    """Print a progress line on stderr per PROGRESS_EVERY logs, and one for the last."""
    if done % PROGRESS_EVERY == 0 or done == total:
        print(f"referee corpus: {done}/{total} logs", file=sys.stderr, flush=True)


def corpus_main(directory: str, count: int, seed: int, quiet: bool = False) -> int:
    """Run ``referee corpus``: return 0 when written, 2 on a usage error; show progress on a
    terminal's stderr."""
    if count < 0:
        print("referee corpus: --count must not be negative", file=sys.stderr)
        return 2
    shown = not quiet and sys.stderr.isatty()
    try:
        manifest = write_corpus(directory, count, seed, show_progress if shown else None)
    except (CorpusError, OSError, RefusedWrite) as err:
        print(escaped(f"referee corpus: {err}"), file=sys.stderr)
        return 2
    logs = manifest["logs"]
    clean = sum(item["verdict"] == "clean" for item in logs)
    note = "" if len(logs) <= count else f" (the covering set needs {len(logs)})"
    print(f"wrote {len(logs)} logs ({clean} clean, {len(logs) - clean} with one violation)"
          f"{note} and {MANIFEST} to {directory}")
    missing = [case for case, found in manifest["cases"].items() if not found]
    if missing:  # cannot happen: every case is searched for; kept as a safety net
        print(f"referee corpus: cases not covered: {', '.join(missing)}", file=sys.stderr)
        return 2
    return 0


def verify(directory: str | Path) -> list[str]:
    """Referee every log of a corpus, compare it with its expected verdict, and return the
    mismatches."""
    from referee.judge.walk import judge_path

    folder = Path(directory)
    manifest = json.loads((folder / MANIFEST).read_text("utf-8"))
    problems = []
    for item in manifest["logs"]:
        expected = json.loads((folder / item["expected"]).read_text("utf-8"))
        report = judge_path(folder / item["log"])
        problems.extend(f"{item['log']}: {p}" for p in compare(report, expected))
    return problems


def compare(report, expected: dict) -> list[str]:
    """Say how a referee report differs from an expected verdict document (empty: it matches)."""
    problems = []
    wanted = [Expected.from_json(v) for v in expected["violations"]]
    found = report.diagnostics
    if report.verdict != expected["verdict"]:
        problems.append(f"verdict {report.verdict}, expected {expected['verdict']}")
    if len(found) != len(wanted) or not all(w.matches(d) for w, d in zip(wanted, found)):
        problems.append(f"diagnostics {_violations_text(found)} "
                        f"expected {_violations_text(wanted)}")
    if "hands" in expected:
        got = [{"number": h.number, "scores": h.points, "totals": h.totals}
               for h in report.hands]
        want = [{"number": h["number"], "scores": h["scores"], "totals": h["totals"]}
                for h in expected["hands"]]
        if got != want:
            problems.append(f"hand scores {got} expected {want}")
        if report.winners != expected.get("winners"):
            problems.append(f"winners {report.winners} expected {expected.get('winners')}")
    return problems


def _violations_text(violations) -> str:
    return "; ".join(f"{v.kind} line {v.line} hand {v.hand} trick {v.trick} player {v.player}"
                     for v in violations)


def measure(games: int, strategy: str = "simple", seed: int = 0) -> dict[str, dict]:
    """Measure generator statistics over ``games`` complete games per player count and ruleset."""
    out = {}
    for name, rules in _rulesets().items():
        stats = GameStats()
        for players in range(rules.min_players, rules.max_players + 1):
            for index in range(games):
                generate_game(rules, players, seed=seed + index, strategy=strategy, stats=stats)
        out[name] = stats.summary()
    return out


if __name__ == "__main__":  # python -m referee.conformance.corpus GAMES [STRATEGY]: statistics
    arguments = sys.argv[1:]
    print(json.dumps(measure(int(arguments[0]) if arguments else 50,
                             arguments[1] if len(arguments) > 1 else "simple"), indent=2))
