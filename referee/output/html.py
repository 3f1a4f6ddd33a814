"""This module makes ``referee report``: one self-contained HTML page of a game (inline CSS and
SVG, no script, nothing fetched): it renders the view model of :mod:`referee.output.game_view`
through a Jinja2 template with autoescaping on, whose own texts are translated as the
diagnostics are.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import lru_cache
from gettext import NullTranslations
from importlib import resources
from pathlib import Path
from typing import IO

from markupsafe import Markup, escape

from referee import __version__
from referee.judge.codes import NOTE
from referee.log.decode import UnreadableLog
from referee.log.parser import log_text
from referee.output import game_view
from referee.output.game_view import MAX_DRAWN_HANDS, Reread
from referee.output.render import localized, reason_in, verdict_text
from referee.rules.cards import SUIT_LETTERS, SUIT_SYMBOLS
from referee.rules.rulebook import clause_quote
from referee.rules.ruleset import Ruleset
from referee.util import i18n
from referee.util.files import RefusedWrite, same_file, write_parts
from referee.util.i18n import N_, SOURCE_LANGUAGE
from referee.util.message import msg
from referee.util.reading import UnreadableFile, read_input
from referee.util.terminal import escaped

TEMPLATE = "report.html.j2"
RED_SUITS = frozenset("HD")
# distinguishable colours for up to 11 players (a series past them reuses the palette)
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22", "#393b79")
# the drawing's own units: its labels (16 units) stay at least 12 px tall on a phone 370 px
# wide; the legend is text beside it
CHART_WIDTH, CHART_HEIGHT = 480, 280
_MARGIN = {"left": 48, "right": 12, "top": 14, "bottom": 48}
# a suit symbol's spoken name (its aria-label), by letter
SUIT_WORDS = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}


def face(text: str, language: str = SOURCE_LANGUAGE) -> dict:
    """Tell how a card is drawn: ``10H`` -> rank 10, the heart symbol, red."""
    rank, suit = text[:-1], text[-1:]
    index = SUIT_LETTERS.find(suit)
    return {"rank": rank, "symbol": SUIT_SYMBOLS[index] if index >= 0 else suit,
            "suit_name": i18n.translate(SUIT_WORDS[suit], language) if index >= 0 else suit,
            "colour": "red" if suit in RED_SUITS else "black"}


def chart(game: dict) -> dict | None:
    """Place the running totals as SVG coordinates: one series per player over the hands whose
    totals the referee knows, made again at each reading of the page."""
    rows = Reread(lambda: (row for row in game["totals"] if row["totals"]))
    count, low, high, last = 0, 0, 1, {}
    for row in rows:
        count += 1
        values = row["totals"]
        low, high = min(low, *values.values()), max(high, *values.values())
        last.update(values)
    if not count or not game["players"]:
        return None
    left, top = _MARGIN["left"], _MARGIN["top"]
    right, bottom = CHART_WIDTH - _MARGIN["right"], CHART_HEIGHT - _MARGIN["bottom"]
    step = _nice_step(-(-(high - low) // 5))  # in integers: a written total may be huge
    low, high = step * (low // step), step * -(-high // step)

    def x(index: int) -> float:
        return round(left + (right - left) * (index + 0.5) / count, 1)

    def y(value: int) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    def points(name: str) -> Iterator[dict]:
        for index, row in enumerate(rows):
            if name in row["totals"]:
                value = row["totals"][name]
                yield {"x": x(index), "y": y(value), "value": value, "hand": row["hand"]}

    series = [{"name": name, "colour": PALETTE[seat % len(PALETTE)],
               "points": Reread(points, name), "last": last.get(name, "?")}
              for seat, name in enumerate(game["players"])]
    label_every = -(-count // 12)
    return {"width": CHART_WIDTH, "height": CHART_HEIGHT, "left": left, "right": right,
            "top": top, "bottom": bottom, "series": series,
            "y_ticks": [{"value": v, "y": y(v)} for v in range(int(low), int(high) + 1, step)],
            "x_ticks": [{"x": x(i), "label": row["hand"]} for i, row in enumerate(rows)
                        if i % label_every == 0]}


def _nice_step(raw: int) -> int:
    step = 1
    while step < raw:
        for factor in (2, 5, 10):
            if step * factor >= raw or factor == 10:
                step *= factor
                break
    return step


def _shown(value):
    """Show text from the log as the text output shows it: controls and invisible format
    characters (bidirectional overrides reorder what a reader sees) as escapes."""
    return escaped(value) if isinstance(value, str) and not isinstance(value, Markup) else value


def _filled(template: str, english: str, args: dict):
    """Fill ``template`` (a translation of ``english``) with ``args`` as markup: escape the
    template's text and every argument that is not already markup."""
    safe = {name: _shown(value) for name, value in args.items()}
    try:
        return Markup(escape(template)).format_map(safe)
    except (KeyError, IndexError, ValueError):  # a translation with the wrong placeholders
        return Markup(escape(english)).format_map(safe)


_ENGLISH = NullTranslations()  # the source language's catalog: each text is its own


def speakers(language: str):
    """Make the template's ``msg`` and ``msgn``: its fixed texts in ``language``, as
    markup.  Each call looks the catalog up, so a template kept by :func:`template` speaks
    the catalog of the moment, not the one it was made with."""

    def catalog() -> NullTranslations:
        return _ENGLISH if language == SOURCE_LANGUAGE else i18n.catalog(language)

    def say(template: str, /, **args):
        return _filled(catalog().gettext(template), template, args)

    def say_n(singular: str, plural: str, count: int, /, **args):
        return _filled(catalog().ngettext(singular, plural, count),
                       singular if count == 1 else plural, args)

    return say, say_n


@lru_cache(maxsize=4 * len(i18n.LANGUAGES))  # the report, serve's page and problem page
def template(name: str, language: str = SOURCE_LANGUAGE, package: str = "referee.output"):
    """Load the Jinja2 template ``name`` of ``package``'s templates, autoescaped, its own texts in
    ``language`` and the log's text shown as the text output shows it."""
    from jinja2 import Environment, StrictUndefined

    env = Environment(autoescape=True, undefined=StrictUndefined, finalize=_shown)
    env.filters["face"] = lambda text: face(text, language)
    env.globals["msg"], env.globals["msgn"] = speakers(language)
    source = resources.files(package).joinpath("templates", name).read_text("utf-8")
    return env.from_string(source)


def render_html(game: dict, language: str = SOURCE_LANGUAGE) -> str:
    """Render the page of a game's view model, in ``language``."""
    return "".join(page_parts(game, language))


def page_parts(game: dict, language: str = SOURCE_LANGUAGE) -> Iterator[str]:
    """Render as :func:`render_html` does, a part at a time, for a writer that does not hold the
    page."""
    # each with its kind's explanation and its clause in ``language``
    diagnostics = [{**d, "summary": i18n.translate(d["summary"], language),
                    "why": i18n.translate(d["why"], language),
                    "clause": clause_quote(d["clause"]["id"], language)}
                   for d in game["diagnostics"]]
    # of the hands (maybe many, read again for the page), those that have a finding, and
    # those whose setup has a mark
    wanted = {d["shown_in_hand"] for d in diagnostics}
    hands, flagged = set(), set()
    for hand in game["hands"]:
        if hand["number"] in wanted:
            hands.add(hand["number"])
        if any(row["marks"] or any(c["marks"] for c in row["cards"]) for row in hand["setup"]):
            flagged.add(hand["number"])
    by_hand: dict[int, list[dict]] = {}
    for diag in diagnostics:
        if diag["shown_in_hand"] in hands:
            by_hand.setdefault(diag["shown_in_hand"], []).append(diag)
    general = [d for d in diagnostics if d["shown_in_hand"] not in hands]
    count = sum(d["severity"] != NOTE for d in diagnostics) + sum(game["suppressed"].values())
    verdict = verdict_text(game["verdict"], count, language)
    return template(TEMPLATE, language).generate(
        game=game, diag={d["id"]: d for d in diagnostics}, general=general,
        findings_by_hand=by_hand, verdict_text=verdict, chart=chart(game),
        setup_flagged=flagged, version=__version__, max_drawn=MAX_DRAWN_HANDS,
        language=language)


def report_view(data: bytes, path: str, *, base_dir: Path | None = None,
                ruleset: Ruleset | None = None, allowed_dirs: tuple = (),
                language: str = SOURCE_LANGUAGE) -> tuple[dict, str]:
    """Return (the view of a log's bytes for :func:`render_html`, the verdict); raise
    ``UnreadableLog`` for bytes that are not a log at all."""
    # read a block at a time: what the page shows of the hands is kept as the check goes
    report, trace, kept = game_view.referee_game(log_text(data), path, base_dir=base_dir,
                                                 ruleset=ruleset, allowed_dirs=allowed_dirs)
    return game_view.GameView(localized(report, language), trace, kept).page(), report.verdict


def report_main(path: str, output: str, *, ruleset: Ruleset | None = None,
                allowed_dirs: tuple = (), stream: IO[str] | None = None,
                language: str = SOURCE_LANGUAGE) -> int:
    """Write the report page of ``path`` to ``output`` (``-``: standard output).  Return the
    exit code: 0 clean, 1 violations, 2 when the input is not a log or the page cannot be
    written."""
    err = sys.stderr if stream is None else stream
    try:
        view, verdict = report_view(read_input(path), path,
                                    base_dir=None if path == "-" else Path(path).parent,
                                    ruleset=ruleset, allowed_dirs=allowed_dirs,
                                    language=language)
    except (UnreadableFile, UnreadableLog) as problem:
        place = f"{getattr(problem, 'line', 1)}:{getattr(problem, 'column', 1)}"
        print(escaped(f"{path}:{place}: {reason_in(problem, language)}"), file=err)
        return 2
    # written a part at a time, the page (megabytes for a long game) is never held whole
    if output == "-":
        sys.stdout.writelines(page_parts(view, language))
        return 1 if verdict == "violations" else 0
    if path != "-" and same_file(path, output):
        print(escaped(f"referee: {output}: is the log itself; not overwritten"), file=err)
        return 2
    try:  # all or nothing: a kill or a failure half-way leaves the old file, or none
        write_parts(output, page_parts(view, language))
    except RefusedWrite as problem:
        print(escaped(f"referee: {problem}"), file=err)
        return 2
    except OSError as problem:
        print(escaped(f"referee: cannot write {output}: {problem.strerror or problem}"),
              file=err)
        return 2
    print(escaped(i18n.translate(msg("wrote the report to {path}", path=output), language)),
          file=err)
    return 1 if verdict == "violations" else 0


