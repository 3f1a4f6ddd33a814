"""The two readings of a log held to each other: the fast line reader's and the grammar's."""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from referee.log import parser
from referee.log.events import Play, Span


def spans(value, where: str = "") -> list[tuple[str, Span]]:
    """Every span inside an event (lazy ones are built by reading them), with its path."""
    out: list[tuple[str, Span]] = []
    if isinstance(value, Span):
        out.append((where, value))
    elif isinstance(value, Play):  # a tuple whose spans are found when asked for
        out += [(f"{where}.span", value.span), (f"{where}.card_span", value.card_span)]
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            out.extend(spans(item, f"{where}[{index}]"))
    elif is_dataclass(value):
        for f in fields(value):
            if not f.name.startswith("_"):
                out.extend(spans(getattr(value, f.name), f"{where}.{f.name}"))
    return out


def assert_same_reading(text: str) -> parser.ParseResult:
    """The fast line reader and the grammar read ``text`` alike: the same events, spans and
    issues; the fast reading is returned."""
    fast = parser._parse(text)
    slow = parser._parse(text, fast_lines=False)
    assert fast.issues == slow.issues, text
    assert fast.events == slow.events, text
    assert [type(e) for e in fast.events] == [type(e) for e in slow.events]
    assert spans(fast.events) == spans(slow.events), text
    return fast
