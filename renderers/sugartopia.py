"""Sugartopia picture, made to be read on a phone (Discord shows it about 400 px wide).

Layout, top to bottom: who acts and the seats (each with its shape mark and its
bear colour), the table cropped to the placed cards plus the ring of open spots
with hexes as large as the width allows, the meadows still in play with their
bears counted per player, and a one-line key. A seat's own view adds its hand
card in its six turns. With ``view["zoom"]`` set to a spot's label, the map
shows that spot and its neighbours large instead of the whole table.

Draws only what the view holds: a public view has no hand card, so the public
image cannot show one.

Speed: the header and the map change with every move and are drawn each time; the
meadows, the key and the hand are strips kept by what they show
(:class:`~renderers.common.Strip`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.colours import PAINTS
from renderers.common import (
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    SEAT_SHAPES,
    WHITE,
    Colour,
    Header,
    Pictures,
    Sample,
    Strip,
    Table,
    header,
    panel,
    paste_at,
    paste_centred,
    seat_mark,
    shape_mark,
    stamp_text,
    table_of,
    text_size,
    wrap,
)

WIDTH = 1000
MARGIN = 16
#: The largest hex (centre to corner): an early table is not blown up beyond this.
MAX_HEX = 130
SIZE_STEP = 0.92
#: The largest hex when zoomed on one spot.
ZOOM_HEX = 230
#: The tallest map: a long, narrow table may grow the picture this far down before its
#: hexes shrink (a phone scrolls a tall picture; it cannot enlarge tiny labels).
MAX_MAP_H = 1000
ZOOM_MAP_H = 1000
MIN_MAP_H = 360
SQRT3 = math.sqrt(3)

GRASS: Colour = (150, 205, 120)
GRASS_DONE: Colour = (200, 214, 186)
HEX_EDGE: Colour = (104, 150, 84)
ROAD: Colour = (232, 190, 125)
ROAD_EDGE: Colour = (140, 95, 55)
COOKIE: Colour = (160, 95, 40)
CASTLE: Colour = (246, 190, 214)
SPOT: Colour = (118, 104, 92)
SPOT_FILL: Colour = (243, 232, 216)
SPOT_EDGE: Colour = (205, 188, 168)
LAST: Colour = (255, 184, 0)
SUGAR: Colour = (255, 255, 255)
HONEY: Colour = (245, 170, 20)
TAG: Colour = (255, 252, 240)
TAG_DONE: Colour = (225, 225, 215)
#: The bears of nobody; players' bears are in their seat colours (``bot.games.colours``).
NEUTRAL_BEARS: dict[str, Colour] = {"green": (30, 140, 70), "orange": (240, 130, 20)}

HAND_H = 250
#: The smallest type a player needs for a decision: 7 px tall capitals at 400 px wide.
READABLE = 24
CHIP_H = 148
#: Texts that need not read at 400 px: the key (pieces are told apart by their look)
#: and the move counter.
FINE_PRINT = (r"move \d+", "sugar sheep", "honey sheep", "fed bear", "cookie")


def _colour(name: str) -> Colour:
    if name in NEUTRAL_BEARS:
        return NEUTRAL_BEARS[name]
    return PAINTS[name].rgb if name in PAINTS else (128, 128, 128)


def _meadow_tag(number: int) -> str:
    """The tag of a meadow on the map: M3 for Meadow 3."""
    return f"M{number}"


# --------------------------------------------------------------------------- geometry


class Geometry:
    """Flat-topped hexes of size ``size`` (centre to corner), placed by an origin."""

    def __init__(self, size: float, ox: float, oy: float) -> None:
        self.size, self.ox, self.oy = size, ox, oy

    @classmethod
    def fitted(cls, cells: list[tuple[int, int]], width: float, max_height: float,
               max_size: float, edge: Sequence[tuple[int, int]] = ()
               ) -> tuple[Geometry, float]:
        """The largest layout showing ``cells`` whole in ``width``; returns it and its height.

        ``edge`` cells (the open spots round the table) need only their middle,
        where their label is, to show: their outline may run off the picture.
        """
        # Each cell's extent, in hex sizes, left/right and up/down of its centre.
        boxes = [(1.5 * q, SQRT3 * (r + q / 2), 1.0, SQRT3 / 2) for q, r in cells]
        boxes += [(1.5 * q, SQRT3 * (r + q / 2), 0.62, 0.5) for q, r in edge]
        left = min(x - w for x, _, w, _ in boxes)
        right = max(x + w for x, _, w, _ in boxes)
        top = min(y - h for _, y, _, h in boxes)
        bottom = max(y + h for _, y, _, h in boxes)
        span_x, span_y = right - left, bottom - top
        size = min(max_size, (width - 2 * MARGIN) / span_x, (max_height - 2 * MARGIN) / span_y)
        # Sizes come in steps of 8%: as the table grows the hexes shrink now and then
        # rather than at every move, and the drawn cards in the cache stay usable.
        size = max_size * SIZE_STEP ** math.ceil(math.log(size / max_size) / math.log(SIZE_STEP)
                                                 - 1e-9)
        height = max(MIN_MAP_H, span_y * size + 2 * MARGIN)
        ox = (width - span_x * size) / 2 - left * size
        oy = (height - span_y * size) / 2 - top * size
        return cls(size, ox, oy), height

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return (self.ox + 1.5 * q * self.size, self.oy + SQRT3 * (r + q / 2) * self.size)

    def corners(self, q: int, r: int, shrink: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(q, r)
        s = self.size * shrink
        return [(cx + s * math.cos(math.radians(60 * i)), cy + s * math.sin(math.radians(60 * i)))
                for i in range(6)]

    def side_point(self, q: int, r: int, side: int, reach: float = 1.0) -> tuple[float, float]:
        """Middle of a side (0 north, clockwise), or a point ``reach`` of the way there."""
        cx, cy = self.centre(q, r)
        angle = math.radians(-90 + 60 * side)
        d = self.size * SQRT3 / 2 * reach
        return (cx + d * math.cos(angle), cy + d * math.sin(angle))


def _hub(geo: Geometry, q: int, r: int, sides: list[int], alone: bool) -> tuple[float, float]:
    """Where a road's arms meet: the centre, unless the card has several roads.

    Two roads on one card must leave the grassland between them whole, so each
    meets half-way between the card's centre and its own sides.
    """
    cx, cy = geo.centre(q, r)
    if alone or not sides:
        return cx, cy
    points = [geo.side_point(q, r, s) for s in sides]
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    return cx + (mx - cx) * 0.5, cy + (my - cy) * 0.5


# --------------------------------------------------------------------------- pieces


def _hexagon(draw: ImageDraw.ImageDraw, corners: list[tuple[float, float]],
             fill: Colour | None, outline: Colour, width: int) -> None:
    """A filled, outlined hexagon. Pillow's wide polygon outlines cost three times a
    fill plus a closed line, so wide outlines are drawn as a line."""
    if width <= 1:
        draw.polygon(corners, fill=fill, outline=outline)
        return
    if fill is not None:
        draw.polygon(corners, fill=fill)
    draw.line([*corners, corners[0], corners[1]], fill=outline, width=width, joint="curve")


def _sheep(draw: ImageDraw.ImageDraw, x: float, y: float, rad: float, rainbow: bool,
           cube: bool) -> None:
    wool = (255, 255, 255) if not rainbow else (255, 196, 236)
    puff = rad * 0.6
    for dx, dy in ((-0.45, 0), (0.45, 0), (0, -0.4), (0, 0.35)):
        px, py = x + dx * rad, y + dy * rad
        draw.ellipse((px - puff, py - puff, px + puff, py + puff), fill=wool, outline=INK)
    draw.ellipse((x - rad * 0.55, y - rad * 0.5, x + rad * 0.55, y + rad * 0.5), fill=wool)
    if rainbow:
        for k, band in enumerate(((230, 60, 60), (245, 170, 20), (60, 170, 80),
                                  (60, 110, 220))):
            d = rad * (0.95 - k * 0.16)
            draw.arc((x - d, y - d, x + d, y + d), 200, 340, fill=band,
                     width=max(2, round(rad * 0.16)))
    if cube:
        c = rad * 0.42
        draw.rectangle((x - c, y - c + rad * 0.1, x + c, y + c + rad * 0.1),
                       fill=HONEY if rainbow else SUGAR, outline=INK, width=2)


def _bear(draw: ImageDraw.ImageDraw, x: float, y: float, rad: float, colour: Colour,
          shape: str | None, fed: bool) -> None:
    """A gummy bear; its owner's shape on its belly; a fed bear holds a cube at its side."""
    ear = rad * 0.36
    for dx in (-0.58, 0.58):
        draw.ellipse((x + dx * rad - ear, y - rad * 0.92 - ear, x + dx * rad + ear,
                      y - rad * 0.92 + ear), fill=colour, outline=INK)
    draw.ellipse((x - rad * 0.78, y - rad * 1.05, x + rad * 0.78, y + rad * 0.05), fill=colour,
                 outline=INK)
    draw.ellipse((x - rad * 0.82, y - rad * 0.25, x + rad * 0.82, y + rad * 1.1), fill=colour,
                 outline=INK)
    if shape is not None:
        shape_mark(draw, shape, x, y + rad * 0.45, rad * 0.36, WHITE, INK,
                   max(1, round(rad * 0.08)))
    if fed:
        c = rad * 0.36
        cx, cy = x + rad * 0.95, y + rad * 0.65
        draw.rectangle((cx - c, cy - c, cx + c, cy + c), fill=SUGAR, outline=INK,
                       width=max(2, round(rad * 0.1)))


def _cookie(draw: ImageDraw.ImageDraw, x: float, y: float, rad: float) -> None:
    draw.ellipse((x - rad, y - rad, x + rad, y + rad), fill=COOKIE, outline=INK)
    dot = rad * 0.3
    draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=(240, 220, 180))


def _tag(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, text: str,
         size: int, done: bool, feeding: bool) -> None:
    """A meadow's short name as a small label; gold while its bears are being fed."""
    w, h = text_size(text, size, True)
    fill = LAST if feeding else TAG_DONE if done else TAG
    pad = max(3, size // 4)
    draw.rectangle((x - w / 2 - pad, y - h / 2 - pad, x + w / 2 + pad, y + h / 2 + pad),
                   fill=fill, outline=INK, width=max(1, size // 12))
    stamp_text(image, (x, y), text, size, MUTED if done and not feeding else INK, True, "mm")


def _gingerman(draw: ImageDraw.ImageDraw, cx: float, cy: float, h: float, colour: Colour,
               shape: str | None) -> None:
    body = (150, 85, 35)
    limb = max(3, round(h * 0.22))
    draw.ellipse((cx - h * 0.35, cy - h, cx + h * 0.35, cy - h * 0.3), fill=body, outline=INK)
    for sx in (-1, 1):
        draw.line((cx + sx * h * 0.45, cy - h * 0.2, cx + sx * h * 0.85, cy + h * 0.1),
                  fill=body, width=limb)
        draw.line((cx + sx * h * 0.25, cy + h * 0.45, cx + sx * h * 0.35, cy + h), fill=body,
                  width=limb)
    draw.rounded_rectangle((cx - h * 0.45, cy - h * 0.35, cx + h * 0.45, cy + h * 0.5),
                           radius=h * 0.2, fill=body, outline=INK)
    if shape is not None:
        shape_mark(draw, shape, cx, cy + h * 0.07, h * 0.24, colour, WHITE,
                   max(1, round(h * 0.05)))


def _castle(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    w = s * 0.4
    wall = (250, 225, 235)
    draw.rectangle((cx - w, cy - w * 0.5, cx + w, cy + w * 0.8), fill=wall, outline=INK, width=2)
    for dx in (-w, -w / 3, w / 3):
        draw.rectangle((cx + dx, cy - w * 0.8, cx + dx + w * 0.66, cy - w * 0.5), fill=wall,
                       outline=INK, width=2)
    draw.rectangle((cx - w * 0.2, cy + w * 0.2, cx + w * 0.2, cy + w * 0.8), fill=(170, 90, 120))


# --------------------------------------------------------------------------- the map


Tag = tuple[int, bool, bool]
"""A meadow's tag on a field: its number, whether it is scored, whether it is being fed."""


class Map:
    """Draws the table's cards and open spots onto the picture.

    A card's hexagon is drawn in place; what lies on it (roads, cookies, sheep,
    bears, tags, a Gingerman) is drawn once into a sprite kept by its content
    and size, and pasted: from one move to the next most cards do not change.
    """

    def __init__(self, view: dict[str, Any], geo: Geometry, image: Image.Image,
                 players: tuple[str, ...] | None = None) -> None:
        """``players``: the seats' colours (by default the view's envelope's)."""
        self.view, self.geo, self.image = view, geo, image
        self.areas = view.get("areas") or []
        self.players = table_of(view).colours if players is None else players
        self.owner_colour = dict(enumerate(self.players))
        feeding = view.get("feeding") or {}
        self.feeding_area = feeding.get("area")
        self.tagged = tag_places(view)

    def draw(self, draw: ImageDraw.ImageDraw) -> None:
        geo = self.geo
        for spot in self.view["spots"]:
            self._spot(draw, spot)
        for card in self.view["cards"]:
            self.card(draw, card)
        last = self.view.get("last")
        if last and last.get("index") is not None and last["index"] < len(self.view["cards"]):
            card = self.view["cards"][last["index"]]
            _hexagon(draw, geo.corners(card["q"], card["r"], 0.95), None, LAST,
                     max(4, round(geo.size * 0.09)))
        # Label sizes move in whole steps so that they rarely change as the table grows
        # (each new size is a new label to rasterise).
        size = READABLE
        for card in self.view["cards"]:
            if card["kind"] != "castle":
                cx, cy = geo.centre(card["q"], card["r"])
                stamp_text(self.image, (cx, cy - geo.size * 0.84), card["label"], size,
                           (30, 60, 25), True, "mt")

    def _spot(self, draw: ImageDraw.ImageDraw, spot: dict[str, Any]) -> None:
        geo = self.geo
        _hexagon(draw, geo.corners(spot["q"], spot["r"], 0.92), SPOT_FILL, SPOT_EDGE,
                 max(2, round(geo.size * 0.03)))
        size = max(READABLE, min(40, 4 * round(geo.size * 0.42 / 4)))
        stamp_text(self.image, geo.centre(spot["q"], spot["r"]), spot["label"], size, SPOT, True,
                   "mm")

    def card(self, draw: ImageDraw.ImageDraw, card: dict[str, Any]) -> None:
        """One placed card: its hexagon, then its contents from the sprite cache."""
        geo = self.geo
        q, r, s = card["q"], card["r"], geo.size
        fields = card["fields"]
        fill = GRASS
        if card["kind"] == "gingerman":
            fill = ROAD
        elif fields and all(f["done"] for f in fields):
            fill = GRASS_DONE
        _hexagon(draw, geo.corners(q, r), fill, HEX_EDGE, max(1, round(s * 0.02)))
        sprite, (dx, dy) = _card_sprite(round(s, 1), self._key(card))
        if sprite is not None:
            cx, cy = geo.centre(q, r)
            paste_at(self.image, sprite, round(cx) + dx, round(cy) + dy)

    def _key(self, card: dict[str, Any]) -> tuple[Any, ...]:
        """Everything that decides how a card's contents look, as a hashable key."""
        fields = []
        for n, f in enumerate(card["fields"]):
            index = f.get("area")
            area = self.areas[index] if index is not None and index < len(self.areas) else None
            tag = ((area["number"], bool(area["done"]), area["id"] == self.feeding_area)
                   if area is not None and "number" in area
                   and self.tagged.get(index) == (card["q"], card["r"], n) else None)
            fields.append((tuple(f["sides"]), f["sheep"], f["rainbow"], f["sugar"], f["honey"],
                           tuple((b["colour"], b["fed"]) for b in f["bears"]), tag))
        roads = tuple(tuple((a["side"], a["cookies"]) for a in road["arms"])
                      for road in card["roads"])
        owner = card.get("owner")
        colour = self.owner_colour.get(owner) if owner is not None else None
        return (card["kind"], roads, tuple(fields), owner, colour, self.players)


def tag_places(view: dict[str, Any]) -> dict[int, tuple[int, int, int]]:
    """Where each meadow's tag goes: one field per meadow, as a map names a region once.

    The tag sits on the meadow's largest field holding a sheep or a bear (an empty
    meadow is not listed, so needs no name), the earliest placed card on a tie, so that
    it rarely moves as the table grows. Returns area index -> (q, r, field).
    """
    best: dict[int, tuple[tuple[int, int], tuple[int, int, int]]] = {}
    for order, card in enumerate(view["cards"]):
        for n, field in enumerate(card["fields"]):
            index = field.get("area")
            if index is None:
                continue
            if not (field["sheep"] or field["rainbow"] or field["bears"]):
                continue
            rank = (-len(field["sides"]), order)
            if index not in best or rank < best[index][0]:
                best[index] = (rank, (card["q"], card["r"], n))
    return {index: place for index, (_, place) in best.items()}


@lru_cache(maxsize=768)
def _card_sprite(size: float, key: tuple[Any, ...]
                 ) -> tuple[Image.Image | None, tuple[int, int]]:
    """A card's contents on a transparent background, cut to what they cover (pasting
    costs by the pixel, and a card's contents cover half its square), with where the
    sprite's corner lies from the card's centre; ``None`` for a card with no contents."""
    kind, roads, fields, owner, owner_colour, players = key
    half = math.ceil(size) + 2
    sprite = Image.new("RGBA", (2 * half + 1, 2 * half + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    geo = Geometry(size, half, half)
    _paint_roads(draw, geo, kind, roads)
    if kind == "castle":
        _castle(draw, half, half, size)
    elif kind == "gingerman":
        colour = _colour(owner_colour or "") if owner is not None else INK
        shape = SEAT_SHAPES[owner % len(SEAT_SHAPES)] if owner is not None else None
        _hexagon(draw, geo.corners(0, 0, 0.9), None, colour, max(4, round(size * 0.1)))
        _gingerman(draw, half, half, size * 0.5, colour, shape)
    shape_of = {c: SEAT_SHAPES[i % len(SEAT_SHAPES)] for i, c in enumerate(players)}
    blocks = [b for b in (_field_block(geo, field) for field in fields) if b is not None]
    _arrange(geo, blocks)
    for block in blocks:
        _paint_block(sprite, draw, block, shape_of)
    box = sprite.getchannel("A").getbbox()
    if box is None:
        return None, (0, 0)
    return sprite.crop(box), (box[0] - half, box[1] - half)


@lru_cache(maxsize=256)
def _token(kind: str, rad: float, colour: str, shape: str | None, cube: bool) -> Image.Image:
    """A sheep, rainbow sheep or bear drawn once per look and size, centred in a sprite."""
    half = math.ceil(rad * 1.6) + 2
    sprite = Image.new("RGBA", (2 * half + 1, 2 * half + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    if kind == "bear":
        _bear(draw, half, half, rad, _colour(colour), shape, cube)
    else:
        _sheep(draw, half, half, rad, kind == "rainbow", cube)
    return sprite


def _paint_roads(draw: ImageDraw.ImageDraw, geo: Geometry, kind: str,
                 roads: tuple[tuple[tuple[int, int], ...], ...]) -> None:
    """Roads from their hubs to their sides, a cottage at a dead end, cookies on the arms."""
    if kind == "gingerman":
        return
    s = geo.size
    width = max(5, round(s * 0.2))
    for arms in roads:
        sides = [side for side, _ in arms]
        hx, hy = _hub(geo, 0, 0, sides, len(roads) == 1)
        ends = [geo.side_point(0, 0, side) for side in sides]
        for x, y in ends:
            draw.line((hx, hy, x, y), fill=ROAD_EDGE, width=width + max(3, width // 3))
        for x, y in ends:
            draw.line((hx, hy, x, y), fill=ROAD, width=width)
        edge = width / 2 + 1
        draw.ellipse((hx - edge, hy - edge, hx + edge, hy + edge), fill=ROAD)
        if len(sides) == 1 and kind == "land":  # a dead end: a cottage
            h = s * 0.17
            draw.rectangle((hx - h, hy - h * 0.4, hx + h, hy + h), fill=(250, 240, 225),
                           outline=INK)
            draw.polygon([(hx - h * 1.3, hy - h * 0.4), (hx + h * 1.3, hy - h * 0.4),
                          (hx, hy - h * 1.5)], fill=(200, 70, 70), outline=INK)
        for (_, cookies), (x, y) in zip(arms, ends, strict=True):
            for k in range(cookies):
                t = 0.55 + 0.25 * k
                _cookie(draw, hx + (x - hx) * t, hy + (y - hy) * t, max(3.0, s * 0.1))


@dataclass
class _Block:
    """What one field shows (its tag above a grid of tokens) and where, in a card sprite."""

    tokens: list[tuple[str, Any]]
    tag: tuple[int, bool, bool] | None
    per_row: int
    rad: float
    tag_w: float
    tag_h: float
    x: float
    y: float
    tag_size: int = READABLE

    @property
    def width(self) -> float:
        return max(self.per_row * self.rad * 2.2, self.tag_w)

    @property
    def height(self) -> float:
        return math.ceil(len(self.tokens) / self.per_row) * self.rad * 2.2 + self.tag_h


def _field_block(geo: Geometry, field: tuple[Any, ...]) -> _Block | None:
    """Sheep and bears near the field's own sides, under the meadow's tag if it has one."""
    sides, sheep, rainbow, sugar, honey, bears, tag = field
    tokens: list[tuple[str, Any]] = []
    tokens += [("sheep", n < sugar) for n in range(sheep)]
    tokens += [("rainbow", n < honey) for n in range(rainbow)]
    tokens += [("bear", bear) for bear in bears]
    if not tokens:
        return None
    cx, cy = geo.centre(0, 0)
    if sides and len(sides) < 6:
        points = [geo.side_point(0, 0, side, 0.55) for side in sides]
        ax = sum(p[0] for p in points) / len(points)
        ay = sum(p[1] for p in points) / len(points)
        if len(sides) >= 3:  # a big field reaches round the centre of the card
            ax, ay = (ax + cx) / 2, (ay + cy) / 2
    else:
        ax, ay = cx, cy + geo.size * 0.08
    count = len(tokens)
    per_row = 1 if count == 1 else 2 if count <= 4 else 3
    small = len(sides) <= 1 and count > 2
    rad = geo.size * (0.25 if count <= 2 else 0.2 if count <= 4 and not small else 0.16)
    tag_w = tag_h = 0.0
    if tag is not None:
        w, h = _measure_tag(_meadow_tag(tag[0]), _tag_size(rad))
        tag_w, tag_h = w, h + rad * 0.3
    return _Block(tokens, tag, per_row, rad, tag_w, tag_h, ax, ay, _tag_size(rad))


def _tag_size(rad: float) -> int:
    return max(READABLE, 2 * round(rad * 0.95 / 2))


def _measure_tag(text: str, size: int) -> tuple[float, float]:
    """The outer width and height of a tag drawn by ``_tag``."""
    w, h = text_size(text, size, True)
    pad = max(3, size // 4)
    return w + 2 * pad, h + 2 * pad


def _arrange(geo: Geometry, blocks: list[_Block]) -> None:
    """Lay out a card's blocks apart, shrinking the tokens (never the tags) if they crowd."""
    start = [(b.x, b.y) for b in blocks]
    for _ in range(2):  # two steps at most: smaller tokens would stop reading as sheep
        if _push_apart(geo, blocks):
            return
        for b, (x, y) in zip(blocks, start, strict=True):
            b.x, b.y = x, y
            b.tag_h -= b.rad * 0.3 * 0.2 if b.tag is not None else 0
            b.rad *= 0.8
    _push_apart(geo, blocks)


def _push_apart(geo: Geometry, blocks: list[_Block]) -> bool:
    """Move the blocks of one card apart and inside it, below the card's own label.

    A few rounds of pushing overlapping pairs apart along the line between their
    centres, then keeping each block inside the circle that fits in the hexagon.
    """
    cx, cy = geo.centre(0, 0)
    room = geo.size * SQRT3 / 2 * 0.94
    ceiling = cy - geo.size * 0.84 + READABLE + 2  # the card's label sits above this
    # A block's size does not change here: measured once, with the box it must stay in.
    sizes = [(b.width, b.height) for b in blocks]
    boxes = []
    for w, h in sizes:
        reach_x = max(0.0, room - w / 2)
        reach_y = max(0.0, room - h / 2)
        boxes.append((cx - reach_x, cx + reach_x, max(cy - reach_y, ceiling + h / 2),
                      cy + reach_y))

    def clamp(k: int) -> None:
        b, (left, right, top, bottom) = blocks[k], boxes[k]
        b.x = min(max(b.x, left), right)
        b.y = min(max(b.y, top), bottom)

    for k in range(len(blocks)):
        clamp(k)
    for _ in range(12):
        moved = False
        for i, a in enumerate(blocks):
            aw, ah = sizes[i]
            for j in range(i + 1, len(blocks)):
                b = blocks[j]
                bw, bh = sizes[j]
                over_x = (aw + bw) / 2 + 2 - abs(a.x - b.x)
                over_y = (ah + bh) / 2 + 2 - abs(a.y - b.y)
                if over_x <= 0 or over_y <= 0:
                    continue
                moved = True
                # Separate along the axis that needs the smaller push.
                if over_x < over_y:
                    sign = 1 if a.x >= b.x else -1
                    a.x += sign * over_x / 2
                    b.x -= sign * over_x / 2
                else:
                    sign = 1 if a.y >= b.y else -1
                    a.y += sign * over_y / 2
                    b.y -= sign * over_y / 2
                clamp(i)
                clamp(j)
        if not moved:
            return True
    return False


def _paint_block(image: Image.Image, draw: ImageDraw.ImageDraw, block: _Block,
                 shape_of: dict[str, str]) -> None:
    top = block.y - block.height / 2
    rad, step = block.rad, block.rad * 2.2
    if block.tag is not None:
        number, done, feeding = block.tag
        _tag(image, draw, block.x, top + (block.tag_h - rad * 0.3) / 2, _meadow_tag(number),
             block.tag_size, done, feeding)
    first = top + block.tag_h + step / 2
    count = len(block.tokens)
    for i, (kind, data) in enumerate(block.tokens):
        row, col = divmod(i, block.per_row)
        in_row = min(block.per_row, count - row * block.per_row)
        x = block.x + (col - (in_row - 1) / 2) * step
        y = first + row * step
        if kind == "bear":
            colour, fed = data
            paste_centred(image, _token("bear", round(rad, 1), colour, shape_of.get(colour), fed),
                          x, y)
        else:
            paste_centred(image, _token(kind, round(rad, 1), "", None, bool(data)), x, y)


# --------------------------------------------------------------------------- the panels


def _what(view: dict[str, Any], table: Table) -> str:
    """What the seat to act is to do, in the notation's words."""
    feeding = view.get("feeding")
    if table.decision == "feed" and feeding:
        area = next((a for a in view.get("areas", []) if a["id"] == feeding["area"]), None)
        where = f" in {area['name']}" if area and "name" in area else ""
        colours = feeding["colours"]
        bears = " or ".join([", ".join(colours[:-1]), colours[-1]] if len(colours) > 1
                            else colours)
        return (f"Choose which bear eats{where}: {feeding['cubes']} sugar left for {bears} "
                f"bears (feed {feeding['colours'][0]}).")
    if table.viewer in table.acting and view.get("hand"):
        return f"Place your card {view['hand']['name']} on a labelled spot (below: how it fits)."
    return "Place a land card on a labelled spot."


def _header(view: dict[str, Any], table: Table) -> Header:
    return header(view, WIDTH - 2 * MARGIN, what=_what(view, table))


def _heading_height(head: Header, zoom: str | None) -> int:
    return 16 + head.height + 10 + CHIP_H + 8 + (40 if zoom else 0)


def _heading(image: Image.Image, draw: ImageDraw.ImageDraw, head: Header,
             seats: list[dict[str, Any]], routes: list[dict[str, Any]], zoom: str | None) -> None:
    """The shared header, then a card per seat, then what the map is zoomed on."""
    table = head.table
    y = head.draw(image, draw, MARGIN, 16) + 10
    gap = 10
    chip = (WIDTH - 2 * MARGIN - gap * (len(seats) - 1)) / len(seats)
    reached = {r["seat"]: r for r in routes}
    for i, seat in enumerate(seats):
        x = MARGIN + i * (chip + gap)
        colour = table.rgb(seat["seat"])
        active = seat["seat"] in table.acting
        panel(draw, (x, y, x + chip, y + CHIP_H), fill=PANEL,
              outline=colour if active else PANEL_EDGE, width=5 if active else 2, radius=12)
        table.mark(draw, seat["seat"], x + 24, y + 25, 14)
        score = str(seat["score"])
        score_w = text_size(score, 34, True)[0]
        stamp_text(image, (x + 46, y + 25), table.names[seat["seat"]], 25, INK, True, "lm",
                   width=chip - 66 - score_w)
        stamp_text(image, (x + chip - 12, y + 25), score, 34, table.text_rgb(seat["seat"]), True,
                   "rm")
        stamp_text(image, (x + 14, y + 58), f"{seat['sugar']} sugar · {seat['honey']} honey",
                   READABLE, INK, anchor="lm", width=chip - 24)
        route = reached.get(seat["seat"])
        if seat["gingerman"]:
            extra = "Gingerman in hand"
        elif route and route["reached"]:
            extra = f"route {route['cookies']} cookie{'' if route['cookies'] == 1 else 's'}"
        else:
            extra = "no route home"
        if table.ais[seat["seat"]]:
            extra = "AI, " + extra
        if not seat["has_card"] and not table.over:
            extra += " · no card"
        for n, line in enumerate(wrap(extra, READABLE, round(chip - 24))[:2]):
            stamp_text(image, (x + 14, y + 88 + 30 * n), line, READABLE, MUTED, anchor="lm",
                       width=chip - 24)
    y += CHIP_H + 8
    if zoom:
        stamp_text(image, (MARGIN, y + 4), f"Zoom on {zoom} and its neighbours", 26, INK, True)


ROW_H = 40


def _meadow_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Meadows still in play that hold something to win or bears to count."""
    return [a for a in view.get("areas") or []
            if "number" in a and not a["done"] and (a["bears"] or a["sugar"] or a["honey"])]


def _meadow_columns(rows: list[dict[str, Any]], players: tuple[str, ...]) -> int:
    """Two columns when every meadow's line fits half the width, else one."""
    half = (WIDTH - 2 * MARGIN) // 2 - 8
    return 2 if all(_meadow_width(area, players) <= half for area in rows) else 1


def _meadow_width(area: dict[str, Any], players: tuple[str, ...]) -> int:
    bears = sum(1 for colour in players if area["bears"].get(colour))
    words = _meadow_words(area, players)
    return 80 + 64 * bears + sum(text_size(w, READABLE)[0] + 12 for w in words)


def _meadow_words(area: dict[str, Any], players: tuple[str, ...]) -> list[str]:
    """A meadow's line after its players' bears: others' bears, then the cubes to share."""
    words = []
    others = sum(c for colour, c in area["bears"].items() if colour not in players)
    if others:
        words.append(f"+{others} nobody's")
    if not area["bears"]:
        words.append("no bears")
    cubes = []
    if area["sugar"] or area["fed"]:
        cubes.append(f"{area['sugar'] + area['fed']} sugar")
    if area["honey"]:
        cubes.append(f"{area['honey']} honey")
    if cubes:
        words.append("· " + ", ".join(cubes))
    return words


def _meadows_title(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    stamp_text(image, (MARGIN, 6), "Meadows in play: bears by player, cubes to share", 24,
               INK, True)


def _meadow_row(image: Image.Image, draw: ImageDraw.ImageDraw, areas: list[dict[str, Any]],
                columns: int, players: tuple[str, ...], feeding: int | None) -> None:
    """One row of the meadows still in play (one or two of them): each one's tag, every
    player's bears on it, the cubes to share."""
    column = (WIDTH - 2 * MARGIN) // columns
    cy = ROW_H // 2
    for n, area in enumerate(areas):
        x = MARGIN + n * column
        _tag(image, draw, x + 34, cy, _meadow_tag(area["number"]), READABLE, False,
             area["id"] == feeding)
        px = x + 80
        for seat, colour in enumerate(players):
            count = area["bears"].get(colour, 0)
            if count:
                seat_mark(draw, seat, px + 11, cy, 11, players)
                stamp_text(image, (px + 26, cy), str(count), READABLE, INK, True, "lm")
                px += 64
        for word in _meadow_words(area, players):
            stamp_text(image, (px, cy), word, READABLE, INK if word[0] == "·" else MUTED,
                       anchor="lm")
            px += text_size(word, READABLE)[0] + 12


def _meadow_strips(view: dict[str, Any], players: tuple[str, ...]) -> list[Strip]:
    """The meadows still in play, a strip a row: a move changes one or two of them."""
    rows = _meadow_rows(view)
    if not rows:
        return []
    columns = _meadow_columns(rows, players)
    feeding = (view.get("feeding") or {}).get("area")
    return [Strip(40, _meadows_title),
            *(Strip(ROW_H, _meadow_row, (rows[n:n + columns], columns, players, feeding))
              for n in range(0, len(rows), columns))]


KEY_H = 120


def _bear_line(view: dict[str, Any], table: Table) -> str:
    """Which bear colour is whose, in the words of the notation (`feed red`)."""
    neutral = (view.get("colours") or {}).get("neutral") or list(NEUTRAL_BEARS)
    owned = [f"{colour} {name}" for colour, name in zip(table.colours, table.names, strict=True)]
    return f"Bears: {', '.join(owned)}; {' and '.join(neutral)}: nobody's"


def _bears(image: Image.Image, draw: ImageDraw.ImageDraw, line: str) -> None:
    """Whose bears are which colour."""
    stamp_text(image, (MARGIN, 18), line, READABLE, INK, anchor="lm", width=WIDTH - 2 * MARGIN)


def _supply(image: Image.Image, draw: ImageDraw.ImageDraw, deck: int,
            supply: dict[str, int]) -> None:
    """The deck and the cubes left in the supply."""
    stamp_text(image, (WIDTH - MARGIN, 18), f"deck {deck} · left: {supply['sugar']} "
               f"sugar, {supply['honey']} honey", READABLE, MUTED, anchor="rm")


def _pieces(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """What the pieces on the map are."""
    entries = [
        (lambda x, yy: _sheep(draw, x, yy, 14, False, True), "sugar sheep"),
        (lambda x, yy: _sheep(draw, x, yy, 14, True, True), "honey sheep"),
        (lambda x, yy: _bear(draw, x, yy - 3, 14, NEUTRAL_BEARS["green"], None, True),
         "fed bear"),
        (lambda x, yy: _cookie(draw, x, yy, 10), "cookie"),
    ]
    x, y = MARGIN, 0
    for marker, label in entries:
        marker(x + 16, y + 18)
        stamp_text(image, (x + 36, y + 18), label, 20, INK, anchor="lm")
        x += 36 + text_size(label, 20)[0] + 18


# --------------------------------------------------------------------------- the hand


def _turned_card(hand: dict[str, Any], rot: int) -> dict[str, Any]:
    """The hand card as it would lie on the table turned by ``rot`` degrees."""
    k = rot // 60
    return {
        "kind": "land", "q": 0, "r": 0, "label": "", "owner": None,
        "roads": [{"arms": [{"side": (a["side"] + k) % 6, "cookies": a["cookies"]}
                            for a in road["arms"]]} for road in hand["roads"]],
        "fields": [{"sides": sorted((sd + k) % 6 for sd in f["sides"]), "sheep": f["sheep"],
                    "rainbow": f["rainbow"], "sugar": 0, "honey": 0, "done": False,
                    "area": None, "bears": [{"colour": c, "fed": False} for c in f["bears"]]}
                   for f in hand["fields"]],
    }


def _hand(image: Image.Image, draw: ImageDraw.ImageDraw, hand: dict[str, Any],
          players: tuple[str, ...]) -> None:
    """The viewer's own card in each of its six turns (private views only)."""
    top = 0
    draw.rectangle((0, top, WIDTH, top + HAND_H), fill=(244, 232, 216))
    fits = sorted({p["rot"] for p in hand.get("placements", [])})
    stamp_text(image, (MARGIN, top + 12), f"Your card {hand['name']} (only you see this)", 24,
               INK, True, width=WIDTH - 2 * MARGIN)
    slot = (WIDTH - 2 * MARGIN) / 6
    geo = Geometry(min(64.0, slot / 2 - 8), 0, 0)
    for i, rot in enumerate((0, 60, 120, 180, 240, 300)):
        cx = MARGIN + slot * (i + 0.5)
        geo.ox, geo.oy = cx, top + 140
        Map({"areas": [], "spots": [], "cards": []}, geo, image, players).card(
            draw, _turned_card(hand, rot))
        fits_here = rot in fits
        stamp_text(image, (cx, top + 228), f"rot {rot}" + (" fits" if fits_here else ""),
                   READABLE, INK if fits_here else MUTED, fits_here, "mm", width=WIDTH / 6 - 4)


# --------------------------------------------------------------------------- the picture


def _zoom_cells(view: dict[str, Any], label: str) -> list[tuple[int, int]] | None:
    """The spot called ``label`` and its six neighbours, or ``None`` if there is none."""
    for place in [*view["cards"], *view["spots"]]:
        if place["label"] == label:
            q, r = place["q"], place["r"]
            return [(q, r)] + [(q + dq, r + dr) for dq, dr in
                               ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))]
    return None


def _map(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], size: float,
         ox: float, oy: float) -> None:
    """The table, in its strip: the cells at its edge are cut off by the strip's edges."""
    Map(view, Geometry(size, ox, oy), image).draw(draw)


def _strips(view: dict[str, Any]) -> list[Strip]:
    """The picture top to bottom, each part a strip drawn from what it shows alone."""
    table = table_of(view)
    if table.over:  # nowhere left to play: the table alone, larger
        view = {**view, "spots": []}
    zoom = view.get("zoom")
    cells = _zoom_cells(view, zoom) if zoom else None
    edge: list[tuple[int, int]] = []
    if cells is None:
        zoom = None
        cells = [(c["q"], c["r"]) for c in view["cards"]]
        edge = [(s["q"], s["r"]) for s in view["spots"]]
    geo, map_h = Geometry.fitted(cells, WIDTH, ZOOM_MAP_H if zoom else MAX_MAP_H,
                                 ZOOM_HEX if zoom else MAX_HEX, edge)
    # The header and the map change with every move: drawn each time, never kept.
    head = _header(view, table)
    strips = [Strip(_heading_height(head, zoom), _heading,
                    (head, view["seats"], view.get("routes") or [], zoom),
                    kept=False),
              Strip(round(map_h), _map, (view, geo.size, geo.ox, geo.oy), kept=False)]
    strips += _meadow_strips(view, table.colours)
    strips += [Strip(40, _bears, (_bear_line(view, table),)),
               Strip(40, _supply, (view["deck"], view["supply"])),
               Strip(KEY_H - 80, _pieces)]
    if view.get("hand"):
        strips.append(Strip(HAND_H, _hand, (view["hand"], table.colours)))
    return strips


#: The real game the palette is drawn from: four seats (every bear colour) early and
#: mid-game, in a seat's own eyes (the table and its hand).
PALETTE_GAMES = (Sample(4, 8, (3, 12), (1,)),)


def _kept() -> tuple[Colour, ...]:
    """Flat fills kept exact: an octree bucket shared with their edges would shade them."""
    return (*NEUTRAL_BEARS.values(), GRASS, GRASS_DONE, HEX_EDGE, ROAD, ROAD_EDGE, SPOT_FILL,
            SPOT_EDGE, TAG, TAG_DONE, LAST)


PICTURES = Pictures("sugartopia", WIDTH, _strips, PALETTE_GAMES, keep=_kept)
_draw, _palette, render = PICTURES.draw, PICTURES.palette, PICTURES.render
