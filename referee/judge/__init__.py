"""The referee: setup and grouping, holdings, plays, scoring, the code table and diagnostics."""
