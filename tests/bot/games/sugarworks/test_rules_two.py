"""Sugarworks rules 2: outputs move to any open output space, blanket orders pay on making,
and the rules text reads the game's own numbers. Rules 1 games go on as they were."""

from __future__ import annotations

import pytest

from bot.games.engine import IllegalActionError, SeatInfo, dumps, loads
from bot.games.sugarworks import GAME
from bot.games.sugarworks import content as ct
from bot.games.sugarworks import floor as fl
from tests.bot.games.sugarworks.test_rules import NAMES, new, notations, order_step, play, put_candy


def test_an_output_tile_moves_to_an_open_output_space_in_another_row():
    state = order_step(new(3), 0)
    adjusts = {n for n in notations(state, 0) if n.startswith("adjust red")}
    assert adjusts == {f"adjust red to c{row}" for row in range(1, 6)}
    after = play(state, 0, "adjust red to c3").state
    assert after["outputs"]["red"] == "c3"
    assert fl.occupied(after)["c3"]["type"] == "red"
    # Row 3 now holds two outputs (green at a3, red at c3): it is full.
    assert not [n for n in notations(order_step(after, 1), 1)
                if n.endswith(("to a3", "to c3"))]


def test_a_full_row_or_a_candy_closes_an_output_space():
    state = order_step(new(3), 0)
    put_candy(state, "blue", "c4")
    assert "adjust red to c4" not in notations(state, 0)
    with pytest.raises(IllegalActionError, match="not open"):
        GAME.parse(state, 0, "adjust red to c4")


def test_making_a_candy_of_a_colourful_blanket_order_scores_at_once():
    state = order_step(new(3), 0)
    blanket = ct.blankets()[state["blankets"][0]["id"]]
    for b in state["blankets"]:
        b["colourful"] = b is state["blankets"][0]
    kind = blanket.candy
    state["candies"] = [c for c in state["candies"] if c["at"] != state["outputs"][kind]]
    card = next(o.id for o in ct.orders().values() if kind in o.candies)
    for place in (state["deck"], state["boxed"], *(h["orders"] for h in state["hands"])):
        if card in place:
            place.remove(card)
    state["market"] = [None if c == card else c for c in state["market"]]
    state["hands"][0]["orders"].append(card)
    outcome = play(state, 0, f"make {kind} at {state['outputs'][kind]} with {card}")
    assert outcome.state["points"][0]["blanket"] == blanket.stars
    assert any("blanket order" in line for line in outcome.narration())


def test_a_grey_blanket_order_pays_nothing_for_making():
    state = order_step(new(3), 0)
    for b in state["blankets"]:
        b["colourful"] = False
    kind = "red"
    state["candies"] = [c for c in state["candies"] if c["at"] != state["outputs"][kind]]
    card = next(o.id for o in ct.orders().values() if kind in o.candies)
    for place in (state["deck"], state["boxed"], *(h["orders"] for h in state["hands"])):
        if card in place:
            place.remove(card)
    state["market"] = [None if c == card else c for c in state["market"]]
    state["hands"][0]["orders"].append(card)
    after = play(state, 0, f"make {kind} at {state['outputs'][kind]} with {card}").state
    assert after["points"][0]["blanket"] == 0


def test_the_rules_text_says_what_shipping_pays_in_the_game():
    assert f"scores {ct.ship_stars()}★" in GAME.rules_summary
    assert "1★" not in GAME.rules_summary or ct.ship_stars() == 1


def test_a_game_stored_under_rules_one_goes_on_under_rules_one():
    old = GAME.new([SeatInfo(n) for n in NAMES[:3]], 3, None, rules=1)
    loaded = loads(dumps(old), GAME)
    assert loaded["rules"] == 1
    state = order_step(loaded, 0)
    assert {n for n in notations(state, 0) if n.startswith("adjust red")} == {"adjust red to c5"}
    view = GAME.view(state, 0)
    assert all(b["pays"] == "shipped" for b in view["blankets"])
