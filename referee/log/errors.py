"""This module words the diagnostics for a log line that the grammar rejected: the line alone is
parsed again with the ``line`` rule, one token per word, and the first unexpected token becomes a
sentence; where one small repair of the line reads as a statement, the hint shows it as
``referee fmt`` would write it."""

from __future__ import annotations

import re
from collections.abc import Callable

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from referee.log.canonical import format_event
from referee.log.events import Comment
from referee.log.words import QUOTES, shown
from referee.util.message import Message, msg
from referee.util.suggest import did_you_mean

STATEMENT_KEYWORDS = ("hand", "deal", "kitty", "pass", "trick", "moon", "score", "total", "winner",
                      "winners", "players")
Reread = Callable[[str], "Event | None"]  # a repaired line -> the one event it reads as, or None

# Each terminal in words, in the order a message lists them; the log's own words (':',
# 'dealer') are the same in every language: plain strings.
_WORDS: dict[str, str] = {
    "COLON": "':'",
    "NUMBER": msg("a number"),
    "NAME": msg("a player name"),
    "CARDS": msg("cards like 10S or QS"),
    "LIST": "",  # depends on the statement, see _LIST_WORDS
    "ARROW": "'->'",
    "DEALER": "'dealer'",
    "PASS": "'pass'",
    "DIRECTION": msg("a pass direction (left, right, across, hold, none, or N left / N right)"),
    "SIDE": msg("'left' or 'right'"),
    "CHOICE": msg("'subtract' or 'add'"),
    "TAG_NAME": msg("a tag name like Event"),
    "STRING": msg('a quoted value like "Friday club"'),
    "RSQB": "']'",
    "PLAYER_NAMES": msg("the players' names in seating order, like 'Al Beth Charlie'"),
    "$END": msg("the end of the line"),
    "<END-OF-FILE>": msg("the end of the line"),
}
_LIST_WORDS = {
    "trick": msg("the plays, like 'Beth 2C, Charlie 5C'"),
    "score": msg("a player name and points, like 'Al 13'"),
    "total": msg("a player name and points, like 'Al 13'"),
    "winner": msg("the winner's name"),
    "winners": msg("the winners' names"),
}
_A_LIST = msg("a list")
_SOMETHING_ELSE = msg("something else")
# _CHOICES lists the literal words a near miss may be corrected to, by terminal.
_CHOICES = {
    "DEALER": ("dealer",),
    "PASS": ("pass",),
    "DIRECTION": ("left", "right", "across", "hold", "none"),
    "SIDE": ("left", "right"),
    "CHOICE": ("subtract", "add"),
}
_WORD_AT = re.compile(r'"(?:[^"\\\n]|\\.)*"|[^\s:,\[\]"#]+|\S')
_QUOTED_START = re.compile(r'"(?:[^"\\\n]|\\.)*"|“[^”\n]*”')
# A word in quotes that are not a pair the grammar reads ('Mary Ann', ‘Mary Ann’, ”Mary Ann”):
# the repair writes it in straight double quotes.
_ODD_QUOTES = re.compile(r"""(?<![\w'’])['‘”„]([^'‘’"“”„\n]+)['’"“”](?![\w'’])""")
_PLAYER_TAG = "player"  # the singular, refused as a tag name by the grammar
# Repairs are tried on lines up to this long (a real statement is far shorter): a file of long
# bad lines costs no more than their diagnosis.
_REPAIR_MAX = 512


def _word_at(line: str, index: int) -> str:
    return m.group() if (m := _WORD_AT.match(line, index)) else ""


def _previous_text(token: Token) -> str:
    if token.type in ("CARDS", "LIST"):
        words = token.value.split()
        return words[-1] if words else token.value
    return shown(str(token.value))


def _expected_words(expected: set[str], keyword: str) -> str:
    """Say the terminals wanted in words: "a number", "':' or '->'", "a, b or c"."""
    parts = []
    for name in _WORDS:
        if name in expected:
            parts.append(_LIST_WORDS.get(keyword, _A_LIST) if name == "LIST" else _WORDS[name])
    if not parts:
        return _SOMETHING_ELSE
    words = parts[0]
    for part in parts[1:-1]:
        # TRANSLATORS: a list of what the reader wanted, one more item at a time ("a, b")
        words = msg("{items}, {item}", items=words, item=part)
    if len(parts) > 1:
        # TRANSLATORS: the last item of a list of what the reader wanted ("a, b or c")
        words = msg("{items} or {item}", items=words, item=parts[-1])
    return words


def diagnose(parser: Lark, line: str, reread: Reread) -> tuple[int, int, str, str | None]:
    """Diagnose a rejected line as (column, end_column, message, hint); the hint shows the
    canonical line a clear repair reads as, if any."""
    ip = parser.parse_interactive(line, start="line")
    seen: list[Token] = []
    try:
        for token in ip.iter_parse():
            seen.append(token)
        ip.feed_eof(seen[-1] if seen else None)
    except UnexpectedInput as err:
        expected, previous, index = _expected_at(err, seen, line, ip)
        column, end, message, hint = _explain(expected, previous, index, line)
        if len(line) <= _REPAIR_MAX:
            repaired = _canonical(_repairs(line, expected, previous, index), reread)
            # TRANSLATORS: {line} is a whole log line, as `referee fmt` writes it
            hint = msg("did you mean: {line}", line=repaired) if repaired else hint
        return column, end, message, hint
    # The line grammar accepts what the fast grammar refused: should not happen.
    return 1, max(len(line), 1) + 1, msg("this line cannot be read as a statement"), None


def _explain(expected: set[str], previous: list[Token], index: int,
             line: str) -> tuple[int, int, str, str | None]:
    found = _word_at(line, index)
    column = index + 1
    end = column + max(len(found), 1)
    if not previous:
        return (column, end, *_unknown_statement(found or line.strip()[:1]))
    keyword = previous[0].value.strip().casefold() if previous[0].type != "LSQB" else "tag"
    if found.startswith(QUOTES) and not _QUOTED_START.match(line, index):
        closing = "”" if found.startswith("“") else '"'
        # TRANSLATORS: {quote} is the quotation mark that closes the one written (" or ”)
        message = (msg("a quoted value needs its closing '{quote}'", quote=closing)
                   if keyword == "tag" else
                   msg("a quoted player name needs its closing '{quote}'", quote=closing))
        return column, end, message, None
    if keyword == "tag" and found.casefold() == _PLAYER_TAG:
        # TRANSLATORS: {word} is the tag name as written ("Player"); [Players "..."] is log syntax
        return column, end, msg("'{word}' is not a tag: the seating is the [Players \"...\"] tag",
                                word=found), None
    guess = _near_miss(expected, found)
    hint = _did_you_mean(guess) if guess and guess.casefold() != found.casefold() else None
    return column, end, _message(expected, previous[-1], keyword), hint


# ---- repairs: the canonical line a bad line most likely means -----------------------------
def _repairs(line: str, expected: set[str], previous: list[Token], index: int) -> list[str]:
    """List the lines that differ from ``line`` by one small repair at the place it went wrong."""
    found = _word_at(line, index)
    out: list[str] = []
    guess = (did_you_mean(found, STATEMENT_KEYWORDS) if found[:1].isalpha() else None) \
        if not previous else _near_miss(expected, found)
    if not guess and previous and previous[-1].type == "LSQB" and found.casefold() == _PLAYER_TAG:
        guess = "Players"
    if guess and guess.casefold() != found.casefold():
        out.append(line[:index] + guess + line[index + len(found):])
    if previous and "COLON" in expected:  # a ':' left out: after which word?
        out += [line[:token.end_pos] + ":" + line[token.end_pos:] for token in previous]
    if previous and "ARROW" in expected and "COLON" in expected:  # pass Al Beth: ...
        out.append(line[:index] + "-> " + line[index:])
    straight = _ODD_QUOTES.sub(r'"\1"', line)
    if straight != line:
        out.append(straight)
    return out


def _canonical(lines: list[str], reread: Reread) -> str | None:
    """Return the canonical text of the one statement the repaired ``lines`` read as; None if
    none or several do."""
    found: set[str] = set()
    for candidate in lines:
        event = reread(candidate)
        if event is not None and not isinstance(event, Comment):
            try:
                found.add(format_event(event))
            except ValueError:  # a statement no canonical line writes: no repair to show
                continue
    return found.pop() if len(found) == 1 else None


def _expected_at(err: UnexpectedInput, seen: list[Token], line: str,
                 parser) -> tuple[set[str], list[Token], int]:
    """Find the terminals the parser wanted, the tokens before the bad one, and where it
    starts."""
    if isinstance(err, UnexpectedToken):
        expected = set(err.expected)
        bad = err.token
        previous = [t for t in seen if t is not bad]
        index = ((previous[-1].end_pos if previous else len(line)) if bad.type == "$END"
                 else bad.start_pos)
    else:
        assert isinstance(err, UnexpectedCharacters)
        expected = set(err.allowed or ())
        previous = seen
        index = err.pos_in_stream
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
    if word.startswith("["):
        return msg("a tag needs its closing ']': [Name \"value\"]"), None
    guess = did_you_mean(word, STATEMENT_KEYWORDS) if word[:1].isalpha() else None
    # TRANSLATORS: {word} is the first word of the line, as written
    return msg("unknown statement '{word}'", word=shown(word)), _did_you_mean(guess)


def _did_you_mean(guess: str | None) -> Message | None:
    # TRANSLATORS: {word} is a word of the log's language (a keyword such as trick, left, dealer)
    return msg("did you mean '{word}'?", word=guess) if guess else None


def _near_miss(expected: set[str], found: str) -> str | None:
    """Find the word the parser wanted here that ``found`` is a near miss of, or None."""
    if not found[:1].isalpha() or not expected.intersection(_CHOICES):
        return None
    return did_you_mean(found, [word for name, words in _CHOICES.items() if name in expected
                                for word in words])


def _message(expected: set[str], last: Token, keyword: str) -> str:
    """Say what was expected after the ``last`` good token of a ``keyword`` statement."""
    after = _previous_text(last)  # in every message: the last word read, as written
    if "COLON" in expected and last.type == "NAME" and keyword in ("deal", "pass", "trick"):
        # TRANSLATORS: {keyword} is the statement's keyword as the log writes it: deal, pass or trick
        return msg("expected ':' after the player name in a {keyword} line", keyword=keyword)
    if expected == {"NUMBER"} and last.type in ("HAND", "TRICK"):
        if keyword == "hand":
            return msg("expected a hand number after '{after}'", after=after)
        if keyword == "trick":
            return msg("expected a trick number after '{after}'", after=after)
        return msg("expected a {keyword} number after '{after}'", keyword=keyword, after=after)
    if expected == {"NAME"} and last.type == "ARROW" and keyword == "trick":
        return msg("expected a player name or 'none' after '{after}'", after=after)
    if expected == {"NAME"} and last.type in ("DEAL", "PASS", "MOON", "DEALER"):
        return msg("expected a player name after '{after}'", after=after)
    # TRANSLATORS: {what} lists what the reader wanted ("a number", "':' or '->'")
    return msg("expected {what} after '{after}'", what=_expected_words(expected, keyword),
               after=after)
