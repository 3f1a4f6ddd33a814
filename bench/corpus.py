"""Reproducible synthetic corpus of Cancellation Hearts logs, for benchmarks and fuzzing.

The logs are well formed and look complete (tags, hands with deals, kitty, passes, full
tricks, scores and totals) but the play is random: following suit when possible, with
random claims.  They exercise the parser, not the rules.

    >>> from bench.corpus import make_corpus
    >>> text = make_corpus(2_000_000, seed=1)   # about 2 MB of logs
"""

from __future__ import annotations

import random

from referee.rules.cards import DECK_SIZE, NUM_RANKS, card_text

NAMES = (
    "Al", "Beth", "Charlie", "Dave", "Eve", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kim",
    "Олена", "Zoë", "José", "O'Neil", "Mary-Jo", '"Mary Ann"', "Tomás", "Ünal", "Li",
)
DIRECTIONS = ("left", "right", "across", "hold", "2 left", "2 right")
SUIT_STYLES = ("SHDC", "shdc", "♠♥♦♣")


def _card(card: int, rng: random.Random, fancy: bool) -> str:
    if not fancy:
        return card_text(card)
    text = card_text(card)
    style = rng.choice(SUIT_STYLES)
    suit = style["SHDC".index(text[-1])]
    rank = text[:-1]
    if rank == "10" and rng.random() < 0.3:
        rank = "T"
    if rng.random() < 0.3:
        rank = rank.lower()
    return rank + suit


def make_game(rng: random.Random, game_number: int = 1, fancy: bool = False) -> str:
    """One game log: tags, then hands until a total reaches 100 (at most 12 hands)."""
    players = rng.randint(6, 11)
    names = rng.sample(NAMES, players)
    out = [
        f"# synthetic game {game_number}",
        f'[Event "Synthetic club #{game_number}"]',
        f'[Date "2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"]',
        '[Ruleset "cancellation"]',
        "[Players " + '"' + " ".join(n if " " not in n.strip('"') else "'" + n.strip('"') + "'" for n in names) + '"]',
        '[Target "100"]',
    ]
    totals = [0] * players
    per_player = 2 * DECK_SIZE // players
    for hand in range(1, 13):
        deck = [c % DECK_SIZE for c in range(2 * DECK_SIZE)]
        rng.shuffle(deck)
        hands = [sorted(deck[i * per_player:(i + 1) * per_player], key=lambda c: (c // NUM_RANKS, -c)) for i in range(players)]
        kitty = deck[players * per_player:]
        dealer = (hand - 1) % players
        direction = DIRECTIONS[(hand - 1) % len(DIRECTIONS)]
        out.append("")
        out.append(f"hand {hand} dealer {names[dealer]} pass {direction}")
        for i in range(players):
            out.append(f"deal {names[i]}: " + " ".join(_card(c, rng, fancy) for c in hands[i]))
        out.append("kitty: " + " ".join(card_text(c) for c in kitty))
        if direction != "hold":
            for i in range(players):
                passed = rng.sample(hands[i], 3)
                if rng.random() < 0.5:
                    out.append(f"pass {names[i]}: " + " ".join(card_text(c) for c in passed))
                else:
                    to = names[(i + 1) % players]
                    out.append(f"pass {names[i]} -> {to}: " + " ".join(card_text(c) for c in passed))
        leader = (dealer + 1) % players
        points = [0] * players
        for trick in range(1, per_player + 1):
            order = [(leader + k) % players for k in range(players)]
            cards = []
            led = None
            for seat in order:
                held = hands[seat]
                follow = [c for c in held if led is not None and c // NUM_RANKS == led]
                card = rng.choice(follow or held)
                held.remove(card)
                cards.append(card)
                if led is None:
                    led = card // NUM_RANKS
            winner = rng.randrange(players + 1)
            claim = "none" if winner == players else names[winner]
            if rng.random() < 0.1:
                out.append(f"trick {trick} {names[leader]}: " + " ".join(_card(c, rng, fancy) for c in cards) + f" -> {claim}")
            else:
                plays = ", ".join(f"{names[s]} {_card(c, rng, fancy)}" for s, c in zip(order, cards))
                out.append(f"trick {trick}: {plays} -> {claim}")
            if winner < players:
                points[winner] += sum(1 for c in cards if c // NUM_RANKS == 1)
                leader = winner
            if rng.random() < 0.02:
                out.append("# the table argued about this one")
        if rng.random() < 0.1:
            out.append(f"moon {names[rng.randrange(players)]} {rng.choice(('subtract', 'add'))}")
        totals = [t + p for t, p in zip(totals, points)]
        out.append("score: " + ", ".join(f"{n} {p}" for n, p in zip(names, points)))
        out.append("total: " + ", ".join(f"{n} {t}" for n, t in zip(names, totals)))
        if max(totals) >= 100:
            break
    best = min(totals)
    out.append("winner: " + " ".join(n for n, t in zip(names, totals) if t == best))
    return "\n".join(out) + "\n"


def make_corpus(size: int = 3_000_000, seed: int = 2026, fancy: bool = False) -> str:
    """Concatenated game logs of at least ``size`` characters, the same for the same seed.

    Separate games are joined into one text (the parser does not mind several ``[Players]``
    tags); ``fancy`` mixes in lower-case ranks, ``T`` for ten and suit symbols.
    """
    rng = random.Random(seed)
    parts: list[str] = []
    length = 0
    game = 0
    while length < size:
        game += 1
        log = make_game(rng, game, fancy)
        parts.append(log)
        length += len(log)
    return "\n".join(parts)


def make_logs(count: int, seed: int = 2026, fancy: bool = False) -> list[str]:
    """``count`` separate game logs."""
    rng = random.Random(seed)
    return [make_game(rng, i + 1, fancy) for i in range(count)]
