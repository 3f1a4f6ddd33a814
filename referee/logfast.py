"""The reader's fast path: the common statement lines, read without Lark's machinery.

Most lines of a log are ``trick``, ``deal`` and ``pass`` statements, which the grammar
(grammars/log.lark, rule ``start``) reads as two tokens: a HEAD (``trick 12:``) and a REST
that runs to the end of the line and over any blank lines after it.  For such lines Lark's
lexer and LALR parser cost more than building the event.  :class:`LineReader` reads them
with the grammar's own terminals, compiled from the loaded grammar rather than copied:

* the HEAD terminals of the rules ``NAME: X_HEAD Y_REST`` in one alternation, matched at
  the start of the line;
* then that rule's REST terminal, matched where the HEAD ends.

When both match, the line is given, as the same values Lark would have passed, to the same
rule callback (:meth:`referee.logbuild.EventBuilder.add`), so it becomes the same event or
the same problem.  Every other line is handed back untouched, with its neighbours, to the
Lark parser (``slow``): tags, ``hand`` and ``moon`` lines, comments, indented lines, lines
with a ``#`` anywhere, lines the terminals refuse.  Messages about malformed lines therefore
still come from the grammar, and a line is read here only if the grammar reads it so.

Why the tokens are the ones Lark's contextual lexer would produce: a line read here starts
with a letter, so at the start of a statement no terminal but a HEAD can match it (tags
start with ``[``, comments with ``#``, blanks and newlines are not letters, and ``hand`` and
``moon`` are other keywords, whole words); the HEAD terminals start with different keywords,
and the two that share one (TRICK_HEAD, COMPACT_HEAD) differ after the number (``:`` or a
name), so at most one matches, and Lark, like ``re``, takes the same match of it.  A HEAD
ends with all the blanks that follow it, so after it the only terminals the lexer tries are
the rule's REST and the ignored ``_WS`` (needs a blank: none left) and
``_TRAILING_COMMENT`` (needs a ``#``: not on lines read here).  tests/test_parser_fast.py
checks that both paths give identical events, spans and issues on the example logs, the
corpus and fuzzed lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lark import Lark, Token

__all__ = ["LineReader"]

Slow = Callable[[int, int, int], None]  # (start, end, first line) of lines for Lark


class LineReader:
    """Reads the lines it can with the grammar's HEAD and REST terminals (see module doc)."""

    def __init__(self, lark: Lark, builder) -> None:
        def terminal(name: str) -> str:  # atomic: matched once, as Lark's lexer matches it
            return f"(?>{lark.get_terminal(name).pattern.to_regexp()})"

        heads: list[str] = []
        self.rests: dict[str, tuple] = {}
        for rule in lark.rules:
            names = [symbol.name for symbol in rule.expansion]
            if len(names) == 2 and names[0].endswith("_HEAD") and names[1].endswith("_REST"):
                head, rest = names
                callback = getattr(type(builder), rule.origin.name)
                pattern = re.compile(lark.get_terminal(rest).pattern.to_regexp())
                self.rests[head] = (pattern.match, callback.build)
                heads.append(f"(?P<{head}>{lark.get_terminal(head).pattern.to_regexp()})")
        # hand: HAND NUMBER [DEALER NAME] [PASS direction], direction: DIRECTION | NUMBER SIDE;
        # the words are separated by ignored blanks (_WS), and the line ends there.
        blanks = r"[^\S\n]*+"
        direction = (f"(?:(?P<DIRECTION>{terminal('DIRECTION')})"
                     f"|(?P<COUNT>{terminal('NUMBER')}){blanks}(?P<SIDE>{terminal('SIDE')}))")
        heads.append(
            f"(?P<hand>(?P<HAND>{terminal('HAND')}){blanks}(?P<NUMBER>{terminal('NUMBER')})"
            f"(?:{blanks}(?P<DEALER>{terminal('DEALER')}){blanks}(?P<NAME>{terminal('NAME')}))?"
            f"(?:{blanks}(?P<PASS>{terminal('PASS')}){blanks}{direction})?{blanks}\n)")
        self.head = re.compile("|".join(heads))
        self.builder = builder

    def _hand(self, m: re.Match, line: int, pos: int) -> None:
        """A ``hand`` line, given to the grammar's callbacks as the tokens Lark would make."""
        def token(name: str, kind: str | None = None):
            if m.start(name) < 0:
                return None
            start, end = m.span(name)
            return Token(kind or name, m.group(name), start, line, start - pos + 1, line,
                         end - pos + 1, end)

        builder = self.builder
        direction = token("DIRECTION")
        if direction is not None:
            direction = builder.direction(direction)
        elif m.start("COUNT") >= 0:
            direction = builder.direction(token("COUNT", "NUMBER"), token("SIDE"))
        builder.hand(token("HAND"), token("NUMBER"), token("DEALER"), token("NAME"), token("PASS"),
                     direction)

    def read(self, text: str, start: int, end: int, line: int, slow: Slow) -> None:
        """Read the whole lines ``text[start:end]`` (the first is ``line``; the last ends with
        a newline), passing every run of lines not read here to ``slow`` in order."""
        find, count = text.find, text.count
        head_match, rests, add = self.head.match, self.rests, self.builder.add
        pending = -1  # where the lines not yet given to ``slow`` start
        pending_line = 0
        pos = start
        while pos < end:
            eol = find("\n", pos, end)
            if eol < 0:  # pragma: no cover - a segment always ends with a newline
                eol = end
            if text[pos] == "\n":  # a blank line: no statement, in either reading
                pos += 1
                line += 1
                continue
            m = head_match(text, pos, end) if find("#", pos, eol) < 0 else None
            if m is not None and m.lastgroup == "hand":
                if pending >= 0:
                    slow(pending, pos, pending_line)
                    pending = -1
                self._hand(m, line, pos)
                pos = eol + 1
                line += 1
                continue
            if m is not None:
                rest_match, build = rests[m.lastgroup]
                rest_at = m.end()
                r = rest_match(text, rest_at, end)
                if r is not None:  # a REST always ends with the line's newline (+ blank lines)
                    if pending >= 0:
                        slow(pending, pos, pending_line)
                        pending = -1
                    add(build, line, 1, m.group(), rest_at - pos + 1, r.group())
                    after = r.end()
                    line += 1 if after == eol + 1 else count("\n", rest_at, after)
                    pos = after
                    continue
            if pending < 0 and not text[pos:eol].isspace():  # blank lines alone need no Lark
                pending, pending_line = pos, line
            pos = eol + 1
            line += 1
        if pending >= 0:
            slow(pending, end, pending_line)
