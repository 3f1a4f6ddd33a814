"""This module offers Hypothesis strategies and an assertion helper for testing other Hearts
implementations.

A validator draws legal logs (:func:`game_logs`) and logs with one violation
(:func:`violating_logs`, the violation in ``log.expected``); an engine plays a drawn deal
(:func:`deals`) and hands what it did to :func:`assert_events_legal`, which raises
:class:`RefereeAssertionError` (an ``AssertionError``) carrying the referee's diagnostics.
Every strategy takes keyword arguments only, each a value, a strategy of values or None
(drawn); spec/conformance.md has complete examples and tells how the examples shrink.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path

try:
    from hypothesis import reject
    from hypothesis import strategies as st
    from hypothesis.errors import InvalidArgument
    from hypothesis.strategies import SearchStrategy
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("referee.testing needs Hypothesis: pip install 'referee[test]' "
                      "(or pip install hypothesis)") from err

from referee.judge.diagnostics import Diagnostic, Report
from referee.conformance.gamestats import GameStats
from referee.conformance.rng import Rng
from referee.conformance.generate import (deal_events, log_header, players_tag, ruleset_toml,
                                          seat_names, twos_apart)
# play_hand plays one hand from its own Rng and deals it again if it runs into a dead end (R5.6)
from referee.conformance.generate import _play_hand_to_its_end as play_hand
from referee.conformance.inject import INJECTABLE, can_occur, hands_for, violating_game
from referee.conformance.verdicts import CannotInject, Expected
from referee.log.canonical import format_event
from referee.log.events import Event, GameOver, Tag
from referee.log.parser import parse_log
from referee.log.writer import write
from referee.rules import engine
from referee.rules.cards import Card
from referee.rules.options import CHOICES, MoonChoice, PassDirection
from referee.rules.ruleset import Ruleset, load_ruleset, with_options
from referee.rules.ruleset_files import bundled_names

__all__ = [
    "rulesets", "deals", "game_logs", "violating_logs", "assert_events_legal",
    "RefereeAssertionError", "GameLog", "DrawnDeal", "ruleset_toml",
]

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
_SHORT = st.integers(min_value=1, max_value=2)
HYPOTHESIS_EVENT = "drawn by referee.testing"
_TRIES = 25  # seeds tried for a violation before the example is rejected
# A game played to the end goes to the ruleset's own target one time in _FULL_GAME_ODDS, else
# to at most _SHORT_TARGET points (one or two hands): Hypothesis's explain phase replays about
# a hundred games drawn at random, which must stay cheap on average (a full game is ~15 hands).
_FULL_GAME_ODDS = 8
_SHORT_TARGET = 26


def as_strategy(value, default: SearchStrategy) -> SearchStrategy:
    if value is None:
        return default
    return value if isinstance(value, SearchStrategy) else st.just(value)


def as_ruleset(value) -> Ruleset:
    if isinstance(value, Ruleset):
        return value
    if isinstance(value, str):
        return load_ruleset(value)
    raise InvalidArgument(f"rules must be a Ruleset or a ruleset name, not {value!r}")


def _toml_path(value) -> str | None:
    """Return ``value`` when it names a ruleset file (a ``.toml`` path), else None."""
    return value if isinstance(value, str) and value.endswith(".toml") else None


def bundled_rulesets() -> list[Ruleset]:
    return [load_ruleset(name) for name in bundled_names()]


def _option_changes() -> SearchStrategy[dict]:
    """Draw option values that keep any bundled ruleset valid: any for a boolean or an option
    with a fixed set of values, a few for the others."""
    return st.fixed_dictionaries({}, optional={
        **{f.name: st.booleans() for f in fields(Ruleset) if f.type in ("bool", bool)},
        **{name: st.sampled_from(values) for name, values in CHOICES.items()},
        "target": st.integers(20, 300),
        "pass_count": st.integers(0, 3),
        "pass_cycle": st.lists(st.sampled_from([*PassDirection, "2 left"]),
                               min_size=1, max_size=4).map(tuple),
        "moon_points": st.sampled_from([26, 52]),
        "moon_choices": st.sampled_from([(MoonChoice.SUBTRACT, MoonChoice.ADD), (MoonChoice.ADD,),
                                         (MoonChoice.SUBTRACT,)]),
        "jack_of_diamonds_bonus": st.sampled_from([0, -10]),
        "no_tricks_bonus": st.sampled_from([0, -5]),
        "unpassable_cards": st.sampled_from([(), ("2C",)]),
        "pair_moon_points": st.sampled_from([0, 26]),
        "start_total": st.sampled_from([0, 100]),
        "penalty_sign": st.sampled_from([1, -1]),
        "clean_hand_pool": st.sampled_from([0, 52]),
    })


def rulesets(*, variants: bool = False) -> SearchStrategy[Ruleset]:
    """Draw a bundled ruleset; with ``variants=True`` also copies with some options changed.

    A variant keeps its base's name, which a log cannot name: use variants with :func:`deals`
    and :func:`assert_events_legal`, not with :func:`game_logs`.
    """
    bundled = st.sampled_from(bundled_rulesets())
    if not variants:
        return bundled
    changed = st.tuples(bundled, _option_changes()).map(
        lambda pair: with_options(pair[0], **pair[1]))
    return st.one_of(bundled, changed)


def players_for(draw, rules: Ruleset, players) -> int:
    if players is None:
        return draw(st.integers(rules.min_players, rules.max_players))
    value = draw(as_strategy(players, st.nothing()))
    if not rules.allows_players(value):
        raise InvalidArgument(f"{rules.name} is for {rules.min_players}-{rules.max_players} "
                              f"players, not {value}")
    return value


def nameable(rules: Ruleset) -> Ruleset:
    """Check that a log can name ``rules`` by its [Ruleset] tag (a Target tag may change the
    target), and return it."""
    try:
        bundled = load_ruleset(rules.name)
    except Exception:  # noqa: BLE001 - any failure means the name is not usable
        bundled = None
    if bundled is None or with_options(bundled, target=rules.target) != rules:
        raise InvalidArgument(f"a log cannot name this variant of {rules.name!r}: use a bundled "
                              "ruleset (variants only with deals() and assert_events_legal)")
    return rules


@dataclass(frozen=True)
class DrawnDeal:
    """A DrawnDeal holds one hand's deal: ``hands[seat]`` as dealt (sorted) and the ``kitty``."""

    rules: Ruleset
    players: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    names: tuple[str, ...]

    def action(self) -> engine.DealAction:
        """Return the deal as the referee engine's chance action."""
        return engine.DealAction(self.hands, self.kitty)

    def log_lines(self) -> list[str]:
        """Write :meth:`events` as text lines."""
        return [format_event(event) for event in self.events()]

    def events(self) -> list[Event]:
        """Make the start of a log of this hand: tags, ``hand 1`` line, deals and kitty."""
        return [Tag("Ruleset", self.rules.name), players_tag(self.names),
                *deal_events(self.rules, 1, self.dealer, self.names, self)]


@dataclass(frozen=True)
class GameLog:
    """A GameLog holds a generated log: its text and events, how it was made, and what a
    referee must say.

    ``expected`` is empty for a legal log, else the one injected violation.  ``str(log)`` is
    the text.  ``seed`` holds a seed per hand (:func:`game_logs`), or the seed given to
    :func:`~referee.conformance.inject.violating_game`."""

    text: str
    events: tuple[Event, ...] = field(repr=False)
    rules: Ruleset = field(repr=False)
    players: int
    seed: int | tuple[int, ...]
    hands: int | None
    strategy: str
    expected: tuple[Expected, ...] = ()

    def __str__(self) -> str:
        return self.text

    def _repr_pretty_(self, printer, cycle) -> None:  # how Hypothesis prints an example
        printer.text(repr(self))

    @property
    def kind(self) -> str | None:
        return self.expected[0].kind if self.expected else None


@st.composite
def deals(draw, *, rules=None, players=None) -> DrawnDeal:
    """Draw a shuffled deal for one hand: the decks shuffled by a drawn seed, dealt in blocks
    (so a smaller table keeps each seat's cards and adds some), the kitty last."""
    ruleset = as_ruleset(draw(as_strategy(rules, rulesets())))
    n = players_for(draw, ruleset, players)
    dealer = draw(st.integers(0, n - 1))
    order = engine.full_deck(ruleset)
    Rng(draw(SEEDS)).shuffle(order)
    per = ruleset.cards_per_player(n)
    deal = engine.DealAction(tuple(tuple(sorted(order[s * per:(s + 1) * per])) for s in range(n)),
                             tuple(sorted(order[n * per:])))
    if ruleset.two_of_clubs_apart:
        deal = twos_apart(deal)
    return DrawnDeal(ruleset, n, dealer, deal.hands, deal.kitty, seat_names(n))


@st.composite
def game_logs(draw, *, rules=None, players=None, hands=_SHORT, strategy=None,
              target=None) -> GameLog:
    """Draw a legal game log of ``hands`` hands (default 1 or 2; None: to the end of the game).

    A game to the end is played to a ``target``, drawn or given.  The table, length and
    strategy are drawn first, then the dealer and a seed per hand, so a failing example shrinks
    hand by hand.
    """
    chosen = draw(as_strategy(rules, rulesets()))
    path = _toml_path(chosen)
    ruleset = as_ruleset(chosen) if path else nameable(as_ruleset(chosen))
    n = players_for(draw, ruleset, players)
    count = draw(as_strategy(hands, st.none())) if hands is not None else None
    ruleset = _with_target(draw, ruleset, target, path, count is None)
    how = draw(as_strategy(strategy, st.sampled_from(("random", "simple"))))
    names, seeds = seat_names(n), []
    events = log_header(ruleset, names, HYPOTHESIS_EVENT)
    state = engine.new_game(ruleset, n, dealer=draw(st.integers(0, n - 1)))
    while state.phase is not engine.Phase.OVER and (count is None or len(seeds) < count):
        seeds.append(draw(SEEDS))
        state = play_hand(state, names, Rng(seeds[-1]), how, events, GameStats())
    if state.phase is engine.Phase.OVER:
        events.append(GameOver(tuple(names[s] for s in state.winners)))
    if path:
        events = _with_ruleset(events, _ruleset_reference(path))
    return GameLog(write(events), tuple(events), ruleset, n, tuple(seeds), count, how)


def _with_target(draw, ruleset: Ruleset, target, path, to_the_end: bool) -> Ruleset:
    """Return the ruleset with the target drawn (or given): a shorter game under the same
    rules."""
    if target is None and (path or not to_the_end):
        return ruleset
    if path:
        raise InvalidArgument("a ruleset from a file keeps its own target; write it in the file")
    own = ruleset.target
    if target is None:  # drawn: shrinks to a short game (0, then the smallest target)
        full = draw(st.integers(0, _FULL_GAME_ODDS - 1)) == _FULL_GAME_ODDS - 1
        value = own if full else draw(st.integers(1, min(own, _SHORT_TARGET)))
    else:
        value = draw(as_strategy(target, st.nothing()))
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidArgument(f"target must be a whole number of points, 1 or more; got {value!r}")
    return ruleset if value == own else with_options(ruleset, target=value)


@st.composite
def violating_logs(draw, *, kinds=None, rules=None, players=None, hands=_SHORT) -> GameLog:
    """Draw a log with exactly one violation of a kind from ``kinds``, in ``log.expected``.

    ``kinds`` defaults to every injectable kind (:data:`referee.conformance.inject.INJECTABLE`).
    Without ``rules`` the ruleset is drawn among those where the kind can occur.
    """
    wanted = tuple(kinds) if kinds is not None else INJECTABLE
    if not wanted or any(k not in INJECTABLE for k in wanted):
        raise InvalidArgument(f"kinds must be among {', '.join(INJECTABLE)}; got {wanted!r}")
    if rules is not None and not isinstance(rules, SearchStrategy):
        fixed = as_ruleset(rules)
        wanted = tuple(k for k in wanted if can_occur(k, fixed))
        if not wanted:
            raise InvalidArgument(f"none of these kinds can occur under {fixed.name}")
    kind = draw(st.sampled_from(wanted))
    if rules is None:
        ruleset = draw(st.sampled_from([r for r in bundled_rulesets() if can_occur(kind, r)]))
    else:
        ruleset = as_ruleset(draw(as_strategy(rules, st.nothing())))
    path = _toml_path(rules)
    ruleset = ruleset if path else nameable(ruleset)
    n = players_for(draw, ruleset, players)
    count = draw(as_strategy(hands, st.none())) if hands is not None else None
    count = hands_for(kind, count)
    seed = draw(SEEDS)
    tag = _ruleset_reference(path) if path else None  # the tag names the file
    for attempt in range(_TRIES):
        try:
            text, expected = violating_game(ruleset, n, seed=seed + attempt, kind=kind, hands=count,
                                            ruleset_tag=tag)
        except CannotInject:
            continue
        return GameLog(text, parse_log(text).events, ruleset, n, seed + attempt, count, "random",
                       (expected,))
    reject()  # no place for this kind in _TRIES games: let Hypothesis draw another example


class RefereeAssertionError(AssertionError):
    """RefereeAssertionError says that the referee found violations; ``diagnostics`` and
    ``report`` hold what it found."""

    def __init__(self, message: str, report: Report | None, text: str):
        super().__init__(message)
        self.report = report
        self.text = text
        self.diagnostics: list[Diagnostic] = list(report.diagnostics) if report else []


_TOML_DIR: Path | None = None


def _ruleset_reference(rules) -> str:
    """Say what a [Ruleset] tag says for ``rules``: a bundled name, or a TOML file written
    here."""
    global _TOML_DIR
    if isinstance(rules, str):
        load_ruleset(rules)  # a clear error now for an unknown name
        return str(Path(rules).resolve()) if rules.endswith(".toml") else rules
    if rules.name in bundled_names() and load_ruleset(rules.name) == rules:
        return rules.name
    text = ruleset_toml(rules)
    if _TOML_DIR is None:
        _TOML_DIR = Path(tempfile.mkdtemp(prefix="referee-rulesets-"))
    path = _TOML_DIR / (hashlib.sha256(text.encode()).hexdigest()[:16] + ".toml")
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return str(path)


def _with_ruleset(events: list[Event], reference: str) -> list[Event]:
    kept = [e for e in events if not (isinstance(e, Tag) and e.key == "ruleset")]
    at = next((i for i, e in enumerate(kept) if not isinstance(e, Tag)), len(kept))
    return kept[:at] + [Tag("Ruleset", reference)] + kept[at:]


def assert_events_legal(events: Iterable[Event] | str, *, ruleset: Ruleset | str | None = None,
                        allowed_dirs: tuple[str | Path, ...] = ()) -> Report:
    """Referee a game and return the report; raise :class:`RefereeAssertionError` if not clean.

    The game is given as :mod:`referee.log.events` records or as log text.  ``ruleset``, if
    given, replaces the log's ``[Ruleset]`` tag.  A ruleset file that a tag names is read only
    if it is under one of ``allowed_dirs``, or in the folder of the file that ``ruleset``
    names or that this call wrote.
    """
    from referee.judge.walk import judge_text

    reference = "" if ruleset is None else _ruleset_reference(ruleset)
    if isinstance(events, str):
        text = events
        if ruleset is not None:
            parsed = parse_log(text)
            if parsed.issues:
                report = judge_text(text, allowed_dirs=allowed_dirs)
                raise RefereeAssertionError(_message(report, text), report, text)
            text = write(_with_ruleset(list(parsed.events), reference))
    else:
        records = list(events)
        if ruleset is not None:
            records = _with_ruleset(records, reference)
        try:
            text = write(records)
        except (ValueError, TypeError) as err:
            raise RefereeAssertionError(f"the events cannot be written as a log: {err}",
                                        None, "") from None
    allowed = tuple(allowed_dirs)
    if reference.endswith(".toml"):  # the folder of the file this call wrote or was given
        allowed += (Path(reference).parent,)
    report = judge_text(text, allowed_dirs=allowed)
    if report.verdict != "clean":
        raise RefereeAssertionError(_message(report, text), report, text)
    return report


def _message(report: Report, text: str) -> str:
    if report.unreadable is not None:
        return f"the referee cannot read this log: {report.unreadable}"
    lines = text.split("\n")
    out = [f"the referee found {len(report.diagnostics)} violation(s):"]
    for d in report.diagnostics:
        out.append(f"  line {d.line}:{d.column}: {d.code} {d.kind} [{d.rule}] {d.message}")
        if 0 < d.line <= len(lines):
            out.append(f"      {d.line} | {lines[d.line - 1]}")
        if d.hint:
            out.append(f"      hint: {d.hint}")
    return "\n".join(out)
