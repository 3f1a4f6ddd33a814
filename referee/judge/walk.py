"""This module is the referee's walk: it judges a parsed log against the engine and collects every
violation.  Checking a file is a pure function of its text and its path."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from referee.judge import codes
from referee.judge.clean_game import Resume, clean_report
from referee.judge.diagnostics import HandSummary, Report, unreadable_report
from referee.judge.hand_record import HandRecord, Unread, unread_lines, with_unread
from referee.judge.holdings import gather, report_direction
from referee.judge.plays import judge_tricks
from referee.judge.scoring import (
    entries_by_seat,
    finish_hand,
    judge_sheet,
    judge_sheet_moon,
    judge_totals,
    moon_as_taken,
    played_tricks,
)
from referee.judge.setup import hands_of, setup_table
from referee.judge.stream import Stream, Watch, add_syntax, conclude, point_into_record, unreadable
from referee.judge.table import DEFAULT_MAX_DIAGNOSTICS, Findings, CheckTable
from referee.log.decode import UnreadableLog
from referee.log.events import Event, GameOver
from referee.log.parser import BLOCK_CHARS, ParseResult, log_text, parse_text
from referee.log.recognise import looks_like_record
from referee.rules import engine
from referee.rules.options import FirstLeader, GameLength, WinningTotal
from referee.rules.ruleset import Ruleset
from referee.rules.ruleset_files import reason
from referee.rules.state import Phase, State
from referee.util.collector import collector_paused
from referee.util.message import Message, msg, msgn
from referee.util.reading import MAX_LOG_BYTES, UnreadableFile, read_limited

MAX_FILE_BYTES = MAX_LOG_BYTES

# A clean game in the writer's form is checked by referee.judge.clean_game, without events
# (False: every log takes the full check; the tests compare the two).
CLEAN_GAMES = True

# A Watcher is the one hook of a check, for the z3 invariants (referee.proofs, which this layer
# may not import) and the views: given the table once it is set, it makes what follows the walk.
Watcher = Callable[[CheckTable], Watch]


@dataclass(frozen=True, slots=True)
class Options:
    """Options say how a log is checked (``base_dir`` is the log's folder, for the ruleset file it
    names)."""

    base_dir: Path | None = None
    watch: Watcher | None = None
    max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS
    ruleset: Ruleset | None = None
    allowed_dirs: tuple[str | Path, ...] = ()


def judge_path(path: str | Path, **options) -> Report:
    """Check one log file (read within :data:`MAX_FILE_BYTES`); a file that cannot be read gives an
    ``unreadable`` report.  ``options`` are :class:`Options`' fields but ``base_dir``."""
    shown = str(path)
    try:
        data = read_limited(path, MAX_FILE_BYTES)
    except UnreadableFile as err:
        return unreadable_report(shown, reason(err))
    try:
        text = log_text(data)
        del data  # the text is all a check holds of the file
        return _judged(text, shown, Options(base_dir=Path(path).parent, **options))
    except UnreadableLog as err:
        return unreadable(shown, err)


def judge_bytes(data: bytes, path: str = "<stdin>", **options) -> Report:
    try:
        return _judged(log_text(data), path, Options(**options))
    except UnreadableLog as err:
        return unreadable(path, err)


def judge_text(text: str, path: str = "<string>", **options) -> Report:
    return judge_bytes(text.encode("utf-8"), path, **options)


def judge_decoded(text: str, path: str, **options) -> Report:
    """Check the decoded text; raise UnreadableLog for text that is not a log at all."""
    return _judged(text, path, Options(**options))


def judge_parsed(parsed: ParseResult, path: str, *, trace: list | None = None,
                 **options) -> Report:
    """Referee a parsed log; ``trace`` receives every finished trick (unless the watch's)."""
    return _parsed(parsed, path, Options(**options), trace)


def _judged(text: str, path: str, options: Options) -> Report:
    """Check the decoded text: a log a block at a time, a JSON record whole.  A watched log within
    one block is read whole: the setup of a stream costs more than it saves there."""
    watch = options.watch
    with collector_paused():
        resume = None
        if watch is None and CLEAN_GAMES:
            clean = clean_report(text, path, base_dir=options.base_dir,
                                 max_diagnostics=options.max_diagnostics,
                                 ruleset=options.ruleset, allowed_dirs=options.allowed_dirs)
            if isinstance(clean, Report):
                return clean
            resume = clean
        if not looks_like_record(text) and (watch is None or len(text) > BLOCK_CHARS):
            report = _streamed(text, path, options, resume=resume)
            if report is not None:
                return report
        parsed = parse_text(text)
        report = _parsed(parsed, path, options)
        # freed while the collector still sleeps, the events never reach its next scan
        del parsed
    return report


def _streamed(text: str, path: str, options: Options, block_chars: int = BLOCK_CHARS,
              late_before: int | None = None, resume: Resume | None = None) -> Report | None:
    """Check ``text`` read a block at a time and walked a hand at a time (with ``resume``, from the
    hand the clean-game path stopped in); return None when only the whole parse gives its report
    (and what the watch made is to be dropped)."""
    findings = Findings(limit=options.max_diagnostics)
    read = text if resume is None else resume.text(text)
    stream = Stream(read, findings, block_chars, late_before=late_before)
    table = setup_table(stream.setup_events(), findings, options.base_dir,
                        ruleset=options.ruleset, allowed_dirs=options.allowed_dirs)
    report = Report(path=path, source=text)
    watching = None
    if table is not None:
        watching = _judge_game(table, stream.statements(), report, options, resume)
    else:
        stream.drain()
    if not stream.exact:
        if stream.failed or late_before is not None:
            return None
        # stopped before a late setup tag: read again without the tags the reading never reaches
        return _streamed(text, path, options, block_chars, stream.stop_line, resume)
    conclude(report, findings)
    if watching is not None:
        watching.finish(report)
    return report


def _parsed(parsed: ParseResult, path: str, options: Options,
            trace: list | None = None) -> Report:
    findings = Findings(limit=options.max_diagnostics)
    add_syntax(findings, parsed.issues)
    report = Report(path=path, source=parsed.text)
    table = setup_table(parsed.events, findings, options.base_dir, ruleset=options.ruleset,
                        allowed_dirs=options.allowed_dirs)
    watching = None
    if table is not None:
        table.trace = trace
        unread = unread_lines(parsed.text, (issue.line for issue in parsed.issues))
        watching = _judge_game(table, with_unread(parsed.events, unread), report, options)
    conclude(report, findings)
    if watching is not None:
        watching.finish(report)
    point_into_record(report, parsed.text)
    return report


class _End(NamedTuple):
    """An _End holds the hand in which the target was reached, and the state and totals then (named
    as :class:`_Game`'s, which stand for them until the game ends)."""

    hand: int
    state: State
    true_totals: tuple[int, ...] | None


class _Game(NamedTuple):
    """A _Game holds the running game between hands."""

    state: State
    sheet_totals: tuple[int, ...] | None  # the basis for the next total line
    older_totals: tuple[int, ...] | None  # the previous total line's basis
    true_totals: tuple[int, ...] | None  # the totals the referee stands by
    ended: _End | None = None
    dealer_known: bool = False  # the rotation is established (a dealer written or inferred)
    lost_total: Unread | None = None  # an unreadable total line the sheet's next total builds on
    played_out: bool = True  # the previous hand's play was recorded to its end
    # what the clean-hand pool carries is known: every hand so far was scored from its play
    pool_known: bool = True
    first: bool = True  # no hand judged yet
    names: tuple[str, ...] = ()  # the table's, shared by the hands' summaries
    # hands whose score line no play could give (the totals carry them): no winner from them
    doubts: list[int] | None = None
    wrong_dealer: int | None = None  # the previous hand's written dealer, where another was due


def _judge_game(table: CheckTable, events: Iterable[Event], report: Report, options: Options,
                resume: Resume | None = None) -> Watch | None:
    """Judge the hands of ``events`` one by one into ``report``, the options' watch following (and
    returned); with ``resume``, the game goes on from the clean hands before ``events``."""
    report.ruleset, report.players = table.rules.name, list(table.names)
    watching = options.watch(table) if options.watch is not None else None
    if watching is not None:
        if watching.trace is not None:
            table.trace = watching.trace  # type: ignore[assignment]  (an append is all it takes)
        events = watching.statements(events)
    n = table.size
    names = tuple(table.names)
    if resume is None:
        start = (table.rules.start_total,) * n
        game = _Game(engine.new_game(table.rules, n), start, None, start, names=names, doubts=[])
        seen = ClaimsSeen()
    else:
        game = _Game(resume.state, resume.totals, resume.older, resume.totals, dealer_known=True,
                     first=False, names=names, doubts=[])
        seen = ClaimsSeen(tricks=True, played_out=True, winners=True, sheet=True)
        report.hands.extend(resume.summaries)
    hands = len(report.hands)
    played = bool(hands)  # a hand has play recorded
    for record, claims in hands_of(table, events, hands):
        if record is not None:  # (None: the claims before any hand, judged last)
            hands += 1
            played = played or record.has_play
            seen.hand(table, record)
            game, summary = _judge_hand(table, record, game)
            report.hands.append(summary)
            if watching is not None:
                watching.hand(record, summary)
        end = game.ended or game  # (a hand after the end, reported, changes no winner, R9.4)
        for claim in claims:
            judge_game_over(table, claim, end.state, end.true_totals, tuple(game.doubts))
    seen.note(table)
    if not hands:
        table.findings.note(msg("no hands are recorded"))
    if hands and not played:
        table.findings.note(msg("no play is recorded, so scores are checked against what some "
                                "play could give and totals as arithmetic; `referee audit` finds "
                                "the smallest correction of a faulty sheet"))
    end_state = (game.ended or game).state
    if end_state.phase is Phase.OVER and not game.doubts:
        report.winners = [table.name(s) for s in end_state.winners]
    return watching


def _judge_hand(table: CheckTable, record: HandRecord, game: _Game) -> tuple[_Game, HandSummary]:
    """Judge one hand: its dealer, its play (as far as recorded), its scores and totals."""
    hand = record.number
    game = _past_the_end(table, record, game)
    start_state, dealer_known, written_dealer = dealer_of(
        table, record, game.state, known=game.dealer_known, first=game.first,
        played_out=game.played_out, previous=game.wrong_dealer)
    finished, written = None, {}
    if not record.has_play:
        report_direction(table, record)
    else:
        # (with a clean-hand pool earlier hands left unknown, its scores share an unknown pool)
        finished, written = _play_hand(table, record, start_state, dealer_known, written_dealer,
                                       game.pool_known, game.sheet_totals)
    shooter, lost = None, 0  # (known when the hand is played out)
    if finished is None:
        written, scores = _sheet_hand(table, record, game)
    else:
        result = finished.history[-1]
        scores, lost = result.scores, result.lost or 0
        shooter = game.names[result.shooter] if result.shooter is not None else None
    sheet_totals, true_totals = _totals(table, record, game, scores, written)
    state = finished if finished is not None else start_state
    if true_totals is None:
        state = engine.next_hand(state)  # no totals to decide the end of the game with
    else:
        # the totals the referee stands by decide the end: when earlier hands were not
        # played out in the record, the engine's own sums started from an unknown basis
        state = engine.conclude_hand(state._replace(totals=true_totals))
    ended = game.ended
    if state.phase is Phase.OVER and ended is None:
        ended = _End(hand, state, true_totals)
    summary = HandSummary.seated(hand, game.names, scores, true_totals, finished is not None,
                                 shooter, lost)
    if len(state.history) > 1:  # the walk reads the last hand's result only
        state = state._replace(history=state.history[-1:])
    # a first lead from the left of the dealer shows who dealt (plays._led)
    dealer_known = dealer_known or (table.rules.first_leader == FirstLeader.LEFT_OF_DEALER
                                    and bool(record.tricks) and 0 not in record.gaps)
    if game.first and led_elsewhere(table, record, start_state):
        # the first hand's written dealer and its first lead disagree, and either may be the
        # slip: the next hand's written dealer is taken as it is, not judged by the rotation
        dealer_known = False
    lost_total = None if record.total is not None else (record.lost("total") or game.lost_total)
    return game._replace(state=state, sheet_totals=sheet_totals, true_totals=true_totals,
                         older_totals=game.sheet_totals if record.total is not None else None,
                         ended=ended, dealer_known=dealer_known,
                         lost_total=lost_total, played_out=finished is not None,
                         pool_known=game.pool_known and (finished is not None
                                                         or not table.rules.clean_hand_pool),
                         first=False, wrong_dealer=written_dealer), summary


def _past_the_end(table: CheckTable, record: HandRecord, game: _Game) -> _Game:
    """Report a hand after the game ended (once, R9.4) and judge it as the next hand."""
    state = game.state
    if state.phase is not Phase.OVER:
        return game
    if record.number == game.ended.hand + 1:  # (the first hand after it)
        # TRANSLATORS: {end} says how it ended: "Dave (103) reached the target 100"
        table.findings.add(
            codes.GAME_END, record.span, msg(
                "hand {hand} is played after the game ended: {end} in hand {ended}",
                hand=record.number, end=end_text(table, state.totals), ended=game.ended.hand),
            hand=record.number, rule="R9.4")
    return game._replace(state=engine.next_hand(state))


def _play_hand(table: CheckTable, record: HandRecord, state: State, dealer_known: bool,
               written_dealer: int | None, scored: bool, previous: tuple[int, ...] | None
               ) -> tuple[State | None, dict[int, tuple]]:
    """Walk the hand's play; return (the scored state, the score line by seat) when it is played out
    with the kitty known and ``scored``, else (None, {}).  ``previous`` are the sheet's totals
    before the hand."""
    know = gather(table, record, table.rules.pass_direction(state.hand_number))
    played = engine.begin_play(state, know.holdings, know.kitty or ())
    state, complete, wrong_claims = judge_tricks(table, played, know, dealer_known=dealer_known,
                                                 written_dealer=written_dealer)
    if not (complete and know.kitty is not None and scored):
        return None, {}
    return finish_hand(table, state, record, wrong_claims, played_tricks(played, know.tricks),
                       previous)


def _sheet_hand(table: CheckTable, record: HandRecord, game: _Game
                ) -> tuple[dict[int, tuple], tuple[int, ...] | None]:
    """Judge the score and moon lines of a hand not scored from its play; return (the score line
    by seat, the scores the referee stands by)."""
    written = _unplayed(table, record, game.pool_known)
    scores = judge_sheet(table, record, game.sheet_totals, written, game.doubts)
    if record.moon is None or record.has_play:
        return written, scores
    moon = moon_as_taken(table, record, scores)
    if moon is not None:
        scores = moon
    elif not judge_sheet_moon(table, record, scores):
        table.findings.note(msg("hand {hand}: the moon line is not checked (no play recorded)",
                                hand=record.number))
    return written, scores


def _unplayed(table: CheckTable, record: HandRecord, pool_known: bool) -> dict[int, tuple]:
    """Read the score line by seat of a hand not scored from its play, and note what goes
    unchecked."""
    hand, note = record.number, table.findings.note
    written = {}
    if record.score is not None:
        written = entries_by_seat(table, record.score, hand, codes.SCORE_MISMATCH)
    if record.score is not None and record.tricks and not pool_known:
        note(msg("hand {hand}: scores not checked against play (the clean-hand pool they share "
                 "is not known: an earlier hand is not scored from its play)", hand=hand))
    elif record.score is not None and record.tricks:
        note(msg("hand {hand}: scores not checked against play (the hand is not fully recorded)",
                 hand=hand))
    return written


def _totals(table: CheckTable, record: HandRecord, game: _Game, scores: tuple[int, ...] | None,
            written: dict[int, tuple]) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """Return (the sheet's totals, the true totals) after the hand.  The total line is judged
    (R7.4), or when its score line, or the total line it builds on, cannot be read, a total that
    differs from the referee's is noted, not reported."""
    true_totals = _plus(game.true_totals, scores)
    if record.total is None:
        return true_totals, true_totals
    hand, unread = record.number, record.lost("score") or game.lost_total
    if unread is None:
        sheet, true = judge_totals(table, record.total, game.sheet_totals, scores, written, hand,
                                   true_totals, game.older_totals)
        if true:  # (the totals include a hand the sheet leaves out)
            true_totals = sheet
    else:
        sheet, _ = judge_totals(table, record.total, None, None, {}, hand)  # entries only
        score = unread.kind == "score"
        if sheet is not None and sheet != _plus(game.sheet_totals if score else
                                                game.true_totals, scores):
            table.findings.note(
                msg("hand {hand}: the total line is not checked: the score line it adds up "
                    "(line {line}) cannot be read", hand=hand, line=unread.span.line)
                if score else
                msg("hand {hand}: the total line is not checked: the previous total line it "
                    "adds up (line {line}) cannot be read", hand=hand, line=unread.span.line))
    if true_totals is None:
        true_totals = sheet  # from here on the sheet is the only basis there is
    return (sheet if sheet is not None else true_totals), true_totals


def _plus(totals: tuple[int, ...] | None, scores: tuple[int, ...] | None
          ) -> tuple[int, ...] | None:
    """Add the hand's ``scores`` to the ``totals`` when both are known."""
    if totals is None or scores is None:
        return None
    return tuple(t + s for t, s in zip(totals, scores))


# -- the dealer (R2.3, R4.1) ---------------------------------------------------------------
def dealer_of(table: CheckTable, record: HandRecord, state: State, *, known: bool, first: bool,
              played_out: bool, previous: int | None = None) -> tuple[State, bool, int | None]:
    """Return (the state with the hand's dealer, whether the dealer is known, a wrong dealer as
    written): a dealer named once the rotation is known must be the one due (R4.1).  When the
    previous hand's written dealer was not the one due and this hand's follows on from it, the
    table deals by its own rotation: the one fault was said, and the rotation moves to it."""
    start = record.start
    if state.rules.first_leader == FirstLeader.AFTER_LAST_WINNER:
        return state, (record.number == 1 if first else played_out), None
    if start is None or start.dealer is None:
        return state, known, None
    seat = table.seat(start.dealer, start.dealer_span, hand=record.number)
    if seat is not None and (not known or seat == state.dealer or previous is not None and
                             seat == engine.next_hand(state._replace(dealer=previous)).dealer):
        return state._replace(dealer=seat), True, None
    if seat is not None:
        table.findings.add(codes.WRONG_DEALER, start.dealer_span, msg(
            "{player} deals hand {hand}, but the deal moves to {dealer}", player=table.name(seat),
            hand=record.number, dealer=table.name(state.dealer)), hand=record.number,
            player=table.name(seat))
    return state, known, seat


def led_elsewhere(table: CheckTable, record: HandRecord, state: State) -> bool:
    """Tell whether a hand's first trick is led by another seat than the one left of the dealer its
    hand line names (under ``first_leader = "left_of_dealer"``)."""
    if table.rules.first_leader != FirstLeader.LEFT_OF_DEALER or not record.tricks or \
            record.gaps[:1] == [0] or record.start is None or record.start.dealer is None:
        return False
    first = record.tricks[0]
    name = first.leader if first.leader is not None else \
        (first.plays[0].player if first.plays else None)
    seat = None if name is None else table.seats.get(name.casefold())
    return seat is not None and seat != (state.dealer + 1) % table.size


# -- the end of the game (R9) -------------------------------------------------------------
# TRANSLATORS: which total wins the game, as in "the highest total is Dave (183)"
_WINNING_TOTALS = {WinningTotal.LOWEST: msg("lowest"), WinningTotal.HIGHEST: msg("highest")}


def end_text(table: CheckTable, totals) -> Message:
    if table.rules.game_length == GameLength.ONE_HAND_PER_PLAYER:
        return msgn("the game is {n} hand long and ended", "the game is {n} hands long and ended",
                    table.size, n=table.size)
    # TRANSLATORS: {leader} is a player and their total: "Dave (103)"
    return msg("{leader} reached the target {target}", leader=_leader_text(table, totals),
               target=table.rules.target)


def _leader_text(table: CheckTable, totals) -> str:
    """Name the highest total and whose it is, ``Dave (103)`` (a name and a number: no words)."""
    seat = max(range(table.size), key=lambda s: totals[s])
    return f"{table.name(seat)} ({totals[seat]})"


def judge_game_over(table: CheckTable, claim: GameOver, state, totals,
                    doubts: tuple[int, ...] = ()) -> None:
    """Judge a ``winner:`` line against the game's end; skip it when the totals carry a score line
    judged impossible (the hands in ``doubts``)."""
    add = table.findings.add
    if totals is None:
        table.findings.note(msg("the winner line is not checked: the totals are not known"))
        return
    if doubts:
        # TRANSLATORS: {hands} are hand numbers: "4" or "4, 7"
        table.findings.note(msgn(
            "the winner line is not checked: the totals carry hand {hands}'s score line, which "
            "no play could give", "the winner line is not checked: the totals carry the score "
            "lines of hands {hands}, which no play could give", len(doubts),
            hands=", ".join(map(str, doubts))))
        return
    if state.phase is not Phase.OVER:
        played = state.hand_number - 1
        why = (msgn("only {n} hand of {hands} have been played",
                    "only {n} hands of {hands} have been played", played, n=played,
                    hands=table.size)
               if table.rules.game_length == GameLength.ONE_HAND_PER_PLAYER else
               # TRANSLATORS: {leader} is a player and their total: "Dave (93)"
               msg("no total has reached the target {target} (highest: {leader})",
                   target=table.rules.target, leader=_leader_text(table, totals)))
        add(codes.GAME_END, claim.span, msg("the game is claimed over, but {why}", why=why),
            rule="R9.1")
        return
    seats = [table.seat(name, claim.span) for name in claim.players]
    claimed = set(seats)
    if None in claimed:
        return
    actual = set(state.winners)
    if claimed == actual and len(seats) > len(claimed):  # a name written twice
        twice = next(s for i, s in enumerate(seats) if s in seats[:i])
        add(codes.GAME_END, claim.span, msg("{player} appears twice on this line",
                                            player=table.name(twice)), rule="R9.3")
    elif claimed != actual:
        best = ", ".join(f"{table.name(s)} ({totals[s]})" for s in sorted(actual))
        # TRANSLATORS: {which} is "highest" or "lowest"; {best} players and their totals
        add(codes.GAME_END, claim.span, msg(
            "the winner is claimed as {claimed}, but the {which} total is {best}",
            claimed=", ".join(table.name(s) for s in sorted(claimed)),
            which=_WINNING_TOTALS[table.rules.winning_total], best=best), rule="R9.3")


# -- claims a record leaves out (R10.9) ---------------------------------------------------
@dataclass(slots=True)
class ClaimsSeen:
    """ClaimsSeen records which kinds of claim the hands judged so far wrote at all."""

    tricks: bool = False  # a whole trick was recorded
    played_out: bool = False  # a hand was recorded to its last trick
    winners: bool = False  # a trick's winner was claimed
    sheet: bool = False  # a score, total or moon line was written (readable or not)

    def hand(self, table: CheckTable, record: HandRecord) -> None:
        """Note what ``record`` claims; under [Claims "required"], report what it lacks."""
        if self.winners and self.sheet and not table.claims_required:
            return  # (as after a log's first hand: nothing more to learn)
        whole = [trick for trick in record.tricks if len(trick.plays) >= table.size]
        unclaimed = [trick.number for trick in whole if trick.claim is None]
        played_out = len(record.tricks) >= table.rules.cards_per_player(table.size)
        self.tricks = self.tricks or bool(whole)
        self.played_out = self.played_out or played_out
        self.winners = self.winners or len(unclaimed) < len(whole)
        self.sheet = self.sheet or record.scored or record.totalled or record.moon is not None
        if not table.claims_required:
            return
        lacks = []
        if unclaimed:
            # TRANSLATORS: {tricks} are trick numbers: "1, 2, 5"
            lacks.append(msgn("no winner for trick {tricks}", "no winner for tricks {tricks}",
                              len(unclaimed), tricks=_numbers(unclaimed)))
        if played_out and not record.scored:
            lacks.append(msg("no score line"))
        if played_out and not record.totalled:
            lacks.append(msg("no total line"))
        if lacks:
            span = record.span if record.span is not None else record.tricks[0].span
            # TRANSLATORS: {lacks} lists what is missing: "no winner for trick 3; no total line"
            table.findings.add(codes.MISSING_CLAIM, span, msg(
                "hand {hand} leaves out claims the log requires ([Claims \"required\"]): "
                "{lacks}", hand=record.number, lacks="; ".join(lacks)), hand=record.number,
                rule="R10.9")

    def note(self, table: CheckTable) -> None:
        """Note what the claims left out leave unchecked, for a log that does not require them."""
        if table.claims_required or not self.tricks:
            return
        if not self.played_out:
            self.sheet = True  # (no hand is over: no score is due yet)
        if not self.winners and not self.sheet:
            table.findings.note(msg("no trick winners, scores or totals are recorded: only the "
                                    "plays were judged (R10.9)"))
        elif not self.winners:
            table.findings.note(msg("no trick winners are recorded: no winner claim was "
                                    "checked (R10.9)"))
        elif not self.sheet:
            table.findings.note(msg("no score or total lines are recorded: the hands' scores "
                                    "and totals were not checked against a sheet (R10.9)"))


def _numbers(numbers: list[int]) -> str:
    """Write trick numbers with runs joined: 1-17, or 3, 5, 9-11."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)
