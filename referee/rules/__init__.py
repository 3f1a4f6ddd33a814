"""The rules of the game: cards, rulesets, trick resolution, legality, the engine, the rulebook.

Imports nothing above it (only referee.util)."""
