"""Dice: the attacker's pool, the glossary's die words and paying a challenge.

A pool is a list of values 1..6 kept in ascending order. Dice of equal value are
interchangeable, so a choice of dice is a multiset of values (``pay 3 3``).
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from itertools import product
from typing import Any

Pool = tuple[int, ...]


def clamp(value: int) -> int:
    """A die never shows more than 6 or less than 1 ("set" included)."""
    return max(1, min(6, value))


def matches(value: int, need: dict[str, Any], counts: Counter[int]) -> bool:
    """Does a die of ``value`` fit the glossary words of ``need`` in a pool with ``counts``?

    "Part of a pair" and "unique" look at the whole pool as it is when paying.
    """
    if need.get("odd") and value % 2 == 0:
        return False
    if need.get("even") and value % 2 == 1:
        return False
    if "at_least" in need and value < need["at_least"]:
        return False
    if "at_most" in need and value > need["at_most"]:
        return False
    if need.get("part_of_pair") and counts[value] < 2:
        return False
    return not (need.get("unique") and counts[value] != 1)


def sub_pools(pool: Pool) -> list[Pool]:
    """Every non-empty sub-multiset of ``pool``, as sorted tuples."""
    counts = sorted(Counter(pool).items())
    out = []
    for picks in product(*(range(n + 1) for _, n in counts)):
        chosen = tuple(v for (v, _), k in zip(counts, picks, strict=True) for _ in range(k))
        if chosen:
            out.append(chosen)
    return out


def _without(rest: Pool, values: Pool) -> Pool:
    left = list(rest)
    for v in values:
        left.remove(v)
    return tuple(left)


def _fits(rest: Pool, needs: tuple[dict[str, Any], ...], counts: Counter[int]) -> bool:
    """Can ``rest`` be split so that every need gets its dice and no die is left over?"""
    if not needs:
        return not rest
    need, others = needs[0], needs[1:]
    kind = need["need"]
    if kind == "die":
        return any(matches(v, need, counts) and _fits(_without(rest, (v,)), others, counts)
                   for v in set(rest))
    if kind == "pair":
        return any(rest.count(v) >= 2 and matches(v, need, counts)
                   and _fits(_without(rest, (v, v)), others, counts) for v in set(rest))
    if kind == "sum":
        if not others:
            return bool(rest) and sum(rest) >= need["value"]
        return any(sum(part) >= need["value"] and _fits(_without(rest, part), others, counts)
                   for part in sub_pools(rest))
    raise ValueError(f"unknown need {kind!r}")


def _ordered(challenge: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    # Single dice and pairs first: a sum takes whatever is left.
    return tuple(sorted(challenge, key=lambda n: n["need"] == "sum"))


def pays(payment: Pool, challenge: list[dict[str, Any]], pool: Pool) -> bool:
    """Do these dice satisfy ``challenge`` (each need met by its own dice)?

    Extra dice may go along: "spend dice from their pool that satisfy the
    Challenge" asks only that the dice spent meet every need, so 3 4 5 pays
    "Sum 6 or more" and three 3s pay "A pair".
    """
    spent = Counter(payment)
    return any(not Counter(way) - spent for way in payments(pool, challenge))


def payments(pool: Pool, challenge: list[dict[str, Any]]) -> list[Pool]:
    """The cheapest ways to pay ``challenge`` from ``pool``: no die the challenge does not need.

    A payment is minimal: taking any die out of it no longer pays. Ordered by
    number of dice, then values.
    """
    return list(_payments(tuple(sorted(pool)), _freeze(challenge)))


def spends(pool: Pool, challenge: list[dict[str, Any]]) -> list[Pool]:
    """Every choice of dice from ``pool`` that pays ``challenge``, the minimal ones first."""
    return list(_spends(tuple(sorted(pool)), _freeze(challenge)))


_FROZEN: dict[int, tuple[list[dict[str, Any]], str]] = {}


def _freeze(challenge: list[dict[str, Any]]) -> str:
    # Challenges are the content's own (cached, never changed) lists: remember their text.
    known = _FROZEN.get(id(challenge))
    if known is not None and known[0] is challenge:
        return known[1]
    frozen = json.dumps(challenge, sort_keys=True)
    _FROZEN[id(challenge)] = (challenge, frozen)
    return frozen


@cache
def _payments(pool: Pool, frozen: str) -> tuple[Pool, ...]:
    challenge = json.loads(frozen)
    counts = Counter(pool)
    needs = _ordered(challenge)
    paying = [p for p in sub_pools(pool) if _fits(p, needs, counts)]
    found = set(paying)
    minimal = [p for p in paying
               if not any(_without(p, (v,)) in found for v in set(p) if len(p) > 1)]
    return tuple(sorted(minimal, key=lambda p: (len(p), p)))


@cache
def _spends(pool: Pool, frozen: str) -> tuple[Pool, ...]:
    minimal = _payments(pool, frozen)
    ways = [Counter(w) for w in minimal]
    larger = [p for p in sub_pools(pool)
              if p not in minimal and any(not w - Counter(p) for w in ways)]
    return minimal + tuple(sorted(larger, key=lambda p: (len(p), p)))


def can_pay(pool: Pool, challenge: list[dict[str, Any]]) -> bool:
    """Can some of ``pool``'s dice pay ``challenge``: does :func:`payments` find a way?"""
    return _can_pay(tuple(sorted(pool)), _freeze(challenge))


@cache
def _can_pay(pool: Pool, frozen: str) -> bool:
    """:func:`can_pay` without listing every way to pay: single dice and pairs take their
    dice first, and a lone sum takes all the rest (the same answer, a fraction of the work;
    two sums fall back on the full search)."""
    challenge = json.loads(frozen)
    sums = [n for n in challenge if n["need"] == "sum"]
    if len(sums) > 1:
        return bool(_payments(pool, frozen))
    others = [n for n in challenge if n["need"] != "sum"]
    counts = Counter(pool)

    def fits(rest: Pool, i: int) -> bool:
        if i == len(others):
            return not sums or (bool(rest) and sum(rest) >= sums[0]["value"])
        need = others[i]
        size = 2 if need["need"] == "pair" else 1
        return any(rest.count(v) >= size and matches(v, need, counts)
                   and fits(_without(rest, (v,) * size), i + 1) for v in set(rest))

    return fits(pool, 0)


def choices(pool: Pool, count: int, up_to: bool) -> list[Pool]:
    """Distinct choices of ``count`` dice (or 1..``count`` with ``up_to``) from ``pool``."""
    sizes = range(1, count + 1) if up_to else (min(count, len(pool)),)
    return sorted((p for p in sub_pools(tuple(sorted(pool))) if len(p) in sizes),
                  key=lambda p: (len(p), p))


def showing(values: Pool | list[int]) -> str:
    """ "the die showing 6", "the dice showing 1, 3 and 5": dice named as dice."""
    return f"the {'die' if len(values) == 1 else 'dice'} showing {spoken(values)}"


def spoken(values: Pool | list[int]) -> str:
    """ "1, 3 and 5" for narration."""
    words = [str(v) for v in values]
    if len(words) <= 1:
        return "".join(words) or "nothing"
    return ", ".join(words[:-1]) + " and " + words[-1]
