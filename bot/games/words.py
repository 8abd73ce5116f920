"""Small pieces of English shared by every game's narration and the bot's messages."""

from __future__ import annotations

import re
from collections.abc import Sequence


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 move``, ``2 moves``, ``2 candies`` (given): the number with its noun agreeing."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def listing(parts: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


#: Letters whose names start with a vowel sound ("an X", "an L"), and word starts that
#: begin with a consonant sound although spelled with a vowel ("a unit", "a one-way").
_VOWEL_LETTERS = frozenset("AEFHILMNORSX")
_CONSONANT_STARTS = ("uni", "use", "usu", "uti", "eu", "one", "once", "ewe")
_VOWEL_STARTS = ("hour", "honest", "honour", "heir")


def article(phrase: str) -> str:
    """``a Left belt``, ``an Up belt``, ``an X``, ``a unit``, ``an 8``: the phrase with
    the indefinite article its first sound takes."""
    word = phrase.split(" ", 1)[0]
    lower = word.lower()
    if re.fullmatch(r"[A-Za-z]\d*", word):  # a letter said as a letter: "an L19"
        vowel = word[0].upper() in _VOWEL_LETTERS
    elif word[0].isdigit():
        vowel = word.startswith(("8", "11", "18"))
    elif lower.startswith(_VOWEL_STARTS):
        vowel = True
    else:
        vowel = lower[0] in "aeiou" and not lower.startswith(_CONSONANT_STARTS)
    return f"{'an' if vowel else 'a'} {phrase}"


def possessive(name: str) -> str:
    """``Ana's``, ``Insidious Lawn Gnomes'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


#: How a seat an AI plays for an absent player is marked after their name, in the
#: messages and in every picture ("Ana (AI standing in)"). A picture short of room
#: shows the short form, never the plain "(AI)" of an AI's own seat (see
#: :func:`renderers.common.shorten`).
STANDING_IN = " (AI standing in)"
STANDING_IN_SHORT = " (AI sub)"


def standing_in(name: str) -> str:
    """``name`` marked as a seat an AI plays until its player is back."""
    return name + STANDING_IN


#: Short forms used when a label is too long, longest saving first.
ABBREVIATIONS: tuple[tuple[str, str], ...] = (
    ("at the start of", "at start of"),
    (" and ", " & "),
    ("discarding", "discard"),
    ("shipped in the", "to"),
    ("candies", "cand."),
    ("number", "no."),
    ("sugar", "sug."),
)


def shorten(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, never cut inside a word.

    Short forms from :data:`ABBREVIATIONS` come first; if that is not enough, whole
    words are dropped from the end and an ellipsis marks the gap.
    """
    text = " ".join(text.split())
    for long, short in ABBREVIATIONS:
        if len(text) <= limit:
            return text
        text = text.replace(long, short)
    if len(text) <= limit:
        return text
    words = text.split(" ")
    while len(words) > 1 and len(" ".join(words)) + 1 > limit:
        words.pop()
    kept = " ".join(words).rstrip(",;:.-–—+(")
    if len(kept) + 1 > limit:  # one word longer than the limit: nothing sensible to keep
        return text[: limit - 1] + "…"
    return kept + "…"
