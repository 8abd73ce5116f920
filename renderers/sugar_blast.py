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
    for col, row in blasted:
        x0, y0, x1, y1 = cell_box(col, row)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=BLASTED)
    for row, cells in enumerate(view["board"]):
        for col, candy in enumerate(cells):
            if candy:
                cx, cy = cell_centre(col, row)
                paste_candy(image, candy, cx, cy + 2, 33)
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
    if last.get("replaced"):
        x0, y0, x1, y1 = cell_box(*last["replaced"])
        draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=10, outline=REPLACED,
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
    if last.get("blasted"):
        marks.append(("blast", "blasted"))
    for mark, label in marks:
        x += 14
        if mark == "blast":
            draw.rectangle((x, y - 11, x + 22, y + 11), fill=BLASTED, outline=FRAME_EDGE)
            _burst(draw, x + 11, y, 9)
        else:
            draw.rounded_rectangle((x, y - 11, x + 22, y + 11), radius=5, width=4,
                                   outline=SWAPPED if mark == "swap" else REPLACED)
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
    if phase == "swap":
        return _paragraph(draw, y, "Swap two neighbouring candies to make a Blast of 3 or "
                          "more in a line, e.g. swap c3 d3.")
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
        name = info["name"] + (" (AI)" if info.get("ai") else "")
        name = shorten(draw, name, 20, w - 190, bold=True)
        draw.text((x + 30, y + 14), name, font=font(20, True), fill=INK, anchor="lm")
        draw.text((x + 38 + text_size(draw, name, 20, True)[0], y + 15), info["side"],
                  font=font(16), fill=MUTED, anchor="lm")
        draw.text((x + w, y + 14), f"{info['progress']}/{info['needed']}",
                  font=font(24, True), fill=colour, anchor="rm")
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
def _base(kinds: tuple[str, ...]) -> Image.Image:
    """Everything that never changes: title, board frame, cells, coordinates, candy legend."""
    image, draw = new_canvas(WIDTH, HEIGHT)
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
    image = _base(tuple(view["types"])).copy()
    draw = ImageDraw.Draw(image)
    _draw_board(image, draw, view)
    _draw_seats(image, draw, view)
    _draw_marks_key(draw, view)
    _draw_panel(image, draw, view)
    return image


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
def _palette() -> Image.Image:
    samples = [_draw(v) for v in _sample_views()]
    sheet = Image.new("RGB", (WIDTH, HEIGHT * len(samples)))
    for i, sample in enumerate(samples):
        sheet.paste(sample, (0, HEIGHT * i))
    return make_palette(sheet)


def render(view: dict[str, Any]) -> bytes:
    """The public (or a seat's) Sugar Blast picture as PNG bytes."""
    return to_png(_draw(view), _palette())
