"""Sugar Blast picture: the board with its seats and tilt, a key beside it, a panel below.

The picture is 1000 px wide so that Discord's phone width (about 400 px) shows
it at 40%: the text a player reads (names, scores, kept candies, objective,
what to do now) is 22-34 px here, 9-14 px on a phone. Seats are known by their
mark (shape) as well as their colour, on the board's edges and in the panel.

Each candy kind has its own silhouette as well as its own colour, so the board
reads without colour vision and at phone size. Candies are drawn once per size
at four times the resolution and scaled down (smooth edges), then pasted; the
parts that never change (board frame, coordinates, legend) are drawn once too. The
power cards' strip under the panel is kept while its tokens stay where they are
(:class:`~renderers.common.Strip`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    END,
    GOLD,
    INK,
    MUTED,
    PANEL,
    WHITE,
    Colour,
    Sample,
    Strip,
    Table,
    arrow,
    badge,
    font,
    header,
    ink_on,
    new_canvas,
    outlined_text,
    palette_of,
    panel,
    paste_at,
    paste_centred,
    real_views,
    shorten,
    smooth_sprite,
    stacked,
    stamp_lines,
    stamp_text,
    strips_png,
    table_of,
    text_size,
    with_ending,
    wrap,
)

WIDTH = 1000
SIZE = 6
#: Texts that need not read at 400 px: the move counter (the message names the move).
FINE_PRINT = (r"move \d+",)
CELL = 96
BOARD = CELL * SIZE
MARGIN = 10
GAP, BAND = 46, 40  # space between board and a seat's name band; the band's thickness
BX = BY = MARGIN + BAND + GAP  # top-left corner of the board
SIDE_X = BX + BOARD + GAP + BAND + 16  # the key column right of the board
SIDE_W = WIDTH - SIDE_X - 12
PANEL_Y = BY + BOARD + GAP + BAND + 14  # the panel below the board: two columns
LEFT_X, COL_W = 14, 478
RIGHT_X = WIDTH - 14 - COL_W
PANEL_H = 350
HEIGHT = PANEL_Y + PANEL_H + 12
STRIP = 152  # the power cards' strip under the panel, when cards are in play
ROW = 84  # one seat's row in the panel
TEXT = 24  # the panel's running text
LEADING = 31
LETTERS = "abcdef"
CANDY_RADIUS = 35

CANDY_COLOURS: dict[str, Colour] = {
    "marshmallow": (246, 170, 196),
    "corn": (245, 150, 30),
    "cane": (214, 40, 40),
    "lollipop": (128, 72, 190),
    "gumdrop": (40, 150, 70),
    "truffle": (110, 64, 40),
}
BLASTED: Colour = (255, 214, 224)
BURST: Colour = (225, 30, 80)
SWAPPED: Colour = (255, 184, 0)
REPLACED: Colour = (0, 150, 210)
#: Okabe-Ito hues again, but in an order that starts unlike the seat colours.
CHOICE_COLOURS: tuple[Colour, ...] = ((0, 114, 178), (213, 94, 0), (0, 158, 115),
                                      (204, 121, 167), (86, 180, 233), (90, 90, 90))
CELL_LIGHT: Colour = (255, 250, 242)
CELL_DARK: Colour = (244, 232, 216)
FRAME: Colour = (232, 214, 196)
FRAME_EDGE: Colour = (180, 150, 125)
CARD: Colour = (255, 238, 214)
CARD_EDGE: Colour = (235, 150, 40)
ACTIVE_ROW: Colour = (255, 240, 200)
WINNER_ROW: Colour = (255, 234, 160)
CELL_EDGE: Colour = (215, 195, 175)
BLAST_NAMES = {"three": "3 in a line", "four": "4 in a line", "big": "5+ in a line",
               "mega": "Mega-Blast"}
ORDINALS = ("1st", "2nd", "3rd", "4th")

Cell = tuple[int, int]


# --------------------------------------------------------------------------- candies


def _candy_shape(draw: ImageDraw.ImageDraw, kind: str | None, cx: float, cy: float,
                 r: float) -> None:
    """One candy (or the "any kind" chip for ``None``) centred on (cx, cy), about ``r`` round."""
    line = max(2, round(r / 11))
    if kind is None:  # the objective's "any kind": a grey chip with a question mark
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(236, 236, 236), outline=MUTED,
                     width=line)
        draw.text((cx, cy + r * 0.05), "?", font=font(round(r * 1.3), True), fill=MUTED,
                  anchor="mm")
        return
    colour = CANDY_COLOURS.get(kind, (160, 160, 160))
    if kind == "marshmallow":  # a soft cylinder: rounded block with a top ellipse
        draw.rounded_rectangle((cx - r * 0.8, cy - r * 0.7, cx + r * 0.8, cy + r * 0.9),
                               radius=r * 0.35, fill=colour, outline=INK, width=line)
        draw.ellipse((cx - r * 0.8, cy - r * 0.95, cx + r * 0.8, cy - r * 0.4),
                     fill=(253, 220, 232), outline=INK, width=line)
    elif kind == "corn":  # a triangle in three bands, tip up
        top, base, half = cy - r, cy + r * 0.88, r * 0.98

        def at(t: float) -> tuple[float, float, float]:
            return top + (base - top) * t, cx - half * t, cx + half * t

        for t0, t1, fill in ((0.0, 0.36, (255, 250, 240)), (0.36, 0.7, colour),
                             (0.7, 1.0, (250, 210, 40))):
            y0, l0, r0 = at(t0)
            y1, l1, r1 = at(t1)
            draw.polygon([(l0, y0), (r0, y0), (r1, y1), (l1, y1)], fill=fill)
        draw.polygon([(cx, top), (cx + half, base), (cx - half, base)], outline=INK,
                     width=line)
    elif kind == "cane":  # a striped hook
        w = r * 0.42
        stem_x = cx - r * 0.15
        hook = (stem_x, cy - r * 0.98, cx + r * 0.8, cy - r * 0.12)
        for width, fill in ((w + 2 * line, INK), (w, colour)):
            draw.arc(hook, 180, 360, fill=fill, width=round(width))
            draw.line((stem_x, cy - r * 0.55, stem_x, cy + r * 0.95), fill=fill,
                      width=round(width))
        draw.line((stem_x, cy - r * 0.55, stem_x, cy + r * 0.95 - line), fill=colour,
                  width=round(w))
        for i in range(4):
            y = cy - r * 0.3 + i * r * 0.33
            draw.line((stem_x - w / 2, y + w * 0.35, stem_x + w / 2, y - w * 0.35), fill=WHITE,
                      width=max(2, round(w / 3)))
        draw.line((cx + r * 0.55, cy - r * 0.85, cx + r * 0.72, cy - r * 0.5), fill=WHITE,
                  width=max(2, round(w / 3)))
    elif kind == "lollipop":  # a disc with a spiral, on a stick
        draw.line((cx, cy + r * 0.2, cx, cy + r), fill=INK, width=round(r / 5) + 2 * line)
        draw.line((cx, cy + r * 0.2, cx, cy + r - line), fill=(245, 238, 225),
                  width=round(r / 5))
        d = r * 0.72
        ccy = cy - r * 0.95 + d
        draw.ellipse((cx - d, ccy - d, cx + d, ccy + d), fill=colour, outline=INK, width=line)
        points = [(cx + d * 0.85 * s / 60 * math.cos(s * 0.35),
                   ccy + d * 0.85 * s / 60 * math.sin(s * 0.35)) for s in range(61)]
        draw.line(points, fill=WHITE, width=max(2, round(line * 1.1)))
    elif kind == "gumdrop":  # a dome with sugar dots
        left, right, bottom = cx - r * 0.92, cx + r * 0.92, cy + r * 0.62
        draw.chord((left, cy - r * 0.95, right, cy + r * 1.15), 180, 360, fill=colour)
        draw.rectangle((left, cy + r * 0.1, right, bottom), fill=colour)
        draw.arc((left, cy - r * 0.95, right, cy + r * 1.15), 180, 360, fill=INK, width=line)
        draw.line((left, cy + r * 0.1, left, bottom, right, bottom, right, cy + r * 0.1),
                  fill=INK, width=line, joint="curve")
        dot = max(1.5, r / 12)
        for dx, dy in ((-0.45, -0.2), (0.1, -0.5), (0.45, -0.05), (-0.1, 0.25), (0.55, 0.38),
                       (-0.6, 0.4)):
            x, y = cx + dx * r, cy + dy * r
            draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=(225, 255, 225))
    elif kind == "truffle":  # a hexagon with a drizzle
        points = [(cx + r * 0.95 * math.cos(math.radians(60 * i + 30)),
                   cy + r * 0.95 * math.sin(math.radians(60 * i + 30))) for i in range(6)]
        draw.polygon(points, fill=colour, outline=INK, width=line)
        zig = [(cx - r * 0.55 + i * r * 0.22, cy + (r * 0.18 if i % 2 else -r * 0.18))
               for i in range(6)]
        draw.line(zig, fill=(240, 215, 170), width=max(2, round(line * 1.2)), joint="curve")
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=line)


@cache
def candy_sprite(kind: str | None, radius: int) -> Image.Image:
    """A candy drawn with smooth edges on a transparent square of side ``2 * radius + 4``."""
    side = 2 * radius + 4
    return smooth_sprite(side, side, lambda draw, k: _candy_shape(draw, kind, side * k / 2,
                                                                  side * k / 2, radius * k))


def paste_candy(image: Image.Image, kind: str | None, cx: float, cy: float,
                radius: int) -> None:
    """Paste the candy (``None``: the "any kind" chip) centred on (cx, cy)."""
    paste_centred(image, candy_sprite(kind, radius), cx, cy)


# --------------------------------------------------------------------------- power tokens

TOFFEE: Colour = (214, 150, 70)
TOFFEE_DARK: Colour = (150, 90, 30)
STAR_GOLD: Colour = (255, 205, 40)
STAR_EDGE: Colour = (205, 135, 0)
JELLY: Colour = (240, 190, 240)
JELLY_EDGE: Colour = (170, 70, 170)
ICE: tuple[int, int, int, int] = (140, 205, 255, 120)
ICE_EDGE: Colour = (40, 120, 215)
CAGE: Colour = (135, 75, 20)
TAKEN: Colour = (60, 50, 55)
RAINBOW: tuple[Colour, ...] = ((230, 40, 40), (250, 150, 0), (240, 220, 0), (40, 170, 60),
                              (30, 120, 230), (140, 60, 200))
HAND_COLOURS: dict[str, Colour] = {"twist": (0, 150, 150), "tongs": (120, 130, 145),
                                   "rush": (240, 120, 0), "steal": (225, 60, 110)}
PILE_TEXT = "pile"


def _token_art(draw: ImageDraw.ImageDraw, card_id: str, side: float) -> None:
    """A token drawn in a square of ``side`` pixels at the origin (see :func:`token_sprite`)."""
    s = side
    line = max(2, round(s / 30))
    if card_id == "toffee":  # a caramel puddle with drips, under the candy
        draw.rounded_rectangle((s * 0.04, s * 0.04, s * 0.96, s * 0.96), radius=s * 0.16,
                               fill=TOFFEE, outline=TOFFEE_DARK, width=line)
        for x in (0.25, 0.5, 0.75):
            draw.ellipse((s * (x - 0.07), s * 0.06, s * (x + 0.07), s * 0.26), fill=TOFFEE_DARK)
    elif card_id == "star":  # a big gold star behind the candy
        points = []
        for i in range(10):
            radius = s * (0.5 if i % 2 == 0 else 0.24)
            angle = math.pi * i / 5 - math.pi / 2
            points.append((s / 2 + radius * math.cos(angle), s / 2 + radius * math.sin(angle)))
        draw.polygon(points, fill=STAR_GOLD, outline=STAR_EDGE, width=line)
    elif card_id == "jelly":  # a wobbly pink jelly square
        draw.rounded_rectangle((s * 0.05, s * 0.05, s * 0.95, s * 0.95), radius=s * 0.28,
                               fill=JELLY, outline=JELLY_EDGE, width=line * 2)
        draw.arc((s * 0.14, s * 0.14, s * 0.6, s * 0.6), 190, 260, fill=WHITE, width=line * 2)
    elif card_id == "frozen":  # a translucent ice cube over the candy
        draw.rounded_rectangle((s * 0.08, s * 0.08, s * 0.92, s * 0.92), radius=s * 0.12,
                               fill=ICE, outline=ICE_EDGE, width=line * 2)
        draw.line((s * 0.2, s * 0.36, s * 0.36, s * 0.2), fill=WHITE, width=line * 2)
        draw.line((s * 0.2, s * 0.5, s * 0.5, s * 0.2), fill=WHITE, width=line)
    elif card_id == "bomb":  # a black bomb with a lit fuse in the top-left corner
        r, cx, cy = s * 0.2, s * 0.23, s * 0.28
        draw.line((cx + r * 0.5, cy - r * 0.6, cx + r * 1.1, cy - r * 1.15), fill=INK,
                  width=line * 2)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK, outline=WHITE, width=line)
        draw.ellipse((cx - r * 0.5, cy - r * 0.55, cx - r * 0.1, cy - r * 0.15), fill=MUTED)
        spark = (cx + r * 1.25, cy - r * 1.3)
        for i in range(8):
            angle = math.pi * i / 4
            draw.line((spark[0], spark[1], spark[0] + r * 0.55 * math.cos(angle),
                       spark[1] + r * 0.55 * math.sin(angle)), fill=(255, 140, 0), width=line)
    elif card_id == "wild":  # a rainbow ring of sprinkles round the candy
        box = (s * 0.07, s * 0.07, s * 0.93, s * 0.93)
        for i, colour in enumerate(RAINBOW):
            draw.arc(box, i * 60, i * 60 + 60, fill=colour, width=round(s * 0.08))
    elif card_id == "cage":  # caramel bars in front of the candy
        width = round(s * 0.06)
        for x in (0.2, 0.4, 0.6, 0.8):
            draw.line((s * x, s * 0.08, s * x, s * 0.92), fill=CAGE, width=width)
        draw.rounded_rectangle((s * 0.08, s * 0.08, s * 0.92, s * 0.92), radius=s * 0.08,
                               outline=CAGE, width=width)
    elif card_id == "flavour":  # a ribbon rosette
        draw.polygon([(s * 0.3, s * 0.55), (s * 0.18, s * 0.98), (s * 0.42, s * 0.86),
                      (s * 0.5, s * 0.6)], fill=(220, 40, 80))
        draw.polygon([(s * 0.7, s * 0.55), (s * 0.82, s * 0.98), (s * 0.58, s * 0.86),
                      (s * 0.5, s * 0.6)], fill=(220, 40, 80))
        draw.ellipse((s * 0.12, s * 0.05, s * 0.88, s * 0.75), fill=STAR_GOLD, outline=INK,
                     width=line)
    else:  # a token in a player's hand: a coloured disc with its picture
        colour = HAND_COLOURS.get(card_id, MUTED)
        draw.ellipse((s * 0.03, s * 0.03, s * 0.97, s * 0.97), fill=colour, outline=INK,
                     width=line)
        w = max(2, round(s * 0.09))
        if card_id == "twist":  # two crossing diagonal arrows
            for (x0, y0), (x1, y1) in (((0.28, 0.72), (0.72, 0.28)), ((0.28, 0.28), (0.72, 0.72))):
                draw.line((s * x0, s * y0, s * x1, s * y1), fill=WHITE, width=w)
                draw.ellipse((s * x1 - w, s * y1 - w, s * x1 + w, s * y1 + w), fill=WHITE)
        elif card_id == "tongs":  # a pair of tongs
            draw.line((s * 0.3, s * 0.2, s * 0.45, s * 0.8), fill=WHITE, width=w)
            draw.line((s * 0.7, s * 0.2, s * 0.55, s * 0.8), fill=WHITE, width=w)
            draw.line((s * 0.3, s * 0.2, s * 0.7, s * 0.2), fill=WHITE, width=w)
        elif card_id == "rush":  # a lightning bolt
            draw.polygon([(s * 0.56, s * 0.12), (s * 0.3, s * 0.55), (s * 0.48, s * 0.55),
                          (s * 0.4, s * 0.9), (s * 0.7, s * 0.42), (s * 0.52, s * 0.42)],
                         fill=WHITE)
        elif card_id == "steal":  # a tooth
            draw.polygon([(s * 0.28, s * 0.3), (s * 0.72, s * 0.3), (s * 0.68, s * 0.62),
                          (s * 0.6, s * 0.82), (s * 0.52, s * 0.6), (s * 0.48, s * 0.6),
                          (s * 0.4, s * 0.82), (s * 0.32, s * 0.62)], fill=WHITE)
            draw.ellipse((s * 0.26, s * 0.2, s * 0.52, s * 0.42), fill=WHITE)
            draw.ellipse((s * 0.48, s * 0.2, s * 0.74, s * 0.42), fill=WHITE)


@cache
def token_sprite(card_id: str, side: int) -> Image.Image:
    """A power token with smooth edges on a transparent square of ``side`` pixels."""
    return smooth_sprite(side, side, lambda draw, k: _token_art(draw, card_id, side * k))


def paste_token(image: Image.Image, card_id: str, x: float, y: float, side: int) -> None:
    """Paste a token with its top-left corner at (x, y)."""
    paste_at(image, token_sprite(card_id, side), x, y)


def _cell_of(name: str) -> Cell:
    return LETTERS.index(name[0]), int(name[1:]) - 1


# --------------------------------------------------------------------------- board


def cell_box(col: int, row: int) -> tuple[int, int, int, int]:
    """Pixel box of a cell; row 0 (row "1") is at the bottom."""
    x = BX + col * CELL
    y = BY + (SIZE - 1 - row) * CELL
    return (x, y, x + CELL, y + CELL)


def cell_centre(col: int, row: int) -> tuple[float, float]:
    """Pixel centre of a cell."""
    x0, y0, x1, y1 = cell_box(col, row)
    return (x0 + x1) / 2, (y0 + y1) / 2


def cell_name(col: int, row: int) -> str:
    """Notation of a cell, e.g. ``c3``."""
    return f"{LETTERS[col]}{row + 1}"


def _burst(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The "blasted here" starburst."""
    points = []
    for i in range(16):
        rad = r if i % 2 == 0 else r * 0.45
        angle = math.pi * i / 8
        points.append((cx + rad * math.cos(angle), cy + rad * math.sin(angle)))
    draw.polygon(points, fill=BURST, outline=INK)


def blast_runs(cells: Iterable[Cell]) -> list[tuple[Cell, Cell]]:
    """The straight runs that make up a Blast: one for a line, two for a Mega-Blast."""
    cells = set(cells)
    runs: list[tuple[Cell, Cell]] = []
    for row in {r for _, r in cells}:
        cols = sorted(c for c, r in cells if r == row)
        if len(cols) >= 2:
            runs.append(((cols[0], row), (cols[-1], row)))
    for col in {c for c, _ in cells}:
        rows = sorted(r for c, r in cells if c == col)
        if len(rows) >= 2:
            runs.append(((col, rows[0]), (col, rows[-1])))
    covered = {(c, r) for (c0, r0), (c1, r1) in runs
               for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}
    runs.extend((cell, cell) for cell in sorted(cells - covered))
    return sorted(runs)


@lru_cache(maxsize=512)
def _cell_sprite(fill: Colour, blasted: bool, token: str | None, candy: str | None,
                 ) -> Image.Image:
    """A cell's inside (all of it but its edge lines): its fill, pink if blasted, the power
    token on its space, the candy on it. Pasted whole, with no transparency to work through:
    a board's 36 candies cost a tenth of pasting them on their cells one by one."""
    inside = CELL - 1
    sprite, _ = new_canvas(inside, inside, BLASTED if blasted else fill)
    if token is not None:
        paste_token(sprite, token, 1, 1, CELL - 4)
    if candy:
        paste_candy(sprite, candy, CELL / 2 - 1, CELL / 2 + 1, CANDY_RADIUS)
    return sprite


def _draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    last = view.get("last") or {}
    blasted = {tuple(c) for c in last.get("blasted") or []}
    power = view.get("power") or {}
    tokens = {_cell_of(name): card_id for name, card_id in (power.get("spaces") or {}).items()}
    for row, cells in enumerate(view["board"]):
        for col, candy in enumerate(cells):
            token = tokens.get((col, row))
            if candy or token is not None or (col, row) in blasted:
                x0, y0, _, _ = cell_box(col, row)
                fill = CELL_LIGHT if (row + col) % 2 else CELL_DARK
                paste_at(image, _cell_sprite(fill, (col, row) in blasted, token, candy or None),
                         x0 + 1, y0 + 1)
    for name, card_id in (power.get("chips") or {}).items():  # over the candies
        x0, y0, _, _ = cell_box(*_cell_of(name))
        paste_token(image, card_id, x0, y0, CELL)
    for col, row in blasted:
        x0, y0, x1, _ = cell_box(col, row)
        _burst(draw, x1 - 15, y0 + 15, 12)
    swap = [tuple(c) for c in last.get("swap") or []]
    for col, row in swap:
        x0, y0, x1, y1 = cell_box(col, row)
        draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=10, outline=SWAPPED,
                               width=6)
    if len(swap) == 2:
        (ax, ay), (bx, by) = (cell_centre(*c) for c in swap)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        draw.ellipse((mx - 18, my - 18, mx + 18, my + 18), fill=SWAPPED, outline=INK, width=2)
        draw.text((mx, my), "⇄" if ay == by else "⇅", font=font(26, True), fill=INK,
                  anchor="mm")
    for key, colour in (("replaced", REPLACED), ("taken", TAKEN)):
        if last.get(key):
            x0, y0, x1, y1 = cell_box(*last[key])
            draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=10, outline=colour,
                                   width=6)
    _draw_blast_choices(draw, view.get("choices", {}).get("blasts") or [])


def _draw_blast_choices(draw: ImageDraw.ImageDraw, options: list[dict[str, Any]]) -> None:
    """Outline each pending Blast in its own colour and inset, numbered as in the panel."""
    for i, option in enumerate(options):
        inset = 5 + 6 * (i % 4)
        for start, end in blast_runs((int(c), int(r)) for c, r in option["cells"]):
            x0, y0, _, _ = cell_box(min(start[0], end[0]), max(start[1], end[1]))
            _, _, x1, y1 = cell_box(max(start[0], end[0]), min(start[1], end[1]))
            draw.rounded_rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset),
                                   radius=12, outline=CHOICE_COLOURS[i % len(CHOICE_COLOURS)],
                                   width=5)
    # Number badges go on top, on different cells where possible so that none hides another.
    taken: set[Cell] = set()
    for i, option in enumerate(options):
        cells = sorted(((int(c), int(r)) for c, r in option["cells"]),
                       key=lambda c: (-c[1], c[0]))
        spot = next((c for c in cells if c not in taken), cells[0])
        taken.add(spot)
        x0, y0, _, _ = cell_box(*spot)
        inset = 5 + 6 * (i % 4)
        badge(draw, (x0 + inset + 14, y0 + inset + 14), str(i + 1),
              CHOICE_COLOURS[i % len(CHOICE_COLOURS)], radius=16)



# --------------------------------------------------------------------------- seats on the board


def _draw_seats(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
                table: Table) -> None:
    """Each player's mark and name along their own edge; the player to act gets a filled band."""
    for seat, info in enumerate(view["seats"]):
        colour = table.rgb(seat)
        active = seat in table.acting
        won = seat in table.winners
        band = Image.new("RGB", (BOARD, BAND), colour if active else GOLD if won else PANEL)
        ImageDraw.Draw(band).rectangle((0, 0, BOARD - 1, BAND - 1), outline=colour, width=3)
        name = shorten(table.names[seat], 24, 220, bold=True)
        score = f"{info['progress']}/{info['needed']}"
        if active:
            label = f"{name} to play · board tilts this way"
            if text_size(label, 24, True)[0] > BOARD - 70:
                label = with_ending(name, " to play", 24, BOARD - 70)
        elif won:
            label = f"{name} wins · {score}"
        else:
            label = f"{name}{' (AI)' if table.ais[seat] else ''} · {score}"
        label = shorten(label, 24, BOARD - 70, bold=True)
        left = (BOARD - 30 - text_size(label, 24, True)[0]) / 2
        stamp_text(band, (left + 30, BAND / 2), label, 24,
                   ink_on(colour) if active else INK if won else table.text_rgb(seat), True,
                   "lm")
        # The mark goes on after the band is turned, so that it stands upright on every side.
        along, across = round(left + 11), BAND // 2  # whole pixels: the same mark everywhere
        side = info["side"]
        if side == "south":
            paste_at(image, band, BX, BY + BOARD + GAP)
            mark = (BX + along, BY + BOARD + GAP + across)
        elif side == "north":
            paste_at(image, band, BX, BY - GAP - BAND)
            mark = (BX + along, BY - GAP - BAND + across)
        elif side == "west":
            paste_at(image, band.rotate(90, expand=True), BX - GAP - BAND, BY)
            mark = (BX - GAP - BAND + across, BY + BOARD - along)
        else:
            paste_at(image, band.rotate(-90, expand=True), BX + BOARD + GAP, BY)
            mark = (BX + BOARD + GAP + across, BY + along)
        if active:  # on the seat's own colour the mark stands on a white disc
            table.badge(draw, seat, *mark, 10)
        else:
            table.mark(draw, seat, *mark, 11)
    if table.acting:
        turn = table.acting[0]
        _tilt_arrows(draw, view.get("tilt") or view["seats"][turn]["side"], table.rgb(turn))


def _tilt_arrows(draw: ImageDraw.ImageDraw, side: str, colour: Colour) -> None:
    """Arrows from the board's edge toward the side it tilts to after a Blast."""
    for k in (1, 3, 5):
        t = (BX if side in ("south", "north") else BY) + k * CELL
        if side == "south":
            start, end = (t, BY + BOARD + 4), (t, BY + BOARD + GAP - 2)
        elif side == "north":
            start, end = (t, BY - 4), (t, BY - GAP + 2)
        elif side == "west":
            start, end = (BX - 4, t), (BX - GAP + 2, t)
        else:
            start, end = (BX + BOARD + 4, t), (BX + BOARD + GAP - 2, t)
        arrow(draw, start, end, colour, width=9, head=20)


# --------------------------------------------------------------------------- the key column


def _draw_side(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
               table: Table) -> None:
    """Right of the board: the move, the bag, and what the last turn's marks mean."""
    stamp_text(image, (SIDE_X, 56), f"move {table.move}", 22, MUTED)
    stamp_text(image, (SIDE_X, 86), f"bag: {view['bag']} candies", 24, INK, True)
    y = LAST_Y
    last = view.get("last")
    stamp_text(image, (SIDE_X, y), "Last turn", 24, INK, True)
    y += 42
    if not last:
        stamp_text(image, (SIDE_X, y), "none yet", 24, MUTED, anchor="lm")
        return
    seat = last["seat"]
    table.mark(draw, seat, SIDE_X + 12, y, 11)
    stamp_text(image, (SIDE_X + 32, y), table.names[seat], 24, table.text_rgb(seat), True, "lm",
               width=SIDE_W - 32)
    marks = [(mark, label) for mark, label in (("swap", "swapped"), ("replaced", "replaced"),
                                               ("taken", "taken"), ("blasted", "blasted"))
             if last.get(mark)]
    outlines = {"swap": SWAPPED, "replaced": REPLACED, "taken": TAKEN}
    for mark, label in marks:
        y += 40
        x = SIDE_X
        if mark == "blasted":
            draw.rectangle((x, y - 14, x + 28, y + 14), fill=BLASTED, outline=FRAME_EDGE)
            _burst(draw, x + 14, y, 11)
        else:
            draw.rounded_rectangle((x, y - 14, x + 28, y + 14), radius=6, width=5,
                                   outline=outlines[mark])
        stamp_text(image, (x + 40, y), label, 24, INK, anchor="lm")


# --------------------------------------------------------------------------- the panel


def _names(view: dict[str, Any]) -> dict[str, str]:
    return view.get("names") or {}


def _paragraph(image: Image.Image, y: int, text: str) -> int:
    """``text`` wrapped to the left column from ``y``; returns the y below it."""
    return stamp_lines(image, (LEFT_X, y), text, TEXT, COL_W, leading=LEADING) + 4


def _draw_status(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
                 y: int) -> int:
    """The shared header (whose turn, or the result and how it ended) and what the
    player to act may do now."""
    x, w = LEFT_X, COL_W
    y = header(view, w, move=False).draw(image, draw, x, y)
    if table_of(view).over:
        return y
    y += 10
    phase = view["phase"]
    choices = view.get("choices") or {}
    names = _names(view)
    if phase == "swap" and choices.get("draw"):
        return _paragraph(image, y, "No swap makes a Blast: use a power token (see below), or "
                          "type draw to draw a candy and replace one.")
    if phase == "swap":
        return _paragraph(image, y, "Swap two neighbouring candies to make a Blast of 3 or "
                          "more in a line, e.g. swap c3 d3.")
    if phase == "rush":
        card = choices.get("rush") or "rush"
        y = _paragraph(image, y, "The turn is over. Discard a token to play another turn "
                       "at once, or end the turn:")
        paste_token(image, card, x, y, 44)
        stamp_text(image, (x + 56, y + 22), f"{card}  or  done", 26, INK, True, "lm")
        return y + 52
    if phase == "replace":
        drawn = view.get("drawn")
        y = _paragraph(image, y, "No swap makes a Blast, so this candy was drawn:")
        if drawn:
            paste_candy(image, drawn, x + 24, y + 20, 20)
            stamp_text(image, (x + 56, y + 20), names.get(drawn, drawn), 26, INK, True, "lm")
            y += 48
        return _paragraph(image, y, "Put it in place of a candy of another kind: replace c3.")
    if phase == "blast":
        options = choices.get("blasts") or []
        y = _paragraph(image, y, "Choose which Blast goes first:")
        room = max(1, (PANEL_Y + PANEL_H - OBJECTIVE_MIN - 10 - y) // 38)
        listed = options if len(options) <= room else options[:room - 1]
        for i, option in enumerate(listed):
            colour = CHOICE_COLOURS[i % len(CHOICE_COLOURS)]
            badge(draw, (x + 16, y + 16), str(i + 1), colour, radius=16)
            stamp_text(image, (x + 42, y + 16), option["notation"], TEXT, INK, True, "lm")
            stamp_text(image, (x + w, y + 16), BLAST_NAMES.get(option["kind"], option["kind"]),
                       22, MUTED, anchor="rm")
            y += 38
        if len(listed) < len(options):
            stamp_text(image, (x, y + 16), f"and {len(options) - len(listed)} more, numbered "
                       "on the board", 22, MUTED, anchor="lm")
            y += 38
        return y
    if phase == "keep":
        options = choices.get("keep") or []
        example = f", e.g. keep {min(options, key=len)}" if options else ""
        y = _paragraph(image, y, f"Keep one more candy{example}:")
        cx = x  # the options flow left to right, as many to a line as fit
        for kind in options:
            width = 44 + text_size(kind, TEXT, True)[0]
            if cx > x and cx + width > x + w:
                cx, y = x, y + 40
            paste_candy(image, kind, cx + 18, y + 18, 18)
            stamp_text(image, (cx + 42, y + 18), kind, TEXT, INK, True, "lm")
            cx += width + 24
        return y + 40 if options else y
    return y


OBJECTIVE_MIN = 104  # the objective card without its text: its name and its candies


def _draw_objective(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
                    top: int) -> None:
    """The objective card, from ``top`` to the panel's foot: name, text if room, candies."""
    x, w = LEFT_X, COL_W
    bottom = PANEL_Y + PANEL_H
    objective = view["objective"]
    panel(draw, (x, top, x + w, bottom), fill=CARD, outline=CARD_EDGE, width=3)
    stamp_text(image, (x + 14, top + 12), f"Objective: {objective['name']}", 26, INK, True,
               width=w - 28)
    room = (bottom - top - OBJECTIVE_MIN) // LEADING
    ty = top + 46
    for line in wrap(objective["text"], TEXT, w - 28)[:min(2, room)]:
        stamp_text(image, (x + 14, ty), line, TEXT, MUTED)
        ty += LEADING
    gx, gy = x + 36, bottom - 32
    for group in objective["groups"]:
        paste_candy(image, group.get("kind"), gx, gy, 21)
        gx += 28
        if group["count"] > 1:
            count = f"×{group['count']}"
            stamp_text(image, (gx, gy), count, 28, INK, True, "lm")
            gx += text_size(count, 28, True)[0]
        gx += 34


def _draw_players(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
                  table: Table) -> None:
    """One row per player: mark, name, tokens held, progress, and every kept candy."""
    x, w = RIGHT_X, COL_W
    kinds = view["types"]
    places = table.places()
    hands = (view.get("power") or {}).get("hands") or []
    for i, seat in enumerate(table.order()):
        info = view["seats"][seat]
        colour = table.rgb(seat)
        top = PANEL_Y + i * ROW
        if places.get(seat) == 0:
            panel(draw, (x, top, x + w, top + ROW - 6), fill=WINNER_ROW, outline=GOLD,
                  radius=12, width=3)
        elif seat in table.acting:
            panel(draw, (x, top, x + w, top + ROW - 6), fill=ACTIVE_ROW, outline=colour,
                  radius=12, width=3)
        y1, y2 = top + 22, top + 58
        lx = x + 12
        if seat in places:
            ordinal = ORDINALS[min(places[seat], 3)]
            stamp_text(image, (lx, y1), ordinal, 24, INK, True, "lm")
            lx += text_size(ordinal, 24, True)[0] + 10
        table.mark(draw, seat, lx + 12, y1, 12)
        lx += 32
        score = f"{info['progress']}/{info['needed']}"
        stamp_text(image, (x + w - 12, y1 + 2), score, 34, table.text_rgb(seat), True, "rm")
        hx = x + w - 24 - text_size(score, 34, True)[0]
        hand = hands[seat] if seat < len(hands) else {}
        for card_id, count in sorted(hand.items(), reverse=True):  # right to left
            if count:
                if count > 1:
                    stamp_text(image, (hx, y1), f"×{count}", 24, INK, True, "rm")
                    hx -= text_size(f"×{count}", 24, True)[0] + 2
                paste_token(image, card_id, hx - 34, y1 - 17, 34)
                hx -= 42
        stamp_text(image, (lx, y1), table.label(seat), 26, INK, True, "lm", width=hx - lx - 8)
        kept = info.get("kept") or {}
        if not any(kept.values()):
            stamp_text(image, (x + 22, y2), "no candies kept yet", 24, MUTED, anchor="lm")
            continue
        kx = x + 32
        for kind in kinds:
            if kept.get(kind):
                paste_candy(image, kind, kx, y2, 19)
                stamp_text(image, (kx + 24, y2), str(kept[kind]), 28, INK, True, "lm")
                kx += 76


# --------------------------------------------------------------------------- assembly

LEGEND_Y = 130  # the candy legend in the key column
LAST_Y = LEGEND_Y + 40 + 6 * 44 + 40  # the last turn's marks below it


@cache
def _base(kinds: tuple[str, ...]) -> Image.Image:
    """Everything that never changes: title, board frame, cells, coordinates, candy legend."""
    image, draw = new_canvas(WIDTH, HEIGHT)
    draw.text((SIDE_X, 12), "Sugar Blast", font=font(28, True), fill=INK)
    panel(draw, (BX - 8, BY - 8, BX + BOARD + 8, BY + BOARD + 8), fill=FRAME,
          outline=FRAME_EDGE, radius=12, width=3)
    for row in range(SIZE):
        for col in range(SIZE):
            fill = CELL_LIGHT if (row + col) % 2 else CELL_DARK
            draw.rectangle(cell_box(col, row), fill=fill, outline=CELL_EDGE)
    for i in range(SIZE):
        cx = BX + i * CELL + CELL / 2
        cy = BY + (SIZE - 1 - i) * CELL + CELL / 2
        for xy, text in (((cx, BY + BOARD + 24), LETTERS[i]), ((cx, BY - 24), LETTERS[i]),
                         ((BX - 25, cy), str(i + 1)), ((BX + BOARD + 25, cy), str(i + 1))):
            outlined_text(draw, xy, text, 30, INK, (255, 255, 255), stroke=3)
    panel(draw, (SIDE_X - 8, LEGEND_Y - 8, WIDTH - 8, LEGEND_Y + 40 + 44 * len(kinds)))
    draw.text((SIDE_X, LEGEND_Y), "Candies", font=font(24, True), fill=INK)
    for i, kind in enumerate(kinds):
        y = LEGEND_Y + 40 + 44 * i + 20
        paste_candy(image, kind, SIDE_X + 16, y, 17)
        stamp_text(image, (SIDE_X + 40, y), kind, 24, INK, anchor="lm", width=SIDE_W - 44)
    return image


def _table(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Everything but the power cards: the board, the seats round it, the key and the
    last turn beside it, what is to do, the objective and the players under it."""
    paste_at(image, _base(tuple(view["types"])), 0, 0)
    _draw_board(image, draw, view)
    table = table_of(view)
    _draw_seats(image, draw, view, table)
    _draw_side(image, draw, view, table)
    bottom = _draw_status(image, draw, view, PANEL_Y)
    _draw_objective(image, draw, view, max(bottom + 4, PANEL_Y + PANEL_H - OBJECTIVE_MIN
                                           - 2 * LEADING))
    _draw_players(image, draw, view, table)


#: Where the power cards' strip begins (its boxes' top edge).
POWER_TOP = HEIGHT - 2


def _strips(view: dict[str, Any]) -> list[Strip]:
    """The table, drawn anew at every move, and the power cards in play under it, kept
    while their tokens stay where they are."""
    power = view.get("power")
    if not power:
        return [Strip(HEIGHT, _table, (view,), kept=False)]
    return [Strip(POWER_TOP, _table, (view,), kept=False),
            Strip(HEIGHT + STRIP - POWER_TOP, _draw_power_strip, (power,))]


def _draw(view: dict[str, Any]) -> Image.Image:
    return stacked(WIDTH, _strips(view))


def _draw_power_strip(image: Image.Image, draw: ImageDraw.ImageDraw,
                      power: dict[str, Any]) -> None:
    """One box per power card in play: its token as on the board, its state, its rule."""
    texts = power.get("texts") or []
    if not texts:
        return
    top = 0
    width = (WIDTH - 2 * LEFT_X + 16) // len(texts)
    for i, card in enumerate(texts):
        x0, x1 = LEFT_X + i * width, LEFT_X + (i + 1) * width - 16
        panel(draw, (x0, top, x1, top + STRIP - 12), fill=CARD, outline=CARD_EDGE, width=3)
        _card_icon(image, card, x0 + 10, top + 12, 64)
        tx = x0 + 86
        status = _card_status(card, power)
        marker = power.get("marker") if card.get("id") == "flavour" else None
        status_x = x1 - 12 - (36 if marker else 0)  # the marker candy goes right of "marker"
        status_w = text_size(status, 22)[0] + x1 - status_x
        room = x1 - tx - status_w - 20
        size = 26 if text_size(card["name"], 26, True)[0] <= room else 24
        stamp_text(image, (tx, top + 26), card["name"], size, INK, True, "lm", width=room)
        stamp_text(image, (status_x, top + 26), status, 22, MUTED, anchor="rm")
        if marker:
            paste_candy(image, marker, x1 - 27, top + 26, 16)
        y = top + 50
        for line in wrap(card.get("short", "").replace("; ", " · "), 22,
                         x1 - tx - 12)[:3]:
            stamp_text(image, (tx, y), line, 22, INK)
            y += 28


def _card_icon(image: Image.Image, card: dict[str, Any], x: float, y: float,
               side: int) -> None:
    """The card's token as the board shows it: on a space, on a candy, or on its own."""
    place = card.get("place")
    if place in ("space", "chip"):
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle((x, y, x + side, y + side), radius=8, fill=CELL_LIGHT,
                               outline=CELL_EDGE)
        if place == "space":
            paste_token(image, card["id"], x + 2, y + 2, side - 4)
        paste_candy(image, "lollipop", x + side / 2, y + side / 2 + 1, round(side * 0.36))
        if place == "chip":
            paste_token(image, card["id"], x, y, side)
    else:
        paste_token(image, card["id"], x + 4, y + 4, side - 8)


def _card_status(card: dict[str, Any], power: dict[str, Any]) -> str:
    """Where the card's tokens are now, in a few words."""
    kind = card.get("type")
    if kind == "pile":
        return f"{PILE_TEXT} {(power.get('pile') or {}).get(card['id'], 0)}/{card['tokens']}"
    if kind == "discard":
        left = (power.get("supply") or {}).get(card["id"], 0)
        return f"{left}/{card['tokens']} left"
    if kind == "board":
        return ""  # its tokens never leave the board: nothing changes to report
    return "marker" if power.get("marker") else ""


#: The real games the palette is drawn from: four seats from the start to the end, and a
#: game with power cards.
PALETTE_GAMES = (Sample(4, 5, (0, 6, END)),
                 Sample(3, 4, (3,), options=(("power", "random 2"),)))


@cache
def _palette() -> Image.Image:
    """The palette of real pictures, and of every power card's icon (as the strip draws it,
    from the cards' content) for the cards those games did not deal."""
    from bot.games.sugar_blast import powers

    icons = Image.new("RGB", (WIDTH, 80), PANEL)
    for i, card in enumerate(powers.cards()):
        _card_icon(icons, card, 10 + 80 * i, 8, 64)
    pictures = [_draw(view) for view in real_views("sugar-blast", PALETTE_GAMES)]
    # Flat fills kept exact: an octree bucket shared with their edges would shade them.
    return palette_of([*pictures, icons],
                      (*CANDY_COLOURS.values(), CELL_LIGHT, CELL_DARK, CELL_EDGE, FRAME,
                       FRAME_EDGE, CARD, CARD_EDGE, ACTIVE_ROW, WINNER_ROW, BLASTED))


def render(view: dict[str, Any]) -> bytes:
    """The public (or a seat's) Sugar Blast picture as PNG bytes."""
    return strips_png(WIDTH, _strips(view), _palette())
