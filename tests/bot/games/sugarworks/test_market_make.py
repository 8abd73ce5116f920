"""Sugarworks rules 3: a candy may be made by discarding an incomplete order of the market."""

from __future__ import annotations

import pytest

from bot.games.engine import IllegalActionError
from bot.games.sugarworks import GAME
from bot.games.sugarworks import content as ct
from tests.bot.games.sugarworks.test_rules import new, notations, order_step, play


def _market_make(state: dict) -> tuple[dict, str, str, int]:
    """An empty output and a market order that shows its candy."""
    for slot, card in enumerate(state["market"]):
        for kind in ct.orders()[card].candies:
            state["candies"] = [c for c in state["candies"] if c["at"] != state["outputs"][kind]]
            return state, kind, card, slot
    raise AssertionError("no market order")


def test_a_market_order_is_discarded_to_make_a_candy_and_replaced_from_the_cut_cards():
    state, kind, card, slot = _market_make(order_step(new(3), 0))
    where = state["outputs"][kind]
    notation = f"make {kind} at {where} with {card}"
    assert notation in notations(state, 0)
    deck, boxed = len(state["deck"]), len(state["boxed"])
    outcome = play(state, 0, notation)
    after = outcome.state
    assert card in after["order_discards"] and card not in after["market"]
    assert after["market"][slot] is not None
    # The deck is the factory clock: it keeps its cards; the cut cards refill the market.
    assert len(after["deck"]) == deck and len(after["boxed"]) == boxed - 1
    assert any(c["at"] == where and c["maker"] == 0 for c in after["candies"])
    assert any("market's order" in line for line in outcome.narration())


def test_under_rules_two_only_an_order_in_hand_makes_a_candy():
    state, kind, card, _ = _market_make(order_step(new(3, rules=2), 0))
    notation = f"make {kind} at {state['outputs'][kind]} with {card}"
    assert notation not in notations(state, 0)
    with pytest.raises(IllegalActionError, match="not an order card in your hand"):
        GAME.parse(state, 0, notation)


def test_an_order_neither_in_hand_nor_in_the_market_makes_nothing():
    state = order_step(new(3), 0)
    card = state["deck"][0]
    kind = ct.orders()[card].candies[0]
    state["candies"] = [c for c in state["candies"] if c["at"] != state["outputs"][kind]]
    with pytest.raises(IllegalActionError, match="neither in your hand nor in the order market"):
        GAME.parse(state, 0, f"make {kind} at {state['outputs'][kind]} with {card}")
