"""Sugartopia picture: the hex table scaled to fit, open spots labelled, and a side panel.

Draws only what the view holds: a public view has no hand card, so the
public image cannot show one.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    INK,
    MUTED,
    Colour,
    centred_text,
    fitted_text,
    font,
    make_palette,
    new_canvas,
    panel,
    to_png,
    wrap,
)

WIDTH, HEIGHT = 1400, 900
PANEL_W = 380
MAP_W = WIDTH - PANEL_W - 30
MAX_HEX = 78
SQRT3 = math.sqrt(3)

GRASS: Colour = (150, 205, 120)
GRASS_DONE: Colour = (196, 214, 180)
ROAD: Colour = (226, 184, 120)
ROAD_EDGE: Colour = (150, 105, 60)
COOKIE: Colour = (160, 95, 40)
CASTLE: Colour = (246, 190, 214)
GINGER: Colour = (196, 120, 60)
SPOT: Colour = (120, 110, 100)
LAST: Colour = (255, 196, 0)
SUGAR: Colour = (255, 255, 255)
HONEY: Colour = (245, 170, 20)
BEAR_COLOURS: dict[str, Colour] = {
    "red": (222, 45, 45), "blue": (30, 100, 220), "yellow": (245, 205, 20),
    "purple": (140, 70, 190), "green": (30, 140, 70), "orange": (240, 130, 20),
}


def _colour(name: str) -> Colour:
    return BEAR_COLOURS.get(name, (128, 128, 128))


class Geometry:
    """Flat-topped hex layout scaled so every card and open spot fits the map area."""

    def __init__(self, cells: list[tuple[int, int]]) -> None:
        xs = [1.5 * q for q, r in cells]
        ys = [SQRT3 * (r + q / 2) for q, r in cells]
        span_x = max(xs) - min(xs) + 2.0
        span_y = max(ys) - min(ys) + SQRT3
        self.size = min(MAX_HEX, (MAP_W - 20) / span_x, (HEIGHT - 60) / span_y)
        self.ox = 20 + (MAP_W - 20 - span_x * self.size) / 2 - (min(xs) - 1.0) * self.size
        self.oy = 40 + (HEIGHT - 60 - span_y * self.size) / 2 - (min(ys) - SQRT3 / 2) * self.size

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return (self.ox + 1.5 * q * self.size, self.oy + SQRT3 * (r + q / 2) * self.size)

    def corners(self, q: int, r: int, shrink: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(q, r)
        s = self.size * shrink
        return [(cx + s * math.cos(math.radians(60 * i)), cy + s * math.sin(math.radians(60 * i)))
                for i in range(6)]

    def side_point(self, q: int, r: int, side: int, reach: float = 1.0) -> tuple[float, float]:
        """Middle of a side (0 north, clockwise), or a point ``reach`` of the way there."""
        cx, cy = self.centre(q, r)
        angle = math.radians(-90 + 60 * side)
        d = self.size * SQRT3 / 2 * reach
        return (cx + d * math.cos(angle), cy + d * math.sin(angle))


def _draw_card(draw: ImageDraw.ImageDraw, geo: Geometry, card: dict[str, Any],
               seats: list[dict[str, Any]]) -> None:
    q, r, s = card["q"], card["r"], geo.size
    kind = card["kind"]
    fill = {"castle": CASTLE, "gingerman": GINGER}.get(kind, GRASS)
    if kind == "land" and card["fields"] and all(f["done"] for f in card["fields"]):
        fill = GRASS_DONE
    draw.polygon(geo.corners(q, r), fill=fill, outline=(90, 110, 70), width=2)
    width = max(4, round(s * 0.16))
    cx, cy = geo.centre(q, r)
    for road in card["roads"]:
        for arm in road["arms"]:
            end = geo.side_point(q, r, arm["side"])
            draw.line((cx, cy, *end), fill=ROAD_EDGE, width=width + 4)
        for arm in road["arms"]:
            end = geo.side_point(q, r, arm["side"])
            draw.line((cx, cy, *end), fill=ROAD, width=width)
        draw.ellipse((cx - width / 2, cy - width / 2, cx + width / 2, cy + width / 2), fill=ROAD)
        if len(road["arms"]) == 1 and kind == "land":  # a dead end: a little cottage
            h = s * 0.16
            draw.rectangle((cx - h, cy - h * 0.4, cx + h, cy + h), fill=(250, 240, 225),
                           outline=INK)
            draw.polygon([(cx - h * 1.3, cy - h * 0.4), (cx + h * 1.3, cy - h * 0.4),
                          (cx, cy - h * 1.5)], fill=(200, 70, 70), outline=INK)
        for arm in road["arms"]:
            for k in range(arm["cookies"]):
                px, py = geo.side_point(q, r, arm["side"], 0.5 + 0.22 * k)
                rad = max(3.0, s * 0.09)
                draw.ellipse((px - rad, py - rad, px + rad, py + rad), fill=COOKIE, outline=INK)
                dot = rad * 0.3
                draw.ellipse((px - dot, py - dot, px + dot, py + dot), fill=(240, 220, 180))
    if kind == "castle":
        _castle(draw, cx, cy, s)
    elif kind == "gingerman":
        owner = card.get("owner")
        colour = _colour(seats[owner]["colour"]) if owner is not None else INK
        draw.polygon(geo.corners(q, r, 0.93), outline=colour, width=max(3, round(s * 0.08)))
        _gingerman(draw, cx, cy, s * 0.42, colour)
    for field in card["fields"]:
        _draw_field(draw, geo, q, r, field)


def _castle(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    w = s * 0.42
    draw.rectangle((cx - w, cy - w * 0.5, cx + w, cy + w * 0.8), fill=(250, 225, 235), outline=INK,
                   width=2)
    for dx in (-w, -w / 3, w / 3):
        draw.rectangle((cx + dx, cy - w * 0.8, cx + dx + w * 0.66, cy - w * 0.5),
                       fill=(250, 225, 235), outline=INK, width=2)
    draw.rectangle((cx - w * 0.2, cy + w * 0.2, cx + w * 0.2, cy + w * 0.8), fill=(170, 90, 120))


def _gingerman(draw: ImageDraw.ImageDraw, cx: float, cy: float, h: float, colour: Colour) -> None:
    body = (150, 85, 35)
    draw.ellipse((cx - h * 0.35, cy - h, cx + h * 0.35, cy - h * 0.3), fill=body, outline=INK)
    draw.rounded_rectangle((cx - h * 0.45, cy - h * 0.35, cx + h * 0.45, cy + h * 0.5),
                           radius=h * 0.2, fill=body, outline=INK)
    draw.line((cx - h * 0.45, cy - h * 0.2, cx - h * 0.85, cy + h * 0.1), fill=body,
              width=max(3, round(h * 0.22)))
    draw.line((cx + h * 0.45, cy - h * 0.2, cx + h * 0.85, cy + h * 0.1), fill=body,
              width=max(3, round(h * 0.22)))
    draw.line((cx - h * 0.25, cy + h * 0.45, cx - h * 0.35, cy + h), fill=body,
              width=max(3, round(h * 0.24)))
    draw.line((cx + h * 0.25, cy + h * 0.45, cx + h * 0.35, cy + h), fill=body,
              width=max(3, round(h * 0.24)))
    draw.ellipse((cx - h * 0.12, cy - h * 0.05, cx + h * 0.12, cy + h * 0.19), fill=colour)


def _draw_field(draw: ImageDraw.ImageDraw, geo: Geometry, q: int, r: int,
                field: dict[str, Any]) -> None:
    """Sheep, rainbow sheep, cubes on them and bears, grouped near the field's sides."""
    sides = field["sides"]
    cx, cy = geo.centre(q, r)
    if sides and len(sides) < 6:
        points = [geo.side_point(q, r, side, 0.62) for side in sides]
        ax = sum(p[0] for p in points) / len(points)
        ay = sum(p[1] for p in points) / len(points)
        if len(sides) >= 3:  # a big field reaches the centre side of the card too
            ax, ay = (ax * 2 + cx) / 3, (ay * 2 + cy) / 3
    else:
        ax, ay = cx, cy + geo.size * 0.1
    tokens: list[tuple[str, Any]] = []
    for n in range(field["sheep"]):
        tokens.append(("sheep", n < field["sugar"]))
    for n in range(field["rainbow"]):
        tokens.append(("rainbow", n < field["honey"]))
    for bear in field["bears"]:
        tokens.append(("bear", bear))
    if not tokens:
        return
    step = geo.size * 0.33
    per_row = 3 if len(tokens) > 4 else 2 if len(tokens) > 1 else 1
    rows = math.ceil(len(tokens) / per_row)
    for i, (kind, data) in enumerate(tokens):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(tokens) - row * per_row)
        x = ax + (col - (in_row - 1) / 2) * step
        y = ay + (row - (rows - 1) / 2) * step
        rad = geo.size * 0.145
        if kind == "bear":
            _bear(draw, x, y, rad, _colour(data["colour"]), data["fed"])
        else:
            _sheep(draw, x, y, rad, kind == "rainbow", bool(data))


def _sheep(draw: ImageDraw.ImageDraw, x: float, y: float, rad: float, rainbow: bool,
           cube: bool) -> None:
    wool = (255, 255, 255) if not rainbow else (255, 200, 240)
    for dx, dy in ((-0.45, 0), (0.45, 0), (0, -0.4), (0, 0.35)):
        px, py = x + dx * rad, y + dy * rad
        draw.ellipse((px - rad * 0.6, py - rad * 0.6, px + rad * 0.6, py + rad * 0.6), fill=wool,
                     outline=INK)
    draw.ellipse((x - rad * 0.55, y - rad * 0.5, x + rad * 0.55, y + rad * 0.5), fill=wool)
    if rainbow:
        for k, c in enumerate(((230, 60, 60), (245, 170, 20), (60, 170, 80), (60, 110, 220))):
            draw.arc((x - rad * (0.9 - k * 0.15), y - rad * (0.9 - k * 0.15),
                      x + rad * (0.9 - k * 0.15), y + rad * (0.9 - k * 0.15)), 200, 340,
                     fill=c, width=max(1, round(rad * 0.14)))
    if cube:
        c = rad * 0.45
        fill = HONEY if rainbow else SUGAR
        draw.rectangle((x - c, y - c, x + c, y + c), fill=fill, outline=INK, width=2)


def _bear(draw: ImageDraw.ImageDraw, x: float, y: float, rad: float, colour: Colour,
          fed: bool) -> None:
    ear = rad * 0.38
    for dx in (-0.6, 0.6):
        draw.ellipse((x + dx * rad - ear, y - rad * 0.9 - ear, x + dx * rad + ear,
                      y - rad * 0.9 + ear), fill=colour, outline=INK)
    draw.ellipse((x - rad * 0.8, y - rad * 1.05, x + rad * 0.8, y + rad * 0.1), fill=colour,
                 outline=INK)
    draw.rounded_rectangle((x - rad * 0.75, y - rad * 0.1, x + rad * 0.75, y + rad * 1.05),
                           radius=rad * 0.35, fill=colour, outline=INK)
    if fed:
        c = rad * 0.38
        draw.rectangle((x - c, y + rad * 0.45 - c, x + c, y + rad * 0.45 + c), fill=SUGAR,
                       outline=INK, width=2)


def _draw_spots(draw: ImageDraw.ImageDraw, geo: Geometry, spots: list[dict[str, Any]]) -> None:
    for spot in spots:
        corners = geo.corners(spot["q"], spot["r"], 0.9)
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            for t in (0.0, 0.5):
                x0 = a[0] + (b[0] - a[0]) * t
                y0 = a[1] + (b[1] - a[1]) * t
                x1 = a[0] + (b[0] - a[0]) * (t + 0.3)
                y1 = a[1] + (b[1] - a[1]) * (t + 0.3)
                draw.line((x0, y0, x1, y1), fill=SPOT, width=2)
        size = max(12, min(26, round(geo.size * 0.38)))
        centred_text(draw, geo.centre(spot["q"], spot["r"]), spot["label"], size, SPOT, bold=True)


def _draw_panel(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    x, width = WIDTH - PANEL_W, PANEL_W - 20
    y = 18
    draw.text((x, y), "Sugartopia", font=font(34, True), fill=INK)
    draw.text((x + width, y + 12), f"move {view['move']}", font=font(18), fill=MUTED, anchor="ra")
    y += 50
    seats = view["seats"]
    result = view.get("result")
    if result:
        lines = [result["summary"]]
    else:
        name = seats[view["turn"]]["name"]
        if view["phase"] == "feed" and view.get("feeding"):
            colours = ", ".join(view["feeding"]["colours"])
            lines = [f"{name} chooses which bears eat ({view['feeding']['cubes']} sugar left): "
                     f"feed {colours}."]
        else:
            lines = [f"{name} to play: place the hand card on a labelled spot."]
    for line in lines:
        for part in wrap(draw, line, 19, width):
            draw.text((x, y), part, font=font(19), fill=INK)
            y += 25
    y += 10
    routes = {r["seat"]: r for r in view.get("routes") or []}
    for seat in seats:
        colour = _colour(seat["colour"])
        top = y
        active = seat["seat"] in (view.get("to_act") or [])
        panel(draw, (x, top, x + width, top + 96), fill=(255, 252, 247),
              outline=colour if active else (222, 205, 190), width=4 if active else 2)
        _bear(draw, x + 26, top + 30, 13, colour, False)
        name = seat["name"] + (" (AI)" if seat["ai"] else "")
        fitted_text(draw, (x + 48, top + 12), name, 20, width - 130, INK, bold=True)
        draw.text((x + width - 12, top + 10), f"{seat['score']}", font=font(28, True),
                  fill=colour, anchor="ra")
        draw.text((x + 14, top + 50), f"sugar {seat['sugar']} · honey {seat['honey']} (x2)",
                  font=font(16), fill=INK)
        route = routes.get(seat["seat"])
        extra = []
        extra.append("card in hand" if seat["has_card"] else "no card")
        if seat["gingerman"]:
            extra.append("Gingerman not placed")
        elif route:
            extra.append(f"route {route['cookies']} cookies" if route["reached"]
                         else "no route home")
        fitted_text(draw, (x + 14, top + 72), " · ".join(extra), 15, width - 28, MUTED)
        y += 104
    draw.text((x, y + 4), f"Deck {view['deck']} · supply {view['supply']['sugar']} sugar, "
              f"{view['supply']['honey']} honey", font=font(17, True), fill=INK)
    y += 40
    panel(draw, (x, y, x + width, y + 120))
    _sheep(draw, x + 26, y + 26, 13, False, True)
    draw.text((x + 48, y + 26), "sheep with a sugar cube", font=font(16), fill=INK, anchor="lm")
    _sheep(draw, x + 26, y + 60, 13, True, True)
    draw.text((x + 48, y + 60), "rainbow sheep with honey", font=font(16), fill=INK, anchor="lm")
    _bear(draw, x + 26, y + 94, 13, BEAR_COLOURS["green"], True)
    draw.text((x + 48, y + 94), "bear (fed: holds a cube)", font=font(16), fill=INK,
              anchor="lm")
    px, py = x + width - 40, y + 26
    draw.ellipse((px - 8, py - 8, px + 8, py + 8), fill=COOKIE, outline=INK)
    draw.text((px - 14, py), "cookie", font=font(16), fill=INK, anchor="rm")
    y += 132
    neutral = ", ".join(view.get("colours", {}).get("neutral", []))
    for part in wrap(draw, f"Bears of {neutral} or of colours nobody plays belong to no one. "
                     "Dashed hexes are open spots: type their label.", 15, width):
        draw.text((x, y), part, font=font(15), fill=MUTED)
        y += 20


HAND_H = 230


def _turned_card(hand: dict[str, Any], rot: int, q: int, r: int) -> dict[str, Any]:
    """The hand card as it would lie on the table turned by ``rot`` degrees."""
    k = rot // 60
    return {
        "kind": "land", "q": q, "r": r, "label": hand["name"], "owner": None,
        "roads": [{"arms": [{"side": (a["side"] + k) % 6, "cookies": a["cookies"]}
                            for a in road["arms"]]} for road in hand["roads"]],
        "fields": [{"sides": sorted((sd + k) % 6 for sd in f["sides"]), "sheep": f["sheep"],
                    "rainbow": f["rainbow"], "sugar": 0, "honey": 0, "done": False,
                    "bears": [{"colour": c, "fed": False} for c in f["bears"]]}
                   for f in hand["fields"]],
    }


def _draw_hand(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The viewer's own card in each of its six turns (private views only)."""
    hand = view["hand"]
    top = HEIGHT
    draw.rectangle((0, top, WIDTH, top + HAND_H), fill=(244, 232, 216))
    fits = sorted({p["rot"] for p in hand.get("placements", [])})
    draw.text((20, top + 12), f"Your card {hand['name']} (only you see this). Turns that fit "
              f"somewhere: {', '.join(f'{r}°' for r in fits) or 'none'}.", font=font(20, True),
              fill=INK)
    geo = Geometry([(0, 0)])
    geo.size = 62
    for i, rot in enumerate((0, 60, 120, 180, 240, 300)):
        cx = 110 + i * 215
        geo.ox, geo.oy = cx, top + 130
        _draw_card(draw, geo, _turned_card(hand, rot, 0, 0), view["seats"])
        centred_text(draw, (cx, top + 215), f"rot {rot}", 18, INK if rot in fits else MUTED,
                     bold=True)


def _draw(view: dict[str, Any]) -> Image.Image:
    hand = view.get("hand")
    image, draw = new_canvas(WIDTH, HEIGHT + (HAND_H if hand else 0))
    if hand:
        _draw_hand(draw, view)
    cells = [(c["q"], c["r"]) for c in view["cards"]] + [(s["q"], s["r"]) for s in view["spots"]]
    geo = Geometry(cells)
    _draw_spots(draw, geo, view["spots"])
    for card in view["cards"]:
        _draw_card(draw, geo, card, view["seats"])
    last = view.get("last")
    if last and last.get("index") is not None:
        card = view["cards"][last["index"]]
        draw.polygon(geo.corners(card["q"], card["r"], 0.97), outline=LAST,
                     width=max(3, round(geo.size * 0.08)))
    for card in view["cards"]:
        if card["kind"] == "land":
            cx, cy = geo.centre(card["q"], card["r"])
            size = max(10, round(geo.size * 0.2))
            centred_text(draw, (cx, cy - geo.size * 0.66), card["label"], size, (40, 70, 30),
                         bold=True)
    _draw_panel(draw, view)
    return image


def _sample_view() -> dict[str, Any]:
    """A made-up table that uses every colour and mark, for the palette."""
    fields = [{"sides": [1, 2], "sheep": 2, "rainbow": 1, "sugar": 1, "honey": 1, "done": False,
               "bears": [{"colour": c, "fed": i % 2 == 0} for i, c in enumerate(BEAR_COLOURS)]}]
    cards = [{"kind": kind, "q": q, "r": r, "label": "a1", "owner": 0,
              "roads": [{"arms": [{"side": 0, "cookies": 2}, {"side": 3, "cookies": 1}]}],
              "fields": fields if kind == "land" else []}
             for kind, q, r in (("castle", 0, 0), ("land", 1, 0), ("gingerman", 0, 1))]
    cards.append(dict(cards[1], q=-1, r=0, fields=[dict(fields[0], done=True)]))
    seats = [{"seat": i, "name": f"Seat {i}", "ai": False, "colour": c, "has_card": True,
              "gingerman": True, "sugar": 1, "honey": 1, "score": 3}
             for i, c in enumerate(("red", "blue", "yellow", "purple"))]
    return {"game": "sugartopia", "move": 1, "phase": "place", "turn": 0, "to_act": [0],
            "seats": seats, "supply": {"sugar": 1, "honey": 1}, "deck": 1, "cards": cards,
            "spots": [{"label": "b1", "q": 2, "r": -1}], "routes": [], "last": None,
            "colours": {"neutral": ["green", "orange"]}, "result": None,
            "hand": {"name": "L01", "placements": [{"rot": 0}],
                     "roads": [{"arms": [{"side": 0, "cookies": 1}, {"side": 3, "cookies": 0}]}],
                     "fields": [{"sides": [1, 2], "sheep": 1, "rainbow": 1,
                                 "bears": ["red", "green"]}]}}


@cache
def _palette() -> Image.Image:
    return make_palette(_draw(_sample_view()))


def render(view: dict[str, Any]) -> bytes:
    """The Sugartopia table as PNG bytes."""
    return to_png(_draw(view), _palette())
