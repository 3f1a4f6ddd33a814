"""This package holds the rules of the game: cards, rulesets, trick resolution, legality, the
engine, the rulebook."""
