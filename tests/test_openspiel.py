"""Cross-check against an independent implementation: OpenSpiel's hearts (``pyspiel``).

Seeded OpenSpiel games (one OpenSpiel game is one hand; hands are chained into complete games
of the ``standard`` ruleset, each hand with the ruleset's pass direction) are written as logs;
the referee must find them clean and compute OpenSpiel's points for every player in every
hand.  Then one play is replaced by a card OpenSpiel refuses, and the referee must report
exactly that play, with the kind OpenSpiel's situation calls for.  OpenSpiel's other
parameters are checked against the ruleset options expressing them, ``can_lead_any_club``
(``first_lead_any_club``) and ``avoid_all_tricks_bonus`` (``no_tricks_bonus = -5``,
``no_tricks_bonus_in_moon_hand = false``) on their own as well.  Install with
``pip install '.[openspiel]'``; ``bench/openspiel_agreement.py`` runs thousands of games.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from referee.conformance.rng import Rng
from referee.conformance.generate import ruleset_toml
from referee.log.events import Tag
from referee.log.parser import parse_log
from referee.openspiel_bridge import (
    NAMES,
    NO_TRICKS_BONUS,
    OPENSPIEL_TOML,
    VARIANT_PARAMS,
    OpenSpielHand,
    Tampering,
    Unsupported,
    action_from_card,
    card_from_action,
    game_log,
    openspiel_params,
    play_game,
    ruleset_for,
    trickless_in_moon,
    variant_game,
)
from referee.run.single import check_text as _check_text
from referee.rules.cards import TWO_OF_CLUBS, parse_cards
from referee.rules.legality import Fault, card_fault, legal_cards
from referee.rules.ruleset import load_ruleset, with_options

pytestmark = pytest.mark.slow  # plays OpenSpiel games beside the engine

STANDARD = load_ruleset("standard")
CLEAN_GAMES = 200  # complete games of about 11 OpenSpiel games (hands) each
TAMPERED_GAMES = 300
VARIANT_GAMES = 100
OPTION_GAMES = 60  # games with can_lead_any_club and avoid_all_tricks_bonus both on


@pytest.fixture(scope="module")
def pyspiel():
    return pytest.importorskip(
        "pyspiel",
        reason="OpenSpiel is not installed: pip install '.[openspiel]' (PyPI open_spiel)")


@pytest.fixture(scope="module")
def openspiel_ruleset(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("rulesets") / "openspiel.toml"
    path.write_text(OPENSPIEL_TOML, encoding="utf-8")
    return str(path)


def check_text(text: str):
    """These logs name a ruleset file the test itself wrote, outside any log's folder: the
    caller (the test) allows that file's folder."""
    tags = [e.value for e in parse_log(text).events if isinstance(e, Tag) and e.name == "Ruleset"]
    folders = tuple(str(Path(v).parent) for v in tags if v.endswith(".toml"))
    return _check_text(text, allowed_dirs=folders)


def _agrees(text: str, hands: list[OpenSpielHand]) -> list[str]:
    """What the referee's report of a clean OpenSpiel game gets wrong (empty: all agrees)."""
    report = check_text(text)
    problems = [f"{d.kind} line {d.line}: {d.message}" for d in report.diagnostics]
    if len(report.hands) != len(hands):
        problems.append(f"{len(report.hands)} hands reported, {len(hands)} played")
    for summary, hand in zip(report.hands, hands):
        if not summary.complete or summary.points != dict(zip(NAMES, hand.points)):
            problems.append(f"hand {summary.number}: {summary.points} != OpenSpiel {hand.points}")
    totals = [sum(h.points[s] for h in hands) for s in range(4)]
    winners = [NAMES[s] for s in range(4) if totals[s] == min(totals)]
    if report.winners != winners:
        problems.append(f"winners {report.winners}, OpenSpiel's lowest totals {winners}")
    return problems


# -- the mapping ----------------------------------------------------------------------------
def test_standard_is_openspiel_with_its_default_parameters(pyspiel):
    defaults = pyspiel.load_game("hearts").get_parameters()
    assert openspiel_params(STANDARD) == defaults
    game = pyspiel.load_game("hearts", openspiel_params(STANDARD))
    state = game.new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "No Pass", "Left", "Across", "Right"]


def test_every_parameter_maps_to_options_and_back():
    for bits in range(2 ** len(VARIANT_PARAMS)):
        params = {name: bool(bits >> i & 1) for i, name in enumerate(VARIANT_PARAMS)}
        assert openspiel_params(ruleset_for(params, STANDARD)) == params


def test_the_openspiel_ruleset_is_ruleset_for_the_defaults(openspiel_ruleset):
    assert load_ruleset(openspiel_ruleset) == ruleset_for(openspiel_params(STANDARD), STANDARD)


def test_a_no_tricks_bonus_in_moon_hands_is_not_openspiels():
    with pytest.raises(Unsupported, match="moon hand"):
        openspiel_params(with_options(STANDARD, no_tricks_bonus=NO_TRICKS_BONUS))
    with pytest.raises(Unsupported, match="no-tricks bonus"):
        openspiel_params(with_options(STANDARD, no_tricks_bonus=-3,
                                      no_tricks_bonus_in_moon_hand=False))


def test_cards_map_both_ways(pyspiel):
    state = pyspiel.load_game("hearts").new_initial_state()
    state.apply_action(1)
    for action in range(52):
        card = card_from_action(action)
        assert str(card) == state.action_to_string(action).replace("T", "10")
        assert action_from_card(card) == action


def test_first_trick_follow_points_is_openspiels_reading():
    # a spade led to the first trick; the follower holds the Black Maria and another spade
    openspiel = ruleset_for(openspiel_params(STANDARD), STANDARD)
    holding = [0] * 52
    for card in parse_cards("QS 3S 3D"):
        holding[card] += 1
    trick = parse_cards("5S")
    queen, three = parse_cards("QS 3S")
    assert legal_cards(STANDARD, holding, trick, first_trick=True, hearts_broken=False) == (three,)
    fault = card_fault(STANDARD, holding, queen, trick, first_trick=True, hearts_broken=False)
    assert fault is Fault.FIRST_TRICK_POINTS
    assert set(legal_cards(openspiel, holding, trick, first_trick=True, hearts_broken=False)) == {
        queen, three}
    assert card_fault(openspiel, holding, queen, trick, first_trick=True,
                      hearts_broken=False) is None
    # discards are restricted by both readings
    void = [0] * 52
    for card in parse_cards("QS 2H 3D"):
        void[card] += 1
    clubs = parse_cards("2C")
    for rules in (STANDARD, openspiel):
        legal = legal_cards(rules, void, clubs, first_trick=True, hearts_broken=False)
        assert legal == parse_cards("3D")


# -- clean games ----------------------------------------------------------------------------
def test_random_openspiel_games_are_clean_and_score_the_same(pyspiel):
    played, directions, moons = 0, Counter(), 0
    failures = {}
    for seed in range(CLEAN_GAMES):
        hands = play_game(seed, STANDARD, policy="mixed")
        text = game_log(hands, target=STANDARD.target)
        problems = _agrees(text, hands)
        if problems:
            failures[seed] = problems[:3]
        played += len(hands)
        directions.update(h.direction for h in hands)
        moons += text.count("\nmoon ")
    assert failures == {}
    assert played >= 1000  # OpenSpiel games (hands)
    assert set(directions) == {"left", "right", "across", "hold"}
    assert moons >= 5  # the shooting policy makes OpenSpiel hands with a moon


def test_openspiel_variants_agree_with_the_matching_ruleset(pyspiel, tmp_path):
    """OpenSpiel's other parameters, each expressed by ruleset options (variants of standard)."""
    failures = {}
    for seed in range(VARIANT_GAMES):
        params, hands, text = variant_game(seed, STANDARD, tmp_path)
        problems = _agrees(text, hands)
        if problems:
            failures[seed] = (params, problems[:3])
    assert failures == {}


# -- can_lead_any_club and avoid_all_tricks_bonus ---------------------------------------------
OPTION_PARAMS = dict(pass_cards=True, no_pts_on_first_trick=True, can_lead_any_club=True,
                     jd_bonus=False, avoid_all_tricks_bonus=True, must_break_hearts=True,
                     qs_breaks_hearts=True, can_lead_hearts_instead_of_qs=False)


def _ruleset_file(folder, name: str, rules) -> str:
    path = folder / f"{name}.toml"
    path.write_text(ruleset_toml(rules), encoding="utf-8")
    return str(path)


def test_any_club_leads_and_moon_hands_without_the_bonus_agree(pyspiel, tmp_path):
    """Clean games agree, points included, under the matching options; the two cases that need
    them occur, and the options' defaults flag exactly them."""
    rules = ruleset_for(OPTION_PARAMS, STANDARD)
    assert rules.first_lead_any_club and not rules.no_tricks_bonus_in_moon_hand
    two_of_clubs_only = _ruleset_file(tmp_path, "2c", with_options(rules, first_lead_any_club=False))
    bonus_in_moon = _ruleset_file(tmp_path, "moon", with_options(
        rules, no_tricks_bonus_in_moon_hand=True))
    failures, other_leads, trickless = {}, 0, 0
    for seed in range(OPTION_GAMES):
        hands = play_game(seed, rules, params=OPTION_PARAMS, policy="mixed")
        text = game_log(hands, ruleset=_ruleset_file(tmp_path, "openspiel", rules),
                        target=rules.target)
        problems = _agrees(text, hands)
        leads = [n for n, h in enumerate(hands, start=1) if h.tricks[0][0][1] != TWO_OF_CLUBS]
        report = check_text(game_log(hands, ruleset=two_of_clubs_only, target=rules.target))
        if [(d.kind, d.hand, d.trick) for d in report.diagnostics] != [
                ("illegal-lead", n, 1) for n in leads]:
            problems.append(f"under first_lead_any_club = false: {report.diagnostics}")
        moons = {(n, NAMES[s]) for n, h in enumerate(hands, start=1) for s in trickless_in_moon(h)}
        report = check_text(game_log(hands, ruleset=bonus_in_moon, target=rules.target))
        if {(d.hand, d.player) for d in report.diagnostics if d.kind == "score-mismatch"} != moons:
            problems.append(f"under no_tricks_bonus_in_moon_hand = true: {report.diagnostics}")
        if problems:
            failures[seed] = problems[:3]
        other_leads += len(leads)
        trickless += len(moons)
    assert failures == {}
    assert other_leads >= 100 and trickless >= 5, (other_leads, trickless)


def test_illegal_first_leads_and_moon_bonuses_are_flagged(pyspiel, tmp_path):
    """A non-club first lead (OpenSpiel refuses it under can_lead_any_club) is an illegal lead;
    a moon hand scored with the no-tricks bonus is a score mismatch."""
    rules = ruleset_for(OPTION_PARAMS, STANDARD)
    path = _ruleset_file(tmp_path, "openspiel", rules)
    failures, leads, moons = {}, 0, 0
    for seed in range(OPTION_GAMES):
        hands = play_game(seed, rules, params=OPTION_PARAMS, tamper_hand=1 + seed % 5,
                          want_kind="illegal-lead", tamper_after=0)
        (number, change), = [(n, h.tampering) for n, h in enumerate(hands, start=1) if h.tampering]
        report = check_text(game_log(hands, ruleset=path, target=rules.target))
        got = [(d.kind, d.hand, d.trick, d.player) for d in report.diagnostics]
        want = [("illegal-lead", number, 1, NAMES[change.seat])]
        scores = [h.points for h in report.hands] == [dict(zip(NAMES, h.points)) for h in hands]
        if change.trick != 1 or got != want or not scores:
            failures[seed] = (want, got, scores)
        leads += 1
        hands = play_game(seed, rules, params=OPTION_PARAMS, policy="mixed")
        for index, hand in enumerate(hands):
            seats = trickless_in_moon(hand)
            if not seats:
                continue
            points = tuple(p + (NO_TRICKS_BONUS if s in seats else 0)
                           for s, p in enumerate(hand.points))
            tampered = hands[:index] + [replace(hand, points=points)] + hands[index + 1:]
            report = check_text(game_log(tampered, ruleset=path, target=rules.target))
            # lower written totals may also move the end of the game
            got = {(d.kind, d.hand, d.player) for d in report.diagnostics if d.kind != "game-end"}
            if got != {("score-mismatch", index + 1, NAMES[s]) for s in seats}:
                failures[f"moon {seed}"] = got
            moons += 1
            break
    assert failures == {}
    assert leads == OPTION_GAMES and moons >= 5, (leads, moons)


def test_a_partial_record_with_an_any_club_lead_is_consistent(pyspiel, tmp_path):
    from referee.run.single import check_path

    rules = ruleset_for(OPTION_PARAMS, STANDARD)
    seed = next(s for s in range(OPTION_GAMES) if play_game(
        s, rules, params=OPTION_PARAMS)[0].tricks[0][0][1] != TWO_OF_CLUBS)
    hands = play_game(seed, rules, params=OPTION_PARAMS)[:1]
    text = game_log(hands, ruleset=_ruleset_file(tmp_path, "openspiel", rules), game_over=False)
    log = tmp_path / "partial.log"  # the deal and passes unrecorded: z3 fills them in
    log.write_text("".join(line for line in text.splitlines(keepends=True)
                           if not line.startswith(("deal ", "pass "))), encoding="utf-8")
    assert check_path(log, invariants=True).diagnostics == []


# -- one illegal play -----------------------------------------------------------------------
def test_an_illegal_card_is_flagged_with_the_right_kind(pyspiel, openspiel_ruleset):
    kinds = ("revoke", "illegal-lead", "illegal-play")
    found, failures = Counter(), {}
    for seed in range(TAMPERED_GAMES):
        kind = kinds[seed % 3]
        hands = play_game(seed, STANDARD, tamper_hand=1 + seed % 5, want_kind=kind,
                          tamper_after=seed % 40 if kind == "revoke" else 0)
        tampered = [(n, h.tampering) for n, h in enumerate(hands, start=1) if h.tampering]
        if not tampered:
            continue  # no place for this kind in this game (illegal-play is rare)
        (number, change), = tampered
        text = game_log(hands, ruleset=openspiel_ruleset, target=STANDARD.target)
        report = check_text(text)
        got = [(d.kind, d.hand, d.trick, d.player) for d in report.diagnostics]
        want = [(change.kind, number, change.trick, NAMES[change.seat])]
        line = _trick_line(text, number, change.trick)
        scores = [h.points for h in report.hands] == [dict(zip(NAMES, h.points)) for h in hands]
        if got != want or report.diagnostics[0].line != line or not scores:
            failures[seed] = (want, got, scores)
        found[change.kind] += 1
    assert failures == {}
    assert min(found[k] for k in kinds) >= 5, found


def _trick_line(text: str, hand: int, trick: int) -> int:
    current = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("hand "):
            current = int(line.split()[1])
        elif current == hand and line.startswith(f"trick {trick}:"):
            return number
    raise AssertionError(f"no trick {trick} in hand {hand}")


def test_where_openspiel_and_standard_differ(pyspiel, openspiel_ruleset):
    """After an illegal spade lead to the first trick, the Black Maria follows suit although its
    player holds another spade: OpenSpiel accepts it, standard does not, the openspiel ruleset
    (first_trick_follow_points = true) agrees with OpenSpiel."""
    game = pyspiel.load_game("hearts", openspiel_params(STANDARD))
    state = game.new_initial_state()
    state.apply_action(0)  # no pass
    deck = [c for c in range(52)]
    north = parse_cards("2C 8S")
    east = parse_cards("QS 10S")
    rest = [c for c in deck if c not in north + east]
    hands = [list(north), list(east), [], []]
    for index, card in enumerate(rest):
        seat = min((s for s in range(4) if len(hands[s]) < 13), key=lambda s: (len(hands[s]), s))
        hands[seat].append(card)
    for i in range(13):
        for seat in range(4):
            state.apply_action(action_from_card(hands[seat][i]))
    eight, queen = parse_cards("8S QS")
    assert action_from_card(eight) not in state.legal_actions()  # OpenSpiel: the 2C leads
    state.apply_action(action_from_card(eight))
    assert action_from_card(queen) in state.legal_actions()  # OpenSpiel: QS may follow
    state.apply_action_with_legality_check(action_from_card(queen))
    tricks = [[(0, eight), (1, queen)]]
    rng = Rng(1)
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        if len(tricks[-1]) == 4:
            tricks.append([])
        tricks[-1].append((state.current_player(), card_from_action(action)))
        state.apply_action_with_legality_check(action)
    hand = OpenSpielHand("hold", tuple(tuple(sorted(h)) for h in hands), None, tricks,
                         tuple(int(state.points(p)) for p in range(4)),
                         Tampering(1, 0, eight, "illegal-lead"))
    no_pass = with_options(STANDARD, pass_cycle=("hold",))
    standard_path = openspiel_ruleset.replace("openspiel.toml", "standard-hold.toml")
    with open(standard_path, "w", encoding="utf-8") as out:
        out.write(ruleset_toml(no_pass))
    openspiel_path = openspiel_ruleset.replace("openspiel.toml", "openspiel-hold.toml")
    with open(openspiel_path, "w", encoding="utf-8") as out:
        out.write(ruleset_toml(with_options(no_pass, first_trick_follow_points=True)))
    under_standard = check_text(game_log([hand], ruleset=standard_path, game_over=False))
    assert [(d.kind, d.player) for d in under_standard.diagnostics] == [
        ("illegal-lead", "North"), ("illegal-play", "East")]
    under_openspiel = check_text(game_log([hand], ruleset=openspiel_path, game_over=False))
    assert [(d.kind, d.player) for d in under_openspiel.diagnostics] == [("illegal-lead", "North")]
    assert under_openspiel.hands[0].points == dict(zip(NAMES, hand.points))
