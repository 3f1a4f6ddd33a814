"""The reader's fast path: the lines of a well-formed log, read without Lark's machinery.

:class:`LineReader` reads ``trick``, ``deal`` and ``pass`` lines (a HEAD token and a REST token)
and the word-by-word statements with the grammar's own terminals (taken from the loaded grammar
by :func:`grammar_facts`, and shipped with the package), in one regular expression run over the
text, and gives each to the same rule callback Lark would.  Every other line goes to Lark, so
messages about malformed lines still come from the grammar.

Why the tokens are the ones Lark's contextual lexer would produce: in each parser state the
terminals it allows start differently, so at most one matches where a token starts; a HEAD
ends with the blanks after it, so only its REST can follow (a REST starting with ``#`` is left
to Lark); in a word-by-word statement there is one way to cut it.
tests/test_parser_fast.py checks that both readings give identical events, spans and issues."""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

from referee.log.body import PLAIN_LINES, PLAIN_TRICK_LINE, BodyError
from referee.log.build import EventBuilder, plain_deal, plain_pass, plain_trick_event

__all__ = ["LineReader", "grammar_facts", "lark_version", "shipped_facts", "shipped_source"]

Slow = Callable[[int, int, int], None]  # (start, end, first line) of lines for Lark
Facts = tuple[dict[str, str], list[tuple[str, list[str]]]]  # terminals' regexps, rules


def grammar_facts(lark) -> Facts:
    """What the line reader needs of a loaded grammar: the regular expression of every
    terminal, by name, and every rule of a HEAD and a REST token as (name, the two terminals'
    names).  Plain data, which the package ships so that a process can read without Lark."""
    terminals = {str(t.name): str(t.pattern.to_regexp()) for t in lark.terminals}
    rules = [(str(rule.origin.name), [str(symbol.name) for symbol in rule.expansion])
             for rule in lark.rules]  # str(): names may be Lark's Token, a str subclass
    return terminals, [(name, names) for name, names in rules if len(names) == 2
                       and names[0].endswith("_HEAD") and names[1].endswith("_REST")]


class LineReader:
    """Reads the lines it can with the grammar's terminals into a builder; holds nothing of a
    parse, so one reader serves every parse in every thread."""

    def __init__(self, terminals: Mapping[str, str], rules: Iterable[tuple[str, Sequence[str]]]) -> None:
        def terminal(name: str, group: str | None = None) -> str:
            """The terminal's pattern, atomic (matched once, as a lexer matches a token), in a
            group named ``group`` or after the terminal."""
            return f"(?>(?P<{group or name}>{terminals[name]}))"

        statements = [PLAIN_TRICK_LINE, *PLAIN_LINES.values()]
        # the plain lines, then the rules of the statements HEAD REST: (groups' name, rule)
        common = [("plain", "trick"), ("deal_plain", "deal"), ("passing_plain", "passing")]
        for name, (head, rest) in rules:
            head, rest = terminal(head, f"head_{name}"), terminal(rest, f"rest_{name}")
            statements.append(f"{head}(?!#){rest}")  # a REST starting with '#': module doc
            common.append((name, name))
        # The word-by-word statements: words separated by ignored blanks (_WS), and after the
        # last one perhaps blanks and an ignored comment (_TRAILING_COMMENT), then the newline.
        blanks = f"(?:{terminals['_WS']})?+"
        end = f"{blanks}(?:{terminals['_TRAILING_COMMENT']})?+\n"
        # hand: HAND NUMBER [DEALER NAME] [PASS direction], direction: DIRECTION | NUMBER SIDE
        direction = (f"(?:{terminal('DIRECTION')}"
                     f"|{terminal('NUMBER', 'COUNT')}{blanks}{terminal('SIDE')})")
        statements.append(
            f"(?P<hand>{terminal('HAND')}{blanks}{terminal('NUMBER')}"
            f"(?:{blanks}{terminal('DEALER')}{blanks}{terminal('NAME', 'DEALER_NAME')})?"
            f"(?:{blanks}{terminal('PASS')}{blanks}{direction})?{end})")
        # tag: LSQB TAG_NAME STRING RSQB
        statements.append(
            f"(?P<tag>{terminal('LSQB')}{blanks}{terminal('TAG_NAME')}{blanks}"
            f"{terminal('STRING')}{blanks}{terminal('RSQB')}{end})")
        # moon: MOON NAME CHOICE
        statements.append(
            f"(?P<moon>{terminal('MOON')}{blanks}{terminal('NAME', 'MOON_NAME')}{blanks}"
            f"{terminal('CHOICE')}{end})")
        # comment: COMMENT (a whole line: nothing can follow it but the newline)
        statements.append(f"(?P<comment>{terminal('COMMENT')}\n)")
        # at the start of a line, after any blanks (ignored _WS)
        pattern = re.compile(f"(?m)^{blanks}(?:{'|'.join(statements)})")
        self.lines = pattern.finditer
        # m.lastindex is the group that closed last: a statement's REST, or the group around
        # a word-by-word statement
        groups = pattern.groupindex
        self.terminals = MappingProxyType(dict(terminals))
        self.common = tuple((groups[f"rest_{name}"], groups[f"head_{name}"], name, rule) for name, rule in common)
        self.plain = [groups[f"{p}_plain"] for p in "rest head number plays claim winner".split()]
        self.words = MappingProxyType({groups["hand"]: _hand, groups["tag"]: _tag,
                                       groups["moon"]: _moon, groups["comment"]: _comment})

    def read(self, text: str, start: int, end: int, line: int, builder: EventBuilder, slow: Slow) -> None:
        """Read the whole lines ``text[start:end]`` (the first is ``line``; the last ends with
        a newline) into ``builder``, passing every run of lines not read here to ``slow`` in
        order."""
        kind, words = type(builder), self.words
        plain = {"deal_plain": plain_deal, "passing_plain": plain_pass}  # unless the builder's own
        builds = {rest: (head, plain[name] if name in plain and getattr(kind, rule) is getattr(EventBuilder, rule)
                         else getattr(kind, rule).build) for rest, head, name, rule in self.common}
        rest_plain, head_plain, number, plays, claim, winner = self.plain
        if kind.trick is not EventBuilder.trick:  # the builder's own reads the plain ones too
            rest_plain = None
        events = builder.events  # the builder's own list, which slow() appends to as well
        pos = start
        for m in self.lines(text, start, end):
            at = m.start()
            if at != pos:  # lines in between: blank, or for Lark
                if not text[pos:at].isspace():
                    slow(pos, at, line)
                line += text.count("\n", pos, at)
            pos = m.end()
            group = m.lastindex
            if group == rest_plain:
                events.append(plain_trick_event(
                    line, m.start(head_plain) - at + 1, m.group(number), m.start(plays) - at + 1,
                    *m.group(plays, claim, winner)))
                line += text.count("\n", m.end(plays), pos)
                continue
            statement = builds.get(group)
            if statement is None:
                words[group](builder, m, line, at)
                line += 1
                continue
            head_group, build = statement
            head, rest = m.group(head_group, group)
            try:
                events.append(build(builder, line, m.start(head_group) - at + 1, head,
                                    m.start(group) - at + 1, rest))
            except BodyError as err:
                builder.problem(line, err.column, err.end_column, err.message, err.hint)
            line += rest.count("\n")  # a REST ends with the newline and any blank lines after
        if pos < end and not text[pos:end].isspace():
            slow(pos, end, line)


# The word-by-word statements: their words, as the grammar's callbacks would get them.
def _hand(builder: EventBuilder, m: re.Match, line: int, at: int) -> None:
    dealer = ((m.group("DEALER_NAME"), m.start("DEALER_NAME") - at + 1)
              if m.start("DEALER_NAME") >= 0 else None)
    if m.start("DIRECTION") >= 0:
        words, first, last = m.group("DIRECTION"), "DIRECTION", "DIRECTION"
    elif m.start("COUNT") >= 0:
        words, first, last = f"{m.group('COUNT')} {m.group('SIDE')}", "COUNT", "SIDE"
    else:
        words = None
    direction = (words, m.start(first) - at + 1, m.end(last) - at + 1) if words else None
    builder.hand_line(line, m.start("HAND") - at + 1, m.group("NUMBER"), m.end("NUMBER") - at + 1,
                      dealer, direction)


def _tag(builder: EventBuilder, m: re.Match, line: int, at: int) -> None:
    builder.tag_line(line, m.start("LSQB") - at + 1, m.group("TAG_NAME"), m.group("STRING"),
                     m.end("RSQB") - at + 1)


def _moon(builder: EventBuilder, m: re.Match, line: int, at: int) -> None:
    builder.moon_line(line, m.start("MOON") - at + 1, m.group("MOON_NAME"),
                      m.start("MOON_NAME") - at + 1, m.group("CHOICE"), m.start("CHOICE") - at + 1)


def _comment(builder: EventBuilder, m: re.Match, line: int, at: int) -> None:
    builder.comment_line(line, m.start("COMMENT") - at + 1, m.group("COMMENT"))


# ---- the grammar facts, shipped with the package --------------------------------------------
# Why not a cache in the user's cache directory: any process of the user can write there, and
# terminals read from there decide what a line means (a pickle would even run its code); no
# check of owner, mode or checksum helps against the same user.  The referee trusts only its
# own code, so the facts are a module of the package (referee/log/shipped.py, made by
# ``python -m referee.log.parser``), used only with the grammar text and Lark version they were
# made from; otherwise Lark gives them, in memory, for this process only.
def lark_version() -> str | None:
    """The version of the Lark that ``import lark`` would load, without importing it."""
    module = sys.modules.get("lark")
    if module is not None:
        return module.__version__
    try:
        from importlib.util import find_spec

        with open(find_spec("lark").origin, encoding="utf-8") as source:
            found = re.search(r"^__version__\b[^=\n]*=\s*[\"']([^\"'\n]+)[\"']", source.read(), re.M)
    except Exception:  # noqa: BLE001 - then Lark itself will say
        return None
    return found.group(1) if found else None


def grammar_key(grammar: str) -> str:
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


def shipped_facts(grammar: str, version: str | None) -> Facts | None:
    """The facts shipped with the package, if they were made from this grammar and Lark."""
    from referee.log import shipped

    if (shipped.GRAMMAR_SHA256, shipped.LARK_VERSION) != (grammar_key(grammar), version):
        return None
    return dict(shipped.TERMINALS), [(name, list(symbols)) for name, symbols in shipped.RULES]


def shipped_source(grammar: str, version: str, facts: Facts) -> str:
    """The text of referee/log/shipped.py for these facts."""
    terminals, rules = facts
    lines = ['"""The line reader\'s facts of grammars/log.lark (made by ``python -m referee.log.parser``;',
             'do not edit: referee/log/fast.py says why they are shipped, not cached)."""', "",
             f"GRAMMAR_SHA256 = {grammar_key(grammar)!r}", f"LARK_VERSION = {version!r}", "",
             "TERMINALS = {"]
    lines += [f"    {name!r}: {pattern!r}," for name, pattern in sorted(terminals.items())]
    lines += ["}", "", "RULES = ("]
    lines += [f"    ({name!r}, {tuple(symbols)!r})," for name, symbols in rules]
    lines += [")", ""]
    return "\n".join(lines)
