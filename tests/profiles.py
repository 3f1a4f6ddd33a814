"""The Hypothesis settings profiles, registered on import; tests/conftest.py loads one.

``ci`` (chosen when the environment variable ``CI`` is set, as CI runs with ``CI=true``):
derandomized, so a run on the same code tries the same examples and a red CI can be
reproduced; no deadline (a shared machine's timing is no test); the failing example's blob is
printed, to re-run it with ``@reproduce_failure``.  ``dev`` (the default elsewhere): random
examples, as Hypothesis draws them, so local runs keep exploring.  ``HYPOTHESIS_PROFILE``
names a profile explicitly and wins over both.

Both keep Hypothesis's default of 100 examples for a test that sets none; every property test
here that wants another number says so in its own ``@settings``, which a profile does not
override.
"""

from __future__ import annotations

import os

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
