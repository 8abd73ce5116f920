"""Drawing helpers shared by every game's renderer: fonts, colours, text, panels, PNG."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from bot.games.content import data_path

Colour = tuple[int, int, int]

BACKGROUND: Colour = (253, 246, 236)
INK: Colour = (45, 35, 40)
MUTED: Colour = (120, 105, 110)
PANEL: Colour = (255, 252, 247)
PANEL_EDGE: Colour = (222, 205, 190)
HIGHLIGHT: Colour = (255, 196, 0)

#: Seat colours from the Okabe-Ito palette, told apart with every common colour-vision type.
SEAT_COLOURS: tuple[Colour, ...] = (
    (0, 114, 178),    # blue
    (213, 94, 0),     # vermillion
    (0, 158, 115),    # bluish green
    (204, 121, 167),  # reddish purple
)


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans from ``data/fonts`` (shipped, so images look the same everywhere)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(data_path("fonts", name)), size)


def text_size(draw: ImageDraw.ImageDraw, text: str, size: int, bold: bool = False
              ) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size, bold))
    return right - left, bottom - top


def centred_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                 fill: Colour = INK, bold: bool = False) -> None:
    """Text centred on ``xy``."""
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor="mm")


def fitted_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                max_width: int, fill: Colour = INK, bold: bool = False,
                anchor: str = "la") -> None:
    """Text at ``xy``, shortened with an ellipsis if wider than ``max_width``."""
    while text and text_size(draw, text, size, bold)[0] > max_width:
        text = text[:-2] + "…"
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)


def wrap(draw: ImageDraw.ImageDraw, text: str, size: int, max_width: int,
         bold: bool = False) -> list[str]:
    """Split ``text`` into lines no wider than ``max_width``."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_size(draw, f"{lines[-1]} {word}", size, bold)[0] <= max_width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def panel(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: Colour = PANEL,
          outline: Colour = PANEL_EDGE, radius: int = 14, width: int = 2) -> None:
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


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
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, ImageDraw.Draw(image)


def make_palette(sample: Image.Image) -> Image.Image:
    """A 256-colour palette taken from a picture that uses every colour a renderer draws."""
    return sample.quantize(256, method=Image.Quantize.FASTOCTREE)


def to_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode as PNG, mapped onto ``palette`` when given.

    Full-colour PNG encoding of a 1200 px board takes ~18 ms here; mapping onto a
    fixed palette first takes ~1 ms and leaves zlib a quarter of the data, so the
    whole encode is about 4 ms and the file half the size.
    """
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
