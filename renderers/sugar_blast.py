"""Sugar Blast picture: the board with its seats and tilt, and a side panel.

Each candy kind has its own silhouette as well as its own colour, so the board
reads without colour vision and at phone size. Candies are drawn once per size
at four times the resolution and scaled down (smooth edges), then pasted; the
parts that never change (board frame, coordinates, legend) are drawn once too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    INK,
    MUTED,
    PANEL,
    WHITE,
    Colour,
    arrow,
    badge,
    fitted_text,
    font,
    legend,
    make_palette,
    new_canvas,
    outlined_text,
    panel,
    seat_colour,
    shorten,
    text_size,
    to_png,
    wrap,
)

WIDTH, HEIGHT = 1240, 860
STRIP = 150  # the power cards' strip under the picture, when cards are in play
SIZE = 6
CELL = 92
BOARD = CELL * SIZE
BX, BY = 104, 122  # top-left corner of the board
GAP, BAND = 42, 36  # space between board and a seat's name band; the band's thickness
PANEL_X = 760
PANEL_W = WIDTH - PANEL_X - 20
LETTERS = "abcdef"
SUPERSAMPLE = 4

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
GOLD: Colour = (255, 200, 40)
MAX_LISTED = 5  # Blast options listed in the panel (a real board rarely offers more than 3)
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
    big = Image.new("RGBA", (side * SUPERSAMPLE, side * SUPERSAMPLE), (0, 0, 0, 0))
    centre = side * SUPERSAMPLE / 2
    _candy_shape(ImageDraw.Draw(big), kind, centre, centre, radius * SUPERSAMPLE)
    return big.resize((side, side), Image.Resampling.LANCZOS)


def paste_candy(image: Image.Image, kind: str | None, cx: float, cy: float,
                radius: int) -> None:
    """Paste the candy (``None``: the "any kind" chip) centred on (cx, cy)."""
    sprite = candy_sprite(kind, radius)
    half = sprite.width // 2
    image.paste(sprite, (round(cx) - half, round(cy) - half), sprite)


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
    big = Image.new("RGBA", (side * SUPERSAMPLE, side * SUPERSAMPLE), (0, 0, 0, 0))
    _token_art(ImageDraw.Draw(big, "RGBA"), card_id, side * SUPERSAMPLE)
    return big.resize((side, side), Image.Resampling.LANCZOS)


def paste_token(image: Image.Image, card_id: str, x: float, y: float, side: int) -> None:
    """Paste a token with its top-left corner at (x, y)."""
    sprite = token_sprite(card_id, side)
    image.paste(sprite, (round(x), round(y)), sprite)


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


def _draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    last = view.get("last") or {}
    blasted = {tuple(c) for c in last.get("blasted") or []}
    power = view.get("power") or {}
    for col, row in blasted:
        x0, y0, x1, y1 = cell_box(col, row)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=BLASTED)
    for name, card_id in (power.get("spaces") or {}).items():  # under the candies
        x0, y0, _, _ = cell_box(*_cell_of(name))
        paste_token(image, card_id, x0 + 2, y0 + 2, CELL - 4)
    for row, cells in enumerate(view["board"]):
        for col, candy in enumerate(cells):
            if candy:
                cx, cy = cell_centre(col, row)
                paste_candy(image, candy, cx, cy + 2, 33)
    for name, card_id in (power.get("chips") or {}).items():  # over the candies
        x0, y0, _, _ = cell_box(*_cell_of(name))
        paste_token(image, card_id, x0, y0, CELL)
    for col, row in blasted:
        x0, y0, x1, _ = cell_box(col, row)
        _burst(draw, x1 - 14, y0 + 14, 11)
    swap = [tuple(c) for c in last.get("swap") or []]
    for col, row in swap:
        x0, y0, x1, y1 = cell_box(col, row)
        draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=10, outline=SWAPPED,
                               width=6)
    if len(swap) == 2:
        (ax, ay), (bx, by) = (cell_centre(*c) for c in swap)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        draw.ellipse((mx - 16, my - 16, mx + 16, my + 16), fill=SWAPPED, outline=INK, width=2)
        draw.text((mx, my), "⇄" if ay == by else "⇅", font=font(22, True), fill=INK,
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
        badge(draw, (x0 + inset + 12, y0 + inset + 12), str(i + 1),
              CHOICE_COLOURS[i % len(CHOICE_COLOURS)], radius=14)


def _draw_seats(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Each player's name along their own edge; the player to act gets a filled band."""
    over = view.get("phase") == "over"
    turn = view.get("turn")
    ranking = (view.get("result") or {}).get("ranking") or [[]]
    for seat, info in enumerate(view["seats"]):
        colour = seat_colour(seat)
        active = seat == turn and not over
        won = over and seat in ranking[0]
        band = Image.new("RGB", (BOARD, BAND), colour if active else GOLD if won else PANEL)
        band_draw = ImageDraw.Draw(band)
        band_draw.rectangle((0, 0, BOARD - 1, BAND - 1), outline=colour, width=3)
        name = shorten(band_draw, info["name"], 20, 200, bold=True)
        score = f"{info['progress']}/{info['needed']}"
        if active:
            label = f"{name} to play · board tilts toward {name}"
        elif won:
            label = f"{name} wins · {score}"
        else:
            label = f"{name}{' (AI)' if info.get('ai') else ''} · {score}"
        fitted_text(band_draw, (BOARD / 2, BAND / 2), label, 20, BOARD - 20,
                    WHITE if active else INK if won else colour, bold=True, anchor="mm")
        side = info["side"]
        if side == "south":
            image.paste(band, (BX, BY + BOARD + GAP))
        elif side == "north":
            image.paste(band, (BX, BY - GAP - BAND))
        elif side == "west":
            image.paste(band.rotate(90, expand=True), (BX - GAP - BAND, BY))
        else:
            image.paste(band.rotate(-90, expand=True), (BX + BOARD + GAP, BY))
    if not over:
        _tilt_arrows(draw, view.get("tilt") or view["seats"][turn]["side"], seat_colour(turn))


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
        arrow(draw, start, end, colour, width=8, head=18)


def _draw_marks_key(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Under the board: whose last turn is marked and what the marks mean."""
    y = HEIGHT - 28
    last = view.get("last")
    if not last:
        draw.text((BX, y), "No turn played yet.", font=font(18), fill=MUTED, anchor="lm")
        return
    who = view["seats"][last["seat"]]["name"]
    x = BX - 60
    x += _key_text(draw, x, y, f"{shorten(draw, who, 18, 150, True)}'s last turn:", True)
    marks: list[tuple[str, str]] = []
    if last.get("swap"):
        marks.append(("swap", "swapped"))
    if last.get("replaced"):
        marks.append(("replace", "replaced"))
    if last.get("taken"):
        marks.append(("taken", "taken"))
    if last.get("blasted"):
        marks.append(("blast", "blasted"))
    outlines = {"swap": SWAPPED, "replace": REPLACED, "taken": TAKEN}
    for mark, label in marks:
        x += 14
        if mark == "blast":
            draw.rectangle((x, y - 11, x + 22, y + 11), fill=BLASTED, outline=FRAME_EDGE)
            _burst(draw, x + 11, y, 9)
        else:
            draw.rounded_rectangle((x, y - 11, x + 22, y + 11), radius=5, width=4,
                                   outline=outlines[mark])
        x += 30 + _key_text(draw, x + 30, y, label, False)


def _key_text(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, bold: bool) -> int:
    draw.text((x, y), text, font=font(18, bold), fill=INK if bold else MUTED, anchor="lm")
    return text_size(draw, text, 18, bold)[0]


# --------------------------------------------------------------------------- side panel


def _names(view: dict[str, Any]) -> dict[str, str]:
    return view.get("names") or {}


def _draw_panel(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    right = PANEL_X + PANEL_W
    draw.text((right, 22), f"move {view['move']}", font=font(18), fill=MUTED, anchor="rm")
    draw.text((right, 48), f"bag: {view['bag']} candies", font=font(18, True), fill=INK,
              anchor="rm")
    y = _draw_status(image, draw, view, 70) + 10
    y = _draw_objective(image, draw, view, y) + 14
    _draw_players(image, draw, view, y)


def _draw_status(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
                 y: int) -> int:
    """The turn banner and what the player to act may do now; the ranking once over."""
    x, w = PANEL_X, PANEL_W
    seats = view["seats"]
    names = _names(view)
    if view.get("result"):
        return _draw_result(draw, view, y)
    turn = view["turn"]
    name = seats[turn]["name"]
    panel(draw, (x, y, x + w, y + 40), fill=seat_colour(turn), outline=INK, radius=12)
    fitted_text(draw, (x + 14, y + 20), f"{name} to play", 22, w - 28, WHITE, bold=True,
                anchor="lm")
    y += 50
    phase = view["phase"]
    choices = view.get("choices") or {}
    if phase == "swap" and choices.get("draw"):
        return _paragraph(draw, y, "No swap makes a Blast: use a power token (see below), or "
                          "type draw to draw a candy and replace one.")
    if phase == "swap":
        return _paragraph(draw, y, "Swap two neighbouring candies to make a Blast of 3 or "
                          "more in a line, e.g. swap c3 d3.")
    if phase == "rush":
        card = choices.get("rush") or "rush"
        y = _paragraph(draw, y, "The turn is over. Discard a token to play another turn "
                       f"at once: {card}, or end the turn: done.")
        paste_token(image, card, x, y, 40)
        draw.text((x + 50, y + 20), f"{card}  or  done", font=font(20, True), fill=INK,
                  anchor="lm")
        return y + 48
    if phase == "replace":
        drawn = view.get("drawn")
        y = _paragraph(draw, y, "No swap makes a Blast, so a candy was drawn:")
        if drawn:
            paste_candy(image, drawn, x + 24, y + 22, 20)
            draw.text((x + 54, y + 22), names.get(drawn, drawn), font=font(20, True),
                      fill=INK, anchor="lm")
            y += 50
        return _paragraph(draw, y, "Put it in place of a candy of another kind: "
                          "replace c3.")
    if phase == "blast":
        y = _paragraph(draw, y, "Choose which Blast goes first:")
        for i, option in enumerate((choices.get("blasts") or [])[:MAX_LISTED]):
            colour = CHOICE_COLOURS[i % len(CHOICE_COLOURS)]
            badge(draw, (x + 16, y + 15), str(i + 1), colour, radius=14)
            draw.text((x + 40, y + 15), option["notation"], font=font(20, True), fill=INK,
                      anchor="lm")
            draw.text((x + w, y + 15), BLAST_NAMES.get(option["kind"], option["kind"]),
                      font=font(17), fill=MUTED, anchor="rm")
            y += 34
        return y
    if phase == "keep":
        y = _paragraph(draw, y, "Keep one more candy (not of the blasted kind):")
        options = choices.get("keep") or []
        for i, kind in enumerate(options):
            cx, cy = x + 20 + (i % 2) * (w // 2), y + 18 + (i // 2) * 38
            paste_candy(image, kind, cx, cy, 17)
            fitted_text(draw, (cx + 24, cy), f"keep {kind}", 17, w // 2 - 44, INK, bold=True,
                        anchor="lm")
        return y + 38 * ((len(options) + 1) // 2)
    return y


def _draw_result(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    x, w = PANEL_X, PANEL_W
    result = view["result"]
    seats = view["seats"]
    ranking = result["ranking"]
    winners = ranking[0] if ranking else []
    panel(draw, (x, y, x + w, y + 40), fill=GOLD, outline=INK, radius=12)
    title = "Game over"
    if len(winners) == 1:
        title = f"Game over · {seats[winners[0]]['name']} wins!"
    fitted_text(draw, (x + 14, y + 20), title, 22, w - 28, INK, bold=True, anchor="lm")
    y = _paragraph(draw, y + 50, result.get("summary", ""))
    scores = result.get("scores") or {}
    place = 0
    for group in ranking:
        for seat in group:
            colour = seat_colour(seat)
            draw.text((x + 6, y + 14), ORDINALS[min(place, 3)], font=font(19, True),
                      fill=INK, anchor="lm")
            draw.ellipse((x + 54, y + 5, x + 72, y + 23), fill=colour, outline=INK)
            fitted_text(draw, (x + 82, y + 14), seats[seat]["name"], 20, w - 170, INK,
                        bold=True, anchor="lm")
            score = scores.get(str(seat), scores.get(seat))
            if score is not None:
                draw.text((x + w, y + 14), f"{score}/{seats[seat]['needed']}",
                          font=font(20, True), fill=colour, anchor="rm")
            y += 30
        place += len(group)
    return y


def _paragraph(draw: ImageDraw.ImageDraw, y: int, text: str, size: int = 19) -> int:
    for line in wrap(draw, text, size, PANEL_W):
        draw.text((PANEL_X, y), line, font=font(size), fill=INK)
        y += size + 7
    return y + 4


def _draw_objective(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
                    y: int) -> int:
    """The objective card: its name, its text and its groups as candy icons."""
    x, w = PANEL_X, PANEL_W
    objective = view["objective"]
    lines = wrap(draw, objective["text"], 17, w - 28)[:2]
    height = 96 + 22 * len(lines)
    panel(draw, (x, y, x + w, y + height), fill=CARD, outline=CARD_EDGE, width=3)
    fitted_text(draw, (x + 14, y + 10), f"Objective: {objective['name']}", 21, w - 28, INK,
                bold=True)
    ty = y + 40
    for line in lines:
        draw.text((x + 14, ty), line, font=font(17), fill=MUTED)
        ty += 22
    gx, gy = x + 34, y + height - 32
    for group in objective["groups"]:
        paste_candy(image, group.get("kind"), gx, gy, 19)
        gx += 26
        if group["count"] > 1:
            draw.text((gx, gy), f"×{group['count']}", font=font(20, True), fill=INK,
                      anchor="lm")
            gx += text_size(draw, f"×{group['count']}", 20, True)[0]
        gx += 28
    return y + height


def _draw_players(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
                  y: int) -> int:
    """Each player's kept candies and progress toward the objective."""
    x, w = PANEL_X, PANEL_W
    over = view.get("phase") == "over"
    kinds = view["types"]
    for seat, info in enumerate(view["seats"]):
        colour = seat_colour(seat)
        if seat == view.get("turn") and not over:
            panel(draw, (x - 6, y - 4, x + w + 6, y + 60), fill=(255, 240, 200),
                  outline=colour, radius=10, width=2)
        draw.ellipse((x, y + 4, x + 20, y + 24), fill=colour, outline=INK)
        draw.text((x + w, y + 14), f"{info['progress']}/{info['needed']}",
                  font=font(24, True), fill=colour, anchor="rm")
        hand = ((view.get("power") or {}).get("hands") or [{}] * (seat + 1))[seat]
        hx = x + w - 64  # power tokens held, right to left before the score
        for card_id, count in sorted(hand.items(), reverse=True):
            if count:
                if count > 1:
                    draw.text((hx, y + 14), f"×{count}", font=font(17, True), fill=INK,
                              anchor="rm")
                    hx -= text_size(draw, f"×{count}", 17, True)[0] + 2
                paste_token(image, card_id, hx - 28, y, 28)
                hx -= 36
        room = hx - (x + 30) - 10
        name = info["name"] + (" (AI)" if info.get("ai") else "")
        name = shorten(draw, name, 20, min(w - 190, room), bold=True)
        draw.text((x + 30, y + 14), name, font=font(20, True), fill=INK, anchor="lm")
        name_end = x + 38 + text_size(draw, name, 20, True)[0]
        if name_end + text_size(draw, info["side"], 16)[0] < hx:
            draw.text((name_end, y + 15), info["side"], font=font(16), fill=MUTED, anchor="lm")
        kept = info.get("kept") or {}
        ky = y + 42
        if not any(kept.values()):
            draw.text((x + 30, ky), "no candies kept yet", font=font(16), fill=MUTED,
                      anchor="lm")
        kx = x + 42
        for kind in kinds:
            if kept.get(kind):
                paste_candy(image, kind, kx, ky, 14)
                draw.text((kx + 18, ky), str(kept[kind]), font=font(18, True), fill=INK,
                          anchor="lm")
                kx += 62
        y += 68
    return y


# --------------------------------------------------------------------------- assembly


@cache
def _base(kinds: tuple[str, ...], height: int = HEIGHT) -> Image.Image:
    """Everything that never changes: title, board frame, cells, coordinates, candy legend."""
    image, draw = new_canvas(WIDTH, height)
    draw.text((PANEL_X, 34), "Sugar Blast", font=font(34, True), fill=INK, anchor="lm")
    panel(draw, (BX - 8, BY - 8, BX + BOARD + 8, BY + BOARD + 8), fill=FRAME,
          outline=FRAME_EDGE, radius=12, width=3)
    for row in range(SIZE):
        for col in range(SIZE):
            fill = CELL_LIGHT if (row + col) % 2 else CELL_DARK
            draw.rectangle(cell_box(col, row), fill=fill, outline=(215, 195, 175))
    for i in range(SIZE):
        cx = BX + i * CELL + CELL / 2
        cy = BY + (SIZE - 1 - i) * CELL + CELL / 2
        for xy, text in (((cx, BY + BOARD + 22), LETTERS[i]), ((cx, BY - 22), LETTERS[i]),
                         ((BX - 24, cy), str(i + 1)), ((BX + BOARD + 24, cy), str(i + 1))):
            outlined_text(draw, xy, text, 24, INK, (255, 255, 255), stroke=2)

    def marker(kind: str) -> Any:
        return lambda mx, my: paste_candy(image, kind, mx, my, 15)

    rows = (len(kinds) + 2) // 3
    top = HEIGHT - 16 - rows * 38 - 16
    draw.text((PANEL_X + 4, top - 6), "Candies: type these names, e.g. keep corn",
              font=font(16), fill=MUTED, anchor="lb")
    legend(draw, (PANEL_X, top, PANEL_X + PANEL_W, top + rows * 38 + 16),
           [(marker(k), k) for k in kinds], columns=3,
           size=15, marker_width=30)
    return image


def _draw(view: dict[str, Any]) -> Image.Image:
    power = view.get("power")
    image = _base(tuple(view["types"]), HEIGHT + STRIP if power else HEIGHT).copy()
    draw = ImageDraw.Draw(image)
    _draw_board(image, draw, view)
    _draw_seats(image, draw, view)
    _draw_marks_key(draw, view)
    _draw_panel(image, draw, view)
    if power:
        _draw_power_strip(image, draw, view)
    return image


def _draw_power_strip(image: Image.Image, draw: ImageDraw.ImageDraw,
                      view: dict[str, Any]) -> None:
    """One box per power card in play: its token as on the board, its state, its rule."""
    texts = view["power"].get("texts") or []
    if not texts:
        return
    top = HEIGHT - 6
    width = (WIDTH - 40) // len(texts)
    for i, card in enumerate(texts):
        x0, x1 = 20 + i * width, 20 + (i + 1) * width - 14
        panel(draw, (x0, top, x1, top + STRIP - 10), fill=CARD, outline=CARD_EDGE, width=3)
        _card_icon(image, card, view, x0 + 12, top + 12, 64)
        tx = x0 + 90
        status = _card_status(card, view)
        status_w = text_size(draw, status, 17)[0]
        fitted_text(draw, (tx, top + 24), f"Power: {card['name']}", 22,
                    x1 - tx - status_w - 24, INK, bold=True, anchor="lm")
        draw.text((x1 - 12, top + 24), status, font=font(17), fill=MUTED, anchor="rm")
        if card.get("id") == "flavour" and view["power"].get("marker"):
            paste_candy(image, view["power"]["marker"], x1 - 24 - status_w - 4, top + 24, 13)
        lines = wrap(draw, card.get("short", "").replace("; ", " · "), 19, x1 - tx - 12)
        y = top + 46
        for line in lines[:3]:
            draw.text((tx, y), line, font=font(19), fill=INK)
            y += 26


def _card_icon(image: Image.Image, card: dict[str, Any], view: dict[str, Any], x: float,
               y: float, side: int) -> None:
    """The card's token as the board shows it: on a space, on a candy, or on its own."""
    place = card.get("place")
    if place in ("space", "chip"):
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle((x, y, x + side, y + side), radius=8, fill=CELL_LIGHT,
                               outline=(215, 195, 175))
        if place == "space":
            paste_token(image, card["id"], x + 2, y + 2, side - 4)
        paste_candy(image, "lollipop", x + side / 2, y + side / 2 + 1, round(side * 0.36))
        if place == "chip":
            paste_token(image, card["id"], x, y, side)
    else:
        paste_token(image, card["id"], x + 4, y + 4, side - 8)


def _card_status(card: dict[str, Any], view: dict[str, Any]) -> str:
    """Where the card's tokens are now, in a few words."""
    power = view["power"]
    kind = card.get("type")
    if kind == "pile":
        return f"{PILE_TEXT} {(power.get('pile') or {}).get(card['id'], 0)}/{card['tokens']}"
    if kind == "discard":
        left = (power.get("supply") or {}).get(card["id"], 0)
        return f"on the card {left}/{card['tokens']}"
    if kind == "board":
        return f"{card['tokens']} on the board"
    return "marker on"


def _sample_views() -> list[dict[str, Any]]:
    """Made-up 4-player positions that use every colour and mark the picture can show."""
    kinds = list(CANDY_COLOURS)
    sides = ("south", "west", "north", "east")
    views = []
    for active, phase in enumerate(("blast", "keep", "replace", "over")):
        views.append({
            "game": "sugar-blast", "move": 1, "size": SIZE, "types": kinds,
            "board": [[kinds[(c + 2 * r + active) % 6] for c in range(SIZE)]
                      for r in range(SIZE)],
            "seats": [{"name": f"Seat {i}", "ai": bool(i), "side": sides[i], "progress": i,
                       "needed": 5, "kept": {k: 1 for k in kinds[: i + 2]}}
                      for i in range(4)],
            "objective": {"id": "x", "name": "Sample", "text": "Sample card.",
                          "groups": [{"count": 3, "kind": None}, {"count": 2, "kind": "corn"}]},
            "bag": 30, "turn": active, "to_act": [active], "tilt": sides[active],
            "phase": phase, "drawn": "corn",
            "choices": {"keep": kinds[:3],
                        "blasts": [{"notation": f"blast a{i + 1}-c{i + 1}", "kind": "three",
                                    "cells": [[0, i], [1, i], [2, i]]} for i in range(6)]},
            "last": {"seat": 0, "swap": [[3, 3], [4, 3]], "replaced": [5, 5],
                     "blasted": [[3, 0], [4, 0], [5, 0]]},
            "result": None if phase != "over" else {
                "ranking": [[0], [1, 2], [3]], "scores": {"0": 5, "1": 3, "2": 3, "3": 1},
                "summary": "Seat 0 completed Sample."},
        })
    return views


@cache
def _power_sample() -> dict[str, Any]:
    """A made-up position with every power token on the board, in hands and on cards."""
    from bot.games.sugar_blast import powers

    view = _sample_views()[0]
    cards = powers.cards()
    texts = [{"id": c["id"], "name": c["name"], "type": c["type"], "place": c["place"],
              "tokens": c["tokens"], **powers.card_text(c)} for c in cards]
    chips = [c["id"] for c in cards if c["place"] == "chip"]
    spaces = [c["id"] for c in cards if c["place"] == "space"]
    hands = [c["id"] for c in cards if c["place"] == "hand"]
    view["power"] = {
        "texts": texts[:2], "marker": "corn", "pile": {}, "supply": {},
        "chips": {f"{LETTERS[i]}2": card_id for i, card_id in enumerate(chips)},
        "spaces": {f"{LETTERS[i]}5": card_id for i, card_id in enumerate(spaces)},
        "hands": [{card_id: 2} for card_id in hands],
    }
    view["last"]["taken"] = [0, 0]
    view["phase"], view["choices"] = "rush", {"rush": "rush"}
    return view


@cache
def _palette() -> Image.Image:
    samples = [_draw(v) for v in [*_sample_views(), _power_sample()]]
    icons = Image.new("RGB", (WIDTH, 80), PANEL)
    from bot.games.sugar_blast import powers

    for i, card in enumerate(powers.cards()):  # every card's icon, as the strip draws it
        _card_icon(icons, {"id": card["id"], "place": card["place"]}, {}, 10 + 90 * i, 8, 64)
    sheet = Image.new("RGB", (WIDTH, sum(s.height for s in samples) + icons.height))
    y = 0
    for sample in [*samples, icons]:
        sheet.paste(sample, (0, y))
        y += sample.height
    return make_palette(sheet)


def render(view: dict[str, Any]) -> bytes:
    """The public (or a seat's) Sugar Blast picture as PNG bytes."""
    return to_png(_draw(view), _palette())
