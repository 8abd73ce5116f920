"""Sugar Blast picture in the phone frame (:mod:`renderers.common`): 800 px wide, every
text 20 px or more (10 px on a phone) and most of it 24 px.

Top to bottom, each a strip: the shared header (whose turn, the bag, the move, what to
do); the board with each seat's band on its own edge and, right of it, the candies'
key and the objective card drawn as candies; the players (mark, name, tokens held,
progress and kept candies), or once over the final ranking with its tie-breaks in
words; the legend of the marks on the board (the last move, what was blasted, the tilt,
the Blasts to choose from); and the power cards in play (once the game is over, only
their tokens' names, in the legend).

Each candy kind has its own silhouette as well as its own colour, so the board
reads without colour vision and at phone size. Candies are drawn once per size
at four times the resolution and scaled down (smooth edges), then pasted; the
parts that never change (board frame, coordinates, candy key) are drawn once too.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers import common

WIDTH = common.FRAME_W
SIZE = 6
CELL = 70
BOARD = CELL * SIZE
GAP, BAND = 32, 36  # space between board and a seat's name band; the band's thickness
BX = common.FRAME_MARGIN + BAND + GAP  # the board's top-left corner in its strip
BY = 6 + BAND + GAP
#: The board strip's height, and where it begins in the picture (under the header).
BOARD_H = BY + BOARD + GAP + BAND + 6
BOARD_TOP = common.HEADER_H
SIDE_X = BX + BOARD + GAP + BAND + 14  # the candies' key and the objective, right of it
SIDE_W = WIDTH - common.FRAME_MARGIN - SIDE_X
ROW = 86  # one player's card in the players' strip, two to a row
COL_W = (WIDTH - 2 * common.FRAME_MARGIN - 12) // 2
LETTERS = "abcdef"
CANDY_RADIUS = 26
KEY_CANDY = 16  # a candy in a key or a player's card

CANDY_COLOURS: dict[str, common.Colour] = {
    "marshmallow": (246, 170, 196),
    "corn": (245, 150, 30),
    "cane": (214, 40, 40),
    "lollipop": (128, 72, 190),
    "gumdrop": (40, 150, 70),
    "truffle": (110, 64, 40),
}
BLASTED: common.Colour = (255, 214, 224)
BURST: common.Colour = (225, 30, 80)
#: Okabe-Ito hues again, but in an order that starts unlike the seat colours.
CHOICE_COLOURS: tuple[common.Colour, ...] = ((0, 114, 178), (213, 94, 0), (0, 158, 115),
                                             (204, 121, 167), (86, 180, 233), (90, 90, 90))
CELL_LIGHT: common.Colour = (255, 250, 242)
CELL_DARK: common.Colour = (244, 232, 216)
FRAME: common.Colour = (232, 214, 196)
FRAME_EDGE: common.Colour = (180, 150, 125)
CARD: common.Colour = (255, 238, 214)
CARD_EDGE: common.Colour = (235, 150, 40)
CELL_EDGE: common.Colour = (215, 195, 175)
#: What each kind of last move did, as the legend says it.
LAST_WORDS = {"swap": "swapped", "replaced": "drew and replaced", "taken": "took"}

Cell = tuple[int, int]


# --------------------------------------------------------------------------- candies


def _candy_shape(draw: ImageDraw.ImageDraw, kind: str | None, cx: float, cy: float,
                 r: float) -> None:
    """One candy (or the "any kind" chip for ``None``) centred on (cx, cy), about ``r`` round."""
    line = max(2, round(r / 11))
    if kind is None:  # the objective's "any kind": a grey chip with a question mark
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(236, 236, 236), outline=common.MUTED,
                     width=line)
        draw.text((cx, cy + r * 0.05), "?", font=common.font(round(r * 1.3), True),
                  fill=common.MUTED,
                  anchor="mm")
        return
    colour = CANDY_COLOURS.get(kind, (160, 160, 160))
    if kind == "marshmallow":  # a soft cylinder: rounded block with a top ellipse
        draw.rounded_rectangle((cx - r * 0.8, cy - r * 0.7, cx + r * 0.8, cy + r * 0.9),
                               radius=r * 0.35, fill=colour, outline=common.INK, width=line)
        draw.ellipse((cx - r * 0.8, cy - r * 0.95, cx + r * 0.8, cy - r * 0.4),
                     fill=(253, 220, 232), outline=common.INK, width=line)
    elif kind == "corn":  # a triangle in three bands, tip up
        top, base, half = cy - r, cy + r * 0.88, r * 0.98

        def at(t: float) -> tuple[float, float, float]:
            return top + (base - top) * t, cx - half * t, cx + half * t

        for t0, t1, fill in ((0.0, 0.36, (255, 250, 240)), (0.36, 0.7, colour),
                             (0.7, 1.0, (250, 210, 40))):
            y0, l0, r0 = at(t0)
            y1, l1, r1 = at(t1)
            draw.polygon([(l0, y0), (r0, y0), (r1, y1), (l1, y1)], fill=fill)
        draw.polygon([(cx, top), (cx + half, base), (cx - half, base)], outline=common.INK,
                     width=line)
    elif kind == "cane":  # a striped hook
        w = r * 0.42
        stem_x = cx - r * 0.15
        hook = (stem_x, cy - r * 0.98, cx + r * 0.8, cy - r * 0.12)
        for width, fill in ((w + 2 * line, common.INK), (w, colour)):
            draw.arc(hook, 180, 360, fill=fill, width=round(width))
            draw.line((stem_x, cy - r * 0.55, stem_x, cy + r * 0.95), fill=fill,
                      width=round(width))
        draw.line((stem_x, cy - r * 0.55, stem_x, cy + r * 0.95 - line), fill=colour,
                  width=round(w))
        for i in range(4):
            y = cy - r * 0.3 + i * r * 0.33
            draw.line((stem_x - w / 2, y + w * 0.35, stem_x + w / 2, y - w * 0.35),
                      fill=common.WHITE,
                      width=max(2, round(w / 3)))
        draw.line((cx + r * 0.55, cy - r * 0.85, cx + r * 0.72, cy - r * 0.5), fill=common.WHITE,
                  width=max(2, round(w / 3)))
    elif kind == "lollipop":  # a disc with a spiral, on a stick
        draw.line((cx, cy + r * 0.2, cx, cy + r), fill=common.INK, width=round(r / 5) + 2 * line)
        draw.line((cx, cy + r * 0.2, cx, cy + r - line), fill=(245, 238, 225),
                  width=round(r / 5))
        d = r * 0.72
        ccy = cy - r * 0.95 + d
        draw.ellipse((cx - d, ccy - d, cx + d, ccy + d), fill=colour, outline=common.INK,
                     width=line)
        points = [(cx + d * 0.85 * s / 60 * math.cos(s * 0.35),
                   ccy + d * 0.85 * s / 60 * math.sin(s * 0.35)) for s in range(61)]
        draw.line(points, fill=common.WHITE, width=max(2, round(line * 1.1)))
    elif kind == "gumdrop":  # a dome with sugar dots
        left, right, bottom = cx - r * 0.92, cx + r * 0.92, cy + r * 0.62
        draw.chord((left, cy - r * 0.95, right, cy + r * 1.15), 180, 360, fill=colour)
        draw.rectangle((left, cy + r * 0.1, right, bottom), fill=colour)
        draw.arc((left, cy - r * 0.95, right, cy + r * 1.15), 180, 360, fill=common.INK, width=line)
        draw.line((left, cy + r * 0.1, left, bottom, right, bottom, right, cy + r * 0.1),
                  fill=common.INK, width=line, joint="curve")
        dot = max(1.5, r / 12)
        for dx, dy in ((-0.45, -0.2), (0.1, -0.5), (0.45, -0.05), (-0.1, 0.25), (0.55, 0.38),
                       (-0.6, 0.4)):
            x, y = cx + dx * r, cy + dy * r
            draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=(225, 255, 225))
    elif kind == "truffle":  # a hexagon with a drizzle
        points = [(cx + r * 0.95 * math.cos(math.radians(60 * i + 30)),
                   cy + r * 0.95 * math.sin(math.radians(60 * i + 30))) for i in range(6)]
        draw.polygon(points, fill=colour, outline=common.INK, width=line)
        zig = [(cx - r * 0.55 + i * r * 0.22, cy + (r * 0.18 if i % 2 else -r * 0.18))
               for i in range(6)]
        draw.line(zig, fill=(240, 215, 170), width=max(2, round(line * 1.2)), joint="curve")
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=common.INK, width=line)


@cache
def candy_sprite(kind: str | None, radius: int) -> Image.Image:
    """A candy drawn with smooth edges on a transparent square of side ``2 * radius + 4``."""
    side = 2 * radius + 4
    return common.smooth_sprite(side, side, lambda draw, k: _candy_shape(draw, kind, side * k / 2,
                                                                         side * k / 2, radius * k))


def paste_candy(image: Image.Image, kind: str | None, cx: float, cy: float,
                radius: int) -> None:
    """Paste the candy (``None``: the "any kind" chip) centred on (cx, cy)."""
    common.paste_centred(image, candy_sprite(kind, radius), cx, cy)


# --------------------------------------------------------------------------- power tokens

TOFFEE: common.Colour = (214, 150, 70)
TOFFEE_DARK: common.Colour = (150, 90, 30)
STAR_GOLD: common.Colour = (255, 205, 40)
STAR_EDGE: common.Colour = (205, 135, 0)
JELLY: common.Colour = (240, 190, 240)
JELLY_EDGE: common.Colour = (170, 70, 170)
ICE: tuple[int, int, int, int] = (140, 205, 255, 120)
ICE_EDGE: common.Colour = (40, 120, 215)
CAGE: common.Colour = (135, 75, 20)
TAKEN: common.Colour = (60, 50, 55)
RAINBOW: tuple[common.Colour, ...] = ((230, 40, 40), (250, 150, 0), (240, 220, 0), (40, 170, 60),
                              (30, 120, 230), (140, 60, 200))
HAND_COLOURS: dict[str, common.Colour] = {"twist": (0, 150, 150), "tongs": (120, 130, 145),
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
        draw.arc((s * 0.14, s * 0.14, s * 0.6, s * 0.6), 190, 260, fill=common.WHITE,
                 width=line * 2)
    elif card_id == "frozen":  # a translucent ice cube over the candy
        draw.rounded_rectangle((s * 0.08, s * 0.08, s * 0.92, s * 0.92), radius=s * 0.12,
                               fill=ICE, outline=ICE_EDGE, width=line * 2)
        draw.line((s * 0.2, s * 0.36, s * 0.36, s * 0.2), fill=common.WHITE, width=line * 2)
        draw.line((s * 0.2, s * 0.5, s * 0.5, s * 0.2), fill=common.WHITE, width=line)
    elif card_id == "bomb":  # a black bomb with a lit fuse in the top-left corner
        r, cx, cy = s * 0.2, s * 0.23, s * 0.28
        draw.line((cx + r * 0.5, cy - r * 0.6, cx + r * 1.1, cy - r * 1.15), fill=common.INK,
                  width=line * 2)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=common.INK, outline=common.WHITE,
                     width=line)
        draw.ellipse((cx - r * 0.5, cy - r * 0.55, cx - r * 0.1, cy - r * 0.15), fill=common.MUTED)
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
        draw.ellipse((s * 0.12, s * 0.05, s * 0.88, s * 0.75), fill=STAR_GOLD, outline=common.INK,
                     width=line)
    else:  # a token in a player's hand: a coloured disc with its picture
        colour = HAND_COLOURS.get(card_id, common.MUTED)
        draw.ellipse((s * 0.03, s * 0.03, s * 0.97, s * 0.97), fill=colour, outline=common.INK,
                     width=line)
        w = max(2, round(s * 0.09))
        if card_id == "twist":  # two crossing diagonal arrows
            for (x0, y0), (x1, y1) in (((0.28, 0.72), (0.72, 0.28)), ((0.28, 0.28), (0.72, 0.72))):
                draw.line((s * x0, s * y0, s * x1, s * y1), fill=common.WHITE, width=w)
                draw.ellipse((s * x1 - w, s * y1 - w, s * x1 + w, s * y1 + w), fill=common.WHITE)
        elif card_id == "tongs":  # a pair of tongs
            draw.line((s * 0.3, s * 0.2, s * 0.45, s * 0.8), fill=common.WHITE, width=w)
            draw.line((s * 0.7, s * 0.2, s * 0.55, s * 0.8), fill=common.WHITE, width=w)
            draw.line((s * 0.3, s * 0.2, s * 0.7, s * 0.2), fill=common.WHITE, width=w)
        elif card_id == "rush":  # a lightning bolt
            draw.polygon([(s * 0.56, s * 0.12), (s * 0.3, s * 0.55), (s * 0.48, s * 0.55),
                          (s * 0.4, s * 0.9), (s * 0.7, s * 0.42), (s * 0.52, s * 0.42)],
                         fill=common.WHITE)
        elif card_id == "steal":  # a tooth
            draw.polygon([(s * 0.28, s * 0.3), (s * 0.72, s * 0.3), (s * 0.68, s * 0.62),
                          (s * 0.6, s * 0.82), (s * 0.52, s * 0.6), (s * 0.48, s * 0.6),
                          (s * 0.4, s * 0.82), (s * 0.32, s * 0.62)], fill=common.WHITE)
            draw.ellipse((s * 0.26, s * 0.2, s * 0.52, s * 0.42), fill=common.WHITE)
            draw.ellipse((s * 0.48, s * 0.2, s * 0.74, s * 0.42), fill=common.WHITE)


@cache
def token_sprite(card_id: str, side: int) -> Image.Image:
    """A power token with smooth edges on a transparent square of ``side`` pixels."""
    return common.smooth_sprite(side, side, lambda draw, k: _token_art(draw, card_id, side * k))


def paste_token(image: Image.Image, card_id: str, x: float, y: float, side: int) -> None:
    """Paste a token with its top-left corner at (x, y)."""
    common.paste_at(image, token_sprite(card_id, side), x, y)


def _cell_of(name: str) -> Cell:
    return LETTERS.index(name[0]), int(name[1:]) - 1


# --------------------------------------------------------------------------- board


def cell_box(col: int, row: int) -> tuple[int, int, int, int]:
    """Pixel box of a cell in the board's strip (:data:`BOARD_TOP` down in the picture);
    row 0 (row "1") is at the bottom."""
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
    draw.polygon(points, fill=BURST, outline=common.INK)


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
def _cell_sprite(fill: common.Colour, blasted: bool, token: str | None, candy: str | None,
                 ) -> Image.Image:
    """A cell's inside (all of it but its edge lines): its fill, pink if blasted, the power
    token on its space, the candy on it. Pasted whole, with no transparency to work through:
    a board's 36 candies cost a tenth of pasting them on their cells one by one."""
    inside = CELL - 1
    sprite, _ = common.new_canvas(inside, inside, BLASTED if blasted else fill)
    if token is not None:
        paste_token(sprite, token, 1, 1, CELL - 4)
    if candy:
        paste_candy(sprite, candy, CELL / 2 - 1, CELL / 2 + 1, CANDY_RADIUS)
    return sprite


def _draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The candies and tokens on their cells, the last move's marks, the Blasts to choose."""
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
                common.paste_at(image,
                                _cell_sprite(fill, (col, row) in blasted, token, candy or None),
                                x0 + 1, y0 + 1)
    for name, card_id in (power.get("chips") or {}).items():  # over the candies
        x0, y0, _, _ = cell_box(*_cell_of(name))
        paste_token(image, card_id, x0, y0, CELL)
    for col, row in blasted:
        _, y0, x1, _ = cell_box(col, row)
        _burst(draw, x1 - 12, y0 + 12, 10)
    swap = [tuple(c) for c in last.get("swap") or []]
    moved = [*swap, *(tuple(last[k]) for k in ("replaced", "taken") if last.get(k))]
    for col, row in moved:
        common.last_move_mark(draw, cell_box(col, row))
    if len(swap) == 2:
        (ax, ay), (bx, by) = (cell_centre(*c) for c in swap)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        draw.ellipse((mx - 16, my - 16, mx + 16, my + 16), fill=common.WHITE, outline=common.INK,
                     width=2)
        draw.text((mx, my), "⇄" if ay == by else "⇅", font=common.font(24, True), fill=common.INK,
                  anchor="mm")
    _draw_blast_choices(draw, view.get("choices", {}).get("blasts") or [])


def _draw_blast_choices(draw: ImageDraw.ImageDraw, options: list[dict[str, Any]]) -> None:
    """Outline each pending Blast in its own colour and inset, numbered in order."""
    for i, option in enumerate(options):
        inset = 4 + 5 * (i % 4)
        for start, end in blast_runs((int(c), int(r)) for c, r in option["cells"]):
            x0, y0, _, _ = cell_box(min(start[0], end[0]), max(start[1], end[1]))
            _, _, x1, y1 = cell_box(max(start[0], end[0]), min(start[1], end[1]))
            draw.rounded_rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset),
                                   radius=10, outline=CHOICE_COLOURS[i % len(CHOICE_COLOURS)],
                                   width=5)
    # Number badges go on top, on different cells where possible so that none hides another.
    taken: set[Cell] = set()
    for i, option in enumerate(options):
        cells = sorted(((int(c), int(r)) for c, r in option["cells"]),
                       key=lambda c: (-c[1], c[0]))
        spot = next((c for c in cells if c not in taken), cells[0])
        taken.add(spot)
        x0, y0, _, _ = cell_box(*spot)
        inset = 4 + 5 * (i % 4)
        common.badge(draw, (x0 + inset + 16, y0 + inset + 16), str(i + 1),
                     CHOICE_COLOURS[i % len(CHOICE_COLOURS)], radius=16)


# --------------------------------------------------------------------------- seats on the board


def _draw_seats(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
                table: common.Table) -> None:
    """Each player's mark and name along their own edge; the player to act gets a band in
    their colour, with the candy they drew or the token they may discard at its end."""
    for seat, info in enumerate(view["seats"]):
        colour = table.rgb(seat)
        active = seat in table.acting
        won = seat in table.winners
        band = Image.new("RGB", (BOARD, BAND),
                         colour if active else common.GOLD if won else common.PANEL)
        ImageDraw.Draw(band).rectangle((0, 0, BOARD - 1, BAND - 1), outline=colour, width=3)
        room = BOARD - 40 - (BAND if active else 0)
        if active:
            label = common.with_ending(table.names[seat], " to play", common.TEXT_PX, room)
        elif won:
            label = common.with_ending(table.names[seat], " wins", common.TEXT_PX, room)
        else:
            label = common.with_ending(table.names[seat], f" · {info['progress']}/{info['needed']}",
                                       common.TEXT_PX, room)
        left = (BOARD - 30 - common.text_size(label, common.TEXT_PX, True)[0]) / 2
        common.stamp_text(band, (left + 30, BAND / 2), label, common.TEXT_PX,
                          common.ink_on(colour) if active
                          else common.INK if won else table.text_rgb(seat), True, "lm")
        if active:
            _band_choice(band, view)
        # The mark goes on after the band is turned, so that it stands upright on every side.
        along, across = round(left + 11), BAND // 2  # whole pixels: the same mark everywhere
        side = info["side"]
        if side == "south":
            common.paste_at(image, band, BX, BY + BOARD + GAP)
            mark = (BX + along, BY + BOARD + GAP + across)
        elif side == "north":
            common.paste_at(image, band, BX, BY - GAP - BAND)
            mark = (BX + along, BY - GAP - BAND + across)
        elif side == "west":
            common.paste_at(image, band.rotate(90, expand=True), BX - GAP - BAND, BY)
            mark = (BX - GAP - BAND + across, BY + BOARD - along)
        else:
            common.paste_at(image, band.rotate(-90, expand=True), BX + BOARD + GAP, BY)
            mark = (BX + BOARD + GAP + across, BY + along)
        if active:  # on the seat's own colour the mark stands on a white disc
            table.badge(draw, seat, *mark, 10)
        else:
            table.mark(draw, seat, *mark, 11)
    if table.acting:
        turn = table.acting[0]
        _tilt_arrows(draw, view.get("tilt") or view["seats"][turn]["side"], table.rgb(turn))


def _band_choice(band: Image.Image, view: dict[str, Any]) -> None:
    """At the end of the band of the player to act: the candy drawn to replace one, or
    the token a Sugar Rush discards, on a white disc."""
    choices = view.get("choices") or {}
    drawn = view.get("drawn") if view["phase"] == "replace" else None
    card = choices.get("rush") if view["phase"] == "rush" else None
    if not drawn and not card:
        return
    cx, cy = BOARD - BAND // 2 - 2, BAND // 2
    ImageDraw.Draw(band).ellipse((cx - 16, cy - 16, cx + 16, cy + 16), fill=common.WHITE)
    if drawn:
        paste_candy(band, drawn, cx, cy, 13)
    elif card:
        paste_token(band, card, cx - 14, cy - 14, 28)


def _tilt_arrows(draw: ImageDraw.ImageDraw, side: str, colour: common.Colour) -> None:
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
        common.arrow(draw, start, end, colour, width=8, head=16)


# --------------------------------------------------------------------------- the side column


def key_candy(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
              kind: str | None) -> None:
    """A legend icon: a candy (``None``: the objective's "any kind" chip)."""
    paste_candy(image, kind, cx, cy, KEY_CANDY)


def _candy_keys(kinds: tuple[str, ...], any_kind: bool) -> tuple[common.Key, ...]:
    """The candies' key: each kind by the name moves use (`keep corn`)."""
    keys = [common.Key(kind, key_candy, (kind,)) for kind in kinds]
    return (*keys, common.Key("any kind", key_candy, (None,))) if any_kind else tuple(keys)


def _draw_objective(image: Image.Image, draw: ImageDraw.ImageDraw, objective: dict[str, Any],
                    top: int) -> None:
    """The objective card from ``top`` to the foot of the board's strip: its name, and what
    it asks drawn as candies and counts (its sentence is in the alt text)."""
    x, w, bottom = SIDE_X, SIDE_W, BOARD_H - 6
    common.panel(draw, (x, top, x + w, bottom), fill=CARD, outline=CARD_EDGE, width=3)
    common.stamp_text(image, (x + 12, top + 10), "Objective", common.SMALL_PX, common.MUTED, True)
    y = top + 38
    for line in common.wrap(objective["name"], common.TEXT_PX, w - 24, True, limit=2):
        common.stamp_text(image, (x + 12, y), line, common.TEXT_PX, common.INK, True)
        y += 30
    gx, gy = x + 12, y + 28
    for group in objective["groups"]:
        count = f"×{group['count']}" if group["count"] > 1 else ""
        needs = 36 + (common.text_size(count, common.TEXT_PX, True)[0] + 4 if count else 0)
        if gx > x + 12 and gx + needs > x + w - 8:
            gx, gy = x + 12, gy + 42
        paste_candy(image, group.get("kind"), gx + 17, gy, 17)
        if count:
            common.stamp_text(image, (gx + 38, gy), count, common.TEXT_PX, common.INK, True, "lm")
        gx += needs + 8


# --------------------------------------------------------------------------- the board strip


@cache
def _base(kinds: tuple[str, ...], any_kind: bool) -> Image.Image:
    """What never changes in a game: the board's frame, cells, coordinates, candies' key."""
    image, draw = common.new_canvas(WIDTH, BOARD_H)
    common.panel(draw, (BX - 6, BY - 6, BX + BOARD + 6, BY + BOARD + 6), fill=FRAME,
                 outline=FRAME_EDGE, radius=10, width=3)
    for row in range(SIZE):
        for col in range(SIZE):
            fill = CELL_LIGHT if (row + col) % 2 else CELL_DARK
            draw.rectangle(cell_box(col, row), fill=fill, outline=CELL_EDGE)
    for i in range(SIZE):
        cx = BX + i * CELL + CELL / 2
        cy = BY + (SIZE - 1 - i) * CELL + CELL / 2
        for xy, text in (((cx, BY + BOARD + GAP // 2), LETTERS[i]),
                         ((cx, BY - GAP // 2), LETTERS[i]),
                         ((BX - GAP // 2, cy), str(i + 1)),
                         ((BX + BOARD + GAP // 2, cy), str(i + 1))):
            common.outlined_text(draw, xy, text, common.TEXT_PX, common.INK, common.WHITE, stroke=3)
    common.stamp_text(image, (SIDE_X, 8), "Candies", common.TEXT_PX, common.INK, True)
    common.draw_keys(image, draw, _candy_keys(kinds, any_kind), SIDE_X, 36, SIDE_W)
    return image


def _any_kind(view: dict[str, Any]) -> bool:
    return any(group.get("kind") is None for group in view["objective"]["groups"])


def _board(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The board's strip: the board and the seats round it, the key and objective beside."""
    kinds, any_kind = tuple(view["types"]), _any_kind(view)
    common.paste_at(image, _base(kinds, any_kind), 0, 0)
    _draw_board(image, draw, view)
    _draw_seats(image, draw, view, common.table_of(view))
    top = 36 + common.keys_height(_candy_keys(kinds, any_kind), SIDE_W) + 10
    _draw_objective(image, draw, view["objective"], top)


# --------------------------------------------------------------------------- the players


def _seat_cards(view: dict[str, Any], table: common.Table) -> tuple[tuple[Any, ...], ...]:
    """What each player's card shows: seat, label, acting, progress, needed, kept candies
    in the candies' order, tokens held."""
    hands = (view.get("power") or {}).get("hands") or []
    cards = []
    for seat, info in enumerate(view["seats"]):
        kept = info.get("kept") or {}
        hand = hands[seat] if seat < len(hands) else {}
        cards.append((seat, table.label(seat), seat in table.acting, info["progress"],
                      info["needed"], tuple((k, kept[k]) for k in view["types"] if kept.get(k)),
                      tuple(sorted((c, n) for c, n in hand.items() if n))))
    return tuple(cards)


def _players(image: Image.Image, draw: ImageDraw.ImageDraw, cards: tuple[tuple[Any, ...], ...],
             colours: tuple[str, ...]) -> None:
    """One card a player, two to a row: mark, name, tokens held, progress, kept candies."""
    for i, (seat, label, acting, progress, needed, kept, hand) in enumerate(cards):
        x = common.FRAME_MARGIN + (i % 2) * (COL_W + 12)
        top = 4 + (i // 2) * ROW
        hx = common.seat_card(image, draw, (x, top, x + COL_W, top + ROW - 8), seat, colours,
                              acting,
                              f"{progress}/{needed}") - 10
        y1, y2 = top + 22, top + 56
        for card_id, count in reversed(hand):  # right to left
            if count > 1:
                common.stamp_text(image, (hx, y1), f"×{count}", common.TEXT_PX, common.INK, True,
                                  "rm")
                hx -= common.text_size(f"×{count}", common.TEXT_PX, True)[0] + 2
            paste_token(image, card_id, hx - 30, y1 - 15, 30)
            hx -= 38
        common.stamp_text(image, (x + 40, y1), label, common.TEXT_PX, common.INK, True, "lm",
                          width=hx - x - 48)
        if not kept:
            common.stamp_text(image, (x + 14, y2), "no candies kept yet", common.SMALL_PX,
                              common.MUTED, anchor="lm")
            continue
        kx = x + 28
        for kind, count in kept:
            paste_candy(image, kind, kx, y2, KEY_CANDY)
            common.stamp_text(image, (kx + 19, y2), str(count), common.TEXT_PX, common.INK, True,
                              "lm")
            kx += 34 + common.text_size(str(count), common.TEXT_PX, True)[0] + 6


def _ranking(view: dict[str, Any], table: common.Table) -> common.Strip:
    """The final ranking: the rules rank the winner first, then by candies toward the
    objective, then by candies kept."""
    standings = []
    for seat, info in enumerate(view["seats"]):
        kept = sum((info.get("kept") or {}).values())
        standings.append(common.Standing(seat, (info["progress"], kept),
                                         f"{info['progress']}/{info['needed']} · {kept} kept"))
    return common.ranking_strip(table, standings, ("objective candies", "candies kept"))


# --------------------------------------------------------------------------- words and keys


def _what(view: dict[str, Any], table: common.Table) -> str:
    """What the player to act may do now, in the notation's words."""
    phase = view["phase"]
    choices = view.get("choices") or {}
    names = view.get("names") or {}
    if phase == "swap" and choices.get("draw"):
        return ("No swap makes a Blast: use a power token, or draw a candy and put it in "
                "place of one (draw).")
    if phase == "swap":
        return "Swap two neighbouring candies to make 3 or more in a line (swap c3 d3)."
    if phase == "rush":
        card = choices.get("rush") or "rush"
        return (f"The turn is over: discard a {card} token to play again at once ({card}), "
                "or end the turn (done).")
    if phase == "replace":
        drawn = view.get("drawn") or ""
        return (f"A {names.get(drawn, drawn)} was drawn: put it in place of a candy of "
                "another kind (replace c3).")
    if phase == "blast":
        options = choices.get("blasts") or []
        listed = " · ".join(f"{i + 1} {o['notation']}" for i, o in enumerate(options))
        return f"Choose the Blast that goes first, numbered on the board: {listed}"
    if phase == "keep":
        options = choices.get("keep") or []
        return f"Keep one more candy: {' or '.join(options)} (keep {min(options, key=len)})." \
            if options else "Keep one more candy."
    return ""


def key_blasted(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: a blasted cell with its starburst."""
    h = common.KEY_ICON // 2 - 2
    draw.rectangle((cx - h, cy - h, cx + h, cy + h), fill=BLASTED, outline=FRAME_EDGE)
    _burst(draw, cx, cy, h - 4)


def _keys(view: dict[str, Any], table: common.Table) -> tuple[common.Key, ...]:
    """A key for each mark on the board now: the last move, what it blasted, the tilt, the
    Blasts to choose from."""
    keys: list[common.Key] = []
    last = view.get("last") or {}
    if last:
        for mark, words in LAST_WORDS.items():
            cells = last.get(mark)
            if cells:
                named = " ".join(cell_name(*c) for c in cells) if mark == "swap" \
                    else cell_name(*cells)
                keys.append(common.last_move_key(table, last["seat"], f"{words} {named}"))
        if last.get("blasted"):
            keys.append(common.Key("blasted", key_blasted))
    if len(table.acting) == 1:
        turn = table.acting[0]
        keys.append(common.Key(f"after a Blast, candies fall toward {table.names[turn]}",
                               common.key_arrow,
                               (table.rgb(turn),)))
    if (view.get("choices") or {}).get("blasts"):
        keys.append(common.Key("the Blasts to choose from, in order", common.key_badge,
                               ("1", CHOICE_COLOURS[0])))
    return tuple(keys)


# --------------------------------------------------------------------------- assembly


def _strips(view: dict[str, Any]) -> list[common.Strip]:
    """The header, the board (drawn anew at every move), the players or the final ranking,
    the legend, and the power cards in play."""
    table = common.table_of(view)
    strips = [*common.header_strips(view, "Sugar Blast", stage=f"bag: {view['bag']} candies",
                            what=_what(view, table)),
              common.Strip(BOARD_H, _board, (view,), kept=False)]
    if table.over:
        strips.append(_ranking(view, table))
    else:
        cards = _seat_cards(view, table)
        strips.append(common.Strip(4 + ROW * ((len(cards) + 1) // 2), _players,
                                   (cards, table.colours)))
    keys = _keys(view, table)
    power = view.get("power")
    texts = power.get("texts") if power else None
    if texts and table.over:  # no rule to play by any more: their tokens' names will do
        keys += tuple(common.Key(card["name"], key_card, (card["id"], card.get("place")))
                      for card in texts)
    if keys:
        strips.append(common.legend(keys))
    if power and texts and not table.over:
        strips.append(common.Strip(_power_height(power), _draw_power_strip, (power,)))
    return strips


def _card_width(power: dict[str, Any]) -> int:
    return (WIDTH - 2 * common.FRAME_MARGIN + 12) // len(power["texts"]) - 12


def _rule_lines(card: dict[str, Any], width: int) -> list[str]:
    """The card's rule, wrapped right of its icon in a box ``width`` wide."""
    return common.wrap(card.get("short", "").replace("; ", " · "), common.SMALL_PX, width - 78,
                       limit=3)


def _power_height(power: dict[str, Any]) -> int:
    """The power cards' strip: as tall as the longest rule, and the icon, need."""
    width = _card_width(power)
    lines = max(len(_rule_lines(card, width)) for card in power["texts"])
    return max(84, 62 + 24 * lines) + 8


def _draw_power_strip(image: Image.Image, draw: ImageDraw.ImageDraw,
                      power: dict[str, Any]) -> None:
    """One box per power card in play: its token as on the board, its state, its rule."""
    width = _card_width(power)
    for i, card in enumerate(power["texts"]):
        x0 = common.FRAME_MARGIN + i * (width + 12)
        x1 = x0 + width
        common.panel(draw, (x0, 4, x1, image.height - 8), fill=CARD, outline=CARD_EDGE, width=3)
        _card_icon(image, card, x0 + 8, 14, 52)
        tx = x0 + 68
        status = _card_status(card, power)
        marker = power.get("marker") if card.get("id") == "flavour" else None
        status_x = x1 - 10 - (32 if marker else 0)  # the marker candy goes right of "marker"
        status_w = common.text_size(status, common.SMALL_PX)[0] + x1 - status_x
        common.stamp_text(image, (tx, 28), card["name"], common.TEXT_PX, common.INK, True, "lm",
                          width=x1 - tx - status_w - 16)
        common.stamp_text(image, (status_x, 28), status, common.SMALL_PX, common.MUTED, anchor="rm")
        if marker:
            paste_candy(image, marker, x1 - 24, 28, 14)
        y = 50
        for line in _rule_lines(card, width):
            common.stamp_text(image, (tx, y), line, common.SMALL_PX, common.INK)
            y += 24


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


def key_card(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
             card_id: str, place: str | None) -> None:
    """A legend icon: a power card's token as the board shows it."""
    _card_icon(image, {"id": card_id, "place": place}, cx - common.KEY_ICON / 2,
               cy - common.KEY_ICON / 2,
               common.KEY_ICON)


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
PALETTE_GAMES = (common.Sample(4, 5, (0, 6, common.END)),
                 common.Sample(3, 4, (3,), options=(("power", "random 2"),)))


def _kept() -> tuple[common.Colour, ...]:
    """Flat fills kept exact: an octree bucket shared with their edges would shade them."""
    return (*CANDY_COLOURS.values(), CELL_LIGHT, CELL_DARK, CELL_EDGE, FRAME, FRAME_EDGE, CARD,
            CARD_EDGE, common.ACTING_FILL, BLASTED)


def _icons() -> list[Image.Image]:
    """Every power card's icon, as the strip draws it from the cards' content, for the cards
    the palette's games did not deal."""
    from bot.games.sugar_blast import powers

    icons = Image.new("RGB", (WIDTH, 80), common.PANEL)
    for i, card in enumerate(powers.cards()):
        _card_icon(icons, card, 10 + 64 * i, 8, 52)
    return [icons]


PICTURES = common.Pictures("sugar-blast", WIDTH, _strips, PALETTE_GAMES, keep=_kept, extra=_icons)
_draw, _palette, render = PICTURES.draw, PICTURES.palette, PICTURES.render
