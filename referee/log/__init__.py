"""This package holds the written log: the grammar, event records, the parser, the fast reader,
the writer."""
