"""This module suggests near misses for messages: "did you mean 'trick'?"."""

from __future__ import annotations

from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 0.6,
                 prefer: Iterable[str] = ()) -> str | None:
    """Find the choice closest to ``word`` (case-insensitive; an exact match wins) as spelled
    in ``choices``, or None if none is close.  A close one of ``prefer`` (some of the choices,
    the likelier ones) wins over a closer other choice."""
    by_folded: dict[str, str] = {}
    for choice in choices:
        by_folded.setdefault(choice.casefold(), choice)
    folded = word.casefold()
    if not folded or not by_folded:
        return None
    if folded in by_folded:
        return by_folded[folded]
    import difflib  # only for a near miss: not at every start

    if prefer:  # (the likelier choices first)
        likelier = [choice.casefold() for choice in prefer if choice.casefold() in by_folded]
        close = difflib.get_close_matches(folded, likelier, n=1, cutoff=cutoff)
        if close:
            return by_folded[close[0]]
    close = difflib.get_close_matches(folded, list(by_folded), n=1, cutoff=cutoff)
    return by_folded[close[0]] if close else None
