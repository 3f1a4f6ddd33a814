"""`referee report`: the HTML page of a game, read as data and looked at in a real browser.

tests/data/dispute.log is a generated game with three faults written in by hand (its
opening comment says where); the expected places below are read off the log, not off the
referee.  The browser tests drive headless Chromium (Debian's `chromium` and
`chromium-driver`, which .ci/run installs) with selenium, in one session for the module;
they skip only where Chromium is not installed.  docs/make_report_picture.py makes README's
picture through the same functions.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from referee.cli import main
from referee.log.parser import parse_bytes
from referee.output.game_view import game_view, referee_game
from referee.output.html import report_html

ROOT = Path(__file__).resolve().parents[1]
DISPUTE = ROOT / "tests" / "data" / "dispute.log"
REVOKE = ROOT / "examples" / "logs" / "revoke.log"
CLEAN = ROOT / "examples" / "logs" / "clean-6-players.log"
HOSTILE_NAME = "<img src=x onerror=alert(1)>"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


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


def test_the_command_writes_the_page_and_exits_as_check_does(tmp_path, capsys):
    out = tmp_path / "report.html"
    assert main(["report", str(DISPUTE), "-o", str(out)]) == 1
    assert 'data-kind="revoke"' in out.read_text("utf-8")
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
def start_browser(width: int = 1280, height: int = 1000):
    """Headless Chromium driven by selenium, with the driver Debian installs (nothing is
    downloaded), logging the page's console."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


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
def browser():
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        pytest.skip("headless Chromium is not installed here (Debian: apt-get install chromium "
                    "chromium-driver; .ci/run installs both)")
    driver = start_browser()
    yield driver
    driver.quit()


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
