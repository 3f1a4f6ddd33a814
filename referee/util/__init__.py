"""Helpers that know nothing of Hearts: immutable records, the collector pause, "did you mean"."""
