"""Paying a challenge: any dice that satisfy it may be spent, the cheapest are offered first."""

from __future__ import annotations

import pytest

from bot.games.engine import IllegalActionError, dumps, loads
from bot.games.sugar_heist import GAME
from bot.games.sugar_heist import dice as heist_dice
from tests.support.sugar_heist_helpers import (
    act,
    arrange_track,
    dice,
    everybody_passes,
    new_game,
    put,
)

__all__ = ["dice"]


def _facing(dice: list[int], key: str, pool: list[int]):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, key, up=True)
    dice.extend(pool)
    return everybody_passes(state)


def test_three_four_five_pay_sum_six_or_more(dice):
    state = _facing(dice, "toothpick-pit", [1, 1, 3, 4, 5, 6])
    state = act(state, 1, "reroll none")
    state = act(state, 0, "pay 3 4 5")
    assert state["heist"]["outcomes"][0] == "cleared"
    assert state["heist"]["pool"] == [1, 1, 6] and state["players"][0]["candy"] == 4


def test_three_threes_pay_a_pair(dice):
    state = _facing(dice, "slime-bucket", [3, 3, 3, 4, 5, 6])
    state = act(state, 0, "pay 3 3 3")
    assert state["heist"]["outcomes"][0] == "cleared"
    assert state["heist"]["pool"] == [4, 5, 6]


def test_dice_that_meet_no_need_still_do_not_pay(dice):
    state = _facing(dice, "slime-bucket", [1, 3, 3, 4, 5, 6])
    with pytest.raises(IllegalActionError, match="does not pay"):
        GAME.parse(state, 0, "pay 4 5 6")


def test_the_cheapest_payments_are_offered_first(dice):
    state = _facing(dice, "slime-bucket", [3, 3, 3, 4, 5, 6])
    pays = [a for a in GAME.legal_actions(state, 0) if a.notation.startswith("pay ")]
    assert pays[0].notation == "pay 3 3"
    assert "pay 3 3 3" in [a.notation for a in pays]
    assert "more dice than it needs" in next(a.label for a in pays
                                             if a.notation == "pay 3 3 3")
    assert GAME.rules.rank_actions(state, 0, pays)[0].notation == "pay 3 3"
    assert GAME.ai_action(state, 0).notation == "pay 3 3"


def test_pays_accepts_any_dice_holding_a_payment():
    sum_six = [{"need": "sum", "value": 6}]
    assert heist_dice.pays((3, 4, 5), sum_six, (1, 3, 4, 5))
    assert heist_dice.pays((3, 3, 3), [{"need": "pair"}], (3, 3, 3, 4))
    assert not heist_dice.pays((1, 4), sum_six, (1, 3, 4, 5))
    assert heist_dice.spends((1, 3, 4, 5), sum_six)[0] == (1, 5)


def test_a_game_stored_under_rules_one_goes_on_paying_only_the_cheapest_way(dice):
    state = _facing(dice, "slime-bucket", [3, 3, 3, 4, 5, 6])
    state["rules"] = 1
    loaded = loads(dumps(state), GAME)
    assert loaded["rules"] == 1
    pays = [a.notation for a in GAME.legal_actions(loaded, 0) if a.notation.startswith("pay ")]
    assert pays == ["pay 3 3"]
    with pytest.raises(IllegalActionError):
        GAME.parse(loaded, 0, "pay 3 3 3")
    assert act(loaded, 0, "pay 3 3")["heist"]["outcomes"][0] == "cleared"


def test_a_game_stored_under_rules_two_pays_with_any_satisfying_dice(dice):
    state = _facing(dice, "slime-bucket", [3, 3, 3, 4, 5, 6])
    state["rules"] = 2
    loaded = loads(dumps(state), GAME)
    assert loaded["rules"] == 2
    assert act(loaded, 0, "pay 3 3 3")["heist"]["outcomes"][0] == "cleared"
