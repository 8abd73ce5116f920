"""What one seat (or a spectator) may see of a Sugarworks game."""

from __future__ import annotations

from typing import Any, Protocol

from bot.games import engine
from bot.games.engine import Rules, State, View
from bot.games.sugarworks import content as ct
from bot.games.sugarworks import floor as fl


class Sugarworks(Rules, Protocol):
    """What the view reads of the rules (a protocol: the rules import this module)."""

    def total(self, state: State, seat: int) -> int: ...


def build_view(game: Sugarworks, state: State, seat: int | None) -> View:
    """The factory as ``seat`` sees it (``None``: a spectator). JSON-compatible.

    Schema::

        game, viewer, move, to_act, round, rounds, first, active, over
        step      "order" | "drop" | "factory" | "over"
        board     {"side", "name", "width", "height",
                   "spaces": [{"cell": "a1", "x", "y", "centre": icon, "corner": icon|None,
                               "tile": tile kind|None (a played conveyor tile),
                               "output": candy type|None (an output tile),
                               "output_space": bool}],
                   "crates": [{"crate", "cell", "x", "y",
                               "candies": [{"id", "type", "maker"}]}]}
        candies   [{"id", "type", "cell", "x", "y", "maker": seat|None}]  on the floor
        gutter    [{"id", "type", "maker"}]                                lost candies
        supply    {type: candies left}
        market    [order json | None] x 4 (face up)
        blankets  [{"id", "candy", "crate", "stars", "colourful", "text"}]
        die       the candy die's last face
        decks     {"orders", "boxed", "order_discards", "tiles", "tile_discards"}
        seats     [{"seat", "name", "ai", "score", "points": {"orders", "shipping", "blanket"},
                    "orders_in_hand", "tiles_in_hand", "completed": [order json],
                    "shipped"}]
        hand      None | {"orders": [order json], "tiles": [{"id", "kind", "name", "centre",
                   "corner", "text"}]}   the viewer's own hand, never another's
        movement  None | the last candy movement: {"round", "start": [{"id", "type", "maker",
                   "cell": [x, y]}], "steps": [{"candy", "type", "activation", "start",
                   "events", "after": {id: [x, y]}, "text"}], "lines", "shipped", "lost",
                   "bonks", "gained", "at_move", "fresh": the latest move made it}
        last      None | the latest move as everybody saw it: {"seat", "verb": "take" |
                   "discard" | "draw" | "skip" | "drop" | "adjust" | "conveyor" | "make" |
                   "pass", "cells": [cell] it touched (adjust: from, to), "slot": market
                   slot 1-4 | None, "kind": candy or tile kind | None, "card": the order
                   card a make spent (discarded face up) | None}
        history   [{"round", "shipped", "lost", "bonks", "on_board"}]
        result    None | Result.to_json()
    """
    side = fl.side_of(state)
    tiles = fl.tiles_of(state)
    outputs = fl.output_at(state)
    result = game._result(state)
    top = engine.top(state)
    step = "over" if state["over"] else ("drop" if top is not None else state["step"])
    spaces = []
    for row in range(side.height - 1, -1, -1):
        for col in range(side.width):
            name = ct.cell_name((col, row))
            centre, corner = tiles[(col, row)]
            placed = state["placed"].get(name)
            spaces.append({"cell": name, "x": col, "y": row, "centre": centre,
                           "corner": corner, "tile": placed["kind"] if placed else None,
                           "output": outputs.get(name),
                           "output_space": (col, row) in side.output_spaces})
    crates = []
    for where, crate in side.crates.items():
        crates.append({"crate": crate, "cell": ct.cell_name(where), "x": where[0],
                       "y": where[1], "candies": [dict(c) for c in state["crates"][crate]]})
    return {
        "game": game.slug,
        "viewer": seat,
        "move": state["move"],
        "to_act": sorted(engine.to_act(game, state)),
        "round": state["round"],
        "rounds": state["rounds"],
        "first": state["first"],
        "active": state["active"],
        "over": state["over"],
        "step": step,
        "board": {"side": side.key, "name": side.name, "width": side.width,
                  "height": side.height, "spaces": spaces, "crates": crates},
        "candies": [{"id": c["id"], "type": c["type"], "cell": c["at"],
                     "x": fl.cell(c["at"])[0], "y": fl.cell(c["at"])[1], "maker": c["maker"]}
                    for c in state["candies"]],
        "gutter": [dict(c) for c in state["gutter"]],
        "supply": dict(state["supply"]),
        "market": [ct.orders()[c].to_json() if c else None for c in state["market"]],
        "blankets": [ct.blankets()[b["id"]].to_json(b["colourful"], state["rules"])
                     for b in state["blankets"]],
        "die": state["die"],
        "decks": {"orders": len(state["deck"]), "boxed": len(state["boxed"]),
                  "order_discards": len(state["order_discards"]),
                  "tiles": len(state["stack"]), "tile_discards": len(state["tile_discards"])},
        "seats": [_seat(game, state, i) for i in range(len(state["seats"]))],
        "hand": _hand(game, state, seat),
        "movement": (dict(state["movement"], fresh=state["movement"]["at_move"] == state["move"])
                     if state["movement"] else None),
        # Games stored before moves were kept have none until their next move.
        "last": dict(state["last"]) if state.get("last") else None,
        "history": [dict(h) for h in state["history"]],
        "result": result.to_json() if result else None,
    }


def _seat(game: Sugarworks, state: State, seat: int) -> dict[str, Any]:
    info = state["seats"][seat]
    hand = state["hands"][seat]
    return {"seat": seat, "name": info["name"], "ai": info["ai"],
            "score": game.total(state, seat), "points": dict(state["points"][seat]),
            "orders_in_hand": len(hand["orders"]), "tiles_in_hand": len(hand["tiles"]),
            "completed": [ct.orders()[c].to_json() for c in state["completed"][seat]],
            "shipped": state["shipped"][seat]}


def _hand(game: Sugarworks, state: State, seat: int | None) -> dict[str, Any] | None:
    if seat is None or not 0 <= seat < len(state["seats"]):
        return None
    hand = state["hands"][seat]
    tiles = []
    for tile in hand["tiles"]:
        kind = ct.tile_kinds()[ct.kind_of_tile(tile)]
        tiles.append({"id": tile, "kind": kind.kind, "name": kind.name, "centre": kind.centre,
                      "corner": kind.corner, "text": ct.tile_text(kind.kind)})
    return {"orders": [ct.orders()[c].to_json() for c in hand["orders"]], "tiles": tiles}
