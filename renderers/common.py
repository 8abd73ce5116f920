"""Drawing helpers shared by every game's renderer: fonts, colours, text, panels, PNG."""

from __future__ import annotations

import io
import math
import struct
import zlib
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from bot.games.colours import PAINTS, SHAPES, STANDARD_SEATS, seat_paint, seat_shape
from bot.games.content import data_path
from bot.games.words import STANDING_IN, STANDING_IN_SHORT

Colour = tuple[int, int, int]
#: Draws a legend marker centred on the given point.
Marker = Callable[[float, float], None]

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
    draw.polygon(points, fill=fill, outline=outline, width=width)


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


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans from ``candybot_data/fonts`` (shipped, so images look the same everywhere)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(data_path("fonts", name)), size)


def text_size(draw: ImageDraw.ImageDraw, text: str, size: int, bold: bool = False
              ) -> tuple[int, int]:
    """Width and height of ``text`` in pixels (``draw`` is unused; measures are cached)."""
    return _measure(text, size, bold)


@lru_cache(maxsize=8192)
def _measure(text: str, size: int, bold: bool) -> tuple[int, int]:
    # Pictures repeat the same labels move after move; measuring is a third of text cost.
    left, top, right, bottom = font(size, bold).getbbox(text)
    return right - left, bottom - top


def centred_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                 fill: Colour = INK, bold: bool = False) -> None:
    """Text centred on ``xy``."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor="mm")


def stamp_text(image: Image.Image, xy: tuple[float, float], text: str, size: int,
               fill: Colour = INK, bold: bool = False, anchor: str = "la") -> None:
    """Like ``draw.text`` on ``image``, but each (text, size, weight, anchor) is rasterised once.

    Pictures repeat the same labels move after move (spot names, player names,
    counts); rasterising text is most of a picture's drawing time, and pasting a
    kept mask costs a tenth of it. Same pixels as ``draw.text``.
    """
    mask, (dx, dy) = _text_mask(text, size, bold, anchor)
    if mask is not None:
        image.paste(fill, (round(xy[0]) + dx, round(xy[1]) + dy), mask)


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool, anchor: str
               ) -> tuple[Image.Image | None, tuple[int, int]]:
    # getmask2 is the one rasterisation draw.text itself makes; wrapping its result
    # (Pillow's own idiom, Image()._new) keeps a miss as cheap as a plain draw.text.
    core, offset = font(size, bold).getmask2(text, "L", anchor=anchor)
    if core.size[0] == 0 or core.size[1] == 0:
        return None, (0, 0)
    return Image.Image()._new(core), (int(offset[0]), int(offset[1]))


def outlined_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                  fill: Colour = WHITE, outline: Colour = INK, stroke: int = 2,
                  bold: bool = True, anchor: str = "mm") -> None:
    """Text with a contrasting outline, readable on any background."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor, stroke_width=stroke,
              stroke_fill=outline)


def shorten(draw: ImageDraw.ImageDraw, text: str, size: int, max_width: int,
            bold: bool = False) -> str:
    """``text`` cut and ended with an ellipsis so that it fits ``max_width``.

    A name marked as stood in for by an AI (:data:`~bot.games.words.STANDING_IN`)
    keeps its mark, in the short form if need be: what follows the mark is cut
    first, then the name itself.
    """
    if text_size(draw, text, size, bold)[0] <= max_width:
        return text
    name, mark, rest = text.partition(STANDING_IN)
    if not mark:
        return _cut(draw, text, size, max_width, bold)
    for tag in (STANDING_IN, STANDING_IN_SHORT):
        if text_size(draw, name + tag + rest, size, bold)[0] <= max_width:
            return name + tag + rest
    for tag in (STANDING_IN, STANDING_IN_SHORT):
        if rest and text_size(draw, name + tag + "…", size, bold)[0] <= max_width:
            return _cut(draw, name + tag + rest, size, max_width, bold)
    room = max_width - text_size(draw, STANDING_IN_SHORT, size, bold)[0]
    return _cut(draw, name, size, room, bold) + STANDING_IN_SHORT


def _cut(draw: ImageDraw.ImageDraw, text: str, size: int, max_width: int,
         bold: bool) -> str:
    """``text`` cut from the end and ended with an ellipsis so that it fits ``max_width``."""
    if text_size(draw, text, size, bold)[0] <= max_width:
        return text
    while len(text) > 1 and text_size(draw, text + "…", size, bold)[0] > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def fitted_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                max_width: int, fill: Colour = INK, bold: bool = False,
                anchor: str = "la") -> None:
    """Text at ``xy``, shortened with an ellipsis if wider than ``max_width``."""
    text = shorten(draw, text, size, max_width, bold)
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)


def wrap(draw: ImageDraw.ImageDraw, text: str, size: int, max_width: int,
         bold: bool = False) -> list[str]:
    """Split ``text`` into lines no wider than ``max_width``."""
    return list(_wrapped(text, size, max_width, bold))


@lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, max_width: int, bold: bool) -> tuple[str, ...]:
    lines: list[str] = []
    for word in text.split():
        if lines and _measure(f"{lines[-1]} {word}", size, bold)[0] <= max_width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return tuple(lines)


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


def legend(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
           entries: Sequence[tuple[Marker, str]], columns: int = 2, size: int = 18,
           row_height: int = 38, marker_width: int = 40) -> None:
    """A card listing markers with their names, filled row by row in ``columns``."""
    panel(draw, box)
    x0, y0, x1, _ = box
    column_width = (x1 - x0 - 16) // columns
    for i, (marker, label) in enumerate(entries):
        x = x0 + 8 + (i % columns) * column_width
        y = y0 + 8 + (i // columns) * row_height + row_height / 2
        marker(x + marker_width / 2, y)
        fitted_text(draw, (x + marker_width + 6, y), label, size,
                    column_width - marker_width - 8, INK, anchor="lm")


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


def new_canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank picture in the shared background colour, with its drawing context."""
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, ImageDraw.Draw(image)


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

    Measured again (issue 19) on 40 public pictures of real AI games of every game,
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
    """A ``P`` picture as an 8-bit palette PNG, compressed with ISA-L at level 1.

    Rows are stored unfiltered, as Pillow stores palette pictures too (filters
    only help where neighbouring values are close, and indices are not).
    """
    width, height = image.size
    # Column 0 of each stored row is its filter byte (0, none): pasting the picture
    # one column to the right of a zeroed one is a third the cost of a join in Python.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", header),
                     _chunk(b"PLTE", bytes(image.getpalette() or [0, 0, 0])),
                     _chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), 1)),
                     _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, kind, data and the CRC of kind and data."""
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)
