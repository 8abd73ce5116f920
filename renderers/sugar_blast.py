"""Sugar Blast picture: the board with its seats and tilt, and a side panel.

Each candy kind has its own silhouette as well as its own colour, so the
board reads without colour vision and at phone size.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    INK,
    MUTED,
    SEAT_COLOURS,
    Colour,
    arrow,
    centred_text,
    fitted_text,
    font,
    make_palette,
    new_canvas,
    panel,
    to_png,
    wrap,
)

WIDTH, HEIGHT = 1200, 770
CELL = 92
SIZE = 6
BX, BY = 96, 116  # top-left corner of the board
BOARD = CELL * SIZE
PANEL_X = 756

CANDY_COLOURS: dict[str, Colour] = {
    "marshmallow": (246, 170, 196),
    "corn": (245, 150, 30),
    "cane": (214, 40, 40),
    "lollipop": (128, 72, 190),
    "gumdrop": (40, 150, 70),
    "truffle": (110, 64, 40),
}
BLASTED: Colour = (255, 222, 230)
SWAPPED: Colour = (255, 190, 0)
REPLACED: Colour = (0, 150, 200)
CHOICE_COLOURS: tuple[Colour, ...] = ((0, 114, 178), (213, 94, 0), (0, 158, 115),
                                      (204, 121, 167), (86, 180, 233), (120, 120, 120))
CELL_LIGHT: Colour = (255, 250, 242)
CELL_DARK: Colour = (246, 236, 222)


# --------------------------------------------------------------------------- candies


def draw_candy(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    """One candy chip centred on (cx, cy) with radius about ``r``."""
    colour = CANDY_COLOURS.get(kind, (160, 160, 160))
    line = max(2, round(r / 12))
    if kind == "marshmallow":  # a soft cylinder: rounded block with a top ellipse
        draw.rounded_rectangle((cx - r * 0.8, cy - r * 0.75, cx + r * 0.8, cy + r * 0.85),
                               radius=r * 0.35, fill=colour, outline=INK, width=line)
        draw.ellipse((cx - r * 0.8, cy - r * 0.95, cx + r * 0.8, cy - r * 0.4),
                     fill=(252, 214, 226), outline=INK, width=line)
    elif kind == "corn":  # a triangle in three bands, tip up
        top, base = cy - r, cy + r * 0.85
        half = r * 0.95

        def at(t: float) -> tuple[float, float, float]:
            y = top + (base - top) * t
            return y, cx - half * t, cx + half * t

        bands = ((0.0, 0.35, (255, 250, 240)), (0.35, 0.7, colour), (0.7, 1.0, (250, 205, 40)))
        for t0, t1, fill in bands:
            y0, l0, r0 = at(t0)
            y1, l1, r1 = at(t1)
            draw.polygon([(l0, y0), (r0, y0), (r1, y1), (l1, y1)], fill=fill)
        draw.polygon([(cx, top), (cx + half, base), (cx - half, base)], outline=INK, width=line)
    elif kind == "cane":  # a striped hook
        w = max(6, round(r * 0.42))
        hook = (cx - r * 0.1, cy - r * 0.95, cx + r * 0.8, cy - r * 0.15)
        draw.arc(hook, 180, 360, fill=INK, width=w + 2 * line)
        draw.line((cx - r * 0.1, cy - r * 0.55, cx - r * 0.1, cy + r * 0.95), fill=INK,
                  width=w + 2 * line)
        draw.arc(hook, 180, 360, fill=colour, width=w)
        draw.line((cx - r * 0.1, cy - r * 0.55, cx - r * 0.1, cy + r * 0.9), fill=colour,
                  width=w)
        for i in range(4):
            y = cy - r * 0.35 + i * r * 0.35
            draw.line((cx - r * 0.1 - w / 2, y + w * 0.3, cx - r * 0.1 + w / 2, y - w * 0.3),
                      fill=(255, 255, 255), width=max(2, w // 3))
        draw.line((cx + r * 0.58, cy - r * 0.8, cx + r * 0.72, cy - r * 0.45),
                  fill=(255, 255, 255), width=max(2, w // 3))
    elif kind == "lollipop":  # a disc with a spiral, on a stick
        draw.line((cx, cy + r * 0.2, cx, cy + r), fill=(235, 225, 210), width=max(4, round(r / 5)))
        draw.line((cx, cy + r * 0.2, cx, cy + r), fill=INK, width=line)
        d = r * 0.72
        draw.ellipse((cx - d, cy - r * 0.95, cx + d, cy - r * 0.95 + 2 * d), fill=colour,
                     outline=INK, width=line)
        ccy = cy - r * 0.95 + d
        points = []
        for step in range(60):
            a = step * 0.35
            rad = d * 0.85 * step / 60
            points.append((cx + rad * math.cos(a), ccy + rad * math.sin(a)))
        draw.line(points, fill=(255, 255, 255), width=max(2, line))
    elif kind == "gumdrop":  # a dome with sugar dots
        draw.chord((cx - r * 0.9, cy - r * 0.95, cx + r * 0.9, cy + r * 1.2), 180, 360,
                   fill=colour, outline=INK, width=line)
        draw.rectangle((cx - r * 0.9, cy + r * 0.1, cx + r * 0.9, cy + r * 0.6), fill=colour)
        draw.line((cx - r * 0.9, cy + r * 0.12, cx - r * 0.9, cy + r * 0.6), fill=INK,
                  width=line)
        draw.line((cx + r * 0.9, cy + r * 0.12, cx + r * 0.9, cy + r * 0.6), fill=INK,
                  width=line)
        draw.line((cx - r * 0.9, cy + r * 0.6, cx + r * 0.9, cy + r * 0.6), fill=INK,
                  width=line)
        dot = max(1.5, r / 14)
        for dx, dy in ((-0.45, -0.2), (0.1, -0.5), (0.45, -0.05), (-0.1, 0.25), (0.5, 0.35)):
            x, y = cx + dx * r, cy + dy * r
            draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=(235, 255, 235))
    elif kind == "truffle":  # a hexagon with a drizzle
        pts = [(cx + r * 0.92 * math.cos(math.radians(60 * i + 30)),
                cy + r * 0.92 * math.sin(math.radians(60 * i + 30))) for i in range(6)]
        draw.polygon(pts, fill=colour, outline=INK, width=line)
        zig = [(cx - r * 0.55 + i * r * 0.22, cy - r * 0.1 + (r * 0.18 if i % 2 else -r * 0.18))
               for i in range(6)]
        draw.line(zig, fill=(240, 215, 170), width=max(2, line))
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=line)


def draw_any(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The "any kind" chip of an objective: a dashed circle with a question mark."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(240, 240, 240), outline=MUTED,
                 width=max(2, round(r / 10)))
    centred_text(draw, (cx, cy), "?", round(r * 1.3), MUTED, bold=True)


# --------------------------------------------------------------------------- board


def cell_box(col: int, row: int) -> tuple[int, int, int, int]:
    """Pixel box of a cell; row 0 is at the bottom."""
    x = BX + col * CELL
    y = BY + (SIZE - 1 - row) * CELL
    return (x, y, x + CELL, y + CELL)


def _draw_board(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    last = view.get("last") or {}
    blasted = {tuple(c) for c in last.get("blasted") or []}
    swap = {tuple(c) for c in last.get("swap") or []}
    replaced = tuple(last["replaced"]) if last.get("replaced") else None
    panel(draw, (BX - 8, BY - 8, BX + BOARD + 8, BY + BOARD + 8), fill=(232, 214, 196),
          outline=(180, 150, 125), radius=12, width=3)
    for row in range(SIZE):
        for col in range(SIZE):
            box = cell_box(col, row)
            fill = CELL_LIGHT if (row + col) % 2 else CELL_DARK
            if (col, row) in blasted:
                fill = BLASTED
            draw.rectangle(box, fill=fill, outline=(215, 195, 175))
            candy = view["board"][row][col]
            if candy:
                draw_candy(draw, candy, box[0] + CELL / 2, box[1] + CELL / 2 + 2, CELL * 0.36)
            if (col, row) in blasted:
                _burst(draw, box[2] - 13, box[1] + 13, 9)
    for cell in swap:
        x0, y0, x1, y1 = cell_box(*cell)
        draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=10, outline=SWAPPED,
                               width=6)
    if len(swap) == 2:
        (a, b) = sorted(swap)
        ax, ay = _centre(a)
        bx, by = _centre(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        draw.ellipse((mx - 15, my - 15, mx + 15, my + 15), fill=SWAPPED, outline=INK, width=2)
        centred_text(draw, (mx, my), "⇄" if ay == by else "⇅", 20, INK, bold=True)
    if replaced:
        x0, y0, x1, y1 = cell_box(*replaced)
        draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=10, outline=REPLACED,
                               width=6)
    for i, option in enumerate(view.get("choices", {}).get("blasts") or []):
        colour = CHOICE_COLOURS[i % len(CHOICE_COLOURS)]
        cells = [tuple(c) for c in option["cells"]]
        boxes = [cell_box(*c) for c in cells]
        inset = 8 + 5 * i
        x0 = min(b[0] for b in boxes) + inset
        y0 = min(b[1] for b in boxes) + inset
        x1 = max(b[2] for b in boxes) - inset
        y1 = max(b[3] for b in boxes) - inset
        draw.rounded_rectangle((x0, y0, x1, y1), radius=12, outline=colour, width=5)
        tag = str(i + 1)
        draw.ellipse((x0 - 13, y0 - 13, x0 + 13, y0 + 13), fill=colour, outline=INK, width=2)
        centred_text(draw, (x0, y0), tag, 18, (255, 255, 255), bold=True)
    letters = "abcdef"
    for i in range(SIZE):
        cx = BX + i * CELL + CELL / 2
        centred_text(draw, (cx, BY + BOARD + 24), letters[i], 24, INK, bold=True)
        centred_text(draw, (cx, BY - 24), letters[i], 24, INK, bold=True)
        cy = BY + (SIZE - 1 - i) * CELL + CELL / 2
        centred_text(draw, (BX - 24, cy), str(i + 1), 24, INK, bold=True)
        centred_text(draw, (BX + BOARD + 24, cy), str(i + 1), 24, INK, bold=True)


def _centre(cell: tuple[int, int]) -> tuple[float, float]:
    x0, y0, x1, y1 = cell_box(*cell)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _burst(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    points = []
    for i in range(16):
        rad = r if i % 2 == 0 else r * 0.45
        angle = math.pi * i / 8
        points.append((cx + rad * math.cos(angle), cy + rad * math.sin(angle)))
    draw.polygon(points, fill=(230, 50, 90), outline=INK)


# --------------------------------------------------------------------------- seats


def _draw_seats(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    acting = set(view.get("to_act") or [])
    over = view.get("phase") == "over"
    for seat, info in enumerate(view["seats"]):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        active = seat in acting and not over
        label = info["name"] + (" (AI)" if info.get("ai") else "")
        if active:
            label += " · to play · tilts this way"
        side = info["side"]
        horizontal = side in ("south", "north")
        length, thick = BOARD, 34
        band = Image.new("RGB", (length, thick), colour if active else (255, 252, 247))
        band_draw = ImageDraw.Draw(band)
        band_draw.rectangle((0, 0, length - 1, thick - 1), outline=colour, width=3)
        fitted_text(band_draw, (length / 2, thick / 2), label, 19, length - 20,
                    (255, 255, 255) if active else colour, bold=True, anchor="mm")
        if side == "south":
            image.paste(band, (BX, BY + BOARD + 44))
        elif side == "north":
            image.paste(band, (BX, BY - 44 - thick))
        elif side == "west":
            image.paste(band.rotate(90, expand=True), (BX - 44 - thick, BY))
        else:
            image.paste(band.rotate(-90, expand=True), (BX + BOARD + 44, BY))
        if active:
            _tilt_arrows(draw, side, colour, horizontal)


def _tilt_arrows(draw: ImageDraw.ImageDraw, side: str, colour: Colour, horizontal: bool) -> None:
    """Arrows inside the board's frame showing where candies slide after a Blast."""
    for k in (1, 3, 5):
        t = BX + k * CELL if horizontal else BY + k * CELL
        if side == "south":
            start, end = (t, BY + BOARD + 2), (t, BY + BOARD + 40)
        elif side == "north":
            start, end = (t, BY - 2), (t, BY - 40)
        elif side == "west":
            start, end = (BX - 2, t), (BX - 40, t)
        else:
            start, end = (BX + BOARD + 2, t), (BX + BOARD + 40, t)
        arrow(draw, start, end, colour, width=5, head=14)


# --------------------------------------------------------------------------- side panel


def _draw_panel(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    x, width = PANEL_X, WIDTH - PANEL_X - 20
    names: dict[str, str] = view.get("names") or {}
    y = 22
    draw.text((x, y), "Sugar Blast", font=font(34, True), fill=INK)
    draw.text((x + width, y + 12), f"move {view['move']}", font=font(18), fill=MUTED,
              anchor="ra")
    y += 52
    for line in _status_lines(view)[:4]:
        for part in wrap(draw, line, 19, width):
            draw.text((x, y), part, font=font(19), fill=INK)
            y += 25
    if view.get("phase") == "replace" and view.get("drawn"):
        draw.text((x, y + 6), "Drawn:", font=font(19, True), fill=INK)
        draw_candy(draw, view["drawn"], x + 100, y + 18, 17)
        y += 40
    y += 8

    # The objective card.
    objective = view["objective"]
    top = y
    panel(draw, (x, top, x + width, top + 122), fill=(255, 238, 214), outline=(235, 150, 40))
    draw.text((x + 14, top + 10), f"Objective: {objective['name']}", font=font(20, True),
              fill=INK)
    fitted_text(draw, (x + 14, top + 38), objective["text"], 16, width - 28, MUTED)
    gx = x + 34
    for group in objective["groups"]:
        if group.get("kind"):
            draw_candy(draw, group["kind"], gx, top + 88, 20)
        else:
            draw_any(draw, gx, top + 88, 18)
        draw.text((gx + 24, top + 88), f"×{group['count']}", font=font(18, True), fill=INK,
                  anchor="lm")
        gx += 70 if group["count"] >= 1 else 60
    y = top + 134

    # Each player's kept candies against the objective.
    for seat, info in enumerate(view["seats"]):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        draw.ellipse((x, y + 4, x + 18, y + 22), fill=colour, outline=INK)
        name = info["name"] + (" (AI)" if info.get("ai") else "")
        fitted_text(draw, (x + 28, y + 2), f"{name}  {info['side']}", 19, width - 110, INK,
                    bold=True)
        draw.text((x + width, y + 2), f"{info['progress']}/{info['needed']}",
                  font=font(20, True), fill=colour, anchor="ra")
        kx = x + 40
        kept = info.get("kept") or {}
        if not kept:
            draw.text((kx - 12, y + 32), "no candies kept yet", font=font(15), fill=MUTED)
        for kind in view["types"]:
            if kept.get(kind):
                draw_candy(draw, kind, kx, y + 42, 14)
                draw.text((kx + 17, y + 42), f"{kept[kind]}", font=font(17, True), fill=INK,
                          anchor="lm")
                kx += 58
        y += 68

    draw.text((x, y), f"Bag: {view['bag']} candies", font=font(19, True), fill=INK)
    y += 34

    # Legend: the six candies with the names players type.
    panel(draw, (x, y, x + width, y + 128))
    for i, kind in enumerate(view["types"]):
        cx = x + 30 + (i % 2) * (width // 2)
        cy = y + 24 + (i // 2) * 40
        draw_candy(draw, kind, cx, cy, 15)
        draw.text((cx + 24, cy), names.get(kind, kind), font=font(17), fill=INK, anchor="lm")
    y += 140
    draw.rectangle((x, y + 2, x + 18, y + 20), fill=BLASTED, outline=INK)
    _burst(draw, x + 9, y + 11, 6)
    draw.text((x + 26, y), "blasted last turn", font=font(15), fill=MUTED)
    draw.rounded_rectangle((x + 180, y + 2, x + 198, y + 20), radius=4, outline=SWAPPED, width=4)
    draw.text((x + 206, y), "swapped", font=font(15), fill=MUTED)
    draw.rounded_rectangle((x + 290, y + 2, x + 308, y + 20), radius=4, outline=REPLACED,
                           width=4)
    draw.text((x + 316, y), "replaced", font=font(15), fill=MUTED)


def _status_lines(view: dict[str, Any]) -> list[str]:
    seats = view["seats"]
    names: dict[str, str] = view.get("names") or {}
    result = view.get("result")
    if result:
        lines = [result["summary"]]
        place = 1
        for group in result["ranking"]:
            who = ", ".join(seats[s]["name"] for s in group)
            lines.append(f"{place}. {who}")
            place += len(group)
        return [lines[0], "  ".join(lines[1:])]
    name = seats[view["turn"]]["name"]
    phase = view["phase"]
    last = view.get("last")
    lines = _turn_lines(view, name, phase, names)
    if last is not None:
        lines.append(f"Highlighted: {seats[last['seat']]['name']}'s last turn.")
    return lines


def _turn_lines(view: dict[str, Any], name: str, phase: str, names: dict[str, str]
                ) -> list[str]:
    if phase == "swap":
        return [f"{name} to play: swap two neighbours to make a Blast."]
    if phase == "replace":
        drawn = names.get(view.get("drawn") or "", view.get("drawn") or "")
        return [f"{name}: no swap makes a Blast. Drew a {drawn}; replace a candy of another "
                "kind (replace c3)."]
    if phase == "blast":
        options = [o["notation"] for o in view["choices"]["blasts"]]
        listed = "; ".join(f"{i + 1}: {n}" for i, n in enumerate(options))
        return [f"{name} chooses which Blast goes first.", listed]
    keep = ", ".join(names.get(k, k) for k in view["choices"]["keep"])
    return [f"{name} keeps one more candy: {keep}."]


def _draw(view: dict[str, Any]) -> Image.Image:
    image, draw = new_canvas(WIDTH, HEIGHT)
    _draw_board(draw, view)
    _draw_seats(image, draw, view)
    _draw_panel(draw, view)
    return image


def _sample_view(active: int) -> dict[str, Any]:
    """A made-up 4-player position showing every colour and mark the picture can use."""
    kinds = list(CANDY_COLOURS)
    sides = ("south", "west", "north", "east")
    return {
        "game": "sugar-blast", "move": 1, "size": SIZE, "types": kinds,
        "names": {k: k for k in kinds},
        "board": [[kinds[(c + 2 * r) % 6] for c in range(SIZE)] for r in range(SIZE)],
        "seats": [{"name": f"Seat {i}", "ai": bool(i), "side": sides[i], "progress": i,
                   "needed": 5, "kept": {k: 1 for k in kinds[: i + 2]}} for i in range(4)],
        "objective": {"id": "x", "name": "Sample", "text": "Sample card.",
                      "groups": [{"count": 3, "kind": None}, {"count": 2, "kind": "corn"}]},
        "bag": 30, "turn": active, "to_act": [active], "tilt": sides[active],
        "phase": "blast", "drawn": None,
        "choices": {"keep": [], "blasts": [{"notation": f"blast a{i + 1}-c{i + 1}",
                                             "kind": "three",
                                             "cells": [[0, i], [1, i], [2, i]]}
                                            for i in range(6)]},
        "last": {"seat": 0, "swap": [[3, 3], [4, 3]], "replaced": [5, 5],
                 "blasted": [[3, 0], [4, 0], [5, 0]]},
        "result": None,
    }


@cache
def _palette() -> Image.Image:
    samples = [_draw(_sample_view(i)) for i in range(4)]
    sheet = Image.new("RGB", (WIDTH, HEIGHT * len(samples)))
    for i, sample in enumerate(samples):
        sheet.paste(sample, (0, HEIGHT * i))
    return make_palette(sheet)


def render(view: dict[str, Any]) -> bytes:
    """The public (or a seat's) Sugar Blast picture as PNG bytes."""
    return to_png(_draw(view), _palette())
