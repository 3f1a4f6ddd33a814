"""The view of a game from the whole file's parse: every hand record and finished trick kept
(:class:`WholeWatch`), the notes from the parse.  The tests hold the views the product makes
as it reads a log a block at a time equal to this one.  And the page of a log's bytes."""

from __future__ import annotations

from referee.judge.stream import Watch
from referee.judge.walk import judge_parsed
from referee.log.events import Comment, Tag
from referee.output import game_view as game_view_module
from referee.output.game_view import GameView, watched
from referee.output.html import render_html, report_view


class WholeWatch(Watch):
    """Every hand record and every finished trick of a check, in order."""

    def __init__(self) -> None:
        self.traced: list = []
        self.trace = self.traced  # the check appends each finished trick
        self.records: list = []

    def hand(self, record, summary) -> None:
        self.records.append(record)


def referee_game(parsed, path: str, **options):
    """(the report, every finished trick, every hand record) of a parsed log."""
    report, kept = watched(judge_parsed, parsed, path, lambda table: WholeWatch(), **options)
    return (report, [], []) if kept is None else (report, kept.traced, kept.records)


def game_view(report, trace, records, parsed=None) -> dict:
    """The whole game as plain data; the comments and tags shown are ``parsed``'s, else those
    kept with ``records``."""
    view = GameView(report, trace, records)
    if parsed is not None:
        notes = [e for e in parsed.events if isinstance(e, (Comment, Tag))]
        view.events = notes[:game_view_module.MAX_NOTES]
    return view.document(list(view.hands()))


def report_html(data: bytes, path: str, *, language: str = "en", **options) -> tuple[str, str]:
    """(the page of a log's bytes in ``language``, the verdict)."""
    view, verdict = report_view(data, path, language=language, **options)
    return render_html(view, language), verdict
