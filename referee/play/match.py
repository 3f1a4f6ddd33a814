"""This module plays games between programs under a referee that checks every move
(spec/protocol.md), and ranks the standings of a match. It closes every program when its game
ends, whatever ends it."""

from __future__ import annotations

import json
import math
import statistics
import threading
from collections import Counter
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache

from referee.conformance.generate import ruleset_options
from referee.play.program import Processes, Program, ProgramFault, encoded
from referee.play.table import Table
from referee.rules.cards import Card, card_text, counts_of
from referee.rules.engine import hand_scores, pass_recipient
from referee.rules.state import IllegalAction, Phase
from referee.rules.ruleset import Ruleset
from referee.rules.options import FirstLeader, GameLength, OnFault
from referee.util.spec import spec_text

PROTOCOL = 1
START_TIMEOUT = 10.0  # seconds a program has to answer `start`, at least
MAX_HANDS = 200  # hands after which a game that has not ended is stopped (a ruleset may never end)
MAX_KEPT_DIFFERENCES = 20  # per game, with their positions; the rest are counted
QUERIES = frozenset(("legal", "trick", "score"))  # the conformance queries (spec/protocol.md)


@dataclass(frozen=True)
class MatchOptions:
    rules: Ruleset
    players: int = 6
    time_per_move: float = 1.0  # seconds for each answer
    conformance: bool = False  # ask each program its legal cards, trick outcomes and scores
    on_fault: OnFault = OnFault.FORFEIT  # or PLAY: the referee plays a legal card for a faulty seat
    max_hands: int = MAX_HANDS


@dataclass(frozen=True)
class Difference:
    """A Difference records where a program's own rules disagreed with the referee's (a
    conformance query)."""

    seat: int
    hand: int
    trick: int | None
    what: str  # "legal cards", "trick winner", "pile", "scores"
    program: object
    referee: object
    position: str  # the game so far, as a log


@dataclass
class GameResult:
    game: str
    seed: int | str
    programs: tuple[int, ...]  # the program (index into the commands) of each seat
    names: tuple[str, ...]
    ended: str = "target"  # "target", "hands" (fixed length), "limit", "forfeit", "dead-end"
    totals: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    hand_scores: list[tuple[int, ...]] = field(default_factory=list)
    forfeit: tuple[int, str, str] | None = None  # (seat, reason, detail)
    substituted: list[tuple[int, str, str]] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    differences_counted: Counter = field(default_factory=Counter)  # per seat, kept or not
    log: str = ""
    record: str = ""


@cache
def _validators() -> dict:
    """Make a validator of each answer (spec/protocol.schema.json)."""
    import jsonschema_rs

    defs = json.loads(spec_text("protocol.schema.json"))["$defs"]
    return {name: jsonschema_rs.validator_for({"$ref": f"#/$defs/{name}", "$defs": defs})
            for name in ("ready", "pass", "play", "trick_answer", "moon", "score_answer")}


def program_letter(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


class _Stopped(Exception):
    """_Stopped says that the game ended early, at a forfeit or a dead end (already written into
    the table)."""


class _Game:
    """A _Game holds one game: the table, a program per seat, and what the referee saw."""

    def __init__(self, commands: list[list[str]], result: GameResult, options: MatchOptions,
                 stop: threading.Event, cwd: str | None, registry: Processes | None):
        self.commands, self.result, self.options, self.stop = commands, result, options, stop
        self.cwd, self.registry = cwd, registry
        header = tuple(f"{program_letter(program)}: {' '.join(command)}"
                       for program, command in enumerate(commands) if program in result.programs)
        self.table = Table(result.names, options.rules, seed=result.seed, event=result.game,
                           comments=header)
        self.programs: dict[int, Program | None] = {}  # None: the referee plays for the seat
        self.queries: dict[int, frozenset[str]] = {}  # the conformance queries each answers

    # -- talking to seats -----------------------------------------------------------------
    def _fault(self, seat: int, fault: ProgramFault) -> None:
        program = self.programs.get(seat)
        if program is not None:
            program.close()
        self.programs[seat] = None
        if self.options.on_fault == OnFault.FORFEIT:
            self.result.forfeit = (seat, fault.reason, fault.detail)
            self.table.forfeit(seat, f"{fault.reason}: {fault.detail}")
            raise _Stopped()
        self.result.substituted.append((seat, fault.reason, fault.detail))
        self.table.comment(f"{self.table.names[seat]} {fault.reason}: {fault.detail}; the "
                           "referee plays for this seat from here on")

    def _ask(self, seat: int, message: dict, answer: str, timeout: float | None = None
             ) -> dict | None:
        """Ask the seat and return its valid answer, or None when the referee plays for the
        seat."""
        if self.stop.is_set():
            raise KeyboardInterrupt
        program = self.programs.get(seat)
        if program is None:
            return None
        try:
            reply = program.ask(message, answer, timeout or self.options.time_per_move)
            if not _validators()[answer].is_valid(reply):
                raise ProgramFault("malformed", f"the {answer} answer does not follow the "
                                                f"protocol: {json.dumps(reply)[:80]}")
            return reply
        except ProgramFault as fault:
            self._fault(seat, fault)
            return None

    def _queried(self, query: str, message: dict, answer: str):
        """Ask the conformance ``query`` and yield (seat, answer) of each seat that answers it."""
        for seat in range(self.table.players):
            if query in self.queries.get(seat, ()):
                reply = self._ask(seat, message, answer)
                if reply is not None:
                    yield seat, reply

    def _tell(self, message: dict, seats=None) -> None:
        """Post ``message`` to ``seats`` (default: every seat): it goes with the next message
        each is sent, since it asks for no answer."""
        line = encoded(message)
        for seat in range(self.table.players) if seats is None else seats:
            program = self.programs.get(seat)
            if program is not None:
                program.post(line)

    def _illegal(self, seat: int, what: str, err: IllegalAction) -> None:
        clause = f" ({err.clause})" if err.clause else ""
        reason = err.fault.text if err.fault is not None else str(err)  # (str(err) names the card)
        self._fault(seat, ProgramFault("illegal", f"{what}: {reason}{clause}"))

    def _differs(self, seat: int, what: str, program, referee, trick: int | None) -> None:
        """Record a conformance difference at this hand's ``trick`` (None: the hand's scores),
        with the game so far as its position."""
        self.result.differences_counted[seat] += 1
        if len(self.result.differences) < MAX_KEPT_DIFFERENCES:
            self.result.differences.append(Difference(
                seat, self.table.hand_number, trick, what, program, referee, self.table.log()))

    # -- the game -------------------------------------------------------------------------
    def run(self) -> GameResult:
        try:
            with suppress(_Stopped):
                self._start()
                while not self.table.is_over and len(self.table.results) < self.options.max_hands:
                    self._hand()
                self._end()
            self._tell_end()
        finally:
            for program in self.programs.values():
                if program is not None:
                    program.close()
        table = self.table
        self.result.totals = table.totals
        self.result.hand_scores = [r.scores for r in table.results]
        self.result.log = table.log()
        self.result.record = table.record()
        return self.result

    def _start(self) -> None:
        options, table = self.options, self.table
        for seat, program in enumerate(self.result.programs):
            if self.stop.is_set():
                raise KeyboardInterrupt
            try:
                self.programs[seat] = Program(self.commands[program], cwd=self.cwd,
                                              registry=self.registry)
            except ProgramFault as fault:
                self._fault(seat, fault)
        for seat in range(table.players):
            ready = self._ask(seat, {"type": "start", "protocol": PROTOCOL,
                                     "game": self.result.game, "seat": seat,
                                     "players": list(table.names),
                                     "ruleset": ruleset_options(options.rules),
                                     "conformance": options.conformance},
                              "ready", max(START_TIMEOUT, options.time_per_move))
            if ready is not None and options.conformance:
                self.queries[seat] = frozenset(ready.get("queries", ())) & QUERIES

    def _hand(self) -> None:
        table = self.table
        no_dealer = self.options.rules.first_leader == FirstLeader.AFTER_LAST_WINNER
        hand = table.hand_number
        for seat in range(table.players):
            view = table.view(seat)
            self._tell({"type": "deal", "hand": hand, "dealer": None if no_dealer else table.dealer,
                        "pass": view.pass_direction, "cards": _texts(view.dealt),
                        "kitty": len(table.state.kitty)}, (seat,))
        if table.phase is Phase.PASS:
            self._passes()
        while table.phase is Phase.PLAY:
            self._turn()
        self._score()

    def _passes(self) -> None:
        table = self.table
        count = table.rules.pass_count
        for seat in table.to_pass:
            holding = table.holding(seat)
            reply = self._ask(seat, {"type": "pass_request", "hand": table.hand_number,
                                     "to": pass_recipient(table.state, seat), "count": count},
                              "pass")
            if reply is not None:
                try:
                    table.pass_cards(seat, reply["cards"])
                    continue
                except IllegalAction as err:
                    self._illegal(seat, f"passed {' '.join(reply['cards'])}", err)
            table.pass_cards(seat, [c for c in holding if table.rules.may_pass(c)][:count])
        for seat in range(table.players):
            view = table.view(seat)
            self._tell({"type": "received", "hand": table.hand_number, "from": view.received_from,
                        "cards": _texts(view.received)}, (seat,))

    def _turn(self) -> None:
        table = self.table
        seat, legal = table.to_play, table.legal_cards()
        if not legal:
            self.result.ended = "dead-end"
            table.comment(f"{table.names[seat]} has no legal card (R5.6): the game stops here")
            raise _Stopped()
        message = {"type": "play_request", "hand": table.hand_number, "trick": table.trick_number,
                   "leader": table.state.leader, "cards": _texts(c for _, c in table.trick)}
        asked = "legal" in self.queries.get(seat, ())
        if asked:
            message["legal"] = True
        reply = self._ask(seat, message, "play")
        card, played = legal[0], False  # legal[0]: what the referee plays for a seat it plays for
        if reply is not None:
            if asked:
                said = reply.get("legal")
                if said is not None:
                    said = sorted(set(said), key=Card.parse)
                if said != _texts(legal):
                    self._differs(seat, "legal cards", said, _texts(legal), table.trick_number)
            try:
                record, played = table.play(reply["card"]), True
                card = Card.parse(reply["card"])
            except IllegalAction as err:  # (table.play judges the card once, and changes nothing)
                self._illegal(seat, f"played {reply['card']}", err)
        if not played:
            record = table.play(card)
        self._tell({"type": "played", "hand": table.hand_number,
                    "trick": record.number if record else table.trick_number,
                    "seat": seat, "card": card_text(card)})
        if record is not None:
            self._trick_done(record)

    def _trick_done(self, record) -> None:
        table = self.table
        view = table.view(0)
        public = view.tricks[-1]
        pile = _texts(view.set_aside)
        query = {"type": "trick_query", "hand": table.hand_number, "trick": record.number}
        for seat, reply in self._queried("trick", query, "trick_answer"):
            if reply["winner"] != record.winner:
                self._differs(seat, "trick winner", reply["winner"], record.winner, record.number)
            if counts_of(map(Card.parse, reply["pile"])) != counts_of(view.set_aside):
                self._differs(seat, "pile", sorted(reply["pile"], key=Card.parse), pile,
                              record.number)
        kitty = len(public.collected) != len(record.collected)
        self._tell({"type": "trick", "hand": table.hand_number, "trick": record.number,
                    "winner": record.winner, "cancelled": _texts(sorted(record.outcome.cancelled)),
                    "collected": _texts(public.collected), "kitty": kitty, "pile": pile})

    def _score(self) -> None:
        table = self.table
        choices = table.scoring_choices()
        choice = choices[0]
        shooter = table.to_play if choices != ("score",) else None
        if shooter is not None:
            reply = self._ask(shooter, {"type": "moon_request", "hand": table.hand_number,
                                        "choices": list(choices)}, "moon")
            if reply is not None and reply["choice"] in choices:
                choice = reply["choice"]
            elif reply is not None:
                self._illegal(shooter, f"chose {reply['choice']!r}", IllegalAction(
                    f"the choices are {', '.join(choices)}", clause="R8.2"))
        kitty = _texts(table.state.kitty)  # the hand is over: the kitty may be shown
        expected = hand_scores(table.state, choice if shooter is not None else None)
        query = {"type": "score_query", "hand": table.hand_number, "kitty": kitty}
        if shooter is not None:
            query.update(shooter=shooter, choice=choice)
        for seat, reply in self._queried("score", query, "score_answer"):
            if tuple(reply["scores"]) != expected:
                self._differs(seat, "scores", reply["scores"], list(expected), None)
        result = table.score(choice)
        self._tell({"type": "hand_end", "hand": result.number, "scores": list(result.scores),
                    "totals": list(result.totals), "shooter": result.shooter,
                    "choice": result.choice, "kitty": kitty})

    def _end(self) -> None:
        table = self.table
        if table.is_over:
            fixed = table.rules.game_length == GameLength.ONE_HAND_PER_PLAYER
            self.result.ended = "hands" if fixed else "target"
            self.result.winners = table.winners
        else:
            self.result.ended = "limit"
            table.comment(f"the match stops a game at {self.options.max_hands} hands")

    def _tell_end(self) -> None:
        table = self.table
        message = {"type": "game_end", "reason": self.result.ended,
                   "totals": list(table.totals), "winners": list(self.result.winners)}
        if self.result.forfeit:
            seat, reason, detail = self.result.forfeit
            self.result.ended = message["reason"] = "forfeit"
            message["forfeit"] = {"seat": seat, "reason": f"{reason}: {detail}"}
        for seat in range(table.players):
            program = self.programs.get(seat)
            if program is not None:
                with suppress(ProgramFault):
                    program.send(message, self.options.time_per_move)


def play_game(commands: list[list[str]], programs: tuple[int, ...], *, game: str,
              seed: int | str, options: MatchOptions, stop: threading.Event | None = None,
              cwd: str | None = None, registry: Processes | None = None) -> GameResult:
    """Play one game between ``commands``: ``commands[programs[s]]`` plays seat s. A ``stop``
    that is set ends it at the next question (KeyboardInterrupt); ``registry`` holds its
    processes while they run."""
    # a seat's name says its program and seat: A1, B2, A3, ... (program A, B, ...)
    names = tuple(f"{program_letter(program)}{seat + 1}" for seat, program in enumerate(programs))
    result = GameResult(game, seed, programs, names)
    return _Game(commands, result, options, stop or threading.Event(), cwd, registry).run()


def _texts(cards) -> list[str]:
    return [card_text(c) for c in cards]


# -- standings ------------------------------------------------------------------------------
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass
class Standing:
    """A Standing counts one program's games, games won, points per hand, forfeits by reason and
    differences."""

    program: int
    command: str
    games: int = 0
    won: int = 0  # games in which one of its seats is among the winners (a shared win counts)
    points: list[int] = field(default_factory=list)  # each of its seats' score in each hand
    forfeits: Counter = field(default_factory=Counter)  # by reason
    substituted: Counter = field(default_factory=Counter)  # by reason (--on-fault play)
    differences: int = 0

    @property
    def hands(self) -> int:
        return len(self.points)

    @property
    def mean(self) -> float | None:
        return sum(self.points) / len(self.points) if self.points else None

    @property
    def margin(self) -> float | None:
        """Return half the width of the 95% confidence interval of :attr:`mean` (normal
        approximation; None below two hands)."""
        if len(self.points) < 2:
            return None
        return Z95 * statistics.stdev(self.points) / math.sqrt(len(self.points))

    def to_json(self) -> dict:
        return {"program": self.program, "command": self.command, "games": self.games,
                "won": self.won, "hands": self.hands, "mean_points_per_hand": self.mean,
                "ci95": self.margin, "forfeits": dict(self.forfeits),
                "substituted": dict(self.substituted), "differences": self.differences}


def standings(commands: list[str], results: Iterable[GameResult]) -> list[Standing]:
    """Make one :class:`Standing` per command, in the commands' order."""
    table = [Standing(index, command) for index, command in enumerate(commands)]
    for result in results:
        for program in set(result.programs):
            table[program].games += 1
            if any(result.programs[seat] == program for seat in result.winners):
                table[program].won += 1
        for scores in result.hand_scores:
            for seat, score in enumerate(scores):
                table[result.programs[seat]].points.append(score)
        if result.forfeit is not None:
            table[result.programs[result.forfeit[0]]].forfeits[result.forfeit[1]] += 1
        for seat, reason, _ in result.substituted:
            table[result.programs[seat]].substituted[reason] += 1
        for seat, count in result.differences_counted.items():
            table[result.programs[seat]].differences += count
    return table


def standings_text(table: list[Standing]) -> str:
    """Write the standings as aligned plain text, best mean first (lower is better in Hearts)."""
    rows = [("", "program", "games", "won", "hands", "points/hand (95% CI)", "forfeits",
             "differences")]
    order = sorted(table, key=lambda s: (s.mean is None, s.mean or 0.0))
    for s in order:
        mean = "-" if s.mean is None else f"{s.mean:.2f}"
        if s.margin is not None:
            mean += f" ± {s.margin:.2f}"
        faults = ", ".join(f"{reason} {n}" for reason, n in sorted((s.forfeits +
                                                                   s.substituted).items()))
        rows.append((program_letter(s.program), s.command, str(s.games), str(s.won),
                     str(s.hands), mean, faults or "0", str(s.differences)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
                     for row in rows) + "\n"
