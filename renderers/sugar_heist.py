"""Sugar Heist picture, made to be read on a phone (Discord shows it about 400 px wide).

Top to bottom: the round and who must decide; the target track as arrows; during
a heist the attacker's dice pool drawn large (pips and numbers), the three rooms
with the one being entered highlighted, and the revealed cards' text; then every
hideout (three rooms, each an encounter and maybe a mod; face-down cards drawn as
card backs showing only their cost), candy, money, sugar tax and costumes (face
up or used); in the prep phase the costume market; in a seat's own view its
hand. Draws only what the view holds: a public view has no face-down card's
name, so the public picture cannot show one.

Speed: the cards in the rooms, the market and the hand, the dice and the costume
chips are drawn once into sprites kept by what they show and their size, then
pasted; text goes through the shared mask cache; the PNG is written on one fixed
palette. Caches are keyed only by content taken from the view, so the picture
stays a pure function of the view.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.content import load_json
from renderers.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    SEAT_COLOURS,
    WHITE,
    Colour,
    arrow,
    ink_on,
    make_palette_keeping,
    panel,
    seat_badge,
    seat_colour,
    shorten,
    stamp_text,
    text_size,
    to_png,
    wrap,
)

WIDTH = 1000
MARGIN = 16
DIE = 104
BACK: Colour = (92, 62, 120)
BACK_EDGE: Colour = (60, 38, 84)
USED: Colour = (205, 200, 200)
MOD_FILL: Colour = (226, 240, 255)
ENC_FILL: Colour = (255, 238, 214)
COSTUME_FILL: Colour = (255, 226, 240)
DEFAULT_FILL: Colour = (240, 236, 230)
OUTSIDE_FILL: Colour = (255, 246, 200)
GOOD: Colour = (0, 140, 90)
BAD: Colour = (200, 60, 40)
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}

# Layout, in pixels.
HEADER_TITLE = 42
HEADER_WAITING = 34
TRACK_H = 102
HEIST_H, HEIST_MOD_H = 540, 640
#: The smallest type a player needs for a decision: 7 px tall capitals at 400 px wide.
READABLE = 24
LINE = 30
#: One hideout per row, so that its three rooms' cards can be read on a phone.
HIDEOUT_COLS = 1
HIDEOUT_GAP = 12
HIDEOUT_W = (WIDTH - 2 * MARGIN - HIDEOUT_GAP * (HIDEOUT_COLS - 1)) // HIDEOUT_COLS
MOD_H, ENCOUNTER_H = 70, 190
HIDEOUT_H = 84 + 34 + MOD_H + 8 + ENCOUNTER_H + 10 + 44
ROOM_GAP = 8
ROOM_W = (HIDEOUT_W - 20 - 2 * ROOM_GAP) // 3
ROW_TITLE = 34
PER_ROW = 3
ROW_CARD_W = (WIDTH - 2 * MARGIN - (PER_ROW - 1) * 10) // PER_ROW
ROW_CARD_H = 240

#: Measuring needs no picture: the shared helpers cache measures by text, size and weight.
_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))


def _text(image: Image.Image, xy: tuple[float, float], text: str, size: int,
          fill: Colour = INK, bold: bool = False, anchor: str = "la") -> None:
    stamp_text(image, xy, text, size, fill, bold, anchor)


def _short(text: str, size: int, width: float, bold: bool = False) -> str:
    return shorten(_MEASURE, text, size, int(width), bold)


def _wrapped(text: str, size: int, width: int, bold: bool, limit: int) -> list[str]:
    """``text`` in lines no wider than ``width``, at most ``limit`` of them (the last cut)."""
    lines = wrap(_MEASURE, text, size, width, bold)
    if len(lines) > limit:
        lines = [*lines[:limit - 1], _short(" ".join(lines[limit - 1:]), size, width, bold)]
    return lines


def _lines(image: Image.Image, x: float, y: float, text: str, size: int, width: int,
           fill: Colour = INK, bold: bool = False, limit: int = 99) -> float:
    """Wrapped text from (x, y); returns the y under it."""
    for line in _wrapped(text, size, width, bold, limit):
        _text(image, (x, y), line, size, fill, bold)
        y += round(size * 1.25)
    return y


def _paste(image: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    image.paste(sprite, (round(x), round(y)))


def _canvas(width: int, height: int, ground: Colour) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A sprite of a box ``width`` x ``height`` (both edges drawn) on the colour under it."""
    image = Image.new("RGB", (width + 1, height + 1), ground)
    return image, ImageDraw.Draw(image)


def _die_face(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, value: int,
              fill: Colour = WHITE) -> None:
    """A die face with pips."""
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size // 6, fill=fill,
                           outline=INK, width=max(2, size // 28))
    r = size / 11
    cx, cy, step = x + size / 2, y + size / 2, size * 0.27
    for dx, dy in PIPS[value]:
        px, py = cx + dx * step, cy + dy * step
        draw.ellipse((px - r, py - r, px + r, py + r), fill=INK)


@lru_cache(maxsize=64)
def _die_sprite(size: int, value: int, fill: Colour, ground: Colour) -> Image.Image:
    sprite, draw = _canvas(size, size, ground)
    _die_face(draw, 0, 0, size, value, fill)
    return sprite


def _die(image: Image.Image, x: float, y: float, size: int, value: int,
         fill: Colour = WHITE, number: bool = True) -> None:
    """A die from the sprite cache, its value written underneath unless ``number`` is off."""
    _paste(image, _die_sprite(size, value, fill, PANEL), x, y)
    if number:
        _text(image, (x + size / 2, y + size + 4), str(value), max(18, size // 3), INK, True,
              "ma")


# --------------------------------------------------------------------------- sections


def _waiting(view: dict[str, Any]) -> str:
    """Who must decide and what, or "" when nobody is waited for."""
    waiting = view["to_act"]
    if not waiting or view["over"]:
        return ""
    names = " and ".join(view["seats"][s]["name"] for s in waiting)
    kind = view["decision"]["kind"] if view["decision"] else "buy a card or pass"
    what = {"challenge": "pay, use a costume or suffer", "reroll": "choose dice to reroll",
            "lose": "choose dice to lose", "add": "choose a die to change",
            "set": "choose a die to set", "choice": "choose the bad stuff",
            "exhaust": "choose a costume to flip", "board": "choose a hideout"}.get(kind, kind)
    return f"Waiting for {names}: {what}"


def _summary_lines(view: dict[str, Any]) -> list[str]:
    if not view["result"]:
        return []
    return wrap(_MEASURE, view["result"]["summary"], READABLE, WIDTH - 2 * MARGIN, True)


def _header_height(view: dict[str, Any]) -> int:
    return (HEADER_TITLE + (HEADER_WAITING if _waiting(view) else 0)
            + len(_summary_lines(view)) * LINE + 4)


def _header(image: Image.Image, view: dict[str, Any], y: int) -> int:
    phase = {"setup": "choosing hideouts", "target": "target phase", "prep": "prep phase",
             "heist": "heist phase"}.get(view["phase"], view["phase"])
    title = "Sugar Heist — game over" if view["over"] else \
        f"Sugar Heist — round {view['round']} of {view['rounds']}, {phase}"
    top = y
    _text(image, (MARGIN, y), title, 30, INK, True)
    y += HEADER_TITLE
    waiting = _waiting(view)
    if waiting:
        _text(image, (MARGIN, y), _short(waiting, 24, WIDTH - 2 * MARGIN), 24, MUTED)
        y += HEADER_WAITING
    for line in _summary_lines(view):
        _text(image, (MARGIN, y), line, READABLE, INK, True)
        y += LINE
    return top + _header_height(view)


def _track(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
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
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=seat_colour(seat), outline=ring,
                     width=5 if seat == attacker else 2)
        _text(image, (cx, cy), str(i + 1), 24, ink_on(seat_colour(seat)), True, "mm")
        _text(image, (cx, cy + r + 6), _short(view["seats"][seat]["name"], READABLE, gap - 8,
                                              True), READABLE, INK, True, "ma")
    # The last attacks the first: a line back under the row.
    first = MARGIN + gap * 0.5
    last = MARGIN + gap * (n - 0.5)
    low = cy + r + 36
    draw.line((last, cy + r + 30, last, low, first, low), fill=MUTED, width=3)
    arrow(draw, (first, low), (first, cy + r + 30), MUTED, width=3, head=10)
    return y + TRACK_H


def _card_rows(card: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    rows = []
    if card.get("effect"):
        rows.append(("Effect", card["effect"]))
    if card.get("challenge"):
        rows.append(("Challenge", card["challenge"]))
    if card.get("bad"):
        rows.append(("Bad stuff", card["bad"]))
    return tuple(rows)


@lru_cache(maxsize=128)
def _card_sprite(width: int, height: int, name: str, cost: int,
                 rows: tuple[tuple[str, str], ...], size: int, fill: Colour, highlight: bool,
                 ground: Colour) -> Image.Image:
    """A card with its whole text: name and cost, then effect, challenge and bad stuff."""
    sprite, draw = _canvas(width, height, ground)
    panel(draw, (0, 0, width, height), fill=fill, outline=HIGHLIGHT if highlight else PANEL_EDGE,
          radius=10, width=5 if highlight else 2)
    inner = width - 16
    y = _lines(sprite, 8, 6, name, size + 2, inner - 36, INK, True, 3)
    if cost:
        _text(sprite, (width - 8, 6), f"${cost}", size, MUTED, True, "ra")
    for label, text in rows:
        if y > height - size:
            break
        room = max(1, int((height - y - 4) // round(size * 1.25)))
        y = _lines(sprite, 8, y, f"{label}: {text}", size, inner,
                   BAD if label == "Bad stuff" else INK, False, room)
    return sprite


def _card_box(image: Image.Image, box: tuple[float, float, float, float],
              card: dict[str, Any], size: int, fill: Colour, highlight: bool = False,
              ground: Colour = BACKGROUND) -> None:
    x0, y0, x1, y1 = (round(v) for v in box)
    sprite = _card_sprite(x1 - x0, y1 - y0, card["name"], card.get("cost") or 0,
                          _card_rows(card), size, fill, highlight, ground)
    _paste(image, sprite, x0, y0)


def _heist(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    h = view["heist"]
    if h is None:
        return y
    seats = view["seats"]
    top = y
    height = HEIST_MOD_H if h["mod"] else HEIST_H
    panel(draw, (MARGIN, y, WIDTH - MARGIN, y + height), fill=PANEL, outline=HIGHLIGHT, width=4)
    title = f"{seats[h['attacker']]['name']} raids {seats[h['defender']]['name']}"
    _text(image, (MARGIN + 14, y + 10), _short(title, 30, 560, True), 30, INK, True)
    # Room progress: three boxes, the current one highlighted.
    for r in range(3):
        x = WIDTH - MARGIN - 14 - (3 - r) * 118
        outcome = h["outcomes"][r]
        current = r + 1 == h["room"] and outcome is None
        fill = {"cleared": GOOD, "suffered": BAD, "dodged": MUTED}.get(outcome or "",
                                                                       HIGHLIGHT if current
                                                                       else USED)
        draw.rounded_rectangle((x, y + 10, x + 110, y + 48), radius=8, fill=fill, outline=INK,
                               width=2)
        label = {"cleared": "clear", "suffered": "hurt", "dodged": "slip"}.get(outcome or "",
                                                                              f"room {r + 1}")
        _text(image, (x + 55, y + 29), label, READABLE, WHITE if outcome else INK, True, "mm")
    y += 60
    pool = h["pool"]
    _text(image, (MARGIN + 14, y), f"Dice pool ({len(pool)})", READABLE, MUTED, True)
    y += 30
    size = DIE if len(pool) <= 7 else 92
    x = MARGIN + 14
    for value in pool:
        _die(image, x, y, size, value)
        x += size + 18
    if not pool:
        _text(image, (x, y + size / 2), "no dice left", 28, BAD, True, "lm")
    if h["outside"] is not None:
        ox = WIDTH - MARGIN - 14 - 70
        _die(image, ox, y + 10, 64, h["outside"], OUTSIDE_FILL, number=False)
        _text(image, (ox + 32, y + 80), "outside", READABLE, MUTED, False, "ma")
    y += size + 40
    # The room being entered: its mod (if any) and its encounter, text in full.
    mod, enc = h["mod"], h["encounter"]
    left, right = MARGIN + 14, WIDTH - MARGIN - 14
    room_h = top + height - 74 - y
    if mod:
        split = left + (right - left) * 0.36
        _card_box(image, (left, y, split - 8, y + room_h),
                  {**mod, "name": f"Mod: {mod['name']}"}, READABLE, MOD_FILL, ground=PANEL)
        left = split + 8
    name = enc["name"] + (" (default)" if enc.get("default") else "")
    _card_box(image, (left, y, right, y + room_h), {**enc, "name": f"Room {h['room']}: {name}"},
              READABLE, DEFAULT_FILL if enc.get("default") else ENC_FILL, highlight=True,
              ground=PANEL)
    y += room_h + 8
    for line in h["log"][-2:]:
        _text(image, (MARGIN + 14, y), _short(line, READABLE, WIDTH - 2 * MARGIN - 28), READABLE,
              MUTED)
        y += LINE
    return top + height + 12


def _slot_look(view: dict[str, Any], slot: dict[str, Any] | None, kind: str,
               default: str) -> tuple[Any, ...]:
    """What a room's slot shows, and nothing more: the key of its sprite."""
    if slot is None:
        return ("empty", kind, default if kind == "encounter" else "")
    if slot["face"] == "down" and "key" not in slot:
        return ("back", kind, slot["cost"])
    card = view["cards"][slot["key"]]
    hidden = slot["face"] == "down"
    challenge = card.get("challenge", "") if kind == "encounter" else ""
    return ("card", kind, card["name"], card["cost"], challenge, hidden)


@lru_cache(maxsize=256)
def _slot_sprite(width: int, height: int, look: tuple[Any, ...], highlight: bool) -> Image.Image:
    """One room's mod or encounter slot: empty, a card back, or a card face."""
    sprite, draw = _canvas(width, height, PANEL)
    edge = HIGHLIGHT if highlight else PANEL_EDGE
    inner = width - 12
    box = (0, 0, width, height)
    what, kind = look[0], look[1]
    if what == "empty":
        if kind == "mod":
            draw.rounded_rectangle(box, radius=8, outline=PANEL_EDGE, width=2)
            _text(sprite, (width / 2, height / 2), "no mod", READABLE, MUTED, False, "mm")
            return sprite
        draw.rounded_rectangle(box, radius=8, fill=DEFAULT_FILL, outline=edge,
                               width=4 if highlight else 2)
        _text(sprite, (6, 4), "default", READABLE, MUTED)
        _lines(sprite, 6, 4 + LINE, look[2], READABLE, inner, INK, True, 3)
        return sprite
    if what == "back":
        draw.rounded_rectangle(box, radius=8, fill=BACK, outline=edge if highlight else BACK_EDGE,
                               width=4 if highlight else 2)
        for i in range(8, width - 4, 14):
            draw.line((i, 4, i, height - 4), fill=BACK_EDGE, width=2)
        encounter = kind == "encounter"
        _text(sprite, (width / 2, height / 2 - (14 if encounter else 0)), f"${look[2]}",
              30 if encounter else READABLE, WHITE, True, "mm")
        if encounter:
            _text(sprite, (width / 2, height / 2 + 22), "face down", READABLE, WHITE, False,
                  "mm")
        return sprite
    _, _, name, cost, challenge, hidden = look
    fill = MOD_FILL if kind == "mod" else ENC_FILL
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=BACK if hidden else edge,
                           width=4 if hidden or highlight else 2)
    y = _lines(sprite, 6, 4, name, READABLE, inner, INK, True, 2)
    if kind == "encounter":
        room = int((height - LINE - 4 - y) // LINE)
        if room > 0:
            _lines(sprite, 6, y, challenge, READABLE, inner, INK, False, room)
    note = "yours, face down" if hidden else f"${cost}"
    _text(sprite, (width - 6, height - 4), note, READABLE, BACK if hidden else MUTED, hidden,
          "rd")
    return sprite


@lru_cache(maxsize=128)
def _chip_sprite(label: str, used: bool) -> Image.Image:
    """A costume as a rounded chip: pink while face up, grey once used."""
    width = text_size(_MEASURE, label, READABLE, True)[0] + 20
    sprite, draw = _canvas(width, 38, PANEL)
    draw.rounded_rectangle((0, 0, width, 38), radius=16, fill=USED if used else COSTUME_FILL,
                           outline=MUTED if used else INK, width=2)
    _text(sprite, (width / 2, 19), label, READABLE, MUTED if used else INK, True, "mm")
    return sprite


def _hideouts(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any],
              y: int) -> int:
    seats = view["seats"]
    width, height = HIDEOUT_W, HIDEOUT_H
    h = view["heist"]
    order = view["track"] or list(range(len(seats)))
    for i, seat in enumerate(order):
        s = seats[seat]
        x0 = MARGIN + (i % HIDEOUT_COLS) * (width + HIDEOUT_GAP)
        y0 = y + (i // HIDEOUT_COLS) * (height + HIDEOUT_GAP)
        defending = h is not None and h["defender"] == seat
        panel(draw, (x0, y0, x0 + width, y0 + height), outline=HIGHLIGHT if defending else
              PANEL_EDGE, width=4 if defending else 2)
        colour = seat_colour(seat)
        draw.rounded_rectangle((x0, y0, x0 + width, y0 + 40), radius=12, fill=colour)
        seat_badge(draw, seat, x0 + 20, y0 + 20, 10)
        board = s["board"]["name"] if s["board"] else "no hideout yet"
        _text(image, (x0 + 42, y0 + 20), _short(f"{s['name']} · {board}", READABLE, width - 182,
                                                True), READABLE, ink_on(colour), True, "lm")
        if s["passed"]:
            _text(image, (x0 + width - 10, y0 + 20), "passed", READABLE, ink_on(colour), True,
                  "rm")
        stats = f"{s['candy']} candy   ${s['money']}   {s['tax']} sugar tax"
        if s["hand"]:
            stats += f"   {s['hand']} in hand"
        _text(image, (x0 + 10, y0 + 50), stats, READABLE, INK, True)
        default = s["board"]["default"]["name"] if s["board"] else ""
        for r, room in enumerate(s["rooms"]):
            rx = x0 + 10 + r * (ROOM_W + ROOM_GAP)
            ry = y0 + 84
            lit = defending and h["room"] == r + 1
            _text(image, (rx + ROOM_W / 2, ry), f"Room {r + 1}", READABLE, INK, True, "ma")
            mod = _slot_look(view, room["mod"], "mod", "")
            _paste(image, _slot_sprite(ROOM_W, MOD_H, mod, lit), rx, ry + 34)
            enc = _slot_look(view, room["encounter"], "encounter", default)
            _paste(image, _slot_sprite(ROOM_W, ENCOUNTER_H, enc, lit), rx, ry + 42 + MOD_H)
        cy = y0 + 84 + 34 + MOD_H + 8 + ENCOUNTER_H + 10
        cx = x0 + 10
        if not s["costumes"]:
            _text(image, (cx, cy + 6), "no costumes", READABLE, MUTED)
        for n, c in enumerate(s["costumes"]):
            chip = _chip_sprite(view["cards"][c["key"]]["name"], c["used"])
            if cx + chip.width - 1 > x0 + width - 60:
                _text(image, (cx, cy + 6), f"+{len(s['costumes']) - n} more", READABLE, INK, True)
                break
            _paste(image, chip, cx, cy)
            cx += chip.width - 1 + 6
    rows = (len(order) + HIDEOUT_COLS - 1) // HIDEOUT_COLS
    return y + rows * (height + HIDEOUT_GAP)


def _cards_row(image: Image.Image, view: dict[str, Any], y: int, title: str,
               keys: list[str]) -> int:
    _text(image, (MARGIN, y), title, 24, INK, True)
    y += ROW_TITLE
    w, h = ROW_CARD_W, ROW_CARD_H
    for i, key in enumerate(keys):
        card = view["cards"][key]
        x0 = MARGIN + (i % PER_ROW) * (w + 10)
        y0 = y + (i // PER_ROW) * (h + 10)
        fill = COSTUME_FILL if card["kind"] == "costume" else \
            MOD_FILL if card["kind"] == "mod" else ENC_FILL
        shown = dict(card)
        if card["kind"] == "costume":
            shown["effect"] = card["ability"]
        else:
            shown["name"] = f"{card['name']} ({card['kind']})"
        _card_box(image, (x0, y0, x0 + w, y0 + h), shown, READABLE, fill)
    return y + _rows(len(keys)) * (h + 10) + 4


def _boards(image: Image.Image, view: dict[str, Any], y: int) -> int:
    """The hideout boards still free, by the names players choose them with."""
    _text(image, (MARGIN, y), "Hideouts to choose (board …)", 24, INK, True)
    y += ROW_TITLE
    w, h = ROW_CARD_W, ROW_CARD_H
    for i, board in enumerate(view["boards"]):
        x0 = MARGIN + (i % PER_ROW) * (w + 10)
        y0 = y + (i // PER_ROW) * (h + 10)
        default = board["default"]
        shown = {**default, "name": f"{board['name']} (default room: {default['name']})",
                 "cost": 0}
        _card_box(image, (x0, y0, x0 + w, y0 + h), shown, READABLE, DEFAULT_FILL)
    return y + _rows(len(view["boards"])) * (h + 10) + 4


def _rows(cards: int) -> int:
    return (cards + PER_ROW - 1) // PER_ROW


def _height(view: dict[str, Any]) -> int:
    """The picture's height: every section's, as the drawing lays them out."""
    y = MARGIN + _header_height(view)
    if view["track"]:
        y += TRACK_H
    if view["heist"]:
        y += (HEIST_MOD_H if view["heist"]["mod"] else HEIST_H) + 12
    y += ((len(view["seats"]) + HIDEOUT_COLS - 1) // HIDEOUT_COLS) * (HIDEOUT_H + HIDEOUT_GAP)
    for cards in (view.get("boards"), view["market"], view.get("hand")):
        if cards:
            y += 6 + ROW_TITLE + _rows(len(cards)) * (ROW_CARD_H + 10) + 4
    return y + MARGIN


def _draw(view: dict[str, Any]) -> Image.Image:
    image = Image.new("RGB", (WIDTH, _height(view)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = _header(image, view, MARGIN)
    y = _track(image, draw, view, y)
    y = _heist(image, draw, view, y)
    if view.get("boards"):
        y = _boards(image, view, y + 6)
    y = _hideouts(image, draw, view, y)
    if view["market"]:
        y = _cards_row(image, view, y + 6, "Costume market", view["market"])
    if view.get("hand"):
        _cards_row(image, view, y + 6, "Your hand (only you see this)",
                   [c["key"] for c in view["hand"]])
    return image


# --------------------------------------------------------------------------- palette


def _sample_views() -> list[dict[str, Any]]:
    """Made-up six-player tables that use every colour the picture can draw, for the palette."""
    boards = load_json("sugar_heist", "boards.json")["boards"]
    cards = {
        "pit": {"key": "pit", "name": "Pit", "cost": 2, "kind": "encounter",
                "effect": "Lose a die.", "challenge": "A pair", "bad": "Lose 1 candy."},
        "dog": {"key": "dog", "name": "Dog", "cost": 3, "kind": "mod", "effect": "Reroll a die."},
        "cape": {"key": "cape", "name": "Cape", "cost": 1, "kind": "costume",
                 "ability": "+1 to one of your dice."},
    }
    seats = []
    for n, board in enumerate(boards):
        default = {"key": "", "name": board["default"]["name"], "cost": 0, "kind": "encounter",
                   "effect": "", "challenge": "A die", "bad": "Lose a die."}
        up = {"face": "up", "key": "pit"}
        seats.append({
            "seat": n, "name": f"Player {n + 1}", "ai": False, "passed": n == 0, "hand": n,
            "board": {"key": board["key"], "name": board["name"],
                      "default": default},
            "candy": 5, "money": 2, "tax": 1, "position": n + 1,
            "costumes": [{"key": "cape", "used": False}, {"key": "cape", "used": True}],
            "rooms": [{"room": 1, "encounter": up, "mod": {"face": "up", "key": "dog"}},
                      {"room": 2, "encounter": {"face": "down", "key": "pit", "id": "x"},
                       "mod": {"face": "down", "kind": "mod", "cost": 1}},
                      {"room": 3, "encounter": {"face": "down", "kind": "encounter", "cost": 2},
                       "mod": None}],
        })
    seats[1]["board"] = None
    views = []
    for outcomes, mod in ((["cleared", "suffered", None], cards["dog"]),
                          (["dodged", None, None], None)):
        views.append({
            "game": "sugar-heist", "viewer": 0, "move": 1, "to_act": [0], "round": 2,
            "rounds": 3, "phase": "heist", "over": False, "track": list(range(6)),
            "seats": seats, "market": ["cape", "dog", "pit"], "cards": cards,
            "hand": [{"id": "y", "key": "pit"}], "result": {"summary": "Player 1 wins."},
            "decision": {"kind": "challenge"},
            "heist": {"attacker": 0, "defender": 2, "pool": [1, 2, 3, 4, 5, 6], "outside": 3,
                      "outcomes": outcomes, "room": 3 if mod else 2, "mod": mod,
                      "encounter": cards["pit"] if mod else {**cards["pit"], "default": True},
                      "log": ["Player 1 enters room 3."]},
        })
    return views


@cache
def _palette() -> Image.Image:
    samples = [_draw(view) for view in _sample_views()]
    sheet = Image.new("RGB", (WIDTH, sum(s.height for s in samples)))
    y = 0
    for sample in samples:
        sheet.paste(sample, (0, y))
        y += sample.height
    flat = [BACKGROUND, INK, MUTED, PANEL, PANEL_EDGE, WHITE, HIGHLIGHT, BACK, BACK_EDGE, USED,
            MOD_FILL, ENC_FILL, COSTUME_FILL, DEFAULT_FILL, OUTSIDE_FILL, GOOD, BAD]
    return make_palette_keeping(sheet, flat + list(SEAT_COLOURS))


def render(view: dict[str, Any]) -> bytes:
    """The table as a PNG."""
    return to_png(_draw(view), _palette())
