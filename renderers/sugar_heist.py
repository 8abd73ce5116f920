"""Sugar Heist picture, made to be read on a phone (Discord shows it about 400 px wide).

Top to bottom: the round and who must decide; the target track as arrows; during
a heist the attacker's dice pool drawn large (pips and numbers), the three rooms
with the one being entered highlighted, and the revealed cards' text; then every
hideout (three rooms, each an encounter and maybe a mod; face-down cards drawn as
card backs showing only their cost), candy, money, sugar tax and costumes (face
up or used); in the prep phase the costume market; in a seat's own view its
hand. Draws only what the view holds: a public view has no face-down card's
name, so the public picture cannot show one.

Speed: the header, the track, the heist, each hideout, the market and the hand are
strips kept by what they show (:class:`~renderers.common.Strip`), so a move redraws
only the hideouts it changed; the cards in the rooms, the market and the hand, the
dice and the costume chips are drawn once into sprites kept by what they show and
their size, then pasted; text goes through the shared mask cache; the PNG is written
on one fixed palette. Caches are keyed only by content taken from the view, so the
picture stays a pure function of the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    WHITE,
    Colour,
    Header,
    Pictures,
    Sample,
    Strip,
    Table,
    arrow,
    blank,
    box_canvas,
    header,
    ink_on,
    panel,
    paste_at,
    seat_badge,
    seat_colour,
    stamp_lines,
    stamp_text,
    table_of,
    text_size,
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
TRACK_H = 102
HEIST_H, HEIST_MOD_H = 540, 640
#: The smallest type a player needs for a decision: 7 px tall capitals at 400 px wide.
READABLE = 24
LINE = 30
#: One hideout per row (a strip each), so that its three rooms' cards read on a phone.
HIDEOUT_GAP = 12
HIDEOUT_W = WIDTH - 2 * MARGIN
MOD_H, ENCOUNTER_H = 70, 190
HIDEOUT_H = 84 + 34 + MOD_H + 8 + ENCOUNTER_H + 10 + 44
ROOM_GAP = 8
ROOM_W = (HIDEOUT_W - 20 - 2 * ROOM_GAP) // 3
ROW_TITLE = 34
PER_ROW = 3
ROW_CARD_W = (WIDTH - 2 * MARGIN - (PER_ROW - 1) * 10) // PER_ROW
ROW_CARD_H = 240

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
    sprite, draw = box_canvas(size, size, ground)
    _die_face(draw, 0, 0, size, value, fill)
    return sprite


def _die(image: Image.Image, x: float, y: float, size: int, value: int,
         fill: Colour = WHITE, number: bool = True) -> None:
    """A die from the sprite cache, its value written underneath unless ``number`` is off."""
    paste_at(image, _die_sprite(size, value, fill, PANEL), x, y)
    if number:
        stamp_text(image, (x + size / 2, y + size + 4), str(value), max(18, size // 3), INK, True,
                   "ma")


# --------------------------------------------------------------------------- sections


#: What the seats to act are asked, by the open decision's kind (none: the prep phase's turn).
DECIDING = {None: "buy a card or pass", "challenge": "pay, use a costume or suffer",
            "reroll": "choose dice to reroll", "lose": "choose dice to lose",
            "add": "choose a die to change", "set": "choose a die to set",
            "choice": "choose the bad stuff", "exhaust": "choose a costume to flip",
            "board": "choose a hideout"}
PHASES = {"setup": "choosing hideouts", "target": "target phase", "prep": "prep phase",
          "heist": "heist phase"}


def _header(view: dict[str, Any]) -> Header:
    """The shared header under the round and phase; once over, the summary says who won
    with how much candy, tax and money."""
    table = table_of(view)
    title = "Sugar Heist" if table.over else \
        f"Sugar Heist — round {view['round']} of {view['rounds']}, " \
        f"{PHASES.get(view['phase'], view['phase'])}"
    what = DECIDING.get(table.decision, table.decision or "")
    return header(view, WIDTH - 2 * MARGIN, title=title, what=what[:1].upper() + what[1:],
                  summary_lines=5)


def _track(image: Image.Image, draw: ImageDraw.ImageDraw, track: list[int],
           attacker: int | None, names: tuple[str, ...], colours: tuple[str, ...]) -> None:
    """The target track: each seat in turn, an arrow to the seat it attacks, the last
    back to the first; the attacker of the heist under way ringed."""
    n = len(track)
    gap = (WIDTH - 2 * MARGIN) / n
    r = 26
    cy = r + 4
    for i, seat in enumerate(track):
        cx = MARGIN + gap * (i + 0.5)
        if i + 1 < n:
            arrow(draw, (cx + r + 4, cy), (cx + gap - r - 6, cy), INK, width=4, head=14)
        ring = HIGHLIGHT if seat == attacker else INK
        colour = seat_colour(seat, colours)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=ring,
                     width=5 if seat == attacker else 2)
        stamp_text(image, (cx, cy), str(i + 1), 24, ink_on(colour), True, "mm")
        stamp_text(image, (cx, cy + r + 6), names[seat], READABLE, INK, True, "ma",
                   width=gap - 8)
    # The last attacks the first: a line back under the row.
    first = MARGIN + gap * 0.5
    last = MARGIN + gap * (n - 0.5)
    low = cy + r + 36
    draw.line((last, cy + r + 30, last, low, first, low), fill=MUTED, width=3)
    arrow(draw, (first, low), (first, cy + r + 30), MUTED, width=3, head=10)


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
    sprite, draw = box_canvas(width, height, ground)
    panel(draw, (0, 0, width, height), fill=fill, outline=HIGHLIGHT if highlight else PANEL_EDGE,
          radius=10, width=5 if highlight else 2)
    inner = width - 16
    y = stamp_lines(sprite, (8, 6), name, size + 2, inner - 36, INK, True, 3)
    if cost:
        stamp_text(sprite, (width - 8, 6), f"${cost}", size, MUTED, True, "ra")
    for label, text in rows:
        if y > height - size:
            break
        room = max(1, int((height - y - 4) // round(size * 1.25)))
        y = stamp_lines(sprite, (8, y), f"{label}: {text}", size, inner,
                        BAD if label == "Bad stuff" else INK, False, room)
    return sprite


def _card_box(image: Image.Image, box: tuple[float, float, float, float],
              card: dict[str, Any], size: int, fill: Colour, highlight: bool = False,
              ground: Colour = BACKGROUND) -> None:
    x0, y0, x1, y1 = (round(v) for v in box)
    sprite = _card_sprite(x1 - x0, y1 - y0, card["name"], card.get("cost") or 0,
                          _card_rows(card), size, fill, highlight, ground)
    paste_at(image, sprite, x0, y0)


def _heist_height(h: dict[str, Any]) -> int:
    return HEIST_MOD_H if h["mod"] else HEIST_H


def _heist(image: Image.Image, draw: ImageDraw.ImageDraw, h: dict[str, Any],
           names: tuple[str, ...]) -> None:
    """The heist under way: its rooms so far, the dice pool, the room being entered."""
    y = top = 0
    height = _heist_height(h)
    panel(draw, (MARGIN, y, WIDTH - MARGIN, y + height), fill=PANEL, outline=HIGHLIGHT, width=4)
    title = f"{names[h['attacker']]} raids {names[h['defender']]}"
    stamp_text(image, (MARGIN + 14, y + 10), title, 30, INK, True, width=560)
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
        stamp_text(image, (x + 55, y + 29), label, READABLE, WHITE if outcome else INK, True, "mm")
    y += 60
    pool = h["pool"]
    stamp_text(image, (MARGIN + 14, y), f"Dice pool ({len(pool)})", READABLE, MUTED, True)
    y += 30
    size = DIE if len(pool) <= 7 else 92
    x = MARGIN + 14
    for value in pool:
        _die(image, x, y, size, value)
        x += size + 18
    if not pool:
        stamp_text(image, (x, y + size / 2), "no dice left", 28, BAD, True, "lm")
    if h["outside"] is not None:
        ox = WIDTH - MARGIN - 14 - 70
        _die(image, ox, y + 10, 64, h["outside"], OUTSIDE_FILL, number=False)
        stamp_text(image, (ox + 32, y + 80), "outside", READABLE, MUTED, False, "ma")
    y += size + 40
    # The room being entered: its mod (if any) and its encounter, text in full.
    mod, enc = h["mod"], h["encounter"]
    left: float = MARGIN + 14
    right = WIDTH - MARGIN - 14
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
        stamp_text(image, (MARGIN + 14, y), line, READABLE, MUTED, width=WIDTH - 2 * MARGIN - 28)
        y += LINE


def _slot_look(cards: dict[str, Any], slot: dict[str, Any] | None, kind: str,
               default: str) -> tuple[Any, ...]:
    """What a room's slot shows, and nothing more: the key of its sprite."""
    if slot is None:
        return ("empty", kind, default if kind == "encounter" else "")
    if slot["face"] == "down" and "key" not in slot:
        return ("back", kind, slot["cost"])
    card = cards[slot["key"]]
    hidden = slot["face"] == "down"
    challenge = card.get("challenge", "") if kind == "encounter" else ""
    return ("card", kind, card["name"], card["cost"], challenge, hidden)


@lru_cache(maxsize=256)
def _slot_sprite(width: int, height: int, look: tuple[Any, ...], highlight: bool) -> Image.Image:
    """One room's mod or encounter slot: empty, a card back, or a card face."""
    sprite, draw = box_canvas(width, height, PANEL)
    edge = HIGHLIGHT if highlight else PANEL_EDGE
    inner = width - 12
    box = (0, 0, width, height)
    what, kind = look[0], look[1]
    if what == "empty":
        if kind == "mod":
            draw.rounded_rectangle(box, radius=8, outline=PANEL_EDGE, width=2)
            stamp_text(sprite, (width / 2, height / 2), "no mod", READABLE, MUTED, False, "mm")
            return sprite
        draw.rounded_rectangle(box, radius=8, fill=DEFAULT_FILL, outline=edge,
                               width=4 if highlight else 2)
        stamp_text(sprite, (6, 4), "default", READABLE, MUTED)
        stamp_lines(sprite, (6, 4 + LINE), look[2], READABLE, inner, INK, True, 3)
        return sprite
    if what == "back":
        draw.rounded_rectangle(box, radius=8, fill=BACK, outline=edge if highlight else BACK_EDGE,
                               width=4 if highlight else 2)
        for i in range(8, width - 4, 14):
            draw.line((i, 4, i, height - 4), fill=BACK_EDGE, width=2)
        encounter = kind == "encounter"
        stamp_text(sprite, (width / 2, height / 2 - (14 if encounter else 0)), f"${look[2]}",
                   30 if encounter else READABLE, WHITE, True, "mm")
        if encounter:
            stamp_text(sprite, (width / 2, height / 2 + 22), "face down", READABLE, WHITE, False,
                       "mm")
        return sprite
    _, _, name, cost, challenge, hidden = look
    fill = MOD_FILL if kind == "mod" else ENC_FILL
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=BACK if hidden else edge,
                           width=4 if hidden or highlight else 2)
    y = stamp_lines(sprite, (6, 4), name, READABLE, inner, INK, True, 2)
    if kind == "encounter":
        room = int((height - LINE - 4 - y) // LINE)
        if room > 0:
            stamp_lines(sprite, (6, y), challenge, READABLE, inner, INK, False, room)
    note = "yours, face down" if hidden else f"${cost}"
    stamp_text(sprite, (width - 6, height - 4), note, READABLE, BACK if hidden else MUTED, hidden,
               "rd")
    return sprite


@lru_cache(maxsize=128)
def _chip_sprite(label: str, used: bool) -> Image.Image:
    """A costume as a rounded chip: pink while face up, grey once used."""
    width = text_size(label, READABLE, True)[0] + 20
    sprite, draw = box_canvas(width, 38, PANEL)
    draw.rounded_rectangle((0, 0, width, 38), radius=16, fill=USED if used else COSTUME_FILL,
                           outline=MUTED if used else INK, width=2)
    stamp_text(sprite, (width / 2, 19), label, READABLE, MUTED if used else INK, True, "mm")
    return sprite


@dataclass(frozen=True)
class Hideout:
    """Everything a seat's hideout shows: its name, colour and board, what it holds, and
    what each room's mod and encounter slot shows (:func:`_slot_look`)."""

    seat: int
    name: str
    colours: tuple[str, ...]
    board: str
    passed: bool
    stats: str
    #: Each room's mod and encounter, as their sprites are kept.
    rooms: tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...]
    #: Each costume's name and whether it is used.
    costumes: tuple[tuple[str, bool], ...]
    defending: bool
    #: The room being raided (1-3) while the seat defends, else 0.
    lit: int


def _hideout_of(view: dict[str, Any], table: Table, seat: int) -> Hideout:
    s = view["seats"][seat]
    h = view["heist"]
    defending = h is not None and h["defender"] == seat
    stats = f"{s['candy']} candy   ${s['money']}   {s['tax']} sugar tax"
    if s["hand"]:
        stats += f"   {s['hand']} in hand"
    default = s["board"]["default"]["name"] if s["board"] else ""
    cards = view["cards"]
    return Hideout(
        seat=seat, name=table.names[seat], colours=table.colours,
        board=s["board"]["name"] if s["board"] else "no hideout yet", passed=bool(s["passed"]),
        stats=stats,
        rooms=tuple((_slot_look(cards, room["mod"], "mod", ""),
                     _slot_look(cards, room["encounter"], "encounter", default))
                    for room in s["rooms"]),
        costumes=tuple((cards[c["key"]]["name"], bool(c["used"])) for c in s["costumes"]),
        defending=defending, lit=h["room"] if defending else 0)


def _hideout(image: Image.Image, draw: ImageDraw.ImageDraw, hideout: Hideout) -> None:
    """One seat's hideout: its three rooms, candy, money, sugar tax and costumes."""
    width, height = HIDEOUT_W, HIDEOUT_H
    x0, y0 = MARGIN, 0
    defending = hideout.defending
    panel(draw, (x0, y0, x0 + width, y0 + height), outline=HIGHLIGHT if defending else
          PANEL_EDGE, width=4 if defending else 2)
    colour = seat_colour(hideout.seat, hideout.colours)
    draw.rounded_rectangle((x0, y0, x0 + width, y0 + 40), radius=12, fill=colour)
    seat_badge(draw, hideout.seat, x0 + 20, y0 + 20, 10, hideout.colours)
    stamp_text(image, (x0 + 42, y0 + 20), f"{hideout.name} · {hideout.board}", READABLE,
               ink_on(colour), True, "lm", width=width - 182)
    if hideout.passed:
        stamp_text(image, (x0 + width - 10, y0 + 20), "passed", READABLE, ink_on(colour),
                   True, "rm")
    stamp_text(image, (x0 + 10, y0 + 50), hideout.stats, READABLE, INK, True)
    for r, (mod, enc) in enumerate(hideout.rooms):
        rx = x0 + 10 + r * (ROOM_W + ROOM_GAP)
        ry = y0 + 84
        lit = hideout.lit == r + 1
        stamp_text(image, (rx + ROOM_W / 2, ry), f"Room {r + 1}", READABLE, INK, True, "ma")
        paste_at(image, _slot_sprite(ROOM_W, MOD_H, tuple(mod), lit), rx, ry + 34)
        paste_at(image, _slot_sprite(ROOM_W, ENCOUNTER_H, tuple(enc), lit), rx,
                 ry + 42 + MOD_H)
    cy = y0 + 84 + 34 + MOD_H + 8 + ENCOUNTER_H + 10
    cx = x0 + 10
    if not hideout.costumes:
        stamp_text(image, (cx, cy + 6), "no costumes", READABLE, MUTED)
    for n, (name, used) in enumerate(hideout.costumes):
        chip = _chip_sprite(name, used)
        if cx + chip.width - 1 > x0 + width - 60:
            stamp_text(image, (cx, cy + 6), f"+{len(hideout.costumes) - n} more", READABLE,
                       INK, True)
            break
        paste_at(image, chip, cx, cy)
        cx += chip.width - 1 + 6


def _cards_row(image: Image.Image, draw: ImageDraw.ImageDraw, title: str,
               cards: list[dict[str, Any]]) -> None:
    """A titled row of cards, text in full (the costume market, a seat's hand)."""
    y = 6
    stamp_text(image, (MARGIN, y), title, 24, INK, True)
    y += ROW_TITLE
    w, h = ROW_CARD_W, ROW_CARD_H
    for i, card in enumerate(cards):
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


def _boards(image: Image.Image, draw: ImageDraw.ImageDraw, boards: list[dict[str, Any]]) -> None:
    """The hideout boards still free, by the names players choose them with."""
    y = 6
    stamp_text(image, (MARGIN, y), "Hideouts to choose (board …)", 24, INK, True)
    y += ROW_TITLE
    w, h = ROW_CARD_W, ROW_CARD_H
    for i, board in enumerate(boards):
        x0 = MARGIN + (i % PER_ROW) * (w + 10)
        y0 = y + (i // PER_ROW) * (h + 10)
        default = board["default"]
        shown = {**default, "name": f"{board['name']} (default room: {default['name']})",
                 "cost": 0}
        _card_box(image, (x0, y0, x0 + w, y0 + h), shown, READABLE, DEFAULT_FILL)


def _row_height(cards: int) -> int:
    """A titled row of ``cards`` cards, with the gap above it."""
    return 6 + ROW_TITLE + _rows(cards) * (ROW_CARD_H + 10) + 4


def _rows(cards: int) -> int:
    return (cards + PER_ROW - 1) // PER_ROW


def _header_strip(image: Image.Image, draw: ImageDraw.ImageDraw, head: Header) -> None:
    head.draw(image, draw, MARGIN, MARGIN)


def _strips(view: dict[str, Any]) -> list[Strip]:
    """The picture top to bottom, each part a strip drawn from what it shows alone."""
    head = _header(view)
    table = head.table
    strips = [Strip(MARGIN + head.height, _header_strip, (head,))]
    if view["track"]:
        attacker = view["heist"]["attacker"] if view["heist"] else None
        strips.append(Strip(TRACK_H, _track, (view["track"], attacker, table.names,
                                              table.colours)))
    if view["heist"]:
        strips.append(Strip(_heist_height(view["heist"]) + 12, _heist,
                            (view["heist"], table.names)))
    if view.get("boards"):
        strips.append(Strip(_row_height(len(view["boards"])), _boards, (view["boards"],)))
    for seat in view["track"] or range(len(view["seats"])):
        strips.append(Strip(HIDEOUT_H + HIDEOUT_GAP, _hideout,
                            (_hideout_of(view, table, seat),)))
    if view["market"]:
        cards = [view["cards"][key] for key in view["market"]]
        strips.append(Strip(_row_height(len(cards)), _cards_row, ("Costume market", cards)))
    if view.get("hand"):
        cards = [view["cards"][c["key"]] for c in view["hand"]]
        strips.append(Strip(_row_height(len(cards)), _cards_row,
                            ("Your hand (only you see this)", cards)))
    strips.append(Strip(MARGIN, blank))
    return strips


# --------------------------------------------------------------------------- palette


#: The real game the palette is drawn from, in a seat's own eyes (its face-down cards, the
#: others' backs, its hand): six seats choosing hideouts, in the prep phase, and in a heist
#: through a room with a mod. Random legal moves: the AI's prep takes a second to warm up.
PALETTE_GAMES = (Sample(6, 1, (0, 8, 34), (0,), ai=False),)


def _kept() -> tuple[Colour, ...]:
    """Flat fills kept exact in the palette."""
    return (BACK, BACK_EDGE, USED, MOD_FILL, ENC_FILL, COSTUME_FILL, DEFAULT_FILL,
            OUTSIDE_FILL, GOOD, BAD)


PICTURES = Pictures("sugar-heist", WIDTH, _strips, PALETTE_GAMES, keep=_kept)
_draw, _palette, render = PICTURES.draw, PICTURES.palette, PICTURES.render
