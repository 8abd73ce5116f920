"""Small pieces of English shared by every game's narration and the bot's messages."""

from __future__ import annotations

from collections.abc import Sequence


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 move``, ``2 moves``, ``2 candies`` (given): the number with its noun agreeing."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def listing(parts: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def possessive(name: str) -> str:
    """``Ana's``, ``Insidious Lawn Gnomes'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"
