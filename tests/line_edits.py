"""The edits the fuzz tests make to a log's lines (shared by tests/test_check_fuzz.py and
tests/test_stream.py): delete, duplicate, swap, insert a known line, insert an odd one."""

from __future__ import annotations

from hypothesis import strategies as st

ACTIONS = ("delete", "duplicate", "swap", "insert", "odd")


def edit_lines(draw, lines: list[str], *, known: list[str], odd: list[str], most: int,
               actions=ACTIONS) -> list[str]:
    """``lines`` after 1 to ``most`` edits, each drawn from ``actions``; inserted lines come
    from ``known`` or ``odd``."""
    for _ in range(draw(st.integers(1, most))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(actions))
        if action == "delete":
            del lines[i]
        elif action == "duplicate":
            lines.insert(j, lines[i])
        elif action == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(i, draw(st.sampled_from(known if action == "insert" else odd)))
    return lines
