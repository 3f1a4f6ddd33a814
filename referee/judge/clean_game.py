"""This module checks a clean game in the writer's form straight from its lines, without events.

:func:`clean_report` plays such a log on the engine (a play is a (seat, card) pair looked up by
its text; the holdings are lists of counts).  At the first line or play it does not take as it
stands it steps aside, and the full check takes the log up from the hand it stopped in
(:class:`Resume`), or whole.  This earns about twice the card plays per second on generated
games; tests/test_clean_game.py holds it to the full check's report."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from referee.judge.diagnostics import HandSummary, Report
from referee.judge.plays import clean_cards
from referee.judge.setup import setup_table
from referee.judge.stream import conclude
from referee.judge.table import Findings
from referee.log.decode import UnreadableLog
from referee.log.parser import parse_text
from referee.rules import engine
from referee.rules.cards import CARDS, DECK_SIZE, card_text
from referee.rules.options import FirstLeader
from referee.rules.ruleset import Ruleset, direction_offset
from referee.rules.state import DealAction, Phase, State

# plain ints, not Card: Python 3.11 specializes arithmetic, comparison and list indexing on
# exact ints only (6% of a clean game's check); no card of this path reaches a message
_CARD = {card_text(card): int(card) for card in CARDS}


class _Lines:
    """Read the lines of ``text`` from ``start`` on, one at a time (a log is not split whole:
    the memory a check takes stays that of the text and its summaries)."""

    __slots__ = ("text", "at")

    def __init__(self, text: str, start: int) -> None:
        self.text, self.at = text, start

    def __bool__(self) -> bool:
        return self.at <= len(self.text)

    def read(self) -> str:
        """Return the next line (a method, not ``__call__``: an instance call costs more)."""
        text, at = self.text, self.at
        end = text.find("\n", at)
        if end < 0:
            end = len(text)
        self.at = end + 1
        return text[at:end]


class Resume(NamedTuple):
    """Say where the full check takes a log up: the hand the clean path stopped in, with the
    game as the clean hands before it left it."""

    setup_end: int  # the offset where the setup's tags end
    offset: int  # the offset of the stopped hand's line
    state: State  # the engine's state at that hand's deal
    totals: tuple[int, ...]  # after the clean hands
    older: tuple[int, ...]  # before the last clean hand
    summaries: list[HandSummary]

    def text(self, text: str) -> str:
        """Return ``text`` with the clean hands' lines left blank, every line at its own number."""
        skipped = text.count("\n", self.setup_end, self.offset)
        return text[:self.setup_end] + "\n" * skipped + text[self.offset:]


class _NotClean(Exception):
    """Stop the fast path at a line it does not take as it stands."""


def clean_report(text: str, path: str, *, base_dir: Path | None = None,
                 max_diagnostics: int, ruleset: Ruleset | None = None,
                 allowed_dirs: tuple[str | Path, ...] = ()) -> Report | Resume | None:
    """Return the report of ``text`` when it is a clean game in the writer's form; else where
    the full check may take it up after the clean hands (:class:`Resume`), or None."""
    start = text.find("\nhand ")
    if start < 0 or text.find("\n[", start) >= 0:
        return None
    head = text[:start + 1]
    if any(line and line[0] != "[" for line in head.split("\n")):
        return None  # the setup holds tags only
    findings = Findings(limit=max_diagnostics)
    try:
        parsed = parse_text(head)
    except UnreadableLog:
        return None
    if parsed.issues:
        return None
    table = setup_table(parsed.events, findings, base_dir, ruleset=ruleset,
                        allowed_dirs=allowed_dirs)
    if table is None or findings.items or findings.notes():
        return None
    game = _Game(table.rules, tuple(table.names))
    try:
        game.play(_Lines(text, start + 1))
    except (_NotClean, engine.IllegalAction, KeyError, ValueError, IndexError):
        return game.resume(text, start + 1)
    report = Report(path=path, source=text)
    report.ruleset, report.players = table.rules.name, list(table.names)
    report.hands = game.summaries
    if game.state.phase is Phase.OVER:
        report.winners = [table.names[s] for s in game.state.winners]
    conclude(report, findings)
    return report


class _Game:
    """Hold the game as its lines are played, hand by hand."""

    def __init__(self, rules: Ruleset, names: tuple[str, ...]) -> None:
        self.rules, self.names, n = rules, names, len(names)
        self.seats = {name: seat for seat, name in enumerate(names)}
        # every "Name Card" a trick line may hold, as the (seat, card, _) a trick is judged on
        self.plays = {f"{name} {text}": (seat, card, None) for seat, name in enumerate(names)
                      for text, card in _CARD.items()}
        self.orders = [[(leader + i) % n for i in range(n)] for leader in range(n)]
        self.claims = {None: "none", **dict(enumerate(names))}  # a trick's winner as claimed
        self.heads = {word: [f"{word} {name}: " for name in names] for word in ("deal", "pass")}
        self.heads["trick"] = [f"trick {number}: "
                               for number in range(1, rules.cards_per_player(n) + 1)]
        self.state = engine.new_game(rules, n)
        self.summaries: list[HandSummary] = []
        self.older = self.state.totals  # the totals before the last clean hand
        self.hand_at: int | None = None  # the offset of the hand being played

    def resume(self, text: str, setup_end: int) -> Resume | None:
        """Say where the full check takes up a log stopped within a hand after a clean one."""
        state = self.state
        if self.hand_at is None or not self.summaries or state.phase is not Phase.DEAL:
            return None
        return Resume(setup_end, self.hand_at, state._replace(history=state.history[-1:]),
                      state.totals, self.older, self.summaries)

    def play(self, lines: _Lines) -> None:
        while lines:
            at = lines.at
            line = lines.read()
            if not line:
                continue
            if line.startswith("hand "):
                self.hand_at = at
                self.hand(line, lines)
                self.hand_at = None
            elif line.startswith("winner"):
                self.winner_line(line)
                if lines.text[lines.at:].strip():
                    raise _NotClean
                return
            else:
                raise _NotClean
        if self.state.phase is Phase.OVER or not self.summaries:
            raise _NotClean  # a game over says who won; a log without hands is noted

    def hand(self, line: str, lines: _Lines) -> None:
        state, rules, names = self.state, self.rules, self.names
        if state.phase is not Phase.DEAL:
            raise _NotClean
        n = len(names)
        number = state.hand_number
        head = line.split(" ", 5)
        if len(head) < 6 or head[1] != str(number) or head[2] != "dealer" or head[4] != "pass":
            raise _NotClean
        if number == 1 and rules.first_leader != FirstLeader.AFTER_LAST_WINNER:
            state = state._replace(dealer=self.seats[head[3]])
        elif head[3] != names[state.dealer]:
            raise _NotClean
        if head[5] != str(state.pass_direction):
            raise _NotClean
        per = rules.cards_per_player(n)
        hands = tuple([self._cards(lines.read(), head, per) for head in self.heads["deal"]])
        size = rules.kitty_size(n)
        kitty = self._cards(lines.read(), "kitty: ", size) if size else ()
        if engine.deal_problems(state, DealAction(hands, kitty)):
            raise _NotClean
        holdings = []  # counted here, not list(counts_of(cards)): 1% of a check
        for cards in hands:
            held = [0] * DECK_SIZE
            for card in cards:
                held[card] += 1
            holdings.append(held)
        offset = direction_offset(state.pass_direction, n)
        if offset:
            passes = []
            for seat, head in enumerate(self.heads["pass"]):
                cards = self._cards(lines.read(), head, rules.pass_count)
                if engine.passed_cards_problem(rules, holdings[seat], cards):
                    raise _NotClean
                passes.append(cards)
            for seat, cards in enumerate(passes):
                given, taken = holdings[seat], holdings[(seat + offset) % n]
                for card in cards:
                    given[card] -= 1
                    taken[card] += 1
        state = engine.begin_play(state, tuple(map(tuple, holdings)), kitty)
        self.state = self.score(lines, self.tricks(lines, state, holdings))

    @staticmethod
    def _cards(line: str, head: str, count: int) -> tuple[int, ...]:
        """Read the ``count`` cards of a line that starts with ``head`` (a line with more or
        fewer words is not split: a hostile line never becomes a list of millions)."""
        size = len(head)
        if not line.startswith(head) or line.count(" ", size) != count - 1:
            raise _NotClean
        return tuple(map(_CARD.__getitem__, line[size:].split(" ")))

    def tricks(self, lines: _Lines, state: State, holdings: list[list[int]]) -> State:
        """Play the hand's tricks from ``holdings`` (``state``'s, as lists); return the state
        after."""
        rules, orders, claims = self.rules, self.orders, self.claims
        play_of = self.plays.__getitem__
        n, heads = len(self.names), self.heads["trick"]
        lowest = state.lowest_club
        hand_play = engine.HandPlay(state)
        broken, leader, number = state.hearts_broken, state.leader, 1
        while True:
            line = lines.read()
            head = heads[number - 1]
            if not line.startswith(head):
                raise _NotClean
            body, arrow, claim = line[len(head):].partition(" -> ")
            if body.count(", ") != n - 1 or not arrow:
                raise _NotClean
            order = orders[leader]  # (a play not in self.plays raises KeyError: not clean)
            cards = clean_cards(rules, map(play_of, body.split(", ")), order, holdings, None,
                                broken, number == 1, lowest)
            if cards is None:
                raise _NotClean
            record = hand_play.finish(tuple(zip(order, cards)), cards)
            if claims[record.winner] != claim:
                raise _NotClean
            if hand_play.over:
                return hand_play.state(tuple(map(tuple, holdings)))
            broken, leader, number = hand_play.broken, hand_play.leader, hand_play.number

    def score(self, lines: _Lines, state: State) -> State:
        """Check the moon, score and total lines of a played hand; return the state once it is
        scored."""
        names, line, word, choice = self.names, lines.read(), None, None
        if line.startswith("moon "):
            word, _, choice = line.rpartition(" ")
            line = lines.read()
        older = state.totals
        state = engine.record_hand_unchecked(state, choice or engine.SCORE)
        result = state.history[-1]
        # the hand as scored has the moon line's choice (none without a shooter) and shooter
        if result.choice != choice or (
                choice is not None and word != f"moon {names[result.shooter]}"):
            raise _NotClean
        if line != self._entries("score", result.scores) or \
                lines.read() != self._entries("total", result.totals):
            raise _NotClean
        self.older = older
        self.summaries.append(HandSummary.seated(
            result.number, names, result.scores, result.totals, True,
            names[result.shooter] if result.shooter is not None else None, result.lost))
        return engine.conclude_hand(state)

    def _entries(self, word: str, numbers) -> str:
        return f"{word}: " + ", ".join(map("{} {}".format, self.names, numbers))

    def winner_line(self, line: str) -> None:
        state = self.state
        if state.phase is not Phase.OVER:
            raise _NotClean
        winners = [self.names[seat] for seat in state.winners]
        word = "winner" if len(winners) == 1 else "winners"
        if line != f"{word}: " + ", ".join(winners):
            raise _NotClean
