"""The referee: replay a parsed log against the engine and collect every violation.
Checking a file is a pure function of its text and its path."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from referee.judge import codes
from referee.judge.clean_game import clean_report
from referee.judge.dealers import dealer_of, led_elsewhere
from referee.judge.diagnostics import HandSummary, Report, unreadable_report
from referee.judge.game_end import end_text, judge_game_over
from referee.judge.hand_record import HandRecord
from referee.judge.holdings import gather, report_direction
from referee.judge.missing_claims import ClaimsSeen
from referee.judge.plays import replay_tricks
from referee.judge.records import point_into_record, unreadable
from referee.judge.scoring import entries_by_seat, finish_hand, judge_sheet, judge_totals
from referee.judge.setup import hands_of, setup_table
from referee.judge.stream import Stream, Watch, add_syntax, conclude
from referee.judge.table import DEFAULT_MAX_DIAGNOSTICS, Findings, Table
from referee.judge.unread import Unread, unread_lines, with_unread
from referee.judge.why import played_tricks
from referee.log.events import Event
from referee.log.parser import BLOCK_CHARS, ParseResult, log_text, parse_text
from referee.log.decode import UnreadableLog
from referee.log.recognise import looks_like_record
from referee.rules import engine
from referee.rules.options import FirstLeader
from referee.rules.ruleset import Ruleset
from referee.rules.ruleset_files import reason
from referee.rules.state import Phase, State
from referee.util.collector import collector_paused
from referee.util.message import msg
from referee.util.reading import MAX_LOG_BYTES, UnreadableFile, read_limited

MAX_FILE_BYTES = MAX_LOG_BYTES

# A clean game in the writer's form is checked by referee.judge.clean_game, without events
# (False: every log takes the full check; the tests compare the two).
CLEAN_GAMES = True

# What follows the replay (referee.judge.stream.Watch), made once the table is set: the one
# hook of a check, for the z3 invariants (referee.proofs, which this layer may not import)
# and the views.
Watcher = Callable[[Table], Watch]


def check_path(path: str | Path, *, watch: Watcher | None = None,
               max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS, ruleset: Ruleset | None = None,
               allowed_dirs: tuple[str | Path, ...] = ()) -> Report:
    """Check one log file (read within :data:`MAX_FILE_BYTES`); a file that cannot be read gives
    an ``unreadable`` report.  ``ruleset`` overrides the ruleset the log names."""
    shown = str(path)
    try:
        data = read_limited(path, MAX_FILE_BYTES)
    except UnreadableFile as err:
        return unreadable_report(shown, reason(err))
    try:
        text = log_text(data)
        del data  # the text is all a check holds of the file
        return judge_decoded(text, shown, base_dir=Path(path).parent, watch=watch,
                             max_diagnostics=max_diagnostics, ruleset=ruleset,
                             allowed_dirs=allowed_dirs)
    except UnreadableLog as err:
        return unreadable(shown, err)


def check_bytes(data: bytes, path: str = "<stdin>", *, base_dir: Path | None = None,
                watch: Watcher | None = None,
                max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS, ruleset: Ruleset | None = None,
                allowed_dirs: tuple[str | Path, ...] = ()) -> Report:
    try:
        return judge_decoded(log_text(data), path, base_dir=base_dir, watch=watch,
                             max_diagnostics=max_diagnostics, ruleset=ruleset,
                             allowed_dirs=allowed_dirs)
    except UnreadableLog as err:
        return unreadable(path, err)


def judge_decoded(text: str, path: str, *, base_dir: Path | None = None,
                  watch: Watcher | None = None,
                  max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS, ruleset: Ruleset | None = None,
                  allowed_dirs: tuple[str | Path, ...] = ()) -> Report:
    """Check the decoded text (a log a block at a time, a JSON record whole), raising
    UnreadableLog for text that is not a log at all.  A watched log within one block is read
    whole: the setup of a stream costs more than it saves there."""
    with collector_paused():
        if watch is None and CLEAN_GAMES:
            report = clean_report(text, path, base_dir=base_dir, max_diagnostics=max_diagnostics,
                                  ruleset=ruleset, allowed_dirs=allowed_dirs)
            if report is not None:
                return report
        if not looks_like_record(text) and (watch is None or len(text) > BLOCK_CHARS):
            report = check_stream(text, path, base_dir=base_dir, watch=watch,
                                  max_diagnostics=max_diagnostics, ruleset=ruleset,
                                  allowed_dirs=allowed_dirs)
            if report is not None:
                return report
        parsed = parse_text(text)
        report = check_parsed(parsed, path, base_dir=base_dir, watch=watch,
                              max_diagnostics=max_diagnostics, ruleset=ruleset,
                              allowed_dirs=allowed_dirs)
        # freed while the collector still sleeps, the events never reach its next scan
        del parsed
    return report


def check_stream(text: str, path: str, *, base_dir: Path | None = None,
                 watch: Watcher | None = None,
                 max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS, ruleset: Ruleset | None = None,
                 allowed_dirs: tuple[str | Path, ...] = (),
                 block_chars: int = BLOCK_CHARS, late_before: int | None = None) -> Report | None:
    """:func:`check_parsed` of the log ``text`` read a block at a time and replayed a hand at a
    time: the same report, or None when only the whole parse gives it (and what ``watch`` made is
    to be dropped).  Raises UnreadableLog."""
    findings = Findings(limit=max_diagnostics)
    stream = Stream(text, findings, block_chars, late_before=late_before)
    table = setup_table(stream.setup_events(), findings, base_dir, ruleset=ruleset,
                        allowed_dirs=allowed_dirs)
    report = Report(path=path, source=text)
    watching = None
    if table is not None:
        report.ruleset, report.players = table.rules.name, list(table.names)
        watching = watch(table) if watch is not None else None
        _replay_game(table, stream.statements(), report, watching)
    else:
        stream.drain()
    if not stream.exact:
        if stream.failed or late_before is not None:
            return None
        # stopped before a late setup tag: read again without the tags the reading never reaches
        return check_stream(text, path, base_dir=base_dir, watch=watch,
                            max_diagnostics=max_diagnostics, ruleset=ruleset,
                            allowed_dirs=allowed_dirs, block_chars=block_chars,
                            late_before=stream.stop_line)
    conclude(report, findings)
    if watching is not None:
        watching.finish(report)
    return report


def check_text(text: str, path: str = "<string>", *,
               allowed_dirs: tuple[str | Path, ...] = ()) -> Report:
    return check_bytes(text.encode("utf-8"), path, allowed_dirs=allowed_dirs)


def check_parsed(parsed: ParseResult, path: str, *, base_dir: Path | None = None,
                 trace: list | None = None, watch: Watcher | None = None,
                 max_diagnostics: int = DEFAULT_MAX_DIAGNOSTICS, ruleset: Ruleset | None = None,
                 allowed_dirs: tuple[str | Path, ...] = ()) -> Report:
    """Referee a parsed log; ``trace`` receives every finished trick (unless ``watch`` makes a
    watch with its own).  Of each kind, the first ``max_diagnostics`` diagnostics are kept."""
    findings = Findings(limit=max_diagnostics)
    add_syntax(findings, parsed.issues)
    report = Report(path=path, source=parsed.text)
    table = setup_table(parsed.events, findings, base_dir, ruleset=ruleset,
                        allowed_dirs=allowed_dirs)
    watching = None
    if table is not None:
        table.trace = trace
        report.ruleset, report.players = table.rules.name, list(table.names)
        unread = unread_lines(parsed.text, (issue.line for issue in parsed.issues))
        watching = watch(table) if watch is not None else None
        _replay_game(table, with_unread(parsed.events, unread), report, watching)
    conclude(report, findings)
    if watching is not None:
        watching.finish(report)
    point_into_record(report, parsed.text)
    return report


class _Game(NamedTuple):
    """The running game between hands."""

    state: State
    sheet_totals: tuple[int, ...] | None  # the basis for the next total line
    older_totals: tuple[int, ...] | None  # the previous total line's basis
    true_totals: tuple[int, ...] | None  # the totals the referee stands by
    ended_in: int | None = None  # the hand in which the target was reached
    ended: tuple[State, tuple[int, ...] | None] | None = None  # (state, totals) then
    end_reported: bool = False  # a hand after the end is reported once
    dealer_known: bool = False  # the rotation is established (a dealer written or inferred)
    lost_total: Unread | None = None  # an unreadable total line the sheet's next total builds on
    played_out: bool = True  # the previous hand's play was recorded to its end
    # what the clean-hand pool carries is known: every hand so far was scored from its play
    pool_known: bool = True
    first: bool = True  # no hand replayed yet
    names: tuple[str, ...] = ()  # the table's, shared by the hands' summaries
    # hands whose score line no play could give (the totals carry them): no winner from them
    doubts: list[int] | None = None


def _replay_game(table: Table, events: Iterable[Event], report: Report,
                 watching: Watch | None = None) -> None:
    """Replay the hands of ``events`` one by one into ``report``, ``watching`` following;
    no hand record is held here once replayed."""
    if watching is not None:
        if watching.trace is not None:
            table.trace = watching.trace  # type: ignore[assignment]  (an append is all it takes)
        events = watching.statements(events)
    n = table.size
    start = (table.rules.start_total,) * n
    game = _Game(engine.new_game(table.rules, n), start, None, start, names=tuple(table.names),
                 doubts=[])
    hands = 0
    played = False  # a hand has play recorded
    seen = ClaimsSeen()
    for record, claims in hands_of(table, events):
        if record is not None:  # (None: the claims before any hand, judged last)
            hands += 1
            played = played or record.has_play
            seen.hand(table, record)
            game, summary = _replay_hand(table, record, game)
            report.hands.append(summary)
            if watching is not None:
                watching.hand(record, summary)
        # (a hand after the end, reported, changes no winner, R9.4)
        end_state, end_totals = game.ended or (game.state, game.true_totals)
        for claim in claims:
            judge_game_over(table, claim, end_state, end_totals, tuple(game.doubts))
    seen.note(table)
    if not hands:
        table.findings.note(msg("no hands are recorded"))
    if hands and not played:
        table.findings.note(msg("no play is recorded, so scores are checked against what some "
                                "play could give and totals as arithmetic; `referee audit` finds "
                                "the smallest correction of a faulty sheet"))
    end_state = game.ended[0] if game.ended is not None else game.state
    if end_state.phase is Phase.OVER and not game.doubts:
        report.winners = [table.name(s) for s in end_state.winners]


def _replay_hand(table: Table, record: HandRecord, game: _Game) -> tuple[_Game, HandSummary]:
    """One hand: its dealer, its play (as far as recorded), its scores and totals."""
    hand = record.number
    game = _past_the_end(table, record, game)
    start_state, dealer_known, written_dealer = dealer_of(
        table, record, game.state, known=game.dealer_known, first=game.first,
        played_out=game.played_out)
    finished, written = None, {}
    if not record.has_play:
        report_direction(table, record)
    else:
        # (with a clean-hand pool earlier hands left unknown, its scores share an unknown pool)
        finished, written = _play_hand(table, record, start_state, dealer_known, written_dealer,
                                       scored=game.pool_known)
    if finished is None:
        written = _unplayed(table, record, pool_known=game.pool_known)
        scores = judge_sheet(table, record, game.sheet_totals, written, game.doubts)
    else:
        scores = finished.history[-1].scores
    sheet_totals, true_totals = _totals(table, record, game, scores, written)
    state = finished if finished is not None else start_state
    if true_totals is None:
        state = engine.next_hand(state)  # no totals to decide the end of the game with
    else:
        # the totals the referee stands by decide the end: when earlier hands were not
        # played out in the record, the engine's own sums started from an unknown basis
        state = engine.conclude_hand(state._replace(totals=true_totals))
    ended_in, ended = game.ended_in, game.ended
    if state.phase is Phase.OVER and ended_in is None:
        ended_in, ended = hand, (state, true_totals)
    summary = _summary(game.names, hand, scores, true_totals, finished is not None, state)
    if len(state.history) > 1:  # the replay reads the last hand's result only
        state = state._replace(history=state.history[-1:])
    # a first lead from the left of the dealer shows who dealt (plays._settle_leader)
    dealer_known = dealer_known or (table.rules.first_leader == FirstLeader.LEFT_OF_DEALER
                                    and bool(record.tricks) and 0 not in record.gaps)
    if game.first and led_elsewhere(table, record, start_state):
        # the first hand's written dealer and its first lead disagree, and either may be the
        # slip: the next hand's written dealer is taken as it is, not judged by the rotation
        dealer_known = False
    lost_total = None if record.total is not None else (record.lost("total") or game.lost_total)
    return game._replace(state=state, sheet_totals=sheet_totals, true_totals=true_totals,
                         older_totals=game.sheet_totals if record.total is not None else None,
                         ended_in=ended_in, ended=ended, dealer_known=dealer_known,
                         lost_total=lost_total, played_out=finished is not None,
                         pool_known=game.pool_known and (finished is not None
                                                         or not table.rules.clean_hand_pool),
                         first=False), summary


def _past_the_end(table: Table, record: HandRecord, game: _Game) -> _Game:
    """A hand after the game ended is reported (once, R9.4) and replayed as the next hand."""
    state = game.state
    if state.phase is not Phase.OVER:
        return game
    if not game.end_reported:
        # TRANSLATORS: {end} says how it ended: "Dave (103) reached the target 100"
        table.findings.add(
            codes.GAME_END, record.span, msg(
                "hand {hand} is played after the game ended: {end} in hand {ended}",
                hand=record.number, end=end_text(table, state.totals), ended=game.ended_in),
            hand=record.number, rule="R9.4")
    return game._replace(state=engine.next_hand(state), end_reported=True)


def _play_hand(table: Table, record: HandRecord, state: State, dealer_known: bool,
               written_dealer: int | None, *, scored: bool = True
               ) -> tuple[State | None, dict[int, tuple]]:
    """The hand's play replayed: (the scored state, the score line by seat) when it is
    played out with the kitty known (and ``scored``: its scores can be known), else (None, {})."""
    hand = record.number
    know = gather(table, record, table.rules.pass_direction(state.hand_number))
    played = engine.begin_play(state, know.holdings, know.kitty or ())
    outcome = replay_tricks(table, played, know, record.tricks, hand,
                            dealer_known=dealer_known, written_dealer=written_dealer)
    if outcome.stopped:
        table.findings.note(outcome.stopped)
    if not (outcome.complete and know.kitty is not None and scored):
        return None, {}
    return finish_hand(table, outcome.state, record.moon, record.score, hand,
                       outcome.wrong_claims, record.tricks, played_tricks(played, know.tricks))


def _unplayed(table: Table, record: HandRecord, *, pool_known: bool = True
              ) -> dict[int, tuple]:
    """A hand not played out (or whose clean-hand pool is not known): its score line by seat,
    and what goes unchecked."""
    hand, note = record.number, table.findings.note
    written = {}
    if record.score is not None:
        written = entries_by_seat(table, record.score, hand, codes.SCORE_MISMATCH)
    if record.moon is not None and not record.has_play:
        note(msg("hand {hand}: the moon line is not checked (no play recorded)", hand=hand))
    if record.score is not None and record.tricks and not pool_known:
        note(msg("hand {hand}: scores not checked against play (the clean-hand pool they share "
                 "is not known: an earlier hand is not scored from its play)", hand=hand))
    elif record.score is not None and record.tricks:
        note(msg("hand {hand}: scores not checked against play (the hand is not fully recorded)",
                 hand=hand))
    return written


def _totals(table: Table, record: HandRecord, game: _Game, scores: tuple[int, ...] | None,
            written: dict[int, tuple]) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """(the sheet's totals, the true totals) after the hand; the total line is judged (R7.4)."""
    true_totals = game.true_totals
    if true_totals is not None and scores is not None:
        true_totals = tuple(t + s for t, s in zip(true_totals, scores))
    else:
        true_totals = None
    if record.total is None:
        return true_totals, true_totals
    unread = record.lost("score") or game.lost_total
    if unread is not None:
        sheet = _unsure_totals(table, record, game, scores, true_totals, unread)
    else:
        sheet = judge_totals(table, record.total, game.sheet_totals, scores, written,
                             record.number, true_totals, game.older_totals)
    if true_totals is None:
        true_totals = sheet  # from here on the sheet is the only basis there is
    return (sheet if sheet is not None else true_totals), true_totals


def _unsure_totals(table: Table, record: HandRecord, game: _Game, scores, true_totals,
                   unread: Unread) -> tuple[int, ...] | None:
    """A total line whose hand score line, or the total line it builds on, cannot be read:
    its arithmetic cannot be checked (a difference may be the unreadable line's), so a total
    that differs from the referee's is noted, not reported.  Returns the written totals."""
    sheet = judge_totals(table, record.total, None, None, {}, record.number)  # entries only
    if unread.kind == "score":
        basis = game.sheet_totals
        expected = None if basis is None or scores is None else tuple(
            b + s for b, s in zip(basis, scores))
    else:
        expected = true_totals
    if sheet is not None and sheet != expected:
        table.findings.note(
            msg("hand {hand}: the total line is not checked: the score line it adds up (line "
                "{line}) cannot be read", hand=record.number, line=unread.span.line)
            if unread.kind == "score" else
            msg("hand {hand}: the total line is not checked: the previous total line it adds up "
                "(line {line}) cannot be read", hand=record.number, line=unread.span.line))
    return sheet


def _summary(names: tuple[str, ...], hand: int, scores, totals, complete: bool,
             state) -> HandSummary:
    shooter, lost = None, 0
    if complete:
        result = state.history[-1]
        shooter, lost = names[result.shooter] if result.shooter is not None else None, result.lost
    return HandSummary.seated(hand, names, scores, totals, complete, shooter, lost or 0)
