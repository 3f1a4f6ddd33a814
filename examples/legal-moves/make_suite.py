"""Write the legal-moves conformance suite, ``examples/legal-moves/positions.jsonl``.

    python examples/legal-moves/make_suite.py [OUT]

The positions and their legal cards come from the engine
(:mod:`referee.conformance.legal_moves`); the format is described in spec/legal-moves.md.
The same code gives the same file; ``tests/test_legal_moves.py`` checks that the shipped
file is the one this script writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # the checkout's referee, not an installed one

from referee.conformance.legal_moves import suite, suite_lines  # noqa: E402
from referee.util.files import write_parts  # noqa: E402


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else HERE / "positions.jsonl"
    positions = suite()
    write_parts(target, suite_lines(positions))
    print(f"wrote {len(positions)} positions to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
