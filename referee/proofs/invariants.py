"""This module proves invariants of a checked log: `referee check --invariants`
(spec/verification.md).

Each hand's laws are SMT-LIB text over what the log records, groups of ground instances that z3
refutes or not, expanded instance by instance only when refuted: ``cards-dealt``,
``cards-played``, ``points-conserved``, the scoresheet's (:mod:`.sheet_laws`) and
``holdings-exist`` (:mod:`.partial`).  One solver per thread is asked about :data:`BATCH_HANDS`
hands at once, and hand by hand, law by law only when that finds a counterexample.
"""

from __future__ import annotations

import threading
from collections import Counter
from functools import partial
from typing import NamedTuple

from referee.judge import codes
from referee.judge.diagnostics import HandSummary, Related, Report, make
from referee.judge.hand_record import HandRecord
from referee.judge.holding_rule import sender
from referee.judge.stream import Watch
from referee.judge.table import CheckTable
from referee.log.events import Span
from referee.log.parser import ParseResult, parse_log
from referee.proofs.budgets import PROVER_MAX_CHARS, PROVER_TIMEOUT_MS, size_detail, time_detail
from referee.proofs.handfacts import HandFacts, gather, hand_records, table_for
from referee.proofs.sheet_laws import Sheet
from referee.proofs.smt_ops import DEFINITIONS, Group, Item, Law, smt_sum
from referee.rules.cards import DECK_SIZE, NUM_RANKS, card_text
from referee.rules.options import KittyTo, SetAsideLast, SetAsideWhen
from referee.rules.ruleset import card_points
from referee.util.collector import collector_paused
from referee.util.message import msg, msgn

PLAY_KINDS = frozenset({codes.REVOKE, codes.ILLEGAL_LEAD, codes.ILLEGAL_PLAY, codes.CARD_NOT_HELD})
# This many hands send their quantifier-free laws to z3 in one call: that makes few calls and
# holds only a batch's facts (one call for the whole log held every hand's, 30 MB per MB of log
# in z3 alone).
BATCH_HANDS = 100


def attach_invariants(report: Report, parsed: ParseResult | None = None, *,
                      table: CheckTable | None = None,
                      records: list[HandRecord] | None = None) -> None:
    """Prove the per-hand invariants of an already-checked report; ``table`` and ``records``
    (both or neither), the check's seating and hands, spare redoing them."""
    if report.unreadable is not None or not report.players:
        return
    if table is None or records is None:
        if parsed is None:
            parsed = parse_log(report.source)
        table = table_for(parsed, report.path)
        if table is None:
            return
        records = hand_records(table, parsed)
    with collector_paused():
        watch = InvariantWatch(table)
        for index, record in enumerate(records):
            watch.hand(record, report.hands[index] if index < len(report.hands) else None)
        watch.finish(report)


class _Hand(NamedTuple):
    number: int
    span: Span  # where a note about the whole hand points
    laws: list[Law]  # decided, their formulas dropped
    holdings: object  # the holdings-exist verdict (referee.proofs.partial.Verdict), or None


class InvariantWatch(Watch):
    """An InvariantWatch decides the invariants of one log as its check goes, ``batch`` hands
    at a time."""

    def __init__(self, table: CheckTable, batch: int = BATCH_HANDS) -> None:
        self.table, self.size = table, batch
        self.sheet = Sheet(table)
        self.waiting: list[tuple[HandFacts, list[Law]]] = []  # written, not yet decided
        self.decided: list[_Hand] = []

    def hand(self, record: HandRecord, summary: HandSummary | None) -> None:
        facts = gather(self.table, record)
        self.waiting.append((facts, hand_laws(self.table, facts, summary, self.sheet)))
        if len(self.waiting) >= self.size:
            self._decide()

    def _decide(self) -> None:
        hands, self.waiting = self.waiting, []
        prover = _prover()
        try:
            prover.decide([laws for _, laws in hands])
        except BaseException:
            _LOCAL.prover = None  # the next log gets a fresh solver, not one left half-way
            raise
        table = self.table
        for facts, laws in hands:
            holdings = None
            if facts.prefix and not all(facts.holding_known(s) for s in range(table.size)):
                from referee.proofs.partial import check_hand

                holdings = check_hand(table, facts)
            for law in laws:
                law.groups = []
            # a note about the whole hand points at its hand line, else its first statement
            span = facts.record.span
            if span is None:
                span = facts.tricks[0].span if facts.tricks else Span.point(1, 1)
            self.decided.append(_Hand(facts.number, span, laws, holdings))

    def finish(self, report: Report) -> None:
        if self.waiting:
            self._decide()
        if report.unreadable is not None or not report.players:
            return
        for hand in self.decided:
            for law in hand.laws:
                _record(report, law, hand)
            if hand.holdings is not None:
                _holdings_exist(report, hand, hand.holdings)
        report.diagnostics.sort(key=lambda d: (d.line, d.column))


# -- z3 ---------------------------------------------------------------------------------------
_LOCAL = threading.local()


def _prover() -> _Prover:
    """Return the thread's prover, kept from log to log so that its solver reads each
    definition once (z3 contexts are not thread-safe)."""
    prover = getattr(_LOCAL, "prover", None)
    if prover is None:
        prover = _LOCAL.prover = _Prover()
    return prover


class _Prover:
    """A _Prover makes each check a ``push``, one assertion and a ``pop``; only
    :data:`DEFINITIONS` stay."""

    def __init__(self) -> None:
        import z3

        self.z3 = z3
        self.solver = z3.Solver(ctx=z3.Context())
        # a hostile log cannot hold the referee: past the budget z3 answers "unknown"
        self.solver.set("timeout", PROVER_TIMEOUT_MS)
        self.defined = 0  # how many of DEFINITIONS (which only grow) the solver has read

    def _check(self, formulas) -> object:
        if self.defined < len(DEFINITIONS):  # outside push: they stay for the next checks
            known = list(DEFINITIONS.values())
            self.solver.from_string(" ".join(known[self.defined:]))
            self.defined = len(known)
        self.solver.push()
        try:
            self.solver.from_string("(assert (not (and " + " ".join(formulas) + " true)))")
            return self.solver.check()
        finally:
            self.solver.pop()

    def refutable(self, formulas: list[str]) -> bool | None:
        """Tell whether some formula can be false (None: no answer within the time
        budget)."""
        answer = self._check(formulas)
        return True if answer == self.z3.sat else False if answer == self.z3.unsat else None

    def decide(self, hands: list[list[Law]]) -> None:
        together, alone = [], []
        for laws in hands:
            open_laws = [law for law in laws if law.status is None and law.groups]
            for law in laws:
                if law.status is None and not law.groups:
                    law.status = "skipped"
            if open_laws and _within_size(open_laws):
                ground = all(g.ground for law in open_laws for g in law.groups)
                (together if ground else alone).append(open_laws)
        # ask the log's quantifier-free laws at once; on any doubt, ask each hand on its own
        atoms = dict.fromkeys(a for laws in together for law in laws for g in law.groups
                              for a in g.atoms)
        if together and self._check(list(atoms)) == self.z3.unsat:
            for laws in together:
                for law in laws:
                    law.status = "proved"
        else:
            alone += together
        for open_laws in alone:
            self._decide_hand(open_laws)

    def _decide_hand(self, open_laws: list[Law]) -> None:
        answer = self.refutable([g.smt for law in open_laws for g in law.groups])
        if answer is not True:
            for law in open_laws:
                _settle(law, "proved" if answer is False else None)
            return
        for law in open_laws:  # something fails: find which law and which instances
            answer = self.refutable([g.smt for g in law.groups])
            if answer is not True:
                _settle(law, "proved" if answer is False else None)
                continue
            for group in law.groups:
                if self.refutable([group.smt]):
                    law.failures += [i for i in group.expand() if self.refutable([i.smt])]
            # a counterexample exists, but if no instance was refuted within the budget there
            # is no evidence to show: say so rather than report a violation without one
            _settle(law, "violated" if law.failures else None)


def _settle(law: Law, status: str | None) -> None:
    if status is None:
        law.status, law.detail = codes.UNDECIDED, time_detail(PROVER_TIMEOUT_MS)
    else:
        law.status = status


def _within_size(open_laws: list[Law]) -> bool:
    """Tell whether one hand's laws are small enough to send to z3; when not, mark the laws
    undecided."""
    size = sum(len(a) for law in open_laws for g in law.groups for a in g.atoms)
    if size <= PROVER_MAX_CHARS:
        return True
    for law in open_laws:
        law.status = codes.UNDECIDED
        law.detail = size_detail(msg("formula characters"), size, PROVER_MAX_CHARS)
    return False


# -- results ----------------------------------------------------------------------------------
def _note(report: Report, facts: _Hand, name: str, detail: str) -> None:
    # TRANSLATORS: {law} is a law's name (cards-dealt, score-sum, ...), {detail} why
    message = msg("{law} is undecided in hand {hand}: {detail}", law=name, hand=facts.number,
                  detail=detail)
    report.diagnostics.append(make(codes.UNDECIDED, facts.span, message, hand=facts.number))
    _entry(report, name, facts.number, codes.UNDECIDED, detail)


def _entry(report: Report, name: str, hand: int, status: str, detail: str) -> None:
    report.invariants.append({"name": name, "hand": hand, "status": status, "detail": detail})


# These faults concern a hand's holdings: every law of that hand reads the holdings as written.
_HOLDING_FAULTS = (codes.BAD_DEAL, codes.BAD_PASS)


def _record(report: Report, law: Law, facts: _Hand) -> None:
    hand = facts.number
    status = law.status or "skipped"
    detail = law.detail
    if status == codes.UNDECIDED:
        _note(report, facts, law.name, detail)
        return
    if status == "proved" and law.partial:
        status = "skipped"
    if status == "violated":
        first = law.failures[0]
        detail = first.say
        if len(law.failures) > 1:
            # TRANSLATORS: {failure} is one instance of a broken law, {more} how many others
            detail = msg("{failure} (and {more} more)", failure=first.say,
                         more=len(law.failures) - 1)
        # the check already reported a fault on this line, or a deal, kitty or pass of this
        # hand that the laws read as written, or a score of this hand that the totals law adds
        # up as written: the law's failure is its consequence, not reported a second time
        if not any((d.line == first.span.line and d.kind != codes.INVARIANT)
                   or (d.hand == hand and d.kind in _HOLDING_FAULTS)
                   or (d.hand == hand and d.kind == codes.SCORE_MISMATCH
                       and law.name == "totals") for d in report.diagnostics):
            # TRANSLATORS: {law} is a law's name (cards-dealt, score-sum, ...)
            message = msg("{law} is violated in hand {hand}: {detail}", law=law.name, hand=hand,
                          detail=detail)
            report.diagnostics.append(make(codes.INVARIANT, first.span, message, rule=law.clause,
                                           hand=hand, related=first.related))
    _entry(report, law.name, hand, status, detail)


def _holdings_exist(report: Report, facts: _Hand, verdict) -> None:
    if verdict.undecided:
        _note(report, facts, "holdings-exist", verdict.detail)
        return
    if verdict.conflict is None:
        _entry(report, "holdings-exist", facts.number,
               "proved" if verdict.consistent else "skipped", verdict.detail)
        return
    conflict = verdict.conflict
    already = [d for d in report.diagnostics if d.kind in PLAY_KINDS and d.line in conflict.lines]
    detail = conflict.message
    if already:
        detail = msg("{conflict} (already reported on line {line})", conflict=detail,
                     line=already[0].line)
    else:
        report.diagnostics.append(conflict.to_diagnostic())
    _entry(report, "holdings-exist", facts.number, "violated", detail)


_POINTS = tuple(card_points(c) for c in range(DECK_SIZE))
_PACKED: dict[tuple, dict[int, str]] = {}  # per law and shape: a card's packed counts -> atom
_TRICK_TEXT: dict[tuple, str] = {}  # (collected, its point cards) -> a trick's arguments
MEMO_LIMIT = 10_000  # entries per memo table: a long-running worker must not grow without end


def _remember(memo: dict, key, value):
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


# -- the laws ---------------------------------------------------------------------------------
def hand_laws(table: CheckTable, facts: HandFacts, summary, sheet: Sheet) -> list[Law]:
    """Return the laws of one hand, in the order they are reported; ``sheet`` (the scoresheet
    laws, :mod:`referee.proofs.sheet_laws`) carries the running totals from hand to hand."""
    points, lost, lost_value = _points(facts)
    return [_cards_dealt(table, facts), _cards_played(table, facts), points,
            sheet.score_law(facts, lost, lost_value), sheet.totals_law(facts, summary)]


def _cards_dealt(table: CheckTable, facts: HandFacts) -> Law:
    law = Law("cards-dealt", "R2.4")
    rules, n, record = facts.rules, facts.players, facts.record
    if not facts.deals:
        return law.skip(msg("no deal recorded"))
    all_dealt = len(facts.deals) == n
    kitty = facts.kitty if facts.kitty_recorded else None
    exact = all_dealt and kitty is not None
    runs = [deal.run.cards for deal in record.deals.values()]
    if kitty is not None and record.kitty is not None:
        runs.append(record.kitty.run.cards)
    op, decks = ("=" if exact else "<="), rules.decks
    law.groups.append(Group(_dealt_atoms(runs, op, decks, exact),
                            partial(_dealt_items, facts, op, exact, kitty is not None)))
    if all_dealt and kitty is None:
        sizes = [str(len(d.run.cards)) for d in record.deals.values()]
        want = rules.deck_size - rules.kitty_size(n)
        item = Item(f"(= {smt_sum(sizes)} {want})",
                    msg("the deals hold {held} cards, not {want}", held=sum(map(int, sizes)),
                        want=want), max(facts.deal_spans.values(), key=lambda s: s.line))
        law.groups.append(Group([item.smt], lambda: [item]))
    if exact:
        # TRANSLATORS: {decks} is the number of decks; English writes time(s) for any number
        law.detail = msgn("every card identity {decks} time(s) in the deals and the kitty",
                          "every card identity {decks} time(s) in the deals and the kitty",
                          decks, decks=decks)
    else:
        law.partial = True
        missing = [table.name(s) for s in range(n) if s not in facts.deals]
        if missing:
            law.detail = msgn("deals of {players} not recorded: no card is dealt more than "
                              "{decks} time(s)", "deals of {players} not recorded: no card is "
                              "dealt more than {decks} time(s)", decks,
                              players=", ".join(missing), decks=decks)
        else:
            law.detail = msgn("kitty not recorded: no card is dealt more than {decks} time(s)",
                              "kitty not recorded: no card is dealt more than {decks} time(s)",
                              decks, decks=decks)
    return law


def _dealt_atoms(runs: list, op: str, decks: int, exact: bool) -> list[str]:
    """Make the distinct atoms of the cards-dealt group, one per way a card is spread over
    ``runs`` (the deals and the kitty)."""
    # pack per card one int: how many places (deals, kitty) hold it k times, in bits k*width..
    width = len(runs).bit_length()
    hist, once = [0] * DECK_SIZE, 1 << width
    for cards in runs:
        if len(set(cards)) == len(cards):
            for card in cards:
                hist[card] += once
        else:
            for card, k in Counter(cards).items():
                hist[card] += 1 << width * k

    def atom(value: int) -> str:
        counts, k = [], 1
        while value >> width * k:
            counts += [k] * ((value >> width * k) & (once - 1))
            k += 1
        return _dealt_atom(op, counts, decks) if counts or exact else ""

    return _packed_atoms(("dealt", op, decks, width), sorted(set(hist)), atom)


def _packed_atoms(key: tuple, values, atom) -> list[str]:
    """Return the non-empty ``atom(value)`` of each of ``values`` (packed counts), memoised
    per key."""
    packed = _PACKED.setdefault(key, {})
    atoms = []
    for value in values:
        found = packed.get(value)
        if found is None:
            found = _remember(packed, value, atom(value))
        if found:
            atoms.append(found)
    return atoms


def _dealt_items(facts: HandFacts, op: str, exact: bool, with_kitty: bool) -> list[Item]:
    """Make the cards-dealt instances card by card, naming where each card is dealt."""
    record, decks = facts.record, facts.rules.decks
    places: dict[int, list[tuple[Span, int]]] = {}
    lines = list(record.deals.values())
    for line in lines + ([record.kitty] if with_kitty and record.kitty is not None else []):
        for card, k in Counter(line.run.cards).items():
            places.setdefault(card, []).append((line.span, k))
    items = []
    for card in (range(DECK_SIZE) if exact else sorted(places)):
        where = places.get(card, [])
        total = sum(k for _, k in where)
        span = where[-1][0] if where else max(facts.deal_spans.values(), key=lambda s: s.line)
        related = tuple(Related(s.line, s.column, msg("dealt here")) for s, _ in where[:-1])
        # TRANSLATORS: {total} copies of {card} are dealt; {decks} is the number of decks
        say = msgn("{card} is dealt {total} time(s), but the {decks} deck(s) hold it {decks} "
                   "time(s)", "{card} is dealt {total} time(s), but the {decks} deck(s) hold it "
                   "{decks} time(s)", total, card=card_text(card), total=total, decks=decks)
        items.append(Item(_dealt_atom(op, [k for _, k in where], decks), say, span, related))
    return items


def _dealt_atom(op: str, counts: list[int], decks: int) -> str:
    """State that a card's copies in each deal (and the kitty) add up to the decks'
    copies."""
    return f"({op} {smt_sum([str(k) for k in sorted(counts)])} {decks})"


def _cards_played(table: CheckTable, facts: HandFacts) -> Law:
    law = Law("cards-played", "R5.4")
    prefix = facts.prefix
    if not prefix:
        return law.skip(msg("no trick recorded"))
    n, exact, deals, passes = facts.players, facts.complete, facts.deals, facts.passes
    known = [s for s in range(n) if facts.holding_known(s)]
    op = "=" if exact else "<="
    tricks = facts.tricks[:prefix]
    # pack per seat and card one int: played, dealt, received and passed on, width bits each
    width = max(prefix, max(map(len, deals.values()), default=0),
                max(map(len, passes.values()), default=0)).bit_length()
    tallies, values = _played_tallies(facts, known, tricks, width)
    if known:  # one group for all players: the instances of all are expanded seat by seat
        atoms = _packed_atoms(("played", op, width), values, partial(_played_code, op, width))
        law.groups.append(Group(atoms, _played_items(table, facts, known, op, width, tallies)))
    if exact and facts.kitty is not None and (len(known) < n or len(facts.deals) < n):
        law.groups.append(_played_with_kitty(facts))
    unknown = [table.name(s) for s in range(n) if s not in known]
    law.detail = (msg("each player plays exactly the cards held after passing") if exact else
                  msg("no player plays a card more often than held (the hand is unfinished)"))
    if unknown:
        # TRANSLATORS: {law} is what the law says ("each player plays exactly ..."), {players}
        # the players whose holdings the log leaves out
        law.detail = msg("{law}; holdings of {players} not recorded", law=law.detail,
                         players=", ".join(unknown))
        law.partial = not exact or not law.groups
    return law


def _played_tallies(facts: HandFacts, known: list[int], tricks,
                    width: int) -> tuple[list[list[int]], set[int]]:
    """Count, per seat and card, the packed counts (played, dealt, received, passed on;
    ``width`` bits each); return them and the distinct counts of the ``known`` seats."""
    n, offset, deals, passes = facts.players, facts.offset, facts.deals, facts.passes
    got, sent, played = 1 << width, 1 << 2 * width, 1 << 3 * width
    tallies = [[0] * DECK_SIZE for _ in range(n)]
    for trick in tricks:
        for seat, card, _ in trick.plays:
            tallies[seat][card] += played
    values: set[int] = set()
    for seat in known:
        row = tallies[seat]
        for card in deals[seat]:
            row[card] += 1
        if offset:
            for card in passes[sender(seat, offset, n)]:
                row[card] += got
            for card in passes[seat]:
                row[card] += sent
        values.update(row)
    return tallies, values


def _played_with_kitty(facts: HandFacts) -> Group:
    """State, for a finished hand whose holdings are not all known, that the cards played
    and the kitty together are the decks."""
    counts = facts.played()
    decks, kitty = facts.rules.decks, facts.kitty
    atoms = [f"(= (+ {counts[c]} {kitty[c]}) {decks})" for c in range(DECK_SIZE)]

    def expand() -> list[Item]:
        return [Item(a, msgn("{card} is played {played} time(s) with {kitty} in the kitty; the "
                             "decks hold it {decks} time(s)", "{card} is played {played} "
                             "time(s) with {kitty} in the kitty; the decks hold it {decks} "
                             "time(s)", counts[c], card=card_text(c), played=counts[c],
                             kitty=kitty[c], decks=decks), facts.tricks[-1].span)
                for c, a in enumerate(atoms)]

    return Group(list(dict.fromkeys(atoms)), expand)


def _unpack(width: int, value: int) -> tuple[int, int, int, int]:
    mask = (1 << width) - 1
    return (value >> 3 * width, value & mask, (value >> width) & mask, (value >> 2 * width) & mask)


def _played_code(op: str, width: int, value: int) -> str:
    """State played = dealt + received - passed on (R3, R5.4) for a card played or (when the
    hand is finished) held; return "" for a card only passed on, or (unfinished) not played."""
    played, dealt, got, sent = _unpack(width, value)
    if not (played or (op == "=" and (dealt or got))):
        return ""
    parts = [str(k) for k in (dealt, got) if k] + ([f"(- {sent})"] if sent else [])
    return f"({op} {played} {smt_sum(parts)})"


def _played_items(table, facts, known, op, width, tallies):
    def expand() -> list[Item]:
        items = []
        for seat in known:
            who, deal = table.name(seat), facts.deal_spans[seat]
            mine: dict[int, list[Span]] = {}
            for trick in facts.tricks[: facts.prefix]:
                for who_played, card, play in trick.plays:
                    if who_played == seat:
                        mine.setdefault(card, []).append(play.card_span if play.card_span.line
                                                         else play.span)
            held = []
            for card, value in enumerate(tallies[seat]):
                atom = _played_code(op, width, value)
                if atom:
                    played, dealt, got, sent = _unpack(width, value)
                    say = msgn("{player} plays {card} {played} time(s) but holds it {held} "
                               "time(s) after passing", "{player} plays {card} {played} "
                               "time(s) but holds it {held} time(s) after passing", played,
                               player=who, card=card_text(card), played=played,
                               held=dealt + got - sent)
                    held.append(Item(atom, say, (mine.get(card) or [deal])[-1],
                                     (Related(deal.line, 1, msg("dealt to {player}",
                                                                player=who)),)))
            # list a card played but not held first: its item points at the play
            items += sorted(held, key=lambda item: item.span.line == deal.line)
        return items
    return expand


def _points(facts: HandFacts) -> tuple[Law, str | None, int | None]:
    """Check that points flow through the tricks (R6.5-R6.7): taken + lost = the decks'
    points (R7.2)."""
    law = Law("points-conserved", "R7.2")
    rules = facts.rules
    if not facts.complete or facts.kitty is None:
        return law.skip(msg("the hand is not fully recorded") if not facts.complete
                           else msg("kitty unknown")), None, None
    kitty_points = sum(_POINTS[c] * k for c, k in enumerate(facts.kitty) if k)
    first, to_last = rules.kitty_to == KittyTo.FIRST_TRICK, rules.kitty_to == KittyTo.LAST_TRICK
    leader_takes = rules.set_aside_last == SetAsideLast.LEADER
    args, takers, sums = [], [], []
    for trick in facts.tricks:
        cards = [card for _, card, _ in trick.plays]
        points = tuple([_POINTS[c] for c in cards if _POINTS[c]])
        taker = _won(cards, rules)
        text = _TRICK_TEXT.get((taker, points))
        if text is None:
            text = _remember(_TRICK_TEXT, (taker, points),
                             ("true " if taker else "false ") + smt_sum(list(map(str, points))))
        args.append(text)
        takers.append(taker)
        sums.append(points)
    if leader_takes and not takers[-1]:  # R6.6 option: the leader collects a set-aside last
        takers[-1] = True
        args[-1] = "true" + args[-1][5:]
    # count what stays in the pile after the last trick (for messages only): the tricks since
    # the last one collected, and the kitty with the first or the last trick
    pile_value, index = 0, len(takers)
    while index and not takers[index - 1]:
        index -= 1
        pile_value += sum(sums[index])
    if not takers[-1]:
        pile_value += kitty_points if to_last or (first and not index) else 0
    args += [str(kitty_points) if first else "0", str(kitty_points) if to_last else "0"]
    whole, lost_value = rules.points_per_hand, pile_value
    conserved, lost = _flow_funs(len(facts.tricks), whole)
    applied = " ".join(args)
    decks = rules.decks

    def expand() -> list[Item]:
        return [Item(f"({conserved} {applied})", msgn(
            "the points taken plus the points lost are not {whole}, the points of {decks} "
            "deck(s)", "the points taken plus the points lost are not {whole}, the points of "
            "{decks} deck(s)", decks, whole=whole, decks=decks), facts.tricks[-1].span)]

    law.groups.append(Group([f"({conserved} {applied})"], expand))
    law.detail = msg("taken + lost = {whole} = {decks} x (13 hearts + Black Maria 13)",
                     whole=whole, decks=decks)
    if lost_value:
        # TRANSLATORS: {law} is "taken + lost = 52 = ..."; {lost} points stayed in the pile
        law.detail = msg("{law}; {lost} lost in a set-aside last trick", law=law.detail,
                         lost=lost_value)
    return law, f"({lost} {applied})", lost_value


def _flow_funs(tricks: int, whole: int) -> tuple[str, str]:
    """Define the points flow over ``tricks`` tricks as two functions of, per trick, whether
    somebody collects it (w) and its points (x), and the kitty's points with the first trick
    (kf) or the last (kl): trick i brings c_i = its points + the pile left before it (R6.5);
    the collector takes c_i, else it stays in the pile; what is left after the last is lost.
    ``conserved`` says taken + lost = ``whole``; ``lost`` gives what is left."""
    conserved, lost = f"conserved{tricks}_{whole}", f"lost{tricks}"
    if conserved not in DEFINITIONS:
        params = " ".join(f"(w{i} Bool) (x{i} Int)" for i in range(tricks)) + " (kf Int) (kl Int)"
        lets, pile = "", "kf"
        for i in range(tricks):
            lets += f"(let ((c{i} (+ {pile} x{i}{' kl' if i == tricks - 1 else ''}))) "
            pile = f"(ite w{i} 0 c{i})"
        taken = " ".join(f"(ite w{i} c{i} 0)" for i in range(tricks))
        close = ")" * tricks
        DEFINITIONS.setdefault(lost, f"(define-fun {lost} ({params}) Int {lets}{pile}{close})")
        DEFINITIONS[conserved] = (f"(define-fun {conserved} ({params}) Bool "
                                  f"{lets}(= (+ {taken} {pile}) {whole}){close})")
    return conserved, lost


def _won(cards: list[int], rules) -> bool:
    """Tell whether somebody wins this trick (R6.3, R6.4).  It applies the same rules as
    :func:`referee.rules.tricks.resolve_trick` (whose agreement with the rulebook `referee
    verify-rules` proves), asking only whether a winner exists; tests compare the two."""
    if not rules.cancellation:
        return True
    counts = Counter(cards)
    if rules.set_aside_when == SetAsideWhen.TWO_PAIRS and sum(k >= 2 for k in counts.values()) >= 2:
        return False
    led = cards[0] // NUM_RANKS
    return any(card // NUM_RANKS == led and counts[card] == 1 for card in cards)
