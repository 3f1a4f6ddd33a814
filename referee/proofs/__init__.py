"""This package holds everything that imports z3: the rule model, invariants, scoresheets,
partial records, audit, verify-rules."""
