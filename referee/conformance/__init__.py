"""For authors of other programs: the generator, violation injection, corpora, Hypothesis
strategies, the OpenSpiel bridge."""
