"""This module checks partial records (``holdings-exist``): can the unrecorded cards be filled
in legally?

Each unrecorded deal, kitty and pass is a z3 variable; each recorded line, and each fact a play
implies about its player's holding (:func:`play_facts`, read off the legality layers), a tracked
assertion, so that every recorded play is legal.  Without an assignment the minimal unsat core
names the lines that cannot all be true, in words (spec/verification.md, section 3).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from referee.judge import codes
from referee.judge.diagnostics import Diagnostic, Related, make
from referee.judge.table import Findings, CheckTable
from referee.log.events import Span
from referee.log.parser import ParseResult
from referee.proofs.budgets import (PARTIAL_MAX_LABELS, PARTIAL_MINIMISE_MS, PARTIAL_TIMEOUT_MS,
                                    size_detail, time_detail)
from referee.proofs.handfacts import HandFacts, gather, hand_records, table_for
from referee.proofs.smt_ops import smt_sum
from referee.proofs.wording import and_list, or_list, semicolon_list
from referee.rules.cards import DECK_SIZE, HEARTS, NUM_RANKS, QUEEN_OF_SPADES, card_text, counts_of
from referee.rules.legality import Fault, follow_layers, lead_layers, lowest_club_witnesses
from referee.rules.ruleset import Ruleset
from referee.rules.tricks import lead_card
from referee.util.message import msg, msgn


@dataclass(frozen=True)
class Conflict:
    """A Conflict names recorded statements of one hand that no assignment of the unrecorded
    cards reconciles."""

    hand: int
    lines: tuple[int, ...]  # every log line in the (minimal) unsat core, ascending
    message: str
    span: Span  # where a diagnostic points: the latest play in the core
    related: tuple[Related, ...] = ()

    def to_diagnostic(self) -> Diagnostic:
        return make(codes.INVARIANT, self.span, self.message, rule="R5", hand=self.hand,
                    related=self.related)


@dataclass
class Verdict:
    consistent: bool | None  # None: nothing to decide (no play recorded)
    conflict: Conflict | None = None
    detail: str = ""
    undecided: bool = False  # a budget stopped z3 before it decided; ``detail`` says which


def partial_record_conflicts(parsed: ParseResult, *, rules: Ruleset | None = None,
                             players: list[str] | None = None, path: str | None = None,
                             hands: set[int] | None = None,
                             include_known: bool = False) -> list[Conflict]:
    """Return one :class:`Conflict` per hand (of ``hands``) whose recorded plays no assignment
    of the unrecorded cards makes legal; check hands whose holdings are all recorded only with
    ``include_known``."""
    table = table_for(parsed, path)
    if table is None:
        return []
    if rules is not None or players is not None:
        table = CheckTable(rules or table.rules, list(players or table.names), Findings())
    out = []
    for record in hand_records(table, parsed):
        if hands is not None and record.number not in hands:
            continue
        facts = gather(table, record)
        if not include_known and all(facts.holding_known(s) for s in range(table.size)):
            continue
        verdict = check_hand(table, facts)
        if verdict.conflict is not None:
            out.append(verdict.conflict)
    return out


@dataclass
class _Label:
    name: str
    line: int
    span: Span
    seat: int | None
    text: str  # "show out of spades in trick 2 (line 12)", a message
    order: int = 0


@dataclass
class _Model:
    """A _Model holds the hand as SMT-LIB text (built as text: far faster than z3's Python
    API)."""

    facts: HandFacts
    text: list[str] = field(default_factory=list)
    labels: dict[str, _Label] = field(default_factory=dict)
    unknown: dict[int, set[str]] = field(default_factory=dict)  # seat -> "deal", "out", "in"

    def add(self, formula: str) -> None:
        self.text.append(f"(assert {formula})")

    def track(self, label: _Label, formula: str) -> None:
        """Assert ``formula`` under the label, for the unsat core."""
        label.order = len(self.labels)
        self.labels[label.name] = label
        self.text.append(f"(declare-const {label.name} Bool)")
        self.text.append(f"(assert (=> {label.name} {formula}))")


def check_hand(table: CheckTable, facts: HandFacts) -> Verdict:
    """Decide one hand: is there an assignment of its unrecorded cards that makes it legal?"""
    if not facts.prefix:
        return Verdict(None, detail=msg("no trick recorded"))
    found = Verdict(True, detail=msg("some assignment of the unrecorded cards makes every "
                                     "recorded play legal"))
    if holdings_filled(facts):
        return found
    import z3

    model = _build(table, facts)
    if len(model.labels) > PARTIAL_MAX_LABELS:
        return Verdict(None, detail=size_detail(msg("recorded statements"), len(model.labels),
                                                PARTIAL_MAX_LABELS), undecided=True)
    context = z3.Context()  # its own context: the same log always gives the same core
    solver = z3.Solver(ctx=context)
    solver.set("timeout", PARTIAL_TIMEOUT_MS)
    solver.from_string("\n".join(model.text))
    flags = {name: z3.Bool(name, context) for name in model.labels}
    answer = solver.check(*flags.values())
    if answer == z3.sat:
        return found
    if answer != z3.unsat:
        return Verdict(None, detail=time_detail(PARTIAL_TIMEOUT_MS), undecided=True)
    core = _minimise(z3, solver, flags, [str(c) for c in solver.unsat_core()])
    return Verdict(False, _conflict(table, model, core))


def _minimise(z3, solver, flags: dict, core: list[str]) -> list[str]:
    """Shrink the core to a minimal one: drop labels latest line first while the rest stays
    unsat, within one time budget (keep a label whose trial z3 does not settle)."""
    kept = sorted(core, key=list(flags).index)
    deadline = time.monotonic() + PARTIAL_MINIMISE_MS / 1000
    for name in reversed(list(kept)):
        left = int((deadline - time.monotonic()) * 1000)
        if left <= 0:
            break
        solver.set("timeout", min(left, PARTIAL_TIMEOUT_MS))
        trial = [c for c in kept if c != name]
        if solver.check(*[flags[c] for c in trial]) == z3.unsat:
            kept = trial
    return kept


def _same(names: list[str], counts) -> str:
    return "(and " + " ".join(f"(= {v} {k})" for v, k in zip(names, counts)) + " true)"


def _recorded(model: _Model, name: str, span: Span, seat: int | None, text: str,
              names: list[str], counts) -> None:
    """Track a recorded line: the unknown ``names`` are its ``counts``."""
    model.track(_Label(name, span.line, span, seat, text), _same(names, counts))


def _counts(model: _Model, name: str, size: int, limit: int, upper: list[str] | None = None):
    """Declare 52 unknown card counts summing to ``size`` (0..limit each, at most
    ``upper``)."""
    names = [f"{name}_{c}" for c in range(DECK_SIZE)]
    for c, var in enumerate(names):
        model.text.append(f"(declare-const {var} Int)")
        bound = upper[c] if upper is not None else str(limit)
        model.add(f"(and (<= 0 {var}) (<= {var} {bound}))")
    model.add(f"(= {smt_sum(names)} {size})")
    return names


def _build(table: CheckTable, facts: HandFacts) -> _Model:
    rules, n = facts.rules, facts.players
    model = _Model(facts)
    per, decks = facts.cards_per_player, rules.decks
    record = facts.record
    dealt = {}
    for seat in range(n):
        dealt[seat] = names = _counts(model, f"d{seat}", per, decks)
        if seat in facts.deals:
            span = facts.deal_spans[seat]
            text = msg("the deal to {player} (line {line})", player=table.name(seat),
                       line=span.line)
            _recorded(model, f"deal{seat}", span, seat, text, names, counts_of(facts.deals[seat]))
        else:
            model.unknown.setdefault(seat, set()).add("deal")
    kitty = _counts(model, "kitty", rules.kitty_size(n), decks)
    if facts.kitty_recorded and record.kitty is not None:
        span = record.kitty.span
        _recorded(model, "kitty", span, None, msg("the kitty (line {line})", line=span.line),
                  kitty, facts.kitty)
    for c in range(DECK_SIZE):  # R2.4: the decks, every card identity `decks` times
        model.add(f"(= {smt_sum([dealt[s][c] for s in range(n)] + [kitty[c]])} {decks})")
    sent = {}
    if facts.offset:
        for seat in range(n):
            sent[seat] = names = _counts(model, f"p{seat}", rules.pass_count, decks, dealt[seat])
            if seat in facts.passes:
                span = facts.pass_spans[seat]
                _recorded(model, f"pass{seat}", span, seat, msg(
                    "{player}'s pass (line {line})", player=table.name(seat), line=span.line),
                          names, counts_of(facts.passes[seat]))
            else:
                model.unknown.setdefault((seat + facts.offset) % n, set()).add("in")
                model.unknown.setdefault(seat, set()).add("out")
    for seat in range(n):  # the holding after passing, as macros h<seat>_<card>
        source = facts.sender(seat)
        for c in range(DECK_SIZE):
            value = (f"(+ {dealt[seat][c]} (- {sent[seat][c]}) {sent[source][c]})"
                     if facts.offset else dealt[seat][c])
            model.text.append(f"(define-fun h{seat}_{c} () Int {value})")
    _plays(table, model)
    return model


@dataclass(frozen=True)
class PlayFact:
    """A PlayFact says what a recorded play shows: none of ``witnesses`` was held (by the
    player at that moment, or with ``everyone``, by any seat after the passes)."""

    kind: str  # the label's prefix: "void", "firstpts", "lowest", "firstlead", "hearts"
    witnesses: tuple[int, ...]
    everyone: bool = False


_FACT_KINDS = {Fault.REVOKE: "void", Fault.FIRST_TRICK_POINTS: "firstpts",
               Fault.FIRST_LEAD_POINTS: "firstlead", Fault.HEARTS_NOT_BROKEN: "hearts"}


def play_facts(rules: Ruleset, card: int, led: int | None, *, first_trick: bool,
               hearts_broken: bool) -> list[PlayFact]:
    """Return the facts a legal play of ``card`` implies (``led`` None: it leads), layer by
    layer; state R4.1's lowest club, which a partial record does not fix, over everyone's
    holdings for the lead and leave it out for the twin club."""
    facts = []
    if led is not None:
        layers = follow_layers(rules, led, first_trick=first_trick, lowest=None)
    else:
        layers = lead_layers(rules, first_trick=first_trick, hearts_broken=hearts_broken)
        lowest = lowest_club_witnesses(rules, card, first_trick=first_trick)
        if lowest is not None:
            facts.append(PlayFact("lowest", lowest, everyone=True))
    return facts + [PlayFact(_FACT_KINDS[fault], witnesses)
                    for fault, restricted, witnesses in layers if card in restricted]


def _steps(facts: HandFacts):
    """Yield each recorded play of the hand's prefix in order: (trick index, position, seat,
    card, play, the suit's lead card, the facts :func:`play_facts` says it implies)."""
    rules = facts.rules
    broken = False
    for index, trick in enumerate(facts.tricks[: facts.prefix]):
        led = int(trick.plays[0][1]) if trick.plays else None
        for position, (seat, card, play) in enumerate(trick.plays):
            card = int(card)  # a plain int: SMT names use its number
            if position and rules.lead_suit_switch:  # R5.5: the current lead suit's card
                led = lead_card([int(c) for _, c, _ in trick.plays[:position]], True)
            implied = play_facts(rules, card, led if position else None,
                                 first_trick=index == 0, hearts_broken=broken)
            yield index, position, seat, card, play, led, implied
        breaking = trick.plays if rules.led_heart_breaks_hearts else trick.plays[1:]
        broken = broken or any(card // NUM_RANKS == HEARTS for _, card, _ in breaking) or any(
            card == QUEEN_OF_SPADES and rules.queen_breaks_hearts for _, card, _ in trick.plays)


def holdings_filled(facts: HandFacts) -> bool:
    """Tell whether holdings making every recorded play legal are found without z3, for a hand
    of plays only, not every card played: each seat holds its plays, the other copies fill the
    seats greedily (the most restricted first, the cards the fewest may take first), the rest
    the kitty; any such holdings come from some deal and passes."""
    rules, n = facts.rules, facts.players
    if facts.deals or facts.passes or facts.record.kitty is not None or facts.complete:
        return False
    if facts.offset and facts.cards_per_player < rules.pass_count:
        return False
    shown = _shown(facts)
    if shown is None:
        return False
    played, shut = shown
    left = [rules.decks - sum(seat[c] for seat in played) for c in range(DECK_SIZE)]
    need = [facts.cards_per_player - sum(seat) for seat in played]
    if min(left) < 0 or min(need) < 0:
        return False
    may = [[c for c in range(DECK_SIZE) if c not in cards] for cards in shut]
    takers = [sum(c not in cards for cards in shut) for c in range(DECK_SIZE)]
    for seat in sorted(range(n), key=lambda s: len(may[s])):  # the most restricted first
        for c in sorted(may[seat], key=takers.__getitem__):  # the cards others lack
            take = min(need[seat], left[c])
            left[c] -= take
            need[seat] -= take
        if need[seat]:
            return False
    return True  # the copies left fill the kitty: the decks hold the seats and the kitty


def _shown(facts: HandFacts) -> tuple[list[list[int]], list[set[int]]] | None:
    """Return the copies of each card each seat plays, and the cards each seat holds no more
    of than it plays (every seat, those nobody holds); None when a play contradicts them."""
    n = facts.players
    played = [[0] * DECK_SIZE for _ in range(n)]
    shut: list[set[int]] = [set() for _ in range(n)]
    nobody: set[int] = set()
    for _, _, seat, card, _, _, implied in _steps(facts):
        for fact in implied:
            (nobody if fact.everyone else shut[seat]).update(fact.witnesses)
        if card in shut[seat] or card in nobody:
            return None
        played[seat][card] += 1
    if any(seat[c] for seat in played for c in nobody):
        return None
    for cards in shut:
        cards |= nobody
    return played, shut


def _plays(table: CheckTable, model: _Model) -> None:
    facts = model.facts
    n = facts.players
    before = [[0] * DECK_SIZE for _ in range(n)]
    for index, position, seat, card, play, led, implied_facts in _steps(facts):
        who, number = table.name(seat), index + 1
        mine = before[seat]

        def now(c: int, seat=seat, mine=mine) -> str:  # copies held at this moment
            return f"(- h{seat}_{c} {mine[c]})" if mine[c] else f"h{seat}_{c}"

        span = play.card_span if play.card_span.line else play.span
        line = span.line
        base = f"{index}_{position}"

        def fact(kind: str, text: str, formula: str) -> None:
            # TRANSLATORS: {fact} is what a play shows ("show out of spades in trick 2")
            model.track(_Label(f"{kind}{base}", line, span, seat,
                               msg("{fact} (line {line})", fact=text, line=line)), formula)

        fact("held", msg("hold the {card} {player} played in trick {trick}",
                         card=card_text(card), player=who, trick=number),
             f"(>= {now(card)} 1)")
        for implied in implied_facts:
            terms = ([f"h{s}_{c}" for s in range(n) for c in implied.witnesses]
                     if implied.everyone else [now(c) for c in implied.witnesses])
            fact(implied.kind, fact_text(implied.kind, card, led, number),
                 f"(= {smt_sum(terms)} 0)")
        mine[card] += 1
    if facts.complete:  # every card is played: the holdings are exactly the plays
        last = facts.tricks[-1].span
        for seat in range(n):
            model.track(_Label(f"all{seat}", last.line, last, seat,
                               msg("play out every card in the {tricks} recorded tricks "
                                   "(lines {first}-{last})", tricks=facts.prefix,
                                   first=facts.tricks[0].span.line, last=last.line)),
                        _same([f"h{seat}_{c}" for c in range(DECK_SIZE)], before[seat]))


def _conflict(table: CheckTable, model: _Model, core: list[str]) -> Conflict:
    labels = sorted((model.labels[name] for name in core), key=lambda l: (l.line, l.order))
    seats = sorted({l.seat for l in labels if l.seat is not None})
    facts = model.facts
    sources = [unknown_text(table.name(seat), table.name(facts.sender(seat)) if facts.offset
                            else "", model.unknown[seat], facts.rules.pass_count)
               for seat in seats if model.unknown.get(seat)]
    unknown = or_list(sources[:3]) if sources else msg("assignment of the unrecorded cards")
    # TRANSLATORS: no assignment of the unrecorded cards makes these statements all true:
    # {unknown} is what was not recorded ("three cards Al could have passed on"), {statements}
    # the recorded facts that conflict ("Beth show out of spades in trick 1 (line 9); ...")
    message = msg("no {unknown} let {statements}", unknown=unknown,
                  statements=semicolon_list(sentences(table.name, labels, seats)))
    plays = [l for l in labels if not l.name.startswith(("deal", "pass", "kitty", "all"))]
    main = max(plays or labels, key=lambda l: (l.line, l.span.column))
    related = tuple(Related(l.line, l.span.column, l.text) for l in labels if l is not main)
    lines = tuple(sorted({l.line for l in labels}))
    return Conflict(model.facts.number, lines, message, main.span, related)


# -- the words of a conflict ----------------------------------------------------------------
# the number of cards passed, as a word; the suits in the order of cards.SUIT_NAMES
WORDS = {1: msg("one"), 2: msg("two"), 3: msg("three"), 4: msg("four"), 5: msg("five")}
SUITS = (msg("spades"), msg("hearts"), msg("diamonds"), msg("clubs"))


def fact_text(kind: str, card: int, led: int | None, number: int) -> str:
    """Say what a play shows, after its player's name ("show out of spades in trick 2")."""
    if kind == "void":
        # TRANSLATORS: this and the next follow a player's name after "no ... let": "no
        # cards ... let Beth show out of spades in trick 2"
        return msg("show out of {suit} in trick {trick}", suit=SUITS[led // NUM_RANKS],
                   trick=number)
    if kind == "firstpts":
        return msg("play {card} to the first trick", card=card_text(card))
    if kind == "lowest":
        return msg("lead {card} as the lowest club dealt", card=card_text(card))
    if kind == "firstlead":
        return msg("lead {card} to the first trick", card=card_text(card))
    return msg("lead {card} in trick {trick} before hearts were broken", card=card_text(card),
               trick=number)


def unknown_text(who: str, sender: str, what: set[str], passed: int) -> str:
    """Say 'three cards Al could have passed to Beth', ... for what is unrecorded about the
    seat of ``who`` (``what``: "deal", "in", "out"); ``sender`` passes to it, ``passed``
    cards."""
    count = WORDS.get(passed, str(passed))
    if "deal" in what:
        if what & {"in", "out"}:
            return msg("cards that could have been dealt to {player} and passed", player=who)
        return msg("cards that could have been dealt to {player}", player=who)
    if what == {"in"}:
        # TRANSLATORS: {count} is a number as a word ("three"); {sender} and {player} names
        return msgn("{count} card {sender} could have passed to {player}",
                    "{count} cards {sender} could have passed to {player}", passed,
                    count=count, sender=sender, player=who)
    if what == {"out"}:
        # TRANSLATORS: {count} is a number as a word ("three"); {player} a name
        return msgn("{count} card {player} could have passed on",
                    "{count} cards {player} could have passed on", passed, count=count,
                    player=who)
    # TRANSLATORS: {count} is a number as a word ("three"); {player} and {sender} names
    return msgn("{count} card {player} could have passed on or received from {sender}",
                "{count} cards {player} could have passed on or received from {sender}",
                passed, count=count, player=who, sender=sender)


def _is_record(label) -> bool:
    return label.name.startswith(("deal", "pass"))


def sentences(name: Callable[[int], str], labels: Sequence, seats: list[int]) -> list[str]:
    """Say each seat's facts 'given' its records, then the statements of no seat (the kitty);
    ``labels`` have ``name``, ``seat`` and ``text``, ``name(seat)`` is a seat's player."""
    out = []
    for seat in seats:
        own = [l.text for l in labels if l.seat == seat and not _is_record(l)]
        records = [l.text for l in labels if l.seat == seat and _is_record(l)]
        if own and records:
            # TRANSLATORS: after "no ... let": "Beth show out of spades in trick 2 (line 12)
            # given the deal to Beth (line 4)"; {facts} what the plays show, {records} the lines
            out.append(msg("{player} {facts} given {records}", player=name(seat),
                           facts=and_list(own), records=and_list(records)))
        elif own:
            out.append(msg("{player} {facts}", player=name(seat), facts=and_list(own)))
        elif records:
            out.append(_stand(records))
    others = [l.text for l in labels if l.seat is None]
    if others:
        out.append(_stand(others))
    return out


def _stand(records: list[str]) -> str:
    # TRANSLATORS: after "no ... let": "the deal to Beth (line 4) and the kitty (line 9) stand"
    return msg("{records} stand", records=and_list(records))
