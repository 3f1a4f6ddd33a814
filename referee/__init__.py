"""referee: a rules-verification and referee toolkit for Cancellation Hearts."""

__version__ = "0.1.0"
