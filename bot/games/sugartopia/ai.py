"""The Sugartopia AI: a greedy player that looks one placement ahead.

It works only from its own view: the public table plus its own hand card. Each
placement is tried on a copy of the table (cubes on the new sheep, bears fed,
closed areas scored) and valued by how much it raises the player's expected
points (cubes in hand, cubes on its own bears, its share of the cubes where it
leads on bears, its cookie route) against the best opponent's.

:func:`_simulate` says what a placement is worth by playing it on a whole copy of
the table. :func:`action_values` finds the same figures faster (:class:`_Before`): the
table before the move is worked out once, and each placement only touches the areas it
joins, closes or feeds, so only those are worked out again; every other area is worth
what it was. The figures are the same to the last bit: every worth is a whole multiple
of a quarter, so sums of them are exact in whatever order they are taken.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.games.engine import Action, View
from bot.games.rng import Rng
from bot.games.sugartopia import tiles
from bot.games.sugartopia.board import Area, Table, leaders, new_entry, score_area, shares
from bot.games.sugartopia.tiles import Pos, neighbour, opposite, turned

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
    # One pass over the area's fields (the AI's hottest loop): its cubes, its bears by
    # colour, and its fed bears in table order, as Table.fed_bears lists them.
    loose = honey = 0
    counts: dict[str, int] = {}
    for i, f in area.regions:
        state = table.entries[i]["fields"][f]
        loose += state["sugar"]
        honey += state["honey"]
        fed = state["fed"]
        for b, colour in enumerate(table.card(i).fields[f].bears):
            counts[colour] = counts.get(colour, 0) + 1
            if fed[b]:
                if colour in seat_of:
                    worth[seat_of[colour]] += 1
                else:
                    loose += 1
    tied = leaders(counts)  # both piles go to the same leaders (board.split)
    for colour, n in shares(tied, loose, seat_of).items():
        worth[seat_of[colour]] += OPEN_SHARE * n
    for colour, n in shares(tied, honey, seat_of).items():
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


class _Before:
    """The table before the move, worked out once for all the placements valued on it:
    its areas, the empty spots each area's grassland faces, and each area's worth."""

    def __init__(self, view: View, me: int) -> None:
        self.view = view
        self.me = me
        self.colours: list[str] = view["colours"]["players"]
        self.entries = _entries(view)
        self.table = Table(self.entries, tiles.catalogue())
        self.areas = self.table.areas()
        self.area_of = {region: k for k, area in enumerate(self.areas)
                        for region in area.regions}
        self.spots = [self._facing(area) for area in self.areas]
        #: The areas whose grassland faces each empty spot.
        self.facing: dict[Pos, set[int]] = {}
        for k, spots in enumerate(self.spots):
            for spot in spots:
                self.facing.setdefault(spot, set()).add(k)
        self.worth: list[list[float] | None] = [
            None if self.table.done(area) else _area_worth(self.table, area, self.colours)
            for area in self.areas]
        # Closed areas not scored yet (none between turns): any placement scores them.
        self.unscored = {k for k, area in enumerate(self.areas)
                         if not area.open and not self.table.done(area)}
        self._links: list[tuple[tuple[int, int], tuple[int, int], int]] | None = None
        self.order = _feed_order(self.colours, me)

    def _facing(self, area: Area) -> set[Pos]:
        """The empty spots the area's grassland sides face (the area is open if any)."""
        out = set()
        for i, f in area.regions:
            entry = self.entries[i]
            for printed in self.table.card(i).fields[f].sides:
                spot = neighbour((entry["q"], entry["r"]), turned(printed, entry["rot"]))
                if spot not in self.table.at:
                    out.add(spot)
        return out

    def links(self) -> list[tuple[tuple[int, int], tuple[int, int], int]]:
        """The table's joined roads (:meth:`Table._road_links`), worked out once."""
        if self._links is None:
            self._links = self.table._road_links()
        return self._links

    def delta(self, notation: str) -> list[float]:
        """Each seat's expected points after ``notation`` minus before it: the same
        figures as :func:`_simulate` less the table's worth before (with every seat's
        cookie route for a Gingerman), working out only the areas the placement changes."""
        colours, me = self.colours, self.me
        words = notation.split(" ")
        catalogue = tiles.catalogue()
        gingerman = words[0] == "gingerman"
        if gingerman and self.table.gingerman_of(me) is not None:
            # Not a move the rules offer; the whole table is worked out as before.
            routes = _worth(self.table, self.areas, colours, routes=True)
            return [a - b for a, b in zip(_simulate(self.view, me, notation), routes,
                                          strict=True)]
        card = catalogue[tiles.GINGERMAN if gingerman else words[1]]
        pos = tiles.pos_of(words[2] if gingerman else words[3])
        assert pos is not None
        rot = 0 if gingerman else int(words[5])
        index = len(self.entries)
        entry = new_entry(card, pos, rot, owner=me if gingerman else None)
        if not gingerman:
            sugar, honey = self.view["supply"]["sugar"], self.view["supply"]["honey"]
            for f, field in enumerate(card.fields):
                cubes = entry["fields"][f]
                cubes["sugar"] = min(field.sheep, sugar)
                sugar -= cubes["sugar"]
                cubes["honey"] = min(field.rainbow, honey)
                honey -= cubes["honey"]
        # The new card's fields, each with the old areas it joins and whether it faces an
        # empty spot; fields joined through an old area make one area.
        groups: list[tuple[list[int], set[int], bool]] = []
        for f, field in enumerate(card.fields):
            joins: set[int] = set()
            opens = False
            for printed in field.sides:
                side = turned(printed, rot)
                other = self.table.at.get(neighbour(pos, side))
                if other is None:
                    opens = True
                    continue
                facing = self.table.card(other).field_at(opposite(side),
                                                         self.entries[other]["rot"])
                if facing is not None:
                    joins.add(self.area_of[(other, facing)])
            fields, opened = [f], opens
            for group in [g for g in groups if g[1] & joins]:
                groups.remove(group)
                fields += group[0]
                joins |= group[1]
                opened = opened or group[2]
            groups.append((fields, joins, opened))
        joined = set().union(*(g[1] for g in groups)) if groups else set()
        touched = self.facing.get(pos, set()) | self.unscored
        changed = joined | touched
        # The table after: the old list and the new card; an entry is copied before
        # feeding or scoring changes it, as _simulate's copy of the whole list has it.
        entries = list(self.entries)
        table = self.table.sharing(entries)
        table.place(entry)
        areas = []
        for fields, old_areas, opened in groups:
            regions = [(index, f) for f in fields]
            for k in old_areas:
                regions += self.areas[k].regions
                opened = opened or bool(self.spots[k] - {pos})
            areas.append(Area(tuple(sorted(regions)), opened))
        areas += [Area(self.areas[k].regions, bool(self.spots[k] - {pos}))
                  for k in sorted(touched - joined)]

        def own(area: Area) -> None:
            for i, _ in area.regions:
                if i != index and entries[i] is self.entries[i]:
                    old = self.entries[i]
                    entries[i] = {**old, "fields": [
                        {**f, "fed": list(f["fed"])} for f in old["fields"]]}

        gained = [0.0] * len(colours)
        if not gingerman:
            order = self.order
            for area in areas:
                if any(i == index for i, _ in area.regions):
                    hungry = sorted(table.hungry(area), key=lambda b: order[b[3]])
                    fed = hungry[: table.sheep_sugar(area)]
                    if fed:
                        own(area)
                    for bear in fed:
                        table.feed(area, bear)
        for area in areas:
            if not area.open and not table.done(area):
                own(area)
                scored = score_area(table, area, colours)
                for s in range(len(colours)):
                    gained[s] += scored.sugar_total(s) + 2 * scored.honey.get(s, 0)
        delta = gained
        for area in areas:
            if not table.done(area):
                for s, w in enumerate(_area_worth(table, area, colours)):
                    delta[s] += w
        for k in changed:
            before = self.worth[k]
            if before is not None:
                for s, w in enumerate(before):
                    delta[s] -= w
        if gingerman:
            # Only the mover's route can change: a Gingerman blocks every other route.
            route = table.best_route(me, self._links_with(table, index))
            if route is not None:
                delta[me] += 2 * route.cookies
        return delta

    def _links_with(self, table: Table, index: int,
                    ) -> list[tuple[tuple[int, int], tuple[int, int], int]]:
        """The joined roads of ``table``: the old table's and the new card's (at ``index``,
        the last), as :meth:`Table._road_links` finds them."""
        links = list(self.links())
        for side in range(tiles.SIDES):
            link = table.road_link(index, side)
            if link is not None:  # the older card's hub first, as the table lists it
                hub, theirs, cookies = link
                links.append((theirs, hub, cookies))
        return links


def action_values(view: View, actions: Sequence[Action]) -> dict[str, float]:
    """How good each action looks to the player whose view this is."""
    return _valued(view, actions, lambda me: _Before(view, me).delta)


def reference_values(view: View, actions: Sequence[Action]) -> dict[str, float]:
    """:func:`action_values` the slow way, every placement played on a whole copy of the
    table (:func:`_simulate`): the definition the fast way is tested against."""
    return _valued(view, actions, lambda me: _slow_deltas(view, me))


def _valued(view: View, actions: Sequence[Action],
            deltas: Callable[[int], Callable[[str], list[float]]]) -> dict[str, float]:
    """Each action's worth to the viewer: a feed by the viewer's feeding order; a placement
    by what it adds to the viewer less what it adds to the best rival (``deltas(me)``, made
    at the first placement, gives each seat's gain), a Gingerman less what its card costs."""
    me = view["viewer"]
    if me is None:
        return {a.notation: 0.0 for a in actions}
    out: dict[str, float] = {}
    feed_order = _feed_order(view["colours"]["players"], me)
    delta_of: Callable[[str], list[float]] | None = None
    has_card = view["hand"] is not None
    for action in actions:
        words = action.notation.split(" ")
        if words[0] == "feed":
            out[action.notation] = -float(feed_order[words[1]])
            continue
        if delta_of is None:
            delta_of = deltas(me)
        delta = delta_of(action.notation)
        rivals = max((d for s, d in enumerate(delta) if s != me), default=0.0)
        value = delta[me] - rivals
        if words[0] == "gingerman" and has_card:
            value -= GINGERMAN_COST
        out[action.notation] = value
    return out


def _slow_deltas(view: View, me: int) -> Callable[[str], list[float]]:
    """Each seat's gain from a placement, played on a whole copy of the table."""
    colours = view["colours"]["players"]
    base_table = Table(_entries(view), tiles.catalogue())
    base_areas = base_table.areas()
    base = _worth(base_table, base_areas, colours, routes=False)
    base_routes: list[float] | None = None

    def delta(notation: str) -> list[float]:
        nonlocal base_routes
        after = _simulate(view, me, notation)
        before = base
        if notation.split(" ")[0] == "gingerman":
            if base_routes is None:
                base_routes = _worth(base_table, base_areas, colours, routes=True)
            before = base_routes
        return [a - b for a, b in zip(after, before, strict=True)]

    return delta


def choose(view: View, legal: list[Action], rng: Rng) -> Action:
    """The best-valued legal action; ties broken at random."""
    values = action_values(view, legal)
    best = max(values.values())
    return rng.choice([a for a in legal if values[a.notation] >= best - 1e-9])
