"""The table of placed hex cards: placement, grassland areas, feeding and cookie routes.

The table is a list of placed cards (plain JSON, kept in the state and copied
into views)::

    {"card": "l07", "q": 1, "r": -1, "rot": 60, "owner": None,
     "fields": [{"sugar": 1, "honey": 0, "fed": [False], "done": False}, ...]}

``fields`` follows the card's printed fields: ``sugar`` cubes on its cotton-candy
sheep, ``honey`` cubes on its rainbow sheep, one ``fed`` flag per gummy bear
(a fed bear holds one sugar cube) and ``done`` once its area has been scored.
``owner`` is the seat of a Gingerman card, ``None`` otherwise. The list is in
placement order; the castle is entry 0.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from bot.games.sugartopia.tiles import (
    CASTLE,
    GINGERMAN,
    ROAD,
    ROTATIONS,
    SIDES,
    Card,
    Pos,
    catalogue,
    label_of,
    neighbour,
    opposite,
    ring,
    turned,
)

#: Which cards lie where, turned how: ``(card, q, r, rot)`` per entry, in table order.
Layout = tuple[tuple[str, int, int, int], ...]

Entry = dict[str, Any]
Region = tuple[int, int]
"""(table index, field index): one field of one placed card."""


def new_entry(card: Card, pos: Pos, rot: int, owner: int | None = None) -> Entry:
    """A freshly placed card: no cubes yet, every bear hungry."""
    return {
        "card": card.id, "q": pos[0], "r": pos[1], "rot": rot, "owner": owner,
        "fields": [{"sugar": 0, "honey": 0, "fed": [False] * len(f.bears), "done": False}
                   for f in card.fields],
    }


@dataclass(frozen=True)
class Area:
    """A grassland area: fields joined across grassland sides."""

    regions: tuple[Region, ...]
    open: bool  # some grassland side still faces an empty spot

    @property
    def key(self) -> Region:
        return self.regions[0]


def area_name(number: int) -> str:
    """What players call an area: "Meadow 3"."""
    return f"Meadow {number}"


@dataclass(frozen=True)
class Route:
    """The best cookie route of a Gingerman: cookies collected and the cards walked."""

    cookies: int
    cards: tuple[int, ...]


class Table:
    """Read-only helpers over a table list (which it never copies)."""

    def __init__(self, entries: list[Entry], cards: Mapping[str, Card]) -> None:
        self.entries = entries
        self.cards = cards
        self.at: dict[Pos, int] = {(e["q"], e["r"]): i for i, e in enumerate(entries)}

    def sharing(self, entries: list[Entry]) -> Table:
        """A table over ``entries``, a copy of this table's list in which some entries may
        be copies of this one's (the same cards on the same spots): the spots are not
        looked up again."""
        table = Table.__new__(Table)
        table.entries = entries
        table.cards = self.cards
        table.at = dict(self.at)
        return table

    # ----------------------------------------------------------------- basics

    def card(self, index: int) -> Card:
        return self.cards[self.entries[index]["card"]]

    def pos(self, index: int) -> Pos:
        e = self.entries[index]
        return (e["q"], e["r"])

    def edge(self, index: int, side: int) -> str:
        return self.card(index).edge(side, self.entries[index]["rot"])

    def is_gingerman(self, index: int) -> bool:
        return bool(self.entries[index]["card"] == GINGERMAN)

    def label(self, index: int) -> str:
        return label_of(self.pos(index))

    def place(self, entry: Entry) -> int:
        """Add a placed card (mutates the list); returns its index."""
        self.entries.append(entry)
        index = len(self.entries) - 1
        self.at[(entry["q"], entry["r"])] = index
        return index

    # ----------------------------------------------------------------- placement

    def open_spots(self) -> list[Pos]:
        """Empty spots next to a placed card, in label order (ring, then clockwise)."""
        spots = {neighbour(pos, s) for pos in self.at for s in range(SIDES)} - set(self.at)
        return sorted(spots, key=_spot_order)

    def fits(self, card: Card, pos: Pos, rot: int) -> bool:
        """Whether ``card`` turned by ``rot`` may go on the empty spot ``pos``.

        It must touch a placed card, and every side touching a card other than
        a Gingerman must match it: road to road, grassland to grassland.
        """
        if pos in self.at:
            return False
        touching = False
        for side in range(SIDES):
            other = self.at.get(neighbour(pos, side))
            if other is None:
                continue
            touching = True
            if self.is_gingerman(other):
                continue
            if card.edge(side, rot) != self.edge(other, opposite(side)):
                return False
        return touching

    def layout(self) -> Layout | None:
        """Which cards lie where, turned how; ``None`` for a table of other cards than the
        game's (the areas, founders and placements of a layout are kept by it)."""
        if self.cards is not catalogue():
            return None
        return tuple((e["card"], e["q"], e["r"], e["rot"]) for e in self.entries)

    def placements(self, card: Card) -> list[tuple[Pos, int]]:
        """Every legal (spot, rotation) for a land card (the same answer as :meth:`fits`)."""
        layout = self.layout()
        if layout is None or catalogue().get(card.id) is not card:
            return self._placements(card)
        return list(_kept(layout).placements(card.id))

    def _placements(self, card: Card) -> list[tuple[Pos, int]]:
        turns = [(rot, [card.edge(side, rot) for side in range(SIDES)]) for rot in ROTATIONS]
        out: list[tuple[Pos, int]] = []
        for pos in self.open_spots():
            needs = self._needs(pos)
            out.extend((pos, rot) for rot, edges in turns
                       if all(edges[side] == kind for side, kind in needs))
        return out

    def _needs(self, pos: Pos) -> list[tuple[int, str]]:
        """(side, road or grass) that a card on ``pos`` must show to its neighbours."""
        needs = []
        for side in range(SIDES):
            other = self.at.get(neighbour(pos, side))
            if other is not None and not self.is_gingerman(other):
                needs.append((side, self.edge(other, opposite(side))))
        return needs

    # ----------------------------------------------------------------- areas

    def areas(self) -> list[Area]:
        """Every grassland area on the table, ordered by its first field."""
        layout = self.layout()
        return self._areas() if layout is None else list(_kept(layout).areas())

    def _areas(self) -> list[Area]:
        parent: dict[Region, Region] = {}

        def find(x: Region) -> Region:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        open_roots: set[Region] = set()
        for i in range(len(self.entries)):
            for f in range(len(self.card(i).fields)):
                parent[(i, f)] = (i, f)
        opens: list[Region] = []
        for i, e in enumerate(self.entries):
            card = self.card(i)
            for f, field in enumerate(card.fields):
                for printed in field.sides:
                    side = turned(printed, e["rot"])
                    other = self.at.get(neighbour((e["q"], e["r"]), side))
                    if other is None:
                        opens.append((i, f))
                        continue
                    facing = self.card(other).field_at(opposite(side), self.entries[other]["rot"])
                    if facing is not None:
                        a, b = find((i, f)), find((other, facing))
                        if a != b:
                            parent[max(a, b)] = min(a, b)
        for region in opens:
            open_roots.add(find(region))
        groups: dict[Region, list[Region]] = {}
        for region in sorted(parent):
            groups.setdefault(find(region), []).append(region)
        return [Area(tuple(members), root in open_roots)
                for root, members in sorted(groups.items())]

    def founders(self) -> list[Region]:
        """Fields that began a new grassland area when their card was laid, in laying order.

        A field begins an area when none of its grassland sides touched a field
        of a card laid before it. Cards never move, so this follows from the
        table alone, and an area's first field (:attr:`Area.key`, the smallest
        region) is always a founder: merging keeps the older name.
        """
        layout = self.layout()
        return self._founders() if layout is None else list(_kept(layout).founders())

    def _founders(self) -> list[Region]:
        out = []
        for i, e in enumerate(self.entries):
            card = self.card(i)
            for f, field in enumerate(card.fields):
                joined = False
                for printed in field.sides:
                    side = turned(printed, e["rot"])
                    other = self.at.get(neighbour((e["q"], e["r"]), side))
                    if other is not None and other < i and self.card(other).field_at(
                            opposite(side), self.entries[other]["rot"]) is not None:
                        joined = True
                        break
                if not joined:
                    out.append((i, f))
        return out

    def area_numbers(self, areas: Sequence[Area] | None = None) -> dict[Region, int]:
        """Each area's number by its key: the order its first field was laid in, from 1.

        Unique and stable for the whole game: a number is never reused, and when
        areas join the joined area keeps the smallest number.
        """
        order = {region: n for n, region in enumerate(self.founders(), start=1)}
        return {a.key: order[a.key] for a in (self.areas() if areas is None else areas)}

    def areas_of(self, index: int) -> list[Area]:
        """The areas that the fields of the card at ``index`` belong to."""
        return [a for a in self.areas() if any(i == index for i, _ in a.regions)]

    def field_state(self, region: Region) -> dict[str, Any]:
        return cast("dict[str, Any]", self.entries[region[0]]["fields"][region[1]])

    def bears(self, area: Area) -> list[tuple[int, int, int, str]]:
        """Every bear of an area as (index, field, bear, colour)."""
        out = []
        for i, f in area.regions:
            for b, colour in enumerate(self.card(i).fields[f].bears):
                out.append((i, f, b, colour))
        return out

    def hungry(self, area: Area) -> list[tuple[int, int, int, str]]:
        """Bears of the area without a cube, in table order."""
        return [(i, f, b, c) for i, f, b, c in self.bears(area)
                if not self.entries[i]["fields"][f]["fed"][b]]

    def sheep_sugar(self, area: Area) -> int:
        """Sugar cubes standing on cotton-candy sheep in the area."""
        return sum(self.field_state(r)["sugar"] for r in area.regions)

    def honey(self, area: Area) -> int:
        return sum(self.field_state(r)["honey"] for r in area.regions)

    def fed_bears(self, area: Area) -> list[tuple[int, int, int, str]]:
        return [(i, f, b, c) for i, f, b, c in self.bears(area)
                if self.entries[i]["fields"][f]["fed"][b]]

    def feed(self, area: Area, bear: tuple[int, int, int, str]) -> None:
        """Move one sugar cube from a sheep of the area onto ``bear``."""
        for region in area.regions:
            state = self.field_state(region)
            if state["sugar"]:
                state["sugar"] -= 1
                i, f, b, _ = bear
                self.entries[i]["fields"][f]["fed"][b] = True
                return
        raise AssertionError("no sugar on the sheep of this area")

    def done(self, area: Area) -> bool:
        return all(self.field_state(r)["done"] for r in area.regions)

    # ----------------------------------------------------------------- cookie routes

    def gingerman_of(self, seat: int) -> int | None:
        for i, e in enumerate(self.entries):
            if e["card"] == GINGERMAN and e["owner"] == seat:
                return i
        return None

    def best_route(self, seat: int, links: Sequence[tuple[tuple[int, int], tuple[int, int], int]]
                   | None = None) -> Route | None:
        """The route from ``seat``'s Gingerman to the castle with the most cookies.

        A route runs along stretches of road (the arms of the printed roads);
        no stretch is used twice, though a card may be crossed again on other
        stretches; it never enters a card holding another Gingerman, and it ends
        when it reaches the castle. ``None`` if no route reaches the castle. ``links`` are
        the table's :meth:`_road_links`, when they are known already (in any order: the
        route's cookies are the most any route collects, whatever order it is found in).
        """
        start = self.gingerman_of(seat)
        if start is None:
            return None
        if links is None:
            links = self._road_links()
        goal = next(i for i, e in enumerate(self.entries) if e["card"] == CASTLE)
        blocked = {i for i, e in enumerate(self.entries)
                   if e["card"] == GINGERMAN and i != start}
        adjacency: dict[tuple[int, int], list[tuple[int, tuple[int, int], int]]] = {}
        for n, (a, b, cookies) in enumerate(links):
            if a[0] in blocked or b[0] in blocked:
                continue
            adjacency.setdefault(a, []).append((n, b, cookies))
            adjacency.setdefault(b, []).append((n, a, cookies))
        total = sum(c for _, _, c in links)
        best: list[Route | None] = [None]
        used: set[int] = set()

        def walk(node: tuple[int, int], cookies: int, cards: list[int]) -> None:
            if node[0] == goal:
                current = best[0]
                if current is None or cookies > current.cookies:
                    best[0] = Route(cookies, tuple(cards))
                return
            remaining = total - sum(links[n][2] for n in used)
            if best[0] is not None and cookies + remaining <= best[0].cookies:
                return
            for n, nxt, gain in adjacency.get(node, []):
                if n in used:
                    continue
                used.add(n)
                cards.append(nxt[0])
                walk(nxt, cookies + gain, cards)
                cards.pop()
                used.discard(n)

        walk((start, 0), 0, [start])
        return best[0]

    def _road_links(self) -> list[tuple[tuple[int, int], tuple[int, int], int]]:
        """Joined road sides as (hub, hub, cookies on both stretches).

        A hub is (table index, road index). Each joined pair of road sides uses
        the stretch on each card, so a link stands for two stretches.
        """
        layout = self.layout()
        return self._links() if layout is None else list(_kept(layout).links())

    def _links(self) -> list[tuple[tuple[int, int], tuple[int, int], int]]:
        links = []
        for i in range(len(self.entries)):
            for side in range(SIDES):
                link = self.road_link(i, side)
                if link is not None and link[1][0] > i:  # each joined pair once
                    links.append(link)
        return links

    def road_link(self, i: int, side: int
                  ) -> tuple[tuple[int, int], tuple[int, int], int] | None:
        """The road joined across card ``i``'s ``side``: (``i``'s hub, the neighbour's hub,
        cookies on both stretches); None where no road is joined there."""
        e = self.entries[i]
        card = self.card(i)
        if card.edge(side, e["rot"]) != ROAD:
            return None
        other = self.at.get(neighbour((e["q"], e["r"]), side))
        if other is None or other == i or self.edge(other, opposite(side)) != ROAD:
            return None
        mine = card.road_at(side, e["rot"])
        theirs = self.card(other).road_at(opposite(side), self.entries[other]["rot"])
        assert mine is not None and theirs is not None
        cookies = (card.roads[mine[0]].arms[mine[1]].cookies
                   + self.card(other).roads[theirs[0]].arms[theirs[1]].cookies)
        return (i, mine[0]), (other, theirs[0]), cookies


class _Kept:
    """What follows from a layout alone (areas, founders, roads, placements), worked out once
    for all the tables that share it: a move's rules, views and AI ask again and again."""

    def __init__(self, layout: Layout) -> None:
        self.table = Table([{"card": c, "q": q, "r": r, "rot": rot, "fields": []}
                            for c, q, r, rot in layout], catalogue())
        self._areas: tuple[Area, ...] | None = None
        self._founders: tuple[Region, ...] | None = None
        self._placements: dict[str, tuple[tuple[Pos, int], ...]] = {}
        self._links: tuple[tuple[tuple[int, int], tuple[int, int], int], ...] | None = None

    def areas(self) -> tuple[Area, ...]:
        if self._areas is None:
            self._areas = tuple(self.table._areas())
        return self._areas

    def founders(self) -> tuple[Region, ...]:
        if self._founders is None:
            self._founders = tuple(self.table._founders())
        return self._founders

    def links(self) -> tuple[tuple[tuple[int, int], tuple[int, int], int], ...]:
        if self._links is None:
            self._links = tuple(self.table._links())
        return self._links

    def placements(self, card: str) -> tuple[tuple[Pos, int], ...]:
        known = self._placements.get(card)
        if known is None:
            known = self._placements[card] = tuple(self.table._placements(catalogue()[card]))
        return known


@lru_cache(maxsize=256)
def _kept(layout: Layout) -> _Kept:
    return _Kept(layout)


def _spot_order(pos: Pos) -> tuple[int, int]:
    label = label_of(pos)
    return ring(pos), int(label[1:])


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Split:
    """How a pile of cubes in an area is shared by bear majority."""

    shares: dict[str, int]  # colour -> cubes, for the colours with the most bears
    returned: int  # cubes back to the supply (remainder and unowned shares)


def split(bear_counts: Mapping[str, int], cubes: int, owned: Container[str]) -> Split:
    """Share ``cubes`` among the colours with the most bears.

    Tied colours divide evenly; the remainder, and the shares of colours that
    no player has, go back to the supply. With no bears at all every cube goes
    back.
    """
    given = shares(leaders(bear_counts), cubes, owned)
    return Split(given, cubes - sum(given.values()))


def leaders(bear_counts: Mapping[str, int]) -> list[str]:
    """The colours with the most bears, all of them when tied, in order; none without
    bears."""
    top = max(bear_counts.values(), default=0)
    return sorted(c for c, n in bear_counts.items() if n == top) if top > 0 else []


def shares(tied: Sequence[str], cubes: int, owned: Container[str]) -> dict[str, int]:
    """What each of the ``tied`` leaders that a player has takes of ``cubes`` (an even
    share; the rest goes back)."""
    each = cubes // len(tied) if tied else 0
    return {c: each for c in tied if c in owned and each}


@dataclass
class AreaScore:
    """Cubes each seat took when one area was scored, and cubes returned."""

    own_sugar: dict[int, int]
    sugar: dict[int, int]
    honey: dict[int, int]
    returned_sugar: int
    returned_honey: int

    def sugar_total(self, seat: int) -> int:
        return self.own_sugar.get(seat, 0) + self.sugar.get(seat, 0)


def score_area(table: Table, area: Area, colours: Sequence[str]) -> AreaScore:
    """Score Calculation 1 for one area; empties it and marks its fields done.

    ``colours[seat]`` is each seat's colour. Players first take the cubes on
    their own bears; the rest of the sugar (on sheep and on bears of colours no
    player has) and the honey are shared by bear majority.
    """
    seat_of = {c: s for s, c in enumerate(colours)}
    own: dict[int, int] = {}
    loose_sugar = table.sheep_sugar(area)
    for i, f, b, colour in table.fed_bears(area):
        table.entries[i]["fields"][f]["fed"][b] = False
        if colour in seat_of:
            own[seat_of[colour]] = own.get(seat_of[colour], 0) + 1
        else:
            loose_sugar += 1
    honey = table.honey(area)
    counts: dict[str, int] = {}
    for _, _, _, colour in table.bears(area):
        counts[colour] = counts.get(colour, 0) + 1
    sugar_split = split(counts, loose_sugar, colours)
    honey_split = split(counts, honey, colours)
    for region in area.regions:
        state = table.field_state(region)
        state["sugar"] = 0
        state["honey"] = 0
        state["done"] = True
    return AreaScore(
        own_sugar=own,
        sugar={seat_of[c]: n for c, n in sugar_split.shares.items()},
        honey={seat_of[c]: n for c, n in honey_split.shares.items()},
        returned_sugar=sugar_split.returned,
        returned_honey=honey_split.returned,
    )

