"""Write the pictures of a report: docs/report.png (README's: hand 2 of
tests/data/dispute.log's page), docs/report-desktop.png (the same page's top and hand 2 in a
desktop window) and docs/report-phone.png (tests/data/table-10.log's page on a phone 390 px
wide, from the top to its first tricks), taken in headless Chromium through the browser
test's own functions (tests/test_report_html.py: ``write_page``, ``start_browser``,
``screenshot``, ``emulate``).

    python docs/make_report_picture.py        # needs chromium and chromium-driver (Debian)
"""

from __future__ import annotations

import base64
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from chromium import DESKTOP, PHONE, emulate, start_browser
    from test_report_html import (
        DISPUTE,
        TABLE_10,
        screenshot,
        write_page,
    )

    docs = ROOT / "docs"
    os.chdir(ROOT)  # the pages name their logs as a user in the repository would
    with tempfile.TemporaryDirectory() as folder:
        dispute = write_page(DISPUTE.relative_to(ROOT), Path(folder) / "dispute.html")
        table = write_page(TABLE_10.relative_to(ROOT), Path(folder) / "table-10.html")
        driver = start_browser(width=1100)
        try:
            screenshot(driver, dispute, docs / "report.png", selector="#hand-2")
            emulate(driver, DESKTOP)
            _clip(driver, dispute, docs / "report-desktop.png", DESKTOP[0], 1500)
            emulate(driver, PHONE, scale=2)
            _clip(driver, table, docs / "report-phone.png", PHONE[0], 1700)
        finally:
            driver.quit()
    for name in ("report.png", "report-desktop.png", "report-phone.png"):
        print(f"wrote docs/{name}")
    return 0


def _clip(driver, page: Path, png: Path, width: int, height: int) -> None:
    """A PNG of the page's top ``width`` x ``height`` CSS pixels, as the device draws them."""
    driver.get(page.as_uri())
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
    png.write_bytes(base64.b64decode(shot["data"]))


if __name__ == "__main__":
    raise SystemExit(main())
