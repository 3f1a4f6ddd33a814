"""This package serves authors of other programs: it holds the generator, violation injection,
corpora, Hypothesis strategies and the OpenSpiel bridge."""
