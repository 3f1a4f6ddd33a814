"""Renderers: reports (plain data) into text, JSON, and the replay view. They know no rules."""
