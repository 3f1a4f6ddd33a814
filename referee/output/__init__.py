"""This package renders reports (plain data) into text, JSON, and the replay view. Its
renderers know no rules."""
