"""The Sugarworks AI: it plays every factory action out on a copy of the floor.

For each candidate it runs the coming candy movement with the same engine the
rules use (:func:`bot.games.sugarworks.movement.run`), then follows every candy
still on the floor along its icons to where it will probably end up. From that
it values the crates and the gutter as they will fill: stars of its own orders
the candies would complete, its own candies shipped (their shipping stars)
against its rivals', and a colourful blanket order's stars for a candy it
makes. Arrivals further away count less.
It sees only its own view: the public floor and its own hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.engine import Action, View
from bot.games.rng import Rng
from bot.games.sugarworks import content as ct
from bot.games.sugarworks.movement import Floor, Tile, run

#: How much an arrival one round further off is worth against one in the coming movement.
DISCOUNT = 0.85
#: Most steps a candy is followed along its icons after the coming movement.
LOOKAHEAD = 14
#: A rival's shipped candy is worth this much to the AI (negative: it helps a rival).
RIVAL_SHARE = -0.5
#: What an unseen order from the deck is worth.
DRAW_VALUE = 1.2
#: An order card kept in hand is also candy to make later, while the hand is not full.
CARD_FLOOR = 0.4
#: A candy made is worth something beyond the horizon: orders not yet in anybody's hand.
MAKE_BONUS = 0.8

Pools = dict[str, dict[str, float]]


@dataclass
class Model:
    """The public floor and the AI's own orders, read from its view."""

    me: int
    side: ct.Side
    tiles: dict[ct.Cell, Tile]
    candies: list[tuple[str, str, ct.Cell]]
    makers: dict[str, int | None]
    pools: Pools
    bonus: dict[tuple[str, str], int]
    orders: list[ct.Order]
    outputs: dict[str, ct.Cell]
    #: Rounds still to come after the coming movement.
    rounds_left: int
    #: Stars a colourful blanket order pays for making a candy of its type (rules 2).
    made_bonus: dict[str, int]


def model_of(view: View) -> Model:
    """Rebuild what the engine needs from a view."""
    side = ct.sides()[view["board"]["side"]]
    tiles: dict[ct.Cell, Tile] = {}
    outputs = {}
    for space in view["board"]["spaces"]:
        cell = (space["x"], space["y"])
        tiles[cell] = (space["centre"], space["corner"])
        if space["output"]:
            outputs[space["output"]] = cell
    candies = [(c["id"], c["type"], (c["x"], c["y"])) for c in view["candies"]]
    makers = {c["id"]: c["maker"] for c in view["candies"]}
    pools: Pools = {crate["crate"]: {} for crate in view["board"]["crates"]}
    pools[ct.LOST] = {}
    for crate in view["board"]["crates"]:
        for candy in crate["candies"]:
            _add(pools[crate["crate"]], candy["type"], 1.0)
    for candy in view["gutter"]:
        _add(pools[ct.LOST], candy["type"], 1.0)
    colourful = [b for b in view["blankets"] if b["colourful"]]
    bonus = {(b["candy"], b["crate"]): b["stars"] for b in colourful if b["pays"] == "shipped"}
    made_bonus = {b["candy"]: b["stars"] for b in colourful if b["pays"] == "made"}
    hand = view["hand"] or {"orders": []}
    orders = [ct.orders()[o["id"]] for o in hand["orders"]]
    return Model(view["viewer"], side, tiles, candies, makers, pools, bonus, orders, outputs,
                 view["rounds"] - view["round"], made_bonus)


def _add(pool: dict[str, float], kind: str, weight: float) -> None:
    pool[kind] = pool.get(kind, 0.0) + weight


def trace(side: ct.Side, tiles: dict[ct.Cell, Tile], cell: ct.Cell, kind: str,
          limit: int = LOOKAHEAD) -> tuple[str | None, int]:
    """Where a lone candy on ``cell`` ends up following its icons: (crate | lost | None, steps)."""
    icons = ct.icons()
    seen = {cell}
    for steps in range(1, limit + 1):
        centre = icons[tiles[cell][0]]
        if centre.move is None:
            return (ct.LOST if centre.eats_candy(kind) else None), steps
        cell = (cell[0] + centre.move[0], cell[1] + centre.move[1])
        if not side.on_board(cell):
            return side.crates.get(cell, ct.LOST), steps
        corner = tiles[cell][1]
        if corner is not None and icons[corner].eats_candy(kind):
            return ct.LOST, steps
        if cell in seen:
            return None, steps
        seen.add(cell)
    return None, limit


def order_value(order: ct.Order, pools: Pools) -> float:
    """Stars times how much of the order the expected crate (or gutter) covers."""
    pool = pools.get(order.to, {})
    need: dict[str, int] = {}
    for kind in order.candies:
        need[kind] = need.get(kind, 0) + 1
    cover = 1.0
    for kind, n in need.items():
        cover *= min(1.0, pool.get(kind, 0.0) / n)
    return order.stars * cover


def forecast(model: Model, tiles: dict[ct.Cell, Tile],
             candies: Sequence[tuple[str, str, ct.Cell]],
             makers: dict[str, int | None], lost: Sequence[tuple[str, str]] = ()
             ) -> tuple[Pools, float]:
    """Expected pools after the coming movement and beyond, and the shipping value to the AI."""
    pools = {k: dict(v) for k, v in model.pools.items()}
    shipping = 0.0
    for _, kind in lost:
        _add(pools[ct.LOST], kind, 1.0)
    story = run(model.side, tiles, candies, narrate=False)
    types = story.types
    for candy, where in story.arrivals:
        _add(pools[where], types[candy], 1.0)
        shipping += _shipping(model, makers.get(candy), types[candy], where, 1.0)
    limit = min(LOOKAHEAD, 2 * model.rounds_left)
    for candy, cell in story.final.items():
        kind = types[candy]
        end, steps = trace(model.side, tiles, cell, kind, limit)
        if end is None:
            continue
        weight = DISCOUNT ** ((steps + 1) // 2)
        _add(pools[end], kind, weight)
        shipping += _shipping(model, makers.get(candy), kind, end, weight)
    return pools, shipping


def _shipping(model: Model, maker: int | None, kind: str, where: str, weight: float) -> float:
    if maker is None or where == ct.LOST:
        return 0.0
    worth = ct.ship_stars() + model.bonus.get((kind, where), 0)
    return weight * worth * (1.0 if maker == model.me else RIVAL_SHARE)


def _worth(model: Model, orders: Sequence[ct.Order], pools: Pools, shipping: float) -> float:
    return shipping + sum(order_value(o, pools) for o in orders)


def factory_value(model: Model, notation: str,
                  made: dict[str, tuple[Pools, float]] | None = None) -> float:
    """The AI's value of the floor after a factory action and the coming movement.

    ``made`` keeps the forecast after making each kind of candy: every order card a
    candy could be made with gives the same floor, so its movement is played once.
    """
    words = notation.split(" ")
    tiles = model.tiles
    candies = list(model.candies)
    makers = model.makers
    orders = model.orders
    lost: list[tuple[str, str]] = []
    cost = 0.0
    if words[0] == "adjust":
        kind, target = words[1], ct.parse_cell(words[3])
        assert target is not None
        old = model.outputs[kind]
        tiles = dict(tiles)
        tiles[old] = (model.side.printed[old], None)
        tiles[target] = ct.output_icons()
        candies = [(c, t, target if cell == old else cell) for c, t, cell in candies]
    elif words[0] == "conveyor":
        tile, target = ct.tile_kinds()[words[1]], ct.parse_cell(words[3])
        assert target is not None
        tiles = dict(tiles)
        tiles[target] = (tile.centre, tile.corner)
        floor = Floor(model.side, tiles, candies, narrate=False)
        if floor.eat_on_placement(target):
            lost = [(c, t) for c, t, cell in candies if cell == target]
            candies = [c for c in candies if c[2] != target]
    elif words[0] == "make":
        kind, card = words[1], words[5]
        candies.append(("new", kind, model.outputs[kind]))
        makers = dict(makers, new=model.me)
        kept = [o for o in orders if o.id != card]
        cost = CARD_FLOOR - MAKE_BONUS
        if len(kept) == len(orders):
            cost = -MAKE_BONUS  # a market order: no card of one's own is spent
        elif len(orders) >= 5:
            # A full hand drops its weakest order at the next draw anyway.
            cost = -MAKE_BONUS - min(order_value(o, model.pools) for o in orders)
        cost -= model.made_bonus.get(kind, 0)
        orders = kept
        if made is not None:
            if kind not in made:
                made[kind] = forecast(model, tiles, candies, makers, lost)
            pools, shipping = made[kind]
            return _worth(model, orders, pools, shipping) - cost
    pools, shipping = forecast(model, tiles, candies, makers, lost)
    return _worth(model, orders, pools, shipping) - cost


class _Watched(dict[ct.Cell, Tile]):
    """The floor's tiles, noting each cell whose tile is looked at."""

    def __init__(self, tiles: dict[ct.Cell, Tile]) -> None:
        super().__init__(tiles)
        self.looked: set[ct.Cell] = set()

    def __getitem__(self, cell: ct.Cell) -> Tile:
        self.looked.add(cell)
        return super().__getitem__(cell)


class _AsItIs:
    """The floor's worth as it is, and the cells whose tiles that worth depends on: those
    the coming movement and every candy's path after it look at, and those the candies
    stand on (a tile laid under a candy may eat it).

    A conveyor laid anywhere else changes nothing any candy does, so it is worth exactly
    this (the same figures to the last bit: the same sums in the same order), found once
    rather than by playing the movement again for each such cell.
    """

    def __init__(self, model: Model) -> None:
        tiles = _Watched(model.tiles)
        pools, shipping = forecast(model, tiles, model.candies, model.makers)
        self.worth = _worth(model, model.orders, pools, shipping)
        self.cells = tiles.looked | {cell for _, _, cell in model.candies}


def action_values(view: View, actions: Sequence[Action]) -> dict[str, float]:
    """How good each legal action looks to the seat whose view this is."""
    if view["viewer"] is None or not actions:
        return {a.notation: 0.0 for a in actions}
    model = model_of(view)
    out: dict[str, float] = {}
    verb = actions[0].notation.split(" ")[0]
    if verb in ("take", "draw", "discard", "skip", "drop"):
        pools, _ = forecast(model, model.tiles, model.candies, model.makers)
        kept = sorted(order_value(o, pools) + CARD_FLOOR for o in model.orders)
        full = len(model.orders) >= 5
        for action in actions:
            words = action.notation.split(" ")
            if words[0] == "take":
                order = ct.orders()[view["market"][int(words[2]) - 1]["id"]]
                gain = order_value(order, pools) + CARD_FLOOR
                out[action.notation] = gain - (kept[0] if full and kept else 0.0)
            elif words[0] == "draw":
                out[action.notation] = DRAW_VALUE - (kept[0] if full and kept else 0.0)
            elif words[0] == "discard":
                order = ct.orders()[view["market"][int(words[2]) - 1]["id"]]
                out[action.notation] = 0.2 * order_value(order, pools) - 0.5
            elif words[0] == "drop":
                order = ct.orders()[words[1]]
                out[action.notation] = -order_value(order, pools)
            else:
                out[action.notation] = 0.0
        return out
    as_it_is: _AsItIs | None = None
    made: dict[str, tuple[Pools, float]] = {}
    for action in actions:
        words = action.notation.split(" ")
        if action.notation == "pass":
            out[action.notation] = 0.0
            continue
        if words[0] == "conveyor":
            as_it_is = as_it_is or _AsItIs(model)
            if ct.parse_cell(words[3]) not in as_it_is.cells:
                out[action.notation] = as_it_is.worth
                continue
        out[action.notation] = factory_value(model, action.notation, made)
    return out


def choose(view: View, legal: list[Action], rng: Rng) -> Action:
    """The best-valued legal action; ties broken at random."""
    values = action_values(view, legal)
    best = max(values.values())
    return rng.choice([a for a in legal if values[a.notation] >= best - 1e-9])
