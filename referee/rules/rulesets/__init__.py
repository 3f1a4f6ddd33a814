"""Bundled ruleset files (TOML); loaded by referee.rules.ruleset."""
