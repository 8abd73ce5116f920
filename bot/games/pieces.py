"""Shared game pieces: a bag of tokens, a deck of cards, dice and turn order.

They work on plain JSON values kept inside a state, so they never need their
own serialisation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from bot.games.rng import Rng

T = TypeVar("T")

# --------------------------------------------------------------------------- bag

Bag = dict[str, int]
"""A bag of tokens as counts per kind, e.g. ``{"corn": 9, "cane": 12}``."""


def bag_size(bag: Bag) -> int:
    return sum(bag.values())


def bag_add(bag: Bag, kind: str, count: int = 1) -> None:
    bag[kind] = bag.get(kind, 0) + count


def bag_draw(bag: Bag, rng: Rng) -> str | None:
    """Draw one token uniformly at random (each token, not each kind); ``None`` if empty."""
    total = bag_size(bag)
    if total == 0:
        return None
    pick = rng.below(total)
    for kind in sorted(bag):
        if pick < bag[kind]:
            bag[kind] -= 1
            return kind
        pick -= bag[kind]
    raise AssertionError("bag counts changed during a draw")


# --------------------------------------------------------------------------- deck


def deck_shuffled(cards: Sequence[T], rng: Rng) -> list[T]:
    """A new shuffled deck (a list whose end is the top)."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck


def deck_draw(deck: list[str]) -> str | None:
    """Take the top card, or ``None`` when the deck is empty."""
    return deck.pop() if deck else None


# --------------------------------------------------------------------------- seats


def next_seat(seat: int, seat_count: int, step: int = 1) -> int:
    """The seat ``step`` places clockwise (turn order) from ``seat``."""
    return (seat + step) % seat_count


def seats_from(start: int, seat_count: int) -> list[int]:
    """Every seat once, in turn order, starting with ``start``."""
    return [(start + i) % seat_count for i in range(seat_count)]


def rank_by(keys: dict[int, tuple[Any, ...]]) -> tuple[tuple[int, ...], ...]:
    """Group seats by descending sort key; equal keys share a place."""
    order = sorted(keys, key=lambda s: keys[s], reverse=True)
    groups: list[list[int]] = []
    for seat in order:
        if groups and keys[groups[-1][0]] == keys[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return tuple(tuple(sorted(g)) for g in groups)
