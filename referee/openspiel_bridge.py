"""The documented home of the OpenSpiel bridge: :mod:`referee.conformance.openspiel_bridge`."""

from referee.conformance.openspiel_bridge import *  # noqa: F401,F403
from referee.conformance.openspiel_bridge import __all__  # noqa: F401
