"""This package is the referee: it seats the table and groups the hands, reads the holdings, judges
the plays and the scores, and keeps the code table and the diagnostics."""
