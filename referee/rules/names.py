"""This module names the seats of generated games, examples and counterexamples, in seating
order."""

DEFAULT_NAMES = ("Al", "Beth", "Charlie", "Dave", "Eve", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kim")
