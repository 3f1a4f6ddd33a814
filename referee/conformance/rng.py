"""This module makes the generator's random numbers with SplitMix64, which spec/conformance.md
specifies."""

from __future__ import annotations

import hashlib

_MASK64 = (1 << 64) - 1


class Rng:
    """An Rng draws numbers with SplitMix64 as spec/conformance.md ("Reproducibility") specifies
    it, so that games never depend on Python's version; it hashes a seed that is not an integer
    in 0..2**64-1 first."""

    __slots__ = ("state",)

    def __init__(self, seed: int | str):
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK64:
            seed = int.from_bytes(hashlib.sha256(str(seed).encode("utf-8")).digest()[:8], "big")
        self.state = seed

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Draw a uniform integer in 0..n-1."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` by Fisher-Yates from the end: for i = len-1 .. 1 swap items[i] and
        items[below(i+1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items, k: int) -> list:
        """Draw k distinct positions by a partial Fisher-Yates from the front."""
        pool = list(items)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
