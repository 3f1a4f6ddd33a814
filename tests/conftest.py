"""The Hypothesis profile for this run, the fast loop's collection, and the ``browser`` fixture
(headless Chromium).

The profiles (``ci`` under CI, ``dev`` elsewhere, or the one ``HYPOTHESIS_PROFILE`` names) are
those of tests/profiles.py; the one for this environment is loaded here.  Settings objects
built at import time (``FAST = settings(...)``) inherit from it, because pytest imports this
file before any test module.

Under ``-m "not slow"`` (the fast loop) a test module marked slow as a whole (``pytestmark =
pytest.mark.slow``) is not imported: every test in it would be deselected, and importing them
(Dask, for one) and rewriting their asserts costs each worker seconds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from chromium import installed, start_browser
from hypothesis import settings
from profiles import profile_name

settings.load_profile(profile_name())

SLOW_MODULE = re.compile(r"^pytestmark = pytest\.mark\.slow\b", re.MULTILINE)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """True for a test module marked slow as a whole when the run selects ``not slow``."""
    if config.getoption("markexpr", "").strip() != "not slow":
        return None
    if not (collection_path.name.startswith("test_") and collection_path.suffix == ".py"):
        return None
    return bool(SLOW_MODULE.search(collection_path.read_text("utf-8"))) or None


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for one test module; the module's tests are skipped without it."""
    if not installed():
        pytest.skip("headless Chromium is not installed here (Debian: apt-get install chromium "
                    "chromium-driver; .ci/run installs both)")
    driver = start_browser()
    yield driver
    driver.quit()
