"""Sugar Heist picture in the phone frame (:mod:`renderers.common`): 800 px wide, at most
1.6 times as tall at every table size (3 to 6 seats), text 20 px or more and most of it 24.

Top to bottom, each a strip: the shared header (whose turn, round and phase, what to do);
the phase's panel (the hideout boards to choose, the costume market, the heist under way
with its dice pool drawn large and the room being entered, or the final ranking with its
tie-breaks in words); in a seat's own picture during the prep phase, its hand; the
hideouts in the order of the target track (each raids the one below it, the last the
first; arrows in the gutter), one a row: the seat's column in its colour (mark, name,
candy, money, sugar tax, costumes) and its three rooms; and the legend of every mark
drawn. Beside a hand on a table too large for every hideout in full, the hideouts other
than the viewer's and the one it raids are drawn in brief (one line each).

A card is drawn as icons from its own data (``data`` in the view's described cards),
never as its sentences: a room's first row is what happens on entering (the mod on
blue, the encounter's effect on orange), then the challenge as the dice it asks for
("odd", "5+", "paired ×3", "sum 9+"), then the bad stuff on red (a die with a red cross
is lost, "D" says the defender picks, "−1" and a candy is candy lost, "end" ends the
heist). The sentences are said in ``/game cards`` (:meth:`Rules.card_texts`).

Draws only what the view holds: a public view has no face-down card's name or data, so
the public picture cannot show one. Strips are kept by what they show
(:class:`~renderers.common.Strip`), so a move redraws only what it changed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers import common

WIDTH = common.FRAME_W
M = common.FRAME_MARGIN
BACK: common.Colour = (92, 62, 120)
BACK_EDGE: common.Colour = (60, 38, 84)
USED: common.Colour = (205, 200, 200)
MOD_FILL: common.Colour = (214, 232, 255)
ENC_FILL: common.Colour = (255, 232, 200)
COSTUME_FILL: common.Colour = (255, 214, 234)
DEFAULT_FILL: common.Colour = (236, 232, 226)
OUTSIDE_FILL: common.Colour = (255, 226, 90)
BAD_FILL: common.Colour = (255, 216, 210)
GOOD: common.Colour = (0, 140, 90)
BAD: common.Colour = (200, 40, 30)
CANDY: common.Colour = (232, 60, 130)
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}

# Layout, in pixels.
GUTTER = 26  # left of the hideouts: the target track's arrows
ROW_H = 24  # one row of icons in a room
ROOM_H = 3 * ROW_H + 6
HIDEOUT_H = ROOM_H + 8
SEAT_X = M + GUTTER  # each hideout's seat column, then its three rooms
SEAT_W = 180
ROOMS_X = SEAT_X + SEAT_W + 6
ROOM_GAP = 6
ROOM_W = (WIDTH - M - ROOMS_X - 2 * ROOM_GAP) // 3
ROOM_HEAD_H = 32
BRIEF_H = 36  # a hideout in brief: its seat's line alone
NAME_Y = 13  # the centre of the seat's name line, where the track's arrows point
CHIP = 22  # the height of an icon in a room
BIG_CHIP = 34  # in the heist panel
DIE = 52
LIST_ROW = 60  # one card in the market, the hand or the boards to choose
LIST_COL = (WIDTH - 2 * M - 12) // 2
PANEL_TITLE = 34

Token = tuple[Any, ...]


# --------------------------------------------------------------------------- icons from card data


def _die_words(need: dict[str, Any]) -> str:
    """What a die must show, as short as a chip holds it: "odd 3+", "≤2", "6", "?"."""
    words = []
    if need.get("odd"):
        words.append("odd")
    if need.get("even"):
        words.append("even")
    low, high = need.get("at_least"), need.get("at_most")
    if low is not None and high is not None and low == high:
        words.append(str(low))
    else:
        if low is not None:
            words.append("6" if low == 6 else f"{low}+")
        if high is not None:
            words.append("1" if high == 1 else f"≤{high}")
    if need.get("unique"):
        words.append("unique")
    return " ".join(words) or "any"


def _need_tokens(needs: list[dict[str, Any]]) -> list[Token]:
    """A challenge as dice chips, alike needs counted ("any ×2"): a die and what it must
    show ("odd 3+"), "paired" for a die of a pair, "pair" for two dice alike, "sum 9+"."""
    groups: list[tuple[str, dict[str, Any], int]] = []
    for need in needs:
        key = json.dumps(need, sort_keys=True)
        if groups and groups[-1][0] == key:
            groups[-1] = (key, need, groups[-1][2] + 1)
        else:
            groups.append((key, need, 1))
    out: list[Token] = []
    for _, need, count in groups:
        kind = need["need"]
        if kind == "sum":
            out.append(("die", f"sum {need['value']}+", common.WHITE, common.INK))
        elif kind == "pair":
            words = _die_words(need)
            out.append(("die", "pair" if words == "any" else f"pair {words}", common.WHITE,
                        common.INK))
        else:
            words = _die_words(need)
            if need.get("part_of_pair"):
                words = "paired" if words == "any" else f"paired {words}"
            out.append(("die", words, common.WHITE, common.INK))
        if count > 1:
            out.append(("text", f"×{count}", common.INK))
    return out


def _who(step: dict[str, Any]) -> list[Token]:
    """Who picks the dice: "D" for the defender, "max"/"min" for the highest or lowest."""
    by = step.get("by", "attacker")
    if by == "defender":
        return [("badge", "D")]
    if by in ("highest", "lowest"):
        return [("text", "max" if by == "highest" else "min", common.INK)]
    return []


def _times(step: dict[str, Any]) -> list[Token]:
    count = step.get("count", 1)
    return [("text", f"×{count}", common.INK)] if count > 1 else []


def _filter(step: dict[str, Any]) -> list[Token]:
    words = _die_words(step)
    return [("text", "all",
             common.INK)] + ([] if words == "any" else [("die", words, common.WHITE, common.INK)])


def _step_tokens(step: dict[str, Any]) -> list[Token]:
    """One step of an effect, bad stuff or costume as icons."""
    do = step["do"]
    if do == "reroll":
        return [("die", "↻", common.WHITE, common.INK), *_times(step), *_who(step)]
    if do == "reroll_all":
        return [("die", "↻", common.WHITE, common.INK), *_filter(step)]
    if do == "lose":
        return [("die", "✗", common.WHITE, BAD), *_times(step), *_who(step)]
    if do == "lose_all":
        return [("die", "✗", common.WHITE, BAD), *_filter(step)]
    if do == "add":
        return [("die", f"{step['amount']:+d}".replace("-", "−"), common.WHITE, common.INK),
                *_times(step), *_who(step)]
    if do == "set":
        return [("die", f"={step['value']}", common.WHITE, common.INK), *_times(step), *_who(step)]
    if do == "add_all":
        amount = f"{step['amount']:+d}".replace("-", "−")
        words = _die_words(step)
        return [("die", amount, common.WHITE, common.INK), ("text", "all", common.INK),
                *([] if words == "any" else [("die", words, common.WHITE, common.INK)])]
    if do == "gain_die":
        return [("die", "+die", common.WHITE, GOOD), *_times(step)]
    if do == "outside_roll":
        when: dict[str, Any] = {k: step[k] for k in ("at_least", "at_most") if k in step}
        rolled = [("die", _die_words(when), OUTSIDE_FILL, common.INK), ("text", "→", common.INK),
                  *_steps_tokens(step["then"])]
        if step.get("else"):
            rolled += [("text", "else", common.MUTED), *_steps_tokens(step["else"])]
        return rolled
    if do == "lose_candy":
        return [("text", f"−{step['amount']}", BAD), ("candy",)]
    if do == "give_candy":
        return [("text", f"−{step['amount']}", BAD), ("candy",), ("text", "→", common.INK),
                ("badge", "D")]
    if do == "pay_money":
        return [("text", f"−${step['amount']}", BAD)]
    if do == "give_money":
        return [("text", f"−${step['amount']}", BAD), ("text", "→", common.INK), ("badge", "D")]
    if do == "end_heist":
        return [("end",)]
    if do == "choice":
        either: list[Token] = []
        for i, option in enumerate(step["options"]):
            if i:
                either.append(("text", "or", common.MUTED))
            either += _steps_tokens(option)
        return either
    if do == "exhaust":
        return [("costume", "flip"), *_times(step)]
    if do == "dodge":
        return [("text", "skip room", common.INK)]
    return [("text", do, common.INK)]


def _steps_tokens(steps: list[dict[str, Any]]) -> list[Token]:
    return [t for s in steps for t in _step_tokens(s)]


# --------------------------------------------------------------------------- drawing icons


def _font_for(chip: int) -> int:
    return common.SMALL_PX if chip < 30 else common.TEXT_PX


def _token_width(token: Token, chip: int) -> int:
    size = _font_for(chip)
    kind = token[0]
    if kind == "die":
        return max(chip, common.text_size(token[1], size, True)[0] + 10)
    if kind == "text":
        return common.text_size(token[1], size, True)[0]
    if kind == "badge":
        return chip
    if kind == "candy":
        return round(chip * 1.3)
    if kind == "end":
        return common.text_size("end", size, True)[0] + 12
    if kind == "costume":
        return common.text_size(token[1], size, True)[0] + 14
    return 0


def tokens_width(tokens: Sequence[Token], chip: int, gap: int = 4) -> int:
    """How wide :func:`draw_tokens` lays ``tokens`` out."""
    return sum(_token_width(t, chip) for t in tokens) + gap * max(0, len(tokens) - 1)


def _chip(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: common.Colour,
          edge: common.Colour, width: int = 2) -> None:
    draw.rounded_rectangle(box, radius=max(3, round((box[3] - box[1]) / 5)), fill=fill,
                           outline=edge, width=width)


def _draw_token(image: Image.Image, draw: ImageDraw.ImageDraw, token: Token, x: float,
                cy: float, chip: int) -> None:
    size = _font_for(chip)
    kind = token[0]
    top, bottom = cy - chip / 2, cy + chip / 2
    width = _token_width(token, chip)
    if kind == "die":
        _, label, fill, colour = token
        _chip(draw, (x, top, x + width, bottom), fill, common.INK)
        common.stamp_text(image, (x + width / 2, cy), label, size, colour, True, "mm")
    elif kind == "text":
        common.stamp_text(image, (x, cy), token[1], size, token[2], True, "lm")
    elif kind == "badge":
        r = chip / 2
        draw.ellipse((x, cy - r, x + 2 * r, cy + r), fill=common.INK)
        common.stamp_text(image, (x + r, cy + 1), token[1], size, common.WHITE, True, "mm")
    elif kind == "candy":
        _candy(draw, x + width / 2, cy, chip / 2)
    elif kind == "end":
        _chip(draw, (x, top, x + width, bottom), BAD, BAD)
        common.stamp_text(image, (x + width / 2, cy), "end", size, common.WHITE, True, "mm")
    elif kind == "costume":
        _chip(draw, (x, top, x + width, bottom), COSTUME_FILL, common.INK)
        common.stamp_text(image, (x + width / 2, cy), token[1], size, common.INK, True, "mm")


def draw_tokens(image: Image.Image, draw: ImageDraw.ImageDraw, tokens: Sequence[Token],
                x: float, cy: float, chip: int, room: float, gap: int = 4) -> float:
    """The icons from ``x``, centred on ``cy``, within ``room``; those that do not fit are
    left off after a "…" (the card's words are in ``/game cards``). Returns the x after."""
    end = x + room
    ellipsis = common.text_size("…", _font_for(chip), True)[0]
    for i, token in enumerate(tokens):
        width = _token_width(token, chip)
        last = i == len(tokens) - 1
        if x + width > end or (not last and x + width + gap + ellipsis > end
                               and x + tokens_width(tokens[i:], chip, gap) > end):
            common.stamp_text(image, (x, cy), "…", _font_for(chip), common.INK, True, "lm")
            return x + ellipsis
        _draw_token(image, draw, token, x, cy, chip)
        x += width + gap
    return x - gap if tokens else x


def _candy(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A wrapped candy: a round sweet with a twist of wrapper on each side."""
    k = r * 0.62
    for side in (-1, 1):
        draw.polygon([(cx + side * k * 0.8, cy), (cx + side * r * 1.3, cy - k),
                      (cx + side * r * 1.3, cy + k)], fill=CANDY, outline=common.INK)
    draw.ellipse((cx - k, cy - k, cx + k, cy + k), fill=CANDY, outline=common.INK, width=2)


def _die_face(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, value: int,
              fill: common.Colour = common.WHITE) -> None:
    """A die face with pips."""
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size // 6, fill=fill,
                           outline=common.INK, width=max(2, size // 24))
    r = size / 11
    cx, cy, step = x + size / 2, y + size / 2, size * 0.27
    for dx, dy in PIPS[value]:
        px, py = cx + dx * step, cy + dy * step
        draw.ellipse((px - r, py - r, px + r, py + r), fill=common.INK)


@lru_cache(maxsize=64)
def _die_sprite(size: int, value: int, fill: common.Colour, ground: common.Colour) -> Image.Image:
    sprite, draw = common.box_canvas(size, size, ground)
    _die_face(draw, 0, 0, size, value, fill)
    return sprite


# --------------------------------------------------------------------------- what a card shows


def _card_rows(card: dict[str, Any]) -> tuple[list[Token], list[Token], list[Token]]:
    """A described card's icons: on entering (its effect), the challenge, the bad stuff."""
    data = card.get("data") or {}
    if card.get("kind") == "costume":
        return _steps_tokens(data.get("ability", [])), [], []
    return (_steps_tokens(data.get("effect", [])), _need_tokens(data.get("challenge", [])),
            _steps_tokens(data.get("bad", [])))


@dataclass(frozen=True)
class Slot:
    """What a room's mod or encounter slot shows, and nothing more: ``look`` is "empty",
    "back" (face down: its cost only), "card" (face up) or "mine" (face down, its owner's
    own picture), "default" (the board's default encounter); ``card`` is the described
    card for a card or a default."""

    look: str
    cost: int = 0
    card: tuple[tuple[Token, ...], tuple[Token, ...], tuple[Token, ...]] = ((), (), ())


def _slot(cards: dict[str, Any], slot: dict[str, Any] | None, default: dict[str, Any] | None,
          kind: str) -> Slot:
    if slot is None:
        if kind == "encounter" and default is not None:
            return Slot("default", 0, _frozen_rows(default))
        return Slot("empty")
    if slot["face"] == "down" and "key" not in slot:
        return Slot("back", int(slot["cost"]))
    card = cards[slot["key"]]
    return Slot("mine" if slot["face"] == "down" else "card", int(card.get("cost") or 0),
                _frozen_rows(card))


def _frozen_rows(card: dict[str, Any]) -> tuple[tuple[Token, ...], tuple[Token, ...],
                                                tuple[Token, ...]]:
    effect, challenge, bad = _card_rows(card)
    return tuple(effect), tuple(challenge), tuple(bad)


# --------------------------------------------------------------------------- a room


def _room(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, width: int,
          mod: Slot, enc: Slot, chip: int, row: int) -> None:
    """A room ``width`` wide from ``(x, y)``: on its first row the mod (blue) and the
    encounter's effect (orange), then the encounter: its challenge, and its bad stuff in
    red; a face-down card is its back with its cost."""
    cy = y + row / 2
    rx = x + 4
    right = x + width - 4
    if mod.look == "back":
        _back(image, draw, (rx, y + 1, rx + 62, y + row - 1), mod.cost, small=True)
        rx += 66
    elif mod.look in ("card", "mine"):
        tokens = mod.card[0]
        w = min(tokens_width(tokens, chip) + 10, right - rx)
        _chip(draw, (rx, y + 1, rx + w, y + row - 1), MOD_FILL,
              BACK if mod.look == "mine" else common.PANEL_EDGE, 3 if mod.look == "mine" else 1)
        draw_tokens(image, draw, tokens, rx + 5, cy, chip, w - 10)
        rx += w + 4
    enc_top = y + row + 3
    box = (x, enc_top, x + width, y + 3 * row + 6)
    if enc.look == "back":
        _back(image, draw, box, enc.cost, small=False)
        return
    if enc.look == "empty":
        return
    effect, challenge, bad = enc.card
    if effect and rx < right - 20:
        w = min(tokens_width(effect, chip) + 10, right - rx)
        _chip(draw, (rx, y + 1, rx + w, y + row - 1), ENC_FILL, common.PANEL_EDGE, 1)
        draw_tokens(image, draw, effect, rx + 5, cy, chip, w - 10)
    fill = DEFAULT_FILL if enc.look == "default" else ENC_FILL
    edge = BACK if enc.look == "mine" else common.PANEL_EDGE
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=edge,
                           width=3 if enc.look == "mine" else 1)
    draw.rounded_rectangle((x + 3, enc_top + row, x + width - 3, box[3] - 3), radius=6,
                           fill=BAD_FILL)
    draw_tokens(image, draw, challenge, x + 6, enc_top + row / 2, chip, width - 12)
    draw_tokens(image, draw, bad, x + 8, enc_top + row * 1.5 - 1, chip, width - 16)


def _room_at(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, mod: Slot,
             enc: Slot) -> None:
    """A hideout's room from ``x`` (a :func:`~renderers.common.placed` piece)."""
    _room(image, draw, x, 0, ROOM_W, mod, enc, CHIP, ROW_H)


def _back(image: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
          cost: int, small: bool) -> None:
    """A face-down card: its back, its cost and nothing else."""
    draw.rounded_rectangle(box, radius=6, fill=BACK, outline=BACK_EDGE, width=2)
    x0, y0, x1, y1 = box
    for i in range(round(x0) + 8, round(x1) - 4, 12):
        draw.line((i, y0 + 3, i, y1 - 3), fill=BACK_EDGE, width=2)
    label = f"${cost}" if small else f"${cost} face down"
    tw = common.text_size(label, common.SMALL_PX if small else common.TEXT_PX, True)[0] + 12
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    draw.rounded_rectangle((mx - tw / 2, my - 13, mx + tw / 2, my + 13), radius=6, fill=BACK)
    common.stamp_text(image, (mx, my), label, common.SMALL_PX if small else common.TEXT_PX,
                      common.WHITE, True, "mm")


# --------------------------------------------------------------------------- hideouts


@dataclass(frozen=True)
class Hideout:
    """Everything a seat's row shows: its seat column (seat, name, candy, money, tax,
    costumes, passed) and each room's mod and encounter (:class:`Slot`)."""

    seat: int
    name: str
    colours: tuple[str, ...]
    candy: int
    money: int
    tax: int
    passed: bool
    #: Each costume's icons and whether it is used this heist.
    costumes: tuple[tuple[tuple[Token, ...], bool], ...]
    rooms: tuple[tuple[Slot, Slot], ...]
    #: Where the seat stands in this heist: "attacker", "defender" or "".
    role: str
    #: The room being raided (1-3) while the seat defends, else 0.
    lit: int
    #: What the last move touched here: "band", "candy", "costume", "room 2 mod", ...
    marks: tuple[str, ...]
    #: The seat raiding this hideout now.
    raider: int | None
    #: Where the hideout stands on the target track, how many stand on it ((0, 0, None):
    #: no track yet), and the last seat on it when it raids the first now, for the
    #: track's arrows in the gutter.
    track: tuple[int, int, int | None]


def _hideout_of(view: dict[str, Any], table: common.Table, seat: int,
                marks: tuple[str, ...]) -> Hideout:
    """What ``seat``'s row shows (``marks``: what the last move touched there)."""
    s = view["seats"][seat]
    h = view["heist"]
    cards = view["cards"]
    board = s["board"]
    default = board["default"] if board else None
    role = "" if h is None else "attacker" if h["attacker"] == seat else \
        "defender" if h["defender"] == seat else ""
    return Hideout(
        seat=seat, name=table.names[seat], colours=table.colours,
        candy=s["candy"], money=s["money"],
        tax=s["tax"], passed=bool(s["passed"]),
        costumes=tuple((tuple(_card_rows(cards[c["key"]])[0]), bool(c["used"]))
                       for c in s["costumes"]),
        rooms=tuple((_slot(cards, room["mod"], None, "mod"),
                     _slot(cards, room["encounter"], default, "encounter"))
                    for room in s["rooms"]),
        role=role, lit=h["room"] if role == "defender" else 0, marks=marks,
        raider=h["attacker"] if role == "defender" else None,
        track=_place(view, seat))


def _hideout(image: Image.Image, draw: ImageDraw.ImageDraw, hideout: Hideout) -> None:
    """One seat's row: its seat column (name; candy, money, sugar tax; costumes and
    "passed") in its colour, then its three rooms; left of it, its part of the track."""
    _track_arrows(draw, hideout, NAME_Y, HIDEOUT_H)
    x0, x1 = SEAT_X, SEAT_X + SEAT_W
    ink = _seat_line(image, draw, hideout, (x0, 0, x1, ROOM_H), NAME_Y)
    _stats(image, draw, hideout, x0 + 6, NAME_Y + ROW_H + 1, ink)
    _costumes(image, draw, hideout, x0 + 5, NAME_Y + 2 * ROW_H + 2, x1 - 5, ink)
    for r, (mod, enc) in enumerate(hideout.rooms):
        rx = ROOMS_X + r * (ROOM_W + ROOM_GAP)
        piece = common.placed(_room_at, (rx, 0, rx + ROOM_W + 1, ROOM_H + 1), common.BACKGROUND, rx,
                              mod,
                              enc)
        if piece is not None:
            common.paste_at(image, piece, rx, 0)
        else:  # a face-down card's words wider than the room: drawn over what is beside it
            _room(image, draw, rx, 0, ROOM_W, mod, enc, CHIP, ROW_H)
        if hideout.lit == r + 1 and hideout.raider is not None:
            draw.rounded_rectangle((rx - 3, -2, rx + ROOM_W + 3, ROOM_H + 2), radius=8,
                                   outline=common.seat_colour(hideout.raider, hideout.colours),
                                   width=4)
        for part in ("mod", "encounter"):
            if f"room {r + 1} {part}" in hideout.marks:
                top = -2 if part == "mod" else ROW_H + 1
                bottom = ROW_H + 1 if part == "mod" else ROOM_H + 2
                common.last_move_mark(draw, (rx - 3, top, rx + ROOM_W + 3, bottom), width=4,
                                      radius=8)


def _brief(image: Image.Image, draw: ImageDraw.ImageDraw, hideout: Hideout) -> None:
    """A hideout in brief, one line in its seat's colour: name; candy, money, sugar tax;
    costumes and "passed" (its rooms are on the public board)."""
    cy = (BRIEF_H - 6) / 2
    _track_arrows(draw, hideout, cy, BRIEF_H)
    ink = _seat_line(image, draw, hideout, (SEAT_X, 0, WIDTH - M, BRIEF_H - 6), cy)
    x = _stats(image, draw, hideout, ROOMS_X, cy, ink)
    _costumes(image, draw, hideout, x + 16, cy, WIDTH - M - 8, ink)


def _seat_line(image: Image.Image, draw: ImageDraw.ImageDraw, hideout: Hideout,
               box: tuple[float, float, float, float], cy: float) -> common.Colour:
    """The seat's box in its colour, its mark and name on the line at ``cy``; the ink that
    reads on it. The box is the last move's when it took its board."""
    colour = common.seat_colour(hideout.seat, hideout.colours)
    draw.rounded_rectangle(box, radius=8, fill=colour)
    if "band" in hideout.marks:
        common.last_move_mark(draw, (box[0] - 3, box[1] - 2, box[2] + 3, box[3] + 2), width=4,
                              radius=8)
    ink = common.ink_on(colour)
    common.seat_badge(draw, hideout.seat, box[0] + 14, cy, 8, hideout.colours)
    common.stamp_text(image, (box[0] + 28, cy), hideout.name, common.TEXT_PX, ink, True, "lm",
                      width=SEAT_W - 32)
    return ink


def _stats(image: Image.Image, draw: ImageDraw.ImageDraw, hideout: Hideout, x: float,
           cy: float, ink: common.Colour) -> float:
    """Candy, money and sugar tax from ``x`` on the line at ``cy``; returns the x after."""
    left = x
    _candy(draw, x + 10, cy, 9)
    x += 24
    candy_w = common.text_size(str(hideout.candy), common.TEXT_PX, True)[0]
    for text in (str(hideout.candy), f"${hideout.money}"):
        common.stamp_text(image, (x, cy), text, common.TEXT_PX, ink, True, "lm")
        x += common.text_size(text, common.TEXT_PX, True)[0] + 10
    _tax(draw, x + 9, cy, 9)
    common.stamp_text(image, (x + 22, cy), str(hideout.tax), common.TEXT_PX, ink, True, "lm")
    if "candy" in hideout.marks:
        common.last_move_mark(draw, (left - 6, cy - 15, left + 34 + candy_w, cy + 15), width=3,
                              radius=6)
    return x + 22 + common.text_size(str(hideout.tax), common.TEXT_PX, True)[0]


def _costumes(image: Image.Image, draw: ImageDraw.ImageDraw, hideout: Hideout, x: float,
              cy: float, right: float, ink: common.Colour) -> None:
    """The seat's costumes as chips of their icons (grey once used this heist), "+2" for
    those that do not fit, and "passed" at the right end while it has passed."""
    if hideout.passed:
        tw = common.text_size("passed", common.SMALL_PX, True)[0]
        common.stamp_text(image, (right, cy), "passed", common.SMALL_PX, ink, True, "rm")
        if "passed" in hideout.marks:
            common.last_move_mark(draw, (right - tw - 5, cy - 13, right + 4, cy + 13), width=4,
                                  radius=6)
        right -= tw + 8
    for n, (tokens, used) in enumerate(hideout.costumes):
        w = tokens_width(tokens, CHIP - 2) + 8
        more = f"+{len(hideout.costumes) - n}"
        rest = 0 if n == len(hideout.costumes) - 1 else common.text_size(more, common.SMALL_PX,
                                                                         True)[0] + 4
        if x + w + rest > right:
            common.stamp_text(image, (x, cy), more, common.SMALL_PX, ink, True, "lm")
            return
        _chip(draw, (x, cy - 12, x + w, cy + 12), USED if used else COSTUME_FILL, common.INK)
        draw_tokens(image, draw, tokens, x + 4, cy, CHIP - 2, w - 8)
        if f"costume {n}" in hideout.marks:
            common.last_move_mark(draw, (x - 4, cy - 16, x + w + 4, cy + 16), width=4, radius=6)
        x += w + 4


def _tax(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A sugar tax token: a white sugar cube."""
    draw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=3, fill=common.WHITE,
                           outline=common.INK, width=2)
    draw.line((cx - r + 3, cy - r + 3, cx + r - 3, cy - r + 3), fill=common.MUTED, width=2)


def _track_arrows(draw: ImageDraw.ImageDraw, hideout: Hideout, cy: float,
                  height: int) -> None:
    """The target track in the gutter: an arrow from each hideout down to the one it raids,
    and from the last back up the gutter's edge to the first; the arrow of the heist under
    way is in the attacker's colour and thicker."""
    place, n, loop = hideout.track
    if n == 0:
        return
    inner, outer = M + 17, M + 4

    def paint(seat: int | None) -> tuple[common.Colour, int]:
        return (common.seat_colour(seat, hideout.colours),
                5) if seat is not None else (common.MUTED, 3)

    looping = paint(loop)
    if place > 0:  # the arrow from the hideout above ends here
        colour, width = paint(hideout.raider)
        draw.line((inner, 0, inner, cy - 12), fill=colour, width=width)
        common.arrow(draw, (inner, cy - 14), (inner + 8, cy), colour, width=width, head=10)
        if place < n - 1:  # the line back from the last passes by
            draw.line((outer, 0, outer, height), fill=looping[0], width=looping[1])
    else:  # the line back from the last ends here
        draw.line((outer, height, outer, cy), fill=looping[0], width=looping[1])
        common.arrow(draw, (outer, cy), (SEAT_X - 1, cy), looping[0], width=looping[1], head=10)
    colour, width = paint(hideout.seat if hideout.role == "attacker" else None)
    if place < n - 1:  # on to the hideout below
        draw.line((inner, cy + 14, inner, height), fill=colour, width=width)
    else:  # the last raids the first: down, left, and up the gutter's edge
        draw.line((inner, cy + 14, inner, height - 6, outer, height - 6, outer, 0),
                  fill=colour, width=width, joint="curve")


def _place(view: dict[str, Any], seat: int) -> tuple[int, int, int | None]:
    track, h = view["track"], view["heist"]
    if not track or view["table"]["result"]:
        return (0, 0, None)
    looping = h is not None and h["attacker"] == track[-1] and len(track) > 1
    return (track.index(seat), len(track), track[-1] if looping else None)


# --------------------------------------------------------------------------- the header


PHASES = {"setup": "choosing hideouts", "target": "target phase", "prep": "prep phase",
          "heist": "heist phase"}


def _what(view: dict[str, Any], table: common.Table) -> str:
    """What the seat to act may do now, in the notation's words, with an example taken
    from the table where it has one (the pool's dice, the attacker's costumes)."""
    decision = view.get("decision") or {}
    kind = decision.get("kind")
    step = decision.get("step") or {}
    h = view["heist"]
    if kind == "board":
        return "Choose your hideout board: each has its own default room (board treehouse)."
    if kind is None and view["phase"] == "prep":
        return ("Buy a costume (buy ninja), build a hand card face down in a room "
                "(build laser grid room 1), or pass (pass).")
    pool = sorted(h["pool"]) if h else []
    count = min(step.get("count", 1), max(1, len(pool)))
    dice = "a die" if count == 1 else f"{count} dice"
    if kind == "challenge" and h is not None:
        return (f"Pay room {h['room']}'s challenge with dice (pay {_dice(pool[-2:])}), use "
                f"a costume (use {_costume(view)}), or suffer its bad stuff (suffer).")
    if kind == "reroll":
        return (f"Reroll up to {dice} of the attacker's pool (reroll {_dice(pool[:count])}), "
                "or none (reroll none).")
    if kind == "lose":
        return f"Choose {dice} to lose from the pool (lose {_dice(pool[:count])})."
    if kind in ("add", "set"):
        verb = "set" if kind == "set" else "raise" if step.get("amount", 0) > 0 else "lower"
        change = f"to {step.get('value')}" if kind == "set" else \
            f"by {abs(step.get('amount', 1))}"
        example = pool[:count] if verb == "raise" else pool[-count:]
        return f"Choose {dice} to {verb} {change} ({verb} {_dice(example)})."
    if kind == "choice":
        return ("Choose the bad stuff to suffer, as the room's red row shows it: the first "
                "(choose 1) or the second (choose 2).")
    if kind == "exhaust":
        return f"Choose a face-up costume to flip face down (flip {_costume(view)})."
    return str(decision.get("text") or "")


def _dice(values: Sequence[int]) -> str:
    return " ".join(map(str, values)) or "3"


def _costume(view: dict[str, Any]) -> str:
    """A face-up costume of the attacker's, as the notation names it (ninja for none)."""
    h = view["heist"]
    worn = view["seats"][h["attacker"]]["costumes"] if h else []
    key = next((c["key"] for c in worn if not c["used"]), None)
    name = view["cards"][key]["name"] if key else "Ninja"
    return str(name).lower().replace("'", "")


# --------------------------------------------------------------------------- the last move


def _marks(view: dict[str, Any]) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...], str]:
    """Where the last move is marked: in each seat's row, in the phase's panel ("room 2",
    "pool", "market"); and what it did, in words for the legend ("" for none)."""
    moved = view.get("moved")
    if not moved:
        return {}, (), ""
    seat, did = moved["seat"], moved["did"]
    rows: dict[int, tuple[str, ...]] = {}
    panel_marks: tuple[str, ...] = ()
    if did == "board":
        rows[seat] = ("band",)
        words = f"took the {_board_name(view, moved.get('board'))}"
    elif did == "pass":
        rows[seat] = ("passed",)
        bonus = moved.get("bonus") or 0
        words = "passed" + (f" (+${bonus})" if bonus else "")
    elif did == "buy":
        costumes = view["seats"][seat]["costumes"]
        rows[seat] = (f"costume {len(costumes) - 1}",) if costumes else ()
        card = view["cards"].get(moved.get("card") or "", {})
        words = f"bought {card.get('name', 'a costume')}"
    elif did == "build":
        room, slot = moved["room"], moved["slot"]
        marks = [f"room {room} {slot}"]
        if moved.get("moved"):
            marks.append(f"room {moved['moved']} {slot}")
        rows[seat] = tuple(marks)
        words = f"built a ${moved.get('cost', 0)} {slot} in room {room}"
    else:
        h = view["heist"]
        same = h is not None and (h["attacker"], h["defender"]) == \
            (moved.get("attacker"), moved.get("defender"))
        card = view["cards"].get(moved.get("costume") or "")
        words = _heist_words(moved, card["name"] if card else "")
        if not same:  # the move ended the heist: candy was stolen or lost
            rows[moved["attacker"]] = ("candy",)
            rows[moved["defender"]] = ("candy",)
        elif did in ("use", "flip") and moved.get("costume"):
            costumes = view["seats"][moved["attacker"]]["costumes"]
            keys = [c["key"] for c in costumes]
            if moved["costume"] in keys:
                used = [i for i, c in enumerate(costumes)
                        if c["key"] == moved["costume"] and c["used"]]
                index = used[-1] if used else keys.index(moved["costume"])
                rows[moved["attacker"]] = (f"costume {index}",)
            if did == "use":
                panel_marks = ("pool",)
        elif did in ("pay", "suffer", "choose"):
            panel_marks = (f"room {moved.get('room', 1)}",)
        else:
            panel_marks = ("pool",)
    return rows, panel_marks, words


def _heist_words(moved: dict[str, Any], costume: str) -> str:
    """A heist move in words: "paid 3 3 in room 2", "used Tin Robot on 5 in room 1"."""
    notation = str(moved.get("notation") or moved["did"])
    verb, _, rest = notation.partition(" ")
    if costume and verb in ("use", "flip"):
        rest = costume + (" on " + rest.split(" on ", 1)[1] if " on " in rest else "")
    past = {"pay": "paid", "suffer": "suffered", "use": "used", "reroll": "rerolled",
            "lose": "lost", "raise": "raised", "lower": "lowered", "set": "set",
            "choose": "chose", "flip": "flipped"}.get(verb, verb)
    room = f" in room {moved['room']}" if verb in ("pay", "suffer", "choose", "use") else ""
    return f"{past} {rest}{room}".replace("  ", " ").strip()


def _board_name(view: dict[str, Any], key: str | None) -> str:
    for s in view["seats"]:
        if s["board"] and s["board"]["key"] == key:
            return str(s["board"]["name"])
    return "hideout"


# --------------------------------------------------------------------------- panels


def _title(image: Image.Image, text: str, y: float = 6) -> None:
    common.stamp_text(image, (M, y + PANEL_TITLE / 2 - 2), text, common.TEXT_PX, common.INK, True,
                      "lm",
                      width=WIDTH - 2 * M)


def _list_entry(i: int, top: float) -> tuple[float, float]:
    """Where the ``i``-th entry of a two-column list goes: its top left corner."""
    return M + (i % 2) * (LIST_COL + 12), top + (i // 2) * LIST_ROW


def _list_height(entries: int) -> int:
    return 6 + PANEL_TITLE + ((entries + 1) // 2) * LIST_ROW + 4


@dataclass(frozen=True)
class Entry:
    """One card of a list (the market, a hand, the boards to choose): its name as the
    notation says it, its cost (0: none), its fill, and its icons: on entering, to pay,
    bad stuff."""

    name: str
    cost: int
    fill: common.Colour
    rows: tuple[tuple[Token, ...], tuple[Token, ...], tuple[Token, ...]]
    marked: bool = False


def _cards_list(image: Image.Image, draw: ImageDraw.ImageDraw, title: str,
                entries: tuple[Entry, ...]) -> None:
    """A titled list of cards, two to a row: name and cost, and under them their icons."""
    _title(image, title)
    for i, entry in enumerate(entries):
        x, y = _list_entry(i, 6 + PANEL_TITLE)
        box = (x, y, x + LIST_COL, y + LIST_ROW - 6)
        common.panel(draw, box, fill=entry.fill, outline=common.PANEL_EDGE, radius=8, width=1)
        if entry.marked:
            common.last_move_mark(draw, box, width=4, radius=8)
        right = x + LIST_COL - 8
        if entry.cost:
            common.stamp_text(image, (right, y + 15), f"${entry.cost}", common.TEXT_PX, common.INK,
                              True, "rm")
            right -= common.text_size(f"${entry.cost}", common.TEXT_PX, True)[0] + 8
        effect = entry.rows[0]
        if entry.fill == COSTUME_FILL:  # a costume: its ability beside its name
            mid = y + (LIST_ROW - 6) / 2
            w = tokens_width(effect, CHIP) + 10
            _chip(draw, (x + 6, mid - 13, x + 6 + w, mid + 13), common.WHITE, common.PANEL_EDGE, 1)
            draw_tokens(image, draw, effect, x + 11, mid, CHIP, w - 10)
            lines = common.wrap(entry.name, common.TEXT_PX, round(right - x - w - 20), True)[:2]
            ny = mid - 12.5 * (len(lines) - 1)
            for line in lines:
                common.stamp_text(image, (x + w + 16, ny), line, common.TEXT_PX, common.INK, True,
                                  "lm")
                ny += 25
            continue
        common.stamp_text(image, (x + 8, y + 15), entry.name, common.TEXT_PX, common.INK, True,
                          "lm",
                          width=right - x - 12)
        _icon_line(image, draw, entry.rows, x + 6, y + 41, LIST_COL - 12, CHIP)


def _icon_line(image: Image.Image, draw: ImageDraw.ImageDraw,
               rows: tuple[Sequence[Token], Sequence[Token], Sequence[Token]], x: float,
               cy: float, room: float, chip: int) -> float:
    """A card's icons on one line: its effect on orange, its challenge, its bad stuff on
    red (each only if it has one)."""
    effect, challenge, bad = rows
    end = x + room
    half = chip / 2 + 3
    if effect:
        w = min(tokens_width(effect, chip) + 10, end - x)
        _chip(draw, (x, cy - half, x + w, cy + half), ENC_FILL, common.PANEL_EDGE, 1)
        draw_tokens(image, draw, effect, x + 5, cy, chip, w - 10)
        x += w + 8
    if challenge:
        x = draw_tokens(image, draw, challenge, x, cy, chip, end - x) + 8
    if bad and x < end - 20:
        w = min(tokens_width(bad, chip) + 10, end - x)
        _chip(draw, (x, cy - half, x + w, cy + half), BAD_FILL, BAD_FILL, 1)
        draw_tokens(image, draw, bad, x + 5, cy, chip, w - 10)
        x += w
    return x


def _boards_entries(view: dict[str, Any]) -> tuple[Entry, ...]:
    return tuple(Entry(b["name"], 0, DEFAULT_FILL, _frozen_rows(b["default"]))
                 for b in view.get("boards") or [])


def _market_entries(view: dict[str, Any]) -> tuple[Entry, ...]:
    return tuple(Entry(view["cards"][key]["name"], int(view["cards"][key]["cost"]),
                       COSTUME_FILL, _frozen_rows(view["cards"][key]))
                 for key in view["market"])


def _hand_entries(view: dict[str, Any]) -> tuple[Entry, ...]:
    out = []
    for c in view.get("hand") or []:
        card = view["cards"][c["key"]]
        out.append(Entry(card["name"], int(card["cost"]),
                         MOD_FILL if card["kind"] == "mod" else ENC_FILL, _frozen_rows(card)))
    return tuple(out)


# --------------------------------------------------------------------------- the heist


HEIST_TOP = 44  # the title line
POOL_H = DIE + 30
ROOM_CARD_H = 2 * BIG_CHIP + 40
HEIST_H = HEIST_TOP + POOL_H + 8 + ROOM_CARD_H + 10


@dataclass(frozen=True)
class Heist:
    """What the heist panel shows: who raids whom, each room's outcome, the pool, the die
    rolled from outside, the room being entered (its mod and encounter) and the marks of
    the last move there."""

    attacker: int
    defender: int
    names: tuple[str, ...]
    colours: tuple[str, ...]
    room: int
    outcomes: tuple[str | None, ...]
    pool: tuple[int, ...]
    outside: int | None
    gained: int
    lost: int
    mod: tuple[str, int, tuple[tuple[Token, ...], tuple[Token, ...], tuple[Token, ...]]] | None
    encounter: tuple[str, int, bool, tuple[tuple[Token, ...], tuple[Token, ...],
                                           tuple[Token, ...]]]
    marks: tuple[str, ...]


def _heist_of(view: dict[str, Any], table: common.Table, marks: tuple[str, ...]) -> Heist:
    h = view["heist"]
    mod, enc = h["mod"], h["encounter"]
    return Heist(
        attacker=h["attacker"], defender=h["defender"], names=table.names,
        colours=table.colours, room=h["room"], outcomes=tuple(h["outcomes"]),
        pool=tuple(h["pool"]), outside=h["outside"], gained=h["gained"], lost=h["lost"],
        mod=None if mod is None else (mod["name"], int(mod.get("cost") or 0),
                                      _frozen_rows(mod)),
        encounter=(enc["name"], int(enc.get("cost") or 0), bool(enc.get("default")),
                   _frozen_rows(enc)),
        marks=marks)


OUTCOME = {"cleared": ("paid ✓", GOOD), "suffered": ("hurt ✗", BAD),
           "dodged": ("slipped", common.MUTED)}


def _heist(image: Image.Image, draw: ImageDraw.ImageDraw, heist: Heist) -> None:
    """The heist under way: who raids whom and each room's outcome, the dice pool drawn
    large (pips and numbers), and the room being entered with its cards' icons large."""
    common.panel(draw, (M, 2, WIDTH - M, HEIST_H - 4), fill=common.PANEL, outline=common.PANEL_EDGE,
                 width=2)
    cy = 24
    x = M + 12
    common.seat_mark(draw, heist.attacker, x + 10, cy, 10, heist.colours)
    x += 26
    who = f"{heist.names[heist.attacker]} raids"
    common.stamp_text(image, (x, cy), who, common.TEXT_PX, common.INK, True, "lm", width=210)
    x += min(common.text_size(who, common.TEXT_PX, True)[0], 210) + 10
    common.seat_mark(draw, heist.defender, x + 10, cy, 10, heist.colours)
    common.stamp_text(image, (x + 26, cy), heist.names[heist.defender], common.TEXT_PX, common.INK,
                      True, "lm",
                      width=190)
    for r in range(3):  # each room's outcome, the one being entered outlined
        bx = WIDTH - M - 10 - (3 - r) * 104
        box = (bx, cy - 16, bx + 98, cy + 16)
        outcome = heist.outcomes[r]
        current = r + 1 == heist.room and outcome is None
        label, fill = OUTCOME.get(outcome or "",
                                  (f"room {r + 1}", common.WHITE if current else USED))
        draw.rounded_rectangle(box, radius=8, fill=fill,
                               outline=common.seat_colour(heist.attacker, heist.colours)
                               if current else common.INK, width=4 if current else 1)
        common.stamp_text(image, (bx + 49, cy), label, common.SMALL_PX,
                          common.WHITE if outcome else common.INK, True, "mm")
        if f"room {r + 1}" in heist.marks:
            common.last_move_mark(draw, (box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), width=4,
                                  radius=8)
    top = HEIST_TOP
    x = M + 14
    for value in heist.pool:
        common.paste_at(image, _die_sprite(DIE, value, common.WHITE, common.PANEL), x, top)
        common.stamp_text(image, (x + DIE / 2, top + DIE + 14), str(value), common.TEXT_PX,
                          common.INK, True, "mm")
        x += DIE + 10
    if not heist.pool:
        common.stamp_text(image, (x, top + DIE / 2), "no dice left", common.TEXT_PX, BAD, True,
                          "lm")
        x += common.text_size("no dice left", common.TEXT_PX, True)[0]
    if "pool" in heist.marks:
        common.last_move_mark(draw, (M + 6, top - 6, max(x, M + 80), top + POOL_H - 2), width=4)
    right = WIDTH - M - 14
    if heist.outside is not None:
        common.paste_at(image, _die_sprite(44, heist.outside, OUTSIDE_FILL, common.PANEL),
                        right - 44, top + 4)
        common.stamp_text(image, (right - 22, top + 66), "outside", common.SMALL_PX, common.INK,
                          True, "mm")
        right -= 62
    if heist.gained or heist.lost:  # candy won and lost in this heist so far
        x = right
        for text, colour in ((f"−{heist.lost}", BAD), (f"+{heist.gained}", GOOD)):
            if text[1:] != "0":
                common.stamp_text(image, (x, top + DIE / 2), text, common.TEXT_PX, colour, True,
                                  "rm")
                x -= common.text_size(text, common.TEXT_PX, True)[0] + 8
        _candy(draw, x - 14, top + DIE / 2, 12)
    y = top + POOL_H + 8
    left = M + 12
    full = WIDTH - M - 12
    if heist.mod is not None:
        name, cost, rows = heist.mod
        width = 250
        _room_card(image, draw, (left, y, left + width, y + ROOM_CARD_H), name, cost,
                   MOD_FILL, rows, heist.colours, None)
        left += width + 10
    name, cost, default, rows = heist.encounter
    title = f"Room {heist.room}: {name}" + (" (default)" if default else "")
    _room_card(image, draw, (left, y, full, y + ROOM_CARD_H), title, cost,
               DEFAULT_FILL if default else ENC_FILL, rows, heist.colours, heist.attacker)


def _room_card(image: Image.Image, draw: ImageDraw.ImageDraw,
               box: tuple[float, float, float, float], title: str, cost: int, fill: common.Colour,
               rows: tuple[tuple[Token, ...], tuple[Token, ...], tuple[Token, ...]],
               colours: tuple[str, ...], raider: int | None) -> None:
    """A card of the room being entered, large: its name and cost, then its icons: for a
    mod its effect; for an encounter its effect and challenge, then its bad stuff."""
    x0, y0, x1, _ = box
    outline = common.seat_colour(raider, colours) if raider is not None else common.PANEL_EDGE
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=outline,
                           width=4 if raider is not None else 2)
    right = x1 - 10
    if cost:
        common.stamp_text(image, (right, y0 + 18), f"${cost}", common.TEXT_PX, common.INK, True,
                          "rm")
        right -= common.text_size(f"${cost}", common.TEXT_PX, True)[0] + 8
    common.stamp_text(image, (x0 + 10, y0 + 18), title, common.TEXT_PX, common.INK, True, "lm",
                      width=right - x0 - 20)
    effect, challenge, bad = rows
    line1 = y0 + 36 + BIG_CHIP / 2
    line2 = line1 + BIG_CHIP + 6
    x = x0 + 10
    if effect and not challenge:  # a mod: its effect alone
        draw_tokens(image, draw, effect, x, line1, BIG_CHIP, x1 - x - 10)
        return
    if effect:
        w = min(tokens_width(effect, BIG_CHIP) + 12, (x1 - x) / 2)
        _chip(draw, (x, line1 - BIG_CHIP / 2 - 2, x + w, line1 + BIG_CHIP / 2 + 2), common.WHITE,
              common.PANEL_EDGE, 1)
        draw_tokens(image, draw, effect, x + 6, line1, BIG_CHIP, w - 12)
        x += w + 10
    common.stamp_text(image, (x, line1), "pay", common.TEXT_PX, common.MUTED, True, "lm")
    x += common.text_size("pay", common.TEXT_PX, True)[0] + 8
    draw_tokens(image, draw, challenge, x, line1, BIG_CHIP, x1 - x - 10)
    draw.rounded_rectangle((x0 + 6, line2 - BIG_CHIP / 2 - 2, x1 - 6, line2 + BIG_CHIP / 2 + 2),
                           radius=8, fill=BAD_FILL)
    common.stamp_text(image, (x0 + 14, line2), "or suffer", common.TEXT_PX, BAD, True, "lm")
    bx = x0 + 22 + common.text_size("or suffer", common.TEXT_PX, True)[0]
    draw_tokens(image, draw, bad, bx, line2, BIG_CHIP, x1 - bx - 12)


# --------------------------------------------------------------------------- the rooms' heading


def _rooms_head(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """Over the hideouts: what the seat column holds and each room's number (`room 2`)."""
    cy = ROOM_HEAD_H / 2
    label = "Hideouts"
    common.stamp_text(image, (M, cy), label, common.TEXT_PX, common.INK, True, "lm",
                      width=ROOMS_X - M - 8)
    for r in range(3):
        rx = ROOMS_X + r * (ROOM_W + ROOM_GAP)
        common.stamp_text(image, (rx + ROOM_W / 2, cy), f"Room {r + 1}", common.TEXT_PX, common.INK,
                          True, "mm")


# --------------------------------------------------------------------------- the legend


def key_die(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
            token: Token) -> None:
    """A legend icon: one of the room's icons, as the rooms draw it."""
    w = _token_width(token, CHIP)
    _draw_token(image, draw, token, cx - w / 2, cy, CHIP)


def key_fill(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
             fill: common.Colour, edge: common.Colour) -> None:
    """A legend icon: a card's or a row's fill, as the rooms draw it."""
    h = common.KEY_ICON // 2 - 4
    draw.rounded_rectangle((cx - h, cy - h + 3, cx + h, cy + h - 3), radius=5, fill=fill,
                           outline=edge, width=2 if edge != fill else 1)


def key_back(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: a card face down."""
    h = common.KEY_ICON // 2 - 2
    draw.rounded_rectangle((cx - h, cy - h + 4, cx + h, cy + h - 4), radius=5, fill=BACK,
                           outline=BACK_EDGE, width=2)
    for x in (cx - 8, cx, cx + 8):
        draw.line((x, cy - h + 7, x, cy + h - 7), fill=BACK_EDGE, width=2)


def key_track(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: the target track's arrow, as the gutter draws it."""
    common.arrow(draw, (cx - 4, cy - common.KEY_ICON / 2 + 2),
                 (cx - 4, cy + common.KEY_ICON / 2 - 4), common.MUTED,
                 width=3, head=10)


def key_tax(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: a sugar tax token."""
    _tax(draw, cx, cy, 11)


def key_raided(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
               colour: common.Colour) -> None:
    """A legend icon: the outline of the room being raided, in the attacker's colour."""
    h = common.KEY_ICON // 2 - 2
    draw.rounded_rectangle((cx - h, cy - h + 4, cx + h, cy + h - 4), radius=6, fill=ENC_FILL,
                           outline=colour, width=4)


#: The icons that are not words, and what the legend says they mean.
ICON_WORDS: tuple[tuple[Token, str], ...] = (
    (("die", "✗", common.WHITE, BAD), "lose"),
    (("die", "↻", common.WHITE, common.INK), "reroll"),
    (("badge", "D"), "defender picks"),
    (("die", "4+", OUTSIDE_FILL, common.INK), "from outside"),
)


def _shown_cards(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every described card whose icons the picture draws."""
    cards: list[dict[str, Any]] = []
    for s in view["seats"]:
        if s["board"]:
            cards.append(s["board"]["default"])
        for room in s["rooms"]:
            for slot in (room["mod"], room["encounter"]):
                if slot and "key" in slot:
                    cards.append(view["cards"][slot["key"]])
        cards.extend(view["cards"][c["key"]] for c in s["costumes"])
    cards.extend(view["cards"][key] for key in view["market"])
    cards.extend(view["cards"][c["key"]] for c in view.get("hand") or [])
    cards.extend(b["default"] for b in view.get("boards") or [])
    if view["heist"]:
        cards.append(view["heist"]["encounter"])
        if view["heist"]["mod"]:
            cards.append(view["heist"]["mod"])
    return cards


def _kind_of(token: Token) -> tuple[Any, ...]:
    """An icon as the legend tells it apart: a die by its fill and, for a verb, its label;
    anything else by its kind and label."""
    if token[0] == "die":
        return ("die", token[2], token[1] if token[1] in ("✗", "↻") else "")
    return token[:2]


def _keys(view: dict[str, Any], table: common.Table, words: str) -> tuple[common.Key, ...]:
    """A key for every mark and colour drawn now (a word says itself), and no other."""
    keys: list[common.Key] = []
    moved = view.get("moved")
    if words and moved:
        keys.append(common.last_move_key(table, moved["seat"], words))
    if view["heist"]:
        attacker = view["heist"]["attacker"]
        keys.append(common.Key(f"{table.names[attacker]} is here", key_raided,
                               (table.rgb(attacker),)))
    if view["track"] and not table.over:
        keys.append(common.Key("raids the one below", key_track))
    seats = view["seats"]
    slots = [slot for s in seats for room in s["rooms"]
             for slot in (room["mod"], room["encounter"])]
    if any(slot and slot["face"] == "down" and "key" not in slot for slot in slots):
        keys.append(common.Key("face down", key_back))
    if any(slot and slot["face"] == "down" and "key" in slot for slot in slots):
        keys.append(common.Key("yours, face down", key_fill, (ENC_FILL, BACK)))
    keys.append(common.Key("candy", key_die, (("candy",),)))
    keys.append(common.Key("sugar tax", key_tax))
    if any(s["board"] for s in seats) or view.get("boards"):
        keys.append(common.Key("default room", key_fill, (DEFAULT_FILL, common.PANEL_EDGE)))
    if any(room["mod"] for s in seats for room in s["rooms"]) or \
            any(view["cards"][c["key"]]["kind"] == "mod" for c in view.get("hand") or []):
        keys.append(common.Key("mod", key_fill, (MOD_FILL, common.PANEL_EDGE)))
    keys.append(common.Key("bad stuff", key_fill, (BAD_FILL, BAD_FILL)))
    if any(c["used"] for s in seats for c in s["costumes"]):
        keys.append(common.Key("used", key_fill, (USED, common.INK)))
    drawn = {_kind_of(t) for card in _shown_cards(view) for row in _card_rows(card)
             for t in row}
    for token, label in ICON_WORDS:
        if _kind_of(token) in drawn:
            keys.append(common.Key(label, key_die, (token,)))
    return tuple(keys)


# --------------------------------------------------------------------------- the final ranking


def _ranking(view: dict[str, Any], table: common.Table) -> common.Strip:
    """The final ranking: the rules rank by candy, then sugar tax, then money."""
    standings = [common.Standing(seat, (s["candy"], s["tax"], s["money"]),
                                 f"{s['candy']} candy · {s['tax']} tax · ${s['money']}")
                 for seat, s in enumerate(view["seats"])]
    return common.ranking_strip(table, standings, ("candy", "sugar tax", "money"))


# --------------------------------------------------------------------------- assembly


def _hand_note(image: Image.Image, draw: ImageDraw.ImageDraw, hand: tuple[Entry, ...]) -> None:
    _cards_list(image, draw, "Your hand, only you see it (build … room 1)", hand)


def _strips(view: dict[str, Any]) -> list[common.Strip]:
    """The header; the phase's panel (boards to choose, market, heist or final ranking);
    a seat's own hand; the hideouts in raid order; the legend."""
    table = common.table_of(view)
    phase = PHASES.get(view["phase"], view["phase"])
    stage = "game over" if table.over else f"round {view['round']} of {view['rounds']}, {phase}"
    strips = [*common.header_strips(view, "Sugar Heist", stage=stage, what=_what(view, table))]
    rows, panel_marks, words = _marks(view)
    if table.over:
        strips.append(_ranking(view, table))
    elif view.get("boards"):
        entries = _boards_entries(view)
        strips.append(common.Strip(_list_height(len(entries)), _cards_list,
                                   ("Hideout boards to choose (board …)", entries)))
    elif view["heist"]:
        strips.append(common.Strip(HEIST_H, _heist, (_heist_of(view, table, panel_marks),)))
    elif view["market"]:
        entries = _market_entries(view)
        strips.append(common.Strip(_list_height(len(entries)), _cards_list,
                                   ("Costume market (buy …)", entries)))
    hand = _hand_entries(view)
    if hand:
        strips.append(common.Strip(_list_height(len(hand)), _hand_note, (hand,)))
    strips.append(common.Strip(ROOM_HEAD_H, _rooms_head))
    order = list(view["track"] or range(len(view["seats"])))
    hideouts = [_hideout_of(view, table, seat, rows.get(seat, ())) for seat in order]
    key = common.legend(_keys(view, table, words))
    full = sum(s.height for s in strips) + len(order) * HIDEOUT_H + key.height
    # Beside a hand on a large table, only the viewer's hideout and the one it raids are
    # drawn in full (the others are on the public board); the rest in brief.
    whole = set(order) if full <= common.FRAME_MAX_H or table.viewer not in order else \
        {table.viewer, order[(order.index(table.viewer) + 1) % len(order)]}
    for hideout in hideouts:
        strips.append(common.Strip(HIDEOUT_H, _hideout, (hideout,)) if hideout.seat in whole
                      else common.Strip(BRIEF_H, _brief, (hideout,)))
    strips.append(key)
    return strips


# --------------------------------------------------------------------------- palette


#: The real game the palette is drawn from, in a seat's own eyes (its face-down cards, the
#: others' backs, its hand): six seats choosing hideouts, in the prep phase, and in a heist
#: through a room with a mod. Random legal moves: the AI's prep takes a second to warm up.
PALETTE_GAMES = (common.Sample(6, 1, (0, 8, 34), (0,), ai=False),)


def _kept() -> tuple[common.Colour, ...]:
    """Flat fills kept exact in the palette."""
    return (BACK, BACK_EDGE, USED, MOD_FILL, ENC_FILL, COSTUME_FILL, DEFAULT_FILL,
            OUTSIDE_FILL, BAD_FILL, GOOD, BAD, CANDY, common.GOLD)


PICTURES = common.Pictures("sugar-heist", WIDTH, _strips, PALETTE_GAMES, keep=_kept)
_draw, _palette, render = PICTURES.draw, PICTURES.palette, PICTURES.render
