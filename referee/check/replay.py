"""The referee: replay a parsed log against the engine and collect every violation.

One-way flow: text -> :mod:`referee.log.parser` events -> here (setup, hands grouped, each hand's
knowledge, tricks, scoring, game end) -> a :class:`~referee.check.diagnostics.Report` for the
renderers.  Checking a file is a pure function of its text and its path.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from referee.check import codes
from referee.check.diagnostics import HandSummary, Report, make
from referee.check.holdings import HandRecord, gather
from referee.check.plays import replay_tricks
from referee.check.scoring import entries_by_seat, finish_hand, judge_totals
from referee.check.setup import group_hands, setup_table
from referee.check.table import Findings, Table
from referee.log.events import Event, GameOver, Span
from referee.log.parser import ParseResult, UnreadableLog, parse_bytes
from referee.rules import engine
from referee.rules.engine import Phase
from referee.util.collector import collector_paused

MAX_FILE_BYTES = 256 * 1024 * 1024

# What runs after the replay on the same parse, given the report, the parse, the replay's
# table and hand records: the z3 invariants (referee.proofs), which this layer may not import.
Prover = Callable[[Report, ParseResult, Table, list[HandRecord]], None]


def check_path(path: str | Path, *, prove: Prover | None = None) -> Report:
    """Check one log file; a file that cannot be read gives an ``unreadable`` report."""
    shown = str(path)
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            return _unreadable(shown, 1, 1, f"the file is {size} bytes; logs over "
                               f"{MAX_FILE_BYTES // 2**20} MiB are not read")
        data = Path(path).read_bytes()
    except OSError as err:
        return _unreadable(shown, 1, 1, f"cannot read the file: {err.strerror or err}")
    return check_bytes(data, shown, base_dir=Path(path).parent, prove=prove)


def check_bytes(data: bytes, path: str = "<stdin>", *, base_dir: Path | None = None,
                prove: Prover | None = None) -> Report:
    try:
        with collector_paused():
            parsed = parse_bytes(data)
            report = check_parsed(parsed, path, base_dir=base_dir, prove=prove)
            # freed while the collector still sleeps, the events never reach its next scan
            del parsed
        return report
    except UnreadableLog as err:
        return _unreadable(path, err.line, err.column, str(err))


def check_text(text: str, path: str = "<string>") -> Report:
    return check_bytes(text.encode("utf-8"), path)


def _unreadable(path: str, line: int, column: int, message: str) -> Report:
    report = Report(path=path, unreadable=message)
    report.diagnostics.append(make(codes.SYNTAX, Span.point(line, column), message, rule="R10.1"))
    return report


def check_parsed(parsed: ParseResult, path: str, *, base_dir: Path | None = None,
                 trace: list | None = None, prove: Prover | None = None) -> Report:
    """Referee a parsed log; ``trace``, when given, receives every finished trick, and
    ``prove``, when given, runs on the replay's own seating and hands."""
    findings = Findings()
    for issue in parsed.issues:
        findings.add(codes.SYNTAX, Span(issue.line, issue.column, issue.end_line, issue.end_column),
                     issue.message, hint=issue.hint)
    report = Report(path=path, source=parsed.text)
    table = setup_table(parsed.events, findings, base_dir)
    if table is not None:
        table.trace = trace
        report.ruleset, report.players = table.rules.name, list(table.names)
        records = _replay_game(table, parsed.events, report)
    report.diagnostics = sorted(findings.items, key=lambda d: (d.line, d.column))
    report.unchecked = findings.unchecked
    if prove is not None and table is not None:
        prove(report, parsed, table, records)
    return report


def _replay_game(table: Table, events: tuple[Event, ...], report: Report) -> list[HandRecord]:
    records, claims = group_hands(table, events)
    rules, n, add = table.rules, table.size, table.findings.add
    state = engine.new_game(rules, n)
    sheet_totals: tuple[int, ...] | None = (0,) * n  # the basis for the next total line
    true_totals: tuple[int, ...] | None = (0,) * n
    ended_in: int | None = None
    game_end_reported = False
    if not records:
        table.findings.note("no hands are recorded")
    for index, record in enumerate(records):
        hand = record.number
        if state.phase is Phase.OVER:
            if not game_end_reported:
                add(codes.GAME_END, record.span, f"hand {hand} is played after the game ended: "
                    f"{_leader_text(table, state.totals)} reached the target {rules.target} in "
                    f"hand {ended_in}", hand=hand, rule="R9.4")
                game_end_reported = True
            state = engine.next_hand(state)
        dealer_known, written_dealer = index > 0, None
        if record.start is not None and record.start.dealer is not None:
            seat = table.seat(record.start.dealer, record.start.dealer_span, hand=hand)
            if seat is not None and (index == 0 or seat == state.dealer):
                state = state._replace(dealer=seat)
                dealer_known = True
            elif seat is not None:
                add(codes.WRONG_DEALER, record.start.dealer_span, f"{table.name(seat)} deals "
                    f"hand {hand}, but the deal moves to {table.name(state.dealer)}",
                    hand=hand, player=table.name(seat))
                written_dealer = seat
        start_state = state
        complete, written, wrong_claims = False, {}, []
        if record.has_play:
            know = gather(table, record, rules.pass_direction(state.hand_number))
            played = engine.begin_play(state, know.holdings, know.kitty or ())
            outcome = replay_tricks(table, played, know, record.tricks, hand,
                                    dealer_known=dealer_known, written_dealer=written_dealer)
            if outcome.stopped:
                table.findings.note(outcome.stopped)
            complete = outcome.complete and know.kitty is not None
            wrong_claims = outcome.wrong_claims
            if complete:
                state, written = finish_hand(table, outcome.state, record.moon, record.score,
                                             hand, wrong_claims)
        if not complete:
            if record.score is not None:
                written = entries_by_seat(table, record.score, hand, codes.SCORE_MISMATCH)
            if record.moon is not None and not record.has_play:
                table.findings.note(f"hand {hand}: the moon line is not checked (no play recorded)")
            if record.score is not None and record.tricks:
                table.findings.note(f"hand {hand}: scores not checked against play (the hand is "
                                    "not fully recorded)")
        if complete:
            scores = state.history[-1].scores
        else:
            scores = tuple(written[s][0] for s in range(n)) if len(written) == n else None
        true_totals = (tuple(t + s for t, s in zip(true_totals, scores))
                       if true_totals is not None and scores is not None else None)
        if record.total is not None:
            sheet = judge_totals(table, record.total, sheet_totals, scores, written, hand)
            if true_totals is None:
                true_totals = sheet  # from here on the sheet is the only basis there is
            sheet_totals = sheet if sheet is not None else true_totals
        else:
            sheet_totals = true_totals
        if not complete:
            state = start_state
        if true_totals is None:
            state = engine.next_hand(state)  # no totals to decide the end of the game with
        else:
            # the totals the referee stands by decide the end: when earlier hands were not
            # played out in the record, the engine's own sums started from an unknown basis
            state = engine.conclude_hand(state._replace(totals=true_totals))
        if state.phase is Phase.OVER and ended_in is None:
            ended_in = hand
        report.hands.append(_summary(table, hand, scores, true_totals, complete, state))
        for claim in claims.get(index, []):
            _judge_game_over(table, claim, state, true_totals)
    for claim in claims.get(-1, []):
        _judge_game_over(table, claim, state, true_totals)
    if records and not any(r.has_play for r in records):
        table.findings.note("no play is recorded, so scores are checked only as arithmetic; "
                            "`referee audit` finds the smallest correction of a faulty sheet, "
                            "`--invariants` checks each hand's sum")
    if state.phase is Phase.OVER:
        report.winners = [table.name(s) for s in state.winners]
    return records


def _summary(table: Table, hand: int, scores, totals, complete: bool, state) -> HandSummary:
    names = table.names
    shooter = lost = None
    if complete:
        result = state.history[-1]
        shooter = names[result.shooter] if result.shooter is not None else None
        lost = result.lost
    return HandSummary(
        hand, dict(zip(names, scores)) if scores else {},
        dict(zip(names, totals)) if totals else {}, complete, shooter, lost or 0,
    )


def _leader_text(table: Table, totals) -> str:
    seat = max(range(table.size), key=lambda s: totals[s])
    return f"{table.name(seat)} ({totals[seat]})"


def _judge_game_over(table: Table, claim: GameOver, state, totals) -> None:
    add = table.findings.add
    if totals is None:
        table.findings.note("the winner line is not checked: the totals are not known")
        return
    if state.phase is not Phase.OVER:
        add(codes.GAME_END, claim.span, f"the game is claimed over, but no total has reached the "
            f"target {table.rules.target} (highest: {_leader_text(table, totals)})", rule="R9.1")
        return
    claimed = {table.seat(name, claim.span) for name in claim.players}
    if None in claimed:
        return
    actual = set(state.winners)
    if claimed != actual:
        best = ", ".join(f"{table.name(s)} ({totals[s]})" for s in sorted(actual))
        add(codes.GAME_END, claim.span, f"the winner is claimed as "
            f"{', '.join(table.name(s) for s in sorted(claimed))}, but the lowest total is "
            f"{best}", rule="R9.3")
