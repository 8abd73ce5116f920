"""Sugar Heist picture, made to be read on a phone (Discord shows it about 400 px wide).

Top to bottom: the round and who must decide; the target track as arrows; during
a heist the attacker's dice pool drawn large (pips and numbers), the three rooms
with the one being entered highlighted, and the revealed cards' text; then every
hideout (three rooms, each an encounter and maybe a mod; face-down cards drawn as
card backs showing only their cost), candy, money, sugar tax and costumes (face
up or used); in the prep phase the costume market; in a seat's own view its
hand. Draws only what the view holds: a public view has no face-down card's
name, so the public picture cannot show one.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from renderers.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    WHITE,
    Colour,
    arrow,
    new_canvas,
    panel,
    shorten,
    to_png,
    wrap,
)
from renderers.common import font as _font

WIDTH = 1000
MARGIN = 16
DIE = 104
BACK: Colour = (92, 62, 120)
BACK_EDGE: Colour = (60, 38, 84)
USED: Colour = (205, 200, 200)
MOD_FILL: Colour = (226, 240, 255)
ENC_FILL: Colour = (255, 238, 214)
DEFAULT_FILL: Colour = (240, 236, 230)
GOOD: Colour = (0, 140, 90)
BAD: Colour = (200, 60, 40)
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _hex(colour: str) -> Colour:
    colour = colour.lstrip("#")
    return (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16))


def _colour(view: dict[str, Any], seat: int) -> Colour:
    board = view["seats"][seat]["board"]
    return _hex(board["colour"]) if board else MUTED


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
          fill: Colour = INK, bold: bool = False, anchor: str = "la") -> None:
    draw.text(xy, text, font=_font(size, bold), fill=fill, anchor=anchor)


def _lines(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int, width: int,
           fill: Colour = INK, bold: bool = False, limit: int = 99) -> float:
    """Wrapped text from (x, y); returns the y under it."""
    lines = wrap(draw, text, size, width, bold)
    if len(lines) > limit:
        lines = [*lines[:limit - 1], shorten(draw, " ".join(lines[limit - 1:]), size, width,
                                              bold)]
    for line in lines:
        _text(draw, (x, y), line, size, fill, bold)
        y += round(size * 1.25)
    return y


def die(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, value: int,
        fill: Colour = WHITE, ink: Colour = INK, number: bool = True) -> None:
    """A die face with pips, its value written underneath."""
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size // 6, fill=fill,
                           outline=ink, width=max(2, size // 28))
    r = size / 11
    cx, cy, step = x + size / 2, y + size / 2, size * 0.27
    for dx, dy in PIPS[value]:
        px, py = cx + dx * step, cy + dy * step
        draw.ellipse((px - r, py - r, px + r, py + r), fill=ink)
    if number:
        _text(draw, (x + size / 2, y + size + 4), str(value), max(18, size // 3), ink, True,
              "ma")


# --------------------------------------------------------------------------- sections


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    phase = {"setup": "choosing hideouts", "target": "target phase", "prep": "prep phase",
             "heist": "heist phase"}.get(view["phase"], view["phase"])
    title = "Sugar Heist — game over" if view["over"] else \
        f"Sugar Heist — round {view['round']} of {view['rounds']}, {phase}"
    _text(draw, (MARGIN, y), title, 30, INK, True)
    y += 42
    waiting = view["to_act"]
    if waiting and not view["over"]:
        names = " and ".join(view["seats"][s]["name"] for s in waiting)
        kind = view["decision"]["kind"] if view["decision"] else "buy a card or pass"
        what = {"challenge": "pay, use a costume or suffer", "reroll": "choose dice to reroll",
                "lose": "choose dice to lose", "add": "choose a die to change",
                "set": "choose a die to set", "choice": "choose the bad stuff",
                "exhaust": "choose a costume to flip", "board": "choose a hideout"}.get(kind,
                                                                                       kind)
        _text(draw, (MARGIN, y), shorten(draw, f"Waiting for {names}: {what}", 24,
                                         WIDTH - 2 * MARGIN), 24, MUTED)
        y += 34
    if view["result"]:
        y = _lines(draw, MARGIN, y, view["result"]["summary"], 22, WIDTH - 2 * MARGIN, INK,
                   True)
    return y + 4


def _track(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    track = view["track"]
    if not track:
        return y
    n = len(track)
    gap = (WIDTH - 2 * MARGIN) / n
    r = 26
    cy = y + r + 4
    attacker = view["heist"]["attacker"] if view["heist"] else None
    for i, seat in enumerate(track):
        cx = MARGIN + gap * (i + 0.5)
        if i + 1 < n:
            arrow(draw, (cx + r + 4, cy), (cx + gap - r - 6, cy), INK, width=4, head=14)
        ring = HIGHLIGHT if seat == attacker else INK
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_colour(view, seat), outline=ring,
                     width=5 if seat == attacker else 2)
        _text(draw, (cx, cy), str(i + 1), 24, WHITE, True, "mm")
        _text(draw, (cx, cy + r + 6), shorten(draw, view["seats"][seat]["name"], 20,
                                              int(gap) - 8, True), 20, INK, True, "ma")
    # The last attacks the first: a line back under the row.
    first = MARGIN + gap * 0.5
    last = MARGIN + gap * (n - 0.5)
    low = cy + r + 36
    draw.line((last, cy + r + 30, last, low, first, low), fill=MUTED, width=3)
    arrow(draw, (first, low), (first, cy + r + 30), MUTED, width=3, head=10)
    return low + 10


def _card_box(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
              card: dict[str, Any], size: int, fill: Colour, highlight: bool = False) -> None:
    x0, y0, x1, y1 = box
    panel(draw, box, fill=fill, outline=HIGHLIGHT if highlight else PANEL_EDGE, radius=10,
          width=5 if highlight else 2)
    width = int(x1 - x0 - 16)
    cost = f"${card['cost']} " if card.get("cost") else ""
    y = _lines(draw, x0 + 8, y0 + 6, f"{card['name']}", size + 2, width - 36, INK, True, 2)
    if cost:
        _text(draw, (x1 - 8, y0 + 6), cost.strip(), size, MUTED, True, "ra")
    rows = []
    if card.get("effect"):
        rows.append(("Effect", card["effect"]))
    if card.get("challenge"):
        rows.append(("Challenge", card["challenge"]))
    if card.get("bad"):
        rows.append(("Bad stuff", card["bad"]))
    for label, text in rows:
        if y > y1 - size:
            break
        room = max(1, int((y1 - y - 4) // round(size * 1.25)))
        y = _lines(draw, x0 + 8, y, f"{label}: {text}", size, width,
                   BAD if label == "Bad stuff" else INK, False, room)


def _heist(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    h = view["heist"]
    if h is None:
        return y
    seats = view["seats"]
    top = y
    height = 470 if h["mod"] else 420
    panel(draw, (MARGIN, y, WIDTH - MARGIN, y + height), fill=PANEL, outline=HIGHLIGHT, width=4)
    title = f"{seats[h['attacker']]['name']} raids {seats[h['defender']]['name']}"
    _text(draw, (MARGIN + 14, y + 10), shorten(draw, title, 30, 620, True), 30, INK, True)
    # Room progress: three boxes, the current one highlighted.
    for r in range(3):
        x = WIDTH - MARGIN - 14 - (3 - r) * 96
        outcome = h["outcomes"][r]
        current = r + 1 == h["room"] and outcome is None
        fill = {"cleared": GOOD, "suffered": BAD, "dodged": MUTED}.get(outcome or "",
                                                                       HIGHLIGHT if current
                                                                       else USED)
        draw.rounded_rectangle((x, y + 10, x + 88, y + 48), radius=8, fill=fill, outline=INK,
                               width=2)
        label = {"cleared": "clear", "suffered": "hurt", "dodged": "slip"}.get(outcome or "",
                                                                              f"room {r + 1}")
        _text(draw, (x + 44, y + 29), label, 19, WHITE if outcome else INK, True, "mm")
    y += 60
    pool = h["pool"]
    _text(draw, (MARGIN + 14, y), f"Dice pool ({len(pool)})", 22, MUTED, True)
    y += 30
    size = DIE if len(pool) <= 7 else 92
    x = MARGIN + 14
    for value in pool:
        die(draw, x, y, size, value)
        x += size + 18
    if not pool:
        _text(draw, (x, y + size / 2), "no dice left", 28, BAD, True, "lm")
    if h["outside"] is not None:
        ox = WIDTH - MARGIN - 14 - 70
        die(draw, ox, y + 10, 64, h["outside"], fill=(255, 246, 200), number=False)
        _text(draw, (ox + 32, y + 80), "outside", 17, MUTED, False, "ma")
    y += size + 40
    # The room being entered: its mod (if any) and its encounter, text in full.
    mod, enc = h["mod"], h["encounter"]
    left, right = MARGIN + 14, WIDTH - MARGIN - 14
    room_h = top + height - 74 - y
    if mod:
        split = left + (right - left) * 0.36
        _card_box(draw, (left, y, split - 8, y + room_h), {**mod, "name": f"Mod: {mod['name']}"},
                  20, MOD_FILL)
        left = split + 8
    name = enc["name"] + (" (default)" if enc.get("default") else "")
    _card_box(draw, (left, y, right, y + room_h), {**enc, "name": f"Room {h['room']}: {name}"},
              21, DEFAULT_FILL if enc.get("default") else ENC_FILL, highlight=True)
    y += room_h + 8
    story = h["log"][-2:]
    for line in story:
        _text(draw, (MARGIN + 14, y), shorten(draw, line, 19, WIDTH - 2 * MARGIN - 28), 19,
              MUTED)
        y += 25
    return top + height + 12


def _slot(draw: ImageDraw.ImageDraw, view: dict[str, Any], box: tuple[float, ...],
          slot: dict[str, Any] | None, kind: str, default: str, highlight: bool) -> None:
    x0, y0, x1, y1 = box
    width = int(x1 - x0 - 12)
    edge = HIGHLIGHT if highlight else PANEL_EDGE
    if slot is None:
        if kind == "mod":
            draw.rounded_rectangle(box, radius=8, outline=PANEL_EDGE, width=2)
            _text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), "no mod", 16, MUTED, False, "mm")
            return
        draw.rounded_rectangle(box, radius=8, fill=DEFAULT_FILL, outline=edge,
                               width=4 if highlight else 2)
        _text(draw, (x0 + 6, y0 + 4), "default", 15, MUTED)
        _lines(draw, x0 + 6, y0 + 22, default, 18, width, INK, True, 3)
        return
    if slot["face"] == "down" and "key" not in slot:
        draw.rounded_rectangle(box, radius=8, fill=BACK, outline=edge if highlight else BACK_EDGE,
                               width=4 if highlight else 2)
        for i in range(int(x0) + 8, int(x1) - 4, 14):
            draw.line((i, y0 + 4, i, y1 - 4), fill=BACK_EDGE, width=2)
        _text(draw, ((x0 + x1) / 2, (y0 + y1) / 2 - (8 if kind == "encounter" else 0)),
              f"${slot['cost']}", 24 if kind == "encounter" else 18, WHITE, True, "mm")
        if kind == "encounter":
            _text(draw, ((x0 + x1) / 2, (y0 + y1) / 2 + 20), "face down", 15, WHITE, False,
                  "mm")
        return
    card = view["cards"][slot["key"]]
    hidden = slot["face"] == "down"
    fill = MOD_FILL if kind == "mod" else ENC_FILL
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=BACK if hidden else edge,
                           width=4 if hidden or highlight else 2)
    size = 16 if kind == "mod" else 18
    limit = 1 if kind == "mod" else 2
    y = _lines(draw, x0 + 6, y0 + 4, card["name"], size, width, INK, True, limit)
    note = "yours, face down" if hidden else f"${card['cost']}"
    if kind == "encounter":
        room = int((y1 - 22 - y) // 19)
        if room > 0:
            _lines(draw, x0 + 6, y, card.get("challenge", ""), 15, width, INK, False, room)
    _text(draw, (x0 + 6, y1 - 20), note, 14, BACK if hidden else MUTED, hidden)


def _hideouts(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    seats = view["seats"]
    cols = 2
    gap = 12
    width = (WIDTH - 2 * MARGIN - gap) / cols
    height = 300
    h = view["heist"]
    order = view["track"] or list(range(len(seats)))
    for i, seat in enumerate(order):
        s = seats[seat]
        x0 = MARGIN + (i % cols) * (width + gap)
        y0 = y + (i // cols) * (height + gap)
        colour = _colour(view, seat)
        defending = h is not None and h["defender"] == seat
        panel(draw, (x0, y0, x0 + width, y0 + height), outline=HIGHLIGHT if defending else
              PANEL_EDGE, width=4 if defending else 2)
        draw.rounded_rectangle((x0, y0, x0 + width, y0 + 40), radius=12, fill=colour)
        board = s["board"]["name"] if s["board"] else "no hideout yet"
        _text(draw, (x0 + 10, y0 + 20), shorten(draw, f"{s['name']} · {board}", 21,
                                                int(width) - 150, True), 21, WHITE, True, "lm")
        if s["passed"]:
            _text(draw, (x0 + width - 10, y0 + 20), "passed", 17, WHITE, True, "rm")
        stats = f"{s['candy']} candy   ${s['money']}   {s['tax']} sugar tax"
        if s["hand"]:
            stats += f"   {s['hand']} in hand"
        _text(draw, (x0 + 10, y0 + 48), stats, 20, INK, True)
        default = s["board"]["default"]["name"] if s["board"] else ""
        rw = (width - 20 - 2 * 8) / 3
        for r, room in enumerate(s["rooms"]):
            rx = x0 + 10 + r * (rw + 8)
            ry = y0 + 78
            lit = defending and h["room"] == r + 1
            _text(draw, (rx + rw / 2, ry), f"Room {r + 1}", 15, MUTED, True, "ma")
            _slot(draw, view, (rx, ry + 20, rx + rw, ry + 62), room["mod"], "mod", "", lit)
            _slot(draw, view, (rx, ry + 68, rx + rw, ry + 166), room["encounter"], "encounter",
                  default, lit)
        cy = y0 + 254
        cx = x0 + 10
        if not s["costumes"]:
            _text(draw, (cx, cy + 4), "no costumes", 16, MUTED)
        for n, c in enumerate(s["costumes"]):
            name = view["cards"][c["key"]]["name"]
            label = shorten(draw, name, 16, 150, True)
            w = draw.textlength(label, font=_font(16, True)) + 16
            if cx + w > x0 + width - 44:
                _text(draw, (cx, cy + 4), f"+{len(s['costumes']) - n}", 18, INK, True)
                break
            fill = USED if c["used"] else (255, 226, 240)
            draw.rounded_rectangle((cx, cy, cx + w, cy + 32), radius=14, fill=fill,
                                   outline=MUTED if c["used"] else INK, width=2)
            _text(draw, (cx + w / 2, cy + 16), label, 16, MUTED if c["used"] else INK, True,
                  "mm")
            cx += w + 6
    rows = (len(order) + cols - 1) // cols
    return y + rows * (height + gap)


def _cards_row(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int, title: str,
               keys: list[str], ids: list[str] | None = None) -> int:
    _text(draw, (MARGIN, y), title, 24, INK, True)
    y += 34
    per_row = 3
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * 10) / per_row
    h = 150
    for i, key in enumerate(keys):
        card = view["cards"][key]
        x0 = MARGIN + (i % per_row) * (w + 10)
        y0 = y + (i // per_row) * (h + 10)
        fill = (255, 226, 240) if card["kind"] == "costume" else \
            MOD_FILL if card["kind"] == "mod" else ENC_FILL
        shown = dict(card)
        if card["kind"] == "costume":
            shown["effect"] = card["ability"]
        else:
            shown["name"] = f"{card['name']} ({card['kind']})"
        _card_box(draw, (x0, y0, x0 + w, y0 + h), shown, 17, fill)
    rows = (len(keys) + per_row - 1) // per_row
    return y + rows * (h + 10) + 4


def _height(view: dict[str, Any]) -> int:
    y = 130 + (70 if view["result"] else 0) + (110 if view["track"] else 0)
    y += 532 if view["heist"] else 0
    y += ((len(view["seats"]) + 1) // 2) * 312 + 10
    if view["market"]:
        y += 40 + ((len(view["market"]) + 2) // 3) * 160
    if view.get("hand"):
        y += 40 + ((len(view["hand"]) + 2) // 3) * 160
    return y + MARGIN


def render(view: dict[str, Any]) -> bytes:
    """The table as a PNG."""
    image, draw = new_canvas(WIDTH, _height(view) + 400)
    y = _header(draw, view, MARGIN)
    y = _track(draw, view, y)
    y = _heist(draw, view, y)
    y = _hideouts(draw, view, y)
    if view["market"]:
        y = _cards_row(draw, view, y + 6, "Costume market", view["market"])
    if view.get("hand"):
        y = _cards_row(draw, view, y + 6, "Your hand (only you see this)",
                       [c["key"] for c in view["hand"]])
    return to_png(image.crop((0, 0, WIDTH, y + MARGIN)))
