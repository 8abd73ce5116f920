"""Sugartopia's hex cards and the hex grid they lie on.

The table is an axial hex grid of flat-topped hexes with the castle at (0, 0).
Sides are numbered clockwise from north: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.
A card turned by ``rot`` degrees (a multiple of 60, clockwise) shows its printed
side ``p`` on board side ``(p + rot // 60) % 6``.

Spots are named by ring and position: ring 1 (the six spots around the castle)
is ``a1``..``a6``, ring 2 is ``b1``..``b12`` and so on; each ring is numbered
clockwise starting with the spot straight north of the castle. The letter ``l``
is skipped, so that a spot never shares a name with a land card (``l07``); the
26th ring, which only a table laid in one straight line could reach, goes on
from the 25th (``z151``..``z306``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from bot.games.content import load_json
from bot.games.grid import (
    HEX_DIRECTIONS,
    HEX_SIDES,
    Hex,
    hex_neighbour,
    hex_opposite,
    hex_ring,
    hex_rotated,
)

Pos = Hex
SIDES = HEX_SIDES
DIRECTIONS = HEX_DIRECTIONS
SIDE_NAMES = ("north", "north-east", "south-east", "south", "south-west", "north-west")
ROTATIONS = (0, 60, 120, 180, 240, 300)
ROAD = "r"
GRASS = "g"
#: Enough rings for any table: 25 cards in a line leave an open spot on ring 26.
MAX_RING = 26
RING_LETTERS = "abcdefghijkmnopqrstuvwxyz"

CASTLE = "castle"
GINGERMAN = "gingerman"


neighbour = hex_neighbour
opposite = hex_opposite
ring = hex_ring


@cache
def _label_maps() -> tuple[dict[Pos, str], dict[str, Pos]]:
    by_pos: dict[Pos, str] = {}
    # From the spot north of the castle a ring runs SE, S, SW, NW, N, NE.
    walk = (2, 3, 4, 5, 0, 1)
    for k in range(1, MAX_RING + 1):
        pos: Pos = (0, -k)
        letter = RING_LETTERS[min(k, len(RING_LETTERS)) - 1]
        number = 1 if k <= len(RING_LETTERS) else 6 * len(RING_LETTERS) + 1
        for side in walk:
            for _ in range(k):
                by_pos[pos] = f"{letter}{number}"
                number += 1
                pos = neighbour(pos, side)
    return by_pos, {label: pos for pos, label in by_pos.items()}


def label_of(pos: Pos) -> str:
    """The short name players type for a spot, e.g. ``b3``; the castle is ``castle``."""
    if pos == (0, 0):
        return CASTLE
    return _label_maps()[0][pos]


_LABEL = re.compile(r"^[a-z][1-9][0-9]{0,2}$")


def pos_of(label: str) -> Pos | None:
    """The spot a label names, or ``None``."""
    if not _LABEL.match(label):
        return None
    return _label_maps()[1].get(label)


# --------------------------------------------------------------------------- cards


@dataclass(frozen=True)
class Arm:
    """A stretch of road from a road's hub to a printed side."""

    side: int
    cookies: int


@dataclass(frozen=True)
class Road:
    arms: tuple[Arm, ...]


@dataclass(frozen=True)
class Field:
    """One grassland region of a card and what stands on it."""

    sides: tuple[int, ...]
    sheep: int
    rainbow: int
    bears: tuple[str, ...]


@dataclass(frozen=True)
class Card:
    """A hex card as printed (rotation 0)."""

    id: str
    kind: str  # "castle", "gingerman" or "land"
    edges: str
    roads: tuple[Road, ...]
    fields: tuple[Field, ...]

    @property
    def name(self) -> str:
        if self.kind == "land":
            return self.id.upper()
        return "Castle" if self.kind == CASTLE else "Gingerman"

    def edge(self, side: int, rot: int) -> str:
        """Road or grass on board side ``side`` when turned by ``rot``."""
        return self.edges[hex_rotated(side, -rot)]

    def field_at(self, side: int, rot: int) -> int | None:
        """Index of the field reaching board side ``side``, if it is grassland."""
        printed = hex_rotated(side, -rot)
        for i, f in enumerate(self.fields):
            if printed in f.sides:
                return i
        return None

    def as_placed(self, rot: int) -> tuple[object, ...]:
        """What the card is, turned by ``rot``, as the table sees it: its edges, each
        field's board sides and what stands on it, each road's arms with their cookies.
        Two turns of a card symmetric under a half or a third turn place it the same."""
        edges = "".join(self.edge(side, rot) for side in range(6))
        fields = frozenset((frozenset(turned(s, rot) for s in f.sides), f.sheep, f.rainbow,
                            tuple(sorted(f.bears))) for f in self.fields)
        roads = frozenset(frozenset((turned(a.side, rot), a.cookies) for a in r.arms)
                          for r in self.roads)
        return edges, fields, roads

    def road_at(self, side: int, rot: int) -> tuple[int, int] | None:
        """(road index, arm index) of the arm reaching board side ``side``."""
        printed = hex_rotated(side, -rot)
        for i, road in enumerate(self.roads):
            for j, arm in enumerate(road.arms):
                if arm.side == printed:
                    return i, j
        return None


def turned(side: int, rot: int) -> int:
    """The board side a printed side shows on when the card is turned by ``rot``."""
    return hex_rotated(side, rot)


def card_from_json(raw: dict[str, Any], kind: str) -> Card:
    """Build a card from its JSON description."""
    return Card(
        id=raw["id"],
        kind=kind,
        edges=raw["edges"],
        roads=tuple(Road(tuple(Arm(a["side"], a["cookies"]) for a in r["arms"]))
                    for r in raw["roads"]),
        fields=tuple(Field(tuple(f["sides"]), f["sheep"], f["rainbow"], tuple(f["bears"]))
                     for f in raw["fields"]),
    )


@cache
def _content() -> dict[str, Any]:
    return cast("dict[str, Any]", load_json("sugartopia", "cards.json"))


@cache
def catalogue() -> dict[str, Card]:
    """Every card of the game by id: the castle, the Gingerman and the 21 land cards."""
    raw = _content()
    cards = {CASTLE: card_from_json(raw["castle"], CASTLE),
             GINGERMAN: card_from_json(raw["gingerman"], GINGERMAN)}
    for land in raw["land"]:
        cards[land["id"]] = card_from_json(land, "land")
    return cards


def land_ids() -> list[str]:
    return [c["id"] for c in _content()["land"]]


def player_colours() -> list[str]:
    """Colours of seats 0..3, in seat order."""
    return list(_content()["colours"]["players"])


def neutral_colours() -> list[str]:
    return list(_content()["colours"]["neutral"])


def supply() -> dict[str, int]:
    return dict(_content()["supply"])


EDGE_WORDS = {ROAD: "road", GRASS: "grassland"}


def describe_card(card: Card) -> dict[str, Any]:
    """A card as printed, for the owner's view of their hand."""
    return {
        "card": card.id, "name": card.name, "kind": card.kind,
        "edges": [EDGE_WORDS[e] for e in card.edges],
        "roads": [{"arms": [{"side": a.side, "cookies": a.cookies} for a in r.arms]}
                  for r in card.roads],
        "fields": [{"sides": list(f.sides), "sheep": f.sheep, "rainbow": f.rainbow,
                    "bears": list(f.bears)} for f in card.fields],
    }
