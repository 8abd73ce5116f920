"""The Sugar Heist AI's chances come worked out ahead and counted faster, the same to the bit."""

from __future__ import annotations

from itertools import product

import pytest

from bot.games import get_game
from bot.games.content import data_path
from bot.games.engine import SeatInfo, play_out
from bot.games.sugar_heist import ai, cards, worth
from bot.games.sugar_heist.dice import can_pay
from tools import heist_chances

pytestmark = pytest.mark.slow  # works out every chance again

GAME = get_game("sugar-heist")


def test_the_shipped_chances_are_exactly_what_the_tool_works_out() -> None:
    shipped = data_path("sugar_heist", "chances.json").read_text(encoding="utf-8")
    assert shipped == heist_chances.text(heist_chances.chances()), (
        "data/sugar_heist/chances.json is out of date: run python -m tools.heist_chances")


@pytest.mark.parametrize("rules", sorted({GAME.rules_version, *GAME.older_rules}))
def test_the_ai_works_out_no_chance_of_paying_itself(rules: int, monkeypatch) -> None:
    """Every chance the AI asks for in a whole game is in the file (none costs seconds)."""
    def refused(*args: object) -> float:
        raise AssertionError(f"the AI worked out a chance not in chances.json: {args}")

    worth._pay_chance.cache_clear()
    monkeypatch.setattr(worth, "computed_chance", refused)
    play_out(GAME, GAME.new([SeatInfo(f"P{i}", ai=True) for i in range(4)], 31 + rules,
                            rules=rules))
    worth._pay_chance.cache_clear()


def _every_roll(pool: list[int], rerolled: list[int], extra: int, challenge: list) -> float:
    """The chance the way it was counted: each of the 6 ** k rolls in turn."""
    base = list(pool)
    for v in rerolled:
        base.remove(v)
    k = len(rerolled) + extra
    if k == 0:
        return 1.0 if can_pay(tuple(sorted(base)), challenge) else 0.0
    hits = total = 0
    for faces in product(range(1, 7), repeat=k):
        total += 1
        hits += can_pay(tuple(sorted(base + list(faces))), challenge)
    return hits / total


def test_counting_each_distinct_roll_once_gives_the_very_same_chance() -> None:
    designs = [c for c in cards.hideout_cards().values() if c["kind"] == "encounter"]
    cases = [([1, 3, 3, 5, 6], [3], 0), ([2, 2, 4], [2, 4], 1), ([6, 1], [], 2),
             ([1, 2, 3, 4], [1, 2, 3], 1), ([5, 5, 5], [], 0)]
    for design in designs:
        for pool, rerolled, extra in cases:
            assert ai._chance(pool, rerolled, extra, design["challenge"]) == _every_roll(
                pool, rerolled, extra, design["challenge"])
