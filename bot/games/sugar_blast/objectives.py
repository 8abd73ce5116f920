"""Objective cards and how far a player's kept candies go toward one."""

from __future__ import annotations

from typing import Any, cast

from bot.games.content import by_id, load_json


def candy_kinds() -> list[str]:
    return [k["id"] for k in load_json("sugar_blast", "candies.json")["kinds"]]


def chips_per_kind() -> int:
    return int(load_json("sugar_blast", "candies.json")["chips_per_kind"])


def candy_name(kind: str, count: int = 1) -> str:
    names = by_id(load_json("sugar_blast", "candies.json")["kinds"], kind)
    return cast("str", names["singular"] if count == 1 else names["plural"])


def objectives() -> list[dict[str, Any]]:
    return list(load_json("sugar_blast", "objectives.json")["objectives"])


def objective(objective_id: str) -> dict[str, Any]:
    return by_id(objectives(), objective_id)


def needed(card: dict[str, Any]) -> int:
    return sum(int(g["count"]) for g in card["groups"])


def progress(card: dict[str, Any], kept: dict[str, int]) -> int:
    """Kept chips that count toward ``card`` under the best assignment of kinds.

    Named kinds are fixed; "any" groups take the remaining kinds, each kind at
    most once. Pairing the largest "any" counts with the largest holdings is
    optimal because min(a, b) has increasing differences.
    """
    total = 0
    named = set()
    for group in card["groups"]:
        if group["kind"] is not None:
            named.add(group["kind"])
            total += min(kept.get(group["kind"], 0), int(group["count"]))
    open_counts = sorted((int(g["count"]) for g in card["groups"] if g["kind"] is None),
                         reverse=True)
    holdings = sorted((n for k, n in kept.items() if k not in named), reverse=True)
    for count, have in zip(open_counts, holdings, strict=False):
        total += min(count, have)
    return total


def complete(card: dict[str, Any], kept: dict[str, int]) -> bool:
    return progress(card, kept) == needed(card)
