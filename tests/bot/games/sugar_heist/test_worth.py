"""What a card does, in numbers (bot/games/sugar_heist/worth.py): exact over the dice."""

from __future__ import annotations

import pytest

from bot.games.sugar_heist import cards, dice, worth

FIVE_UP = [{"need": "die", "at_least": 5}]
PAIR = [{"need": "pair"}]


def test_the_rolls_of_n_dice_are_every_multiset_with_its_chance():
    for n in range(4):
        assert sum(p for _, p in worth.rolls(n)) == pytest.approx(1.0)
    assert dict(worth.rolls(2))[(1, 2)] == pytest.approx(2 / 36)


def test_whether_a_pool_can_pay_is_whether_the_rules_find_a_way_to_pay():
    challenges = [c["challenge"] for c in cards.hideout_cards().values()
                  if c["kind"] == "encounter"]
    challenges += [b["default"]["challenge"] for b in cards.boards()]
    for challenge in challenges:
        for n in range(6):
            for pool, _ in worth.rolls(n):
                assert dice.can_pay(pool, challenge) == bool(dice.payments(pool, challenge)), pool


def test_pay_chances_are_exact():
    assert worth.pay_chance(FIVE_UP, [], 1) == pytest.approx(1 / 3)
    assert worth.pay_chance(PAIR, [], 2) == pytest.approx(1 / 6)
    assert worth.pay_chance(PAIR, [], 7) == pytest.approx(1.0)


def test_the_defender_chooses_against_the_attacker_and_the_attacker_for_himself():
    reroll = [{"do": "reroll", "count": 1, "by": "defender"}]
    # One die of 5 or more among two: the defender rerolls it when it is the only one.
    assert worth.pay_chance(FIVE_UP, reroll, 2) < worth.pay_chance(FIVE_UP, [], 2)
    tomboy = cards.costumes()["tomboy-princess"]["ability"]
    assert worth.pay_chance(FIVE_UP, worth.optional(tomboy), 1) == pytest.approx(1 / 2)
    lose_highest = [{"do": "lose", "count": 1, "by": "highest"}]
    assert worth.pay_chance(FIVE_UP, lose_highest, 1) == 0.0


def test_a_costume_saves_candy_and_a_dodge_saves_the_bad_stuff():
    vacuum = cards.hideout_cards()["haunted-vacuum"]
    superhero = cards.costumes()["superhero"]["ability"]
    ninja = cards.costumes()["ninja"]["ability"]
    assert worth.costume_gain(superhero, vacuum, 4, 2.0) > 0
    assert worth.costume_gain(ninja, vacuum, 4, 2.0) > worth.costume_gain(ninja, vacuum, 6, 2.0)


def test_bad_stuff_that_ends_the_heist_or_cannot_be_suffered_stops():
    grandma = cards.hideout_cards()["grandmas-knitting-trap"]
    assert worth.suffering(grandma["bad"], 3)["ends"] == 1.0
    tripwire = cards.hideout_cards()["tripwire-alarm"]
    assert worth.suffering(tripwire["bad"], 3)["ends"] == 0.0
    assert worth.suffering(tripwire["bad"], 1)["ends"] == 1.0
    assert worth.stop_chance(grandma, None, 3) > worth.stop_chance(grandma, None, 6)
