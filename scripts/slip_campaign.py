"""A slip campaign: clean logs, one slip typed into each, and whether the referee reports
exactly that slip, at its place, and accuses nobody else.

    python scripts/slip_campaign.py run [--per-kind N] [--out FILE]   # judge every slip
    python scripts/slip_campaign.py compare BEFORE.json AFTER.json    # the two side by side

``run`` judges the ``referee`` package of the checkout it is run from (its root the current
folder), or, with PYTHONPATH set, the one Python imports from there; it says which.  The clean logs are the bundled
``examples/logs/clean-*.log`` and ``scoresheet-game.log``, games the conformance generator
writes (the same for every checkout that has the same generator), and the scoresheet of each
played game alone; each must check clean, or it is left out.  A slip is made in the text, as a scorer or a program would make it, and
carries what a right verdict is: the lines it touches, the players a diagnostic may name, and
how many diagnostics it may take (two swapped scores are two entries).  A slip is judged

* ``at the slip``: every diagnostic is on the slip's lines, and there are as many as it may
  take (none for a record without claims, which must instead be noted as not checked);
* ``nobody else``: no diagnostic names a player the slip does not concern (a slip of the
  record itself concerns no player);
* ``winner``: where the clean log names the game's winners, they stay the same;

and ``right`` when all three hold.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "examples" / "logs"
CARD = re.compile(r"^(10|[2-9JQKA])([SHDC])$")
TRICK = re.compile(r"^trick (\d+): (.*?)(?: -> (\S+))?$")
POINTS = {"QS": 13}


@dataclass
class Slip:
    kind: str
    source: str
    text: str
    lines: set[int]  # the lines the slip touches (1-based)
    players: set[str] = field(default_factory=set)  # whom a diagnostic may name
    most: int = 1  # how many diagnostics it may take
    noted: str | None = None  # for a slip with no diagnostic: a word the notes must have


@dataclass
class Outcome:
    kind: str
    source: str
    at_slip: bool
    nobody_else: bool
    winner: bool
    found: list = field(default_factory=list)

    @property
    def right(self) -> bool:
        return self.at_slip and self.nobody_else and self.winner


# -- reading a log's text ----------------------------------------------------------------------

def players_of(text: str) -> list[str]:
    return re.search(r'\[Players "([^"]*)"\]', text).group(1).split()


def points(card: str) -> int:
    return 1 if card.endswith("H") else POINTS.get(card, 0)


@dataclass
class Hand:
    start: int | None  # index of the hand line
    dealer: str | None
    tricks: list[int]  # indexes of the trick lines
    kitty: int | None = None
    score: int | None = None
    total: int | None = None
    moon: int | None = None
    passes: list[int] = field(default_factory=list)


def hands_of(lines: list[str]) -> list[Hand]:
    hands: list[Hand] = []
    current: Hand | None = None
    for index, line in enumerate(lines):
        if line.startswith("hand "):
            dealer = re.search(r"dealer (\S+)", line)
            current = Hand(index, dealer.group(1) if dealer else None, [])
            hands.append(current)
        elif current is None or (line.startswith("score:") and current.score is not None):
            current = Hand(None, None, [])
            hands.append(current)
        if line.startswith("trick "):
            current.tricks.append(index)
        elif line.startswith("kitty:"):
            current.kitty = index
        elif line.startswith("pass "):
            current.passes.append(index)
        elif line.startswith("moon "):
            current.moon = index
        elif line.startswith("score:"):
            current.score = index
        elif line.startswith("total:"):
            current.total = index
    return hands


def trick_plays(line: str) -> tuple[list[tuple[str, str]], str | None]:
    match = TRICK.match(line)
    plays = [tuple(part.split()) for part in match.group(2).split(", ")]
    return plays, match.group(3)


def entries(line: str) -> list[tuple[str, int]]:
    body = line.split(":", 1)[1]
    return [(name, int(value)) for name, value in (part.split() for part in body.split(","))]


def entry_line(keyword: str, values: list[tuple[str, int]]) -> str:
    return f"{keyword}: " + ", ".join(f"{name} {value}" for name, value in values)


def with_line(lines: list[str], index: int, new: str) -> str:
    return "\n".join(lines[:index] + [new] + lines[index + 1:])


# -- the slips -------------------------------------------------------------------------------

def seating(where: str) -> Callable[[str, str], Iterator[Slip]]:
    """A whole trick written in seating order from the first column, the dealer or the last
    column instead of from its leader."""
    def make(name: str, text: str) -> Iterator[Slip]:
        lines, names = text.split("\n"), players_of(text)
        n = len(names)
        for hand in hands_of(lines):
            first = {"first": names[0], "last": names[-1], "dealer": hand.dealer}[where]
            for index in hand.tricks[1:]:
                plays, claim = trick_plays(lines[index])
                seats = [p for p, _ in plays]
                if first is None or len(plays) != n or seats[0] == first or first not in seats:
                    continue
                start = seats.index(first)
                rotated = plays[start:] + plays[:start]
                number = TRICK.match(lines[index]).group(1)
                new = f"trick {number}: " + ", ".join(f"{p} {c}" for p, c in rotated)
                new += f" -> {claim}" if claim else ""
                yield Slip(f"trick from the {where} column" if where != "dealer" else
                           "trick from the dealer", name, with_line(lines, index, new),
                           {index + 1})
    return make


def past_target(name: str, text: str) -> Iterator[Slip]:
    """One more hand on the sheet after the game ended (its scores those of the last hand)."""
    lines = text.split("\n")
    hands = hands_of(lines)
    last = hands[-1]
    if last.score is None or last.total is None:
        return
    scores, totals = entries(lines[last.score]), entries(lines[last.total])
    after = [(p, t + s) for (p, s), (_, t) in zip(scores, totals)]
    at = last.total + 1
    new = lines[:at] + [entry_line("score", scores), entry_line("total", after)] + lines[at:]
    yield Slip("hand past the target", name, "\n".join(new), {at + 1})


def swapped(name: str, text: str) -> Iterator[Slip]:
    """Two different scores of one played hand written in each other's place."""
    if "as a sheet" not in name and name != "scoresheet-game.log":
        yield from _swaps(name, text, "two scores swapped")


def _swaps(name: str, text: str, kind: str) -> Iterator[Slip]:
    lines = text.split("\n")
    for hand in hands_of(lines):
        if hand.score is None:
            continue
        values = entries(lines[hand.score])
        pairs = [(i, j) for i in range(len(values)) for j in range(i + 1, len(values))
                 if values[i][1] != values[j][1]]
        for i, j in pairs[:2]:
            new = list(values)
            new[i], new[j] = (values[i][0], values[j][1]), (values[j][0], values[i][1])
            yield Slip(kind, name,
                       with_line(lines, hand.score, entry_line("score", new)),
                       {hand.score + 1}, {values[i][0], values[j][0]}, most=2)


def swapped_on_sheet(name: str, text: str) -> Iterator[Slip]:
    """Two different scores of one hand of a scoresheet (no play) in each other's place."""
    if "as a sheet" in name or name == "scoresheet-game.log":
        yield from _swaps(name, text, "two scores swapped on a sheet")


def no_claims(name: str, text: str) -> Iterator[Slip]:
    """A record of plays alone: no winners, scores, totals, moons or winner line."""
    kept = [re.sub(r" -> \S+$", "", line) for line in text.split("\n")
            if not line.startswith(("score:", "total:", "moon ", "winner:"))]
    if any(line.startswith("trick ") for line in kept):
        yield Slip("record without claims", name, "\n".join(kept), set(), most=0,
                   noted="no trick winners")


def twin_claim(name: str, text: str) -> Iterator[Slip]:
    """A trick claimed for the player of one of two identical cards, which cancel."""
    lines = text.split("\n")
    for hand in hands_of(lines):
        for index in hand.tricks:
            plays, claim = trick_plays(lines[index])
            cards = [c for _, c in plays]
            twins = [c for c in set(cards) if cards.count(c) == 2]
            if not twins or claim is None:
                continue
            holder = next(p for p, c in plays if c == twins[0])
            if holder == claim:
                continue
            new = re.sub(r" -> \S+$", f" -> {holder}", lines[index])
            yield Slip("claim names a cancelled twin", name, with_line(lines, index, new),
                       {index + 1}, {holder})
            break


def moon_player(name: str, text: str) -> Iterator[Slip]:
    """A moon line naming another player than the one who took every point."""
    lines, names = text.split("\n"), players_of(text)
    for hand in hands_of(lines):
        if hand.moon is None:
            continue
        shooter = lines[hand.moon].split()[1]
        other = names[(names.index(shooter) + 1) % len(names)]
        new = lines[hand.moon].replace(f"moon {shooter}", f"moon {other}", 1)
        yield Slip("moon for the wrong player", name, with_line(lines, hand.moon, new),
                   {hand.moon + 1}, {other, shooter})


def kitty_to_leader(name: str, text: str) -> Iterator[Slip]:
    """The kitty's points scored for trick 1's leader, not its winner; the totals carry it."""
    lines = text.split("\n")
    hands = hands_of(lines)
    for number, hand in enumerate(hands):
        if hand.kitty is None or not hand.tricks or hand.score is None:
            continue
        worth = sum(points(card) for card in lines[hand.kitty].split()[1:])
        plays, winner = trick_plays(lines[hand.tricks[0]])
        leader = plays[0][0]
        if not worth or winner in (None, "none", leader) or hand.moon is not None:
            continue
        shift = {winner: -worth, leader: worth}
        new = list(lines)
        new[hand.score] = entry_line("score", [(p, v + shift.get(p, 0))
                                               for p, v in entries(lines[hand.score])])
        for later in hands[number:]:
            if later.total is not None:
                new[later.total] = entry_line("total", [(p, v + shift.get(p, 0))
                                                        for p, v in entries(lines[later.total])])
        yield Slip("kitty scored for the first leader", name, "\n".join(new),
                   {hand.score + 1}, {winner, leader}, most=2)


def wrong_carry(name: str, text: str) -> Iterator[Slip]:
    """A total line that adds the hand's scores to the totals of two hands back; the later
    totals carry it on."""
    lines = text.split("\n")
    hands = [h for h in hands_of(lines) if h.total is not None and h.score is not None]
    for k in range(2, len(hands), 3):
        before = dict(entries(lines[hands[k - 2].total]))
        previous = dict(entries(lines[hands[k - 1].total]))
        shift = {p: before[p] - previous[p] for p in previous}
        moved = {p for p, d in shift.items() if d}
        if not moved:
            continue
        new = list(lines)
        for later in hands[k:]:
            new[later.total] = entry_line("total", [(p, v + shift[p])
                                                    for p, v in entries(lines[later.total])])
        yield Slip("total carried from the wrong hand", name, "\n".join(new),
                   {hands[k].total + 1}, moved)


SLIPS = {
    "first": seating("first"), "dealer": seating("dealer"), "last": seating("last"),
    "past": past_target, "swap": swapped, "sheet swap": swapped_on_sheet, "claims": no_claims,
    "twin": twin_claim, "moon": moon_player, "kitty": kitty_to_leader, "carry": wrong_carry,
}


def wrong_way_passes(count: int) -> Iterator[Slip]:
    """A hand whose passes went right where the rules pass left (or the reverse), each pass
    line naming its receiver, the play following them: a game the generator plays under the
    reversed pass cycle, read under the usual one."""
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset, with_options

    rules = with_options(load_ruleset("cancellation"), pass_cycle=("right", "left"))
    for seed in range(count):
        players = 6 + seed % 6
        text = write(generate_game(rules, players, seed=100 + seed, hands=1, strategy="simple"))
        names = players_of(text)
        text = re.sub(r"pass (\S+):", lambda m: f"pass {m[1]} -> "
                      f"{names[names.index(m[1]) - 1]}:", text)
        text = text.replace(" pass right\n", " pass left\n", 1)
        lines = text.split("\n")
        passes = {i + 1 for i, line in enumerate(lines) if line.startswith(("pass ", "hand "))}
        yield Slip("passes the wrong way, play following", f"generated {players} players, "
                   f"seed {100 + seed}", text, passes)


# -- judging ---------------------------------------------------------------------------------

def clean_pool() -> list[tuple[str, str]]:
    """(name, text) of the clean logs: the bundled ones and some generated games."""
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset

    pool = [(path.name, path.read_text("utf-8"))
            for path in sorted(LOGS.glob("clean-*.log")) + [LOGS / "scoresheet-game.log"]]
    rules = load_ruleset("cancellation")
    for seed in range(6):
        players = 6 + seed
        for strategy in ("simple", "moon"):
            events = generate_game(rules, players, seed=seed, strategy=strategy)
            pool.append((f"generated {players} players, seed {seed}, {strategy}", write(events)))
    # each played game's scoresheet alone: its tags, hand lines, scores, totals and winner
    sheets = [(f"{name} as a sheet", "\n".join(
        line for line in text.split("\n")
        if line.startswith(("[", "score:", "total:", "winner:")))) for name, text in pool
        if "trick 1:" in text]
    return pool + sheets


def check_text(text: str):
    """The report of ``text`` by the judged checkout (whose check_text may live in
    referee.run.single, as in older checkouts)."""
    try:
        from referee.run.single import check_text as check
    except ImportError:
        from referee.run.single import check_text as check
    return check(text)


def judge(slip: Slip, winners) -> Outcome:
    report = check_text(slip.text)
    found = [(d.kind, d.line, d.player) for d in report.diagnostics]
    if slip.most == 0:
        at = not found and any(slip.noted in note for note in report.unchecked)
    else:
        at = 0 < len(found) <= slip.most and all(line in slip.lines for _, line, _ in found)
    nobody_else = all(player is None or player in slip.players for _, _, player in found)
    winner = winners is None or slip.kind == "record without claims" or \
        report.winners == winners
    return Outcome(slip.kind, slip.source, at, nobody_else, winner, found)


def run(per_kind: int, seed: int) -> list[Outcome]:
    pool = []
    for name, text in clean_pool():
        report = check_text(text)
        if report.verdict == "clean":
            pool.append((name, text, report.winners or None))
    outcomes: list[Outcome] = []
    rng = random.Random(seed)
    for make in SLIPS.values():
        slips = [(slip, winners) for name, text, winners in pool for slip in make(name, text)]
        rng.shuffle(slips)
        outcomes += [judge(slip, winners) for slip, winners in slips[:per_kind]]
    outcomes += [judge(slip, None) for slip in wrong_way_passes(per_kind)]
    return outcomes


def summary(outcomes: list[Outcome]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for outcome in outcomes:
        row = table.setdefault(outcome.kind, {"slips": 0, "at the slip": 0, "nobody else": 0,
                                              "winner": 0, "right": 0})
        row["slips"] += 1
        row["at the slip"] += outcome.at_slip
        row["nobody else"] += outcome.nobody_else
        row["winner"] += outcome.winner
        row["right"] += outcome.right
    return table


def compare(before: dict, after: dict) -> str:
    columns = ("slips", "at the slip", "nobody else", "winner", "right")
    out = ["| kind of slip | " + " | ".join(columns) + " |",
           "|---|" + "---|" * len(columns)]
    for kind in after:
        old, new = before.get(kind, {}), after[kind]
        cells = [str(new["slips"])] + [f"{old.get(c, '-')} → {new[c]}" for c in columns[1:]]
        out.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run")
    go.add_argument("--per-kind", type=int, default=30)
    go.add_argument("--seed", type=int, default=1)
    go.add_argument("--out", type=Path, default=None)
    go.add_argument("--show-wrong", action="store_true", help="print each slip judged wrong")
    both = sub.add_parser("compare")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "compare":
        before = json.loads(args.before.read_text("utf-8"))["summary"]
        after = json.loads(args.after.read_text("utf-8"))["summary"]
        print(compare(before, after))
        return 0
    if not os.environ.get("PYTHONPATH"):  # else Python would import an installed referee
        sys.path.insert(0, os.getcwd())
    import referee
    print(f"judged by {Path(referee.__file__).parent}", file=sys.stderr)
    outcomes = run(args.per_kind, args.seed)
    result = {"summary": summary(outcomes), "outcomes": [asdict(o) for o in outcomes]}
    if args.show_wrong:
        for outcome in outcomes:
            if not outcome.right:
                print(outcome.kind, "|", outcome.source, "|", outcome.found, file=sys.stderr)
    text = json.dumps(result, indent=1)
    if args.out is not None:
        args.out.write_text(text, "utf-8")
    for kind, row in result["summary"].items():
        print(f"{kind:40} " + "  ".join(f"{k} {v}" for k, v in row.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
