"""Hypothesis settings profiles, the fast loop's collection, and the ``browser`` fixture
(headless Chromium).

``ci`` (loaded when the environment variable ``CI`` is set, as CI runs with ``CI=true``):
derandomized, so a run on the same code tries the same examples and a red CI can be
reproduced; no deadline (a shared machine's timing is no test); the failing example's blob is
printed, to replay it with ``@reproduce_failure``.  ``dev`` (the default elsewhere): random
examples, as Hypothesis draws them, so local runs keep exploring.  ``HYPOTHESIS_PROFILE``
names a profile explicitly and wins over both.

Both keep Hypothesis's default of 100 examples for a test that sets none; every property test
here that wants another number says so in its own ``@settings``, which a profile does not
override.  Settings objects built at import time (``FAST = settings(...)``) inherit from the
profile loaded here, because pytest imports this file before any test module.

Under ``-m "not slow"`` (the fast loop) a test module marked slow as a whole (``pytestmark =
pytest.mark.slow``) is not imported: every test in it would be deselected, and importing them
(Dask, for one) and rewriting their asserts costs each worker seconds.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from chromium import installed, start_browser
from hypothesis import settings

MAX_EXAMPLES = 100

settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True, max_examples=MAX_EXAMPLES,
)
settings.register_profile("dev", max_examples=MAX_EXAMPLES)


def profile_name(environ=os.environ) -> str:
    """The profile for an environment: HYPOTHESIS_PROFILE, else ``ci`` when CI is set."""
    if environ.get("HYPOTHESIS_PROFILE"):
        return environ["HYPOTHESIS_PROFILE"]
    ci = environ.get("CI", "").strip().lower()
    return "ci" if ci not in ("", "0", "false", "no") else "dev"


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
