"""The referee: replay a parsed log against the engine and collect every violation.

One-way flow: text -> :mod:`referee.parser` events -> here (setup, hands grouped, each hand's
knowledge, tricks, scoring, game end) -> a :class:`~referee.diagnostics.Report` for the
renderers.  Checking a file is a pure function of its text and its path.
"""

from __future__ import annotations

from pathlib import Path

from . import engine
from .collector import collector_paused
from .diagnostics import HandSummary, Report, make
from .engine import Phase
from .events import (
    Comment, Deal, Event, GameOver, HandStart, Kitty, Moon, Pass, Score, Span, Tag, Total, Trick,
)
from .handcheck import replay_tricks
from .knowledge import HandRecord, gather
from .parser import ParseResult, UnreadableLog, parse_bytes, split_players
from .ruleset import DEFAULT_RULESET, Ruleset, RulesetError, load_ruleset, with_options
from .scoring import entries_by_seat, finish_hand, judge_totals
from .table import Findings, Table

_STAGE = {HandStart: 0, Deal: 1, Kitty: 1, Pass: 2, Trick: 3, Moon: 4, Score: 5, Total: 6}
_STAGE_WORDS = {1: "deal", 2: "pass", 3: "trick", 4: "moon", 5: "score", 6: "total"}
_SETUP_TAGS = ("players", "ruleset", "target")
MAX_FILE_BYTES = 256 * 1024 * 1024


def check_path(path: str | Path, *, invariants: bool = False) -> Report:
    """Check one log file; a file that cannot be read gives an ``unreadable`` report.

    With ``invariants``, also prove the z3 invariants (:mod:`referee.invariants`, which is
    the only place z3 is imported) on the same parse.
    """
    shown = str(path)
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            return _unreadable(shown, 1, 1, f"the file is {size} bytes; logs over "
                               f"{MAX_FILE_BYTES // 2**20} MiB are not read")
        data = Path(path).read_bytes()
    except OSError as err:
        return _unreadable(shown, 1, 1, f"cannot read the file: {err.strerror or err}")
    return check_bytes(data, shown, base_dir=Path(path).parent, invariants=invariants)


def check_bytes(data: bytes, path: str = "<stdin>", *, base_dir: Path | None = None,
                invariants: bool = False) -> Report:
    try:
        with collector_paused():
            parsed = parse_bytes(data)
            report = check_parsed(parsed, path, base_dir=base_dir, invariants=invariants)
            # freed while the collector still sleeps, the events never reach its next scan
            del parsed
        return report
    except UnreadableLog as err:
        return _unreadable(path, err.line, err.column, str(err))


def check_text(text: str, path: str = "<string>") -> Report:
    return check_bytes(text.encode("utf-8"), path)


def _unreadable(path: str, line: int, column: int, message: str) -> Report:
    report = Report(path=path, unreadable=message)
    report.diagnostics.append(make("syntax", Span.point(line, column), message, rule="R10.1"))
    return report


def check_parsed(parsed: ParseResult, path: str, *, base_dir: Path | None = None,
                 trace: list | None = None, invariants: bool = False) -> Report:
    """Referee a parsed log; ``trace``, when given, receives every finished trick.  With
    ``invariants``, also prove the z3 invariants (:mod:`referee.invariants`, the only place z3
    is imported) on the replay's own seating and hands."""
    findings = Findings()
    for issue in parsed.issues:
        findings.add("syntax", Span(issue.line, issue.column, issue.end_line, issue.end_column),
                     issue.message, hint=issue.hint)
    report = Report(path=path, source=parsed.text)
    table = _setup(parsed.events, findings, base_dir)
    if table is not None:
        table.trace = trace
        report.ruleset, report.players = table.rules.name, list(table.names)
        records = _replay_game(table, parsed.events, report)
    report.diagnostics = sorted(findings.items, key=lambda d: (d.line, d.column))
    report.unchecked = findings.unchecked
    if invariants and table is not None:
        from .invariants import attach_invariants

        attach_invariants(report, parsed, table=table, records=records)
    return report


# -- setup ----------------------------------------------------------------------------------
def _setup(events: tuple[Event, ...], findings: Findings, base_dir: Path | None) -> Table | None:
    tags: dict[str, Tag] = {}
    play_started: Span | None = None
    for event in events:
        if isinstance(event, Tag):
            if event.key in _SETUP_TAGS:
                if event.key in tags:
                    findings.add("bad-setup", event.span, f"a second [{event.name}] tag (the "
                                 f"first is on line {tags[event.key].span.line}); the first counts")
                    continue
                if play_started is not None:
                    findings.add("bad-setup", event.span, f"the [{event.name}] tag comes after "
                                 f"play has begun (line {play_started.line})", rule="R10.4")
            tags.setdefault(event.key, event)
        elif not isinstance(event, Comment) and play_started is None:
            play_started = event.span
    rules = _ruleset(tags.get("ruleset"), findings, base_dir)
    if "target" in tags:
        value = tags["target"].value.strip()
        if value.isdigit() and int(value) > 0:
            rules = with_options(rules, target=int(value))
        else:
            findings.add("bad-setup", tags["target"].span, f"the target {value!r} is not a "
                         f"positive whole number; {rules.target} is used", rule="R9.2")
    players = tags.get("players")
    if players is None:
        findings.add("bad-setup", Span.point(1, 1), "the log has no [Players \"...\"] tag, so "
                     "nothing can be checked against seats", rule="R10.2")
        findings.note("no Players tag: plays, scores and totals were not checked")
        return None
    names = split_players(players.value)
    seen: dict[str, str] = {}
    unique: list[str] = []
    for name in names:
        if name.casefold() in seen:
            findings.add("bad-setup", players.span, f"{name!r} is seated twice", rule="R10.2")
        else:
            seen[name.casefold()] = name
            unique.append(name)
    if not rules.allows_players(len(unique)):
        findings.add("bad-setup", players.span, f"{rules.name} is for {rules.min_players}-"
                     f"{rules.max_players} players, not {len(unique)}", rule="R1.1")
        try:
            rules = with_options(rules, min_players=min(len(unique), rules.min_players),
                                 max_players=max(len(unique), rules.max_players))
        except RulesetError:
            findings.note(f"{len(unique)} players cannot play {rules.name}: nothing else checked")
            return None
    return Table(rules, unique, findings)


def _ruleset(tag: Tag | None, findings: Findings, base_dir: Path | None) -> Ruleset:
    if tag is None:
        return load_ruleset(DEFAULT_RULESET)
    name = tag.value.strip()
    if name.endswith(".toml") and base_dir is not None and not Path(name).is_absolute():
        name = str(base_dir / name)
    try:
        return load_ruleset(name)
    except RulesetError as err:
        findings.add("bad-setup", tag.span, f"{err}; checking with {DEFAULT_RULESET}",
                     rule="R10.3")
        return load_ruleset(DEFAULT_RULESET)


# -- hands ----------------------------------------------------------------------------------
def _group(table: Table, events: tuple[Event, ...]) -> tuple[list[HandRecord], dict[int, list[GameOver]]]:
    """Split the statements into hands; a hand without a ``hand`` line is implicit."""
    records: list[HandRecord] = []
    claims: dict[int, list[GameOver]] = {}
    add = table.findings.add
    current: HandRecord | None = None
    stage = 0
    for event in events:
        kind = _STAGE.get(type(event))
        if kind is None:  # a tag, a comment or a claim that the game is over
            if isinstance(event, GameOver):
                claims.setdefault(len(records) - 1, []).append(event)
            continue
        fresh = current is None or kind == 0 or ((current.score or current.total) and (
            kind < 5 or (kind == 5 and current.score) or (kind == 6 and current.total)))
        if fresh:
            number = len(records) + 1
            current = HandRecord(number, span=event.span)
            records.append(current)
            stage = 0
            if isinstance(event, HandStart):
                current.start = event
                if event.number != number:
                    add("bad-setup", event.span, f"hand {event.number} is recorded where hand "
                        f"{number} is due", hand=number, rule="R10.4")
                continue
        elif kind < stage:
            add("bad-setup", event.span, f"a {_STAGE_WORDS[kind]} line after a "
                f"{_STAGE_WORDS[stage]} line of hand {current.number}", hand=current.number,
                rule="R10.4")
        if kind > stage:
            stage = kind
        if kind == 3:
            current.tricks.append(event)
        else:
            _file(table, current, event)
    return records, claims


def _file(table: Table, record: HandRecord, event: Event) -> None:
    add, hand = table.findings.add, record.number
    if isinstance(event, Deal):
        seat = table.seat(event.player, event.player_span, hand=hand)
        if seat in record.deals:
            add("bad-deal", event.span, f"a second deal line for {table.name(seat)} in hand "
                f"{hand} (the first is on line {record.deals[seat].span.line})", hand=hand,
                player=table.name(seat), rule="R2.4")
        elif seat is not None:
            record.deals[seat] = event
    elif isinstance(event, Kitty):
        if record.kitty is not None:
            add("bad-deal", event.span, f"a second kitty line in hand {hand} (the first is on "
                f"line {record.kitty.span.line})", hand=hand, rule="R2.2")
        else:
            record.kitty = event
    elif isinstance(event, Pass):
        seat = table.seat(event.player, event.player_span, hand=hand)
        if seat in record.passes:
            add("bad-pass", event.span, f"a second pass line for {table.name(seat)} in hand "
                f"{hand}", hand=hand, player=table.name(seat), rule="R3.1")
        elif seat is not None:
            record.passes[seat] = event
    elif isinstance(event, Moon):
        if record.moon is not None:
            add("bad-moon", event.span, f"a second moon line in hand {hand}", hand=hand,
                rule="R8.5")
        else:
            record.moon = event
    elif isinstance(event, Score):
        record.score = event
    elif isinstance(event, Total):
        record.total = event


def _replay_game(table: Table, events: tuple[Event, ...], report: Report) -> list[HandRecord]:
    records, claims = _group(table, events)
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
                add("game-end", record.span, f"hand {hand} is played after the game ended: "
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
                add("wrong-dealer", record.start.dealer_span, f"{table.name(seat)} deals "
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
                written = entries_by_seat(table, record.score, hand, "score-mismatch")
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
        add("game-end", claim.span, f"the game is claimed over, but no total has reached the "
            f"target {table.rules.target} (highest: {_leader_text(table, totals)})", rule="R9.1")
        return
    claimed = {table.seat(name, claim.span) for name in claim.players}
    if None in claimed:
        return
    actual = set(state.winners)
    if claimed != actual:
        best = ", ".join(f"{table.name(s)} ({totals[s]})" for s in sorted(actual))
        add("game-end", claim.span, f"the winner is claimed as "
            f"{', '.join(table.name(s) for s in sorted(claimed))}, but the lowest total is "
            f"{best}", rule="R9.3")
