"""Hypothesis strategies for logs: events (a log is their written text), characters that matter
to the grammar, and lines generated from the grammar's word-by-word rules; and random edits of
a line."""

from __future__ import annotations

import random

from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from referee.log.words import BARE_NAME_RE
from referee.log.events import (
    CardRun,
    Claim,
    Comment,
    Deal,
    Entry,
    GameOver,
    HandStart,
    Kitty,
    Moon,
    Pass,
    Play,
    Score,
    Tag,
    Total,
    Trick,
)
from referee.log.parser import grammar_text
from referee.rules.cards import CARDS

LINE_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=12)
_BARE_NAMES = st.from_regex(r"[A-Za-zÀ-ÿА-я][A-Za-z0-9À-ÿА-я'’_-]{0,7}", fullmatch=True).filter(
    lambda n: BARE_NAME_RE.fullmatch(n) is not None
)
names = st.one_of(
    st.sampled_from(["Al", "Beth", "Charlie", "Олена", "Zoë", "José", "O'Neil", "Mary-Jo", "Mary Ann", "none",
                     "AS", "Nobody", "“Al”", "Al → Beth", "a=>b", "−1"]),
    _BARE_NAMES,
    LINE_TEXT,
)
winner_names = names.filter(lambda n: n.casefold() != "none")
cards = st.sampled_from(CARDS)
card_runs = st.lists(cards, max_size=18).map(lambda cs: CardRun(tuple(cs)))
nonempty_runs = st.lists(cards, min_size=1, max_size=18).map(lambda cs: CardRun(tuple(cs)))
numbers = st.integers(min_value=0, max_value=10**15)
directions = st.one_of(
    st.sampled_from(["left", "right", "across", "hold"]),
    st.builds(lambda n, side: f"{n} {side}", st.integers(0, 20).filter(lambda n: n != 1), st.sampled_from(["left", "right"])),
)
claims = st.one_of(st.none(), st.builds(Claim, st.one_of(st.none(), names)))
full_tricks = st.builds(
    lambda number, pairs, claim: Trick(number, tuple(Play(p, c) for p, c in pairs), claim),
    numbers, st.lists(st.tuples(names, cards), max_size=11), claims,
)
compact_tricks = st.builds(
    lambda number, leader, cs, claim: Trick(number, tuple(Play(None, c) for c in cs), claim, leader),
    numbers, names, st.lists(cards, max_size=11), claims,
)
points = st.integers(-(10**9 - 1), 10**9 - 1)  # a score or total line writes at most nine digits
entry_lists = st.lists(st.builds(Entry, names, points), min_size=1, max_size=11).map(tuple)
events = st.one_of(
    st.builds(Comment, LINE_TEXT.map(str.strip)),
    st.builds(Tag, st.from_regex(r"[A-Za-z_][A-Za-z0-9_-]{0,8}", fullmatch=True).filter(
        lambda name: name.casefold() != "player"), LINE_TEXT),
    st.builds(HandStart, numbers, st.one_of(st.none(), names), st.one_of(st.none(), directions)),
    st.builds(Deal, names, nonempty_runs),
    st.builds(Kitty, card_runs),
    st.builds(Pass, names, nonempty_runs, st.one_of(st.none(), names)),
    full_tricks,
    compact_tricks,
    st.builds(Moon, names, st.sampled_from(["subtract", "add"])),
    st.builds(Score, entry_lists),
    st.builds(Total, entry_lists),
    st.builds(GameOver, st.lists(winner_names, min_size=1, max_size=4).map(tuple)),
)
event_lists = st.lists(events, max_size=25)


# Characters that matter to the grammar, so that random text often gets somewhere.
LOG_CHARACTERS = st.sampled_from(list("trickhandealpsmoonwinerkity:,->#[]\"\\' \t\n0123456789ASKQJTHDC♠♥♦♣AlBethОлена\ufe0f\r\x00")
                                + list("=→⇒“”‘’−–"))


# ---- lines generated from the grammar's word-by-word rules -----------------------------------
_WORDS = {
    "HAND": ["hand", "HAND"], "DEALER": ["dealer"], "PASS": ["pass", "Pass"], "DEAL": ["deal"],
    "KITTY": ["kitty"], "TRICK": ["trick", "Trick"], "MOON": ["moon"], "SCORE": ["score"],
    "TOTAL": ["total"], "WINNER": ["winner", "winners"], "PLAYERS": ["Players", "players"],
    "DIRECTION": ["left", "right", "across", "hold", "none"], "SIDE": ["left", "right"],
    "CHOICE": ["subtract", "add"], "NUMBER": ["0", "1", "12", "007"],
    "NAME": ["Al", "Beth", "Олена", "O'Neil", "Mary-Jo", '"Mary Ann"', '"a -> b # c"', "none", "AS",
             "“Mary Ann”", "“a → b # c”", "nobody", "None"],
    "TAG_NAME": ["Event", "Players", "my-tag"], "STRING": ['"Friday club"', '""', '"a \\" b"',
                                                       "“Friday club”", "“”"],
    "COLON": [":"], "ARROW": ["->", "→", "=>", "⇒"], "LSQB": ["["], "RSQB": ["]"], "COMMENT": ["# note", "#"],
    "CARDS": ["AS", "AS KS 10S", "10♠, q♠", "2c 1S", "ZZ", "AS,"],
    "LIST": ["Beth 2C", "Beth 2C, Charlie 5C", "Al 0, Beth 13", "Al Beth", '"Mary Ann" 10S',
             "2C 5C", "Beth", "Al -5", "none", "Al: 0, Beth=13", "Al −26 Bo –5", "“Mary Ann” 2C"],
    "PLAYER_NAMES": ["Al Beth Charlie", "Al, 'Mary Ann', ‘Jo Jo’", "Al # x"],
}
GRAMMAR = Lark(grammar_text(), parser="lalr", start=["start", "line"])
SENTENCES = from_lark(GRAMMAR, start="line", explicit={
    name: st.one_of(st.sampled_from(words), st.text(LOG_CHARACTERS, min_size=1, max_size=8)).flatmap(
        lambda word: st.sampled_from([word + " ", word, " " + word + "\t"]))
    for name, words in _WORDS.items()
})


def mutate(line: str, rng: random.Random) -> str:
    """``line`` with one to three characters deleted, inserted, swapped or replaced."""
    alphabet = "trick:->,# \"'\\0123456789ASQ♠Zx\t=→“”‘−"
    chars = list(line)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        at = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(at, len(chars) - 1)]
        elif op == 1:
            chars.insert(at, rng.choice(alphabet))
        elif op == 2 and len(chars) > 1:
            i = rng.randrange(len(chars) - 1)
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        elif chars:
            chars[min(at, len(chars) - 1)] = rng.choice(alphabet)
    return "".join(chars)
