"""The reader's fast path: the common statement lines, read without Lark's machinery.

Most lines of a log are ``trick``, ``deal`` and ``pass`` statements, which the grammar
(grammars/log.lark, rule ``start``) reads as two tokens: a HEAD (``trick 12:``) and a REST
that runs to the end of the line and over any blank lines after it.  For such lines Lark's
lexer and LALR parser cost more than building the event.  :class:`LineReader` reads them
with the grammar's own terminals, compiled from the loaded grammar rather than copied, in
one regular expression that is run over the text (``finditer``):

* at the start of a line, the HEAD and then the REST terminal of each rule
  ``NAME: X_HEAD Y_REST``, each matched once, as a lexer matches a token;
* the ``hand`` rule spelled with its word terminals (``HAND NUMBER [DEALER NAME] [PASS
  direction]``, blanks between them, the end of the line after them).

A line so matched is given, as the same values Lark would pass, to the same rule callback
(:mod:`referee.logbuild`), so it becomes the same event or the same problem.  The lines in
between are handed back untouched, a run at a time, to the Lark parser (``slow``): tags,
``moon`` lines, comments, indented lines, a REST that would start with ``#``, and every line
the terminals refuse.  Messages about malformed lines therefore still come from the
grammar, and a line is read here only if the grammar reads it the same way.

Why the tokens are the ones Lark's contextual lexer would produce: a line read here starts
with a letter, so at the start of a statement no terminal but a HEAD (or HAND) can match
it: tags start with ``[``, comments with ``#``, blanks and newlines are not letters, and the
keywords are whole words.  The HEAD terminals start with different keywords, and the two
that share one (TRICK_HEAD, COMPACT_HEAD) differ after the number (``:`` or a name), so at
most one matches, and Lark, like ``re``, takes the same match of it.  A HEAD ends with all
the blanks that follow it, so after it the only terminals the lexer may try are the rule's
REST and the ignored ``_WS`` (needs a blank: none is left) and ``_TRAILING_COMMENT`` (needs
a ``#``: such lines are left to Lark).  In a ``hand`` line each state of the parser allows
only terminals that start differently (DEALER, PASS or the end of the line; DIRECTION or
NUMBER), so there is one way to cut it, and an optional part is skipped only where its
keyword is absent.  tests/test_parser_fast.py checks that both readings give identical
events, spans and issues on the example logs, a synthetic corpus and fuzzed lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lark import Lark

from .logbody import BodyError
from .logbuild import hand_event

__all__ = ["LineReader"]

Slow = Callable[[int, int, int], None]  # (start, end, first line) of lines for Lark


class LineReader:
    """Reads the lines it can with the grammar's HEAD and REST terminals (see module doc)."""

    def __init__(self, lark: Lark, builder) -> None:
        def terminal(name: str, group: str | None = None) -> str:
            """The terminal's pattern, atomic (matched once, as a lexer matches a token), in a
            group named ``group`` or after the terminal."""
            return f"(?>(?P<{group or name}>{lark.get_terminal(name).pattern.to_regexp()}))"

        statements: list[str] = []
        callbacks: dict[str, object] = {}
        for rule in lark.rules:
            names = [symbol.name for symbol in rule.expansion]
            if len(names) == 2 and names[0].endswith("_HEAD") and names[1].endswith("_REST"):
                name = rule.origin.name
                head, rest = terminal(names[0], f"head_{name}"), terminal(names[1], f"rest_{name}")
                statements.append(f"{head}(?!#){rest}")  # a REST starting with '#': module doc
                callbacks[name] = getattr(type(builder), name).build
        # hand: HAND NUMBER [DEALER NAME] [PASS direction], direction: DIRECTION | NUMBER SIDE;
        # the words are separated by ignored blanks (_WS), and the line ends there.
        blanks = r"[^\S\n]*+"
        direction = (f"(?:{terminal('DIRECTION')}"
                     f"|{terminal('NUMBER', 'COUNT')}{blanks}{terminal('SIDE')})")
        statements.append(
            f"(?P<hand>{terminal('HAND')}{blanks}{terminal('NUMBER')}"
            f"(?:{blanks}{terminal('DEALER')}{blanks}{terminal('NAME')})?"
            f"(?:{blanks}{terminal('PASS')}{blanks}{direction})?{blanks}\n)")
        pattern = re.compile(f"(?m)^(?:{'|'.join(statements)})")  # at the start of a line
        self.lines = pattern.finditer
        # m.lastindex is the group that closed last: a statement's REST, or ``hand``
        groups = pattern.groupindex
        self.builds = {groups[f"rest_{name}"]: (groups[f"head_{name}"], build)
                       for name, build in callbacks.items()}
        self.hand = groups["hand"]
        self.builder = builder

    def _hand(self, m: re.Match, line: int, at: int) -> None:
        """A ``hand`` line: its words, as the grammar's callbacks would get them."""
        dealer = (m.group("NAME"), m.start("NAME") - at + 1) if m.start("NAME") >= 0 else None
        if m.start("DIRECTION") >= 0:
            words, first, last = m.group("DIRECTION"), "DIRECTION", "DIRECTION"
        elif m.start("COUNT") >= 0:
            words, first, last = f"{m.group('COUNT')} {m.group('SIDE')}", "COUNT", "SIDE"
        else:
            words = None
        direction = (words, m.start(first) - at + 1, m.end(last) - at + 1) if words else None
        self.builder.events.append(hand_event(
            line, 1, m.group("NUMBER"), m.end("NUMBER") - at + 1, dealer, direction))

    def read(self, text: str, start: int, end: int, line: int, slow: Slow) -> None:
        """Read the whole lines ``text[start:end]`` (the first is ``line``; the last ends with
        a newline), passing every run of lines not read here to ``slow`` in order."""
        builder, builds, hand = self.builder, self.builds, self.hand
        events = builder.events  # the parser's list (slow() swaps it only while it runs)
        pos = start
        for m in self.lines(text, start, end):
            at = m.start()
            if at != pos:  # lines in between: blank, or for Lark
                if not text[pos:at].isspace():
                    slow(pos, at, line)
                line += text.count("\n", pos, at)
            pos = m.end()
            group = m.lastindex
            if group == hand:
                self._hand(m, line, at)
                line += 1
                continue
            head_group, build = builds[group]
            head, rest = m.group(head_group, group)
            try:
                events.append(build(builder, line, 1, head, m.start(group) - at + 1, rest))
            except BodyError as err:
                builder.problem(line, err.column, err.end_column, err.message, err.hint)
            line += rest.count("\n")  # a REST ends with the newline and any blank lines after
        if pos < end and not text[pos:end].isspace():
            slow(pos, end, line)
