"""`referee report` of a log of many short hands: past the drawn hands, a hand's view is made
again whenever the page reads it (referee.output.game_view.GameView.page), the chart's points
and the running totals as they are written, so memory grows with the summaries the check
keeps, not with a view of every hand; the page is the one the whole view gives."""

from __future__ import annotations

from peak_memory import growth, run_measured

import pytest

from referee.log.parser import parse_text
from referee.output import game_view as view_module
from referee.output.html import render_html
from whole_view import game_view, referee_game, report_html

pytestmark = pytest.mark.slow  # peak memory of child processes on logs of several megabytes

NAMES = ("Al", "Beth", "Charlie", "Dave", "Eve", "Fay")
HEAD = '[Players "Al Beth Charlie Dave Eve Fay"]\n\n'


def _bare_hands(count: int) -> str:
    """``count`` hand lines and nothing else, dealt in turn, passing left and right."""
    return HEAD + "".join(f"hand {n} dealer {NAMES[n % 6]} pass {'left' if n % 2 else 'right'}\n"
                          for n in range(1, count + 1))


def _sheet(count: int, wrong_total_in: int) -> str:
    """A scoresheet of ``count`` hands, Fay taking 26 a hand, with Al's total wrong in hand
    ``wrong_total_in``."""
    lines = [HEAD]
    for n in range(1, count + 1):
        al = 5 if n == wrong_total_in else 0
        lines.append(f"hand {n}\nscore: Al 0, Beth 0, Charlie 0, Dave 0, Eve 0, Fay 26\n"
                     f"total: Al {al}, Beth 0, Charlie 0, Dave 0, Eve 0, Fay {26 * n}\n\n")
    return "".join(lines)


def _page_and_whole(tmp_path, text: str) -> tuple[str, str, str]:
    path = tmp_path / "game.log"
    path.write_text(text, "utf-8")
    page, verdict = report_html(path.read_bytes(), str(path), base_dir=tmp_path)
    parsed = parse_text(text)
    whole = game_view(*referee_game(parsed, str(path), base_dir=tmp_path), parsed)
    return page, render_html(whole), verdict


def test_every_bare_hand_is_on_the_page_as_the_whole_view_shows_it(tmp_path, monkeypatch):
    monkeypatch.setattr(view_module, "MAX_DRAWN_HANDS", 2)
    page, whole, verdict = _page_and_whole(tmp_path, _bare_hands(9))
    assert verdict == "clean"
    assert page == whole
    assert page.count('<section class="hand"') == 9  # none dropped
    assert page.count("Not drawn: the page draws the first") == 7
    assert "9 hands" in page


def test_a_late_hand_that_marks_a_finding_keeps_its_mark(tmp_path, monkeypatch):
    # hands 3-6 are past the drawn ones; hand 5's written total is wrong and marked there
    monkeypatch.setattr(view_module, "MAX_DRAWN_HANDS", 2)
    page, whole, verdict = _page_and_whole(tmp_path, _sheet(6, wrong_total_in=5))
    assert verdict == "violations"
    assert page == whole
    assert page.count('class="mark" href="#d1"') >= 2  # on the entry, and the finding's own
    assert '<h3>Findings in hand 5</h3>' in page
    assert page.count('data-hand="5"') == 3  # its section, its score row, its total row
    assert page.count("<circle ") == 6 * 6  # the chart: every player after every hand


MEASURED = """
import sys
from referee.output.html import report_main
raise SystemExit(report_main(sys.argv[1], "/dev/null"))
"""


def test_peak_memory_of_the_report_of_bare_hands_grows_with_the_summaries(tmp_path):
    # a view of each hand held (and a list of its totals): about 40 MB of memory per MB of
    # log; the later hands' views made as the page reads them: about 5 (the summaries the
    # check keeps, as `referee check` of the same log)
    sizes, peaks, slope = growth(tmp_path, _bare_hands, (2_000, 12_000),
                                 lambda path: run_measured(MEASURED, str(path),
                                                           check=False).peak_mb)
    assert sizes[1] - sizes[0] > 0.3  # far enough apart for the growth to stand out
    assert slope < 12, (sizes, peaks)
