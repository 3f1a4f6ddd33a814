"""Write docs/report.png, README's picture of a report: hand 2 of tests/data/dispute.log's
page, taken in headless Chromium through the browser test's own functions
(tests/test_report_html.py: ``write_page``, ``start_browser``, ``screenshot``).

    python docs/make_report_picture.py        # needs chromium and chromium-driver (Debian)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from test_report_html import DISPUTE, screenshot, start_browser, write_page

    target = ROOT / "docs" / "report.png"
    with tempfile.TemporaryDirectory() as folder:
        page = write_page(DISPUTE, Path(folder) / "dispute.html")
        driver = start_browser(width=1100)
        try:
            screenshot(driver, page, target, selector="#hand-2")
        finally:
            driver.quit()
    print(f"wrote {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
