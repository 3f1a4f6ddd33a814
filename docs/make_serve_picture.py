"""Write docs/serve-phone.png, docs/serve.md's picture: ``referee serve``'s page on a phone
390 px wide with tests/data/dispute.log in it and its diagnostics listed, taken in headless
Chromium through the tests' own functions (bench/serve_load.py's ``start_server``,
tests/chromium.py's ``start_browser`` and ``emulate``).

    python docs/make_serve_picture.py        # needs chromium, chromium-driver, referee[serve]
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from serve_load import start_server, stop_server
    from chromium import PHONE, emulate, start_browser
    from test_report_html import DISPUTE

    process, url = start_server()
    driver = start_browser()
    try:
        emulate(driver, PHONE, scale=2)
        driver.get(url + "?lang=en")
        box = driver.find_element(By.ID, "log")
        driver.execute_script("arguments[0].value = arguments[1]", box,
                              DISPUTE.read_text("utf-8"))
        box.send_keys(" ")
        WebDriverWait(driver, 20).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#diagnostics li")) == 3)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": PHONE[0], "height": height, "scale": 1}})
        (ROOT / "docs" / "serve-phone.png").write_bytes(base64.b64decode(shot["data"]))
    finally:
        driver.quit()
        stop_server(process)
    print("wrote docs/serve-phone.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
