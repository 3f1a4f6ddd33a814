"""Proved invariants and partial records: every law proved on legal games, each one
violated by a matching edit, partial records judged both ways, and z3 kept out of plain checks."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from functools import lru_cache
from pathlib import Path

import pytest

from referee.conformance.generate import generate_game
from referee.conformance.inject import violating_game
from referee.log.events import Deal, HandStart, Kitty
from referee.log.parser import parse_log
from referee.log.writer import write
from referee.proofs.invariants import _won
from referee.proofs.invariants import attach_invariants
from referee.proofs.partial import partial_record_conflicts
from referee.run.single import check_parsed, check_text
from referee.rules.cards import NUM_RANKS, SPADES, card_text, parse_card
from referee.rules.names import DEFAULT_NAMES
from referee.rules.ruleset import load_ruleset, with_options

pytestmark = pytest.mark.slow  # z3 invariants of whole games

CORPUS = Path(__file__).resolve().parent.parent / "examples" / "corpus"
LAWS = {"cards-dealt", "cards-played", "points-conserved", "score-sum", "totals"}
NAMES = list(DEFAULT_NAMES[:6])


@lru_cache(maxsize=None)
def game_text(ruleset: str, players: int, seed: int, hands: int = 2) -> str:
    return write(generate_game(load_ruleset(ruleset), players, seed=seed, hands=hands))


def checked(text: str):
    parsed = parse_log(text)
    report = check_parsed(parsed, "<test>")
    attach_invariants(report, parsed)
    return report


def by_status(report, status: str) -> list[dict]:
    return [i for i in report.invariants if i["status"] == status]


def test_z3_is_not_imported_by_a_plain_check():
    code = ("import referee, referee.cli, sys; referee.check(text='x'); "
            "assert 'z3' not in sys.modules; "
            "import referee.proofs.invariants, referee.proofs.audit, referee.proofs.verify_rules, referee.proofs.partial; "
            "assert 'z3' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("ruleset, players, seed", [
    ("cancellation", 6, 1),   # kitty of 2
    ("cancellation", 7, 3),   # kitty of 6
    ("cancellation", 8, 2),   # no kitty
    ("cancellation", 11, 4),
    ("standard", 4, 5),       # one deck: 26 points
])
def test_every_law_is_proved_on_a_legal_game(ruleset, players, seed):
    report = checked(game_text(ruleset, players, seed))
    assert report.verdict == "clean", report.diagnostics
    assert {(i["name"], i["status"]) for i in report.invariants} == {(n, "proved") for n in LAWS}
    assert {i["hand"] for i in report.invariants} == {1, 2}
    whole = load_ruleset(ruleset).points_per_hand
    points = [i["detail"] for i in report.invariants if i["name"] == "points-conserved"]
    assert all(f"= {whole} =" in d and "78" not in d for d in points)


def test_points_total_is_derived_from_the_decks_not_the_design_note():
    assert load_ruleset("cancellation").points_per_hand == 52
    assert load_ruleset("standard").points_per_hand == 26


def test_attach_without_parsed_reparses_the_source():
    text = game_text("cancellation", 6, 1)
    report = check_text(text)
    attach_invariants(report)
    assert report.invariants == checked(text).invariants
    assert report.to_json()["invariants"] == report.invariants


def test_attach_with_the_checks_table_and_records_regroups_nothing(monkeypatch):
    import referee.proofs.invariants as invariants
    from referee.proofs.handfacts import hand_records, table_for

    text = game_text("cancellation", 7, 2)
    parsed = parse_log(text)
    table = table_for(parsed)
    records = hand_records(table, parsed)
    monkeypatch.setattr(invariants, "hand_records", None)  # not called
    report = check_parsed(parsed, "<test>")
    attach_invariants(report, parsed, table=table, records=records)
    monkeypatch.undo()
    assert report.invariants == checked(text).invariants


def test_unreadable_or_setup_less_reports_get_nothing():
    report = check_text("score: Al 1\n")  # no Players tag
    attach_invariants(report)
    assert report.invariants == []


def test_the_fast_winner_test_agrees_with_the_engine_on_every_trick():
    rules = load_ruleset("cancellation")
    for players, seed in ((6, 1), (8, 2), (11, 4)):
        trace: list = []
        check_parsed(parse_log(game_text("cancellation", players, seed)), "<t>", trace=trace)
        assert trace
        for record in (entry.record for entry in trace):
            cards = [card for _, card in record.plays]
            assert _won(cards, rules) == (record.outcome.winner is not None)
    two_pairs = with_options(rules, set_aside_when="two_pairs")
    cards = [parse_card(c) for c in "10S 9H 9H 10S AS 3S".split()]
    assert not _won(cards, two_pairs) and _won(cards, rules)


def test_engine_points_flow_conserves_points_on_traced_games():
    for ruleset, players, seed in (("cancellation", 6, 1), ("cancellation", 7, 3), ("standard", 4, 5)):
        rules = load_ruleset(ruleset)
        trace: list = []
        check_parsed(parse_log(game_text(ruleset, players, seed)), "<t>", trace=trace)
        for hand in {entry.hand for entry in trace}:
            records = [entry.record for entry in trace if entry.hand == hand]
            taken = sum(r.points for r in records if r.winner is not None)
            lost = records[-1].points if records[-1].winner is None else 0
            assert taken + lost == rules.points_per_hand


# -- violations ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind, law", [
    ("score-mismatch", "score-sum"),
    ("total-mismatch", "totals"),
    ("card-not-held", "cards-played"),
    ("bad-deal", "cards-dealt"),
])
def test_a_matching_edit_violates_the_law(kind, law):
    rules = load_ruleset("cancellation")
    for seed in range(1, 30):
        try:
            text, expected = violating_game(rules, 6, seed=seed, kind=kind, hands=2)
        except Exception:  # no place for this violation in this game
            continue
        break
    report = checked(text)
    violated = {(i["name"], i["hand"]) for i in by_status(report, "violated")}
    assert (law, expected.hand) in violated
    # the check's own finding stands on its line; a law broken there is not reported twice,
    # and an invariant diagnostic never shares a line with another kind
    assert any(d.kind == kind and d.line == expected.line for d in report.diagnostics)
    other_lines = {d.line for d in report.diagnostics if d.kind != "invariant"}
    diags = [d for d in report.diagnostics if d.kind == "invariant"]
    assert all(d.code == "CH601" and d.line not in other_lines for d in diags)
    assert [(d.line, d.column) for d in report.diagnostics] == sorted(
        (d.line, d.column) for d in report.diagnostics)


def test_a_third_copy_of_a_heart_breaks_points_conservation():
    text = game_text("cancellation", 6, 1)
    lines = text.split("\n")
    last = min(i for i, line in enumerate(lines) if line.startswith("trick 17:"))
    # replace the first non-point card of hand 1's last trick by a heart played twice already
    played = " ".join(l for l in lines[:last] if l.startswith("trick "))
    heart = next(h for h in ("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H".split())
                 if len(re.findall(rf"\b{h}\b", played)) == 2)
    match = re.search(r"\b(\d+|[JQKA])([SDC])\b", lines[last].split(":", 1)[1])
    old = match.group(0)
    lines[last] = lines[last].replace(f" {old}", f" {heart}", 1)
    report = checked("\n".join(lines))
    violated = {i["name"] for i in by_status(report, "violated") if i["hand"] == 1}
    assert {"points-conserved", "cards-played"} <= violated
    # the check already reports the third copy on that line; the broken laws are its
    # consequence: recorded as violated, not reported as a second diagnostic
    on_line = [d.kind for d in report.diagnostics if d.line == last + 1]
    assert on_line == ["card-not-held"]
    detail = next(i["detail"] for i in by_status(report, "violated") if i["name"] == "points-conserved")
    assert "52" in detail


def test_one_violated_hand_leaves_the_others_proved():
    # the log's laws are first decided together; one counterexample sends each hand to be
    # decided alone, and only the broken law of the broken hand is violated
    rules = load_ruleset("cancellation")
    text, expected = violating_game(rules, 7, seed=2, kind="score-mismatch", hands=3)
    report = checked(text)
    assert {(i["name"], i["hand"]) for i in by_status(report, "violated")} == {
        ("score-sum", expected.hand)}
    assert all(i["status"] == "proved" for i in report.invariants
               if (i["name"], i["hand"]) != ("score-sum", expected.hand))


def test_the_points_flow_function_leaves_what_the_engine_loses():
    import z3

    from referee.proofs.handfacts import gather, hand_records, table_for
    from referee.proofs.invariants import _points
    from referee.proofs.smt_ops import DEFINITIONS

    parsed = parse_log(CORPUS.joinpath("012-cancellation-11p-lost-points.log").read_text())
    table = table_for(parsed)
    report = check_parsed(parsed, "<t>")
    lost_hands = 0
    for record, summary in zip(hand_records(table, parsed), report.hands):
        law, lost, lost_value = _points(gather(table, record))
        assert law.detail.endswith(f"{lost_value} lost in a set-aside last trick") == bool(
            lost_value)
        assert lost_value == summary.lost
        lost_hands += bool(lost_value)
        solver = z3.Solver(ctx=z3.Context())
        solver.from_string(" ".join(DEFINITIONS.values()))
        solver.from_string(f"(assert (not (and (= {lost} {lost_value}) {law.groups[0].smt})))")
        assert solver.check() == z3.unsat
    assert lost_hands


def test_threads_each_get_their_own_prover():
    from concurrent.futures import ThreadPoolExecutor

    texts = [game_text("cancellation", players, seed) for players, seed in ((6, 1), (9, 2))]
    texts.append(violating_game(load_ruleset("cancellation"), 6, seed=3, kind="total-mismatch",
                                hands=2)[0])
    alone = [checked(text).invariants for text in texts]
    import referee.proofs.invariants as invariants

    provers, ready = [], threading.Barrier(3)

    def check(text):
        ready.wait(10)  # all three threads are alive at once: three different threads
        provers.append(invariants._prover())
        return checked(text).invariants

    with ThreadPoolExecutor(3) as pool:
        together = list(pool.map(check, texts))
    assert together == alone
    assert len({id(p) for p in provers}) == 3 and invariants._prover() not in provers


def test_a_prover_that_failed_is_not_reused(monkeypatch):
    import referee.proofs.invariants as invariants

    text = game_text("cancellation", 6, 1)
    first = invariants._prover()

    def broken(self, formulas):
        raise RuntimeError("z3 went away")

    monkeypatch.setattr(invariants._Prover, "_check", broken)
    with pytest.raises(RuntimeError):
        checked(text)
    monkeypatch.undo()
    assert invariants._prover() is not first
    assert {i["status"] for i in checked(text).invariants} == {"proved"}


# -- the scoresheet laws on hand-made sheets ------------------------------------------------------
def sheet(*rows, players=NAMES) -> str:
    out = [f'[Players "{" ".join(players)}"]']
    for kind, values in rows:
        out.append(f"{kind}: " + ", ".join(f"{p} {v}" for p, v in zip(players, values)))
    return "\n".join(out) + "\n"


def test_a_moon_line_is_proved_and_a_broken_moon_is_not():
    good = checked(sheet(("score", [-26, 0, 0, 0, 0, 0]), ("total", [-26, 0, 0, 0, 0, 0]),
                         ("score", [0, 26, 26, 26, 26, 26]), ("total", [-26, 26, 26, 26, 26, 26])))
    assert {(i["name"], i["status"]) for i in good.invariants} == {
        ("score-sum", "proved"), ("totals", "proved"),
        ("cards-dealt", "skipped"), ("cards-played", "skipped"), ("points-conserved", "skipped")}
    bad = checked(sheet(("score", [-26, 1, 0, 0, 0, 0]), ("total", [-26, 1, 0, 0, 0, 0])))
    assert [i["name"] for i in by_status(bad, "violated")] == ["score-sum"]
    # plain check already names the fault on line 2; the law's failure is not reported twice
    assert [(d.kind, d.line) for d in bad.diagnostics] == [("score-mismatch", 2)]


def test_a_moon_hand_with_a_bonus_sums_to_the_moon_plus_the_bonus(tmp_path):
    from referee.run.single import check_path

    (tmp_path / "jd.toml").write_text(
        'base = "standard"\nname = "jd"\njack_of_diamonds_bonus = -10\n', "utf-8")
    head = '[Ruleset "jd.toml"]\n[Players "North East South West"]\nhand 1 dealer West\n'
    statuses = {}
    for name, scores in {"moon": "-10 26 26 26", "off": "-10 26 26 25"}.items():
        north, east, south, west = scores.split()
        path = tmp_path / f"{name}.log"
        path.write_text(head + f"score: North {north}, East {east}, South {south}, West {west}\n",
                        "utf-8")
        report = check_path(path, invariants=True)
        statuses[name] = next(i["status"] for i in report.invariants if i["name"] == "score-sum")
    # the shooter took the jack of diamonds: 78 = 3 x 26, less its 10
    assert statuses == {"moon": "proved", "off": "violated"}


def test_lost_points_are_allowed_only_as_the_ruleset_allows():
    short = sheet(("score", [10, 14, 0, 5, 13, 9]))  # 51: one point lost?
    report = checked(short)
    score = next(i for i in report.invariants if i["name"] == "score-sum")
    assert score["status"] == "proved" and "1 point(s) were lost" in score["detail"]
    over = checked(sheet(("score", [10, 14, 0, 5, 13, 11])))  # 53: never
    assert [i["name"] for i in by_status(over, "violated")] == ["score-sum"]


def test_totals_run_over_a_hand_without_a_total_line():
    rows = [("score", [10, 14, 0, 5, 13, 10]), ("total", [10, 14, 0, 5, 13, 10]),
            ("score", [0, 15, 20, 2, 13, 2]),
            ("score", [30, 0, 22, 0, 0, 0]), ("total", [40, 29, 42, 7, 26, 12])]
    report = checked(sheet(*rows))
    assert not by_status(report, "violated")
    assert [i["status"] for i in report.invariants if i["name"] == "totals"] == [
        "proved", "skipped", "proved"]
    rows[-1] = ("total", [40, 29, 42, 7, 26, 13])
    report = checked(sheet(*rows))
    (bad,) = by_status(report, "violated")
    assert bad["name"] == "totals" and bad["hand"] == 3 and "Fay's total is 13" in bad["detail"]
    assert "12 + 2 + 0 = 14" not in bad["detail"] and "10 + 2 + 0 = 12" in bad["detail"]


# -- partial records ------------------------------------------------------------------------------
def _hand_one(seed: int):
    events = generate_game(load_ruleset("cancellation"), 6, seed=seed, hands=1)
    start = next(e for e in events if isinstance(e, HandStart))
    deals = {e.player: list(e.run.cards) for e in events if isinstance(e, Deal)}
    kitty = next(e for e in events if isinstance(e, Kitty)).run.cards
    return start, deals, kitty


def _log(start, deals, kitty, tricks) -> str:
    lines = [f'[Players "{" ".join(NAMES)}"]', f"hand 1 dealer {start.dealer} pass left"]
    lines += [f"deal {p}: " + " ".join(map(card_text, deals[p])) for p in NAMES if p in deals]
    lines += ["kitty: " + " ".join(map(card_text, kitty))]
    lines += [f"trick {i}: " + ", ".join(f"{p} {card_text(c)}" for p, c in plays)
              for i, plays in enumerate(tricks, 1)]
    return "\n".join(lines) + "\n"


def _spades(cards):
    return [c for c in cards if c // NUM_RANKS == SPADES]


def _show_out_log(spades_needed: int) -> tuple[str, str]:
    """Deals but no passes; one player dealt `spades_needed` spades discards on a spade lead."""
    for seed in range(1, 200):
        start, deals, kitty = _hand_one(seed)
        dealer = NAMES.index(start.dealer)
        order = [NAMES[(dealer + 1 + i) % 6] for i in range(6)]
        who = next((p for p in order[1:] if len(_spades(deals[p])) == spades_needed), None)
        if who is None or not _spades(deals[order[0]]):
            continue
        plays = []
        for p in order:
            if p == who:
                card = next(c for c in deals[p] if c // NUM_RANKS != SPADES)
            else:
                card = (_spades(deals[p]) or deals[p])[0]
            plays.append((p, card))
        return _log(start, deals, kitty, [plays]), who
    raise AssertionError("no suitable deal")


def test_showing_out_with_too_many_spades_dealt_is_a_conflict():
    text, who = _show_out_log(4)
    report = checked(text)
    assert not [d for d in report.diagnostics if d.kind != "invariant"]  # the check cannot tell
    (violated,) = by_status(report, "violated")
    assert violated["name"] == "holdings-exist"
    deal_line = next(i for i, l in enumerate(text.split("\n"), 1) if l.startswith(f"deal {who}:"))
    trick_line = len(text.split("\n")) - 1
    (diag,) = [d for d in report.diagnostics if d.kind == "invariant"]
    assert diag.line == trick_line and diag.rule == "R5"
    assert [r.line for r in diag.related] == [deal_line]
    assert f"let {who} show out of spades in trick 1 (line {trick_line})" in diag.message
    assert f"three cards {who} could have passed on" in diag.message
    (conflict,) = partial_record_conflicts(parse_log(text))
    assert conflict.lines == (deal_line, trick_line) and conflict.message == diag.message


def test_showing_out_after_passing_every_spade_is_consistent():
    text, _who = _show_out_log(3)
    report = checked(text)
    assert report.diagnostics == []
    exist = next(i for i in report.invariants if i["name"] == "holdings-exist")
    assert exist["status"] == "proved"
    assert partial_record_conflicts(parse_log(text)) == []


def test_a_card_nobody_could_have_passed_is_a_conflict():
    for seed in range(1, 200):
        start, deals, kitty = _hand_one(seed)
        dealer = NAMES.index(start.dealer)
        order = [NAMES[(dealer + 1 + i) % 6] for i in range(6)]
        leader = order[0]
        sender = NAMES[(NAMES.index(leader) - 1) % 6]  # passes left: the right neighbour sends
        # a card neither the leader nor the sender was dealt, not a point card, not in the kitty
        foreign = [c for c in range(52) if c not in deals[leader] and c not in deals[sender]
                   and c not in kitty and c // NUM_RANKS != 1 and c != parse_card("QS")]
        if not foreign:
            continue
        card = foreign[0]
        plays = [(leader, card)]
        for p in order[1:]:  # the others follow suit with cards they were dealt, if they can
            mine = [c for c in deals[p] if all(c != q for _, q in plays)]
            plays.append((p, next((c for c in mine if c // NUM_RANKS == card // NUM_RANKS),
                                  mine[0])))
        text = _log(start, deals, kitty, [plays])
        break
    (conflict,) = partial_record_conflicts(parse_log(text))
    lines = text.split("\n")
    expected = {i for i, l in enumerate(lines, 1) if l.startswith((f"deal {leader}:", f"deal {sender}:"))}
    assert expected <= set(conflict.lines) and len(lines) - 1 in conflict.lines
    assert f"hold the {card_text(card)} {leader} played in trick 1" in conflict.message
    assert f"three cards {sender} could have passed to {leader}" in conflict.message or (
        "could have passed on or received from" in conflict.message)


def test_a_legal_game_without_pass_lines_or_a_deal_line_is_consistent():
    text = game_text("cancellation", 6, 1, hands=1)
    lines = [l for l in text.split("\n") if not l.startswith("pass ")]
    without_passes = "\n".join(lines)
    assert partial_record_conflicts(parse_log(without_passes)) == []
    report = checked(without_passes)
    assert not by_status(report, "violated")
    assert any(i["name"] == "holdings-exist" and i["status"] == "proved" for i in report.invariants)
    one_deal_less = "\n".join(l for l in text.split("\n") if not l.startswith("deal Beth:"))
    assert partial_record_conflicts(parse_log(one_deal_less)) == []
    stopped = "\n".join(l for l in without_passes.split("\n")
                        if not re.match(r"trick (1[0-9]|[6-9]):", l))  # stops after trick 5
    assert partial_record_conflicts(parse_log(stopped)) == []


def test_a_conflict_the_check_already_reported_gets_no_second_diagnostic():
    text, who = _show_out_log(4)
    lines = text.rstrip("\n").split("\n")
    # trick 2 led by the trick-1 leader in spades again; `who` then plays a spade it holds:
    # now the check proves the revoke in trick 1 from the later play
    leader = lines[-1].split(": ", 1)[1].split(",")[0].split()[0]
    deals = {l.split(":")[0][5:]: l.split(": ", 1)[1].split() for l in lines if l.startswith("deal ")}
    spade = next(c for c in deals[who] if c.endswith("S"))
    lead = next(c for c in deals[leader] if c.endswith("S") and c not in lines[-1])
    lines.append(f"trick 2: {leader} {lead}, " + ", ".join(
        f"{p} {spade if p == who else deals[p][-1]}" for p in
        [NAMES[(NAMES.index(leader) + i) % 6] for i in range(1, 6)]))
    report = checked("\n".join(lines) + "\n")
    assert any(d.kind == "revoke" for d in report.diagnostics)
    (exist,) = [i for i in report.invariants if i["name"] == "holdings-exist"]
    assert exist["status"] == "violated" and "already reported on line" in exist["detail"]
    assert not [d for d in report.diagnostics if d.kind == "invariant" and d.rule == "R5"]


def test_under_first_lead_any_club_only_a_non_club_first_lead_is_a_conflict(tmp_path):
    from referee.run.single import check_path

    (tmp_path / "anyclub.toml").write_text(
        'base = "standard"\nname = "anyclub"\nfirst_lead_any_club = true\n', "utf-8")
    head = ('[Ruleset "anyclub.toml"]\n[Players "North East South West"]\n'
            "hand 1 dealer West pass hold\n")
    statuses = {}
    for name, trick in {"club": "North 9C, East 10C, South JC, West QC -> West",
                        "diamond": "North 9D, East 10D, South JD, West QD -> West"}.items():
        path = tmp_path / f"{name}.log"
        path.write_text(head + f"trick 1: {trick}\n", "utf-8")
        report = check_path(path, invariants=True)
        statuses[name] = next(i["status"] for i in report.invariants
                              if i["name"] == "holdings-exist")
    # a non-club lead means nobody was dealt a club: impossible with a full deck dealt
    assert statuses == {"club": "proved", "diamond": "violated"}
