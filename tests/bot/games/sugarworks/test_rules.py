"""Sugarworks rules: set-up, order actions, factory actions, rounds, scoring and the end."""

from __future__ import annotations

import pytest

from bot.games.engine import (
    AmbiguousActionError,
    IllegalActionError,
    NotationError,
    SeatInfo,
)
from bot.games.sugarworks import GAME
from bot.games.sugarworks import content as ct
from bot.games.sugarworks import floor as fl
from tests.support.paths import ROOT

NAMES = ["Alex", "Blake", "Casey", "Dallas"]


def new(players: int = 4, seed: int = 3, rules: int | None = None, **options) -> dict:
    return GAME.new([SeatInfo(n) for n in NAMES[:players]], seed, options, rules)


def play(state: dict, seat: int, text: str):
    return GAME.apply(state, seat, text)


def order_step(state: dict, seat: int, text: str = "draw order") -> dict:
    """Take the order action; drop the newest card if the hand went over five."""
    state = play(state, seat, text).state
    if GAME.top(state) is not None:
        state = play(state, seat, f"drop {state['hands'][seat]['orders'][-1]}").state
    return state


def hand_order(state: dict, seat: int, card: str) -> None:
    """Put ``card`` (wherever it is) into ``seat``'s hand of orders."""
    for place in (state["deck"], state["boxed"], state["order_discards"]):
        if card in place:
            place.remove(card)
    state["market"] = [None if c == card else c for c in state["market"]]
    for hand in state["hands"]:
        if card in hand["orders"]:
            hand["orders"].remove(card)
    state["hands"][seat]["orders"].append(card)


def hand_tile(state: dict, seat: int, kind: str) -> str:
    """Put a tile of ``kind`` into ``seat``'s hand, swapped with its first tile."""
    tile = next(t for t, k in ct.tile_ids() if k == kind
                and t not in state["hands"][seat]["tiles"]
                and all(p["tile"] != t for p in state["placed"].values()))
    for hand in state["hands"]:
        if tile in hand["tiles"]:
            hand["tiles"].remove(tile)
            hand["tiles"].append(state["hands"][seat]["tiles"].pop(0))
            break
    else:
        for pile in (state["stack"], state["tile_discards"]):
            if tile in pile:
                pile[pile.index(tile)] = state["hands"][seat]["tiles"].pop(0)
                break
    state["hands"][seat]["tiles"].append(tile)
    return tile


def first_order(kind: str, to: str, size: int = 1) -> str:
    return next(o.id for o in ct.orders().values()
                if o.to == to and len(o.candies) == size and kind in o.candies)


def clear_floor(state: dict) -> None:
    """No candy on the floor; the starting ones go back to the supply."""
    for candy in state["candies"]:
        state["supply"][candy["type"]] += 1
    state["candies"] = []


def put_candy(state: dict, kind: str, where: str, maker: int | None = None) -> str:
    candy = f"c{state['next_candy']:02d}"
    state["next_candy"] += 1
    state["supply"][kind] -= 1
    state["candies"].append({"id": candy, "type": kind, "at": where, "maker": maker})
    return candy


def notations(state: dict, seat: int) -> set[str]:
    return {a.notation for a in GAME.legal_actions(state, seat)}


# --------------------------------------------------------------------------- set-up


def test_set_up_deals_three_orders_three_tiles_and_a_market_of_four():
    state = new(4)
    for hand in state["hands"]:
        assert len(hand["orders"]) == 3 and len(hand["tiles"]) == 3
    assert len(state["market"]) == 4 and None not in state["market"]
    assert len(state["deck"]) == 8 * 4  # rounds x players: one card leaves per turn
    dealt = 4 * 3 + 4 + len(state["deck"]) + len(state["boxed"])
    assert dealt == len(ct.orders())
    assert len(state["stack"]) + 4 * 3 == len(ct.tile_ids())


def test_set_up_puts_each_output_tile_on_its_start_with_one_candy_of_its_type():
    for side in ("a", "b"):
        state = new(2, side=side)
        start = ct.sides()[side].start
        assert state["outputs"] == {k: ct.cell_name(c) for k, c in start.items()}
        on_floor = {(c["type"], c["at"]) for c in state["candies"]}
        assert on_floor == {(k, ct.cell_name(c)) for k, c in start.items()}
        assert all(c["maker"] is None for c in state["candies"])
        assert set(state["crates"]) == {"heart", "pumpkin", "bunny"}


def test_side_a_starts_the_red_output_alone_in_the_top_row():
    # Blake's example: the red output moves to the empty space in the top row.
    state = new(2)
    assert state["outputs"]["red"] == "a5"
    assert "adjust red to c5" in {a.notation for a in GAME.rules._factory_actions(state, 0)}


def test_three_blanket_orders_grey_side_up_then_the_die_flips_the_matching_one():
    for seed in range(12):
        state = new(3, seed)
        assert len(state["blankets"]) == 3
        face = state["die"]
        for blanket in state["blankets"]:
            matches = ct.blankets()[blanket["id"]].candy == face
            assert blanket["colourful"] == matches


# --------------------------------------------------------------------------- order actions


def test_a_turn_starts_with_an_order_action():
    state = new(3)
    assert notations(state, 0) == {"take order 1", "take order 2", "take order 3",
                                   "take order 4", "draw order", "discard order 1",
                                   "discard order 2", "discard order 3", "discard order 4"}
    with pytest.raises(IllegalActionError, match="order action"):
        GAME.parse(state, 0, "adjust red to c5")


def test_taking_a_face_up_order_refills_its_market_space_from_the_deck():
    state = new(3)
    card, top = state["market"][1], state["deck"][-1]
    after = play(state, 0, "take order 2").state
    assert card in after["hands"][0]["orders"]
    assert after["market"][1] == top
    assert len(after["deck"]) == len(state["deck"]) - 1
    assert after["step"] == "factory"


def test_drawing_an_order_is_told_in_public_without_naming_the_card():
    state = new(3)
    top = state["deck"][-1]
    outcome = play(state, 0, "draw order")
    assert top in outcome.state["hands"][0]["orders"]
    assert all(top not in line for line in outcome.narration(None))
    assert any(top in line for line in outcome.narration(0))


def test_discarding_a_face_up_order_replaces_it():
    state = new(3)
    card, top = state["market"][0], state["deck"][-1]
    after = play(state, 0, "discard order 1").state
    assert card in after["order_discards"] and after["market"][0] == top
    assert len(after["hands"][0]["orders"]) == 3


def test_a_sixth_order_must_be_discarded_in_secret():
    state = new(3)
    hand_order(state, 0, state["deck"][0])
    hand_order(state, 0, state["deck"][0])
    assert len(state["hands"][0]["orders"]) == 5
    state = play(state, 0, "draw order").state
    top = GAME.top(state)
    assert top is not None and top.kind == "drop" and not top.public
    drops = GAME.legal_actions(state, 0)
    assert len(drops) == 6 and all(a.hidden for a in drops)
    assert GAME.legal_actions(state, 1) == []
    card = state["hands"][0]["orders"][2]
    outcome = play(state, 0, f"drop {card}")
    assert card not in outcome.state["hands"][0]["orders"]
    assert len(outcome.state["hands"][0]["orders"]) == 5
    assert all(card not in line for line in outcome.narration(None))
    assert outcome.public == "discarded an order card face down"
    assert outcome.state["step"] == "factory"


def test_the_last_move_is_kept_as_everybody_saw_it():
    state = new(3)
    # A new game has no last move, as games stored before moves were kept have none: those
    # still hold every key a new game holds (the tables' check of a stored state).
    assert "last" not in state and GAME.view(state, None)["last"] is None
    state = play(state, 0, "take order 2").state  # the card taken is in a hand: not kept
    assert state["last"] == {"seat": 0, "verb": "take", "cells": [], "slot": 2, "kind": None,
                             "card": None}
    state = play(state, 0, "adjust red to c5").state
    assert GAME.view(state, 1)["last"] == {"seat": 0, "verb": "adjust", "cells": ["a5", "c5"],
                                           "slot": None, "kind": "red", "card": None}
    state = play(state, 1, "draw order").state
    assert state["last"]["verb"] == "draw" and state["last"]["card"] is None


def test_the_summary_says_where_each_seats_stars_come_from():
    state = new(3)
    state["points"][1] = {"orders": 4, "shipping": 2, "blanket": 6}
    assert GAME.rules.summary(state).endswith(
        "Stars from orders, shipping and blanket orders: Alex 0+0+0, Blake 4+2+6, Casey 0+0+0.")


def test_a_card_discarded_face_down_is_never_kept_as_the_last_move():
    state = new(3)
    hand_order(state, 0, state["deck"][0])
    hand_order(state, 0, state["deck"][0])
    state = play(state, 0, "draw order").state
    card = state["hands"][0]["orders"][2]
    last = play(state, 0, f"drop {card}").state["last"]
    assert last == {"seat": 0, "verb": "drop", "cells": [], "slot": None, "kind": None,
                    "card": None}


# --------------------------------------------------------------------------- factory: adjust


def test_under_rules_one_an_output_tile_moves_to_the_open_space_in_its_row_with_its_candy():
    state = order_step(new(3, rules=1), 0)
    assert {n for n in notations(state, 0) if n.startswith("adjust")} == {
        "adjust red to c5", "adjust yellow to c4", "adjust green to c3",
        "adjust blue to c2", "adjust purple to c1"}
    after = play(state, 0, "adjust red to c5").state
    assert after["outputs"]["red"] == "c5"
    assert fl.occupied(after)["c5"]["type"] == "red"
    assert "a5" not in fl.occupied(after)
    assert fl.tiles_of(after)[(0, 4)] == ("right", None)  # the printed belt shows again


def test_under_rules_one_an_output_stays_in_its_row_and_a_candy_closes_a_space():
    state = order_step(new(3, rules=1), 0)
    put_candy(state, "blue", "c4")
    assert "adjust yellow to c4" not in notations(state, 0)
    with pytest.raises(IllegalActionError, match="no open space in its row"):
        GAME.parse(state, 0, "adjust yellow to c4")
    with pytest.raises(IllegalActionError, match="its own row"):
        GAME.parse(state, 0, "adjust red to c4")
    with pytest.raises(IllegalActionError, match="not an output space"):
        GAME.parse(state, 0, "adjust red to d5")


def test_an_output_tile_moved_onto_a_played_tile_discards_it():
    state = order_step(new(3), 0)
    state["placed"]["c5"] = {"tile": state["stack"].pop(), "kind": "up"}
    after = play(state, 0, "adjust red to c5").state
    assert "c5" not in after["placed"]
    assert len(after["tile_discards"]) == 1


# --------------------------------------------------------------------------- factory: conveyors


def test_a_conveyor_tile_replaces_the_tile_there_keeps_the_candy_and_is_replaced_in_hand():
    state = order_step(new(3), 0)
    hand_tile(state, 0, "up")
    hand_tile(state, 0, "down")
    state["placed"]["d3"] = {"tile": state["stack"].pop(), "kind": "left"}
    put_candy(state, "blue", "d3")
    stack = len(state["stack"])
    after = play(state, 0, "conveyor up at d3").state
    assert after["placed"]["d3"]["kind"] == "up"
    assert fl.occupied(after)["d3"]["type"] == "blue"
    assert len(after["tile_discards"]) == 1
    assert len(after["hands"][0]["tiles"]) == 3 and len(after["stack"]) == stack - 1


def test_conveyor_tiles_cannot_cover_output_tiles_or_be_played_unheld():
    state = order_step(new(3), 0)
    kind = ct.kind_of_tile(state["hands"][0]["tiles"][0])
    assert f"conveyor {kind} at a5" not in notations(state, 0)
    assert f"conveyor {kind} at c5" in notations(state, 0)
    with pytest.raises(IllegalActionError, match="output tile"):
        GAME.parse(state, 0, f"conveyor {kind} at a5")
    held = {ct.kind_of_tile(t) for t in state["hands"][0]["tiles"]}
    missing = next(k for k in ct.tile_kinds() if k not in held)
    with pytest.raises(IllegalActionError, match="You hold no"):
        GAME.parse(state, 0, f"conveyor {missing} at d3")


def test_dallas_plays_a_green_alien_under_a_green_and_fills_the_candy_eater_order():
    state = order_step(new(4), 0)
    clear_floor(state)
    put_candy(state, "green", "e3")
    hand_tile(state, 0, "alien-green")
    special = first_order("green", "lost")
    hand_order(state, 0, special)
    outcome = play(state, 0, "conveyor alien-green at e3")
    after = outcome.state
    assert after["candies"] == []
    assert special in after["completed"][0]
    assert after["points"][0]["orders"] == ct.orders()[special].stars
    assert after["gutter"] == []  # the eaten candy filled the order and went back
    assert any("lost right away" in line for line in outcome.narration(None))


def test_the_tile_stack_is_reshuffled_from_the_discards_when_it_runs_out():
    state = order_step(new(3), 0)
    state["tile_discards"] = list(state["stack"])
    state["stack"] = []
    kind = ct.kind_of_tile(state["hands"][0]["tiles"][0])
    outcome = play(state, 0, f"conveyor {kind} at e3")
    assert len(outcome.state["hands"][0]["tiles"]) == 3
    assert outcome.state["tile_discards"] == []
    assert any("shuffled" in line for line in outcome.narration(None))


# --------------------------------------------------------------------------- factory: make


def test_make_a_candy_discards_an_order_showing_it_onto_its_empty_output():
    state = order_step(new(3), 0)
    clear_floor(state)
    card = first_order("blue", "heart")
    hand_order(state, 0, card)
    assert f"make blue at a2 with {card}" in notations(state, 0)
    after = play(state, 0, f"make blue with {card}").state
    assert card in after["order_discards"] and card not in after["hands"][0]["orders"]
    assert fl.occupied(after)["a2"] == {"id": "c06", "type": "blue", "at": "a2", "maker": 0}


def test_make_needs_an_empty_output_and_a_depicted_candy():
    state = order_step(new(3), 0)
    card = first_order("blue", "heart")
    hand_order(state, 0, card)
    assert not any(n.startswith("make blue") for n in notations(state, 0))
    with pytest.raises(IllegalActionError, match="not empty"):
        GAME.parse(state, 0, f"make blue at a2 with {card}")
    clear_floor(state)
    with pytest.raises(IllegalActionError, match="does not show"):
        GAME.parse(state, 0, f"make red at a5 with {card}")
    with pytest.raises(IllegalActionError, match="at a2, not a3"):
        GAME.parse(state, 0, f"make blue at a3 with {card}")


def test_a_make_with_several_matching_orders_asks_which_one():
    state = order_step(new(3), 0)
    clear_floor(state)
    state["hands"][0]["orders"] = []
    hand_order(state, 0, first_order("blue", "heart"))
    hand_order(state, 0, first_order("blue", "pumpkin"))
    with pytest.raises(AmbiguousActionError):
        GAME.parse(state, 0, "make blue")


# --------------------------------------------------------------------------- rounds


def play_round(state: dict, factory: dict[int, str] | None = None):
    """Every seat draws an order and plays its first tile at g1 (or the given move)."""
    outcome = None
    for _ in range(len(state["seats"])):
        seat = state["active"]
        state = order_step(state, seat)
        move = (factory or {}).get(seat)
        if move is None:
            kind = ct.kind_of_tile(state["hands"][seat]["tiles"][0])
            move = f"conveyor {kind} at b{1 + seat}"
        outcome = play(state, seat, move)
        state = outcome.state
    return state, outcome


def test_candy_movement_follows_the_last_players_factory_action_and_the_die_passes():
    state = new(3)
    state, outcome = play_round(state)
    assert state["round"] == 2 and state["first"] == 1 and state["active"] == 1
    assert state["movement"]["round"] == 1
    assert state["movement"]["at_move"] == state["move"]
    lines = outcome.narration(None)
    assert "Candy movement, round 1:" in lines
    assert any("rolled the candy die" in line for line in lines)
    assert GAME.view(state, None)["movement"]["fresh"]
    state = order_step(state, 1)
    assert not GAME.view(state, None)["movement"]["fresh"]


def test_the_die_flips_a_colourful_blanket_order_back_to_grey():
    for seed in range(40):
        state = new(3, seed)
        if any(b["colourful"] for b in state["blankets"]):
            break
    before = {b["id"]: b["colourful"] for b in state["blankets"]}
    state, _ = play_round(state)
    face = state["die"]
    for blanket in state["blankets"]:
        flipped = ct.blankets()[blanket["id"]].candy == face
        assert blanket["colourful"] == (before[blanket["id"]] != flipped)


# --------------------------------------------------------------------------- scoring


def shipping_state(rules: int | None = None) -> dict:
    state = order_step(new(3, rules=rules), 0)
    clear_floor(state)
    for hand in state["hands"]:
        hand["orders"] = []
    for blanket in state["blankets"]:
        blanket["colourful"] = False
    return state


def test_a_shipped_candy_pays_its_maker_and_a_starting_candy_pays_nobody():
    state = shipping_state()
    put_candy(state, "red", "g4", maker=1)
    put_candy(state, "red", "g2", maker=None)
    state["first"], state["active"] = 0, 2  # the last seat of the round
    state["step"] = "factory"
    kind = ct.kind_of_tile(state["hands"][2]["tiles"][0])
    after = play(state, 2, f"conveyor {kind} at d1").state
    assert [c["type"] for c in after["crates"]["heart"]] == ["red"]
    assert [c["type"] for c in after["crates"]["pumpkin"]] == ["red"]
    assert after["points"][1]["shipping"] == ct.ship_stars()
    assert sum(p["shipping"] for p in after["points"]) == ct.ship_stars()


def test_under_rules_one_a_colourful_blanket_order_pays_for_its_candy_in_its_crate():
    state = shipping_state(rules=1)
    blanket = ct.blankets()[state["blankets"][0]["id"]]
    state["blankets"][0]["colourful"] = True
    row = {"heart": "g4", "bunny": "g3", "pumpkin": "g2"}[blanket.crate]
    put_candy(state, blanket.candy, row, maker=0)
    other = next(c for c in ("heart", "bunny", "pumpkin") if c != blanket.crate)
    put_candy(state, blanket.candy, {"heart": "e4", "bunny": "e3", "pumpkin": "e2"}[other],
              maker=0)
    state["first"], state["active"] = 0, 2  # the last seat of the round
    state["step"] = "factory"
    kind = ct.kind_of_tile(state["hands"][2]["tiles"][0])
    after = play(state, 2, f"conveyor {kind} at d1").state
    assert after["points"][0]["blanket"] == blanket.stars
    assert after["points"][0]["shipping"] == ct.ship_stars()


def test_an_order_fills_as_soon_as_its_crate_holds_its_candies_first_seat_first():
    state = shipping_state()
    card_a = first_order("yellow", "heart")
    hand_order(state, 1, card_a)
    state["crates"]["heart"].append({"id": "c90", "type": "red", "maker": None})
    put_candy(state, "yellow", "g4")
    state["first"], state["active"] = 0, 2  # the last seat of the round
    state["step"] = "factory"
    kind = ct.kind_of_tile(state["hands"][2]["tiles"][0])
    outcome = play(state, 2, f"conveyor {kind} at d1")
    after = outcome.state
    assert card_a in after["completed"][1]
    assert [c["type"] for c in after["crates"]["heart"]] == ["red"]
    assert after["supply"]["yellow"] == ct.supply_per_type()
    assert any(f"filled order {card_a}" in line for line in outcome.narration(None))


def test_when_two_players_can_fill_the_first_player_of_the_round_goes_first():
    state = shipping_state()
    single = first_order("yellow", "heart")
    pair = next(o.id for o in ct.orders().values()
                if o.to == "heart" and o.candies == ("red", "yellow"))
    hand_order(state, 0, single)
    hand_order(state, 2, pair)
    state["crates"]["heart"].append({"id": "c90", "type": "red", "maker": None})
    state["first"] = 2
    state["active"] = 1
    state["step"] = "factory"
    put_candy(state, "yellow", "g4")
    kind = ct.kind_of_tile(state["hands"][1]["tiles"][0])
    after = play(state, 1, f"conveyor {kind} at d1").state
    assert after["completed"] == [[], [], [pair]]
    assert single in after["hands"][0]["orders"]


def test_a_market_order_taken_when_its_crate_is_ready_fills_at_once():
    state = shipping_state()
    card = state["market"][0]
    order = ct.orders()[card]
    pool = state["gutter"] if order.special else state["crates"][order.to]
    for kind in order.candies:
        pool.append({"id": f"x{kind}", "type": kind, "maker": None})
    state["active"] = 1
    state["step"] = "order"
    after = play(state, 1, "take order 1").state
    assert card in after["completed"][1]


# --------------------------------------------------------------------------- the end


def test_the_game_ends_after_the_round_in_which_the_order_deck_runs_out():
    state = new(2, rounds=4)
    for round_number in range(1, 5):
        assert state["round"] == round_number and GAME.result(state) is None
        state, outcome = play_round(state)
    assert state["deck"] == [] and state["over"]
    result = GAME.result(state)
    assert result is not None and GAME.to_act(state) == frozenset()
    assert any("shift ends" in line for line in outcome.narration(None))


def test_ties_go_to_more_orders_filled_then_more_own_candy_shipped():
    state = new(3)
    state["over"] = True
    state["points"] = [{"orders": 4, "shipping": 2, "blanket": 0},
                       {"orders": 6, "shipping": 0, "blanket": 0},
                       {"orders": 4, "shipping": 2, "blanket": 0}]
    state["completed"] = [["o01", "o02"], ["o03"], ["o04", "o05"]]
    state["shipped"] = [1, 0, 1]
    result = GAME.result(state)
    assert result.ranking == ((0, 2), (1,))
    state["shipped"] = [2, 0, 1]
    assert GAME.result(state).ranking == ((0,), (2,), (1,))


def test_with_nothing_left_in_market_or_deck_the_order_action_is_skipped():
    state = new(2)
    state["deck"] = []
    state["market"] = [None] * 4
    assert notations(state, 0) == {"skip order"}
    after = play(state, 0, "skip order").state
    assert after["step"] == "factory"


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(("text", "canonical"), [
    ("take 2", "take order 2"), ("draw", "draw order"), ("discard order 3", "discard order 3"),
    ("adjust circle to c5", "adjust red to c5"), ("move red output to c5", "adjust red to c5"),
    ("conveyor up at c3", "conveyor up at c3"), ("play jump right at b4",
                                                  "conveyor jump-right at b4"),
    ("conveyor green alien at f2", "conveyor alien-green at f2"),
    ("conveyor up spring c3", "conveyor spring at c3"),
    ("make square at a2 with o7", "make blue at a2 with o07"), ("drop o9", "drop o09"),
])
def test_notation_is_forgiving_and_canonical(text, canonical):
    assert GAME.rules._canonical(text) == canonical


def test_text_that_is_not_a_move_is_a_notation_error():
    with pytest.raises(NotationError):
        GAME.parse(new(2), 0, "bake a cake")
    with pytest.raises(NotationError):
        GAME.parse(new(2), 0, "conveyor sideways at c3")


def test_the_rules_document_lists_the_content_as_the_data_has_it():

    from tools.rules_pages import sugarworks_content

    page = ROOT / "docs" / "rules" / "sugarworks.md"
    assert sugarworks_content() in page.read_text(encoding="utf-8")
