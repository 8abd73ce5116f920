"""Sugarworks picture in the phone frame (:mod:`renderers.common`): 800 px wide, every text
20 px or more (10 px on a phone) and most of it 24 px.

Top to bottom, each a strip: the shared header (round, move, whose turn and what they may
do, in the notation's words); the factory floor with its coordinates, the crates beside
their rows and the lost gutter in a free place beside the floor; the order market (each
card's slot, its name for `make … with o59`, its candies, the crate they go to and its
stars); the blanket orders; the players (stars, orders filled and held, the candy die with
the first player), or in a seat's own picture its hand, or once over the final ranking
with its tie-breaks in words; and the legend of every mark drawn.

Every candy type has its own shape as well as its colour (red circle, yellow hexagon,
green triangle, blue square, purple rectangle), so the floor reads without colour vision.
A candy a player made carries that player's seat mark on a white disc. Icons are drawn,
not lettered: arrows, double arrows for jumps, a spring, a candy eater alien (its shape
on its face) and an X. The last move is outlined (the frame's mark) on every space and
market slot it touched.

:func:`animate` draws the last candy movement as a GIF, one frame per activation, with
the path of that activation, every Bonk! and a caption: each frame is the floor's strip
as the picture draws it, under a caption band.

Speed: the header, the floor, the market, the blanket orders, the players (or the hand)
and the legend are strips kept by what they show (:class:`~renderers.common.Strip`): an
order action leaves the floor's strip as it was. Each floor space, crate, order card,
blanket order and hand tile is drawn once into a sprite kept by what it shows, then
pasted; text goes through the shared mask cache; the PNG is written on one fixed palette
that keeps every candy, crate, tile and seat colour exact. Caches are keyed only by
content taken from the view, so the picture stays a function of the view.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.sugarworks import content as ct
from bot.games.words import article
from renderers import common

WIDTH = common.FRAME_W
#: A floor space: 37.5 px on a phone. The floor's sizes and places are multiples of 5, so
#: that in the movement GIF (drawn at 0.8 of the board's size) they are whole pixels and
#: the floor lies exactly where the board's would, shrunk: a space is 60 px there.
CELL = 75
#: The floor's left edge (room for the row numbers left of it) and its top in its strip
#: (under the column letters); the strip ends under the bottom row of letters.
BX = common.FRAME_MARGIN + 28
FLOOR_Y = 30
FLOOR_FOOT = 32
#: Between the floor's right edge and the crates: the lost edge's marks; and between a crate
#: and its row's edges.
TICKS = 20
CRATE_INSET = 5
GAP = 8
CARD_H = 72
MARKET_H = 36 + CARD_H + 8
BLANKETS_H = 48
PLAYER_ROW = 88
HAND_TILE_H = 78
HAND_H = 36 + CARD_H + GAP + HAND_TILE_H + 8
#: The caption band over the floor in a movement frame (three lines of its words).
CAPTION_H = 100
CANDY_RADIUS = 20

CANDY: dict[str, common.Colour] = {
    "red": (220, 38, 38), "yellow": (250, 196, 20), "green": (34, 160, 70),
    "blue": (30, 100, 220), "purple": (140, 60, 190),
}
SHAPES = {"red": "circle", "yellow": "hexagon", "green": "triangle", "blue": "square",
          "purple": "rectangle"}
TILE_PRINTED: common.Colour = (238, 226, 208)
TILE_PLAYED: common.Colour = (214, 232, 246)
TILE_EDGE: common.Colour = (196, 176, 150)
ICON: common.Colour = (150, 128, 104)
ICON_PLAYED: common.Colour = (70, 110, 150)
HAZARD: common.Colour = (200, 40, 40)
LOST_FILL: common.Colour = (250, 232, 232)
BONK: common.Colour = (255, 170, 0)
PATH: common.Colour = (20, 20, 20)
GREY_CARD: common.Colour = (225, 225, 225)
GREY_CANDY: common.Colour = (170, 170, 170)
BLANKET_FILL: common.Colour = (255, 247, 214)
SPECIAL_FILL: common.Colour = (255, 240, 240)
CRATE_FILL = {"heart": (252, 214, 222), "pumpkin": (255, 222, 186), "bunny": (226, 226, 244)}

# --------------------------------------------------------------------------- candies


def _polygon(cx: float, cy: float, r: float, sides: int, start: float) -> list[tuple[float,
                                                                                     float]]:
    return [(cx + r * math.cos(math.radians(start + 360 * i / sides)),
             cy + r * math.sin(math.radians(start + 360 * i / sides))) for i in range(sides)]


def _candy_shape(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float,
                 fill: common.Colour | None = None) -> None:
    colour = fill or CANDY[kind]
    line = max(2, round(r / 8))
    shape = SHAPES[kind]
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=common.INK, width=line)
    elif shape == "hexagon":
        draw.polygon(_polygon(cx, cy, r * 1.05, 6, 0), fill=colour, outline=common.INK, width=line)
    elif shape == "triangle":
        pts = [(cx, cy - r * 1.1), (cx + r * 1.05, cy + r * 0.8), (cx - r * 1.05, cy + r * 0.8)]
        draw.polygon(pts, fill=colour, outline=common.INK, width=line)
    elif shape == "square":
        s = r * 0.86
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=colour, outline=common.INK,
                       width=line)
    else:
        draw.rectangle((cx - r * 1.15, cy - r * 0.6, cx + r * 1.15, cy + r * 0.6), fill=colour,
                       outline=common.INK, width=line)


@lru_cache(maxsize=256)
def candy_sprite(kind: str, radius: int, grey: bool = False) -> Image.Image:
    """A candy with smooth edges on a transparent square (grey: a grey blanket order's)."""
    side = 2 * radius + 8

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        centre = side * k / 2
        _candy_shape(draw, kind, centre, centre, radius * k, GREY_CANDY if grey else None)

    return common.smooth_sprite(side, side, paint)


def paste_candy(image: Image.Image, kind: str, cx: float, cy: float, radius: int,
                grey: bool = False) -> None:
    """A candy centred on (cx, cy)."""
    common.paste_centred(image, candy_sprite(kind, radius, grey), cx, cy)


def maker_tag(draw: ImageDraw.ImageDraw, seat: int, colours: tuple[str, ...], cx: float,
              cy: float, radius: float) -> None:
    """The mark of the player who made the candy of ``radius`` centred on (cx, cy), on a
    white disc at its lower right: the seat's own colour and shape, as everywhere else."""
    common.seat_badge(draw, seat, cx + radius * 0.72, cy + radius * 0.72, max(4.0, radius * 0.36),
                      colours)


# --------------------------------------------------------------------------- geometry


class Floor:
    """Pixel geometry of the floor for one view, drawn ``scale`` times the board's size (the
    movement GIF is drawn at its own, smaller size rather than drawn large and shrunk)."""

    def __init__(self, board: dict[str, Any], top: int = FLOOR_Y, scale: float = 1.0) -> None:
        self.width = board["width"]
        self.height = board["height"]
        self.scale = scale
        self.cell = round(CELL * scale)
        self.left = round(BX * scale)
        self.top = round(top * scale)

    def box(self, x: int, y: int) -> tuple[int, int, int, int]:
        left = self.left + x * self.cell
        upper = self.top + (self.height - 1 - y) * self.cell
        return left, upper, left + self.cell, upper + self.cell

    def centre(self, x: float, y: float) -> tuple[float, float]:
        return (self.left + x * self.cell + self.cell / 2,
                self.top + (self.height - 1 - y) * self.cell + self.cell / 2)

    def px(self, length: float) -> float:
        """``length`` (in the board's pixels) at this floor's scale."""
        return length * self.scale

    def size(self, length: float) -> int:
        """A font size, radius or line width of the board, at this scale (whole pixels)."""
        return round(length * self.scale)

    @property
    def bottom(self) -> int:
        return self.top + self.height * self.cell

    @property
    def right(self) -> int:
        return self.left + self.width * self.cell

    @property
    def crates_left(self) -> int:
        """Where the crates (and the gutter) begin, right of the lost edge's marks."""
        return self.right + self.size(TICKS)

    @property
    def crate_size(self) -> tuple[int, int]:
        """A crate's box, at the board's size: to the picture's margin, a space tall less
        the gap between crates."""
        return (WIDTH - common.FRAME_MARGIN - (BX + self.width * CELL + TICKS),
                CELL - 2 * CRATE_INSET)


def floor_height(board: dict[str, Any]) -> int:
    """The floor's strip: the column letters, the floor, the letters under it."""
    return FLOOR_Y + board["height"] * CELL + FLOOR_FOOT


# --------------------------------------------------------------------------- icons


def _arrow_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, dx: int, dy: int,
                colour: common.Colour, size: float) -> None:
    ux, uy = (dx > 0) - (dx < 0), -((dy > 0) - (dy < 0))
    double = abs(dx) == 2 or abs(dy) == 2
    length = size * 0.75
    start = (cx - ux * length / 2, cy - uy * length / 2)
    end = (cx + ux * length / 2, cy + uy * length / 2)
    common.arrow(draw, start, end, colour, width=max(4, round(size / 9)), head=round(size / 3.6))
    if double:
        back = (end[0] - ux * size * 0.28, end[1] - uy * size * 0.28)
        common.arrow(draw, start, back, colour, width=max(4, round(size / 9)),
                     head=round(size / 3.6))


def _spring(draw: ImageDraw.ImageDraw, cx: float, cy: float, colour: common.Colour,
            size: float) -> None:
    w = size * 0.22
    pts = [(cx + (w if i % 2 else -w), cy + size * 0.38 - i * size * 0.1) for i in range(6)]
    draw.line(pts, fill=colour, width=max(3, round(size / 14)), joint="curve")
    common.arrow(draw, (cx, cy - size * 0.1), (cx, cy - size * 0.45), colour,
                 width=max(4, round(size / 10)), head=round(size / 4))


def _alien(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, eats: str) -> None:
    """A candy eater alien: a green head with antennae, the shape it eats on its face."""
    body = (110, 190, 90)
    for side in (-1, 1):
        draw.line((cx + side * r * 0.3, cy - r * 0.7, cx + side * r * 0.6, cy - r * 1.15),
                  fill=common.INK, width=max(2, round(r / 8)))
        draw.ellipse((cx + side * r * 0.6 - r * 0.13, cy - r * 1.28,
                      cx + side * r * 0.6 + r * 0.13, cy - r * 1.02), fill=body, outline=common.INK)
    draw.ellipse((cx - r, cy - r * 0.85, cx + r, cy + r * 0.95), fill=body, outline=common.INK,
                 width=max(2, round(r / 9)))
    if eats == "any":
        s = r * 0.45
        draw.line((cx - s, cy - s + r * 0.1, cx + s, cy + s + r * 0.1), fill=HAZARD,
                  width=max(3, round(r / 5)))
        draw.line((cx - s, cy + s + r * 0.1, cx + s, cy - s + r * 0.1), fill=HAZARD,
                  width=max(3, round(r / 5)))
    else:
        _candy_shape(draw, eats, cx, cy + r * 0.1, r * 0.48)


def _x_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    s = size * 0.32
    for a, b in (((cx - s, cy - s), (cx + s, cy + s)), ((cx - s, cy + s), (cx + s, cy - s))):
        draw.line((*a, *b), fill=HAZARD, width=max(5, round(size / 8)))


ICON_MOVES = {"right": (1, 0), "left": (-1, 0), "up": (0, 1), "down": (0, -1),
              "jump-right": (2, 0), "jump-left": (-2, 0)}


def draw_icon(draw: ImageDraw.ImageDraw, icon: str, cx: float, cy: float, size: float,
              colour: common.Colour) -> None:
    """A centre or corner icon, ``size`` across."""
    if icon in ICON_MOVES:
        dx, dy = ICON_MOVES[icon]
        _arrow_icon(draw, cx, cy, dx, dy, colour, size)
    elif icon == "spring":
        _spring(draw, cx, cy, colour, size)
    elif icon == "x":
        _x_icon(draw, cx, cy, size)
    elif icon.startswith("eat-"):
        _alien(draw, cx, cy + size * 0.08, size * 0.3, icon[4:])



def _tile(image: Image.Image, floor: Floor, space: dict[str, Any],
          occupied: bool = False) -> None:
    """One space: its tile, its centre icon (small in the top right corner under a candy so
    that both stay readable) and its corner icon; pasted from the sprite of its look."""
    left, top, _, _ = floor.box(space["x"], space["y"])
    common.paste_at(image, _space_sprite(space, occupied, floor.cell), left, top)


def _space_sprite(space: dict[str, Any], occupied: bool, cell: int = CELL) -> Image.Image:
    """The sprite of a space's look, ``cell`` pixels a side (and one more, see
    :func:`box_canvas`)."""
    look = (space["tile"] is not None, space["output"], space["output_space"],
            space["centre"], space["corner"], occupied)
    return _tile_sprite(*look) if cell == CELL else _small_tile_sprite(*look, cell)


@lru_cache(maxsize=128)
def _small_tile_sprite(played: bool, output: str | None, output_space: bool, centre: str,
                       corner: str | None, occupied: bool, cell: int) -> Image.Image:
    """:func:`_tile_sprite` shrunk to ``cell`` (area averaging, as a shrunk picture would)."""
    return _tile_sprite(played, output, output_space, centre, corner, occupied).resize(
        (cell + 1, cell + 1), Image.Resampling.BOX)


@lru_cache(maxsize=128)
def _tile_sprite(played: bool, output: str | None, output_space: bool, centre: str,
                 corner: str | None, occupied: bool) -> Image.Image:
    sprite, draw = common.box_canvas(CELL, CELL, TILE_PRINTED)
    draw.rectangle((0, 0, CELL, CELL), fill=TILE_PLAYED if played else TILE_PRINTED,
                   outline=TILE_EDGE, width=2)
    colour = ICON_PLAYED if played else ICON
    if output:
        # Framed in its candy's colour, named as the notation names it (`adjust red to c5`)
        # on a light ground in the top left; its belt (always a right belt) under the name,
        # left out under a candy so that the name and the belt never meet.
        draw.rectangle((3, 3, CELL - 3, CELL - 3), outline=CANDY[output], width=6)
        _output_label(sprite, 0, 0, output, 1.0)
        if not occupied:
            draw_icon(draw, centre, CELL / 2, CELL / 2 + 12, CELL * 0.5, colour)
        return sprite
    if output_space:
        _dashed_box(draw, (6, 6, CELL - 6, CELL - 6), common.MUTED)
    if occupied:
        draw_icon(draw, centre, CELL - 17, 17, CELL * 0.36, colour)
    else:
        draw_icon(draw, centre, CELL / 2, CELL / 2 + 3, CELL * 0.62, colour)
    if corner:
        _corner_disc(draw, corner, colour)
    return sprite


def _output_label(image: Image.Image, left: float, top: float, output: str,
                  scale: float) -> None:
    """An output tile's name on its light ground, in the top left of the space whose corner
    is (left, top), at ``scale`` (shrunk as a shrunk picture would show it)."""
    sprite = _label_sprite(output) if scale == 1 else _shrunk(_label_sprite, (output,), scale)
    common.paste_at(image, sprite, left + round(3 * scale), top + round(3 * scale))


@lru_cache(maxsize=8)
def _label_sprite(output: str) -> Image.Image:
    sprite, _ = common.box_canvas(8 + common.text_size(output, common.SMALL_PX)[0], 23,
                                  common.WHITE)
    common.stamp_text(sprite, (4, 12), output, common.SMALL_PX, common.INK, anchor="lm")
    return sprite


def _corner_disc(draw: ImageDraw.ImageDraw, corner: str, colour: common.Colour) -> None:
    """A corner icon (it acts as a candy enters) on a white disc in the top left corner."""
    r = CELL * 0.17
    draw.ellipse((3, 3, 2 * r + 10, 2 * r + 10), fill=common.WHITE, outline=HAZARD, width=2)
    draw_icon(draw, corner, r + 6, r + 6, CELL * 0.34, colour)


def _dashed_box(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                colour: common.Colour) -> None:
    x0, y0, x1, y1 = box
    dash = 8
    for x in range(round(x0), round(x1), dash * 2):
        draw.line((x, y0, min(x + dash, x1), y0), fill=colour, width=2)
        draw.line((x, y1, min(x + dash, x1), y1), fill=colour, width=2)
    for y in range(round(y0), round(y1), dash * 2):
        draw.line((x0, y, x0, min(y + dash, y1)), fill=colour, width=2)
        draw.line((x1, y, x1, min(y + dash, y1)), fill=colour, width=2)


# --------------------------------------------------------------------------- crates


def crate_symbol(draw: ImageDraw.ImageDraw, crate: str, cx: float, cy: float,
                 r: float) -> None:
    """Heart, pumpkin, bunny or the gutter's X, about ``r`` round."""
    if crate == "heart":
        draw.ellipse((cx - r, cy - r * 0.75, cx, cy + r * 0.2), fill=(220, 60, 90))
        draw.ellipse((cx, cy - r * 0.75, cx + r, cy + r * 0.2), fill=(220, 60, 90))
        draw.polygon([(cx - r * 0.97, cy - r * 0.15), (cx + r * 0.97, cy - r * 0.15),
                      (cx, cy + r)], fill=(220, 60, 90))
    elif crate == "pumpkin":
        draw.rectangle((cx - r * 0.1, cy - r * 1.05, cx + r * 0.12, cy - r * 0.6),
                       fill=(90, 120, 40))
        for dx in (-0.45, 0.45, 0.0):
            draw.ellipse((cx + dx * r - r * 0.6, cy - r * 0.7, cx + dx * r + r * 0.6,
                          cy + r * 0.8), fill=(240, 140, 30), outline=(170, 90, 20), width=2)
    elif crate == "bunny":
        for dx in (-0.3, 0.3):
            draw.ellipse((cx + dx * r - r * 0.2, cy - r * 1.1, cx + dx * r + r * 0.2,
                          cy - r * 0.1), fill=(250, 250, 255), outline=common.INK, width=2)
        draw.ellipse((cx - r * 0.62, cy - r * 0.45, cx + r * 0.62, cy + r * 0.8),
                     fill=(250, 250, 255), outline=common.INK, width=2)
        for dx in (-0.22, 0.22):
            draw.ellipse((cx + dx * r - 3, cy + r * 0.05 - 3, cx + dx * r + 3,
                          cy + r * 0.05 + 3), fill=common.INK)
    else:
        _x_icon(draw, cx, cy, r * 2.2)


# --------------------------------------------------------------------------- crates and gutter

Counts = tuple[tuple[str, int], ...]


def _counts(candies: list[dict[str, Any]]) -> Counts:
    """How many candies of each type, in the candy order (types with none left out)."""
    out: dict[str, int] = {}
    for candy in candies:
        out[candy["type"]] = out.get(candy["type"], 0) + 1
    return tuple((kind, out[kind]) for kind in CANDY if out.get(kind))


def _count_items(counts: Counts, room: int) -> list[tuple[str, str]]:
    """(candy type, or "" for the rest; count text) laid left to right within ``room``: a
    candy and its number each, and when they do not all fit, "+N" for the candies left."""
    def width(kind: str, text: str) -> int:
        return (26 if kind else 0) + common.text_size(text, common.TEXT_PX, True)[0] + 12

    items = [(kind, str(n)) for kind, n in counts]
    if sum(width(*item) for item in items) <= room:
        return items
    shown: list[tuple[str, str]] = []
    used = 0
    for i, item in enumerate(items):
        after = f"+{sum(n for _, n in counts[i + 1:])}"
        if used + width(*item) + width("", after) > room:
            return [*shown, ("", f"+{sum(n for _, n in counts[i:])}")]
        shown.append(item)
        used += width(*item)
    return shown


def _paste_counts(image: Image.Image, x: float, y: float, counts: Counts, room: int) -> None:
    """Each candy type and how many, from (x, y) (the middle of the line) within ``room``."""
    for kind, text in _count_items(counts, room):
        if kind:
            paste_candy(image, kind, x + 11, y, 10)
            x += 26
        common.stamp_text(image, (x, y), text, common.TEXT_PX, common.INK, True, "lm")
        x += common.text_size(text, common.TEXT_PX, True)[0] + 12


def _tally_sprite(width: int, height: int, fill: common.Colour, edge: common.Colour,
                  mark: Callable[[ImageDraw.ImageDraw], None], title: str,
                  title_ink: common.Colour, none_word: str, counts: Counts) -> Image.Image:
    """A box of candies counted by type: its mark and title on top, then the counts (or
    ``none_word`` while it holds none)."""
    sprite, draw = common.box_canvas(width, height)
    common.panel(draw, (0, 0, width, height), fill=fill, outline=edge, radius=10, width=3)
    mark(draw)
    common.stamp_text(sprite, (42, 21), title, common.TEXT_PX, title_ink, True, "lm")
    if counts:
        _paste_counts(sprite, 10, 50, counts, width - 14)
    else:
        common.stamp_text(sprite, (12, 50), none_word, common.TEXT_PX, common.MUTED, anchor="lm")
    return sprite


@lru_cache(maxsize=64)
def _crate_sprite(name: str, counts: Counts, width: int, height: int) -> Image.Image:
    """A crate: its symbol and name, and the candies shipped into it counted by type."""
    return _tally_sprite(width, height, CRATE_FILL[name], common.INK,
                         lambda draw: crate_symbol(draw, name, 22, 20, 14),
                         name.capitalize(), common.INK, "empty", counts)


@lru_cache(maxsize=64)
def _gutter_sprite(counts: Counts, width: int, height: int) -> Image.Image:
    """The lost gutter: the candies lost so far, counted by type."""
    return _tally_sprite(width, height, LOST_FILL, HAZARD, lambda draw: _x_icon(draw, 22, 20, 30),
                         "Lost", HAZARD, "none yet", counts)


@lru_cache(maxsize=64)
def _shrunk(make: Callable[..., Image.Image], args: tuple[Any, ...],
            scale: float) -> Image.Image:
    """The board-sized sprite ``make(*args)`` shrunk ``scale`` times (area averaging), for
    a movement frame."""
    sprite = make(*args)
    return sprite.resize((round(sprite.width * scale), round(sprite.height * scale)),
                         Image.Resampling.BOX)


def gutter_row(board: dict[str, Any]) -> int:
    """The row beside which the gutter stands: the top row without a crate."""
    rows = {crate["y"] for crate in board["crates"]}
    return max(y for y in range(board["height"]) if y not in rows)


def _crates(image: Image.Image, draw: ImageDraw.ImageDraw, floor: Floor,
            board: dict[str, Any], gutter: Counts) -> None:
    """The crates beside their rows, the gutter beside the top row without one, and a
    lost edge's marks beside every row without a crate."""
    rows = {crate["y"]: crate for crate in board["crates"]}
    width, height = floor.crate_size
    lost = gutter_row(board)
    args: tuple[Any, ...]
    for y in range(floor.height):
        _, y0, _, _ = floor.box(floor.width, y)
        crate = rows.get(y)
        if crate is None:
            _lost_edge(draw, floor.right + floor.px(3), y0 + floor.px(12),
                       floor.cell - floor.px(24), floor.scale)
        if crate is not None:
            make, args = _crate_sprite, (crate["crate"], _counts(crate["candies"]), width,
                                         height)
        elif y == lost:
            make, args = _gutter_sprite, (gutter, width, height)
        else:
            continue
        sprite = make(*args) if floor.scale == 1 else _shrunk(make, args, floor.scale)
        common.paste_at(image, sprite, floor.crates_left, y0 + floor.px(CRATE_INSET))


def _lost_edge(draw: ImageDraw.ImageDraw, x: float, y: float, length: float,
               scale: float = 1.0) -> None:
    """Four short red slashes down ``length`` from (x, y): a candy leaving there is lost."""
    for i in range(4):
        yy = y + i * length / 3
        draw.line((x, yy - 5 * scale, x + 12 * scale, yy + 5 * scale), fill=HAZARD,
                  width=max(2, round(3 * scale)))


# --------------------------------------------------------------------------- the floor


@lru_cache(maxsize=64)
def _letter_sprite(text: str, size: int, ground: common.Colour) -> tuple[Image.Image, int, int]:
    """Ink text outlined in white, on ``ground``; with the offset of its centre."""
    left, top, right, bottom = (int(v) for v in common.font(size, True).getbbox(text, anchor="mm",
                                                                          stroke_width=2))
    sprite = Image.new("RGB", (right - left, bottom - top), ground)
    common.outlined_text(ImageDraw.Draw(sprite), (-left, -top), text, size, common.INK,
                         common.WHITE, stroke=2)
    return sprite, left, top


def _letter(image: Image.Image, xy: tuple[float, float], text: str, size: int) -> None:
    """Outlined text centred on ``xy`` over the background, from the sprite cache."""
    sprite, left, top = _letter_sprite(text, size, common.BACKGROUND)
    common.paste_at(image, sprite, round(xy[0]) + left, round(xy[1]) + top)


def _coordinates(image: Image.Image, floor: Floor) -> None:
    size = floor.size(24)
    for x in range(floor.width):
        cx, _ = floor.centre(x, 0)
        _letter(image, (cx, floor.top - floor.px(16)), chr(97 + x), size)
        _letter(image, (cx, floor.bottom + floor.px(16)), chr(97 + x), size)
    for y in range(floor.height):
        _, cy = floor.centre(0, y)
        _letter(image, (floor.left - floor.px(22), cy), str(y + 1), size)




def draw_floor(image: Image.Image, draw: ImageDraw.ImageDraw, board: dict[str, Any],
               candies: list[dict[str, Any]], gutter: Counts, colours: tuple[str, ...],
               floor: Floor, ground: Image.Image | None = None,
               marks: tuple[str, ...] = ()) -> None:
    """Tiles, coordinates, crates, the gutter, the last move's mark on the spaces ``marks``
    names, and the candies, each made by a player tagged with the mark of its seat (in
    ``colours``).

    With ``ground`` (the :func:`floor_ground` of the same board and floor, pasted
    into ``image`` by the caller), only the tiles under candies are drawn again.
    """
    taken = {(c["x"], c["y"]) for c in candies}
    spaces = board["spaces"]
    if ground is None:
        for space in spaces:
            _tile(image, floor, space, (space["x"], space["y"]) in taken)
        _coordinates(image, floor)
    else:
        _retile(image, floor, spaces, taken)
    _crates(image, draw, floor, board, gutter)
    _mark_spaces(image, draw, floor, board, marks)
    radius = floor.size(CANDY_RADIUS)
    for candy in candies:
        cx, cy = floor.centre(candy["x"], candy["y"])
        cx, cy = cx - floor.px(3), cy + floor.px(6)
        paste_candy(image, candy["type"], cx, cy, radius)
        if candy["maker"] is not None:
            maker_tag(draw, candy["maker"], colours, cx, cy, radius)


def _retile(image: Image.Image, floor: Floor, spaces: list[dict[str, Any]],
            taken: set[tuple[int, int]]) -> None:
    """On a :func:`floor_ground`, the tiles under candies, as drawing every tile would.

    A tile's sprite is a pixel wider and taller than its cell, so each tile's last
    row and column lie under its neighbour's first: an occupied tile is pasted only
    where no later tile covers it (:func:`_owned`), one paste a tile; where that is not
    a rectangle, it is pasted whole and the part of each later neighbour it covered is
    pasted again.
    """
    owned = _owned(floor.cell, tuple((space["x"], space["y"]) for space in spaces))
    for n, space in enumerate(spaces):
        x, y = space["x"], space["y"]
        if (x, y) not in taken:
            continue
        left, top, right, bottom = floor.box(x, y)
        part = owned[n]
        if part is not None:
            common.paste_at(image, _space_part(space, floor.cell, part), left, top)
            continue
        _tile(image, floor, space, True)
        for later in spaces[n + 1:]:
            if abs(later["x"] - x) > 1 or abs(later["y"] - y) > 1:
                continue
            box = floor.box(later["x"], later["y"])
            sprite = _space_sprite(later, (later["x"], later["y"]) in taken, floor.cell)
            # The overlap of the two (cell + 1)-wide tiles, in the later one's sprite.
            x0, y0 = max(left, box[0]), max(top, box[1])
            x1, y1 = min(right, box[2]) + 1, min(bottom, box[3]) + 1
            if x0 < x1 and y0 < y1:
                common.paste_at(image, sprite.crop((x0 - box[0], y0 - box[1], x1 - box[0],
                                                    y1 - box[1])), x0, y0)


@lru_cache(maxsize=32)
def _owned(cell: int, places: tuple[tuple[int, int], ...],
           ) -> tuple[tuple[int, int, int, int] | None, ...]:
    """For each space of a floor drawn in the order of ``places``, the part of its
    (cell + 1)-wide sprite that no later space's sprite covers, when that part is the
    sprite less its last row, its last column or both (on a full grid, always);
    ``None`` when it is not a rectangle."""
    def box(place: tuple[int, int]) -> tuple[int, int, int, int]:
        x, y = place  # rows run down as y runs up, as on the floor
        return x * cell, -y * cell, x * cell + cell, -y * cell + cell

    out: list[tuple[int, int, int, int] | None] = []
    for n, place in enumerate(places):
        left, top, right, bottom = box(place)
        covered: set[tuple[int, int]] = set()
        for later in places[n + 1:]:
            l2, t2, r2, b2 = box(later)
            for i in range(max(left, l2), min(right, r2) + 1):
                covered.update((i, j) for j in range(max(top, t2), min(bottom, b2) + 1))
        column = {(right, j) for j in range(top, bottom + 1)}
        row = {(i, bottom) for i in range(left, right + 1)}
        shapes = {frozenset(): (0, 0, cell + 1, cell + 1),
                  frozenset(column): (0, 0, cell, cell + 1),
                  frozenset(row): (0, 0, cell + 1, cell),
                  frozenset(column | row): (0, 0, cell, cell)}
        out.append(shapes.get(frozenset(covered)))
    return tuple(out)


@lru_cache(maxsize=256)
def _occupied_part(played: bool, output: str | None, output_space: bool, centre: str,
                   corner: str | None, cell: int, part: tuple[int, int, int, int]
                   ) -> Image.Image:
    look = {"tile": True if played else None, "output": output, "output_space": output_space,
            "centre": centre, "corner": corner}
    return _space_sprite(look, True, cell).crop(part)


def _space_part(space: dict[str, Any], cell: int, part: tuple[int, int, int, int],
                ) -> Image.Image:
    """The ``part`` of an occupied space's sprite (kept: a movement pastes it every frame)."""
    return _occupied_part(space["tile"] is not None, space["output"], space["output_space"],
                          space["centre"], space["corner"], cell, part)


def floor_ground(board: dict[str, Any], floor: Floor, size: tuple[int, int]) -> Image.Image:
    """A blank picture of ``size`` with the floor's empty tiles and its coordinates:
    what every frame of a movement shares."""
    image, _ = common.new_canvas(*size)
    for space in board["spaces"]:
        _tile(image, floor, space, False)
    _coordinates(image, floor)
    return image

# --------------------------------------------------------------------------- order cards

#: An order card's look: special (a candy eater order, to the gutter), its crate, its
#: candies, its stars.
OrderLook = tuple[bool, str, tuple[str, ...], int]


def order_card(image: Image.Image, box: tuple[int, int, int, int],
               order: dict[str, Any] | None, slot: int | None = None) -> None:
    """An order card: its market ``slot`` (`take order 2`), its name (`make … with o59`),
    its stars, and its candies with an arrow to where they go (a crate, or the gutter)."""
    x0, y0, x1, y1 = box
    look = None if order is None else (order["special"], order["to"], tuple(order["candies"]),
                                       order["stars"])
    name = order["id"] if order is not None else ""
    common.paste_at(image, _order_sprite(x1 - x0, y1 - y0, look, name, slot), x0, y0)


@lru_cache(maxsize=128)
def _order_sprite(width: int, height: int, look: OrderLook | None, name: str,
                  slot: int | None) -> Image.Image:
    sprite, draw = common.box_canvas(width, height)
    top = 20
    if look is None:
        _dashed_box(draw, (0, 0, width, height), common.MUTED)
        if slot is not None:
            _slot_disc(sprite, draw, 10, top, slot, common.MUTED)
        common.stamp_text(sprite, (width / 2, height - 28), "empty", common.TEXT_PX, common.MUTED,
                          anchor="mm")
        return sprite
    special, to, candies, stars = look
    common.panel(draw, (0, 0, width, height), fill=SPECIAL_FILL if special else common.WHITE,
                 outline=HAZARD if special else common.INK, radius=10, width=2)
    x = 10
    if slot is not None:
        _slot_disc(sprite, draw, x, top, slot, common.INK)
        x += 38
    common.stamp_text(sprite, (x, top), name, common.TEXT_PX,
                      common.MUTED if slot is not None else common.INK,
                      slot is None, "lm")
    common.stamp_text(sprite, (width - 10, top), f"{stars}★", common.TEXT_PX, common.INK, True,
                      "rm")
    # Its candies, then an arrow to its crate (or the gutter's X) at the right.
    mid, symbol = height - 20, 14
    room = width - 20 - 2 * symbol - 6
    count = max(1, len(candies))
    step = min(30, (room - 18) // count)
    if step < 22:  # a narrow card (six in a hand): no arrow, candies as large as fit
        step = min(30, (room + 6) // count)
    arrow_room = room - step * len(candies)
    radius = min(11, step // 2 - 2)
    cx = 10 + step / 2
    for kind in candies:
        paste_candy(sprite, kind, cx, mid, radius)
        cx += step
    sx = width - 10 - symbol
    if arrow_room >= 18:
        common.arrow(draw, (10 + step * len(candies) + 2, mid), (sx - symbol - 4, mid), common.INK,
                     width=3,
                     head=9)
    crate_symbol(draw, "lost" if special else to, sx, mid, symbol)
    return sprite


def _slot_disc(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, cy: float, slot: int,
               fill: common.Colour) -> None:
    """A market slot's number on a dark disc, as `take order 2` names it."""
    draw.ellipse((x, cy - 15, x + 30, cy + 15), fill=fill)
    common.stamp_text(image, (x + 15, cy + 1), str(slot), common.TEXT_PX, common.WHITE, True, "mm")


def _market(image: Image.Image, draw: ImageDraw.ImageDraw, deck: int,
            market: list[dict[str, Any] | None], marked: int | None) -> None:
    """The order market: four cards by slot, the deck's count, the slot the last move used
    outlined."""
    common.stamp_text(image, (common.FRAME_MARGIN, 18), "Order market", common.TEXT_PX, common.INK,
                      True, "lm")
    left = f"{deck} left in the deck" if deck else "the deck is empty: last round"
    common.stamp_text(image, (WIDTH - common.FRAME_MARGIN, 18), left, common.TEXT_PX, common.MUTED,
                      anchor="rm")
    width = (WIDTH - 2 * common.FRAME_MARGIN - 3 * GAP) // 4
    for i, order in enumerate(market):
        x = common.FRAME_MARGIN + i * (width + GAP)
        box = (x, 36, x + width, 36 + CARD_H)
        order_card(image, box, order, i + 1)
        if marked == i + 1:  # round the card, in the gaps beside it, clear of its number
            common.last_move_mark(draw, (box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4))


# --------------------------------------------------------------------------- blanket orders


def _blankets(image: Image.Image, draw: ImageDraw.ImageDraw,
              blankets: list[dict[str, Any]]) -> None:
    """The blanket orders in play: colourful (the stars a candy of its type pays whoever
    makes it) or grey (nothing)."""
    mid = BLANKETS_H // 2 - 1
    for i, word in enumerate(("Blanket", "orders")):  # on two lines: the orders need room
        common.stamp_text(image, (common.FRAME_MARGIN, mid + (2 * i - 1) * 12), word,
                          common.TEXT_PX, common.INK, True, "lm")
    x = common.FRAME_MARGIN + common.text_size("Blanket", common.TEXT_PX, True)[0] + 14
    width = (WIDTH - common.FRAME_MARGIN - x - 2 * GAP) // max(3, len(blankets))
    for blanket in blankets:
        # Rules 1 paid on shipping into the crate printed on the order.
        crate = blanket["crate"] if blanket.get("pays") == "shipped" else None
        sprite = _blanket_sprite(blanket["candy"], crate, blanket["stars"],
                                 blanket["colourful"], width)
        common.paste_at(image, sprite, x, mid - sprite.height // 2)
        x += width + GAP


@lru_cache(maxsize=64)
def _blanket_sprite(candy: str, crate: str | None, stars: int, colourful: bool,
                    width: int) -> Image.Image:
    height = BLANKETS_H - 10
    sprite, draw = common.box_canvas(width, height)
    mid = height / 2
    common.panel(draw, (0, 0, width, height), fill=BLANKET_FILL if colourful else GREY_CARD,
                 outline=common.INK if colourful else common.MUTED, radius=10,
                 width=3 if colourful else 2)
    paste_candy(sprite, candy, 24, mid, 14, grey=not colourful)
    if not colourful:
        common.stamp_text(sprite, (46, mid), "grey: 0★", common.TEXT_PX, common.MUTED, anchor="lm")
    elif crate is None:
        common.stamp_text(sprite, (46, mid), f"+{stars}★ if made", common.TEXT_PX, common.INK,
                          anchor="lm")
    else:
        common.stamp_text(sprite, (46, mid), f"+{stars}★ →", common.TEXT_PX, common.INK,
                          anchor="lm")
        crate_symbol(draw, crate, 46 + common.text_size(f"+{stars}★ →", common.TEXT_PX)[0] + 22,
                     mid, 13)
    return sprite


def die_icon(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
             face: str | None, side: int = 32) -> None:
    """The candy die showing ``face``: a candy, or its blank wrapper."""
    h = side / 2
    draw.rounded_rectangle((cx - h, cy - h, cx + h, cy + h), radius=6, fill=common.WHITE,
                           outline=common.INK,
                           width=2)
    if face in CANDY:
        paste_candy(image, face, cx, cy, round(side * 0.28))
        return
    w = side * 0.18  # a wrapped sweet with its two twists
    draw.ellipse((cx - w, cy - w * 0.8, cx + w, cy + w * 0.8), fill=GREY_CARD, outline=common.MUTED)
    for sign in (-1, 1):
        draw.polygon([(cx + sign * w * 0.9, cy), (cx + sign * w * 2.2, cy - w),
                      (cx + sign * w * 2.2, cy + w)], fill=GREY_CARD, outline=common.MUTED)


# --------------------------------------------------------------------------- the players

#: A player's card: seat, label, acting, stars, orders filled, orders in hand, and the
#: candy die's face when the seat holds it (the first player of the round).
PlayerCard = tuple[int, str, bool, int, int, int, str | None]
COL_W = (WIDTH - 2 * common.FRAME_MARGIN - 12) // 2


def _player_cards(view: dict[str, Any], table: common.Table) -> tuple[PlayerCard, ...]:
    return tuple((info["seat"], table.label(info["seat"]), info["seat"] in table.acting,
                  info["score"], len(info["completed"]), info["orders_in_hand"],
                  view["die"] if info["seat"] == view["first"] else None)
                 for info in view["seats"])


def _players(image: Image.Image, draw: ImageDraw.ImageDraw, cards: tuple[PlayerCard, ...],
             colours: tuple[str, ...]) -> None:
    """One card a player, two to a row: mark, name, stars; orders filled and held, and the
    candy die with the first player."""
    for i, (seat, label, acting, stars, filled, held, die) in enumerate(cards):
        x = common.FRAME_MARGIN + (i % 2) * (COL_W + 12)
        top = 4 + (i // 2) * PLAYER_ROW
        right = common.seat_card(image, draw, (x, top, x + COL_W, top + PLAYER_ROW - 8), seat,
                                 colours,
                                 acting, f"{stars}★") - 10
        y1, y2 = top + 22, top + 57
        common.stamp_text(image, (x + 40, y1), label, common.TEXT_PX, common.INK, True, "lm",
                          width=right - x - 40)
        room = COL_W - 28
        if die is not None:
            die_icon(image, draw, x + COL_W - 28, y2, die)
            room -= 44
        orders = "order" if filled == 1 else "orders"
        common.stamp_text(image, (x + 14, y2), f"{filled} {orders} filled · {held} in hand",
                          common.TEXT_PX,
                          common.INK, anchor="lm", width=room)


# --------------------------------------------------------------------------- a seat's hand


def _hand(image: Image.Image, draw: ImageDraw.ImageDraw, hand: dict[str, Any],
          scores: tuple[tuple[int, int], ...], colours: tuple[str, ...]) -> None:
    """The viewer's own orders and conveyor tiles, and every seat's stars on the title's
    line (the players' cards make room for the hand in this picture)."""
    common.stamp_text(image, (common.FRAME_MARGIN, 18), "Your hand (only you see it)",
                      common.TEXT_PX, common.INK, True,
                      "lm")
    x = WIDTH - common.FRAME_MARGIN
    for seat, stars in reversed(scores):
        text = f"{stars}★"
        common.stamp_text(image, (x, 18), text, common.TEXT_PX,
                          common.seat_text_colour(seat, colours), True, "rm")
        x -= common.text_size(text, common.TEXT_PX, True)[0] + 18
        common.seat_mark(draw, seat, x + 6, 18, 10, colours)
        x -= 26
    orders = hand["orders"]
    slots = max(5, len(orders))
    width = (WIDTH - 2 * common.FRAME_MARGIN - (slots - 1) * GAP) // slots
    for i, order in enumerate(orders):
        x = common.FRAME_MARGIN + i * (width + GAP)
        order_card(image, (x, 36, x + width, 36 + CARD_H), order)
    y = 36 + CARD_H + GAP
    tiles = hand["tiles"]
    width = (WIDTH - 2 * common.FRAME_MARGIN - 2 * GAP) // max(3, len(tiles))
    for i, tile in enumerate(tiles):
        common.paste_at(image,
                        _hand_tile_sprite(tile["centre"], tile["corner"], tile["kind"], width),
                        common.FRAME_MARGIN + i * (width + GAP), y)


@lru_cache(maxsize=64)
def _hand_tile_sprite(centre: str, corner: str | None, kind: str, width: int) -> Image.Image:
    """A conveyor tile in the hand: its icons, and the notation that plays it on three lines
    (`conveyor alien-purple at …`)."""
    sprite, draw = common.box_canvas(width, HAND_TILE_H)
    common.panel(draw, (0, 0, width, HAND_TILE_H), fill=TILE_PLAYED, outline=common.INK, radius=10)
    draw_icon(draw, centre, 40, HAND_TILE_H / 2 + 4, 56, ICON_PLAYED)
    if corner:
        _corner_disc(draw, corner, ICON_PLAYED)
    for i, line in enumerate(("conveyor", kind, "at …")):
        # Drawn, not stamped: each tile's lines are text of their own, in reading order.
        draw.text((80, 16 + 23 * i), line, font=common.font(common.TEXT_PX, i == 1),
                  fill=common.INK, anchor="lm")
    return sprite


# --------------------------------------------------------------------------- the final ranking


def _ranking(view: dict[str, Any], table: common.Table) -> common.Strip:
    """The final ranking: most stars, then more orders filled, then more of one's own
    candies shipped (the rules' ``result``; only a candy one made counts as shipped)."""
    standings = []
    for info in view["seats"]:
        filled = len(info["completed"])
        standings.append(common.Standing(info["seat"], (info["score"], filled, info["shipped"]),
                                         f"{info['score']}★ · {filled} filled · "
                                         f"{info['shipped']} shipped"))
    return common.ranking_strip(table, standings, ("stars", "orders filled", "candy shipped"))


# --------------------------------------------------------------------------- words and keys

#: What the seat to act may do, by the open decision or else the step of its turn, in the
#: notation's words.
DOING = {
    "order": "Order action: take an order from the market (take order 2), draw one "
             "(draw order) or discard one (discard order 3).",
    "factory": "Factory action: move an output (adjust red to c5), play a tile "
               "(conveyor up at c3) or make a candy (make blue with o17).",
    "drop": "Six orders in hand: discard one of them face down (drop o17).",
}


def _what(view: dict[str, Any], table: common.Table) -> str:
    return DOING.get(table.decision or view["step"], "")


#: A last move that left nothing on the floor or the market to outline, in words.
UNMARKED = {"draw": "drew an order", "drop": "discarded an order face down",
            "skip": "had no order to take", "pass": "had no factory action"}


def _last_words(last: dict[str, Any]) -> str:
    """What the last move did, as the legend says it after the mover's name."""
    verb, cells, kind = last["verb"], last["cells"], last["kind"]
    if verb in ("take", "discard"):
        did = "took" if verb == "take" else "discarded"
        return f"{did} order {last['slot']} (a new card in its place)"
    if verb == "adjust":
        return f"moved the {kind} output {cells[0]} → {cells[1]}"
    if verb == "conveyor":
        return f"played {article(ct.tile_kinds()[kind].name.lower())} at {cells[0]}"
    if verb == "make":
        market = f"order {last['slot']} ({last['card']})" if last["slot"] else last["card"]
        return f"made a {kind} at {cells[0]} with {market}"
    return UNMARKED.get(verb, verb)


def _marks(view: dict[str, Any]) -> tuple[tuple[str, ...], int | None]:
    """The spaces and the market slot the last move touched, to outline."""
    last = view.get("last") or {}
    return tuple(last.get("cells") or ()), last.get("slot")


#: The icons that need a word (plain belts do not), as a centre icon or a corner one.
ICON_WORDS = {"jump-right": "jumps 2", "jump-left": "jumps 2", "spring": "springs up 2",
              "x": "loses any candy"}


def _icon_keys(tiles: list[tuple[str, str | None]]) -> list[common.Key]:
    """A key for each icon that needs a word among ``tiles`` (centre, corner): a candy
    eater once in the centre (it eats as the candy activates) and once in the corner (as
    the candy enters)."""
    keys: dict[str, common.Key] = {}
    for centre, corner in tiles:
        if centre in ICON_WORDS:
            keys.setdefault(f"{centre}", common.Key(ICON_WORDS[centre], key_icon, (centre, False)))
        elif centre.startswith("eat-"):
            keys.setdefault("eat", common.Key("eats its shape", key_icon, (centre, False)))
        if corner is not None and corner.startswith("eat-"):
            keys.setdefault("corner", common.Key("eats its shape on entry", key_icon,
                                                 (corner, True)))
    return list(keys.values())


def _keys(view: dict[str, Any], table: common.Table) -> tuple[tuple[common.Key, ...], int]:
    """A key for every mark the picture draws now: the last move, the candy movement just
    run, makers' marks, the candy die, outputs, played tiles, the icons that need a word
    and the lost edge; and how many lead the legend (the last move, and in a seat's own
    picture the seats' names)."""
    keys: list[common.Key] = []
    last = view.get("last")
    lead = 1 if last else 0
    if last:
        if last["cells"] or last["slot"]:
            keys.append(common.last_move_key(table, last["seat"], _last_words(last)))
        else:
            keys.append(common.Key(f"last move: {table.names[last['seat']]} {_last_words(last)}",
                                   common.key_seat, (last["seat"], table.colours)))
    movement = view.get("movement")
    if movement and movement.get("fresh") and view.get("hand") is None:
        bonks = movement["bonks"]
        keys.append(common.Key(f"round {movement['round']}: {movement['shipped']} shipped, "
                               f"{movement['lost']} lost, {bonks} Bonk!{'' if bonks == 1 else 's'}",
                               key_bonk))
    makers = [c["maker"] for c in view["candies"] if c["maker"] is not None]
    if makers:
        keys.append(common.Key(f"its maker ({ct.ship_stars()}★ if shipped)",
                               key_maker, (makers[0], table.colours)))
    if not table.over and view.get("hand") is not None:
        # A seat's own picture shows marks (on the hand's line of stars, on makers'
        # candies) but not the players' cards: the legend names them.
        keys += [common.Key(table.label(seat), common.key_seat,
                            (seat, table.colours)) for seat in table.seats]
        lead = len(keys)  # in seat order, after the last move
    if not table.over and view.get("hand") is None:
        keys.append(common.Key("candy die: plays first this round",
                               key_die, (view["die"],)))
    spaces = view["board"]["spaces"]
    keys.append(common.Key("output tile", key_output))
    if any(s["output_space"] and not s["output"] for s in spaces):
        keys.append(common.Key("output space", key_output_space))
    if any(s["tile"] is not None and not s["output"] for s in spaces):
        keys.append(common.Key("played tile", common.key_swatch, (TILE_PLAYED, TILE_EDGE)))
    tiles = [(s["centre"], s["corner"]) for s in spaces if not s["output"]]
    tiles += [(t["centre"], t["corner"]) for t in (view.get("hand") or {}).get("tiles", ())]
    keys += _icon_keys(tiles)
    keys.append(common.Key("lost off this edge", key_lost_edge))
    return tuple(keys), lead


#: The legend's rows, public and in a seat's own picture: as many as the keys of most
#: pictures need, so that the picture keeps its height from one move to the next.
LEGEND_ROWS = OWN_LEGEND_ROWS = 5


def _legend(keys: tuple[common.Key, ...], lead: int, rows: int) -> common.Strip:
    """The legend, its first ``lead`` keys first and the others packed into as few rows as
    they fit in, at least ``rows`` rows tall."""
    strip = common.legend(common.packed_keys(keys, lead))
    return dataclasses.replace(strip, height=max(strip.height, rows * common.KEY_ROW + 16))


def key_icon(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, icon: str,
             corner: bool) -> None:
    """A legend icon: a space's icon as the floor draws it (a corner icon on its disc)."""
    h = common.KEY_ICON // 2
    draw.rectangle((cx - h, cy - h, cx + h, cy + h), fill=TILE_PRINTED, outline=TILE_EDGE)
    if corner:
        draw.ellipse((cx - h + 1, cy - h + 1, cx + h - 1, cy + h - 1), fill=common.WHITE,
                     outline=HAZARD,
                     width=2)
        draw_icon(draw, icon, cx, cy, common.KEY_ICON * 0.8, ICON)
    else:
        draw_icon(draw, icon, cx, cy + 2, common.KEY_ICON * 0.95, ICON)


def key_output(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: an output tile, framed in its candy's colour."""
    h = common.KEY_ICON // 2
    draw.rectangle((cx - h, cy - h, cx + h, cy + h), fill=TILE_PRINTED, outline=CANDY["red"],
                   width=4)
    draw_icon(draw, "right", cx, cy, common.KEY_ICON * 0.7, ICON)


def key_output_space(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float,
                     cy: float) -> None:
    """A legend icon: an output space, dashed."""
    h = common.KEY_ICON // 2
    draw.rectangle((cx - h, cy - h, cx + h, cy + h), fill=TILE_PRINTED)
    _dashed_box(draw, (cx - h + 3, cy - h + 3, cx + h - 3, cy + h - 3), common.MUTED)


def key_maker(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, seat: int,
              colours: tuple[str, ...]) -> None:
    """A legend icon: a candy with its maker's mark."""
    paste_candy(image, "red", cx - 3, cy - 3, 14)
    maker_tag(draw, seat, colours, cx - 3, cy - 3, 14)


def key_die(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
            face: str | None) -> None:
    """A legend icon: the candy die as the first player's card shows it."""
    die_icon(image, draw, cx, cy, face)


def key_bonk(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: a Bonk!, as the movement's animation draws it."""
    draw.polygon(_star(cx, cy, common.KEY_ICON / 2), fill=BONK, outline=common.INK)
    common.stamp_text(image, (cx, cy + 1), "!", common.SMALL_PX, common.INK, True, "mm")


def key_lost_edge(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: a floor's edge with the lost edge's marks beside it."""
    h = common.KEY_ICON // 2
    draw.rectangle((cx - h, cy - h, cx - 2, cy + h), fill=TILE_PRINTED, outline=TILE_EDGE)
    _lost_edge(draw, cx + 2, cy - h + 6, common.KEY_ICON - 12)


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + (r if i % 2 == 0 else r * 0.5) * math.cos(math.radians(-90 + 36 * i)),
             cy + (r if i % 2 == 0 else r * 0.5) * math.sin(math.radians(-90 + 36 * i)))
            for i in range(10)]


# --------------------------------------------------------------------------- whole pictures


def _floor(image: Image.Image, draw: ImageDraw.ImageDraw, board: dict[str, Any],
           candies: list[dict[str, Any]], gutter: Counts, colours: tuple[str, ...],
           marks: tuple[str, ...]) -> None:
    """The floor's strip: the floor, crates and gutter, and the spaces the last move touched
    outlined."""
    draw_floor(image, draw, board, candies, gutter, colours, Floor(board), marks=marks)


def _mark_spaces(image: Image.Image, draw: ImageDraw.ImageDraw, floor: Floor, board: dict[str, Any],
                 marks: tuple[str, ...]) -> None:
    """The last move's mark on each of the spaces ``marks`` names (an output's name over
    it, so that the mark never hides the name; candies go over both)."""
    spaces = {space["cell"]: space for space in board["spaces"]}
    for cell in marks:
        space = spaces.get(cell)
        if space is None:
            continue
        box = floor.box(space["x"], space["y"])
        common.last_move_mark(draw, box, width=floor.size(6), radius=floor.size(10))
        if space["output"]:
            _output_label(image, box[0], box[1], space["output"], floor.scale)


def _strips(view: dict[str, Any]) -> list[common.Strip]:
    """The picture top to bottom, each part a strip drawn from what it shows alone."""
    table = common.table_of(view)
    board = view["board"]
    cells, slot = _marks(view)
    strips = [*common.header_strips(view, "Sugarworks", stage=f"round {view['round']} of "
                            f"{view['rounds']}", what=_what(view, table)),
              common.Strip(floor_height(board), _floor, (board, view["candies"],
                                                   _counts(view["gutter"]), table.colours,
                                                   cells))]
    if not table.over:
        strips += [common.Strip(MARKET_H, _market, (view["decks"]["orders"], view["market"], slot)),
                   common.Strip(BLANKETS_H, _blankets, (view["blankets"],))]
    hand = view.get("hand")
    if table.over:
        strips.append(_ranking(view, table))
    elif hand is not None:
        scores = tuple((info["seat"], info["score"]) for info in view["seats"])
        strips.append(common.Strip(HAND_H, _hand, (hand, scores, table.colours)))
    else:
        cards = _player_cards(view, table)
        strips.append(common.Strip(4 + PLAYER_ROW * math.ceil(len(cards) / 2), _players,
                                   (cards, table.colours)))
    rows = 0 if table.over else OWN_LEGEND_ROWS if hand is not None else LEGEND_ROWS
    strips.append(_legend(*_keys(view, table), rows))
    return strips


#: The real game the palette is drawn from: four seats (every maker's mark) at the start
#: and later with candies made and orders filled, in public and in a seat's own eyes.
PALETTE_GAMES = (common.Sample(4, 6, (2, 24), (None, 0)),)


def _kept() -> tuple[common.Colour, ...]:
    """Flat fills kept exact in the palette (the movement GIF's frames are drawn on it too)."""
    return (TILE_PRINTED, TILE_PLAYED, TILE_EDGE, ICON, ICON_PLAYED, HAZARD, LOST_FILL, BONK,
            PATH, GREY_CARD, GREY_CANDY, BLANKET_FILL, SPECIAL_FILL, common.ACTING_FILL,
            common.LAST_MOVE,
            *CANDY.values(), *CRATE_FILL.values())


PICTURES = common.Pictures("sugarworks", WIDTH, _strips, PALETTE_GAMES, keep=_kept)
_draw, _palette, render = PICTURES.draw, PICTURES.palette, PICTURES.render


# --------------------------------------------------------------------------- the animation


def _frame(view: dict[str, Any], floor: Floor, positions: dict[str, list[int]],
           crates: dict[str, list[dict[str, Any]]], gutter: list[dict[str, Any]],
           movement: dict[str, Any], step: dict[str, Any] | None, caption: str,
           ground: Image.Image | None = None, marks: tuple[str, ...] = ()) -> Image.Image:
    """One frame: the floor's strip as the picture draws it, under a caption band, with the
    candies at ``positions``, the crates and the gutter holding ``crates`` and ``gutter``,
    the activation ``step`` marked, and the spaces ``marks`` names outlined.

    ``ground`` is :func:`floor_ground` of the frame's size, drawn once per movement.
    """
    if ground is None:
        image, draw = common.new_canvas(*_frame_size(floor))
    else:
        image = ground.copy()
        draw = ImageDraw.Draw(image)
    kinds = {c["id"]: (c["type"], c["maker"]) for c in movement["start"]}
    candies = [{"type": kinds[candy][0], "maker": kinds[candy][1], "x": x, "y": y}
               for candy, (x, y) in positions.items()]
    board = dict(view["board"], crates=[dict(c, candies=crates[c["crate"]])
                                        for c in view["board"]["crates"]])
    colours = common.table_of(view).colours
    draw_floor(image, draw, board, candies, _counts(gutter), colours, floor, ground, marks)
    px = floor.px
    if step is not None:
        cx, cy = floor.centre(*positions[step["candy"]]) if step["candy"] in positions \
            else floor.centre(*step["start"])
        draw.ellipse((cx - px(34), cy - px(28), cx + px(28), cy + px(34)), outline=BONK,
                     width=floor.size(5))
        _path(image, draw, floor, step)
    size = floor.size(common.TEXT_PX)
    lines = common.wrap(caption, size, round(px(WIDTH - 2 * common.FRAME_MARGIN)), bold=True)[:3]
    for i, line in enumerate(lines):
        common.stamp_text(image, (px(common.FRAME_MARGIN), px(10 + i * 30)), line, size, common.INK,
                          True)
    return image


def _frame_size(floor: Floor) -> tuple[int, int]:
    """A movement frame: the caption band and the floor's strip, at the floor's scale."""
    return round(floor.px(WIDTH)), floor.bottom + floor.size(FLOOR_FOOT)


def _path(image: Image.Image, draw: ImageDraw.ImageDraw, floor: Floor,
          step: dict[str, Any]) -> None:
    """The moves of one activation as arrows, each Bonk! as a burst, losses as an X."""
    px = floor.px
    for event in step["events"]:
        if event["what"] in ("move", "ship") or (event["what"] == "lost"
                                                   and event["how"] == "edge"):
            start = floor.centre(*event["from"])
            end = floor.centre(*event["to"])
            colour = BONK if event.get("by") == "bonk" else PATH
            common.arrow(draw, start, end, colour, width=floor.size(5), head=floor.size(16))
            if event["what"] == "lost":
                _x_icon(draw, end[0], end[1], px(32))
        elif event["what"] == "bonk":
            cx, cy = floor.centre(*event["at"])
            draw.polygon(_star(cx, cy - px(24), px(20)), fill=BONK, outline=common.INK)
            common.stamp_text(image, (cx, cy - px(24)), "!", floor.size(common.SMALL_PX),
                              common.INK, True, "mm")
        elif event["what"] == "lost":
            cx, cy = floor.centre(*event["from"])
            _x_icon(draw, cx, cy, px(46))


#: The whole movement GIF lasts at most this long (a phone loops it; 16-30 s was too slow).
MOVEMENT_MS = 7500
FIRST_MS, LAST_MS, STEP_MS = 900, 2500, (100, 700)


#: The movement GIF's width, and the scale its frames are drawn at to have it: drawn at that
#: size, not drawn at the board's and shrunk (a third of the time).
GIF_WIDTH = 640
GIF_SCALE = GIF_WIDTH / WIDTH
#: Where the floor's top is in a movement frame drawn at the board's size (under the
#: caption band and the column letters), and in the board's picture (under the header).
FRAME_FLOOR_TOP = CAPTION_H + FLOOR_Y
PICTURE_FLOOR_TOP = common.HEADER_H + FLOOR_Y


def movement_frames(view: dict[str, Any], scale: float = GIF_SCALE,
                    ) -> list[tuple[Image.Image, int]] | None:
    """The latest candy movement as (frame, milliseconds); ``None`` if the move made none.

    The crates and the gutter fill as candies are shipped and lost. The view keeps only
    the crates and the gutter as they are now, after the orders filled at the end of the
    movement; a candy shipped (or lost) and then used by such an order shows until the
    last frame, which is the floor's strip as the picture draws it, the last move's spaces
    outlined (exactly so at ``scale`` 1).
    """
    movement = view.get("movement")
    if not movement or not movement.get("fresh"):
        return None
    floor = Floor(view["board"], top=FRAME_FLOOR_TOP, scale=scale)
    now = {c["crate"]: c["candies"] for c in view["board"]["crates"]}
    kinds = {c["id"]: c for c in movement["start"]}
    arrivals = [(n, e["crate"] if e["what"] == "ship" else ct.LOST, e["candy"])
                for n, step in enumerate(movement["steps"]) for e in step["events"]
                if e["what"] in ("ship", "lost")]
    arrived = {candy for *_, candy in arrivals}

    def after(n: int) -> dict[str, list[dict[str, Any]]]:
        """The crates and the gutter (``"lost"``) once the first ``n`` activations are
        done."""
        out = {place: [c for c in candies if c["id"] not in arrived]
               for place, candies in (*now.items(), (ct.LOST, view["gutter"]))}
        for k, place, candy in arrivals:
            if k < n and place in out:
                out[place].append({"id": candy, "type": kinds[candy]["type"],
                                   "maker": kinds[candy]["maker"]})
        return out

    def frame(positions: dict[str, list[int]], places: dict[str, list[dict[str, Any]]],
              step: dict[str, Any] | None, caption: str,
              marks: tuple[str, ...] = ()) -> Image.Image:
        return _frame(view, floor, positions, places, places[ct.LOST], movement, step, caption,
                      ground=ground, marks=marks)

    start = {c["id"]: c["cell"] for c in movement["start"]}
    title = f"Candy movement, round {movement['round']}: red, yellow, green, blue, purple"
    steps = movement["steps"]
    step_ms = max(STEP_MS[0], min(STEP_MS[1],
                                  (MOVEMENT_MS - FIRST_MS - LAST_MS) // max(1, len(steps))))
    step_ms -= step_ms % 10  # GIF delays are in hundredths of a second
    ground = floor_ground(view["board"], floor, _frame_size(floor))
    frames = [(frame(start, after(0), None, title), FIRST_MS)]
    for n, step in enumerate(steps):
        frames.append((frame(step["after"], after(n + 1), step, step["text"]), step_ms))
    summary = (f"Round {movement['round']} done: {movement['shipped']} shipped, "
               f"{movement['lost']} lost, {movement['bonks']} Bonk!"
               f"{'s' if movement['bonks'] != 1 else ''}.")
    last = {c["id"]: [c["x"], c["y"]] for c in view["candies"]}
    final = dict(now, **{ct.LOST: view["gutter"]})
    frames.append((frame(last, final, None, summary, _marks(view)[0]), LAST_MS))
    return frames


def animate(view: dict[str, Any]) -> bytes | None:
    """The latest candy movement as an animated GIF; ``None`` if the latest move made none."""
    from renderers.gif import GifStream

    frames = movement_frames(view)
    if frames is None:
        return None
    # Drawn at the GIF's size and on the board's own palette: each frame is mapped once and
    # written as the part of it that changed.
    stream = GifStream(_palette())
    for image, ms in frames:
        stream.add(image, ms)
    return stream.finish()
