"""`referee serve` end to end: the server started as a scorer starts it (on 127.0.0.1 and a
free port), its page driven in headless Chromium as a scorer uses it, and a short load of
concurrent clients.  The expected places are those of the bundled examples' facts
(examples/logs/facts.toml); the whole load (50 clients for 30 s) is bench/serve_load.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytestmark = pytest.mark.slow  # a real server and headless Chromium

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from serve_load import load, start_server, stop_server  # noqa: E402
from chromium import PHONE, emulate  # noqa: E402

REVOKE = ROOT / "examples" / "logs" / "revoke.log"
SHEET = ROOT / "examples" / "logs" / "scoresheet-only.log"
HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def server():
    process, url = start_server()
    yield url
    stop_server(process)


def _wait(driver, condition, seconds: float = 15):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds).until(condition)


def _diagnostics(driver) -> list[dict]:
    return driver.execute_script("""
        return [...document.querySelectorAll('#diagnostics li[data-kind]')].map(li => ({
          kind: li.dataset.kind, line: li.dataset.line,
          marked: li.querySelector('mark') ? li.querySelector('mark').textContent : null,
          text: li.textContent}));""")


def test_a_log_typed_on_a_phone_shows_its_revoke_marked(browser, server):
    from selenium.webdriver.common.by import By

    emulate(browser, PHONE)
    try:
        browser.get(server)
        assert browser.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        lines = REVOKE.read_text("utf-8").splitlines(keepends=True)
        (trick,) = [n for n, line in enumerate(lines) if line.startswith("trick 1:")]
        box = browser.find_element(By.ID, "log")
        # the log as far as the revoke's trick pasted, that trick and the rest typed
        browser.execute_script("arguments[0].value = arguments[1]", box, "".join(lines[:trick]))
        box.send_keys("".join(lines[trick:trick + 2]))
        _wait(browser, lambda d: any(x["kind"] == "revoke" for x in _diagnostics(d)))
        (revoke,) = [x for x in _diagnostics(browser) if x["kind"] == "revoke"]
        assert (revoke["line"], revoke["marked"]) == ("21", "AD")  # Charlie's AD, line 21
        assert "Charlie played AD to a club lead" in revoke["text"]
        # its place selects the card in the text box
        browser.find_element(By.CSS_SELECTOR, '#diagnostics li[data-kind="revoke"] .place').click()
        assert browser.execute_script(
            "const b = arguments[0]; return b.value.slice(b.selectionStart, b.selectionEnd)",
            box) == "AD"
        # the report of what the box holds opens beside the page
        page = browser.current_window_handle
        browser.find_element(By.ID, "report").click()
        _wait(browser, lambda d: len(d.window_handles) == 2)
        browser.switch_to.window([h for h in browser.window_handles if h != page][0])
        _wait(browser, lambda d: d.title.startswith("Referee report"))
        card = browser.find_element(By.CSS_SELECTOR, '.card.violation[data-kind~="revoke"]')
        assert card.get_attribute("data-card") == "AD"
        browser.close()
        browser.switch_to.window(page)
        # another language: the page again in it, the log kept and checked again
        from selenium.webdriver.support.ui import Select

        Select(browser.find_element(By.ID, "lang")).select_by_value("it")
        _wait(browser, lambda d: d.title == "Controlla un registro di Cancellation Hearts")
        _wait(browser, lambda d: any(x["kind"] == "revoke" for x in _diagnostics(d)))
        (revoke,) = [x for x in _diagnostics(browser) if x["kind"] == "revoke"]
        assert "Charlie ha giocato AD su un'uscita a fiori" in revoke["text"]
        assert "riga 21, colonna 35" in revoke["text"]
    finally:
        emulate(browser, None)


def test_a_sheet_uploaded_is_checked_and_audited(browser, server, tmp_path):
    from selenium.webdriver.common.by import By

    # hand 2's scores add up to 53 once Al's 3 is written 4
    sheet = tmp_path / "sheet.log"
    sheet.write_text(SHEET.read_text("utf-8").replace("score: Al 3,", "score: Al 4,"), "utf-8")
    browser.get(server + "?lang=en")
    browser.find_element(By.ID, "file").send_keys(str(sheet))
    _wait(browser, lambda d: any(x["kind"] == "score-mismatch" for x in _diagnostics(d)))
    assert browser.find_element(By.ID, "log").get_attribute("value").startswith("# A club's")
    browser.find_element(By.ID, "audit").click()
    _wait(browser, lambda d: "change" in d.find_element(By.ID, "audit-text").text)
    assert "change Al's hand 2 score from 4 to 3" in browser.find_element(By.ID, "audit-text").text
    assert browser.find_element(By.ID, "audit-result").get_attribute("class") == "inconsistent"


def test_names_are_shown_as_text_and_nothing_runs(browser, server):
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    text = REVOKE.read_text("utf-8").replace(
        '[Players "Al Beth Charlie Dave Eve Fay"]', f"[Players \"Al Beth Charlie Dave Eve '{HOSTILE}'\"]")
    text = text.replace("Fay", f'"{HOSTILE}"').replace("Charlie AD", f'"{HOSTILE}" AD')
    browser.get(server)
    box = browser.find_element(By.ID, "log")
    browser.execute_script("arguments[0].value = arguments[1]", box, text)
    box.send_keys(" ")
    _wait(browser, lambda d: _diagnostics(d))
    assert any(HOSTILE in x["text"] for x in _diagnostics(browser))
    assert browser.execute_script("return document.images.length") == 0
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 - an alert would be there now


def test_a_short_load_is_answered_without_an_error(server):
    found = load(server, clients=10, seconds=2)
    assert found["errors"] == 0, found["first_errors"]
    assert found["requests"] >= 10
