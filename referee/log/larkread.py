"""Lark's reading of the lines the fast line reader leaves, resuming after bad lines.

The process-wide LALR parser is driven with callbacks bound to one parse's builder, so that
parses in several threads never meet.  After a rejected line, parsing restarts at the next line
in the same string: the cost of an error is the cost of its line.  Relies on Lark >= 1.2
(``TextSlice``) and on the callbacks of a parse living in its ``ParseConf``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from referee.log.build import EventBuilder

if TYPE_CHECKING:
    from lark import Lark
    from lark.parsers.lalr_parser_state import ParseConf

    from referee.log.events import Event
    from referee.log.fast import LineReader

__all__ = ["LarkLines", "callbacks_maker"]

START = "start"  # the grammar's entry point for whole logs


def callbacks_maker(lark: Lark) -> Callable[[EventBuilder], ParseConf]:
    """A function that gives the parse configuration of ``lark``'s ``start`` rule with the rule
    callbacks of a builder, for one parse instead of for the parser's lifetime."""
    from lark.parsers.lalr_parser_state import ParseConf

    table = lark.parse_interactive("", start=START).parser_state.parse_conf.parse_table
    tree_builder = lark._parse_tree_builder  # how Lark itself binds a transformer's methods

    def configuration(builder: EventBuilder) -> ParseConf:
        return ParseConf(table, tree_builder.create_callback(builder), START)

    return configuration


class LarkLines:
    """Reads runs of whole lines with Lark into ``builder`` (one parse's)."""

    def __init__(self, lark: Lark, configuration: ParseConf, builder: EventBuilder,
                 reader: LineReader) -> None:
        self.lark = lark
        self.configuration = configuration
        self.builder = builder
        self.reader = reader  # the parse's line reader: it reads the repairs of a bad line

    def read(self, text: str, start: int, end: int, line: int) -> None:
        """Parse text[start:end] (whole lines, the first is ``line``), resuming after bad lines."""
        from lark.exceptions import UnexpectedInput

        while start < end:
            try:
                self._parse(text, start, end, line)
                return
            except UnexpectedInput as err:
                pos, line = _where(err, text, start, end, line)
                self._flush(err, line)
            line_start = max(text.rfind("\n", start, pos) + 1, start)
            line_end = text.find("\n", pos, end)
            line_end = end if line_end < 0 else line_end
            self._bad_line(text[line_start:line_end], line)
            start = line_end + 1
            line += 1

    def _parse(self, text: str, start: int, end: int, line: int) -> None:
        from lark.lexer import LexerState, LineCounter
        from lark.utils import TextSlice

        parser = self.lark.parse_interactive("", start=START)
        parser.parser_state.parse_conf = self.configuration
        counter = LineCounter("\n")
        counter.char_pos = counter.line_start_pos = start
        counter.line = line
        parser.lexer_thread.state = LexerState(TextSlice(text, start, end), counter)
        parser.resume_parse()

    def _flush(self, err, line: int) -> None:
        """Finish the statement before the bad line (the parser holds it until it sees the
        next token) and drop anything of the bad line that finishing may have produced."""
        from lark.exceptions import UnexpectedInput

        parser = getattr(err, "interactive_parser", None)
        if parser is not None:
            try:
                parser.feed_eof()
            except UnexpectedInput:
                pass
        events = self.builder.events
        while events and events[-1].span.line >= line:
            events.pop()

    def _bad_line(self, line_text: str, line: int) -> None:
        from referee.log.errors import diagnose

        column, end, message, hint = diagnose(self.lark, line_text, self.reread)
        self.builder.problem(line, column, end, message, hint)

    def reread(self, line_text: str) -> Event | None:
        """The one event a line (a repair of a bad one) reads as with the line reader, or None: a
        line left to Lark shows no repair rather than a doubtful one."""
        builder = EventBuilder(self.reader.terminals, 1_000)
        text = line_text + "\n"
        left: list[int] = []
        self.reader.read(text, 0, len(text), 1, builder, lambda start, end, line: left.append(start))
        events = builder.events
        return events[0] if len(events) == 1 and not builder.problems and not left else None


def _where(err, text: str, start: int, end: int, line: int) -> tuple[int, int]:
    """Where in ``text`` the parser gave up, and on which line."""
    from lark.exceptions import UnexpectedCharacters

    if isinstance(err, UnexpectedCharacters):
        return err.pos_in_stream, err.line
    if err.token.type == "$END":
        return end - 1, text.count("\n", start, end - 1) + line
    return err.token.start_pos, err.token.line
