"""`referee report`: the HTML page of a game, read as data and looked at in a real browser.

tests/data/dispute.log is a generated game with three faults written in by hand (its
opening comment says where); the expected places below are read off the log, not off the
referee; tests/data/table-10.log is a generated table of ten with one revoke (its opening
comment says where).  The browser tests drive headless Chromium (Debian's `chromium` and
`chromium-driver`, which .ci/run installs) with selenium, in one browser for the module, at
a desktop's size and at a phone's (390 x 844, as a device: Chromium's windows are wider);
they skip only where Chromium is not installed.  docs/make_report_picture.py makes the
pictures in docs/ through the same functions.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from chromium import DESKTOP, PHONE, emulate

from referee.cli import main
from referee.log.parser import parse_bytes
from whole_view import game_view, referee_game, report_html

ROOT = Path(__file__).resolve().parents[1]
DISPUTE = ROOT / "tests" / "data" / "dispute.log"
REVOKE = ROOT / "examples" / "logs" / "revoke.log"
CLEAN = ROOT / "examples" / "logs" / "clean-6-players.log"
HOSTILE_NAME = "<img src=x onerror=alert(1)>"


def hostile_log() -> str:
    """revoke.log with Fay renamed to a name that is markup."""
    text = REVOKE.read_text("utf-8")
    text = text.replace('[Players "Al Beth Charlie Dave Eve Fay"]',
                        f"[Players \"Al Beth Charlie Dave Eve '{HOSTILE_NAME}'\"]")
    return text.replace("Fay", f'"{HOSTILE_NAME}"')


def view_of(path: Path) -> dict:
    data = path.read_bytes()
    parsed = parse_bytes(data)
    report, trace, records = referee_game(parsed, str(path))
    return game_view(report, trace, records, parsed)


def write_page(log: Path, page: Path) -> Path:
    html, _ = report_html(log.read_bytes(), str(log))
    page.write_text(html, encoding="utf-8")
    return page


# ---- the view model: each fault on the element it concerns ------------------------------
def _trick(view: dict, hand: int, trick: int) -> dict:
    return next(t for t in view["hands"][hand - 1]["tricks"] if t.get("number") == trick)


def _diag(view: dict, kind: str) -> dict:
    (found,) = [d for d in view["diagnostics"] if d["kind"] == kind]
    return found


def test_each_fault_is_marked_on_its_card_claim_or_entry():
    view = view_of(DISPUTE)
    assert view["verdict"] == "violations"
    revoke, claim, score = (_diag(view, k) for k in
                            ("revoke", "miscounted-cancellation", "score-mismatch"))
    # hand 2 trick 9 (line 66): Eve leads JS, Al discards 8H while holding 6S (dealt line 45)
    marked = [p for p in _trick(view, 2, 9)["plays"] if revoke["id"] in p["marks"]]
    assert [(p["player"], p["card"], p["line"], p["column"]) for p in marked] == [
        ("Al", "8H", 66, 29)]
    assert revoke["clause"]["id"] == "R5.2" and "led suit" in revoke["clause"]["text"]
    # hand 2 trick 1 (line 58): claimed for Fay, whose 3S cancelled with Al's; Beth's 8S wins
    first = _trick(view, 2, 1)
    assert first["claim"]["player"] == "Fay" and claim["id"] in first["claim"]["marks"]
    assert first["winner"] == "Beth" and sorted(first["cancelled"]) == ["3S", "7S"]
    assert [p["card"] for p in first["plays"] if p["cancelled"]] == ["3S", "3S", "7S", "7S"]
    assert [p["player"] for p in first["plays"] if p["wins"]] == ["Beth"]
    # hand 3 (line 109): Charlie's score is written as 30; he took 32
    sheet = view["hands"][2]["sheet"]
    assert sheet["score"]["cells"]["Charlie"]["value"] == 30
    assert sheet["score"]["cells"]["Charlie"]["marks"] == [score["id"]]
    assert sheet["points"]["Charlie"] == 32
    assert all(d["marked"] for d in view["diagnostics"])
    others = [p for h in view["hands"] for t in h["tricks"] for p in t.get("plays", ())
              if p["marks"]]
    assert len(others) == 1  # nothing else is marked as a fault


def test_set_aside_cards_and_the_kitty_are_followed_to_who_took_them():
    view = view_of(DISPUTE)
    hand = view["hands"][0]
    # trick 1 of hand 1 (line 24): the 2D, 3D and 4D pairs all cancel: set aside with the
    # kitty (3S 3C, line 17); trick 2: the 6S and 5S pairs cancel, Beth's 4S takes it all
    first, second = _trick(view, 1, 1), _trick(view, 1, 2)
    assert first["set_aside"] and first["winner"] is None and len(first["pile"]) == 8
    assert second["winner"] == "Beth"
    assert second["takes"] == {"tricks": [1], "kitty": True, "cards": 8}
    assert hand["kitty"] == {"cards": ["3S", "3C"], "taken_by": "Beth", "trick": 2, "joined": 1}


def test_the_page_is_self_contained_and_escapes_what_the_log_says(tmp_path):
    html, verdict = report_html(DISPUTE.read_bytes(), str(DISPUTE))
    assert verdict == "violations"
    assert not re.search(r"https?://", html)
    assert not re.search(r"<(script|link|iframe|img|object)\b", html, re.IGNORECASE)
    assert "<svg" in html and "<style>" in html
    hostile, _ = report_html(hostile_log().encode(), "hostile.log")
    assert HOSTILE_NAME not in hostile
    assert "&lt;img src=x onerror=alert(1)&gt;" in hostile
    assert "<img" not in hostile


def test_the_footer_names_the_rules_as_players_know_them():
    html, _ = report_html(DISPUTE.read_bytes(), str(DISPUTE))
    footer = html[html.index("<footer"):]
    assert "Cancellation Hearts rules" in footer and "<code>referee explain R5.2</code>" in footer
    assert "spec/rules.md" not in html
    italian, _ = report_html(DISPUTE.read_bytes(), str(DISPUTE), language="it")
    assert "delle regole di Cancellation Hearts" in italian[italian.index("<footer"):]


def test_each_clause_is_quoted_in_the_readers_language():
    english, _ = report_html(DISPUTE.read_bytes(), str(DISPUTE))
    assert '<span class="title">Follow suit.</span>' in english
    italian, _ = report_html(DISPUTE.read_bytes(), str(DISPUTE), language="it")
    # R5.2 as spec/rules.it.md words it, and no English clause left
    assert '<span class="title">Rispondere al seme.</span>Un giocatore deve giocare una carta' \
        ' del seme condotto se può.' in italian
    assert "Follow suit" not in italian and "**" not in italian


def test_points_lost_with_a_set_aside_last_trick_cite_their_rule():
    log = ROOT / "examples" / "corpus" / "009-cancellation-7p-set-aside-last.log"
    html, _ = report_html(log.read_bytes(), str(log))
    assert 'set aside, the last trick: 2 points lost <span class="rule">(R6.6)</span>' in html
    assert '2 points went to nobody. <span class="rule">(R6.6)</span>' in html


def test_the_command_writes_the_page_and_exits_as_check_does(tmp_path, capsys):
    out = tmp_path / "report.html"
    assert main(["report", str(DISPUTE), "-o", str(out)]) == 1
    assert 'data-kind="revoke"' in out.read_text("utf-8")
    assert capsys.readouterr() == ("", f"wrote the report to {out}\n")
    assert main(["report", str(DISPUTE), "-o", str(out), "--lang", "it"]) == 1
    assert capsys.readouterr().err == f"report scritto in {out}\n"
    assert main(["report", str(CLEAN), "-o", str(out)]) == 0
    binary = tmp_path / "game.log"
    binary.write_bytes(b"\x00\x01\x02")
    missing = tmp_path / "none.html"
    assert main(["report", str(binary), "-o", str(missing)]) == 2
    assert not missing.exists()
    assert f"{binary}:1:1:" in capsys.readouterr().err
    log = tmp_path / "copy.log"
    log.write_bytes(DISPUTE.read_bytes())
    assert main(["report", str(log), "-o", str(log)]) == 2  # never over the log itself
    assert log.read_bytes() == DISPUTE.read_bytes()


# ---- in a real browser -----------------------------------------------------------------------
def screenshot(driver, page: Path, png: Path, selector: str | None = None) -> Path:
    """A PNG of the page (whole, or the element ``selector``)."""
    from selenium.webdriver.common.by import By

    driver.get(page.as_uri())
    width = driver.get_window_size()["width"]
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(int(height) + 20, 8000))  # the whole page in view
    if selector is None:
        driver.save_screenshot(str(png))
    else:
        driver.find_element(By.CSS_SELECTOR, selector).screenshot(str(png))
    return png


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    hostile = folder / "hostile.log"
    hostile.write_text(hostile_log(), encoding="utf-8")
    return {name: write_page(log, folder / f"{name}.html")
            for name, log in (("dispute", DISPUTE), ("revoke", REVOKE), ("hostile", hostile))}


def _severe(driver) -> list:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def _marked_revoke(driver) -> dict:
    from selenium.webdriver.common.by import By

    (card,) = driver.find_elements(By.CSS_SELECTOR, '.card.violation[data-kind~="revoke"]')
    row = card.find_element(By.XPATH, "./ancestor::tr[1]")
    return {"card": card.get_attribute("data-card"), "player": card.get_attribute("data-player"),
            "hand": row.get_attribute("data-hand"), "trick": row.get_attribute("data-trick"),
            "text": card.text, "shown": card.is_displayed(),
            "link": card.find_element(By.CSS_SELECTOR, "a.mark").get_attribute("hash")}


@pytest.mark.slow
def test_in_the_browser(browser, pages, tmp_path):
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    browser.get(pages["dispute"].as_uri())
    assert browser.title == f"Referee report: {DISPUTE}"
    assert _severe(browser) == []
    # the revoke of hand 2 trick 9 is marked on Al's 8H in that trick, drawn as a red card
    revoke = _marked_revoke(browser)
    assert {k: revoke[k] for k in ("card", "player", "hand", "trick", "shown")} == {
        "card": "8H", "player": "Al", "hand": "2", "trick": "9", "shown": True}
    assert revoke["text"].startswith("8♥")
    finding = browser.find_element(By.CSS_SELECTOR, revoke["link"])
    assert "CH201 revoke" in finding.text and "R5.2" in finding.text
    assert "Follow suit" in finding.text  # the clause quoted
    colour = browser.execute_script(
        "return getComputedStyle(document.querySelector('.card[data-card=\"8H\"]')).color")
    assert colour == "rgb(192, 24, 43)"
    cancelled = browser.find_elements(By.CSS_SELECTOR, "tr#h2t1 .card.cancelled")
    assert sorted(c.get_attribute("data-card") for c in cancelled) == ["3S", "3S", "7S", "7S"]
    assert "line-through" in cancelled[0].value_of_css_property("text-decoration")
    wrong = browser.find_element(By.CSS_SELECTOR, 'td.value[data-kind="score-mismatch"]')
    assert wrong.get_attribute("data-player") == "Charlie"
    struck = browser.find_elements(By.CSS_SELECTOR, "table.sheet .wrong-value")
    assert [w.text for w in struck] == ["30"]  # the total that follows from it is not accused
    assert len(browser.find_elements(By.CSS_SELECTOR, ".chart svg polyline")) == 6

    # the bundled revoke (examples/logs/facts.toml): Charlie's AD in hand 1, trick 1
    browser.get(pages["revoke"].as_uri())
    assert _severe(browser) == []
    revoke = _marked_revoke(browser)
    assert (revoke["card"], revoke["player"], revoke["hand"], revoke["trick"]) == (
        "AD", "Charlie", "1", "1")

    # a player whose name is markup is shown as text, and nothing runs
    browser.get(pages["hostile"].as_uri())
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 - an alert would be there now
    assert browser.execute_script("return document.images.length") == 0
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "table.tricks th.player")]
    assert headers[:6] == ["Al", "Beth", "Charlie", "Dave", "Eve", HOSTILE_NAME]
    assert _severe(browser) == []

    shot = screenshot(browser, pages["dispute"], tmp_path / "report.png")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 50_000


# ---- on a phone and on a desktop -------------------------------------------------------------
TABLE_10 = ROOT / "tests" / "data" / "table-10.log"
# what would make a reader scroll sideways, squint or miss something, as the browser lays it out
LAYOUT_PROBLEMS = """
const width = window.innerWidth, problems = [];
const doc = document.documentElement;
if (doc.scrollWidth > width) problems.push(`the page is ${doc.scrollWidth} px wide`);
for (const box of document.querySelectorAll('.scroll'))
  if (box.scrollWidth > box.clientWidth + 1) problems.push(`a ${box.firstElementChild.className} table scrolls`);
for (const el of document.querySelectorAll('main *')) {
  const rect = el.getBoundingClientRect();
  if (!rect.width || !rect.height || el.closest('svg') && el.tagName !== 'text') continue;
  if (rect.left < -0.5 || rect.right > width + 0.5)
    problems.push(`${el.tagName}.${el.className.baseVal ?? el.className} at ${rect.left}..${rect.right}`);
  const label = getComputedStyle(el, '::before');  // the names a phone writes over the cards
  if (label.content !== 'none' && label.content !== '""' && parseFloat(label.fontSize) < 12)
    problems.push(`${el.tagName}::before ${label.content} at ${label.fontSize}`);
  const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  let size = parseFloat(getComputedStyle(el).fontSize);
  const svg = el.closest('svg');
  if (svg) size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  if (size < 12) problems.push(`${el.tagName} "${el.textContent.trim().slice(0, 20)}" at ${size.toFixed(1)} px`);
}
return problems;
"""


def _box(driver, element) -> dict:
    return driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};", element)


def _on_screen(driver, element) -> bool:
    """Whether ``element`` is wholly inside the viewport once scrolled to (vertically)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    box = _box(driver, element)
    width, height = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    return 0 <= box["left"] and box["right"] <= width and 0 <= box["top"] and box["bottom"] <= height


LONG_NAME = "Wolfgang-Amadeus-Mozart-of-the-Salzburg-Club"


@pytest.fixture(scope="module")
def layout_pages(pages, tmp_path_factory):
    folder = tmp_path_factory.mktemp("layout")
    long_names = folder / "long-names.log"  # a name wider than a phone's seat, with no space
    long_names.write_text(REVOKE.read_text("utf-8").replace("Fay", LONG_NAME), "utf-8")
    return {**pages, "table-10": write_page(TABLE_10, folder / "table-10.html"),
            "long-names": write_page(long_names, folder / "long-names.html")}


@pytest.mark.slow  # headless Chromium
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_page_fits_the_screen_and_reads_at_any_size(browser, layout_pages, size):
    from selenium.webdriver.common.by import By

    emulate(browser, size)
    try:
        for name in ("table-10", "dispute", "hostile", "long-names"):
            browser.get(layout_pages[name].as_uri())
            browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
            assert (name, browser.execute_script(LAYOUT_PROBLEMS)) == (name, [])
        # the table of ten: Ivo's revoke in hand 1 trick 1, his seat second from the right
        browser.get(layout_pages["table-10"].as_uri())
        revoke = _marked_revoke(browser)
        assert (revoke["card"], revoke["player"], revoke["trick"]) == ("QS", "Ivo", "1")
        card = browser.find_element(By.CSS_SELECTOR, '.card.violation[data-kind~="revoke"]')
        assert _on_screen(browser, card)
        row = browser.find_element(By.CSS_SELECTOR, "tr#h1t1")
        claim, answer = (row.find_element(By.CSS_SELECTOR, f"td.{cls}")
                         for cls in ("claim", "resolution"))
        assert _on_screen(browser, claim) and _on_screen(browser, answer)
        claim_box, answer_box = _box(browser, claim), _box(browser, answer)
        assert abs(claim_box["top"] - answer_box["top"]) < 1  # side by side
        assert claim_box["right"] <= answer_box["left"]
        # the hand's summary (its points) comes before its tricks
        hand = browser.find_element(By.CSS_SELECTOR, "#hand-1")
        points = hand.find_element(By.CSS_SELECTOR, "ul.points")
        assert points.text.split("\n")[:2] == ["Al 0", "Beth 5"]
        assert _box(browser, points)["bottom"] < _box(browser, row)["top"]
        # the score sheet's last player and the chart's legend are on screen
        (last,) = browser.find_elements(By.CSS_SELECTOR,
                                        'tr.total[data-hand="2"] td.value[data-player="Jo"]')
        assert last.text == "31" and _on_screen(browser, last)
        legend = browser.find_element(By.CSS_SELECTOR, '.chart .legend li[data-player="Jo"]')
        assert legend.text == "Jo (31)" and _on_screen(browser, legend)
        # a hand with no finding keeps its tricks folded under its summary, one tap away
        folded = browser.find_element(By.CSS_SELECTOR, "#hand-2 details.play")
        assert folded.get_attribute("open") is None
        folded.find_element(By.TAG_NAME, "summary").click()
        assert browser.find_element(By.CSS_SELECTOR, "tr#h2t10").is_displayed()
        assert browser.execute_script(LAYOUT_PROBLEMS) == []
    finally:
        emulate(browser, None)


@pytest.mark.slow  # headless Chromium
def test_a_trick_is_a_row_on_a_desktop_and_a_block_of_cards_on_a_phone(browser, layout_pages):
    from selenium.webdriver.common.by import By

    shapes = {}
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        emulate(browser, size)
        try:
            for page, trick in (("table-10", "h1t1"), ("dispute", "h2t1")):  # hands shown
                browser.get(layout_pages[page].as_uri())
                seats = browser.find_elements(By.CSS_SELECTOR, f"tr#{trick} td.seat")
                assert all(seat.is_displayed() for seat in seats)
                tops = [round(_box(browser, seat)["top"]) for seat in seats]
                shapes[label, page] = ([tops.count(top) for top in sorted(set(tops))],
                                       browser.execute_script(
                    "return getComputedStyle(document.querySelector('table.tricks thead'))"
                    ".display"))
        finally:
            emulate(browser, None)
    # on a phone, six players' cards in one row, ten in two rows of five
    assert shapes == {("phone", "table-10"): ([5, 5], "none"),
                      ("phone", "dispute"): ([6], "none"),
                      ("desktop", "table-10"): ([10], "table-header-group"),
                      ("desktop", "dispute"): ([6], "table-header-group")}


# ---- referee replay --format json: the same view model ------------------------------------
def test_replay_as_json_is_the_view_of_the_game(capsys):
    import json

    assert main(["replay", "--format", "json", str(DISPUTE)]) == 1
    game = json.loads(capsys.readouterr().out)
    assert (game["version"], game["ruleset"], game["verdict"]) == (1, "cancellation", "violations")
    assert game["players"] == ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]
    assert [len(hand["tricks"]) for hand in game["hands"]] == [17, 17, 17]
    trick = game["hands"][1]["tricks"][8]  # hand 2, trick 9 (line 66)
    assert [(p["player"], p["card"]) for p in trick["plays"]] == [
        ("Eve", "JS"), ("Fay", "5S"), ("Al", "8H"), ("Beth", "KS"), ("Charlie", "QS"),
        ("Dave", "10S")]
    assert (trick["leader"], trick["winner"], trick["points"], trick["claim"]["player"]) == (
        "Eve", "Beth", 14, "Beth")  # QS 13 and Al's 8H
    assert [d["kind"] for d in game["diagnostics"]] == [
        "miscounted-cancellation", "revoke", "score-mismatch"]
    assert game["totals"][-1]["totals"]["Charlie"] == 32


def test_replay_as_json_of_what_is_not_a_log(capsys, tmp_path):
    import json

    binary = tmp_path / "game.log"
    binary.write_bytes(b"\x00")
    assert main(["replay", "--format", "json", str(binary)]) == 2
    error = json.loads(capsys.readouterr().out)
    assert (error["path"], error["line"], error["column"]) == (str(binary), 1, 1)
    assert "binary" in error["error"]


# ---- hostile input: a page, a document or a diagnostic, never a traceback --------------------
HOSTILE = {
    "binary": bytes(range(256)) * 4,
    "nul": b'[Players "Ann\x00Bob"]\nhand 1\x00\n',
    "empty": b"",
    "wide": b"x" * 300_000 + b"\n",
    "outside": b'[Ruleset "../x.toml"]\n[Players "Ann Bob Cat Dan Eve Fay"]\n',
    "escape": b'[Players "Ann \x1b[31mBob Cat Dan Eve \xe2\x80\xaeFay"]\n'
              b"trick 1: Ann 2C -> \x1b]0;x\x07\n",
    "stray": b'[Players "Ann Bob Cat Dan Eve Fay"]\ntrick 3 Zed: 2C 2C 2C 2C 2C 2C 2C 2C\n'
             b"score: Ann 1, Ann 2, Q 3\ntotal: Bob 9\nwinner: Cat\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", [["report", "-o", "OUT"], ["replay", "--format", "json"],
                                     ["check", "--format", "sarif"],
                                     ["check", "--format", "github"]])
def test_hostile_logs_give_a_diagnostic_never_a_traceback(tmp_path, capsys, command, name):
    import json

    log = tmp_path / "logs" / f"{name}.log"
    log.parent.mkdir()
    log.write_bytes(HOSTILE[name])
    out_page = tmp_path / "page.html"
    args = [str(out_page) if part == "OUT" else part for part in command]
    code = main([*args, str(log)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and code in (1, 2)
    if command[0] == "report":
        if code == 2:
            assert re.search(r":\d+:\d+: ", err) and not out_page.exists()
        else:
            page = out_page.read_text("utf-8")
            assert not re.search(r"https?://|<script|[\x1b\u202e]", page)
    elif command[-1] in ("json", "sarif"):
        json.loads(out)
    else:
        assert all(line.startswith("::") for line in out.splitlines())
        assert "\x1b" not in out


def test_hands_past_the_drawn_ones_are_on_the_score_sheet_only(monkeypatch):
    from referee.output import game_view as module

    monkeypatch.setattr(module, "MAX_DRAWN_HANDS", 1)
    view = view_of(DISPUTE)
    assert [(h["number"], h["drawn"], len(h["tricks"])) for h in view["hands"]] == [
        (1, True, 17), (2, False, 0), (3, False, 0)]
    assert view["hands"][2]["sheet"]["score"]["cells"]["Charlie"]["value"] == 30
    revoke = _diag(view, "revoke")
    assert not revoke["marked"] and revoke["shown_in_hand"] == 2
