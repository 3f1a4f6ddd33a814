"""Plain-words diagnostics for a log line that the grammar rejected.

The fast grammar (``start`` in grammars/log.lark) reads heads such as ``deal Al:`` as one
token, so when it rejects a line it cannot say which word was wrong.  The line alone is then
parsed again with the ``line`` rule, one token per word, and the first unexpected token and
the set of terminals the parser wanted there are turned into a sentence:
"expected ':' after the player name in a deal line", "unknown statement 'trik'".
"""

from __future__ import annotations

import re

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from referee.log.words import shown
from referee.util.suggest import did_you_mean

STATEMENT_KEYWORDS = ("hand", "deal", "kitty", "pass", "trick", "moon", "score", "total", "winner", "winners")

# What each terminal is, in words, in the order they are listed in a message.
_WORDS = {
    "COLON": "':'",
    "NUMBER": "a number",
    "NAME": "a player name",
    "CARDS": "cards like 10S or QS",
    "LIST": "",  # depends on the statement, see _LIST_WORDS
    "ARROW": "'->'",
    "DEALER": "'dealer'",
    "PASS": "'pass'",
    "DIRECTION": "a pass direction (left, right, across, hold, none, or N left / N right)",
    "SIDE": "'left' or 'right'",
    "CHOICE": "'subtract' or 'add'",
    "TAG_NAME": "a tag name like Event",
    "STRING": 'a quoted value like "Friday club"',
    "RSQB": "']'",
    "$END": "the end of the line",
    "<END-OF-FILE>": "the end of the line",
}
_LIST_WORDS = {
    "trick": "the plays, like 'Beth 2C, Charlie 5C'",
    "score": "a player name and points, like 'Al 13'",
    "total": "a player name and points, like 'Al 13'",
    "winner": "the winner's name",
    "winners": "the winners' names",
}
# Literal words a near miss may be corrected to, by terminal.
_CHOICES = {
    "DEALER": ("dealer",),
    "PASS": ("pass",),
    "DIRECTION": ("left", "right", "across", "hold", "none"),
    "SIDE": ("left", "right"),
    "CHOICE": ("subtract", "add"),
}
_WORD_AT = re.compile(r'"(?:[^"\\\n]|\\.)*"|[^\s:,\[\]"#]+|\S')
_QUOTED_START = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _word_at(line: str, index: int) -> str:
    m = _WORD_AT.match(line, index)
    return m.group() if m else ""


def _previous_text(token: Token) -> str:
    if token.type in ("CARDS", "LIST"):
        words = token.value.split()
        return words[-1] if words else token.value
    return shown(str(token.value))


def _expected_words(expected: set[str], keyword: str) -> str:
    parts = []
    for name in _WORDS:
        if name in expected:
            parts.append(_LIST_WORDS.get(keyword, "a list") if name == "LIST" else _WORDS[name])
    if not parts:
        parts = ["something else"]
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def diagnose(parser: Lark, line: str) -> tuple[int, int, str, str | None]:
    """(column, end_column, message, hint) for a line the fast grammar rejected.

    ``line`` is the text of the line without its newline; columns are 1-based.
    """
    ip = parser.parse_interactive(line, start="line")
    seen: list[Token] = []
    try:
        for token in ip.iter_parse():
            seen.append(token)
        ip.feed_eof(seen[-1] if seen else None)
    except UnexpectedInput as err:
        return _explain(err, seen, line, ip)
    # The line grammar accepts what the fast grammar refused: should not happen.
    return 1, max(len(line), 1) + 1, "this line cannot be read as a statement", None


def _explain(err: UnexpectedInput, seen: list[Token], line: str, parser) -> tuple[int, int, str, str | None]:
    expected, previous, index = _expected_at(err, seen, line, parser)
    found = _word_at(line, index)
    column = index + 1
    end = column + max(len(found), 1)
    if not previous:
        return (column, end, *_unknown_statement(found or line.strip()[:1]))
    keyword = previous[0].value.strip().casefold() if previous[0].type != "LSQB" else "tag"
    if found.startswith('"') and not _QUOTED_START.match(line, index):
        what = "value" if keyword == "tag" else "player name"
        return column, end, f"a quoted {what} needs its closing '\"'", None
    return column, end, _message(expected, previous[-1], keyword), _hint(expected, found)


def _expected_at(err: UnexpectedInput, seen: list[Token], line: str, parser) -> tuple[set[str], list[Token], int]:
    """The terminals the parser wanted, the tokens before the bad one, and where (an index
    into ``line``) the bad one starts."""
    if isinstance(err, UnexpectedToken):
        expected = set(err.expected)
        bad = err.token
        previous = [t for t in seen if t is not bad]
        index = (previous[-1].end_pos if previous else len(line)) if bad.type == "$END" else bad.start_pos
    else:
        assert isinstance(err, UnexpectedCharacters)
        expected = set(err.allowed or ())
        previous = seen
        index = err.pos_in_stream
    if parser is not None:
        try:  # what the parser accepts here (the lexer's own set lacks the end of the line)
            expected = set(parser.accepts()) or expected
        except Exception:  # noqa: BLE001 - keep the lexer's set
            pass
    expected.discard("_NL")
    if "DIRECTION" in expected:
        expected.discard("NUMBER")  # "2 left": the direction's words say so
    if "<END-OF-FILE>" in expected:
        expected.discard("<END-OF-FILE>")
        expected.add("$END")
    return expected, previous, index


def _unknown_statement(word: str) -> tuple[str, str | None]:
    """Message and hint for a line whose first word starts no statement."""
    if word.startswith("["):
        return "a tag needs its closing ']': [Name \"value\"]", None
    guess = did_you_mean(word, STATEMENT_KEYWORDS) if word[:1].isalpha() else None
    return f"unknown statement '{shown(word)}'", (f"did you mean '{guess}'?" if guess else None)


def _hint(expected: set[str], found: str) -> str | None:
    """'did you mean ...?' when ``found`` is a near miss of a word the parser wanted."""
    if not found[:1].isalpha() or not expected.intersection(_CHOICES):
        return None
    guess = did_you_mean(found, [word for name, words in _CHOICES.items() if name in expected for word in words])
    if guess and guess.casefold() != found.casefold():
        return f"did you mean '{guess}'?"
    return None


def _message(expected: set[str], last: Token, keyword: str) -> str:
    """What was expected after the ``last`` good token of a ``keyword`` statement."""
    after = _previous_text(last)
    if "COLON" in expected and last.type == "NAME" and keyword in ("deal", "pass", "trick"):
        return f"expected ':' after the player name in a {keyword} line"
    if expected == {"NUMBER"} and last.type in ("HAND", "TRICK"):
        return f"expected a {keyword} number after '{after}'"
    if expected == {"NAME"} and last.type == "ARROW" and keyword == "trick":
        return "expected a player name or 'none' after '->'"
    if expected == {"NAME"} and last.type in ("DEAL", "PASS", "MOON", "DEALER"):
        return f"expected a player name after '{after}'"
    return f"expected {_expected_words(expected, keyword)} after '{after}'"
