"""JSON game records that several tests read: a record around some members, faulty records
with what a reader must say of each (written by hand), edits of a record of three hands, a
clean record of many played hands, and the problems of a text as the whole, slow reading of a
record says them."""

from __future__ import annotations

import json
import re
from pathlib import Path


EXAMPLE_RECORDS = Path(__file__).resolve().parents[1] / "examples" / "records"
HEAD = '{"format": "referee-game-record", "version": 1, '
PLAYERS = '"tags": [{"name": "Players", "value": ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]}]'


def record(body: str) -> bytes:
    """The bytes of a record of format version 1 whose other members are ``body``."""
    return (HEAD + body + "}").encode("utf-8")


# a record's members -> the pointer and the words of its one problem
SCHEMA_CASES = [
    ('"tags": [{"name": "Players", "value": "A\\nB"}]', "/tags/0/value", "is not a string on one line"),
    ('"tags": [{"name": "9x", "value": "v"}]', "/tags/0/name", "is not a tag name"),
    ('"hands": [{}]', "/hands/0", "empty hand"),
    ('"hands": [{"dealer": "Al"}]', "/hands/0", "needs its number"),
    ('"hands": [{"deal": [{"player": "Al", "cards": []}]}]', "/hands/0/deal/0/cards", "empty list"),
    ('"hands": [{"tricks": [{"number": -1, "plays": []}]}]', "/hands/0/tricks/0/number", "whole number"),
    ('"hands": [{"score": [{"player": "Al", "points": 1e400}]}]', "/hands/0/score/0/points", "points"),
    ('"hands": [{"moon": {"player": "Al", "choice": "keep"}}]', "/hands/0/moon/choice", "subtract or add"),
    ('"comments": [{"text": "# x", "above": "/tags/0", "beside": "/tags/0"}]', "/comments/0", "not both"),
    ('"hands": [{"kitty": ["QS\\n"]}]', "/hands/0/kitty/0", "is not a card"),
    # a Players array with one bad name: that name, at its place, not "an array is not a string"
    ('"tags": [{"name": "Players", "value": ["A\\u0000l", "Beth"]}]', "/tags/0/value/0",
     '"A\\u0000l" is not a player\'s name: a non-empty string on one line (no line break, no NUL)'),
    ('"tags": [{"name": "Players", "value": ["Al", ""]}]', "/tags/0/value/1",
     '"" is not a player\'s name'),
]

UNSAID_CASES = [  # what the schema cannot say
    ('"hands": [{"tricks": [{"number": 1, "plays": [{"card": "QS"}]}]}]',
     "/hands/0/tricks/0/plays/0", "names no player"),
    ('"hands": [{"tricks": [{"number": 1, "leader": "Al", "plays": [{"player": "Al", "card": "QS"}]}]}]',
     "/hands/0/tricks/0/plays/0", "only the cards"),
    ('"tags": [{"name": "Event", "value": ["Al"]}]', "/tags/0/value", "only a Players tag"),
    ('"hands": [{"winners": ["none"]}]', "/hands/0/winners", "'none'"),
    ('"hands": [{"kitty": []}], "comments": [{"text": "x", "above": "/hands/3"}]',
     "/comments/0/above", "no statement"),
]

RECORD = HEAD + "%s}"  # a record around the members written in place of %s
# a record -> (the summary, [(pointer, message)]): written by hand
FAULTY_RECORDS = [
    ("{", "not a valid game record: not JSON: expected a member name in double quotes",
     [(None, "not JSON: expected a member name in double quotes")]),
    ('{"a": 1, "a": 2}',
     "not a valid game record: not JSON: the member name 'a' appears twice in this object",
     [(None, "not JSON: the member name 'a' appears twice in this object")]),
    ('{"a": "\x01"}', ("not a valid game record: not JSON: a raw control character (U+0001) in a "
     "string; write it as an escape"), None),
    ('{"a": 1e999999999999999999999999999999999999999999}', ("not a valid game record: not JSON: "
     "a number 44 characters long; no value in a game record needs more than a few digits"), None),
    ('{"a": "\\ud800"}',
     "not a valid game record: not JSON: a high surrogate escape must be followed by a low one",
     None),
    ('{"a": [1 2]}', "not a valid game record: not JSON: expected ',' or ']' in this array", None),
    ('{"a": 1 "b"}', "not a valid game record: not JSON: expected ',' or '}' in this object", None),
    (RECORD % '"hands": [{"number": 1, "deal": [{"player": "Al", "cards": ["2X"]}]}]',
     ('not a valid game record at /hands/0/deal/0/cards/0: "2X" is not a card: a rank 2-10, J, '
     "Q, K or A, then a suit S, H, D or C (10S, QH)"), None),
    (RECORD % '"colour": 1, "hands": [{"number": 1, "deal": [{"player": "Al", "cards": ["2X", '
     '"3Y"]}]}]', ('not a valid game record: 3 problems, the first at /colour: unknown member '
     '"colour" (spec/game-record.md lists the members)'),
     [("/colour", 'unknown member "colour" (spec/game-record.md lists the members)'),
      ("/hands/0/deal/0/cards/0", ('"2X" is not a card: a rank 2-10, J, Q, K or A, then a suit '
       "S, H, D or C (10S, QH)")),
      ("/hands/0/deal/0/cards/1", ('"3Y" is not a card: a rank 2-10, J, Q, K or A, then a suit '
       "S, H, D or C (10S, QH)"))]),
    (RECORD % '"hands": [{"number": 1, "pass": "up"}]', ("not a valid game record at "
     "/hands/0/pass: \"up\" is not a pass direction: left, right, across, hold (or none), or "
     "'N left' / 'N right'"), None),
    (RECORD % '"hands": 5', "not a valid game record at /hands: 5 is not of type 'array'", None),
    (RECORD % '"hands": [{}]',
     "not a valid game record at /hands/0: an empty hand object records nothing", None),
    (RECORD % '"hands": [{"number": 1, "score": []}]',
     "not a valid game record at /hands/0/score: an empty list here; at least 1 item is needed",
     None),
    (RECORD % '"hands": [{"deal": [{"player": "Al"}]}]',
     'not a valid game record at /hands/0/deal/0: the member "cards" is missing here', None),
    (RECORD % '"hands": [{"number": 1, "tricks": [{"number": 1, "plays": [{"card": "2C"}]}]}]',
     ("not a valid game record at /hands/0/tricks/0/plays/0: this play names no player (only a "
     "trick with a leader lists bare cards)"), None),
    (RECORD % '"hands": [{"number": 1, "winners": ["none"]}]', ("not a valid game record at "
     "/hands/0/winners: 'none' cannot be named as a winner of the game"), None),
    (RECORD % '"comments": [{"text": "x", "above": "/hands/9"}], "hands": [{"number": 1}]',
     ('not a valid game record at /comments/0/above: no statement of this record is at '
     '"/hands/9" (a tag, a hand\'s number, a deal, the kitty, a pass, a trick, the moon, score, '
     "total or winners)"), None),
]


def three_hands() -> dict:
    """The record examples/records/revoke.json with its hand three times, numbered 1 to 3."""
    document = json.loads((EXAMPLE_RECORDS / "revoke.json").read_text("utf-8"))
    hand = document["hands"][0]
    document["hands"] = [dict(hand, number=n) for n in (1, 2, 3)]
    return document


_CARD_RUN = re.compile(r'"cards": \[\s*"')


def card_edit(text: str, which: int, value: str = "1S") -> str:
    """``text`` with the first card of its ``which``-th run of cards (from 0; -1 the last)
    made ``value``."""
    starts = [m.end() for m in _CARD_RUN.finditer(text)]
    at = starts[which]
    return text[:at] + value + text[text.index('"', at):]


def edited_texts() -> list[str]:
    """Faulty records made from :func:`three_hands`: a bad card first, last or both, an unknown
    version or member, and a hand number that is not one (NaN, too large, twice, a lone
    surrogate, nested too deep), alone and with a bad card before it."""
    text = json.dumps(three_hands(), indent=1)
    last = text.rindex('"number": 3')
    texts = [card_edit(text, 0), card_edit(text, -1), card_edit(card_edit(text, 0), -1),
             text.replace('"version": 1', '"version": 2, "colour": 1'),
             card_edit(text.replace('"version": 1', '"version": 2'), -1)]
    for old, new in (('"number": 3', '"number": NaN'), ('"number": 3', '"number": 1e400'),
                     ('"number": 3', '"number": 3, "number": 3'),
                     ('"number": 3', '"number": "\\udc00"'), ('"number": 3', '"number": [[[' * 12
                                                               + "]]]" * 12)):
        edited = text[:last] + new + text[last + len(old):]
        texts += [edited, card_edit(edited, 0)]
    return texts


PLAYED_BLOCK = 12  # hands: a whole number of rounds of dealers and of pass directions at 6 seats


def played_record(hands: int) -> str:
    """A clean record of ``hands`` played hands: one generated block of hands over and over,
    numbered on, without the running totals (which would go on from block to block)."""
    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset, with_options
    from referee.run.convert import convert

    rules = with_options(load_ruleset("cancellation"), target=10**9)
    document = json.loads(convert(write(generate_game(rules, 6, seed=5, hands=PLAYED_BLOCK)))[0])
    block = [{key: value for key, value in hand.items() if key != "total"}
             for hand in document["hands"]]
    document["hands"] = [dict(block[i % PLAYED_BLOCK], number=i + 1) for i in range(hands)]
    return json.dumps(document, indent=1)
