"""Sugarworks content read from ``data/sugarworks``: candies, tiles, board sides, orders.

Everything a player reads about a tile, an order card or a blanket order is made
here from the same data the rules use, so text and behaviour cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.games.content import load_json
from bot.games.words import article

Cell = tuple[int, int]
"""(column, row), 0-based; column 0 is ``a``, row 0 is ``1`` (the bottom row)."""

DIRECTIONS: dict[str, Cell] = {
    "right": (1, 0), "left": (-1, 0), "up": (0, 1), "down": (0, -1), "up-right": (1, 1),
}
CRATES = ("heart", "pumpkin", "bunny")
LOST = "lost"


def _data(name: str) -> Any:
    return load_json("sugarworks", name)


# --------------------------------------------------------------------------- candies


@cache
def candy_order() -> tuple[str, ...]:
    """Candy types in the order candy movement resolves them."""
    return tuple(_data("candies.json")["order"])


def candy_name(candy: str) -> str:
    """``"red"`` -> ``"red circle"``."""
    return str(_data("candies.json")["types"][candy]["name"])


def plural(candy: str, count: int = 2) -> str:
    name = candy_name(candy)
    return name if count == 1 else f"{name}s"


def supply_per_type() -> int:
    return int(_data("candies.json")["supply"])


def ship_stars() -> int:
    """Stars a player scores when a candy they made is shipped into any crate."""
    return int(_data("candies.json")["ship_stars"])


@dataclass(frozen=True)
class Bonk:
    """How a Bonk! into a candy of one type resolves: who moves, and which way."""

    moves: str  # "struck" or "striker"
    direction: str

    @property
    def delta(self) -> Cell:
        return DIRECTIONS[self.direction]


@cache
def bonk_table() -> dict[str, Bonk]:
    """The Bonk! helper, keyed by the type of the candy that was struck."""
    return {t: Bonk(b["moves"], b["direction"]) for t, b in _data("candies.json")["bonk"].items()}


@cache
def die_faces() -> tuple[str, ...]:
    return tuple(_data("candies.json")["die"])


def candy_word(text: str) -> str | None:
    """A candy type from its colour or its shape (``"circle"`` -> ``"red"``)."""
    types = _data("candies.json")["types"]
    if text in types:
        return text
    for key, info in types.items():
        if text == info["shape"] or text == f"{info['shape']}s":
            return str(key)
    return None


# --------------------------------------------------------------------------- tiles


@dataclass(frozen=True)
class Icon:
    """A conveyor icon: a move (a step on the grid) or a candy eater (``eats``)."""

    key: str
    move: Cell | None
    eats: str | None  # a candy type, "any", or None
    text: str

    def eats_candy(self, candy: str) -> bool:
        return self.eats is not None and self.eats in ("any", candy)


@dataclass(frozen=True)
class TileKind:
    """A kind of conveyor tile: its centre icon and its upper left corner icon (or none)."""

    kind: str
    name: str
    centre: str
    corner: str | None
    count: int


@cache
def icons() -> dict[str, Icon]:
    out = {}
    for key, raw in _data("tiles.json")["icons"].items():
        move = tuple(raw["move"]) if "move" in raw else None
        out[key] = Icon(key, move, raw.get("eats"), raw["text"])
    return out


@cache
def tile_kinds() -> dict[str, TileKind]:
    return {k["kind"]: TileKind(k["kind"], k["name"], k["centre"], k["corner"], k["count"])
            for k in _data("tiles.json")["kinds"]}


@cache
def output_icons() -> tuple[str, str | None]:
    raw = _data("tiles.json")["output"]
    return raw["centre"], raw["corner"]


def tile_stack() -> list[str]:
    """Every conveyor tile id in the box, ``t01``.., in kind order."""
    return [tile_id for tile_id, _ in tile_ids()]


@cache
def tile_ids() -> tuple[tuple[str, str], ...]:
    """(tile id, kind) for every physical conveyor tile."""
    out: list[tuple[str, str]] = []
    for kind in tile_kinds().values():
        for _ in range(kind.count):
            out.append((f"t{len(out) + 1:02d}", kind.kind))
    return tuple(out)


def kind_of_tile(tile_id: str) -> str:
    return dict(tile_ids())[tile_id]


def tile_text(kind: str) -> str:
    """What a tile does, in words: ``"a candy moves one space right; ..."``."""
    tile = tile_kinds()[kind]
    centre = icons()[tile.centre]
    if centre.move is not None:
        text = f"a candy on it {centre.text}"
    elif centre.eats == "any":
        text = "any candy on it is lost when it activates"
    else:
        name = candy_name(centre.eats or "")
        text = f"{article(name)} on it is lost when it activates; any other candy stays put"
    if tile.corner:
        text = f"{icons()[tile.corner].text.capitalize()} as soon as it enters (corner); {text}"
    else:
        text = text[0].upper() + text[1:]
    return text + "."


# --------------------------------------------------------------------------- board sides


@dataclass(frozen=True)
class Side:
    """One side of the factory floor board."""

    key: str
    name: str
    width: int
    height: int
    printed: dict[Cell, str]  # cell -> icon key
    output_spaces: tuple[Cell, ...]
    start: dict[str, Cell]  # candy type -> starting output space
    crates: dict[Cell, str]  # off-board cell -> crate name

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

def cell_name(cell: Cell) -> str:
    return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"


def parse_cell(text: str) -> Cell | None:
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        return None
    return (ord(text[0]) - ord("a"), int(text[1:]) - 1)


def _cell(text: str) -> Cell:
    cell = parse_cell(text)
    assert cell is not None, text
    return cell


@cache
def sides() -> dict[str, Side]:
    raw = _data("board.json")
    legend = raw["legend"]
    out = {}
    for key, side in raw["sides"].items():
        height = side["height"]
        printed = {}
        for i, row in enumerate(side["rows"]):
            assert len(row) == side["width"], (key, row)
            for col, letter in enumerate(row):
                printed[(col, height - 1 - i)] = legend[letter]
        out[key] = Side(
            key, side["name"], side["width"], height, printed,
            tuple(_cell(c) for c in side["output_spaces"]),
            {t: _cell(c) for t, c in side["start"].items()},
            {_cell(c): name for name, c in side["crates"].items()},
        )
    return out


# --------------------------------------------------------------------------- orders


@dataclass(frozen=True)
class Order:
    """An order card: where its candies must arrive (a crate, or ``lost``) and its stars."""

    id: str
    to: str
    candies: tuple[str, ...]
    stars: int

    @property
    def special(self) -> bool:
        """A candy eater order, filled from the lost gutter."""
        return self.to == LOST

    def text(self) -> str:
        counts: dict[str, int] = {}
        for c in self.candies:
            counts[c] = counts.get(c, 0) + 1
        wanted = " + ".join(f"{n} {plural(c, n)}" for c, n in counts.items())
        where = "lost to the gutter" if self.special else f"shipped in the {self.to} crate"
        return f"{wanted} {where} — {self.stars}★"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "to": self.to, "candies": list(self.candies),
                "stars": self.stars, "special": self.special, "text": self.text()}


@cache
def orders() -> dict[str, Order]:
    return {o["id"]: Order(o["id"], o["to"], tuple(o["candies"]), o["stars"])
            for o in _data("orders.json")}


@dataclass(frozen=True)
class Blanket:
    """A blanket order: while colourful side up, each candy of its type made pays its maker.

    Rules 1 paid instead when such a candy was shipped into the order's crate.
    """

    id: str
    candy: str
    crate: str
    stars: int

    def text(self, rules: int = 2) -> str:
        if rules < 2:
            return (f"each {candy_name(self.candy)} shipped in the {self.crate} crate pays its "
                    f"maker {self.stars}★ more")
        return f"each {candy_name(self.candy)} made pays its maker {self.stars}★ at once"

    def to_json(self, colourful: bool, rules: int = 2) -> dict[str, Any]:
        return {"id": self.id, "candy": self.candy, "crate": self.crate, "stars": self.stars,
                "colourful": colourful, "pays": "shipped" if rules < 2 else "made",
                "text": self.text(rules)}


@cache
def blankets() -> dict[str, Blanket]:
    return {b["id"]: Blanket(b["id"], b["candy"], b["crate"], b["stars"])
            for b in _data("blankets.json")}
