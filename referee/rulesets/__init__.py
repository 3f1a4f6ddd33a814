"""Bundled ruleset files (TOML); loaded by referee.ruleset."""
