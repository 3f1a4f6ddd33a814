"""This module plays a game in progress one action at a time: :class:`Table` is the engine's
face for programs.

A :class:`Table` holds the engine's immutable states (:mod:`referee.rules.engine`) and the
game so far as log events, so that it can say at any moment whose turn it is, what each seat
holds, which cards are legal and why another is not, and write the game as a log or a JSON
record that ``referee check`` finds clean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from referee.conformance.rng import Rng
from referee.conformance.generate import (deal_events, deal_hands, log_header, score_events,
                                          seat_names, trick_event)
from referee.log.events import (CardRun, Comment, Deal, Event, GameOver, HandStart, Kitty, Moon,
                                 Pass, Play, Score, Tag, Trick)
from referee.log.jsonwrite import record_text
from referee.log.writer import write
from referee.rules import engine
from referee.rules.cards import CARDS, Card, card_text, cards_of, counts_of
from referee.rules.engine import SCORE
from referee.rules.state import (DealAction, HandResult, IllegalAction, PassAction, Phase, State,
                                  TrickRecord)
from referee.rules.legality import Fault
from referee.rules.options import FirstLeader
from referee.rules.ruleset import Ruleset, load_ruleset

MAX_REASON = 300  # characters of a forfeit's reason kept in the log

__all__ = ["HandResult", "IllegalAction", "Phase", "SeatView", "Table", "TrickRecord"]


class PositionError(ValueError):
    """PositionError says that a log or record gives no position: it is unreadable, or it breaks a
    rule before it."""


@dataclass(frozen=True)
class SeatView:
    """A SeatView holds what one seat may know (R2.2, R3.2): its own cards and passes, every card
    played, the scores. It leaves out other seats' holdings, their passes and the kitty's
    cards."""

    seat: int
    names: tuple[str, ...]
    ruleset: str
    hand: int
    dealer: int
    pass_direction: str
    dealt: tuple[Card, ...]  # this seat's deal in this hand
    holding: tuple[Card, ...]
    passed: tuple[Card, ...] | None  # what it passed, once it has
    passed_to: int | None
    received: tuple[Card, ...] | None  # what it was passed, once every seat has passed
    received_from: int | None
    tricks: tuple[TrickRecord, ...]  # this hand's finished tricks
    trick: tuple[tuple[int, Card], ...]  # the trick in progress, (seat, card) in play order
    set_aside: tuple[Card, ...]  # set-aside cards waiting for the next winner (R6.5)
    kitty_waiting: int  # how many kitty cards wait face down for a winner (R6.7)
    hearts_broken: bool
    to_play: int | None
    totals: tuple[int, ...]
    results: tuple[HandResult, ...]  # the hands scored so far


def _of_state(name: str, doc: str | None = None) -> property:
    """Make a read-only property of the table that is its state's ``name``."""
    return property(lambda self: getattr(self._state, name), doc=doc)


class Table:
    """A Table holds a game of Hearts in progress (docs/match.md): ``players`` gives names or a
    number of seats; with ``seed`` it deals every hand itself; ``event`` and ``comments`` go into
    its log."""

    def __init__(self, players: Sequence[str] | int = 6, ruleset: Ruleset | str = "cancellation",
                 *, seed: int | str | None = None, dealer: int = 0, event: str | None = None,
                 comments: Sequence[str] = ()):
        self.rules = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(ruleset)
        if isinstance(players, int):  # (a count checked before its names are made)
            engine.new_game(self.rules, players)
        names = seat_names(players) if isinstance(players, int) else tuple(players)
        if len(set(name.casefold() for name in names)) != len(names):
            raise ValueError("every seat needs its own name")
        if any(not name.strip() or "\n" in name or '"' in name for name in names):
            raise ValueError("a name must be one line of text without double quotes")
        self.names = names
        self.seed = seed
        self._state = engine.new_game(self.rules, len(names), dealer=dealer)
        self._events = log_header(self.rules, names, event or "a game at a referee.Table")
        self._events.extend(Comment(text) for text in comments)
        self._tricks: list[tuple[int, TrickRecord]] = []  # (hand, trick) of the game so far
        self._deals: dict[int, DealAction] = {}
        self._pending: dict[int, tuple[Card, ...]] = {}  # passes made, waiting for the others
        self._undo: list[tuple] = []  # (state, events, tricks, pending) before each action
        self.forfeited: tuple[int, str] | None = None  # (seat, reason) once a seat forfeits
        self._deal_if_seeded()

    # -- the position ---------------------------------------------------------------------
    state = property(
        lambda self: self._state,
        doc="Return the engine's state (immutable; :mod:`referee.rules.engine` works on it).")
    phase = _of_state("phase")
    hand_number = _of_state("hand_number")
    dealer = _of_state("dealer")
    trick_number = _of_state("trick_number")
    trick = _of_state("trick", "Return the trick in progress: (seat, card) in play order.")
    last_trick = _of_state("last_trick",
                           "Return the last finished trick of this hand (a TrickRecord).")
    pile = _of_state(
        "pile", "Return what the next trick winner collects besides the trick (R6.5, R6.7).")
    totals = _of_state("totals")
    results = _of_state("history", "Return each scored hand's result (a HandResult).")
    winners = _of_state("winners", "Return the seats that won (R9.3), once the game is over.")

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def to_play(self) -> int | None:
        """Return the seat to play a card (``Phase.PLAY``) or to choose on a moon
        (``Phase.SCORING``)."""
        if self.phase is Phase.PLAY:
            return self._state.to_play
        if self.phase is Phase.SCORING:
            return engine.shooter(self._state)
        return None

    @property
    def to_pass(self) -> tuple[int, ...]:
        """Return the seats that have still to pass (passes are simultaneous, R3.2)."""
        if self.phase is not Phase.PASS:
            return ()
        return tuple(seat for seat in range(self.players) if seat not in self._pending)

    def holding(self, seat: int) -> tuple[Card, ...]:
        """Return the cards ``seat`` holds now, in ascending order (two copies of a card: twice)."""
        self._check_seat(seat)
        return cards_of(self._state.holdings[seat]) if self._state.holdings else ()

    def _check_seat(self, seat: int) -> None:
        if not (isinstance(seat, int) and 0 <= seat < self.players):
            raise IllegalAction(f"there is no seat {seat!r}")

    @property
    def tricks(self) -> tuple[TrickRecord, ...]:
        """Return this hand's finished tricks."""
        return tuple(record for hand, record in self._tricks if hand == self.hand_number)

    @property
    def is_over(self) -> bool:
        """Tell whether the game has ended: at the target (R9.1) or by a forfeit (R9.5)."""
        return self.phase is Phase.OVER or self.forfeited is not None

    # -- legality -------------------------------------------------------------------------
    def legal_cards(self) -> tuple[Card, ...]:
        """Return the cards the seat to play may play, ascending, each once (empty outside play;
        empty in play only where the ruleset leaves no legal card, R5.6)."""
        return tuple(dict.fromkeys(engine.legal_plays(self._state)))

    def fault(self, card: int | str, seat: int | None = None) -> Fault | None:
        """Say why ``seat`` (default: the seat to play) may not play ``card`` now: return the
        first rule it breaks, with ``.clause`` and ``.text``; None when it is legal."""
        card = _card(card)
        return engine.play_fault(self._state, self._state.to_play if seat is None else seat, card)

    def scoring_choices(self) -> tuple[str, ...]:
        """Return, in ``Phase.SCORING``, the moon choices (R8.2) when a seat took every point,
        else ``("score",)``."""
        return engine.scoring_actions(self._state) if self.phase is Phase.SCORING else ()

    # -- actions --------------------------------------------------------------------------
    def deal(self, hands: Sequence[Sequence[int | str]] | None = None,
             kitty: Sequence[int | str] = ()) -> None:
        """Deal this hand: ``hands`` per seat and the ``kitty`` (R2), or with ``hands`` None a
        shuffle from the table's seed (or seed 0). Raise :class:`IllegalAction` (R2.4)."""
        if self.phase is not Phase.DEAL:
            raise IllegalAction("no deal is due now", clause="R2.1")
        if hands is None:
            deck = engine.full_deck(self.rules)
            seed = 0 if self.seed is None else self.seed
            Rng(f"{seed}/hand {self.hand_number}").shuffle(deck)
            action = deal_hands(self._state, deck)
        else:
            action = DealAction(tuple(tuple(sorted(map(_card, hand))) for hand in hands),
                                tuple(sorted(map(_card, kitty))))
        self._state = engine.apply(self._state, action)
        self._deals[self.hand_number] = action
        self._events.extend(deal_events(self.rules, self.hand_number, self.dealer, self.names,
                                        action))

    def pass_cards(self, seat: int, cards: Sequence[int | str]) -> None:
        """Pass ``cards`` for ``seat`` (R3.1); the cards move when every seat has passed (R3.2).
        Raise :class:`IllegalAction` naming R3.1 for a pass the rules forbid."""
        if self.phase is not Phase.PASS:
            raise IllegalAction("no pass is due now", clause="R3.1")
        if seat in self._pending:
            raise IllegalAction(f"{self.names[seat]} has already passed", clause="R3.2")
        action = PassAction(seat, tuple(sorted(map(_card, cards))))
        # judge the pass as if this seat were the next to pass: the engine takes passes in seat
        # order
        alone = self._state._replace(passes=tuple(None if s == seat else () for s in
                                                  range(self.players)))
        problem = engine.pass_problem(alone, action)
        if problem:
            raise IllegalAction(problem, clause="R3.1")
        self._save()
        self._pending[seat] = action.cards
        if len(self._pending) < self.players:
            return
        passes, state = sorted(self._pending.items()), self._state
        for seat_, given in passes:
            self._state = engine.apply(self._state, PassAction(seat_, given))
            recipient = engine.pass_recipient(state, seat_)
            self._events.append(Pass(self.names[seat_], CardRun(given), self.names[recipient]))
        self._pending = {}

    def play(self, card: int | str) -> TrickRecord | None:
        """Play ``card`` for the seat to play; return the finished trick when this card ends one.
        Raise :class:`IllegalAction` with ``.fault`` and ``.clause`` for an illegal card."""
        card = _card(card)
        fault = engine.play_fault(self._state, self._state.to_play, card)
        if fault is not None:
            raise IllegalAction(f"{card_text(card)}: {fault.text}", fault)
        self._save()
        self._state = engine.play(self._state, self._state.to_play, card, check=False)
        if self._state.trick:
            return None
        record = self._state.last_trick
        self._tricks.append((self.hand_number, record))
        self._events.append(trick_event(self.names, record))
        return record

    def score(self, choice: str = SCORE) -> HandResult:
        """Score the finished hand: ``"score"``, or the shooter's moon choice (R8.2, see
        :meth:`scoring_choices`). Return the hand's result; deal the next hand when seeded."""
        if self.phase is not Phase.SCORING:
            raise IllegalAction("the hand is not over", clause="R7.3")
        self._save()
        self._state = engine.apply(self._state, choice)
        result = self._state.history[-1]
        self._events.extend(score_events(self.names, result))
        if self.is_over:
            self._events.append(GameOver(tuple(self.names[s] for s in self.winners)))
        self._deal_if_seeded()
        return result

    def undo(self) -> None:
        """Take back the last pass, play or scoring choice (a seeded deal goes with it)."""
        if not self._undo:
            raise IndexError("nothing to undo")
        self._state, events, tricks, self._pending = self._undo.pop()
        del self._events[events:]
        del self._tricks[tricks:]

    def forfeit(self, seat: int, reason: str) -> None:
        """End the game here: ``seat`` forfeits it for ``reason`` (R9.5). The log says why with
        a ``[Forfeit "NAME: reason"]`` tag among its tags."""
        words = " ".join(reason.replace('"', "'").split())[:MAX_REASON]
        header = next(i for i, event in enumerate(self._events) if not isinstance(event, Tag))
        self._events.insert(header, Tag("Forfeit", f"{self.names[seat]}: {words}"))
        self.forfeited = (seat, words)

    def comment(self, text: str) -> None:
        """Write ``text`` as a comment line in the game's log (e.g. why a game ended)."""
        for line in text.splitlines() or [""]:
            self._events.append(Comment(line))

    # -- views and records ----------------------------------------------------------------
    def view(self, seat: int) -> SeatView:
        """Show what ``seat`` may know now (see :class:`SeatView`)."""
        self._check_seat(seat)
        state = self._state
        deal = self._deals.get(self.hand_number)
        dealt = deal.hands[seat] if deal is not None and state.phase is not Phase.DEAL else ()
        passed = received = passed_to = received_from = None
        given = self._pending.get(seat) or (state.passes[seat] if state.passes else None)
        if given is not None and state.phase is not Phase.DEAL:
            passed, passed_to = given, engine.pass_recipient(state, seat)
        if state.phase in (Phase.PLAY, Phase.SCORING) and all(state.passes or ()):
            received_from = next(s for s in range(self.players)
                                 if engine.pass_recipient(state, s) == seat)
            received = state.passes[received_from]
        waiting = len(state.kitty) if state.kitty_taken is None and state.kitty and (
            state.phase is Phase.PLAY) else 0
        set_aside = _without(state.pile, state.kitty if waiting else ())
        tricks = tuple(_public(record, state) for record in self.tricks)
        return SeatView(
            seat=seat, names=self.names, ruleset=self.rules.name, hand=self.hand_number,
            dealer=self.dealer, pass_direction=state.pass_direction, dealt=dealt,
            holding=self.holding(seat), passed=passed, passed_to=passed_to, received=received,
            received_from=received_from, tricks=tricks, trick=state.trick,
            set_aside=set_aside, kitty_waiting=waiting, hearts_broken=state.hearts_broken,
            to_play=self.to_play, totals=state.totals, results=state.history,
        )

    @property
    def events(self) -> tuple[Event, ...]:
        """Return the game so far as log events: the trick in progress last, with no winner;
        passes once every seat has passed."""
        if not self.trick:
            return tuple(self._events)
        plays = tuple(Play(self.names[seat], card) for seat, card in self.trick)
        return (*self._events, Trick(self.trick_number, plays))

    def log(self) -> str:
        """Write the game so far as a log, which ``referee check`` finds clean (a game stopped
        in a hand gets a note that says where, whose turn it is and the legal cards)."""
        return write(self.events)

    def record(self) -> str:
        """Write the game so far as a JSON game record (spec/game-record.schema.json)."""
        return record_text(self.events)

    # -- from a log -----------------------------------------------------------------------
    @classmethod
    def from_log(cls, path: str | Path, *, hand: int | None = None,
                 trick: int = 1) -> Table:
        """Make the table of a log or JSON record at the start of ``trick`` of ``hand`` (after
        the passes), or at its end with ``hand`` None. Replay the record strictly through the
        table; raise :class:`PositionError` for one that breaks a rule before the position."""
        from referee.judge.setup import setup_table
        from referee.judge.table import Findings
        from referee.log.decode import UnreadableLog
        from referee.log.parser import log_text, parse_text
        from referee.util.reading import MAX_LOG_BYTES, UnreadableFile, read_limited

        try:
            events = parse_text(log_text(read_limited(path, MAX_LOG_BYTES))).events
        except (UnreadableFile, UnreadableLog, OSError) as err:
            raise PositionError(f"{path}: {err}") from None
        findings = Findings()
        seated = setup_table(events, findings, Path(path).parent)
        if seated is None or findings.items:
            first = findings.items[0] if findings.items else None
            where = f"line {first.line}: {first.message}" if first else "no seating"
            raise PositionError(f"{path}: {where}")
        return _Walk(cls, seated.rules, tuple(seated.names), path, events).to(hand, trick)

    # -- inside ---------------------------------------------------------------------------
    def _save(self) -> None:
        if self.forfeited is not None:
            raise IllegalAction("the game was forfeited", clause="R9.5")
        self._undo.append((self._state, len(self._events), len(self._tricks), dict(self._pending)))

    def _deal_if_seeded(self) -> None:
        if self.seed is not None and self.phase is Phase.DEAL:
            self.deal()

    def __repr__(self) -> str:
        return (f"<Table {self.rules.name} {self.players} players, hand {self.hand_number}, "
                f"{self.phase.value}>")


def _card(card: int | str) -> Card:
    if isinstance(card, str):
        return Card.parse(card)
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < len(CARDS):
        raise IllegalAction(f"{card!r} is not a card", Fault.NOT_HELD)
    return CARDS[card]


def _public(record: TrickRecord, state: State) -> TrickRecord:
    """Show ``record`` as every seat sees it: a kitty collected with it stays face down (R2.2)."""
    if state.kitty_taken is None or state.kitty_taken[1] != record.number:
        return record
    return record._replace(collected=_without(record.collected, state.kitty))


def _without(cards: Sequence[int], removed: Sequence[int]) -> tuple[Card, ...]:
    """Return ``cards`` less one copy of each of ``removed`` (multisets)."""
    left = list(counts_of(cards))
    for card in removed:
        left[card] -= 1
    return cards_of(tuple(max(0, n) for n in left))


class _Walk:
    """A _Walk makes one strict walk of a record's events onto a fresh table."""

    def __init__(self, cls, rules, names, path, events: tuple[Event, ...]):
        self.cls, self.rules, self.names, self.path, self.events = cls, rules, names, path, events
        self.seats = {name.casefold(): seat for seat, name in enumerate(names)}
        self.table = None
        self.hands: list[tuple[int, ...]] = [()] * len(names)  # this hand's deal so far
        self.kitty: tuple[int, ...] = ()
        self.moon: str | None = None
        self.dealt = False  # whether this hand's deal lines were dealt

    def to(self, hand: int | None, trick: int):
        for index, event in enumerate(self.events):
            if self._reached(hand, trick, event):
                return self.table
            try:
                self._apply(index, event)
            except IllegalAction as err:
                clause = f" ({err.clause})" if err.clause else ""
                raise PositionError(f"{self.path}, line {event.span.line}: {err}{clause}; "
                                    "referee check says more") from None
        if hand is None and self.table is not None:
            self._deal_pending()
            return self.table
        raise PositionError(f"{self.path}: the record ends before hand {hand}, trick {trick}")

    def _reached(self, hand: int | None, trick: int, event: Event) -> bool:
        """Tell whether the table stands at the start of ``trick`` of ``hand``, the trick
        ``event``."""
        table = self.table
        if hand is None or table is None or table.hand_number != hand or not isinstance(
                event, Trick):
            return False
        self._deal_pending()
        return (table.phase is Phase.PLAY and table.trick_number == trick == event.number
                and not table.trick)

    def _apply(self, index: int, event: Event) -> None:
        if isinstance(event, HandStart):
            self._start(index, event)
        elif isinstance(event, Deal):
            self.hands[self._seat(event.player)] = event.run.cards
        elif isinstance(event, Kitty):
            self.kitty = event.run.cards
        else:
            self._deal_pending()
            if isinstance(event, Pass):
                self.table.pass_cards(self._seat(event.player), event.run.cards)
            elif isinstance(event, Trick):
                self._trick(event)
            elif isinstance(event, Moon):
                self.moon = event.choice
            elif isinstance(event, Score) and self.table.phase is Phase.SCORING:
                self._score()

    def _start(self, index: int, event: HandStart) -> None:
        if self.table is None:
            self.table = self.cls(self.names, self.rules, dealer=self._first_dealer(index, event))
        elif self.table.phase is Phase.SCORING:
            self._score()  # a hand with no score line written
        if self.table.phase is not Phase.DEAL:
            raise IllegalAction(f"hand {event.number} starts before hand "
                                f"{self.table.hand_number} is over", clause="R7.3")
        self.hands, self.kitty, self.dealt = [()] * len(self.names), (), False

    def _first_dealer(self, index: int, event: HandStart) -> int:
        if event.dealer is not None:
            return self._seat(event.dealer)
        if self.rules.first_leader == FirstLeader.AFTER_LAST_WINNER:
            return len(self.names) - 1
        first = next((e for e in self.events[index:] if isinstance(e, Trick)), None)
        if first is not None and first.plays and first.plays[0].player is not None:
            return (self._seat(first.plays[0].player) - 1) % len(self.names)  # R2.5
        return 0

    def _score(self) -> None:
        self.table.score(self.moon or SCORE)
        self.moon = None

    def _deal_pending(self) -> None:
        if self.table is not None and self.table.phase is Phase.DEAL and not self.dealt:
            self.table.deal(self.hands, self.kitty)
            self.dealt = True

    def _trick(self, event: Trick) -> None:
        table = self.table
        if event.number != table.trick_number:
            raise IllegalAction(f"trick {event.number} is written where trick "
                                f"{table.trick_number} is due", clause="R10.6")
        if event.leader is not None and self._seat(event.leader) != table.to_play:
            raise IllegalAction(f"{event.leader} leads out of turn", clause="R5.1")
        for play in event.plays:
            if play.player is not None and self._seat(play.player) != table.to_play:
                raise IllegalAction(f"{play.player} plays out of turn", clause="R5.1")
            table.play(play.card)

    def _seat(self, name: str) -> int:
        seat = self.seats.get(name.casefold())
        if seat is None:
            raise IllegalAction(f"{name} is not seated", clause="R10.5")
        return seat
