"""Sugartopia: the previous AI, frozen (version 1) as the opponent a new AI is measured
against (``tools/strength.py``, policy ``previous``).

A copy of ``bot/games/sugartopia/ai.py`` as the rules' ``ai`` policy plays it; never edit it,
so that it keeps playing exactly as that policy did. It reads only its view and the
game's board and card helpers. The original module's text follows.

The Sugartopia AI: a greedy player that looks one placement ahead.

It works only from its own view: the public table plus its own hand card. Each
placement is tried on a copy of the table (cubes on the new sheep, bears fed,
closed areas scored) and valued by how much it raises the player's expected
points (cubes in hand, cubes on its own bears, its share of the cubes where it
leads on bears, its cookie route) against the best opponent's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.engine import Action, View
from bot.games.rng import Rng
from bot.games.sugartopia import tiles
from bot.games.sugartopia.board import Area, Table, new_entry, score_area, split

#: Cubes not yet won can still be lost to a rival's bears.
OPEN_SHARE = 0.75
#: Placing the Gingerman early spends it; a route has to be worth more than that.
GINGERMAN_COST = 1.5


def _entries(view: View) -> list[dict[str, Any]]:
    """A private copy of the table that :class:`Table` can work on."""
    return [
        {"card": c["card"], "q": c["q"], "r": c["r"], "rot": c["rot"], "owner": c["owner"],
         "fields": [{"sugar": f["sugar"], "honey": f["honey"], "fed": list(f["fed"]),
                     "done": f["done"]} for f in c["fields"]]}
        for c in view["cards"]
    ]


def _area_worth(table: Table, area: Area, colours: Sequence[str]) -> list[float]:
    """Expected points per seat from one open area if it were scored now."""
    worth = [0.0] * len(colours)
    seat_of = {c: s for s, c in enumerate(colours)}
    loose = table.sheep_sugar(area)
    counts: dict[str, int] = {}
    for _, _, _, colour in table.bears(area):
        counts[colour] = counts.get(colour, 0) + 1
    for *_, colour in table.fed_bears(area):
        if colour in seat_of:
            worth[seat_of[colour]] += 1
        else:
            loose += 1
    for colour, n in split(counts, loose, colours).shares.items():
        worth[seat_of[colour]] += OPEN_SHARE * n
    for colour, n in split(counts, table.honey(area), colours).shares.items():
        worth[seat_of[colour]] += OPEN_SHARE * 2 * n
    return worth


def _worth(table: Table, areas: list[Area], colours: Sequence[str],
           routes: bool) -> list[float]:
    worth = [0.0] * len(colours)
    for area in areas:
        if table.done(area):
            continue
        for s, w in enumerate(_area_worth(table, area, colours)):
            worth[s] += w
    if routes:
        for s in range(len(colours)):
            route = table.best_route(s)
            if route is not None:
                worth[s] += 2 * route.cookies
    return worth


def _feed_order(colours: Sequence[str], me: int) -> dict[str, int]:
    """Which bears the player would rather feed: its own, then nobody's, then rivals'."""
    order = {c: 2 for c in tiles.player_colours() + tiles.neutral_colours()}
    for c in colours:
        order[c] = 0 if c == colours[me] else 2
    for c in order:
        if c not in colours:
            order[c] = 1
    return order


def _simulate(view: View, me: int, notation: str) -> list[float]:
    """Each seat's expected points after ``notation`` (the placing seat's point of view)."""
    colours = view["colours"]["players"]
    table = Table(_entries(view), tiles.catalogue())
    words = notation.split(" ")
    gained = [0.0] * len(colours)
    index = -1
    if words[0] == "gingerman":
        pos = tiles.pos_of(words[2])
        assert pos is not None
        table.place(new_entry(tiles.catalogue()[tiles.GINGERMAN], pos, 0, owner=me))
    else:
        card = tiles.catalogue()[words[1]]
        pos = tiles.pos_of(words[3])
        assert pos is not None
        index = table.place(new_entry(card, pos, int(words[5])))
        sugar, honey = view["supply"]["sugar"], view["supply"]["honey"]
        for f, field in enumerate(card.fields):
            cubes = table.entries[index]["fields"][f]
            cubes["sugar"] = min(field.sheep, sugar)
            sugar -= cubes["sugar"]
            cubes["honey"] = min(field.rainbow, honey)
            honey -= cubes["honey"]
    # Feeding and scoring move cubes but never change which fields form an area.
    areas = table.areas()
    if index >= 0:
        order = _feed_order(colours, me)
        for area in areas:
            if any(i == index for i, _ in area.regions):
                hungry = sorted(table.hungry(area), key=lambda b: order[b[3]])
                for bear in hungry[: table.sheep_sugar(area)]:
                    table.feed(area, bear)
    for area in areas:
        if not area.open and not table.done(area):
            scored = score_area(table, area, colours)
            for s in range(len(colours)):
                gained[s] += scored.sugar_total(s) + 2 * scored.honey.get(s, 0)
    worth = _worth(table, areas, colours, routes=words[0] == "gingerman")
    return [g + w for g, w in zip(gained, worth, strict=True)]


def action_values(view: View, actions: Sequence[Action]) -> dict[str, float]:
    """How good each action looks to the player whose view this is."""
    me = view["viewer"]
    if me is None:
        return {a.notation: 0.0 for a in actions}
    colours = view["colours"]["players"]
    out: dict[str, float] = {}
    feed_order = _feed_order(colours, me)
    base_table = Table(_entries(view), tiles.catalogue())
    base_areas = base_table.areas()
    base = _worth(base_table, base_areas, colours, routes=False)
    base_routes: list[float] | None = None
    has_card = view["hand"] is not None
    for action in actions:
        words = action.notation.split(" ")
        if words[0] == "feed":
            out[action.notation] = -float(feed_order[words[1]])
            continue
        after = _simulate(view, me, action.notation)
        before = base
        if words[0] == "gingerman":
            if base_routes is None:
                base_routes = _worth(base_table, base_areas, colours, routes=True)
            before = base_routes
        delta = [a - b for a, b in zip(after, before, strict=True)]
        rivals = max((d for s, d in enumerate(delta) if s != me), default=0.0)
        value = delta[me] - rivals
        if words[0] == "gingerman" and has_card:
            value -= GINGERMAN_COST
        out[action.notation] = value
    return out


def choose(view: View, legal: list[Action], rng: Rng) -> Action:
    """The best-valued legal action; ties broken at random."""
    values = action_values(view, legal)
    best = max(values.values())
    return rng.choice([a for a in legal if values[a.notation] >= best - 1e-9])
