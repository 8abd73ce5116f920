"""Sugarworks picture: the factory floor, crates, gutter, market, blanket orders and players.

Every candy type has its own shape as well as its colour (red circle, yellow
hexagon, green triangle, blue square, purple rectangle), so the floor reads
without colour vision. A candy a player made carries that player's seat colour
and initial on a small tag. Icons are drawn, not lettered: arrows, double arrows
for jumps, a spring, a candy eater alien (its shape on its face) and an X.

:func:`animate` draws the last candy movement as a GIF, one frame per activation,
with the path of that activation, every Bonk! and a caption.

Speed: the title and header, the floor, the gutter, the key, the market, the blanket
orders, each player's row and the hand are strips kept by what they show
(:class:`~renderers.common.Strip`): an order action leaves the floor's strip as it was.
Each floor space, crate, order card, blanket order, hand tile and the gutter is drawn
once into a sprite kept by what it shows, then pasted; the key is drawn once; text goes
through the shared mask cache; the PNG is written on one fixed palette that keeps every
candy, crate, tile and seat colour exact. Caches are keyed only by content taken from the
view, so the picture stays a function of the view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    BACKGROUND,
    INK,
    MUTED,
    PANEL,
    WHITE,
    Colour,
    Header,
    Pictures,
    Sample,
    Strip,
    Table,
    arrow,
    blank,
    box_canvas,
    font,
    header,
    header_height,
    ink_on,
    new_canvas,
    outlined_text,
    panel,
    paste_at,
    paste_centred,
    seat_mark,
    smooth_sprite,
    stamp_text,
    table_of,
    wrap,
)

WIDTH = 1000
#: The smallest type a player needs for a decision: 7 px tall capitals at 400 px wide.
READABLE = 24
#: Texts that need not read at 400 px: the icon key (the icons themselves read), each
#: player's score split (the total, which decides the game, is large) and the maker's seat
#: number on a candy (the tag's seat colour tells the maker too).
FINE_PRINT = ("jump 2", "spring up 2", "eats that shape", "any candy lost",
              "· corner icon: on entering", r"orders \d+ · shipping \d+ · blanket \d+", r"\d")
HAND_TILE_W = 460
CELL = 100
#: The header, right of the title, as wide as the rest of the picture.
HEADER_X = 262
#: The floor's left edge, and its top: under the tallest header (two lines under its
#: banner) and the row of column letters.
BX, BY = 48, 14 + header_height(False, 2, READABLE) + 30
CRATE_W = 178

CANDY: dict[str, Colour] = {
    "red": (220, 38, 38), "yellow": (250, 196, 20), "green": (34, 160, 70),
    "blue": (30, 100, 220), "purple": (140, 60, 190),
}
SHAPES = {"red": "circle", "yellow": "hexagon", "green": "triangle", "blue": "square",
          "purple": "rectangle"}
TILE_PRINTED: Colour = (238, 226, 208)
TILE_PLAYED: Colour = (214, 232, 246)
TILE_EDGE: Colour = (196, 176, 150)
ICON: Colour = (150, 128, 104)
ICON_PLAYED: Colour = (70, 110, 150)
HAZARD: Colour = (200, 40, 40)
BONK: Colour = (255, 170, 0)
PATH: Colour = (20, 20, 20)
GREY_CARD: Colour = (225, 225, 225)
STAR: Colour = (255, 196, 0)
CRATE_FILL = {"heart": (252, 214, 222), "pumpkin": (255, 222, 186), "bunny": (226, 226, 244)}

# --------------------------------------------------------------------------- candies


def _polygon(cx: float, cy: float, r: float, sides: int, start: float) -> list[tuple[float,
                                                                                     float]]:
    return [(cx + r * math.cos(math.radians(start + 360 * i / sides)),
             cy + r * math.sin(math.radians(start + 360 * i / sides))) for i in range(sides)]


def _candy_shape(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float,
                 fill: Colour | None = None) -> None:
    colour = fill or CANDY[kind]
    line = max(2, round(r / 8))
    shape = SHAPES[kind]
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=line)
    elif shape == "hexagon":
        draw.polygon(_polygon(cx, cy, r * 1.05, 6, 0), fill=colour, outline=INK, width=line)
    elif shape == "triangle":
        pts = [(cx, cy - r * 1.1), (cx + r * 1.05, cy + r * 0.8), (cx - r * 1.05, cy + r * 0.8)]
        draw.polygon(pts, fill=colour, outline=INK, width=line)
    elif shape == "square":
        s = r * 0.86
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=colour, outline=INK, width=line)
    else:
        draw.rectangle((cx - r * 1.15, cy - r * 0.6, cx + r * 1.15, cy + r * 0.6), fill=colour,
                       outline=INK, width=line)


@lru_cache(maxsize=256)
def candy_sprite(kind: str, radius: int, maker: Colour | None = None,
                 initial: str = "") -> Image.Image:
    """A candy with smooth edges (and its maker's tag in ``maker``'s seat colour) on a
    transparent square."""
    side = 2 * radius + 8

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        centre = side * k / 2
        _candy_shape(draw, kind, centre, centre, radius * k)
        if maker is not None:
            tag = radius * 0.55 * k
            tx = ty = centre + radius * 0.62 * k
            draw.ellipse((tx - tag, ty - tag, tx + tag, ty + tag), fill=maker, outline=WHITE,
                         width=k * 2)
            draw.text((tx, ty), initial, font=font(round(tag * 1.3), True), fill=ink_on(maker),
                      anchor="mm")

    return smooth_sprite(side, side, paint)


def paste_candy(image: Image.Image, kind: str, cx: float, cy: float, radius: int,
                maker: Colour | None = None, initial: str = "") -> None:
    """A candy centred on (cx, cy), tagged with its maker's seat colour and initial."""
    paste_centred(image, candy_sprite(kind, radius, maker, initial), cx, cy)


# --------------------------------------------------------------------------- geometry


class Floor:
    """Pixel geometry of the floor for one view, drawn ``scale`` times the board's size (the
    movement GIF is drawn at its own, smaller size rather than drawn large and shrunk)."""

    def __init__(self, board: dict[str, Any], top: int = BY, scale: float = 1.0) -> None:
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


# --------------------------------------------------------------------------- icons


def _arrow_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, dx: int, dy: int,
                colour: Colour, size: float) -> None:
    ux, uy = (dx > 0) - (dx < 0), -((dy > 0) - (dy < 0))
    double = abs(dx) == 2 or abs(dy) == 2
    length = size * 0.75
    start = (cx - ux * length / 2, cy - uy * length / 2)
    end = (cx + ux * length / 2, cy + uy * length / 2)
    arrow(draw, start, end, colour, width=max(4, round(size / 9)), head=round(size / 3.6))
    if double:
        back = (end[0] - ux * size * 0.28, end[1] - uy * size * 0.28)
        arrow(draw, start, back, colour, width=max(4, round(size / 9)), head=round(size / 3.6))


def _spring(draw: ImageDraw.ImageDraw, cx: float, cy: float, colour: Colour,
            size: float) -> None:
    w = size * 0.22
    pts = [(cx + (w if i % 2 else -w), cy + size * 0.38 - i * size * 0.1) for i in range(6)]
    draw.line(pts, fill=colour, width=max(3, round(size / 14)), joint="curve")
    arrow(draw, (cx, cy - size * 0.1), (cx, cy - size * 0.45), colour,
          width=max(4, round(size / 10)), head=round(size / 4))


def _alien(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, eats: str) -> None:
    """A candy eater alien: a green head with antennae, the shape it eats on its face."""
    body = (110, 190, 90)
    for side in (-1, 1):
        draw.line((cx + side * r * 0.3, cy - r * 0.7, cx + side * r * 0.6, cy - r * 1.15),
                  fill=INK, width=max(2, round(r / 8)))
        draw.ellipse((cx + side * r * 0.6 - r * 0.13, cy - r * 1.28,
                      cx + side * r * 0.6 + r * 0.13, cy - r * 1.02), fill=body, outline=INK)
    draw.ellipse((cx - r, cy - r * 0.85, cx + r, cy + r * 0.95), fill=body, outline=INK,
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
              colour: Colour) -> None:
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
    paste_at(image, _space_sprite(space, occupied, floor.cell), left, top)


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
    sprite, draw = box_canvas(CELL, CELL, TILE_PRINTED)
    box = (0, 0, CELL, CELL)
    draw.rectangle(box, fill=TILE_PLAYED if played else TILE_PRINTED, outline=TILE_EDGE, width=2)
    cx, cy = CELL / 2, CELL / 2
    if output:
        colour = CANDY[output]
        draw.rectangle((4, 4, CELL - 4, CELL - 4), outline=colour, width=7)
        # The output's name in the notation (`adjust red to c5`), on a light ground.
        w = font(READABLE, True).getbbox(output)[2]
        draw.rectangle((4, 4, 14 + w, 34), fill=WHITE)
        stamp_text(sprite, (9, 19), output, READABLE, INK, True, "lm")
    elif output_space:
        _dashed_box(draw, (6, 6, CELL - 6, CELL - 6), MUTED)
    colour = ICON_PLAYED if played else ICON
    if occupied:
        draw_icon(draw, centre, CELL - 22, 22, CELL * 0.36, colour)
    else:
        draw_icon(draw, centre, cx, cy + 4, CELL * 0.62, colour)
    if corner:
        r = CELL * 0.17
        draw.ellipse((3, 3, 2 * r + 10, 2 * r + 10), fill=WHITE, outline=HAZARD, width=2)
        draw_icon(draw, corner, r + 6, r + 6, CELL * 0.34, colour)
    return sprite


def _dashed_box(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                colour: Colour) -> None:
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
                          cy - r * 0.1), fill=(250, 250, 255), outline=INK, width=2)
        draw.ellipse((cx - r * 0.62, cy - r * 0.45, cx + r * 0.62, cy + r * 0.8),
                     fill=(250, 250, 255), outline=INK, width=2)
        for dx in (-0.22, 0.22):
            draw.ellipse((cx + dx * r - 3, cy + r * 0.05 - 3, cx + dx * r + 3,
                          cy + r * 0.05 + 3), fill=INK)
    else:
        _x_icon(draw, cx, cy, r * 2.2)


def _counts(candies: list[dict[str, Any]]) -> tuple[tuple[str, int], ...]:
    """How many candies of each type, in the candy order (types with none left out)."""
    out: dict[str, int] = {}
    for candy in candies:
        out[candy["type"]] = out.get(candy["type"], 0) + 1
    return tuple((kind, out[kind]) for kind in CANDY if out.get(kind))


def _candy_counts(image: Image.Image, x: float, y: float, counts: tuple[tuple[str, int], ...],
                  max_x: float, radius: int = 13) -> None:
    for kind, n in counts:
        if x + 3 * radius + 30 > max_x:
            break
        paste_candy(image, kind, x + radius, y, radius)
        stamp_text(image, (x + 2 * radius + 4, y), f"×{n}", READABLE, INK, True, "lm")
        x += 2 * radius + 52


def _crates(image: Image.Image, draw: ImageDraw.ImageDraw, floor: Floor,
            board: dict[str, Any]) -> None:
    rows = {crate["y"]: crate for crate in board["crates"]}
    px = floor.px
    for y in range(floor.height):
        x0, y0, _, _ = floor.box(floor.width, y)
        crate = rows.get(y)
        if crate is None:
            # A lost edge: a candy leaving here falls into the gutter.
            for i in range(4):
                yy = y0 + px(14) + i * (floor.cell - px(28)) / 3
                draw.line((floor.right + px(4), yy, floor.right + px(16), yy + px(10)),
                          fill=HAZARD, width=floor.size(3))
            continue
        counts = _counts(crate["candies"])
        sprite = (_crate_sprite(crate["crate"], counts) if floor.scale == 1
                  else _small_crate_sprite(crate["crate"], counts, floor.scale))
        paste_at(image, sprite, x0 + px(8), y0 + px(6))


@lru_cache(maxsize=64)
def _crate_sprite(name: str, counts: tuple[tuple[str, int], ...]) -> Image.Image:
    """A crate with its symbol, its name and the candies shipped into it, counted by type."""
    width, height = CRATE_W - 8, CELL - 12
    sprite, draw = box_canvas(width, height)
    panel(draw, (0, 0, width, height), fill=CRATE_FILL[name], outline=INK, radius=10, width=3)
    crate_symbol(draw, name, 28, 30, 20)
    stamp_text(sprite, (50, 28), name.capitalize(), READABLE, INK, True, "lm")
    if counts:
        _candy_counts(sprite, 8, 66, counts, width - 4, 11)
    else:
        stamp_text(sprite, (10, 66), "empty", READABLE, MUTED, False, "lm")
    return sprite


@lru_cache(maxsize=64)
def _small_crate_sprite(name: str, counts: tuple[tuple[str, int], ...],
                        scale: float) -> Image.Image:
    """:func:`_crate_sprite` shrunk ``scale`` times (area averaging)."""
    sprite = _crate_sprite(name, counts)
    return sprite.resize((round(sprite.width * scale), round(sprite.height * scale)),
                         Image.Resampling.BOX)


@lru_cache(maxsize=64)
def _letter_sprite(text: str, size: int, ground: Colour) -> tuple[Image.Image, int, int]:
    """Ink text outlined in white, on ``ground``; with the offset of its centre."""
    left, top, right, bottom = (int(v) for v in font(size, True).getbbox(text, anchor="mm",
                                                                          stroke_width=2))
    sprite = Image.new("RGB", (right - left, bottom - top), ground)
    outlined_text(ImageDraw.Draw(sprite), (-left, -top), text, size, INK, WHITE, stroke=2)
    return sprite, left, top


def _letter(image: Image.Image, xy: tuple[float, float], text: str, size: int) -> None:
    """Outlined text centred on ``xy`` over the background, from the sprite cache."""
    sprite, left, top = _letter_sprite(text, size, BACKGROUND)
    paste_at(image, sprite, round(xy[0]) + left, round(xy[1]) + top)


def _coordinates(image: Image.Image, floor: Floor) -> None:
    size = floor.size(24)
    for x in range(floor.width):
        cx, _ = floor.centre(x, 0)
        _letter(image, (cx, floor.top - floor.px(16)), chr(97 + x), size)
        _letter(image, (cx, floor.bottom + floor.px(16)), chr(97 + x), size)
    for y in range(floor.height):
        _, cy = floor.centre(0, y)
        _letter(image, (floor.left - floor.px(22), cy), str(y + 1), size)


def _initials(table: Table) -> list[str]:
    """A seat's tag on its candies: its name's initial, or its number if initials clash."""
    initials = [(name[:1] or "?").upper() for name in table.names]
    if len(set(initials)) < len(initials):
        return [str(i + 1) for i in range(len(initials))]
    return initials


@dataclass(frozen=True)
class Makers:
    """How candies show who made them: each seat's colour and the initial on its tag."""

    colours: tuple[Colour, ...]
    initials: tuple[str, ...]


def makers_of(view: dict[str, Any]) -> Makers:
    table = table_of(view)
    return Makers(tuple(table.rgb(seat) for seat in table.seats), tuple(_initials(table)))


def draw_floor(image: Image.Image, draw: ImageDraw.ImageDraw, board: dict[str, Any],
               candies: list[dict[str, Any]], makers: Makers, floor: Floor,
               ground: Image.Image | None = None) -> None:
    """Tiles, coordinates, crates and the candies, tagged by ``makers``.

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
    _crates(image, draw, floor, board)
    radius = floor.size(26)
    for candy in candies:
        cx, cy = floor.centre(candy["x"], candy["y"])
        cx, cy = cx - floor.px(4), cy + floor.px(8)
        maker = candy["maker"]
        if maker is None:
            paste_candy(image, candy["type"], cx, cy, radius)
        else:
            paste_candy(image, candy["type"], cx, cy, radius, makers.colours[maker],
                        makers.initials[maker])


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
            paste_at(image, _space_part(space, floor.cell, part), left, top)
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
                paste_at(image, sprite.crop((x0 - box[0], y0 - box[1], x1 - box[0],
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
    image, _ = new_canvas(*size)
    for space in board["spaces"]:
        _tile(image, floor, space, False)
    _coordinates(image, floor)
    return image


def _gutter(image: Image.Image, draw: ImageDraw.ImageDraw,
            counts: tuple[tuple[str, int], ...]) -> None:
    paste_at(image, _gutter_sprite(counts), BX, 0)


@lru_cache(maxsize=64)
def _gutter_sprite(counts: tuple[tuple[str, int], ...]) -> Image.Image:
    """The gutter: the candies lost so far, counted by type."""
    width = WIDTH - 16 - BX
    sprite, draw = box_canvas(width, 58)
    panel(draw, (0, 0, width, 58), fill=(250, 232, 232), outline=HAZARD, radius=10, width=2)
    _x_icon(draw, 28, 29, 34)
    stamp_text(sprite, (52, 29), "LOST", READABLE, HAZARD, True, "lm")
    if counts:
        _candy_counts(sprite, 130, 29, counts, width - 4, 14)
    else:
        stamp_text(sprite, (130, 29), "the gutter is empty", READABLE, MUTED, False, "lm")
    return sprite


# --------------------------------------------------------------------------- cards


def order_card(image: Image.Image, box: tuple[int, int, int, int],
               order: dict[str, Any] | None, label: str) -> None:
    """An order card: where to (crate or gutter), the candies it shows, its stars."""
    x0, y0, x1, y1 = box
    look = None if order is None else (order["special"], order["to"], tuple(order["candies"]),
                                       order["stars"])
    paste_at(image, _order_sprite(x1 - x0, y1 - y0, look, label), x0, y0)


@lru_cache(maxsize=128)
def _order_sprite(width: int, height: int, look: tuple[bool, str, tuple[str, ...], int] | None,
                  label: str) -> Image.Image:
    sprite, draw = box_canvas(width, height)
    if look is None:
        _dashed_box(draw, (0, 0, width, height), MUTED)
        stamp_text(sprite, (width / 2, height / 2), "empty", READABLE, MUTED, False, "mm")
        return sprite
    special, to, candies, stars = look
    panel(draw, (0, 0, width, height), fill=(255, 240, 240) if special else WHITE,
          outline=HAZARD if special else INK, radius=10, width=2)
    stamp_text(sprite, (8, 4), label, READABLE, INK, True)
    crate_symbol(draw, to if not special else "lost", width - 26, 24, 13)
    x = 10
    for kind in candies:
        paste_candy(sprite, kind, x + 18, height - 28, 16)
        x += 42
    sx, sy = width - 26, height - 28
    draw.polygon(_star(sx, sy, 22), fill=STAR, outline=INK)
    stamp_text(sprite, (sx, sy + 2), str(stars), READABLE, INK, True, "mm")
    return sprite


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + (r if i % 2 == 0 else r * 0.5) * math.cos(math.radians(-90 + 36 * i)),
             cy + (r if i % 2 == 0 else r * 0.5) * math.sin(math.radians(-90 + 36 * i)))
            for i in range(10)]


def _section(image: Image.Image, y: int, text: str) -> int:
    stamp_text(image, (BX - 30, y), text, 24, INK, True, "lt")
    return y + 34


def _market(image: Image.Image, draw: ImageDraw.ImageDraw, deck: int,
            market: list[dict[str, Any] | None]) -> None:
    y = _section(image, 6, f"Order market  ·  deck {deck}")
    width = (WIDTH - BX + 30 - 16 - 3 * 12) // 4
    for i, order in enumerate(market):
        x = BX - 30 + i * (width + 12)
        # Its slot for `take order 2`, its card for `make red at c3 with o59`.
        label = f"{i + 1} · {order['id']}" if order else f"{i + 1}"
        order_card(image, (x, y, x + width, y + 100), order, label)


BLANKET_W = 250


@lru_cache(maxsize=64)
def _blanket_sprite(candy: str, crate: str | None, stars: int, colourful: bool) -> Image.Image:
    """A blanket order: colourful (its bonus in stars) or grey.

    ``crate`` is drawn for rules-1 games, where it paid on shipping there; without
    one the order pays when its candy is made, and says so.
    """
    sprite, draw = box_canvas(BLANKET_W, 74)
    panel(draw, (0, 0, BLANKET_W, 74), fill=(255, 247, 214) if colourful else GREY_CARD,
          outline=INK if colourful else MUTED, radius=10, width=3 if colourful else 2)
    if colourful:
        paste_candy(sprite, candy, 30, 37, 18)
    else:
        _candy_shape(draw, candy, 30, 37, 16, fill=(170, 170, 170))
    if crate is None:
        stamp_text(sprite, (60, 37), "made", READABLE, INK if colourful else MUTED, True, "lm")
    else:
        stamp_text(sprite, (58, 37), "→", 26, INK, True, "lm")
        crate_symbol(draw, crate, 108, 37, 16)
    text = f"+{stars}★" if colourful else "grey"
    stamp_text(sprite, (BLANKET_W - 12, 37), text, 24, INK if colourful else MUTED, True, "rm")
    return sprite


@lru_cache(maxsize=8)
def _die_sprite(face: str) -> Image.Image:
    """The order die's card: the candy it shows, or blank."""
    width = WIDTH - 16 - (BX - 30 + 3 * (BLANKET_W + 12))
    sprite, draw = box_canvas(width, 74)
    panel(draw, (0, 0, width, 74), fill=WHITE, outline=INK, radius=10)
    stamp_text(sprite, (10, 20), "die", READABLE, MUTED, True, "lm")
    if face in CANDY:
        paste_candy(sprite, face, 40, 50, 15)
    else:
        stamp_text(sprite, (12, 52), "blank", READABLE, MUTED, False, "lm")
    return sprite


def _blankets(image: Image.Image, draw: ImageDraw.ImageDraw, blankets: list[dict[str, Any]],
              die: str) -> None:
    y = _section(image, 6, "Blanket orders")
    for i, blanket in enumerate(blankets):
        x = BX - 30 + i * (BLANKET_W + 12)
        crate = blanket["crate"] if blanket.get("pays") == "shipped" else None
        sprite = _blanket_sprite(blanket["candy"], crate, blanket["stars"],
                                 blanket["colourful"])
        paste_at(image, sprite, x, y)
    paste_at(image, _die_sprite(die), BX - 30 + 3 * (BLANKET_W + 12), y)


def _players_title(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    _section(image, 4, "Sugarworkers")


@dataclass(frozen=True)
class Worker:
    """A player's row: its seat and mark colours, and what its sprite shows."""

    seat: int
    colours: tuple[str, ...]
    row: tuple[str, bool, Colour, str, str, str]


def _worker(view: dict[str, Any], table: Table, initials: list[str],
            seat: dict[str, Any]) -> Worker:
    i = seat["seat"]
    points = seat["points"]
    return Worker(i, table.colours, (
        table.names[i] + ("  (die)" if i == view["first"] else ""), i in table.acting,
        table.rgb(i), initials[i],
        f"{seat['score']}★  ·  {len(seat['completed'])} filled  ·  "
        f"hand {seat['orders_in_hand']} orders, {seat['tiles_in_hand']} tiles",
        f"orders {points['orders']} · shipping {points['shipping']} · "
        f"blanket {points['blanket']}"))


def _player(image: Image.Image, draw: ImageDraw.ImageDraw, worker: Worker) -> None:
    """One player's row: its mark (drawn here, where the picture's marks are), then the
    rest of the row from the sprite of what it shows."""
    paste_at(image, _player_sprite(*worker.row), BX - 30, 0)
    seat_mark(draw, worker.seat, BX - 12, 28, 11, worker.colours)


@lru_cache(maxsize=64)
def _player_sprite(name: str, acting: bool, colour: Colour, initial: str, detail: str,
                   split: str) -> Image.Image:
    """A player's row but its mark: name (bold while acting), the initial its candies carry,
    stars, orders filled and hand, and the score split."""
    width = WIDTH - 16 - (BX - 30)
    sprite, draw = box_canvas(width, 56)
    panel(draw, (0, 0, width, 56), fill=(255, 244, 200) if acting else PANEL, outline=colour,
          radius=10, width=3)
    x = 30  # the row's own left edge is BX - 30
    draw.ellipse((x + 4, 12, x + 36, 44), fill=colour)
    stamp_text(sprite, (x + 20, 29), initial, READABLE, ink_on(colour), True, "mm")
    stamp_text(sprite, (x + 46, 28), name, 24, INK, acting, "lm", width=280)
    stamp_text(sprite, (width - 12, 18), detail, READABLE, INK, True, "rm")
    stamp_text(sprite, (width - 12, 44), split, 18, MUTED, False, "rm")
    return sprite


@lru_cache(maxsize=64)
def _hand_tile_sprite(centre: str, corner: str | None, name: str, kind: str) -> Image.Image:
    """A conveyor tile in the hand: its icons, its name and its notation."""
    sprite, draw = box_canvas(HAND_TILE_W, 86)
    panel(draw, (0, 0, HAND_TILE_W, 86), fill=TILE_PLAYED, outline=INK, radius=10)
    draw_icon(draw, centre, 44, 46, 62, ICON_PLAYED)
    if corner:
        draw_icon(draw, corner, 18, 18, 30, ICON_PLAYED)
    stamp_text(sprite, (86, 28), name, READABLE, INK, True, "lm", width=HAND_TILE_W - 96)
    stamp_text(sprite, (86, 60), f"conveyor {kind} at …", READABLE, INK, anchor="lm",
               width=HAND_TILE_W - 96)
    return sprite


def _hand_height(hand: dict[str, Any]) -> int:
    return 8 + 34 + 112 + 96 * math.ceil(len(hand["tiles"]) / 2)


def _hand(image: Image.Image, draw: ImageDraw.ImageDraw, name: str, hand: dict[str, Any]) -> None:
    y = _section(image, 8, f"{name}'s hand (only you see this)")
    count = max(5, len(hand["orders"]))
    width = (WIDTH - BX + 30 - 16 - (count - 1) * 10) // count
    for i, order in enumerate(hand["orders"]):
        x = BX - 30 + i * (width + 10)
        order_card(image, (x, y, x + width, y + 100), order, order["id"])
    y += 112
    for i, tile in enumerate(hand["tiles"]):
        sprite = _hand_tile_sprite(tile["centre"], tile["corner"], tile["name"], tile["kind"])
        paste_at(image, sprite, BX - 30 + (i % 2) * (HAND_TILE_W + 12), y + (i // 2) * 96)


#: What the seat to act is to do, by the open decision or else the step of its turn.
DOING = {"order": "Order action", "factory": "Factory action",
         "drop": "Discard down to five orders"}


def _header(view: dict[str, Any]) -> Header:
    """The shared header, right of the title and round."""
    table = table_of(view)
    return header(view, WIDTH - 16 - HEADER_X,
                  what=DOING.get(table.decision or view["step"], ""), what_lines=2,
                  summary_lines=2)


def _title(image: Image.Image, draw: ImageDraw.ImageDraw, rounds: str, head: Header) -> None:
    """The game's name, the round under it, and the header right of them."""
    stamp_text(image, (BX - 30, 14), "Sugarworks", 34, INK, True)
    stamp_text(image, (BX - 30, 60), rounds, READABLE, MUTED, width=HEADER_X - BX + 10)
    head.draw(image, draw, HEADER_X, 14)


LEGEND = (("jump-right", "jump 2"), ("spring", "spring up 2"), ("eat-green", "eats that shape"),
          ("x", "any candy lost"))


@cache
def _legend_sprite() -> Image.Image:
    """The icons that are not plain arrows; a corner icon acts as soon as a candy enters."""
    sprite, draw = new_canvas(WIDTH - (BX - 30), 44)
    x = 0
    for icon, text in LEGEND:
        draw_icon(draw, icon, x + 20, 20, 40, ICON)
        stamp_text(sprite, (x + 44, 20), text, 19, INK, False, "lm")
        x += 60 + int(font(19).getbbox(text)[2])
    stamp_text(sprite, (x, 20), "· corner icon: on entering", 19, MUTED, False, "lm")
    return sprite


def _legend(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    paste_at(image, _legend_sprite(), BX - 30, 0)


def _last_movement(image: Image.Image, draw: ImageDraw.ImageDraw, text: str) -> None:
    if text:
        stamp_text(image, (BX - 30, 6), text, READABLE, MUTED)


def _movement_text(movement: dict[str, Any]) -> str:
    return (f"Last candy movement (round {movement['round']}): {movement['shipped']} shipped, "
            f"{movement['lost']} lost, {movement['bonks']} Bonk!"
            f"{'s' if movement['bonks'] != 1 else ''}")


# --------------------------------------------------------------------------- whole pictures


#: Where the floor's strip begins: under the tallest header, above the column letters.
FLOOR_TOP = BY - 30


def _floor(image: Image.Image, draw: ImageDraw.ImageDraw, board: dict[str, Any],
           candies: list[dict[str, Any]], makers: Makers) -> None:
    """The floor in its strip (which begins :data:`FLOOR_TOP` rows down the picture)."""
    draw_floor(image, draw, board, candies, makers, Floor(board, top=BY - FLOOR_TOP))


def _strips(view: dict[str, Any]) -> list[Strip]:
    """The picture top to bottom, each part a strip drawn from what it shows alone."""
    head = _header(view)
    table = head.table
    rounds = "final count" if view["table"]["result"] else \
        f"round {view['round']} of {view['rounds']}"
    floor = Floor(view["board"])
    strips = [Strip(FLOOR_TOP, _title, (rounds, head)),
              Strip(floor.bottom + 40 - FLOOR_TOP, _floor,
                    (view["board"], view["candies"], makers_of(view))),
              # The gutter's box is 59 rows (both edges drawn), into the gap under it.
              Strip(58 + 6, _gutter, (_counts(view["gutter"]),)),
              Strip(44, _legend)]
    movement = _movement_text(view["movement"]) if view["movement"] else ""
    strips.append(Strip(2 + (36 if movement else 0), _last_movement, (movement,)))
    strips += [Strip(6 + 34 + 112, _market, (view["decks"]["orders"], view["market"])),
               Strip(6 + 34 + 86, _blankets, (view["blankets"], view["die"])),
               Strip(4 + 34, _players_title)]
    initials = _initials(table)
    strips += [Strip(64, _player, (_worker(view, table, initials, seat),))
               for seat in view["seats"]]
    if view.get("hand"):
        name = table.names[table.viewer] if table.viewer is not None else "Your"
        strips.append(Strip(_hand_height(view["hand"]), _hand, (name, view["hand"])))
    strips.append(Strip(16, blank))  # the bottom margin
    return strips


PLAYER_FILLS: tuple[Colour, ...] = ((255, 244, 200), (255, 247, 214), (255, 240, 240),
                                    (250, 232, 232))


#: The real game the palette is drawn from: four seats (every maker's tag) at the start and
#: later with candies made and orders filled, in a seat's own eyes (its hand too).
PALETTE_GAMES = (Sample(4, 6, (2, 24), (0,)),)


def _kept() -> tuple[Colour, ...]:
    """Flat fills kept exact in the palette (the movement GIF's frames are drawn on it too)."""
    return (TILE_PRINTED, TILE_PLAYED, TILE_EDGE, ICON, ICON_PLAYED, HAZARD, BONK, PATH,
            GREY_CARD, STAR, *PLAYER_FILLS, *CANDY.values(), *CRATE_FILL.values())


PICTURES = Pictures("sugarworks", WIDTH, _strips, PALETTE_GAMES, keep=_kept)
_draw, _palette, render = PICTURES.draw, PICTURES.palette, PICTURES.render


# --------------------------------------------------------------------------- the animation


def _frame(view: dict[str, Any], floor: Floor, positions: dict[str, list[int]],
           crates: dict[str, list[dict[str, Any]]], movement: dict[str, Any],
           step: dict[str, Any] | None, caption: str,
           ground: Image.Image | None = None) -> Image.Image:
    """One frame: the floor as the static picture draws it, with the candies at
    ``positions``, the crates holding ``crates``, and the activation ``step`` marked.

    ``ground`` is :func:`floor_ground` of the frame's size, drawn once per movement.
    """
    if ground is None:
        image, draw = new_canvas(*_frame_size(floor))
    else:
        image = ground.copy()
        draw = ImageDraw.Draw(image)
    kinds = {c["id"]: (c["type"], c["maker"]) for c in movement["start"]}
    candies = [{"type": kinds[candy][0], "maker": kinds[candy][1], "x": x, "y": y}
               for candy, (x, y) in positions.items()]
    board = dict(view["board"], crates=[dict(c, candies=crates[c["crate"]])
                                        for c in view["board"]["crates"]])
    draw_floor(image, draw, board, candies, makers_of(view), floor, ground)
    px = floor.px
    if step is not None:
        cx, cy = floor.centre(*positions[step["candy"]]) if step["candy"] in positions \
            else floor.centre(*step["start"])
        draw.ellipse((cx - px(44), cy - px(36), cx + px(36), cy + px(44)), outline=BONK,
                     width=floor.size(6))
        _path(image, draw, floor, step)
    size = floor.size(24)
    lines = wrap(caption, size, round(px(WIDTH - 40)), bold=True)[:3]
    for i, line in enumerate(lines):
        stamp_text(image, (px(20), px(8 + i * 29)), line, size, INK, True)
    return image


def _frame_size(floor: Floor) -> tuple[int, int]:
    """A movement frame: the picture's width, down to the floor's bottom row of letters."""
    return round(floor.px(WIDTH)), floor.bottom + floor.size(40)


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
            arrow(draw, start, end, colour, width=floor.size(6), head=floor.size(20))
            if event["what"] == "lost":
                _x_icon(draw, end[0], end[1], px(40))
        elif event["what"] == "bonk":
            cx, cy = floor.centre(*event["at"])
            draw.polygon(_star(cx, cy - px(30), px(24)), fill=BONK, outline=INK)
            stamp_text(image, (cx, cy - px(30)), "!", floor.size(22), INK, True, "mm")
        elif event["what"] == "lost":
            cx, cy = floor.centre(*event["from"])
            _x_icon(draw, cx, cy, px(60))


#: The whole movement GIF lasts at most this long (a phone loops it; 16-30 s was too slow).
MOVEMENT_MS = 7500
FIRST_MS, LAST_MS, STEP_MS = 900, 2500, (100, 700)


#: The movement GIF's width, and the scale its frames are drawn at to have it: drawn at that
#: size, not drawn at the board's and shrunk (a third of the time).
GIF_WIDTH = 640
GIF_SCALE = GIF_WIDTH / WIDTH


def movement_frames(view: dict[str, Any], scale: float = GIF_SCALE,
                    ) -> list[tuple[Image.Image, int]] | None:
    """The latest candy movement as (frame, milliseconds); ``None`` if the move made none.

    The crates fill as candies are shipped. The view keeps only the crates as they
    are now, after the orders filled at the end of the movement; a candy shipped and
    then used by such an order shows in its crate until the last frame, which is
    the floor as the static picture draws it (exactly so at ``scale`` 1).
    """
    movement = view.get("movement")
    if not movement or not movement.get("fresh"):
        return None
    floor = Floor(view["board"], top=120, scale=scale)
    now = {c["crate"]: c["candies"] for c in view["board"]["crates"]}
    kinds = {c["id"]: c for c in movement["start"]}
    arrivals = [(n, e["crate"], e["candy"]) for n, step in enumerate(movement["steps"])
                for e in step["events"] if e["what"] == "ship"]
    arrived = {candy for *_, candy in arrivals}

    def crates_after(n: int) -> dict[str, list[dict[str, Any]]]:
        """The crates once the first ``n`` activations are done."""
        out = {crate: [c for c in candies if c["id"] not in arrived]
               for crate, candies in now.items()}
        for k, crate, candy in arrivals:
            if k < n and crate in out:
                out[crate].append({"id": candy, "type": kinds[candy]["type"],
                                   "maker": kinds[candy]["maker"]})
        return out

    start = {c["id"]: c["cell"] for c in movement["start"]}
    title = f"Candy movement, round {movement['round']}: red, yellow, green, blue, purple"
    steps = movement["steps"]
    step_ms = max(STEP_MS[0], min(STEP_MS[1],
                                  (MOVEMENT_MS - FIRST_MS - LAST_MS) // max(1, len(steps))))
    step_ms -= step_ms % 10  # GIF delays are in hundredths of a second
    ground = floor_ground(view["board"], floor, _frame_size(floor))
    frames = [(_frame(view, floor, start, crates_after(0), movement, None, title,
                      ground=ground), FIRST_MS)]
    for n, step in enumerate(steps):
        frames.append((_frame(view, floor, step["after"], crates_after(n + 1), movement, step,
                              step["text"], ground=ground), step_ms))
    summary = (f"Round {movement['round']} done: {movement['shipped']} shipped, "
               f"{movement['lost']} lost, {movement['bonks']} Bonk!"
               f"{'s' if movement['bonks'] != 1 else ''}.")
    last = {c["id"]: [c["x"], c["y"]] for c in view["candies"]}
    frames.append((_frame(view, floor, last, now, movement, None, summary, ground=ground),
                   LAST_MS))
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
