"""A small seeded random generator whose whole state is one JSON integer.

Python's ``random.Random`` state is a 625-integer tuple; keeping that in every
saved game would bloat the store. SplitMix64 is tiny, fast and good enough for
shuffling chips and cards, and its state round-trips through JSON exactly.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64 generator. ``state`` is the only thing to persist."""

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        # Mix the seed once so that small neighbouring seeds start far apart.
        rng = cls(seed ^ 0x5DEECE66D1234567)
        rng.next64()
        return rng

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` (53 random bits)."""
        return (self.next64() >> 11) / (1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def roll(self, sides: int) -> int:
        """One die: 1..sides."""
        return self.below(sides) + 1
