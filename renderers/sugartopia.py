"""Sugartopia picture in the phone frame (:mod:`renderers.common`): 800 x 1280 px at every
move of a game (a seat's own picture too), every text 20 px or more and most of it 24 px.

Top to bottom, each a strip: the shared header (whose turn, the deck, the move, what to
do); a card a seat (mark, name, score, the sugar and honey it holds, its Gingerman still
in hand or the cookies on its way home); the table, cropped to the placed cards and the
ring of open spots and as large as the room left allows; the last card placed, marked
on the table and said under it; in a seat's own picture its hand card in its six turns;
the meadows in play, a chip each (its tag, each player's bears, the bears of nobody, the
cubes to share), or once over the final ranking; and the legend. With ``view["zoom"]``
set to a spot's label, the table shows that spot and its neighbours large, labels of the
placed cards and all.

Every strip but the table is fixed in height while the game goes on (the meadows keep
room for four rows of chips), and the table takes what is left, so the picture never
changes size between moves. The table is cut into bands half a hex tall: each hex lies
across two bands, a band is a strip kept by what its hexes show (``Strip``), and a move
redraws only the bands of the cards and spots it changed. Each hex is drawn whole (its
tile, roads, pieces and meadow tag) into a sprite kept by what it shows, and pasted.

Draws only what the view holds: a public view has no hand card, so the public picture
cannot show one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.colours import PAINTS
from renderers import common

WIDTH = common.FRAME_W
#: Every picture is this tall while the game goes on, a seat's own picture too.
HEIGHT = common.FRAME_MAX_H
MARGIN = common.FRAME_MARGIN
SQRT3 = math.sqrt(3)
#: The seats' cards, one row of them whatever the number of seats.
SEATS_H = 90
#: The meadows in play: this many rows of chips.
MEADOW_ROWS = 4
CHIP_ROW = 44
MEADOWS_H = 4 + MEADOW_ROWS * CHIP_ROW + 4
#: The legend keeps room for this many rows of keys, so that a key coming or going does
#: not move the picture.
LEGEND_ROWS = 3
LEGEND_H = 16 + LEGEND_ROWS * common.KEY_ROW
#: The line under the table saying which card was placed last.
LAST_H = 16 + common.KEY_ROW
#: Half a hex's height in px (the band of the table a strip holds), largest first: a hex
#: is as large as the table allows, in steps of about 20 % so that it shrinks now and then
#: as the table grows rather than at every move (each change of size draws the whole
#: table again: 4 % of the pictures of whole games draw a grown table anew).
BANDS = (64, 52, 42, 34, 28, 23, 19, 16)
ZOOM_BANDS = (150, 140, 130, 120, 110, 100, 92, 85, 78, 72, 66, 60)
#: Room kept free left and right of the table in its strip.
MAP_PAD = 4
#: A placed card's label (zoomed in) hangs this far above its centre, in hex sizes.
LABEL_AT = 0.7

#: The land's colours: grass (a finished meadow paler), roads, cookies, spots.
GRASS: common.Colour = (150, 205, 120)
GRASS_DONE: common.Colour = (200, 214, 186)
HEX_EDGE: common.Colour = (104, 150, 84)
ROAD: common.Colour = (232, 190, 125)
ROAD_EDGE: common.Colour = (140, 95, 55)
COOKIE: common.Colour = (160, 95, 40)
SPOT: common.Colour = (118, 104, 92)
SPOT_FILL: common.Colour = (243, 232, 216)
SPOT_EDGE: common.Colour = (205, 188, 168)
SUGAR: common.Colour = (255, 255, 255)
HONEY: common.Colour = (245, 170, 20)
TAG: common.Colour = (255, 252, 240)
TAG_DONE: common.Colour = (225, 225, 215)
#: A meadow whose bears are eating now: its tag, and its chip's outline.
FEEDING: common.Colour = (255, 184, 0)
#: The bears of nobody; players' bears are in their seat colours (``bot.games.colours``).
NEUTRAL_BEARS: dict[str, common.Colour] = {"green": (30, 140, 70), "orange": (240, 130, 20)}


def _colour(name: str) -> common.Colour:
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


def _size(band: int) -> float:
    """The hex size (centre to corner) whose half height is ``band`` px."""
    return 2 * band / SQRT3


@dataclass(frozen=True)
class Layout:
    """Where the table lies in its strip: hexes ``band`` px half-tall, the castle's centre
    at (``ox``, ``oy``), ``oy`` a whole number of bands from the top so that every hex
    begins and ends on a band's edge."""

    band: int
    ox: float
    oy: int

    @property
    def size(self) -> float:
        return _size(self.band)

    def centre(self, q: int, r: int) -> tuple[int, int]:
        """The centre of the hex at (q, r), on whole pixels."""
        return round(self.ox + 1.5 * self.size * q), self.oy + self.band * (2 * r + q)

    def row(self, q: int, r: int) -> int:
        """The band the hex at (q, r) is centred on the top edge of: it covers that band
        and the one above it."""
        return self.oy // self.band + 2 * r + q


def fit(cells: Sequence[tuple[int, int]], edge: Sequence[tuple[int, int]], height: int,
        ladder: Sequence[int] = BANDS, width: int = WIDTH) -> Layout:
    """The largest hexes of ``ladder`` that show ``cells`` whole in the ``width`` px at the
    left of a strip ``height`` tall (``edge`` cells, the open spots round the table, need
    only their label to show).

    The castle stands in the middle of the strip while the table fits round it there, and
    is moved off it by whole steps (half a column across, a band up or down) only as far
    as the table needs: as the table grows, it mostly stays where it was, and the bands of
    the table, kept by what they show, are copied rather than drawn again (those of a
    table moved up or down by whole bands too).
    """
    extent = _Extent(cells, edge)
    for band in ladder:
        layout = extent.placed(band, width, height)
        if layout is not None:
            return layout
    band = ladder[-1]
    return Layout(band, width / 2, band * round(height / 2 / band))


class _Extent:
    """How far a table reaches from its castle, in columns and half rows: its cards whole,
    its open spots by their labels."""

    def __init__(self, cells: Sequence[tuple[int, int]],
                 edge: Sequence[tuple[int, int]]) -> None:
        def reach(places: Sequence[tuple[int, int]]) -> tuple[int, int, int, int] | None:
            if not places:
                return None
            qs = [q for q, _ in places]
            rows = [2 * r + q for q, r in places]
            return min(qs), max(qs), min(rows), max(rows)

        self.cells, self.edge = reach(cells), reach(edge)

    def placed(self, band: int, width: int, height: int) -> Layout | None:
        """The layout with hexes ``band`` px half tall, or ``None`` if the table is too big."""
        s = _size(band)
        boxes: list[tuple[float, float, float, float]] = []
        if self.cells:
            q0, q1, c0, c1 = self.cells
            boxes.append((1.5 * s * q0 - s, 1.5 * s * q1 + s, band * (c0 - 1), band * (c1 + 1)))
        if self.edge:
            q0, q1, c0, c1 = self.edge
            w, h = max(0.62 * s, 26.0), max(0.45 * band, 14.0)
            boxes.append((1.5 * s * q0 - w, 1.5 * s * q1 + w, band * c0 - h, band * c1 + h))
        if not boxes:
            return Layout(band, width / 2, band * round(height / 2 / band))
        left, right = min(b[0] for b in boxes), max(b[1] for b in boxes)
        top, bottom = min(b[2] for b in boxes), max(b[3] for b in boxes)
        lowest, highest = MAP_PAD - left, width - MAP_PAD - right
        first = math.ceil(-top / band)  # tiles keep a gap inside their own rows
        last = math.floor((height - bottom) / band)
        if lowest > highest or first > last:
            return None
        oy = band * min(max(round(height / 2 / band), first), last)
        step = 0.75 * s
        low, high = math.ceil((lowest - width / 2) / step), math.floor((highest - width / 2) / step)
        ox = width / 2 + step * min(max(0, low), high) if low <= high else (lowest + highest) / 2
        return Layout(band, ox, oy)


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
             fill: common.Colour | None, outline: common.Colour, width: int) -> None:
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
        draw.ellipse((px - puff, py - puff, px + puff, py + puff), fill=wool, outline=common.INK)
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
                       fill=HONEY if rainbow else SUGAR, outline=common.INK, width=2)


def _bear(draw: ImageDraw.ImageDraw, x: float, y: float, rad: float, colour: common.Colour,
          shape: str | None, fed: bool) -> None:
    """A gummy bear; its owner's shape on its belly; a fed bear holds a cube at its side."""
    ear = rad * 0.36
    for dx in (-0.58, 0.58):
        draw.ellipse((x + dx * rad - ear, y - rad * 0.92 - ear, x + dx * rad + ear,
                      y - rad * 0.92 + ear), fill=colour, outline=common.INK)
    draw.ellipse((x - rad * 0.78, y - rad * 1.05, x + rad * 0.78, y + rad * 0.05), fill=colour,
                 outline=common.INK)
    draw.ellipse((x - rad * 0.82, y - rad * 0.25, x + rad * 0.82, y + rad * 1.1), fill=colour,
                 outline=common.INK)
    if shape is not None:
        common.shape_mark(draw, shape, x, y + rad * 0.45, rad * 0.36, common.WHITE, common.INK,
                          max(1, round(rad * 0.08)))
    if fed:
        c = rad * 0.36
        cx, cy = x + rad * 0.95, y + rad * 0.65
        draw.rectangle((cx - c, cy - c, cx + c, cy + c), fill=SUGAR, outline=common.INK,
                       width=max(2, round(rad * 0.1)))


def _cookie(draw: ImageDraw.ImageDraw, x: float, y: float, rad: float) -> None:
    draw.ellipse((x - rad, y - rad, x + rad, y + rad), fill=COOKIE, outline=common.INK)
    dot = rad * 0.3
    draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=(240, 220, 180))


def _cube(draw: ImageDraw.ImageDraw, x: float, y: float, half: float, fill: common.Colour) -> None:
    """A sugar (white) or honey (amber) cube."""
    draw.rectangle((x - half, y - half, x + half, y + half), fill=fill, outline=common.INK, width=2)


def _tag(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, text: str,
         size: int, done: bool, feeding: bool) -> None:
    """A meadow's short name as a small label; grey once completed, gold while its bears
    eat."""
    w, h = common.text_size(text, size, True)
    fill = FEEDING if feeding else TAG_DONE if done else TAG
    pad = max(2, size // 8)
    draw.rectangle((x - w / 2 - pad, y - h / 2 - pad, x + w / 2 + pad, y + h / 2 + pad),
                   fill=fill, outline=common.INK, width=2)
    common.stamp_text(image, (x, y), text, size,
                      common.MUTED if done and not feeding else common.INK, True, "mm")


def _measure_tag(text: str, size: int) -> tuple[float, float]:
    """The outer width and height of a tag drawn by ``_tag``."""
    w, h = common.text_size(text, size, True)
    pad = max(2, size // 8)
    return w + 2 * pad + 2, h + 2 * pad + 2


def _gingerman(draw: ImageDraw.ImageDraw, cx: float, cy: float, h: float, colour: common.Colour,
               shape: str | None) -> None:
    body = (150, 85, 35)
    limb = max(3, round(h * 0.22))
    draw.ellipse((cx - h * 0.35, cy - h, cx + h * 0.35, cy - h * 0.3), fill=body,
                 outline=common.INK)
    for sx in (-1, 1):
        draw.line((cx + sx * h * 0.45, cy - h * 0.2, cx + sx * h * 0.85, cy + h * 0.1),
                  fill=body, width=limb)
        draw.line((cx + sx * h * 0.25, cy + h * 0.45, cx + sx * h * 0.35, cy + h), fill=body,
                  width=limb)
    draw.rounded_rectangle((cx - h * 0.45, cy - h * 0.35, cx + h * 0.45, cy + h * 0.5),
                           radius=h * 0.2, fill=body, outline=common.INK)
    if shape is not None:
        common.shape_mark(draw, shape, cx, cy + h * 0.07, h * 0.24, colour, common.WHITE,
                          max(1, round(h * 0.05)))


def _castle(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    w = s * 0.4
    wall = (250, 225, 235)
    draw.rectangle((cx - w, cy - w * 0.5, cx + w, cy + w * 0.8), fill=wall, outline=common.INK,
                   width=2)
    for dx in (-w, -w / 3, w / 3):
        draw.rectangle((cx + dx, cy - w * 0.8, cx + dx + w * 0.66, cy - w * 0.5), fill=wall,
                       outline=common.INK, width=2)
    draw.rectangle((cx - w * 0.2, cy + w * 0.2, cx + w * 0.2, cy + w * 0.8), fill=(170, 90, 120))


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


# --------------------------------------------------------------------------- a hex


#: A field as a hex draws it: its sides, sheep, rainbow sheep, sugar and honey on them,
#: its bears (colour, owner's shape, fed), its meadow's tag (number, completed, eating) when
#: the meadow is named on this field, and whether its meadow was completed.
Field = tuple[tuple[int, ...], int, int, int, int, tuple[tuple[str, str | None, bool], ...],
              tuple[int, bool, bool] | None, bool]


@lru_cache(maxsize=1024)
def _hex_sprite(band: int, look: tuple[Any, ...]) -> Image.Image:
    """One hex of the table as a sprite ``2 * band`` rows tall (exactly the rows the hex
    covers, so that it lies across two bands and no more), its centre in the middle:
    an open spot with its label, or a placed card with everything on it."""
    half = _hex_half(band)
    geo = Geometry(_size(band), half, band)
    if look[0] == "spot":  # every open spot is the same pale hex, with its own label
        sprite = _open_spot(band).copy()
        common.stamp_text(sprite, geo.centre(0, 0), look[1], look[2], SPOT, True, "mm")
        return sprite
    sprite = Image.new("RGBA", (2 * half + 1, 2 * band), (0, 0, 0, 0))
    _paint_card(sprite, ImageDraw.Draw(sprite), geo, *look[1:])
    return sprite


@lru_cache(maxsize=16)
def _open_spot(band: int) -> Image.Image:
    """An open spot's pale hex without its label."""
    half = _hex_half(band)
    sprite = Image.new("RGBA", (2 * half + 1, 2 * band), (0, 0, 0, 0))
    _hexagon(ImageDraw.Draw(sprite), Geometry(_size(band), half, band).corners(0, 0, 0.9),
             SPOT_FILL, SPOT_EDGE, 2)
    return sprite


def _tile_shrink(s: float) -> float:
    """How much of its size a card's tile takes: a thin gap of the table shows between
    cards, and the tile stays inside the rows of its sprite."""
    return (s - 2.5) / s


def _paint_card(image: Image.Image, draw: ImageDraw.ImageDraw, geo: Geometry, kind: str,
                roads: tuple[tuple[tuple[int, int], ...], ...], fields: tuple[Field, ...],
                owner: tuple[str, str] | None, last: bool, label: str, label_px: int,
                tag_px: int) -> None:
    """A placed card: its tile, roads, castle or Gingerman, the pieces on each field with
    its meadow's tag, the last card's outline, and (zoomed in) its label."""
    s = geo.size
    fill = ROAD if kind == "gingerman" else \
        GRASS_DONE if fields and all(f[7] for f in fields) else GRASS
    _hexagon(draw, geo.corners(0, 0, _tile_shrink(s)), fill, HEX_EDGE, max(1, round(s * 0.025)))
    _paint_roads(draw, geo, kind, roads)
    cx, cy = geo.centre(0, 0)
    if kind == "castle":
        _castle(draw, cx, cy, s)
    elif kind == "gingerman":
        colour = _colour(owner[0]) if owner is not None else common.INK
        shape = owner[1] if owner is not None else None
        _hexagon(draw, geo.corners(0, 0, 0.86), None, colour, max(3, round(s * 0.1)))
        _gingerman(draw, cx, cy, s * 0.5, colour, shape)
    if last:
        _last_outline(draw, geo)
    ceiling = cy - s * LABEL_AT + label_px + 2 if label else cy - s
    blocks = [b for b in (_field_block(geo, field, tag_px) for field in fields) if b is not None]
    _arrange(geo, blocks, ceiling)
    for block in blocks:
        _paint_tokens(image, block)
    tagged = [b for b in blocks if b.tag is not None]
    for block, (x, y) in zip(tagged, _tag_centres(geo, tagged, ceiling), strict=True):
        number, done, feeding = block.tag  # type: ignore[misc]
        _tag(image, draw, x, y, _meadow_tag(number), block.tag_size, done, feeding)
    if label:
        common.stamp_text(image, (cx, cy - s * LABEL_AT), label, label_px, (30, 60, 25), True, "mt")


def _last_outline(draw: ImageDraw.ImageDraw, geo: Geometry) -> None:
    """The last card's mark: the frame's amber outline on an ink rim, round the tile."""
    s = geo.size
    width = max(4, round(s * 0.09))
    rim = geo.corners(0, 0, _tile_shrink(s) - (width + 4) / 2 / s)
    _hexagon(draw, rim, None, common.INK, width + 4)
    _hexagon(draw, geo.corners(0, 0, _tile_shrink(s) - (width + 4) / 2 / s), None, common.LAST_MOVE,
             width)


def _paint_roads(draw: ImageDraw.ImageDraw, geo: Geometry, kind: str,
                 roads: tuple[tuple[tuple[int, int], ...], ...]) -> None:
    """Roads from their hubs to their sides, a cottage at a dead end, cookies on the arms."""
    if kind == "gingerman":
        return
    s = geo.size
    width = max(5, round(s * 0.2))
    reach = _tile_shrink(s)
    for arms in roads:
        sides = [side for side, _ in arms]
        hx, hy = _hub(geo, 0, 0, sides, len(roads) == 1)
        ends = [geo.side_point(0, 0, side, reach) for side in sides]
        for x, y in ends:
            draw.line((hx, hy, x, y), fill=ROAD_EDGE, width=width + max(3, width // 3))
        for x, y in ends:
            draw.line((hx, hy, x, y), fill=ROAD, width=width)
        edge = width / 2 + 1
        draw.ellipse((hx - edge, hy - edge, hx + edge, hy + edge), fill=ROAD)
        if len(sides) == 1 and kind == "land":  # a dead end: a cottage
            h = s * 0.17
            draw.rectangle((hx - h, hy - h * 0.4, hx + h, hy + h), fill=(250, 240, 225),
                           outline=common.INK)
            draw.polygon([(hx - h * 1.3, hy - h * 0.4), (hx + h * 1.3, hy - h * 0.4),
                          (hx, hy - h * 1.5)], fill=(200, 70, 70), outline=common.INK)
        for (_, cookies), (x, y) in zip(arms, ends, strict=True):
            for k in range(cookies):
                t = 0.55 + 0.25 * k
                _cookie(draw, hx + (x - hx) * t, hy + (y - hy) * t, max(3.0, s * 0.1))


@dataclass
class _Block:
    """What one field shows (its tag above a grid of tokens) and where, in a hex sprite."""

    tokens: list[tuple[str, Any]]
    tag: tuple[int, bool, bool] | None
    per_row: int
    rad: float
    tag_w: float
    tag_h: float
    x: float
    y: float
    tag_size: int = common.TEXT_PX

    @property
    def width(self) -> float:
        return max(self.per_row * self.rad * 2.2, self.tag_w)

    @property
    def height(self) -> float:
        return math.ceil(len(self.tokens) / self.per_row) * self.rad * 2.2 + self.tag_h


def _field_block(geo: Geometry, field: Field, tag_px: int) -> _Block | None:
    """Sheep and bears near the field's own sides, under the meadow's tag if it has one."""
    sides, sheep, rainbow, sugar, honey, bears, tag, _ = field
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
        w, h = _measure_tag(_meadow_tag(tag[0]), tag_px)
        tag_w, tag_h = w, h + rad * 0.3
    return _Block(tokens, tag, per_row, rad, tag_w, tag_h, ax, ay, tag_px)


def _arrange(geo: Geometry, blocks: list[_Block], ceiling: float) -> None:
    """Lay out a card's blocks apart, shrinking the tokens (never the tags) if they crowd."""
    start = [(b.x, b.y) for b in blocks]
    for _ in range(2):  # two steps at most: smaller tokens would stop reading as sheep
        if _push_apart(geo, blocks, ceiling):
            return
        for b, (x, y) in zip(blocks, start, strict=True):
            b.x, b.y = x, y
            b.tag_h -= b.rad * 0.3 * 0.2 if b.tag is not None else 0
            b.rad *= 0.8
    _push_apart(geo, blocks, ceiling)


def _push_apart(geo: Geometry, blocks: list[_Block], ceiling: float) -> bool:
    """Move the blocks of one card apart and inside it, below ``ceiling`` (the card's label
    when it has one).

    A few rounds of pushing overlapping pairs apart along the line between their
    centres, then keeping each block inside the circle that fits in the hexagon.
    """
    cx, cy = geo.centre(0, 0)
    room = geo.size * SQRT3 / 2 * 0.94
    # A block's size does not change here: measured once, with the box it must stay in.
    sizes = [(b.width, b.height) for b in blocks]
    boxes = []
    for w, h in sizes:
        reach_x = max(0.0, room - w / 2)
        reach_y = max(0.0, room - h / 2)
        boxes.append((cx - reach_x, cx + reach_x, max(cy - reach_y, ceiling + h / 2),
                      max(cy + reach_y, ceiling + h / 2)))

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


def _tag_centres(geo: Geometry, blocks: list[_Block], ceiling: float
                 ) -> list[tuple[float, float]]:
    """Where the tags of ``blocks`` go: above their tokens, then pushed apart (up and down,
    inside the card, under ``ceiling``) where two would overlap, so that no tag ever hides
    another (they may hide tokens: a name matters more)."""
    cx, cy = geo.centre(0, 0)
    places = [[b.x, b.y - b.height / 2 + (b.tag_h - b.rad * 0.3) / 2] for b in blocks]
    sizes = [_measure_tag(_meadow_tag(b.tag[0]), b.tag_size) for b in blocks if b.tag]
    inner = geo.size * SQRT3 / 2 - 1

    def clamp(k: int) -> None:
        w, h = sizes[k]
        y = min(max(places[k][1], max(cy - inner + h / 2, ceiling + h / 2)), cy + inner - h / 2)
        # The hexagon narrows away from its middle: keep the tag's corners inside it.
        reach = max(0.0, geo.size - abs(y - cy) / SQRT3 - abs(h) / 2 / SQRT3 - w / 2 - 3)
        places[k] = [min(max(places[k][0], cx - reach), cx + reach), y]

    for k in range(len(places)):
        clamp(k)
    for _ in range(8):
        moved = False
        for i in range(len(places)):
            for j in range(i + 1, len(places)):
                (xi, yi), (xj, yj) = places[i], places[j]
                over_x = (sizes[i][0] + sizes[j][0]) / 2 + 2 - abs(xi - xj)
                over_y = (sizes[i][1] + sizes[j][1]) / 2 + 2 - abs(yi - yj)
                if over_x <= 0 or over_y <= 0:
                    continue
                moved = True
                sign = 1 if (yi, i) >= (yj, j) else -1
                places[i][1] += sign * over_y / 2
                places[j][1] -= sign * over_y / 2
                clamp(i)
                clamp(j)
        if not moved:
            break
    return [(x, y) for x, y in places]


def _paint_tokens(image: Image.Image, block: _Block) -> None:
    top = block.y - block.height / 2
    rad, step = block.rad, block.rad * 2.2
    first = top + block.tag_h + step / 2
    count = len(block.tokens)
    for i, (kind, data) in enumerate(block.tokens):
        row, col = divmod(i, block.per_row)
        in_row = min(block.per_row, count - row * block.per_row)
        x = block.x + (col - (in_row - 1) / 2) * step
        y = first + row * step
        if kind == "bear":
            colour, shape, fed = data
            common.paste_centred(image, _token("bear", round(rad, 1), colour, shape, fed), x, y)
        else:
            common.paste_centred(image, _token(kind, round(rad, 1), "", None, bool(data)), x, y)


# --------------------------------------------------------------------------- the table


class Map:
    """What the table's hexes look like (each as a key :func:`_hex_sprite` draws from) and
    which band of the table's strip each lies across."""

    def __init__(self, view: dict[str, Any], layout: Layout, zoomed: bool = False) -> None:
        self.view, self.layout, self.zoomed = view, layout, zoomed
        self.areas = view.get("areas") or []
        self.colours = common.table_of(view).colours
        self.shapes = {c: common.SEAT_SHAPES[i % len(common.SEAT_SHAPES)] for i,
                       c in enumerate(self.colours)}
        self.feeding_area = (view.get("feeding") or {}).get("area")
        s = layout.size
        self.tag_px = 30 if zoomed else common.TEXT_PX if s >= 48 else common.SMALL_PX
        self.label_px = 30 if zoomed else common.TEXT_PX if s >= 34 else common.SMALL_PX
        self.tagged = tag_places(view, 3 if zoomed or s >= 64 else 2 if s >= 46 else 1)
        last = view.get("last") or {}
        self.last = last.get("index")

    def hexes(self) -> list[tuple[int, int, tuple[Any, ...]]]:
        """Every hex in drawing order (the open spots, then the cards as they were placed):
        the band it is centred on the top edge of, its centre's x, and its look."""
        layout = self.layout
        out = []
        for spot in self.view["spots"]:
            x, _ = layout.centre(spot["q"], spot["r"])
            out.append((layout.row(spot["q"], spot["r"]), x,
                        ("spot", spot["label"], self.label_px)))
        for card in self.view["cards"]:
            x, _ = layout.centre(card["q"], card["r"])
            out.append((layout.row(card["q"], card["r"]), x, self.look(card)))
        return out

    def look(self, card: dict[str, Any]) -> tuple[Any, ...]:
        """Everything that decides how a placed card looks, as a key."""
        fields = []
        for n, f in enumerate(card["fields"]):
            index = f.get("area")
            area = self.areas[index] if index is not None and index < len(self.areas) else None
            closed = _completed(area)
            tag = ((area["number"], closed, area["id"] == self.feeding_area)
                   if area is not None and "number" in area
                   and self.tagged.get(index) == (card["q"], card["r"], n) else None)
            fields.append((tuple(f["sides"]), f["sheep"], f["rainbow"], f["sugar"], f["honey"],
                           tuple((b["colour"], self.shapes.get(b["colour"]), b["fed"])
                                 for b in f["bears"]), tag, closed))
        roads = tuple(tuple((a["side"], a["cookies"]) for a in road["arms"])
                      for road in card["roads"])
        owner = card.get("owner")
        colour = (self.colours[owner], common.SEAT_SHAPES[owner % len(common.SEAT_SHAPES)]) \
            if owner is not None and owner < len(self.colours) else None
        label = card["label"] if self.zoomed and card["kind"] != "castle" else ""
        return ("card", card["kind"], roads, tuple(fields), colour,
                card["index"] == self.last, label, self.label_px, self.tag_px)

    def strips(self, height: int, hand: Sequence[tuple[int, int, tuple[Any, ...]]] = ()
               ) -> list[common.Strip]:
        """The table as bands half a hex tall (the last one what is left), each kept by the
        hexes lying across it (and the parts of the ``hand`` beside the table: sprites as
        (left, top, look))."""
        band = self.layout.band
        count = math.ceil(height / band)
        rows: list[list[tuple[int, int, tuple[Any, ...]]]] = [[] for _ in range(count)]
        sprites = [(x - _hex_half(band), (row - 1) * band, look) for row, x, look in self.hexes()]
        for x, y, look in [*sprites, *hand]:
            bottom = y + {"turn": TURN_H, "yours": YOURS_H}.get(look[0], 2 * band)
            for k in range(max(0, y // band), min(count, math.ceil(bottom / band))):
                rows[k].append((x, y - k * band, look))
        return [common.Strip(min(band, height - k * band), _band, (band, tuple(rows[k])),
                             indexed=True)
                for k in range(count)]


def _hex_half(band: int) -> int:
    """Where a hex sprite's centre lies from its left edge."""
    return math.ceil(_size(band)) + 1


def _look_sprite(band: int, look: tuple[Any, ...]) -> Image.Image:
    """The sprite of a look: a hex of the table, or a part of the hand beside it."""
    if look[0] == "turn":
        return _turn_sprite(*look[1:])
    if look[0] == "yours":
        return _yours_sprite(look[1])
    return _hex_sprite(band, look)


def _band(image: Image.Image, draw: ImageDraw.ImageDraw, band: int,
          sprites: tuple[tuple[int, int, tuple[Any, ...]], ...]) -> None:
    """A band of the table: each sprite lying across it (a hex, or a part of the hand), its
    top left corner from the band's; on the palette (an indexed strip), each sprite as it
    was mapped onto it once."""
    if image.mode != "P":
        for x, y, look in sprites:
            common.paste_at(image, _look_sprite(band, look), x, y)
        return
    tint = bytes(image.getpalette() or ())
    for x, y, look in sprites:
        indices, mask = _mapped(tint, band, look)
        image.im.paste(indices.im, (x, y, x + indices.width, y + indices.height), mask.im)


@lru_cache(maxsize=1024)
def _mapped(tint: bytes, band: int, look: tuple[Any, ...]) -> tuple[Image.Image, Image.Image]:
    """A look's sprite mapped onto the palette whose entries are ``tint``."""
    return common.mapped_sprite(_look_sprite(band, look), _palette_image(tint))


@lru_cache(maxsize=4)
def _palette_image(tint: bytes) -> Image.Image:
    image = Image.new("P", (1, 1))
    image.putpalette(tint)
    return image


def _completed(area: dict[str, Any] | None) -> bool:
    """Whether a meadow was completed (closed off, and scored then): drawn grey. A meadow
    still open when the game ends is scored too, but was not completed."""
    return bool(area and area.get("done") and not area.get("open"))


def tag_places(view: dict[str, Any], room: int = 3) -> dict[int, tuple[int, int, int]]:
    """Where each meadow's tag goes: one field per meadow, as a map names a region once.

    The tag sits on the meadow's largest field holding a sheep or a bear (an empty
    meadow is not listed, so needs no name), the earliest placed card on a tie, so that
    it rarely moves as the table grows; but a card holds at most ``room`` tags (as many
    as fit on it at the table's size), so a meadow whose best card is full is named on
    its next best. Meadows still in play are placed first. Returns area index -> (q, r,
    field).
    """
    fields: dict[int, list[tuple[tuple[int, int], tuple[int, int, int]]]] = {}
    for order, card in enumerate(view["cards"]):
        for n, field in enumerate(card["fields"]):
            index = field.get("area")
            if index is None or not (field["sheep"] or field["rainbow"] or field["bears"]):
                continue
            fields.setdefault(index, []).append(((-len(field["sides"]), order),
                                                 (card["q"], card["r"], n)))
    areas = view.get("areas") or []

    def first(index: int) -> tuple[bool, int]:
        area = areas[index] if index < len(areas) else {}
        return _completed(area), int(area.get("number", index))

    held: dict[tuple[int, int], int] = {}
    places: dict[int, tuple[int, int, int]] = {}
    for index in sorted(fields, key=first):
        ranked = [place for _, place in sorted(fields[index])]
        place = next((p for p in ranked if held.get(p[:2], 0) < room),
                     min(ranked, key=lambda p: held.get(p[:2], 0)))
        held[place[:2]] = held.get(place[:2], 0) + 1
        places[index] = place
    return places


def _zoom_cells(view: dict[str, Any], label: str) -> list[tuple[int, int]] | None:
    """The spot called ``label`` and its six neighbours, or ``None`` if there is none."""
    for place in [*view["cards"], *view["spots"]]:
        if place["label"] == label:
            q, r = place["q"], place["r"]
            return [(q, r)] + [(q + dq, r + dr) for dq, dr in
                               ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))]
    return None


# --------------------------------------------------------------------------- the seats


def _cookies(view: dict[str, Any], seat: int) -> int | None:
    """The cookies on ``seat``'s Gingerman's best way home (0 when it has none), or
    ``None`` while its Gingerman is still in hand."""
    final = view.get("final")
    if final:
        return int(final[seat]["cookies"])
    route = next((r for r in view.get("routes") or [] if r["seat"] == seat), None)
    if route is None:
        return None
    return int(route["cookies"]) if route["reached"] else 0


def _seat_cards(view: dict[str, Any], table: common.Table) -> tuple[tuple[Any, ...], ...]:
    """What each seat's card shows: seat, label (the name and "(AI)"), name, acting, score,
    sugar, honey, its Gingerman still in hand, the cookies on its way home."""
    final = view.get("final")
    cards = []
    for info in view["seats"]:
        seat = info["seat"]
        held = final[seat] if final else info
        score = final[seat]["total"] if final else info["score"]
        cards.append((seat, table.label(seat), table.names[seat], seat in table.acting, score,
                      held["sugar"], held["honey"], bool(info["gingerman"]) and not final,
                      _cookies(view, seat)))
    return tuple(cards)


def _seats(image: Image.Image, draw: ImageDraw.ImageDraw, cards: tuple[tuple[Any, ...], ...],
           colours: tuple[str, ...]) -> None:
    """A card a seat, side by side: mark, name and score, then the sugar and honey it
    holds, its Gingerman if still in hand, and the cookies on its way home."""
    gap = 10
    width = (WIDTH - 2 * MARGIN - gap * (len(cards) - 1)) / len(cards)
    for i, (seat, label, name, acting, score, sugar, honey, in_hand, cookies) \
            in enumerate(cards):
        x = round(MARGIN + i * (width + gap))
        right = round(x + width)
        colour = _colour(colours[seat])
        y1, y2 = 26, 62
        room = common.seat_card(image, draw, (x, 4, right, SEATS_H - 6), seat, colours, acting,
                                str(score)) - 8 - (x + 40)
        if common.text_size(label, common.TEXT_PX, True)[0] > room:
            label = name
        common.stamp_text(image, (x + 40, y1), label, common.TEXT_PX, common.INK, True, "lm",
                          width=room)
        ix = x + 12
        for fill, count in ((SUGAR, sugar), (HONEY, honey)):
            _cube(draw, ix + 9, y2, 9, fill)
            common.stamp_text(image, (ix + 24, y2), str(count), common.TEXT_PX, common.INK, True,
                              "lm")
            ix += 24 + common.text_size(str(count), common.TEXT_PX, True)[0] + 12
        if cookies is not None:
            _cookie(draw, ix + 10, y2, 10)
            common.stamp_text(image, (ix + 25, y2), str(cookies), common.TEXT_PX, common.INK, True,
                              "lm")
            ix += 25 + common.text_size(str(cookies), common.TEXT_PX, True)[0] + 12
        if in_hand:
            _gingerman(draw, ix + 12, y2 + 2, 15, colour,
                       common.SEAT_SHAPES[seat % len(common.SEAT_SHAPES)])


# --------------------------------------------------------------------------- the meadows


#: A meadow's chip: its number, whether its bears eat now, each player's bears on it
#: (seat, count), the bears of nobody, the sugar and the honey in it.
Chip = tuple[int, bool, tuple[tuple[int, int], ...], int, int, int]
MORE = "+{} more"
MEADOWS_LEAD = "Meadows"
#: A chip's pieces: an icon this wide and its count, this far from the next piece; chips
#: are :data:`CHIP_SPACE` apart.
CHIP_ICON = 27
CHIP_GAP = 8
CHIP_SPACE = 22


def _meadow_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Meadows still in play that hold something to win or bears to count."""
    return [a for a in view.get("areas") or []
            if "number" in a and not a["done"] and (a["bears"] or a["sugar"] or a["honey"])]


def _chips(view: dict[str, Any], colours: tuple[str, ...]) -> list[Chip]:
    feeding = (view.get("feeding") or {}).get("area")
    chips = []
    for area in _meadow_rows(view):
        bears = tuple((seat, area["bears"][c]) for seat, c in enumerate(colours)
                      if area["bears"].get(c))
        others = sum(n for c, n in area["bears"].items() if c not in colours)
        chips.append((area["number"], area["id"] == feeding, bears, others,
                      area["sugar"] + area["fed"], area["honey"]))
    return chips


def _chip_parts(chip: Chip) -> list[tuple[str, Any, str]]:
    """A chip's pieces after its tag, left to right: (kind, what, count)."""
    _, _, bears, others, sugar, honey = chip
    parts: list[tuple[str, Any, str]] = [("seat", seat, str(n)) for seat, n in bears]
    if others:
        parts.append(("nobody", None, str(others)))
    if sugar:
        parts.append(("cube", SUGAR, str(sugar)))
    if honey:
        parts.append(("cube", HONEY, str(honey)))
    return parts


@lru_cache(maxsize=512)
def _chip_width(chip: Chip) -> int:
    """How wide a meadow's chip is: its tag, then each piece's icon and count."""
    tag_w, _ = _measure_tag(_meadow_tag(chip[0]), common.TEXT_PX)
    return round(tag_w + 8 + sum(CHIP_ICON + common.text_size(count, common.TEXT_PX,
                                                              True)[0] + CHIP_GAP
                                 for *_, count in _chip_parts(chip)))


def _lead_width() -> int:
    return common.text_size(MEADOWS_LEAD, common.TEXT_PX, True)[0] + CHIP_SPACE


def _chip_rows(chips: list[Chip], width: int = WIDTH - 2 * MARGIN
               ) -> tuple[list[tuple[Chip, ...]], int]:
    """The chips flowing in rows after "Meadows", :data:`MEADOW_ROWS` at most, and how
    many meadows did not fit ("+N more" ends the last row): those with no player's bears
    and the fewest cubes are left out first."""
    shown = list(chips)
    # Least worth showing first: no player's bears, then the fewest cubes, the newest.
    spare = sorted(chips, key=lambda c: (bool(c[2]) or c[1], c[4] + 2 * c[5], -c[0]))
    while True:
        more = len(chips) - len(shown)
        rows: list[list[Chip]] = [[]]
        x = _lead_width()
        for chip in shown:
            w = _chip_width(chip)
            if rows[-1] and x + w > width:
                rows.append([])
                x = 0
            rows[-1].append(chip)
            x += w + CHIP_SPACE
        if more and x + common.text_size(MORE.format(more), common.TEXT_PX, True)[0] > width:
            rows.append([])
        if len(rows) <= MEADOW_ROWS or not shown:
            return [tuple(r) for r in rows], more
        shown.remove(spare.pop(0))


def _meadow_row(image: Image.Image, draw: ImageDraw.ImageDraw, chips: tuple[Chip, ...],
                colours: tuple[str, ...], more: int, first: bool) -> None:
    """One row of the meadows in play ("Meadows" leads the first): each one's tag, every
    player's bears on it (their mark and count), the bears of nobody, and the sugar and
    honey to share; "+N more" at the end of the last."""
    x, cy = MARGIN, CHIP_ROW // 2
    if first:
        common.stamp_text(image, (x, cy), MEADOWS_LEAD, common.TEXT_PX, common.INK, True, "lm")
        x += _lead_width()
        if not chips and not more:
            common.stamp_text(image, (x, cy), "none yet: no bears or cubes on the table",
                              common.TEXT_PX,
                              common.MUTED, anchor="lm")
    for chip in chips:
        tag_w, _ = _measure_tag(_meadow_tag(chip[0]), common.TEXT_PX)
        _tag(image, draw, x + tag_w / 2, cy, _meadow_tag(chip[0]), common.TEXT_PX, False, chip[1])
        px = x + tag_w + 8
        for kind, what, count in _chip_parts(chip):
            if kind == "seat":
                common.seat_mark(draw, what, px + 11, cy, 10, colours)
            elif kind == "nobody":
                common.paste_centred(image, _token("bear", 9.0, "green", None, False), px + 11,
                                     cy + 1)
            else:
                _cube(draw, px + 11, cy, 9, what)
            common.stamp_text(image, (px + CHIP_ICON - 3, cy), count, common.TEXT_PX, common.INK,
                              True, "lm")
            px += CHIP_ICON + common.text_size(count, common.TEXT_PX, True)[0] + CHIP_GAP
        x += _chip_width(chip) + CHIP_SPACE
    if more:
        common.stamp_text(image, (x, cy), MORE.format(more), common.TEXT_PX, common.MUTED, True,
                          "lm")


def _meadow_strips(view: dict[str, Any], colours: tuple[str, ...]) -> list[common.Strip]:
    """The meadows in play, a strip a row of chips (a move changes one or two of them),
    and the room left of :data:`MEADOWS_H`."""
    rows, more = _chip_rows(_chips(view, colours))
    strips = [common.Strip(CHIP_ROW, _meadow_row, (row, colours, more if n == len(rows) - 1 else 0,
                                                   n == 0))
              for n, row in enumerate(rows)]
    return _filled([common.Strip(4, common.blank), *strips], MEADOWS_H)


def _filled(strips: list[common.Strip], height: int) -> list[common.Strip]:
    """``strips`` and a blank strip under them to make them ``height`` tall."""
    used = sum(s.height for s in strips)
    assert used <= height, (used, height)
    return [*strips, common.Strip(height - used, common.blank)] if used < height else strips


# --------------------------------------------------------------------------- the legend


def key_hex(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
            last: bool) -> None:
    """A legend icon: an open spot, or (``last``) the last card's outline."""
    geo = Geometry(19.0, cx, cy)
    if last:
        _hexagon(draw, geo.corners(0, 0), GRASS, HEX_EDGE, 1)
        _hexagon(draw, geo.corners(0, 0, 0.82), None, common.INK, 7)
        _hexagon(draw, geo.corners(0, 0, 0.82), None, common.LAST_MOVE, 3)
    else:
        _hexagon(draw, geo.corners(0, 0, 0.95), SPOT_FILL, SPOT_EDGE, 2)


def key_token(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, kind: str,
              colour: str, shape: str | None, cube: bool) -> None:
    """A legend icon: a sheep, rainbow sheep or bear as the table draws it."""
    common.paste_centred(image, _token(kind, 12.0, colour, shape, cube), cx - (3 if cube else 0),
                         cy + (2 if kind == "bear" else 0))


def key_nobody(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
               colours: tuple[str, ...]) -> None:
    """A legend icon: the bears of nobody on the table (green and orange, and the colours
    of seats nobody plays), two a row."""
    rad = 9.0 if len(colours) <= 2 else 6.5
    for n, colour in enumerate(colours[:4]):
        row, col = divmod(n, 2)
        x = cx + (col - 0.5) * (2.0 * rad if len(colours) > 1 else 0)
        y = cy + 2 if len(colours) <= 2 else cy - 8 + 17 * row
        common.paste_centred(image, _token("bear", rad, colour, None, False), x, y)


def key_sheep(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: a sheep and a rainbow sheep."""
    for dx, kind in ((-9, "sheep"), (9, "rainbow")):
        common.paste_centred(image, _token(kind, 9.0, "", None, False), cx + dx, cy)


def key_cubes(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: a sugar cube and a honey cube."""
    _cube(draw, cx - 9, cy, 8, SUGAR)
    _cube(draw, cx + 9, cy, 8, HONEY)


def key_cookie(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: a cookie on a road."""
    _cookie(draw, cx, cy, 10)


def key_gingerman(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: a Gingerman."""
    _gingerman(draw, cx, cy + 1, 16, common.INK, None)


def key_castle(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: the castle, where every way home ends."""
    _castle(draw, cx, cy - 2, 40)


def key_tag(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, done: bool,
            feeding: bool) -> None:
    """A legend icon: a meadow's tag, plain, completed (and scored then) or eating."""
    if done:
        draw.rectangle((cx - 17, cy - 17, cx + 17, cy + 17), fill=GRASS_DONE)
    _tag(image, draw, cx, cy, "M", common.SMALL_PX, done, feeding)


def _nobody_order(colour: str) -> tuple[int, str]:
    """Nobody's bears in the key: green and orange first, then the seat colours unplayed."""
    return (0 if colour in NEUTRAL_BEARS else 1, colour)


def _drawn(view: dict[str, Any]) -> dict[str, Any]:
    """Which pieces the table shows now, for the legend."""
    fields = [f for card in view["cards"] for f in card["fields"]]
    bears = [b for f in fields for b in f["bears"]]
    players = set(common.table_of(view).colours)
    return {
        "sheep": any(f["sheep"] for f in fields),
        "rainbow": any(f["rainbow"] for f in fields),
        "bears": bool(bears),
        "nobody": tuple(sorted({b["colour"] for b in bears} - players, key=_nobody_order)),
        "cookies": any(a["cookies"] for card in view["cards"] for road in card["roads"]
                       for a in road["arms"]),
        "completed": any(_completed(area) for area in view.get("areas") or []),
    }


def _keys(view: dict[str, Any], table: common.Table, tagged: bool) -> tuple[common.Key, ...]:
    """A key for every mark the picture draws now: the table's pieces, the seats' cubes,
    the meadows' tags."""
    drawn = _drawn(view)
    gingermen = any(c["kind"] == "gingerman" for c in view["cards"]) or \
        any(s["gingerman"] for s in view["seats"])
    cookies = drawn["cookies"] or any(r for r in view.get("routes") or [])
    first = table.colours[0] if table.colours else "red"
    entries = [
        (bool(view["spots"]), common.Key("open spot", key_hex, (False,))),
        (drawn["sheep"] or drawn["rainbow"], common.Key("sheep, rainbow sheep", key_sheep)),
        (True, common.Key("sugar, honey", key_cubes)),
        (drawn["bears"],
         common.Key("fed bear", key_token, ("bear", first, common.SEAT_SHAPES[0], True))),
        (bool(drawn["nobody"]), common.Key("nobody's", key_nobody, (drawn["nobody"],))),
        (cookies, common.Key("cookie", key_cookie)),
        (gingermen, common.Key("Gingerman", key_gingerman)),
        (True, common.Key("castle", key_castle)),
        (tagged, common.Key("meadow", key_tag, (False, False))),
        (drawn["completed"] and tagged, common.Key("completed", key_tag, (True, False))),
        (bool(view.get("feeding")), common.Key("eating now", key_tag, (False, True))),
    ]
    return tuple(key for shown, key in entries if shown)


def _last_words(view: dict[str, Any], table: common.Table) -> str:
    """"last card: Ana placed L07 at b3", or "" before the first card."""
    last = view.get("last")
    if not last or last.get("index") is None or last["index"] >= len(view["cards"]):
        return ""
    card = view["cards"][last["index"]]
    what = "a Gingerman" if card["kind"] == "gingerman" else card["name"]
    return f"last card: {table.names[last['seat']]} placed {what} at {last['label']}"


def _no_card_yet(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    draw.line((MARGIN, 3, image.width - MARGIN, 3), fill=common.PANEL_EDGE, width=2)
    common.stamp_text(image, (MARGIN, 10 + common.KEY_ROW // 2),
                      "No card placed yet: the castle stands alone.",
                      common.TEXT_PX, common.MUTED, anchor="lm")


def _last_strip(view: dict[str, Any], table: common.Table) -> common.Strip:
    """The last card placed, said in words beside its mark on the table."""
    words = _last_words(view, table)
    if not words:
        return common.Strip(LAST_H, _no_card_yet)
    strip = common.legend([common.Key(words, key_hex, (True,))])
    assert strip.height == LAST_H
    return strip


# --------------------------------------------------------------------------- the hand

#: A seat's own picture shows its hand card beside the table, top right: a title, then
#: its six turns two a row, each a tile half :data:`HAND_BAND` px tall with its "rot N".
HAND_W = 200
HAND_BAND = 32
TURN_W = (HAND_W - 8) // 2
TURN_H = 2 * HAND_BAND + 34
YOURS_H = 64


def _hand_look(hand: dict[str, Any], rot: int, colours: tuple[str, ...]) -> tuple[Any, ...]:
    """The hand card as the table would show it turned by ``rot`` degrees."""
    k = rot // 60
    shapes = {c: common.SEAT_SHAPES[i % len(common.SEAT_SHAPES)] for i, c in enumerate(colours)}
    roads = tuple(tuple(((a["side"] + k) % 6, a["cookies"]) for a in road["arms"])
                  for road in hand["roads"])
    fields = tuple((tuple(sorted((sd + k) % 6 for sd in f["sides"])), f["sheep"], f["rainbow"],
                    0, 0, tuple((c, shapes.get(c), False) for c in f["bears"]), None, False)
                   for f in hand["fields"])
    return ("card", "land", roads, fields, None, False, "", common.TEXT_PX, common.TEXT_PX)


@lru_cache(maxsize=64)
def _turn_sprite(rot: int, card: tuple[Any, ...], fits: bool) -> Image.Image:
    """One turn of the hand card: its tile, "rot N" under it, ticked when it fits an open
    spot somewhere."""
    sprite = Image.new("RGBA", (TURN_W, TURN_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    common.panel(draw, (0, 0, TURN_W - 1, TURN_H - 1),
                 fill=common.ACTING_FILL if fits else common.PANEL,
                 outline=common.PANEL_EDGE, radius=8)
    tile = _hex_sprite(HAND_BAND, card)
    common.paste_at(sprite, tile, TURN_W // 2 - tile.width // 2, 4)
    common.stamp_text(sprite, (TURN_W // 2, TURN_H - 16), f"rot {rot}", common.TEXT_PX,
                      common.INK if fits else common.MUTED, anchor="mm")
    if fits:
        _tick(draw, TURN_W - 14, 14)
    return sprite


@lru_cache(maxsize=64)
def _yours_sprite(name: str) -> Image.Image:
    """The hand's title: whose card it is, and the tick's meaning (on the table's own
    colour: its text's smooth edges are opaque, as the table's bands on the palette need)."""
    sprite = Image.new("RGBA", (HAND_W, YOURS_H), (*common.BACKGROUND, 255))
    draw = ImageDraw.Draw(sprite)
    common.stamp_text(sprite, (0, 14), f"Your card {name}", common.TEXT_PX, common.INK, True, "lm",
                      width=HAND_W)
    _tick(draw, 11, 44)
    common.stamp_text(sprite, (28, 44), "fits a spot", common.SMALL_PX, common.MUTED, anchor="lm")
    return sprite


def _tick(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A green disc with a white tick: this turn fits."""
    draw.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=(30, 140, 70), outline=common.INK,
                 width=2)
    draw.line((cx - 5, cy, cx - 1, cy + 5, cx + 6, cy - 5), fill=common.WHITE, width=3)


def _hand_sprites(hand: dict[str, Any], colours: tuple[str, ...]
                  ) -> list[tuple[int, int, tuple[Any, ...]]]:
    """The hand beside the table, top right (a seat's own picture only): its title, then its
    six turns two a row, as (left, top, look)."""
    fits = {p["rot"] for p in hand.get("placements", [])}
    left = WIDTH - MARGIN - HAND_W
    out: list[tuple[int, int, tuple[Any, ...]]] = [(left, 4, ("yours", hand["name"]))]
    for n, rot in enumerate((0, 60, 120, 180, 240, 300)):
        row, col = divmod(n, 2)
        out.append((left + col * (TURN_W + 8), 4 + YOURS_H + row * (TURN_H + 8),
                    ("turn", rot, _hand_look(hand, rot, colours), rot in fits)))
    return out


# --------------------------------------------------------------------------- the picture


def _ranking(view: dict[str, Any], table: common.Table) -> common.Strip:
    """The final ranking: the rules rank by the total alone (sugar, 2 a honey, 2 a cookie
    on the way home); equal totals share their place."""
    final = view.get("final") or []
    standings = [common.Standing(seat, (int(f["total"]),), f"{f['total']} points")
                 for seat, f in enumerate(final)]
    return common.ranking_strip(table, standings, ("points",))


def _what(view: dict[str, Any], table: common.Table) -> str:
    """What the seat to act may do now, in the notation's words with an example."""
    feeding = view.get("feeding")
    if table.decision == "feed" and feeding:
        area = next((a for a in view.get("areas", []) if a["id"] == feeding["area"]), None)
        where = f" in {area['name']}" if area and "name" in area else ""
        colours = feeding["colours"]
        bears = " or ".join([", ".join(colours[:-1]), colours[-1]] if len(colours) > 1
                            else colours)
        return (f"Choose which bear eats{where}: {feeding['cubes']} sugar left for {bears} "
                f"bears (feed {colours[0]}).")
    if len(table.acting) != 1:
        return ""
    seat = table.acting[0]
    gingerman = bool(view["seats"][seat]["gingerman"]) if seat < len(view["seats"]) else False
    spot = view["spots"][0]["label"] if view["spots"] else "a1"
    hand = view.get("hand") if table.viewer == seat else None
    if hand and hand.get("placements"):
        place = hand["placements"][0]
        where = f"{place['label']} rot {place['rot']}"
        text = (f"Place your card {hand['name']} on a labelled spot in a turn that fits "
                f"({where}; its turns are on the right)")
        own = "your"
    else:
        text = f"Place the land card in hand on a labelled spot, turned to fit ({spot} rot 60)"
        own = "the"
    return text + (f", or {own} Gingerman (gingerman at {spot})." if gingerman else ".")


def _stage(view: dict[str, Any], zoom: str | None) -> str:
    deck = f"deck: {view['deck']} card{'' if view['deck'] == 1 else 's'}"
    return f"{deck} · zoom on {zoom}" if zoom else deck


def _strips(view: dict[str, Any]) -> list[common.Strip]:
    """The picture top to bottom: the header, the seats, the table (the height left), the
    last card, the hand, the meadows or the final ranking, the legend."""
    table = common.table_of(view)
    if table.over:  # nowhere left to play: the table alone, larger
        view = {**view, "spots": []}
    zoom = view.get("zoom")
    cells = _zoom_cells(view, zoom) if zoom else None
    edge: list[tuple[int, int]] = []
    if cells is None:
        zoom = None
        cells = [(c["q"], c["r"]) for c in view["cards"]]
        edge = [(s["q"], s["r"]) for s in view["spots"]]
    top = [*common.header_strips(view, "Sugartopia", stage=_stage(view, zoom),
                                 what=_what(view, table)),
           common.Strip(SEATS_H, _seats, (_seat_cards(view, table), table.colours))]
    under = [_last_strip(view, table)]
    under += [_ranking(view, table)] if table.over else _meadow_strips(view, table.colours)
    room = HEIGHT - sum(s.height for s in [*top, *under]) - LEGEND_H
    hand = _hand_sprites(view["hand"], table.colours) \
        if view.get("hand") and not table.over else []
    layout = fit(cells, edge, room, ZOOM_BANDS if zoom else BANDS,
                 WIDTH - (HAND_W + 8 if hand else 0))
    board = Map(view, layout, zoomed=bool(zoom))
    keys = _keys(view, table, bool(board.tagged))
    return [*top, *board.strips(room, hand), *under,
            *_filled([common.legend(common.packed_keys(keys))], LEGEND_H)]


#: The real game the palette is drawn from: four seats (every bear colour) mid-game and at
#: the end, in a seat's own eyes (the table and its hand).
PALETTE_GAMES = (common.Sample(4, 8, (12, common.END), (1,)),)


def _kept() -> tuple[common.Colour, ...]:
    """Flat fills kept exact: an octree bucket shared with their edges would shade them."""
    return (*NEUTRAL_BEARS.values(), GRASS, GRASS_DONE, HEX_EDGE, ROAD, ROAD_EDGE, SPOT_FILL,
            SPOT_EDGE, TAG, TAG_DONE, FEEDING, common.ACTING_FILL, common.LAST_MOVE, HONEY, COOKIE)


PICTURES = common.Pictures("sugartopia", WIDTH, _strips, PALETTE_GAMES, keep=_kept)
_draw, _palette, render = PICTURES.draw, PICTURES.palette, PICTURES.render
