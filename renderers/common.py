"""The frame every game's picture is drawn in: each idea once, for all five renderers.

- Colours and seat marks: the seat colours and shapes of :mod:`bot.games.colours`.
- Text: measured without a picture, fitted one way (:func:`stamp_text` with ``width``
  shortens, :func:`wrap` with ``limit`` cuts the last line, :func:`with_ending` keeps
  "to play"), each string rasterised once.
- Shapes and sprites: panels, arrows, canvases for sprites kept by what they show,
  smooth (supersampled) sprites and pasting them.
- The envelope and the header: :class:`Table` reads ``view["table"]`` (the engine's ``table``),
  and :class:`Header` draws who is to act, the move and the result from it alone.
- Palettes: one fixed palette per renderer, from pictures of :func:`real_views`, views of
  real games made and played by the game's own rules.
- PNG: mapped onto that palette and written with ISA-L.
- Strips: a picture is a stack of strips as wide as itself, each drawn from its own
  arguments alone and kept, mapped onto the palette, by them (:func:`strips_png`): a
  part of the table no move changed (a hideout, a player's panel, a market) is copied
  from the last picture that had it instead of being drawn and mapped again.

One module, not a package: the tests that check every seat mark's colour replace
:func:`seat_mark` here and rely on badges and headers calling it by that name.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import random
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from isal import isal_zlib
from PIL import Image, ImageChops, ImageDraw, ImageFont
from PIL import _imaging as pil_core

from bot.games import GAMES
from bot.games.colours import PAINTS, SHAPES, STANDARD_SEATS, seat_paint, seat_shape
from bot.games.content import data_path
from bot.games.engine import SeatInfo
from bot.games.words import STANDING_IN, STANDING_IN_SHORT, listing
from bot.organized.clock import short

Colour = tuple[int, int, int]

# --------------------------------------------------------------------------- colours and marks

BACKGROUND: Colour = (253, 246, 236)
INK: Colour = (45, 35, 40)
MUTED: Colour = (120, 105, 110)
WHITE: Colour = (255, 255, 255)
PANEL: Colour = (255, 252, 247)
PANEL_EDGE: Colour = (222, 205, 190)
HIGHLIGHT: Colour = (255, 196, 0)

#: Seat colours in seat order and seat shapes, from the one table text uses too
#: (:mod:`bot.games.colours`). Yellow and black, the last two, are the pair that stays
#: furthest from the first four under protanopia, deuteranopia and tritanopia simulation.
SEAT_COLOURS: tuple[Colour, ...] = tuple(PAINTS[name].rgb for name in STANDARD_SEATS)
SEAT_SHAPES: tuple[str, ...] = tuple(shape for shape, _ in SHAPES)


def seat_colour(seat: int, colours: Sequence[str] = STANDARD_SEATS) -> Colour:
    """The colour of ``seat`` when seats have the named ``colours`` (they repeat)."""
    return seat_paint(seat, colours).rgb


def seat_text_colour(seat: int, colours: Sequence[str] = STANDARD_SEATS) -> Colour:
    """``seat``'s colour darkened until it reads as text on the light background.

    Yellow text on cream is invisible; this keeps the hue and reaches a contrast
    ratio of at least 3 (the WCAG figure for large text).
    """
    colour = seat_colour(seat, colours)
    while _contrast(colour, BACKGROUND) < 3.0:
        colour = (round(colour[0] * 0.85), round(colour[1] * 0.85), round(colour[2] * 0.85))
    return colour


def ink_on(colour: Colour) -> Colour:
    """White or ink, whichever reads better on a fill of ``colour`` (ink on yellow)."""
    return WHITE if _contrast(WHITE, colour) >= _contrast(INK, colour) else INK


def _luminance(colour: Colour) -> float:
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: Colour, b: Colour) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Corners of a named mark (any of :data:`SEAT_SHAPES` but the circle) of radius ``r``.

    Sizes are balanced so that every shape covers about as much as a circle of
    radius ``r`` would, and none looks bigger than another.
    """
    if shape == "square":
        h = r * 0.86
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    if shape == "triangle":
        k = r * 1.25
        return [(cx + k * math.cos(math.radians(a)), cy + r * 0.15 + k * math.sin(math.radians(a)))
                for a in (-90, 30, 150)]
    if shape == "diamond":
        k = r * 1.15
        return [(cx, cy - k), (cx + k, cy), (cx, cy + k), (cx - k, cy)]
    if shape == "star":
        points = []
        for i in range(10):
            k = r * (1.25 if i % 2 == 0 else 0.55)
            angle = math.radians(-90 + 36 * i)
            points.append((cx + k * math.cos(angle), cy + k * math.sin(angle)))
        return points
    if shape == "hexagon":
        k = r * 1.02
        return [(cx + k * math.cos(math.radians(60 * i)), cy + k * math.sin(math.radians(60 * i)))
                for i in range(6)]
    raise ValueError(f"No mark called {shape!r}.")


def shape_mark(draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float,
               fill: Colour, outline: Colour = INK, width: int | None = None) -> None:
    """A named mark centred on ``(cx, cy)``, filled and outlined."""
    if width is None:
        width = max(1, round(r / 6))
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
        return
    points = shape_points(shape, cx, cy, r)
    if width == 1 or draw.mode != draw.im.mode:  # a thin outline, or drawing blended
        draw.polygon(points, fill=fill, outline=outline, width=width)
        return
    # Pillow clips a wide polygon outline with a mask the size of the whole picture (a
    # 2,700 px tall one takes 0.2 ms a mark); drawn in a copy of the box round the mark
    # and put back, the pixels are the same at a sixth of the cost.
    xs, ys = [x for x, _ in points], [y for _, y in points]
    size_x, size_y = draw.im.size
    left, top = max(0, math.floor(min(xs)) - width - 2), max(0, math.floor(min(ys)) - width - 2)
    box = (left, top, min(size_x, math.ceil(max(xs)) + width + 3),
           min(size_y, math.ceil(max(ys)) + width + 3))
    if box[2] <= left or box[3] <= top:
        return
    part = Image.Image()._new(draw.im.crop(box))
    ImageDraw.Draw(part).polygon([(x - left, y - top) for x, y in points], fill=fill,
                                 outline=outline, width=width)
    draw.im.paste(part.im, box)


def seat_mark(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float,
              colours: Sequence[str] = STANDARD_SEATS) -> None:
    """``seat``'s mark: its shape in its colour with a dark outline, e.g. beside its name.

    Black, the sixth colour, is outlined in white so that its star still shows on ink.
    """
    colour = seat_colour(seat, colours)
    outline = WHITE if colour == (0, 0, 0) else INK
    shape_mark(draw, seat_shape(seat), cx, cy, r, colour, outline)


def seat_badge(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float,
               colours: Sequence[str] = STANDARD_SEATS) -> None:
    """``seat``'s mark on a white disc, for a place filled with the seat's own colour."""
    disc = r * 1.5
    draw.ellipse((cx - disc, cy - disc, cx + disc, cy + disc), fill=WHITE)
    seat_mark(draw, seat, cx, cy, r, colours)


# --------------------------------------------------------------------------- text


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans from ``candybot_data/fonts`` (shipped, so images look the same everywhere)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(data_path("fonts", name)), size)


@lru_cache(maxsize=8192)
def text_size(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    """Width and height of ``text``'s ink in pixels.

    Cached: pictures repeat the same labels move after move, and measuring was a
    third of the cost of text. Needs no picture to measure on.
    """
    left, top, right, bottom = font(size, bold).getbbox(text)
    return int(right - left), int(bottom - top)


def centred_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                 fill: Colour = INK, bold: bool = False) -> None:
    """Text centred on ``xy``."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor="mm")


def stamp_text(image: Image.Image, xy: tuple[float, float], text: str, size: int,
               fill: Colour = INK, bold: bool = False, anchor: str = "la",
               width: float | None = None) -> None:
    """Like ``draw.text`` on ``image``, but each (text, size, weight, anchor) is rasterised once;
    shortened with an ellipsis (:func:`shorten`) when wider than ``width``.

    Pictures repeat the same labels move after move (spot names, player names,
    counts); rasterising text is most of a picture's drawing time, and laying a
    kept mask on costs a tenth of it. The mask is laid on as ``draw.text`` lays
    its own (``draw_bitmap``, the same pixels): 40% faster than ``Image.paste``
    of a colour through the mask, which a picture does dozens of times.
    """
    if width is not None:
        text = shorten(text, size, round(width), bold)
    mask, (dx, dy) = _text_mask(text, size, bold, anchor)
    if mask is not None:
        target = pil_core.draw(image.im, 0)
        target.draw_bitmap((round(xy[0]) + dx, round(xy[1]) + dy), mask, target.draw_ink(fill))


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Any, tuple[int, int]]:
    """The rasterised text (Pillow's core mask, as ``draw.text`` gets it) and its offset."""
    core, offset = font(size, bold).getmask2(text, "L", anchor=anchor)
    if core.size[0] == 0 or core.size[1] == 0:
        return None, (0, 0)
    return core, (int(offset[0]), int(offset[1]))


def stamp_lines(image: Image.Image, xy: tuple[float, float], text: str, size: int,
                width: int, fill: Colour = INK, bold: bool = False, limit: int | None = None,
                leading: int | None = None) -> int:
    """``text`` wrapped to ``width`` from ``xy`` down (see :func:`wrap`); returns the y
    under its last line. ``leading`` is the step from line to line (default 1.25 em)."""
    x, y = xy
    step = round(size * 1.25) if leading is None else leading
    for line in wrap(text, size, width, bold, limit):
        stamp_text(image, (x, y), line, size, fill, bold)
        y += step
    return round(y)


def outlined_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                  fill: Colour = WHITE, outline: Colour = INK, stroke: int = 2,
                  bold: bool = True, anchor: str = "mm") -> None:
    """Text with a contrasting outline, readable on any background: what ``draw.text`` with
    ``stroke_width`` draws, its outline and its letters each rasterised once per string
    and offset (the slowest text Pillow draws) and laid on as ``draw.text`` lays them."""
    x, y = int(xy[0]), int(xy[1])
    start = (math.modf(xy[0])[0], math.modf(xy[1])[0])
    (ring, (rx, ry)), (letters, (lx, ly)) = _outlined_masks(text, size, bold, anchor, stroke,
                                                            start)
    draw.draw.draw_bitmap((x + rx, y + ry), ring, draw.draw.draw_ink(outline))
    if fill != outline:
        draw.draw.draw_bitmap((x + lx, y + ly), letters, draw.draw.draw_ink(fill))


@lru_cache(maxsize=1024)
def _outlined_masks(text: str, size: int, bold: bool, anchor: str, stroke: int,
                    start: tuple[float, float]) -> tuple[tuple[Any, tuple[int, int]], ...]:
    """The outline and the letters of :func:`outlined_text` (Pillow's core masks, as
    ``draw.text`` gets them for a start ``start`` within the pixel) and their offsets."""
    face = font(size, bold)
    ring = face.getmask2(text, "L", None, None, None, stroke, anchor, 0, start,
                         stroke_filled=True)
    letters = face.getmask2(text, "L", None, None, None, 0, anchor, 0, start)
    return ring, letters


def shorten(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` cut and ended with an ellipsis so that it fits ``width``.

    A name marked as stood in for by an AI (:data:`~bot.games.words.STANDING_IN`)
    keeps its mark, in the short form if need be: what follows the mark is cut
    first, then the name itself.
    """
    if text_size(text, size, bold)[0] <= width:
        return text
    name, mark, rest = text.partition(STANDING_IN)
    if not mark:
        return _cut(text, size, width, bold)
    for tag in (STANDING_IN, STANDING_IN_SHORT):
        if text_size(name + tag + rest, size, bold)[0] <= width:
            return name + tag + rest
    for tag in (STANDING_IN, STANDING_IN_SHORT):
        if rest and text_size(name + tag + "…", size, bold)[0] <= width:
            return _cut(name + tag + rest, size, width, bold)
    room = width - text_size(STANDING_IN_SHORT, size, bold)[0]
    return _cut(name, size, room, bold) + STANDING_IN_SHORT


def _cut(text: str, size: int, width: int, bold: bool) -> str:
    """``text`` cut from the end and ended with an ellipsis so that it fits ``width``."""
    if text_size(text, size, bold)[0] <= width:
        return text
    while len(text) > 1 and text_size(text + "…", size, bold)[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def with_ending(name: str, ending: str, size: int, width: int, bold: bool = True) -> str:
    """``name + ending`` within ``width``: only the name is shortened (``Bartholo… to play``)."""
    return shorten(name, size, width - text_size(ending, size, bold)[0], bold) + ending


def wrap(text: str, size: int, width: int, bold: bool = False,
         limit: int | None = None) -> list[str]:
    """``text`` split into lines no wider than ``width``; with a ``limit``, at most that many
    lines, the last shortened with an ellipsis if the text goes on."""
    lines = list(_wrapped(text, size, width, bold))
    if limit is not None and len(lines) > limit:
        lines = [*lines[:limit - 1], shorten(" ".join(lines[limit - 1:]), size, width, bold)]
    return lines


@lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, width: int, bold: bool) -> tuple[str, ...]:
    lines: list[str] = []
    for word in text.split():
        if lines and text_size(f"{lines[-1]} {word}", size, bold)[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return tuple(lines)


# --------------------------------------------------------------------------- shapes and sprites


def panel(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
          fill: Colour = PANEL, outline: Colour = PANEL_EDGE, radius: int = 14,
          width: int = 2) -> None:
    """A rounded card."""
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def badge(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fill: Colour,
          radius: int = 14, text_fill: Colour = WHITE) -> None:
    """A small filled disc with a short label, such as a choice number."""
    x, y = xy
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=INK,
                 width=2)
    centred_text(draw, (x, y + 1), text, round(radius * 1.25), text_fill, bold=True)


def arrow(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float],
          fill: Colour, width: int = 8, head: int = 22) -> None:
    """A straight arrow from ``start`` to ``end`` with a triangular head."""
    (x0, y0), (x1, y1) = start, end
    length = max(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, 1e-6)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    bx, by = x1 - ux * head, y1 - uy * head
    draw.line((x0, y0, bx, by), fill=fill, width=width)
    draw.polygon([(x1, y1), (bx - uy * head * 0.6, by + ux * head * 0.6),
                  (bx + uy * head * 0.6, by - ux * head * 0.6)], fill=fill)


def new_canvas(width: int, height: int, ground: Colour = BACKGROUND
               ) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank picture of ``ground`` (the shared background colour), with its drawing context."""
    image = Image.new("RGB", (width, height), ground)
    return image, ImageDraw.Draw(image)


def box_canvas(width: int, height: int, ground: Colour = BACKGROUND
               ) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A sprite for a box ``width`` x ``height`` whose edges are both drawn (a box from 0 to
    ``width`` covers ``width + 1`` pixels), on the colour it is pasted onto."""
    return new_canvas(width + 1, height + 1, ground)


#: Smooth sprites are drawn this many times larger and scaled down.
SUPERSAMPLE = 4


def smooth_sprite(width: int, height: int,
                  paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """A transparent ``width`` x ``height`` sprite with smooth edges: ``paint(draw, scale)``
    draws it ``scale`` times larger, and it is scaled down (Pillow draws no anti-aliasing)."""
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big, "RGBA"), SUPERSAMPLE)
    return big.resize((width, height), Image.Resampling.LANCZOS)


#: How far past a placed piece's box its drawing is looked for (:func:`placed`).
PLACED_MARGIN = 16


@lru_cache(maxsize=1024)
def placed(paint: Callable[..., None], box: tuple[int, int, int, int], ground: Colour,
           *args: Any) -> Image.Image | None:
    """What ``paint(image, draw, *args)`` draws in ``box`` of a picture of ``ground``, kept by
    exactly those: a part of a picture (a room, a legend's key) drawn once and pasted at
    ``box`` since, where nothing else is drawn under it; ``None`` when ``paint`` drew
    outside ``box`` too (a label too long for its card), to be drawn in place then.

    Drawn at its own place, in a canvas from the picture's corner, and cut out: a shape
    whose corners are computed in floats, or rounded half to even, comes out as in the
    picture only there. ``args`` must be hashable."""
    _must_be_a_module_function(paint, "a placed piece's painter")
    image, draw = new_canvas(box[2] + PLACED_MARGIN, box[3] + PLACED_MARGIN, ground)
    paint(image, draw, *args)
    piece = image.crop(box)
    # What it drew round its box: the box and the margin round it, the box blanked.
    left, top = max(0, box[0] - PLACED_MARGIN), max(0, box[1] - PLACED_MARGIN)
    image.paste(ground, box)
    around = image.crop((left, top, image.width, image.height))
    if ImageChops.difference(around, Image.new("RGB", around.size, ground)).getbbox():
        return None
    return piece


def paste_at(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste ``sprite`` with its top-left corner at ``(x, y)``, through its own transparency
    if it has any: what ``image.paste`` does for pictures drawn here, without its checks
    for modes and files (half its cost, paid some seventy times a picture)."""
    left, top = round(x), round(y)
    box = (left, top, left + sprite.width, top + sprite.height)
    if sprite.mode == "RGBA":
        image.im.paste(sprite.im, box, sprite.im)
    else:
        image.im.paste(sprite.im, box)


def paste_centred(image: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    """Paste ``sprite`` centred on ``(cx, cy)``, through its own transparency if it has any."""
    paste_at(image, sprite, round(cx) - sprite.width // 2, round(cy) - sprite.height // 2)


# --------------------------------------------------------------------------- the table's envelope


@dataclass(frozen=True)
class Table:
    """The public envelope every view carries under ``"table"`` (the engine's ``table``), read once:
    who sits where in which colour, who is to act, what is being decided, how it ended.

    Pictures take whose turn it is, the result, and every seat's name, colour and
    mark from here only, so that all five games say them the same way.
    """

    viewer: int | None
    move: int
    acting: tuple[int, ...]
    #: The open decision's kind, its seats and those that have answered (a joint one).
    decision: str | None
    deciding: tuple[int, ...]
    answered: tuple[int, ...]
    #: Groups of tied seats, best first, once the game is over; ``None`` while it goes on.
    ranking: tuple[tuple[int, ...], ...] | None
    summary: str
    names: tuple[str, ...]
    ais: tuple[bool, ...]
    #: Each seat's colour by name (``bot.games.colours.PAINTS``), as :func:`seat_mark` takes.
    colours: tuple[str, ...]
    #: Seconds left on the running clock with the least time (a table with a clock).
    clock: float | None = None

    @property
    def over(self) -> bool:
        return self.ranking is not None

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    @property
    def seats(self) -> range:
        return range(len(self.names))

    def rgb(self, seat: int) -> Colour:
        """``seat``'s colour."""
        return seat_colour(seat, self.colours)

    def text_rgb(self, seat: int) -> Colour:
        """``seat``'s colour darkened to read as text on the background."""
        return seat_text_colour(seat, self.colours)

    def label(self, seat: int) -> str:
        """``seat``'s name, with "(AI)" when an AI plays it."""
        return self.names[seat] + (" (AI)" if self.ais[seat] else "")

    def places(self) -> dict[int, int]:
        """Each ranked seat's place once the game is over, 0 the best; tied seats share one."""
        places: dict[int, int] = {}
        place = 0
        for group in self.ranking or ():
            places.update((seat, place) for seat in group)
            place += len(group)
        return places

    def order(self) -> list[int]:
        """Seats in seat order while playing, best first once the game is over."""
        ranked = [seat for group in self.ranking or () for seat in group]
        return ranked + [seat for seat in self.seats if seat not in ranked]

    def mark(self, draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float,
             r: float) -> None:
        """``seat``'s mark in its colour (:func:`seat_mark`)."""
        seat_mark(draw, seat, cx, cy, r, self.colours)

    def badge(self, draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float,
              r: float) -> None:
        """``seat``'s mark on a white disc, on a fill of its colour (:func:`seat_badge`)."""
        seat_badge(draw, seat, cx, cy, r, self.colours)


def table_of(view: Mapping[str, Any]) -> Table:
    """The envelope of ``view`` (``view["table"]``)."""
    raw = view["table"]
    decision = raw.get("decision") or {}
    result = raw.get("result")
    seats = raw["seats"]
    clock = raw.get("clock")
    return Table(
        viewer=raw.get("viewer"), move=int(raw["move"]), acting=tuple(raw["acting"]),
        decision=decision.get("kind"), deciding=tuple(decision.get("seats") or ()),
        answered=tuple(decision.get("answered") or ()),
        ranking=None if result is None else tuple(tuple(g) for g in result["ranking"]),
        summary=str(result.get("summary") or "") if result else "",
        names=tuple(str(s["name"]) for s in seats), ais=tuple(bool(s["ai"]) for s in seats),
        colours=tuple(str(s["colour"]) for s in seats),
        clock=float(clock["left"]) if isinstance(clock, dict) and "left" in clock else None)


# --------------------------------------------------------------------------- the header

GOLD: Colour = (255, 200, 40)
TITLE = 30
TITLE_H = 42
BANNER_H = 52
BANNER_TEXT = 30


@dataclass(frozen=True)
class Header:
    """Who is to act or how the game ended, the same in every game's picture and drawn from
    the view's envelope alone (:class:`Table`).

    Top to bottom: the game's title line with its stage and the move number on its
    right (when given a title); a banner in the colour of the seat to act with its mark on a
    white disc and "Ana to play" ("Waiting for" and every deciding seat's mark and
    name, ticked once answered, when several decide at once; gold with the
    winners' marks once over); under it what the seat is to do, in the game's own
    words, or once over the result's summary.
    """

    table: Table
    width: int
    title: str
    lines: tuple[str, ...]
    size: int
    move: bool
    #: The game's clock in its own words, right of the title before the move ("round 3
    #: of 5", "bag: 30 candies"); empty for none.
    stage: str = ""

    @property
    def leading(self) -> int:
        return self.size + 7

    @property
    def height(self) -> int:
        return header_height(bool(self.title), len(self.lines), self.size)

    @property
    def clock(self) -> str:
        """The stage and the move as the header says them ("round 3 of 5 · move 12")."""
        return " · ".join(part for part in (self.stage, f"move {self.table.move}" if self.move
                                            else "") if part)

    def draw(self, image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int) -> int:
        """Draw at ``(x, y)``; returns the y under the header."""
        top = y
        if self.title:
            title_line(image, x, y, self.width, self.title, self.clock, self.size)
            y += TITLE_H
        self.draw_banner(image, draw, x, y, "" if self.title else self.clock)
        return top + self.height

    def draw_banner(self, image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int,
                    move: str = "") -> None:
        """The banner at ``(x, y)``, with ``move`` on its right, and the lines under it."""
        table, width = self.table, self.width
        move_w = text_size(move, self.size)[0] + 16 if move else 0
        box = (x, y, x + width, y + BANNER_H)
        mid = y + BANNER_H // 2
        # The table's clock, on the banner's right: the least time any seat to act has.
        clock = f"{short(table.clock)} left" if table.clock is not None and not table.over \
            else ""
        if clock:
            move = " · ".join(part for part in (clock, move) if part)
            move_w = text_size(move, self.size, True)[0] + 24
        room = width - move_w
        if table.over:
            fill: Colour = GOLD
            panel(draw, box, fill=fill, outline=INK, radius=12)
            self._result(image, draw, x, mid, room)
        elif len(table.acting) == 1:
            seat = table.acting[0]
            fill = table.rgb(seat)
            panel(draw, box, fill=fill, outline=INK, radius=12)
            table.badge(draw, seat, x + 28, mid, 12)
            ending = " (you) to play" if seat == table.viewer else " to play"
            label = with_ending(table.names[seat], ending, BANNER_TEXT, room - 76)
            stamp_text(image, (x + 56, mid), label, BANNER_TEXT, ink_on(fill), True, "lm")
        else:
            fill = PANEL
            panel(draw, box, fill=fill, outline=HIGHLIGHT, radius=12, width=3)
            self._waiting(image, draw, x, mid, room)
        if move:
            stamp_text(image, (x + width - 14, mid), move, self.size, ink_on(fill), bool(clock),
                       "rm")
        y += BANNER_H + 10
        for line in self.lines:
            stamp_text(image, (x, y), line, self.size, INK)
            y += self.leading

    def _result(self, image: Image.Image, draw: ImageDraw.ImageDraw, x: int, mid: int,
                room: int) -> None:
        """Game over, with the winners' marks and names."""
        table = self.table
        winners = table.winners[:3]
        for i, seat in enumerate(winners):
            table.badge(draw, seat, x + 28 + 36 * i, mid, 12)
        left = x + (56 + 36 * (len(winners) - 1) if winners else 16)
        names = listing([table.names[s] for s in table.winners])
        if table.winners:
            ending = " wins!" if len(table.winners) == 1 else " share the win"
            text = with_ending("Game over · " + names, ending, BANNER_TEXT, x + room - left - 16)
        else:
            text = "Game over"
        stamp_text(image, (left, mid), text, BANNER_TEXT, INK, True, "lm")

    def _waiting(self, image: Image.Image, draw: ImageDraw.ImageDraw, x: int, mid: int,
                 room: int) -> None:
        """"Waiting for" and each deciding seat's mark and name, ticked once it answered."""
        table = self.table
        seats = table.deciding if len(table.deciding) > 1 else table.acting
        if not seats:
            return
        size = 26
        lead = "Waiting for"
        stamp_text(image, (x + 16, mid), lead, size, INK, True, "lm")
        sx = x + 16 + text_size(lead, size, True)[0] + 14
        endings = [" ✓" if seat in table.answered else "" for seat in seats]
        widths = [text_size(table.names[seat] + ending, size, True)[0]
                  for seat, ending in zip(seats, endings, strict=True)]
        # Each seat takes its mark (30) and name; when they do not all fit, the longest
        # names are cut to one common width, so that short names stay whole.
        room_for_names = x + room - 12 - sx - 30 * len(seats) - 20 * (len(seats) - 1)
        cap = max(widths)
        while cap > 40 and sum(min(w, cap) for w in widths) > room_for_names:
            cap -= 8
        for seat, ending, width in zip(seats, endings, widths, strict=True):
            table.mark(draw, seat, sx + 12, mid, 11)
            name = with_ending(table.names[seat], ending, size, min(width, cap))
            stamp_text(image, (sx + 30, mid), name, size,
                       MUTED if ending else table.text_rgb(seat), True, "lm")
            sx += 30 + text_size(name, size, True)[0] + 20


def title_line(image: Image.Image, x: int, y: int, width: int, title: str, clock: str,
               size: int) -> None:
    """A header's title line at ``(x, y)``: the game's ``title``, and ``clock`` (its stage and
    the move) in ``size`` on the right, the title shortened to leave it room."""
    clock_w = text_size(clock, size)[0] + 16 if clock else 0
    stamp_text(image, (x, y + 4), title, TITLE, INK, True, width=width - clock_w)
    if clock:
        stamp_text(image, (x + width, y + 4 + TITLE // 2), clock, size, MUTED, anchor="rm")


def header_height(title: bool, lines: int, size: int = 24) -> int:
    """How tall a :class:`Header` is with or without a title and with ``lines`` lines of
    ``size`` under its banner (for a layout that reserves room for the tallest)."""
    return (TITLE_H if title else 0) + BANNER_H + (10 + (size + 7) * lines + 4 if lines else 0)


def header(view: Mapping[str, Any], width: int, *, title: str = "", what: str = "",
           size: int = 24, what_lines: int = 2, summary_lines: int = 3,
           move: bool = True) -> Header:
    """The :class:`Header` of ``view`` for a picture ``width`` wide: ``title`` is the game's
    title line, ``what`` says in the game's words what the seats to act are to do; ``size``
    is the picture's running text size (readable at 400 px)."""
    table = table_of(view)
    if table.over:
        lines = wrap(table.summary, size, width, limit=summary_lines) if summary_lines else []
    else:
        lines = wrap(what, size, width, limit=what_lines) if what else []
    return Header(table, width, title, tuple(lines), size, move)


# --------------------------------------------------------------------------- the phone frame

#: The width of a picture in the phone frame. Discord shows a picture about
#: :data:`PHONE_WIDTH` px wide on a phone, so every size here is twice what a phone shows.
FRAME_W = 800
PHONE_WIDTH = 400
#: The tallest a picture may be: 1.6 times its width, so that a phone shows it whole.
FRAME_MAX_H = FRAME_W * 16 // 10
FRAME_MARGIN = 12
#: Text sizes in the frame (px in the picture, half on a phone). Running text is
#: :data:`TEXT_PX` (12 px on a phone, the median aimed at); nothing is under :data:`SMALL_PX`
#: (10 px on a phone).
TEXT_PX = 24
SMALL_PX = 20
NAME_PX = 26
LARGE_PX = 30
#: The last move's outline: amber on an ink rim, which stands out on any fill.
LAST_MOVE: Colour = (255, 176, 0)
#: A seat's card while the seat acts is filled with this light gold.
ACTING_FILL: Colour = (255, 240, 200)
#: A legend's icons are drawn in a square this wide, centred on their spot.
KEY_ICON = 36
KEY_ROW = 44
#: Between one key and the next in a row.
KEY_GAP = 26


#: The frame's header is always this many lines of what to do (or of the result) under
#: its banner, so that the board under it never moves from one picture to the next.
HEADER_LINES = 2
#: The height of the frame's header (:func:`header_strips`), and of its title line.
HEADER_H = FRAME_MARGIN + header_height(True, HEADER_LINES, TEXT_PX)
TITLE_STRIP_H = FRAME_MARGIN + TITLE_H


def header_strips(view: Mapping[str, Any], title: str, *, stage: str = "",
                  what: str = "") -> tuple[Strip, Strip]:
    """The frame's header, the top of every picture in the frame, :data:`HEADER_H` tall:
    the game's ``title`` with its ``stage`` ("round 3 of 5") and the move on the right, the
    banner of whose turn it is (or how it ended), and ``what`` the seats to act are to do
    (once over: the result's summary), on at most :data:`HEADER_LINES` lines of
    :data:`TEXT_PX`.

    Two strips: the title line, which says the move and so changes at every move, and the
    banner with its lines, kept while whose turn it is and what they do stay the same (a
    seat's banner comes back at its next turn)."""
    head = dataclasses.replace(
        header(view, FRAME_W - 2 * FRAME_MARGIN, title=title, what=what, size=TEXT_PX,
               what_lines=HEADER_LINES, summary_lines=HEADER_LINES), stage=stage)
    # The banner does not say the move (the title line does), so its key leaves it out.
    banner = dataclasses.replace(head, title="", stage="", move=False,
                                 table=dataclasses.replace(head.table, move=0))
    return (Strip(TITLE_STRIP_H, _paint_title, (title, head.clock)),
            Strip(HEADER_H - TITLE_STRIP_H, _paint_banner, (banner,)))


def _paint_title(image: Image.Image, draw: ImageDraw.ImageDraw, title: str, clock: str) -> None:
    title_line(image, FRAME_MARGIN, FRAME_MARGIN, image.width - 2 * FRAME_MARGIN, title, clock,
               TEXT_PX)


def _paint_banner(image: Image.Image, draw: ImageDraw.ImageDraw, banner: Header) -> None:
    banner.draw(image, draw, FRAME_MARGIN, 0)


def seat_card(image: Image.Image, draw: ImageDraw.ImageDraw,
              box: tuple[float, float, float, float], seat: int, colours: Sequence[str],
              acting: bool, score: str) -> float:
    """A seat's card among the players: outlined in the seat's colour (filled and outlined
    thicker while it acts), its mark at the top left and ``score`` in large type and the
    seat's own colour at the top right, both 22 px under the top; returns where the score
    begins, for what the game puts left of it."""
    x0, top, x1, _ = box
    panel(draw, box, fill=ACTING_FILL if acting else PANEL, outline=seat_colour(seat, colours),
          radius=10, width=4 if acting else 2)
    seat_mark(draw, seat, x0 + 22, top + 22, 11, colours)
    stamp_text(image, (x1 - 12, top + 24), score, LARGE_PX, seat_text_colour(seat, colours),
               True, "rm")
    return x1 - 12 - text_size(score, LARGE_PX, True)[0]


def last_move_mark(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                   width: int = 6, radius: int = 10) -> None:
    """The last move's mark round ``box`` (a cell, a card, a room): a thick amber outline
    on an ink rim, drawn inside the box. Its legend entry is :func:`last_move_key`."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, outline=INK, width=width + 4)
    draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=max(1, radius - 2),
                           outline=LAST_MOVE, width=width)


# --------------------------------------------------------------------------- the legend


@dataclass(frozen=True)
class Key:
    """One entry of a picture's legend: ``icon(image, draw, cx, cy, *args)`` draws the
    mark or colour as the picture uses it, centred in a :data:`KEY_ICON` square, and
    ``label`` says what it means in the game's words.

    A picture declares a key for every colour and mark it draws (and only those), and
    :func:`legend` lays them out. ``icon`` is a module's function, like a strip's
    painter: the legend is kept by its keys alone.
    """

    label: str
    icon: Callable[..., None]
    args: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        _must_be_a_module_function(self.icon, "a key's icon")


def key_swatch(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
               fill: Colour, outline: Colour = INK) -> None:
    """A legend icon: a square of a flat colour."""
    h = KEY_ICON // 2 - 4
    draw.rounded_rectangle((cx - h, cy - h, cx + h, cy + h), radius=5, fill=fill,
                           outline=outline, width=2)


def key_seat(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, seat: int,
             colours: Sequence[str] = STANDARD_SEATS) -> None:
    """A legend icon: a seat's mark in its colour."""
    seat_mark(draw, seat, cx, cy, KEY_ICON // 2 - 6, colours)


def key_last_move(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: the last move's outline (:func:`last_move_mark`)."""
    h = KEY_ICON // 2 - 1
    last_move_mark(draw, (cx - h, cy - h, cx + h, cy + h), width=4, radius=6)


def key_arrow(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
              fill: Colour) -> None:
    """A legend icon: a short arrow pointing down, as arrows on a board do."""
    arrow(draw, (cx, cy - KEY_ICON / 2 + 2), (cx, cy + KEY_ICON / 2 - 2), fill, width=7,
          head=14)


def key_badge(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str,
              fill: Colour) -> None:
    """A legend icon: a numbered disc (:func:`badge`)."""
    badge(draw, (cx, cy), text, fill, radius=KEY_ICON // 2 - 2)


def last_move_key(table: Table, seat: int, what: str) -> Key:
    """The legend entry of :func:`last_move_mark`: "last move: Bo swapped c3 d3"."""
    return Key(f"last move: {table.names[seat]} {what}", key_last_move)


def _key_places(keys: Sequence[Key], width: int) -> tuple[list[tuple[int, int, str]], int]:
    """Where each key goes (the centre of its icon, from the top left corner of the
    keys, and its label cut to fit) when they flow left to right in rows of
    :data:`KEY_ROW` within ``width``; and the height of the rows."""
    places: list[tuple[int, int, str]] = []
    x, row = 0, 0
    for key in keys:
        label, needs = _key_label(key, width)
        if x > 0 and x + needs > width:
            x, row = 0, row + 1
        places.append((x + KEY_ICON // 2, row * KEY_ROW + KEY_ROW // 2, label))
        x += needs + KEY_GAP
    return places, (row + 1) * KEY_ROW if keys else 0


def _key_label(key: Key, width: int) -> tuple[str, int]:
    """``key``'s label cut to fit ``width`` beside its icon, and the width the two take."""
    label = shorten(key.label, TEXT_PX, width - KEY_ICON - 8)
    return label, KEY_ICON + 8 + text_size(label, TEXT_PX)[0]


def packed_keys(keys: Sequence[Key], lead: int = 0, width: int = FRAME_W) -> tuple[Key, ...]:
    """``keys`` (each once) in an order :func:`legend` lays out in as few rows as it can: the
    first ``lead`` stay first (the last move, say), and the others go, the widest first,
    into the first row with room for them, so that short keys fill the rows' ends."""
    keys = tuple(dict.fromkeys(keys))
    room = width - 2 * FRAME_MARGIN
    rows: list[list[Key]] = []
    used: list[int] = []
    first, rest = keys[:lead], keys[lead:]
    widest = sorted(rest, key=lambda k: -_key_label(k, room)[1])
    for n, key in enumerate((*first, *widest)):
        needs = _key_label(key, room)[1]
        free = [r for r, x in enumerate(used) if x + needs <= room]
        if n < len(first):  # in their own order, as the legend would flow them
            free = [len(rows) - 1] if rows and used[-1] + needs <= room else []
        if free:
            rows[free[0]].append(key)
            used[free[0]] += needs + KEY_GAP
        else:
            rows.append([key])
            used.append(needs + KEY_GAP)
    return tuple(key for row in rows for key in row)


def keys_height(keys: Sequence[Key], width: int) -> int:
    """How tall :func:`draw_keys` lays ``keys`` out within ``width``."""
    return _key_places(keys, width)[1]


def draw_keys(image: Image.Image, draw: ImageDraw.ImageDraw, keys: Sequence[Key], x: int,
              y: int, width: int) -> int:
    """Every key's icon and label from ``(x, y)``, flowing in rows within ``width`` (in a
    narrow column, one a row); returns the y under them."""
    places, height = _key_places(keys, width)
    for key, (cx, cy, label) in zip(keys, places, strict=True):
        _draw_key(image, draw, key, label, x + cx, y + cy)
    return y + height


def legend(keys: Sequence[Key], width: int = FRAME_W) -> Strip:
    """The legend strip: every key's icon and label flowing in rows (:func:`draw_keys`),
    under a thin rule. A mark declared twice is explained once.

    An indexed strip: each key is a piece mapped onto the palette once and kept, so a
    legend that changes only in its last move's words maps that key alone."""
    keys = tuple(dict.fromkeys(keys))
    return Strip(keys_height(keys, width - 2 * FRAME_MARGIN) + 16, _paint_legend, (keys,),
                 indexed=True)


#: Room kept round a key's icon and label in its piece: what an icon draws past its square
#: stays in it, and neighbouring pieces (:data:`KEY_GAP` apart) never overlap.
KEY_PAD = 12


def _paint_legend(image: Image.Image, draw: ImageDraw.ImageDraw,
                  keys: tuple[Key, ...]) -> None:
    x, y, width = FRAME_MARGIN, 10, image.width - 2 * FRAME_MARGIN
    if image.mode != "P":
        draw.line((x, 3, x + width, 3), fill=PANEL_EDGE, width=2)
        draw_keys(image, draw, keys, x, y, width)
        return
    # On the palette: the rule in its colour's index (a line is not blended), and each key
    # as its piece, which is drawn on the legend's flat ground like the key itself.
    tint = bytes(image.getpalette() or ())
    places, _ = _key_places(keys, width)
    pieces = [_key_piece(tint, key, label, x + cx, y + cy)
              for key, (cx, cy, label) in zip(keys, places, strict=True)]
    if None in pieces:  # a key that reaches past its piece: the legend drawn and mapped
        drawn, drawn_on = new_canvas(image.width, image.height)
        _paint_legend(drawn, drawn_on, keys)
        image.paste(drawn.quantize(palette=_palette_of_tint(tint), dither=Image.Dither.NONE))
        return
    draw.line((x, 3, x + width, 3), fill=_index_of(tint, PANEL_EDGE), width=2)
    for piece, left, top in pieces:  # type: ignore[misc]
        image.im.paste(piece.im, (left, top, left + piece.width, top + piece.height))


@lru_cache(maxsize=512)
def _key_piece(tint: bytes, key: Key, label: str, cx: int, cy: int,
               ) -> tuple[Image.Image, int, int] | None:
    """``key`` with ``label`` as :func:`draw_keys` draws it with its icon centred on
    ``(cx, cy)`` in the legend (a :func:`placed` piece :data:`KEY_PAD` wider than its icon
    and label on each side and a row tall), mapped onto the palette whose entries are
    ``tint``, and where it begins; ``None`` for an icon that reaches past its piece."""
    left, top = cx - KEY_ICON // 2 - KEY_PAD, cy - KEY_ROW // 2
    right = cx + KEY_ICON // 2 + 8 + text_size(label, TEXT_PX)[0] + KEY_PAD
    piece = placed(_draw_key, (left, top, right, top + KEY_ROW), BACKGROUND, key, label,
                   cx, cy)
    if piece is None:
        return None
    return piece.quantize(palette=_palette_of_tint(tint), dither=Image.Dither.NONE), left, top


def _draw_key(image: Image.Image, draw: ImageDraw.ImageDraw, key: Key, label: str, cx: int,
              cy: int) -> None:
    """One key of a legend, its icon centred on ``(cx, cy)``, as :func:`draw_keys` draws it."""
    key.icon(image, draw, cx, cy, *key.args)
    stamp_text(image, (cx + KEY_ICON // 2 + 8, cy), label, TEXT_PX, INK, anchor="lm")


@lru_cache(maxsize=8)
def _palette_of_tint(tint: bytes) -> Image.Image:
    """A ``P`` picture whose palette's entries are ``tint``, to map onto."""
    palette = Image.new("P", (1, 1))
    palette.putpalette(tint)
    return palette


# --------------------------------------------------------------------------- the final ranking


@dataclass(frozen=True)
class Standing:
    """A seat's standing once the game is over, as its rules rank it: ``values`` are what
    the rules compare, in their order, higher first (the score, then each tie-break), and
    ``shown`` is the score as the ranking says it ("5/6 · 12 kept")."""

    seat: int
    values: tuple[int, ...]
    shown: str


ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def tie_break_words(table: Table, standings: Mapping[int, Standing],
                    criteria: Sequence[str]) -> dict[int, str]:
    """Why seats stand where they do when the scores alone do not say, in words, by seat
    (the first of a shared place): "tied with Bo and Cy on candies toward the objective
    and candies kept"; below the seat above by a tie-break, "level with Ana on candies
    toward the objective; behind on candies kept, 9 to 10" (and "; tied with Bo" when
    the place is shared).
    ``criteria`` name the values of the standings, in the rules' order."""
    words: dict[int, str] = {}
    above: int | None = None
    for group in table.ranking or ():
        seat, parts = group[0], []
        if above is not None and seat in standings and above in standings:
            mine, theirs = standings[seat].values, standings[above].values
            k = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b),
                     None)
            if k:
                parts.append(f"level with {table.names[above]} on "
                             f"{listing(list(criteria[:k]))}; behind on {criteria[k]}, "
                             f"{mine[k]} to {theirs[k]}")
        if len(group) > 1:
            tied = listing([table.names[s] for s in group[1:]])
            parts.append(f"tied with {tied}" if parts else
                         f"tied with {tied} on {listing(list(criteria))}")
        if parts:
            words[seat] = "; ".join(parts)
        above = group[-1]
    return words


#: A ranking row: its first line's height, each line of words under it, and where the
#: names and words begin (right of the widest place and the mark).
RANK_ROW = 44
RANK_LINE = 29
RANK_INDENT = 12 + max(text_size(o, NAME_PX, True)[0] for o in ORDINALS) + 12 + 32


def _ranking_rows(table: Table, standings: Mapping[int, Standing], criteria: Sequence[str],
                  width: int) -> list[tuple[int, list[str]]]:
    """Each ranked seat and the lines of its tie-break words, wrapped to fit its row."""
    words = tie_break_words(table, standings, criteria)
    room = width - 2 * FRAME_MARGIN - RANK_INDENT - 12
    return [(seat, wrap(words[seat], TEXT_PX, room, limit=2) if seat in words else [])
            for seat in table.order()]


def ranking_strip(table: Table, standings: Sequence[Standing], criteria: Sequence[str],
                  width: int = FRAME_W) -> Strip:
    """The final ranking: "Final ranking, by …" (the rules' order of ``criteria``), then
    one row a seat, best first: its place (shared by tied seats), mark, name and score,
    and under it in words why it stands below the seat above when the scores do not say
    (:func:`tie_break_words`)."""
    by_seat = {s.seat: s for s in standings}
    rows = _ranking_rows(table, by_seat, criteria, width)
    height = 44 + sum(RANK_ROW + RANK_LINE * len(lines) for _, lines in rows) + 8
    return Strip(height, _paint_ranking, (table, tuple(standings), tuple(criteria)))


def _paint_ranking(image: Image.Image, draw: ImageDraw.ImageDraw, table: Table,
                   standings: tuple[Standing, ...], criteria: tuple[str, ...]) -> None:
    by_seat = {s.seat: s for s in standings}
    x, right = FRAME_MARGIN, image.width - FRAME_MARGIN
    lead = "Final ranking"
    stamp_text(image, (x, 22), lead, NAME_PX, INK, True, "lm")
    by = "by " + ", then ".join(criteria)
    lead_w = text_size(lead, NAME_PX, True)[0] + 12
    stamp_text(image, (x + lead_w, 22), by, TEXT_PX, MUTED, anchor="lm",
               width=right - x - lead_w)
    places = table.places()
    y = 44
    for seat, lines in _ranking_rows(table, by_seat, criteria, image.width):
        height = RANK_ROW + RANK_LINE * len(lines)
        fill = GOLD if places.get(seat) == 0 else PANEL
        panel(draw, (x, y, right, y + height - 6), fill=fill, outline=table.rgb(seat),
              radius=10, width=3)
        mid = y + RANK_ROW // 2 - 3
        place = ORDINALS[min(places.get(seat, 0), len(ORDINALS) - 1)]
        stamp_text(image, (x + 12, mid), place, NAME_PX, INK, True, "lm")
        mx = x + RANK_INDENT - 32
        table.mark(draw, seat, mx + 12, mid, 12)
        shown = by_seat[seat].shown if seat in by_seat else ""
        shown_w = text_size(shown, NAME_PX, True)[0]
        stamp_text(image, (right - 12, mid), shown, NAME_PX, INK, True, "rm")
        stamp_text(image, (mx + 32, mid), table.label(seat), NAME_PX, INK, True, "lm",
                   width=right - 24 - shown_w - mx - 32)
        ly = y + RANK_ROW - 6
        for line in lines:
            stamp_text(image, (mx + 32, ly + RANK_LINE // 2 - 2), line, TEXT_PX, INK, anchor="lm")
            ly += RANK_LINE
        y += height


# --------------------------------------------------------------------------- palettes


@dataclass(frozen=True)
class Sample:
    """A real game a renderer's palette is sampled from: its seats, seed and options, after
    how many moves pictures are taken (:data:`END`: once it is over) and for whom
    (``None``: a spectator; a seat: its own picture, hand and all).

    Moves are the game's AI's (``Engine.ai_action``), or with ``ai`` off, legal moves
    picked at random from the seed: for a game whose AI takes long to warm up, as
    the palette is made when a process draws its first picture.
    """

    players: int
    seed: int
    moves: tuple[int, ...]
    viewers: tuple[int | None, ...] = (None,)
    options: tuple[tuple[str, Any], ...] = ()
    ai: bool = True


#: As a sample's move: the end of the game.
END = 1 << 20
SAMPLE_NAMES = ("Ana", "Bartholomew", "Cy", "Dmitri", "Eve", "Fay")


@lru_cache(maxsize=16)
def real_views(slug: str, samples: tuple[Sample, ...]) -> tuple[dict[str, Any], ...]:
    """Views of real games of ``slug``, made by its own rules and played by its AI.

    Palettes are taken from pictures of these rather than of views written by
    hand, so that they show what real views hold and cannot drift from their
    schema. Played once per process (a few hundred milliseconds at most).
    """
    game = GAMES[slug]
    views: list[dict[str, Any]] = []
    for sample in samples:
        seats = [SeatInfo(SAMPLE_NAMES[i % len(SAMPLE_NAMES)], ai=i % 2 == 1)
                 for i in range(sample.players)]
        state = game.new(seats, sample.seed, dict(sample.options))
        pick = random.Random(sample.seed)
        played = 0
        for target in sorted(set(sample.moves)):
            while played < target and game.to_act(state):
                seat = min(game.to_act(state))
                move = game.ai_action(state, seat) if sample.ai else \
                    pick.choice(game.legal_actions(state, seat))
                state = game.apply(state, seat, move).state
                played += 1
            views.extend(game.view(state, viewer) for viewer in sample.viewers)
            if not game.to_act(state):
                break
    return tuple(views)


#: Drawn flat in every game's pictures, so kept exact in every palette: the seat colours
#: first (a seat must never drift toward another), then the frame's own colours.
KEPT: tuple[Colour, ...] = (*(paint.rgb for paint in PAINTS.values()), BACKGROUND, INK,
                            MUTED, WHITE, PANEL, PANEL_EDGE, HIGHLIGHT, GOLD)


def palette_of(pictures: Sequence[Image.Image], keep: Iterable[Colour] = ()) -> Image.Image:
    """A renderer's one fixed palette, from ``pictures`` it drew of :func:`real_views`:
    every colour of :data:`KEPT` and ``keep`` exact, the rest an octree of the pictures.

    The octree sees every other pixel of every other row: picking (never blending)
    pixels keeps the pictures' colours and their shares at a quarter of the cost.
    """
    halves = [p.resize((p.width // 2, p.height // 2), Image.Resampling.NEAREST)
              for p in pictures]
    sheet = Image.new("RGB", (max(h.width for h in halves), sum(h.height for h in halves)),
                      BACKGROUND)
    y = 0
    for half in halves:
        sheet.paste(half, (0, y))
        y += half.height
    return make_palette_keeping(sheet, [*KEPT, *keep])


# --------------------------------------------------------------------------- PNG


def make_palette(sample: Image.Image) -> Image.Image:
    """A 256-colour palette taken from a picture that uses every colour a renderer draws."""
    return sample.quantize(256, method=Image.Quantize.FASTOCTREE)


def make_palette_keeping(sample: Image.Image, colours: Sequence[Colour]) -> Image.Image:
    """Like :func:`make_palette`, but every colour in ``colours`` is drawn exactly.

    An octree palette averages the colours of a bucket, so a flat fill that shares
    its bucket with its anti-aliased edges comes out a shade off (a seat colour,
    white text). And Pillow maps a colour onto the palette entry nearest to the
    corner of its small cell of colour space, not to the colour itself, so an
    entry next to a kept colour can still take its place: such an entry is made
    a copy of the colour it takes. Kept colours that share a cell with each other
    cannot all stay exact (the first one listed wins); every other one does.
    """
    kept = list(dict.fromkeys(tuple(c) for c in colours))[:255]
    rest = sample.quantize(256 - len(kept), method=Image.Quantize.FASTOCTREE)
    entries = (rest.getpalette() or [])[: 3 * (256 - len(kept))]
    entries += [0] * (3 * (256 - len(kept)) - len(entries))
    palette = entries + [v for colour in kept for v in colour]
    out = Image.new("P", (1, 1))
    out.putpalette(palette)
    first_kept = 256 - len(kept)
    probe = Image.new("RGB", (len(kept), 1))
    probe.putdata(kept)
    for _ in range(first_kept):
        got = list(probe.quantize(palette=out, dither=Image.Dither.NONE).tobytes())
        thief = next((index for colour, index in zip(kept, got, strict=True)
                      if index < first_kept and tuple(palette[3 * index:3 * index + 3]) != colour),
                     None)
        if thief is None:
            break
        colour = kept[got.index(thief)]
        palette[3 * thief:3 * thief + 3] = colour
        out.putpalette(palette)
    return out


def to_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode as PNG, mapped onto ``palette`` when given.

    Measured on a 1240x820 Sugar Blast picture (2 cores, Pillow 11): full-colour
    PNG takes 25 ms at compress_level 1 (96 KB), 35 ms at the default level and
    150 ms with ``optimize``; mapping onto a fixed 256-colour palette first leaves
    zlib a quarter of the data. A per-picture octree palette is 2-3 ms slower for
    the same size, hence one fixed palette per renderer.

    Measured on 40 public pictures of real AI games of every game,
    1000 px wide and 1100-2100 px tall (Pillow 13, zlib 1.2.13, 2 cores): mapping
    costs 1.6 ns a pixel (2-3.5 ms), whatever the picture holds (a plain canvas
    maps as slowly), and Pillow's PNG writer spent 4-7 ms in zlib level 1 (65-95
    KB). zlib's strategies (RLE, fixed, Huffman only) and levels 2-3 are no faster;
    zlib-ng is 1.5-2 ms at level 1 but 10-20 % larger; libdeflate is no faster.
    ISA-L's deflate (:mod:`isal`) at level 1 takes 0.7-1 ms for files 5-15 %
    smaller, so the mapped picture is written with it. Encoding went from 7-11 ms
    to 3.5-5.5 ms a picture (median sizes 68-92 KB to 63-86 KB); mapping is now
    most of it.
    """
    if palette is None:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=1)
        return buffer.getvalue()
    return indexed_png(image.quantize(palette=palette, dither=Image.Dither.NONE))


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def indexed_png(image: Image.Image) -> bytes:
    """A ``P`` picture as an 8-bit palette PNG, compressed with ISA-L at level 1."""
    return _png(image.size, image.getpalette() or [0, 0, 0], _png_rows(image))


def _png_rows(image: Image.Image) -> bytes:
    """The rows of the ``P`` picture ``image`` as a PNG stores them: each its filter byte
    (0: unfiltered, as Pillow stores palette pictures too; filters only help where
    neighbouring values are close, and indices are not), then its pixels."""
    width, height = image.size
    # Column 0 of each stored row is its filter byte: pasting the picture one column to
    # the right of a zeroed one is a third the cost of a join in Python.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    return rows.tobytes()


def _png(size: tuple[int, int], palette: Sequence[int], rows: bytes) -> bytes:
    """An 8-bit palette PNG of ``size`` whose stored rows are ``rows``.

    Compressed in one call: ISA-L's one-shot deflate writes the same bytes for the same
    rows every time, where its streaming compressor does not always (the same picture
    must be the same file, whichever process drew it)."""
    width, height = size
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", bytes(palette)),
                     _chunk(b"IDAT", isal_zlib.compress(rows, 1)), _chunk(b"IEND", b"")))


# --------------------------------------------------------------------------- strips


@dataclass(frozen=True)
class Strip:
    """A band of a picture as wide as the picture: ``height`` rows of ``ground`` on which
    ``paint(image, draw, *args)`` draws from its top left corner, from ``args`` alone.

    A picture made of strips (:func:`strips_png`) keeps each strip's rows, mapped onto the
    palette (and compressed while kept), by what drew them, the painter and its arguments:
    a strip whose arguments did not change since any earlier picture (a hideout nobody
    touched, a market nobody bought from) is neither drawn nor mapped onto the palette
    again. So ``paint`` must be a function of the module's own (not a lambda, a closure or
    a method, which could read what the key does not hold), and ``args`` must hold
    everything it draws: scalars, tuples, frozen dataclasses of those, and JSON (a dict or
    list of a view's parts; written out as JSON, a tuple and a list are the same key).

    A strip that changes with every move (a map a card is laid on) is not ``kept``: it is
    drawn every time, and its arguments are not written out as a key.

    An ``indexed`` strip's painter can also draw on the palette: handed a ``P`` picture on
    it instead of a full-colour one, it pastes pieces it mapped onto the palette once
    (:func:`mapped_sprite`, kept with its sprites), so the strip needs no mapping. It must
    then draw exactly what its full-colour drawing maps to: opaque pieces only, no
    blending (a board of tiles pasted from sprites).
    """

    height: int
    paint: Callable[..., None]
    args: tuple[Any, ...] = ()
    ground: Colour = BACKGROUND
    kept: bool = True
    indexed: bool = False

    def __post_init__(self) -> None:
        _must_be_a_module_function(self.paint, "a strip's painter")

    def draw(self, width: int) -> Image.Image:
        """The strip alone, in full colour."""
        image, draw = new_canvas(width, self.height, self.ground)
        self.paint(image, draw, *self.args)
        return image

    def mapped(self, width: int, palette: Image.Image) -> Image.Image:
        """The strip alone on ``palette`` (a ``P`` picture): drawn in full colour and mapped,
        or, ``indexed``, drawn on it."""
        if not self.indexed:
            return self.draw(width).quantize(palette=palette, dither=Image.Dither.NONE)
        colours = palette.getpalette() or [0, 0, 0]
        image = Image.new("P", (width, self.height), _index_of(bytes(colours), self.ground))
        image.putpalette(colours)
        self.paint(image, ImageDraw.Draw(image), *self.args)
        return image

    def key(self, width: int) -> tuple[Any, ...]:
        """What the strip's rows follow from, exactly: its arguments written out as JSON,
        each dict's keys in their own order (a painter may draw them in that order)."""
        return (self.paint.__module__, self.paint.__qualname__, width, self.height,
                self.ground, json.dumps(self.args, separators=(",", ":"), default=_written))


def mapped_sprite(sprite: Image.Image, palette: Image.Image) -> tuple[Image.Image, Image.Image]:
    """An ``RGBA`` sprite whose pixels are opaque or transparent, on ``palette`` (a ``P``
    picture): its colours mapped as a picture's are, and its transparency as a mask, for an
    ``indexed`` strip to paste (``image.paste(indices, box, mask)``)."""
    indices = sprite.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
    return indices, sprite.getchannel("A")


@lru_cache(maxsize=64)
def _index_of(tint: bytes, colour: Colour) -> int:
    """The palette index ``colour`` maps to on the palette whose entries are ``tint``."""
    pixel = Image.new("RGB", (1, 1), colour).quantize(palette=_palette_of_tint(tint),
                                                       dither=Image.Dither.NONE)
    return int(pixel.getpixel((0, 0)))  # type: ignore[arg-type]


def _must_be_a_module_function(function: Callable[..., Any], what: str) -> None:
    """Refuse a lambda, closure or method as ``what``: it could read what a strip's key does
    not hold, so a strip kept by its key would be wrong."""
    if "<" in function.__qualname__ or getattr(function, "__closure__", None) \
            or hasattr(function, "__self__"):
        raise ValueError(f"{what} must be a module's function, not {function.__qualname__}: "
                         f"the strip is kept by its arguments alone")


def _written(value: Any) -> Any:
    """A frozen dataclass as JSON (its class and fields), and a module's function as its
    module and name, for a strip's key."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type) \
            and value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return [type(value).__qualname__,
                *(getattr(value, f.name) for f in dataclasses.fields(value))]
    if callable(value) and hasattr(value, "__module__") and hasattr(value, "__qualname__"):
        _must_be_a_module_function(value, "a function in a strip's arguments")
        return f"{value.__module__}.{value.__qualname__}"
    raise TypeError(f"a strip's arguments cannot hold a {type(value).__name__}")


def blank(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """Paints nothing: a strip of its ground alone (a margin)."""


def stacked(width: int, strips: Sequence[Strip]) -> Image.Image:
    """The strips one under the other as one full-colour picture (for palettes, movement
    frames and tests; :func:`strips_png` writes the same rows)."""
    image = Image.new("RGB", (width, sum(s.height for s in strips)), BACKGROUND)
    y = 0
    for strip in strips:
        image.paste(strip.draw(width), (0, y))
        y += strip.height
    return image


class _Kept:
    """The stored rows of strips drawn lately, compressed, by key, the least lately used
    dropped first past :data:`STRIP_BYTES` in all. One per process; pictures drawn at
    once in threads share it under a lock."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self.bands: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        with self.lock:
            band = self.bands.get(key)
            if band is not None:
                self.bands.move_to_end(key)
            return band

    def put(self, key: tuple[Any, ...], band: bytes) -> None:
        with self.lock:
            if key in self.bands:
                return
            self.bands[key] = band
            self.used += len(band)
            while self.used > self.budget and self.bands:
                _, old = self.bands.popitem(last=False)
                self.used -= len(old)

    def clear(self) -> None:
        with self.lock:
            self.bands.clear()
            self.used = 0


#: The most compressed strip rows a process keeps: a Sugar Heist picture's strips are some
#: 70 KB, and a render worker draws some 25 games' pictures in a busy minute.
STRIP_BYTES = 24 * 1024 * 1024
_KEPT = _Kept(STRIP_BYTES)


def forget_strips() -> None:
    """Drop every kept strip and legend key (tests that count what is drawn start from
    none)."""
    _KEPT.clear()
    _key_piece.cache_clear()
    placed.cache_clear()


def strips_png(width: int, strips: Sequence[Strip], palette: Image.Image) -> bytes:
    """The strips one under the other as a PNG on ``palette``: the same file as
    ``to_png(stacked(width, strips), palette)``, but a strip kept from an earlier picture
    (same painter, arguments, size and palette) is copied, not drawn again.

    Each strip is mapped onto the palette on its own; mapping is per pixel (no
    dithering), so a strip maps as it would inside the whole picture. The rows are then
    compressed in one call, as :func:`to_png` compresses them: a kept strip's rows are
    kept compressed (a twentieth of their size) and inflated to join them (ISA-L inflates
    2 GB a second).
    """
    colours = palette.getpalette() or [0, 0, 0]
    tint = bytes(colours)  # hashed once (bytes keep their hash), for every strip's key
    bands = []
    for strip in strips:
        key = (tint, *strip.key(width)) if strip.kept else None
        kept = _KEPT.get(key) if key is not None else None
        if kept is not None:
            bands.append(isal_zlib.decompress(kept, wbits=-15))
            continue
        band = _png_rows(strip.mapped(width, palette))
        if key is not None:
            _KEPT.put(key, isal_zlib.compress(band, 1, wbits=-15))
        bands.append(band)
    return _png((width, sum(s.height for s in strips)), colours, b"".join(bands))


#: Each game's palette as :meth:`Pictures.made_palette` makes it, kept beside the code
#: (written by ``python -m tools.palettes``; a test makes each again and compares), so that
#: a freshly started process draws its first picture at once, not after a game's worth of
#: pictures drawn for its palette (seconds on a busy machine: the first board after Start).
PALETTES = "palettes.json"


@cache
def kept_palettes() -> dict[str, str]:
    """The palettes kept beside the code, by game: 256 colours as hex RGB triples."""
    try:
        with open(__file__.rsplit("/", 1)[0] + "/" + PALETTES, encoding="utf-8") as kept:
            palettes: dict[str, str] = json.load(kept)
    except (OSError, ValueError):
        return {}
    return palettes


class Pictures:
    """One game's pictures, made of the strips ``strips(view)`` lays out ``width`` wide:
    :meth:`draw` in full colour (for its palette and tests), :attr:`palette`, the one kept
    beside the code (:func:`kept_palettes`) or else made once a process
    (:meth:`made_palette`: from its own pictures of :func:`real_views` of ``samples``, and
    ``extra()`` pictures for what those games did not show, with the colours of ``keep()``
    exact), and :meth:`render`, the PNG. A renderer makes one and names its parts::

        PICTURES = Pictures("sugar-blast", WIDTH, _strips, PALETTE_GAMES, keep=...)
        _draw, _palette, render = PICTURES.draw, PICTURES.palette, PICTURES.render
    """

    def __init__(self, slug: str, width: int,
                 strips: Callable[[dict[str, Any]], Sequence[Strip]],
                 samples: tuple[Sample, ...],
                 keep: Callable[[], Iterable[Colour]] = tuple,
                 extra: Callable[[], Sequence[Image.Image]] = list) -> None:
        self.slug, self.width, self.strips, self.samples = slug, width, strips, samples
        self._keep, self._extra = keep, extra
        #: The palette, read or made at the first call (``palette.cache_clear()`` forgets
        #: it).
        self.palette = cache(self._palette)

    def draw(self, view: dict[str, Any]) -> Image.Image:
        """The picture of ``view`` in full colour."""
        return stacked(self.width, self.strips(view))

    def _palette(self) -> Image.Image:
        kept = kept_palettes().get(self.slug)
        if kept is None:
            return self.made_palette()
        palette = Image.new("P", (1, 1))
        palette.putpalette(bytes.fromhex(kept))
        return palette

    def made_palette(self) -> Image.Image:
        """The palette made from the game's own pictures (see the class text)."""
        pictures = [self.draw(view) for view in real_views(self.slug, self.samples)]
        return palette_of([*pictures, *self._extra()], self._keep())

    def render(self, view: dict[str, Any]) -> bytes:
        """The picture of ``view`` as PNG bytes, on the palette."""
        return strips_png(self.width, self.strips(view), self.palette())


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, kind, data and the CRC of kind and data."""
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)
