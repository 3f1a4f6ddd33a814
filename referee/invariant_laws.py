"""The laws that :mod:`referee.invariants` proves, written as SMT-LIB text per hand.

Each law is a list of groups of ground instances (one per card identity, player, ...): the
records of the hand are written into the formulas as numbers, the law's arithmetic is left to
z3.  Identical instances are written once; they are expanded one by one only when z3 refutes
a group, to name the failing card or player.  No z3 here: only text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .cards import DECK_SIZE, NUM_RANKS, card_text
from .diagnostics import Related, Report
from .events import Span
from .handfacts import HandFacts
from .ruleset import card_points
from .table import Table

_ATOMS: dict[tuple, str] = {}  # SMT text of small ground atoms, built once
_POINTS = tuple(card_points(c) for c in range(DECK_SIZE))
_POINT_TEXT = tuple(str(p) for p in _POINTS)


@dataclass
class Item:
    """One instance of a law: an SMT-LIB boolean, and what to say if z3 refutes it."""

    smt: str
    say: str
    span: Span
    related: tuple[Related, ...] = ()


@dataclass
class Group:
    """Instances checked together; ``expand`` gives them one by one when z3 refutes the group."""

    smt: str
    expand: Callable[[], list[Item]]


@dataclass
class Law:
    name: str
    clause: str
    groups: list[Group] = field(default_factory=list)
    detail: str = ""
    status: str | None = None  # preset for laws decided without z3 ("skipped")
    partial: bool = False  # proved only for what is recorded: reported as skipped, with detail
    failures: list[Item] = field(default_factory=list)


# -- SMT-LIB text -----------------------------------------------------------------------------
def _n(value: int) -> str:
    return str(value) if value >= 0 else f"(- {-value})"


def _sum(terms: list[str]) -> str:
    if not terms:
        return "0"
    return terms[0] if len(terms) == 1 else "(+ " + " ".join(terms) + ")"


def _tally(cards) -> dict[int, int]:
    out: dict[int, int] = {}
    for card in cards:
        out[card] = out.get(card, 0) + 1
    return out


def _conj(atoms: list[str]) -> str:
    """The conjunction; identical instances are written once (the same formula, shorter text)."""
    return "(and " + " ".join(dict.fromkeys(atoms)) + " true)"


# -- the laws ---------------------------------------------------------------------------------
def hand_laws(table: Table, facts: HandFacts, summary, sheet: Sheet):
    lets: list[tuple[str, str]] = []
    plays = _plays_by_seat(facts)
    laws = [_cards_dealt(table, facts), _cards_played(table, facts, plays)]
    points, lost, lost_value = _points(facts, lets)
    laws.append(points)
    laws.append(sheet.score_law(facts, lost, lost_value))
    laws.append(sheet.totals_law(facts, summary))
    return lets, laws


def _cards_dealt(table: Table, facts: HandFacts) -> Law:
    law = Law("cards-dealt", "R2.4")
    rules, n, record = facts.rules, facts.players, facts.record
    if not facts.deals:
        law.status, law.detail = "skipped", "no deal recorded"
        return law
    all_dealt = len(facts.deals) == n
    kitty = facts.kitty if facts.kitty_recorded else None
    exact = all_dealt and kitty is not None
    places: dict[int, list[tuple[Span, int]]] = {}
    for seat, deal in record.deals.items():
        for card, k in _tally(deal.run.cards).items():
            places.setdefault(card, []).append((deal.span, k))
    if kitty is not None and record.kitty is not None:
        for card, k in _tally(record.kitty.run.cards).items():
            places.setdefault(card, []).append((record.kitty.span, k))
    op, decks = ("=" if exact else "<="), rules.decks
    universe = range(DECK_SIZE) if exact else sorted(places)
    cache: dict[tuple, str] = {}
    atoms = []
    for card in universe:
        key = tuple(k for _, k in places.get(card, ()))
        atom = cache.get(key)
        if atom is None:
            atom = cache[key] = f"({op} {_sum([str(k) for k in key])} {decks})"
        atoms.append(atom)

    def expand() -> list[Item]:
        items = []
        for card, atom in zip(universe, atoms):
            where = places.get(card, [])
            total = sum(k for _, k in where)
            span = where[-1][0] if where else max(facts.deal_spans.values(), key=lambda s: s.line)
            items.append(Item(atom, f"{card_text(card)} is dealt {total} time(s), but the "
                              f"{decks} deck(s) hold it {decks} time(s)", span,
                              tuple(Related(s.line, s.column, "dealt here") for s, _ in where[:-1])))
        return items

    law.groups.append(Group(_conj(atoms), expand))
    if all_dealt and kitty is None:
        sizes = [str(len(d.run.cards)) for d in record.deals.values()]
        want = rules.deck_size - rules.kitty_size(n)
        item = Item(f"(= {_sum(sizes)} {want})", f"the deals hold {sum(map(int, sizes))} cards, "
                    f"not {want}", max(facts.deal_spans.values(), key=lambda s: s.line))
        law.groups.append(Group(item.smt, lambda: [item]))
    if exact:
        law.detail = f"every card identity {decks} time(s) in the deals and the kitty"
    else:
        law.partial = True
        missing = [table.name(s) for s in range(n) if s not in facts.deals]
        law.detail = (f"deals of {', '.join(missing)} not recorded" if missing else
                      "kitty not recorded") + f": no card is dealt more than {decks} time(s)"
    return law


def _plays_by_seat(facts: HandFacts) -> dict[int, dict[int, list[Span]]]:
    """seat -> card -> the spans of its plays, over the usable prefix of tricks."""
    out: dict[int, dict[int, list[Span]]] = {}
    for trick in facts.tricks[: facts.prefix]:
        for seat, card, play in trick.plays:
            span = play.card_span if play.card_span.line else play.span
            out.setdefault(seat, {}).setdefault(card, []).append(span)
    return out


def _cards_played(table: Table, facts: HandFacts, plays) -> Law:
    law = Law("cards-played", "R5.4")
    if not facts.prefix:
        law.status, law.detail = "skipped", "no trick recorded"
        return law
    n, exact, record = facts.players, facts.complete, facts.record
    known = [s for s in range(n) if facts.holding_known(s)]
    op = "=" if exact else "<="
    for seat in known:
        dealt = _tally(record.deals[seat].run.cards)
        got = _tally(record.passes[facts.sender(seat)].run.cards) if facts.offset else {}
        sent = _tally(record.passes[seat].run.cards) if facts.offset else {}
        mine = plays.get(seat, {})
        cards = sorted(set(dealt) | set(got) | set(mine)) if exact else sorted(mine)
        atoms, held = [], {}
        for c in cards:  # played = dealt + received - passed on (R3, R5.4)
            key = (op, len(mine.get(c, ())), dealt.get(c, 0), got.get(c, 0), sent.get(c, 0))
            atom = _ATOMS.get(key)
            if atom is None:
                parts = [str(k) for k in key[2:4] if k] + ([f"(- {key[4]})"] if key[4] else [])
                atom = _ATOMS[key] = f"({op} {key[1]} {_sum(parts)})"
            held[c] = key[2] + key[3] - key[4]
            atoms.append(atom)
        law.groups.append(Group(_conj(atoms),
                                _played_items(table, facts, seat, cards, atoms, held, mine)))
    if exact and facts.kitty is not None and (len(known) < n or len(facts.deals) < n):
        counts = [0] * DECK_SIZE
        for mine in plays.values():
            for card, spans in mine.items():
                counts[card] += len(spans)
        decks, kitty = facts.rules.decks, facts.kitty
        atoms = [f"(= (+ {counts[c]} {kitty[c]}) {decks})" for c in range(DECK_SIZE)]

        def expand() -> list[Item]:
            return [Item(a, f"{card_text(c)} is played {counts[c]} time(s) with {kitty[c]} in "
                         f"the kitty; the decks hold it {decks} time(s)", facts.tricks[-1].span)
                    for c, a in enumerate(atoms)]

        law.groups.append(Group(_conj(atoms), expand))
    unknown = [table.name(s) for s in range(n) if s not in known]
    law.detail = ("each player plays exactly the cards held after passing" if exact else
                  "no player plays a card more often than held (the hand is unfinished)")
    if unknown:
        law.detail += f"; holdings of {', '.join(unknown)} not recorded"
        law.partial = not exact or not law.groups
    return law


def _played_items(table, facts, seat, cards, atoms, held, mine):
    def expand() -> list[Item]:
        who, deal = table.name(seat), facts.deal_spans[seat]
        items = [Item(atom, f"{who} plays {card_text(c)} {len(mine.get(c, ()))} time(s) but "
                      f"holds it {held.get(c, 0)} time(s) after passing",
                      (mine.get(c) or [deal])[-1], (Related(deal.line, 1, f"dealt to {who}"),))
                 for c, atom in zip(cards, atoms)]
        # a card played but not held first: it points at the play
        return sorted(items, key=lambda item: item.span.line == deal.line)
    return expand


def _points(facts: HandFacts, lets: list) -> tuple[Law, str | None, int | None]:
    """Points flow through the tricks (R6.5-R6.7): taken + lost = the decks' points (R7.2)."""
    law = Law("points-conserved", "R7.2")
    rules = facts.rules
    if not facts.complete or facts.kitty is None:
        law.status = "skipped"
        law.detail = "the hand is not fully recorded" if not facts.complete else "kitty unknown"
        return law, None, None
    h = facts.number
    kitty_points = sum(_POINTS[c] * k for c, k in enumerate(facts.kitty) if k)
    pile = str(kitty_points) if rules.kitty_to == "first_trick" else "0"
    collected = []
    last_index = len(facts.tricks) - 1
    lost, pile_value, lost_value = "0", kitty_points if rules.kitty_to == "first_trick" else 0, 0
    for index, trick in enumerate(facts.tricks):
        cards = [card for _, card, _ in trick.plays]
        last = index == last_index
        # who collects: the winner, or (R6.6 option) the leader of a set-aside last trick
        taker = "true" if _won(cards, rules) or (last and rules.set_aside_last == "leader") else "false"
        terms = [pile] + [_POINT_TEXT[c] for c in cards if _POINTS[c]]
        if last and rules.kitty_to == "last_trick" and kitty_points:
            terms.append(str(kitty_points))
        name = f"c{h}_{index}"  # what goes with this trick: its points and the pile (R6.5)
        lets.append((name, _sum(terms)))
        value = pile_value + sum(_POINTS[c] for c in cards) + (
            kitty_points if last and rules.kitty_to == "last_trick" else 0)
        pile_value = 0 if taker == "true" else value  # for messages only
        collected.append(f"(ite {taker} {name} 0)")
        pile = f"(ite {taker} 0 {name})"
        if last:
            lost, lost_value = f"lost{h}", pile_value
            lets.append((lost, pile))
    whole = rules.points_per_hand
    item = Item(f"(= (+ {_sum(collected)} {lost}) {whole})", f"the points taken plus the points "
                f"lost are not {whole}, the points of {rules.decks} deck(s)", facts.tricks[-1].span)
    law.groups.append(Group(item.smt, lambda: [item]))
    law.detail = (f"taken + lost = {whole} = {rules.decks} x (13 hearts + Black Maria 13)"
                  + (f"; {lost_value} lost in a set-aside last trick" if lost_value else ""))
    return law, lost, lost_value


def _won(cards: list[int], rules) -> bool:
    """Does somebody win this trick (R6.3, R6.4)?  The same rules as
    :func:`referee.tricks.resolve_trick` (whose agreement with the rulebook `referee
    verify-rules` proves), asking only whether a winner exists; tests compare the two."""
    if not rules.cancellation:
        return True
    seen: dict[int, int] = {}
    for card in cards:
        seen[card] = seen.get(card, 0) + 1
    if rules.set_aside_when == "two_pairs" and sum(k >= 2 for k in seen.values()) >= 2:
        return False
    led = cards[0] // NUM_RANKS
    return any(k == 1 and card // NUM_RANKS == led for card, k in seen.items())


class Sheet:
    """The scoresheet laws; remembers the last total line for the running sums."""

    def __init__(self, table: Table, report: Report) -> None:
        self.table, self.report = table, report
        self.base: dict[int, int] | None = {s: 0 for s in range(table.size)}
        self.base_span: Span | None = None
        self.pending: list[dict[int, int] | None] = []  # hand scores since the base

    def _entries(self, line) -> dict[int, tuple[int, Span]]:
        found = {}
        for entry in line.entries:
            seat = self.table.seats.get(entry.player.casefold())
            if seat is not None and seat not in found:
                found[seat] = (entry.value, entry.span)
        return found

    def score_law(self, facts: HandFacts, lost: str | None, lost_value: int | None) -> Law:
        law = Law("score-sum", "R7.2")
        rules, n = facts.rules, facts.players
        score = facts.record.score
        if score is None:
            law.status, law.detail = "skipped", "no score line"
            return law
        entries = self._entries(score)
        if len(entries) < n:
            law.status, law.detail = "skipped", "the score line does not name every player"
            return law
        values = [entries[s][0] for s in range(n)]
        total = _sum([_n(v) for v in values])
        whole, moon = rules.points_per_hand, rules.moon_points
        bonus = rules.jack_of_diamonds_bonus or rules.no_tricks_bonus
        may_lose = rules.set_aside_last == "nobody"
        lost_term = lost if lost is not None else ("L" if may_lose else "0")
        patterns = []
        for choice in rules.moon_choices:
            each, target = ((-moon, -moon) if choice == "subtract" else (moon, (n - 1) * moon))
            pieces = [f"(= {total} {_n(target)})"] + (
                [] if bonus else list(dict.fromkeys(
                    f"(or (= {_n(v)} 0) (= {_n(v)} {_n(each)}))" for v in values)))
            patterns.append(f"(and (= {lost_term} 0) {' '.join(pieces)})")
        unknowns = (["(L Int)"] if lost is None and may_lose else []) + (["(B Int)"] if bonus else [])
        bonus_term = "B" if bonus else "0"
        body = f"(or (= {total} (+ (- {whole} {lost_term}) {bonus_term})) {' '.join(patterns)})"
        if unknowns:
            bounds = [f"(<= 0 L) (<= L {whole})"] if lost is None and may_lose else []
            if bonus:
                bounds.append(_bonus_bounds(rules, n))
            smt = f"(exists ({' '.join(unknowns)}) (and {' '.join(bounds)} {body}))"
        else:
            smt = body
        shown = sum(values)
        owed = (f"{whole} - {lost_value} lost = {whole - lost_value}" if lost_value is not None
                else f"{whole} less any lost points")
        item = Item(smt, f"the scores sum to {shown}; they must sum to {owed}, or follow a moon "
                    "pattern", score.span)
        law.groups.append(Group(smt, lambda: [item]))
        law.detail = f"the scores sum to {shown}"
        if lost is None and may_lose and 0 <= whole - shown < whole and shown != whole:
            law.detail += (f": consistent only if {whole - shown} point(s) were lost in a "
                           "set-aside last trick (R6.6), which the record does not show")
        return law

    def totals_law(self, facts: HandFacts, summary) -> Law:
        law = Law("totals", "R7.4")
        n = facts.players
        scores = None
        if facts.record.score is not None:
            entries = self._entries(facts.record.score)
            scores = {s: v for s, (v, _) in entries.items()}
        elif summary is not None and summary.complete and summary.points:
            scores = {s: summary.points.get(self.table.name(s)) for s in range(n)}
        self.pending.append(scores)
        total = facts.record.total
        if total is None:
            law.status, law.detail = "skipped", "no total line"
            return law
        written = self._entries(total)
        checked, atoms, facts_of = [], [], []
        base, base_span = self.base, self.base_span
        for seat, (value, span) in sorted(written.items()):
            if base is None or seat not in base:
                continue
            parts = [base[seat]]
            for hand in self.pending:
                if hand is None or hand.get(seat) is None:
                    break
                parts.append(hand[seat])
            else:
                atoms.append(f"(= {_n(value)} {_sum([_n(p) for p in parts])})")
                facts_of.append((seat, value, span, parts))
                checked.append(seat)

        def expand() -> list[Item]:
            related = ((Related(base_span.line, base_span.column, "the previous total line"),)
                       if base_span else ())
            return [Item(atom, f"{self.table.name(seat)}'s total is {value}, but "
                         f"{' + '.join(map(str, parts))} = {sum(parts)}", span, related)
                    for atom, (seat, value, span, parts) in zip(atoms, facts_of)]

        if atoms:
            law.groups.append(Group(_conj(atoms), expand))
        if len(checked) < n:
            law.partial = True
            law.detail = f"{len(checked)} of {n} totals follow from the sheet"
        else:
            law.detail = "every total is the previous total plus the hand score"
        self.base = {s: v for s, (v, _) in written.items()} if len(written) == n else None
        self.base_span = total.span
        self.pending = []
        return law


def _bonus_bounds(rules, n: int) -> str:
    """B: what the ruleset's bonuses can add to a hand's scores (0 without bonuses)."""
    jack, none = rules.jack_of_diamonds_bonus, rules.no_tricks_bonus
    if not jack and not none:
        return "(= B 0)"
    return (f"(exists ((J Int) (N Int)) (and (<= 0 J) (<= J {rules.decks}) (<= 0 N) (<= N {n}) "
            f"(= B (+ (* {_n(jack)} J) (* {_n(none)} N)))))")


