"""The documented home of the public Hypothesis strategies: :mod:`referee.conformance.testing`."""

from referee.conformance.testing import *  # noqa: F401,F403
from referee.conformance.testing import __all__  # noqa: F401
