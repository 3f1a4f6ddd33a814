"""This package holds helpers that know nothing of Hearts: immutable records, the collector
pause, "did you mean"."""
