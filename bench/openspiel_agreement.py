"""How many OpenSpiel hearts games the referee agrees with (a longer run than the tests).

    python bench/openspiel_agreement.py                 # 2000 complete games (~22000 hands)
    python bench/openspiel_agreement.py --games 500 --seed 7 --json bench/out/openspiel.json

Five runs, each over seeded games (see referee/openspiel_bridge.py for the mapping):

* clean: complete ``standard`` games made of OpenSpiel hands, random or shooting policy; agree
  when the referee finds the log clean and every hand's points and the winners are OpenSpiel's;
* tampered: one play per game replaced by a card OpenSpiel refuses (revoke, illegal lead,
  points on the first trick); agree when the referee reports exactly that play, with that kind,
  and still computes OpenSpiel's points (logged under the ``openspiel`` reading,
  ``first_trick_follow_points = true``);
* tampered-standard: the same logs under ``standard``; they differ only where a point card
  follows an illegal spade lead to the first trick (the one point where the rules differ);
* variants: all eight OpenSpiel parameters at random, each game checked against the ruleset
  expressing them; it counts the situations that need the last two options (a first lead other
  than the 2C under ``can_lead_any_club``, a player without a trick in a moon hand under
  ``avoid_all_tricks_bonus``);
* tampered-variants: one illegal play per game under random parameters, against that ruleset.

Needs ``pip install '.[openspiel]'``.  Never fails: it prints the counts (and writes JSON).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.openspiel_bridge import (  # noqa: E402
    NAMES,
    OPENSPIEL_TOML,
    game_log,
    play_game,
    trickless_in_moon,
    variant_game,
    variant_params,
    variant_ruleset,
)
from referee.run.single import check_text  # noqa: E402
from referee.rules.cards import TWO_OF_CLUBS  # noqa: E402
from referee.rules.ruleset import load_ruleset  # noqa: E402

KINDS = ("revoke", "illegal-lead", "illegal-play")


def _clean_agrees(report, hands) -> bool:
    if report.diagnostics or len(report.hands) != len(hands):
        return False
    if any(s.points != dict(zip(NAMES, h.points)) for s, h in zip(report.hands, hands)):
        return False
    totals = [sum(h.points[s] for h in hands) for s in range(4)]
    return report.winners == [NAMES[s] for s in range(4) if totals[s] == min(totals)]


def run(games: int, seed: int) -> dict:
    standard = load_ruleset("standard")
    folder = Path(tempfile.mkdtemp(prefix="openspiel-bench-"))
    openspiel_path = folder / "openspiel.toml"
    openspiel_path.write_text(OPENSPIEL_TOML, encoding="utf-8")
    out: dict = {"games_per_run": games, "seed": seed}
    started = time.perf_counter()

    agree = hands_played = moons = 0
    for index in range(games):
        hands = play_game(seed + index, standard, policy=("random", "mixed")[index % 2])
        text = game_log(hands, target=standard.target)
        hands_played += len(hands)
        moons += text.count("\nmoon ")
        agree += _clean_agrees(check_text(text), hands)
    out["clean"] = {"games": games, "openspiel_hands": hands_played, "moon_hands": moons,
                    "agree": agree, "disagree": games - agree}

    found, agree, agree_standard, standard_differences = Counter(), 0, 0, Counter()
    tampered = 0
    for index in range(games):
        kind = KINDS[index % 3]
        hands = play_game(seed + index, standard, tamper_hand=1 + index % 5, want_kind=kind,
                          tamper_after=index % 40 if kind == "revoke" else 0)
        marked = [(n, h.tampering) for n, h in enumerate(hands, start=1) if h.tampering]
        if not marked:
            continue
        tampered += 1
        (number, change), = marked
        want = [(change.kind, number, change.trick, NAMES[change.seat])]
        points = [dict(zip(NAMES, h.points)) for h in hands]
        for path, is_standard in ((str(openspiel_path), False), ("standard", True)):
            report = check_text(game_log(hands, ruleset=path, target=standard.target))
            got = [(d.kind, d.hand, d.trick, d.player) for d in report.diagnostics]
            ok = got == want and [h.points for h in report.hands] == points
            if is_standard:
                agree_standard += ok
                if not ok:
                    standard_differences[" + ".join(d.kind for d in report.diagnostics)] += 1
            else:
                agree += ok
                found[change.kind] += ok
    out["tampered"] = {"games": tampered, "agree": agree, "disagree": tampered - agree,
                       "agree_by_kind": dict(found)}
    out["tampered_under_standard"] = {
        "games": tampered, "agree": agree_standard, "disagree": tampered - agree_standard,
        "diagnostics_when_disagreeing": dict(standard_differences)}

    agree = 0
    by_param, cases = Counter(), Counter()
    for index in range(games):
        params, hands, text = variant_game(seed + index, standard, folder,
                                           policy=("random", "mixed")[index % 2])
        ok = _clean_agrees(check_text(text), hands)
        agree += ok
        by_param.update(name for name, value in params.items() if value and ok)
        if params["can_lead_any_club"]:
            cases["first_leads_other_than_2C"] += sum(h.tricks[0][0][1] != TWO_OF_CLUBS
                                                      for h in hands)
        if params["avoid_all_tricks_bonus"]:
            cases["trickless_players_in_moon_hands"] += sum(len(trickless_in_moon(h))
                                                            for h in hands)
    out["variants"] = {"games": games, "agree": agree, "disagree": games - agree,
                       "agreeing_games_with_parameter_on": dict(sorted(by_param.items())),
                       "cases": dict(cases)}

    agree, tampered, found, any_club_leads = 0, 0, Counter(), 0
    for index in range(games):
        params = variant_params(seed + index)
        rules, path = variant_ruleset(params, standard, folder)
        kind = KINDS[index % 3]
        hands = play_game(seed + index, rules, params=params, tamper_hand=1 + index % 5,
                          want_kind=kind, tamper_after=index % 40 if kind == "revoke" else 0)
        marked = [(n, h.tampering) for n, h in enumerate(hands, start=1) if h.tampering]
        if not marked:
            continue
        tampered += 1
        (number, change), = marked
        report = check_text(game_log(hands, ruleset=path, target=rules.target))
        got = [(d.kind, d.hand, d.trick, d.player) for d in report.diagnostics]
        ok = got == [(change.kind, number, change.trick, NAMES[change.seat])] and [
            h.points for h in report.hands] == [dict(zip(NAMES, h.points)) for h in hands]
        agree += ok
        found[change.kind] += ok
        if params["can_lead_any_club"] and change.trick == 1 and change.kind == "illegal-lead":
            any_club_leads += ok
    out["tampered_variants"] = {"games": tampered, "agree": agree, "disagree": tampered - agree,
                                "agree_by_kind": dict(found),
                                "agreeing_non_club_first_leads_under_any_club": any_club_leads}
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per run (default 2000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE", help="also write the counts as JSON")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: pip install '.[openspiel]'", file=sys.stderr)
        return 0
    result = run(args.games, args.seed)
    clean, tampered, variants = result["clean"], result["tampered"], result["variants"]
    print(f"clean:     {clean['agree']}/{clean['games']} complete games agree "
          f"({clean['openspiel_hands']} OpenSpiel games, {clean['moon_hands']} with a moon)")
    print(f"tampered:  {tampered['agree']}/{tampered['games']} illegal plays reported exactly "
          f"{tampered['agree_by_kind']}")
    standard = result["tampered_under_standard"]
    print(f"           under standard: {standard['agree']}/{standard['games']} "
          f"{standard['diagnostics_when_disagreeing'] or ''}")
    print(f"variants:  {variants['agree']}/{variants['games']} games with random OpenSpiel "
          f"parameters agree {variants['cases']}")
    tampered = result["tampered_variants"]
    print(f"           tampered: {tampered['agree']}/{tampered['games']} illegal plays reported "
          f"exactly {tampered['agree_by_kind']}, "
          f"{tampered['agreeing_non_club_first_leads_under_any_club']} of them non-club first "
          "leads under can_lead_any_club")
    print(f"({result['seconds']} s)")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
