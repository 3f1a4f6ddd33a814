"""This module says how long and how large a z3 question may be before the referee stops
asking: past a budget the answer is undecided (a note, :data:`referee.judge.codes.UNDECIDED`),
never proved or violated (spec/hostile-input.md, "Proof budgets").
"""

from __future__ import annotations

from referee.util.message import Message, msg

# One ``check`` of the invariant prover (all laws of a log, or one hand's, law's or instance's)
# may take this long.
PROVER_TIMEOUT_MS = 2_000
# A hand's laws beyond this many SMT-LIB characters are not sent to z3 (the laws name shared
# definitions, so generated 6-11 player hands need under 1,000).
PROVER_MAX_CHARS = 400_000

# holdings-exist: the satisfiability check of one partial hand, and the whole core minimisation,
# may take this long.
PARTIAL_TIMEOUT_MS = 2_000
PARTIAL_MINIMISE_MS = 2_000
# A partial hand with more tracked statements than this is not sent to z3 (generated 6-11
# player hands track under 200; a hand past 1,500 holds far more plays than any deal allows).
PARTIAL_MAX_LABELS = 1_500

# audit: the whole answer (``--timeout`` changes it) may take this long; a child process works
# it out, is killed past it, and its address space may grow by at most AUDIT_MEMORY_BYTES.
AUDIT_SECONDS = 10.0
AUDIT_MEMORY_BYTES = 2 << 30
# audit under z3 (rulesets the search without z3 does not cover): the search for further
# corrections of the same size may take this long.
AUDIT_SOLUTIONS_MS = 2_000
# audit: the search for the one nearest the written values among the smallest corrections may
# take this long.
AUDIT_NEAREST_MS = 1_000
# A sheet with more written entries than this is not optimised (a 30-hand 11-player game: 660).
AUDIT_MAX_ENTRIES = 2_000
# ... nor is one of more hands with a score or total line (each hand is a dozen z3 terms, entries
# or none: an ordinary hand writes at least one entry, so only a sheet of hands whose lines
# name no one seated meets this budget before the one above).
AUDIT_MAX_HANDS = 2_000

# verify-rules: one property may take this long (all its z3 questions together; ``--timeout``
# changes it), and be asked about a trick / table this large at most (the bundled rulesets
# need 11; a ruleset may allow 104).
VERIFY_PROPERTY_SECONDS = 120.0
VERIFY_MAX_PLAYERS = 24


def time_detail(budget_ms: int) -> Message:
    return msg("z3 gave no answer within the time budget of {budget} ms", budget=budget_ms)


def size_detail(what: Message, size: int, budget: int) -> Message:
    """Say that ``size`` things exceed the size ``budget`` and go unasked; ``what`` names the
    things counted, a message of its own (``msg("written entries")``)."""
    # TRANSLATORS: {what} is what was counted ("written entries", "formula characters")
    return msg("not asked: {size} {what} exceed the size budget of {budget}", size=size,
               what=what, budget=budget)
