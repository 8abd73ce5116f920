"""Kingdom's Candy Monsters picture in the phone frame (:mod:`renderers.common`): 800 px
wide, at most 1.6 times as tall, every text 20 px or more (10 px on a phone), most 24 px.

Top to bottom, each a strip: the shared header (whose turn or who is still feeding, the
round, the move, what to do); the kingdom's supply and the event track (four piles of
three, a Black Candy in each: drawn events white, Black Candies black, the rest face
down); the monsters and the abilities for sale, each card its name, its price in sugar,
the candies it is worth, what it eats or its colour, and its ability as icons and counts
("start: +2 sugar"), or once over the final ranking with its tie-breaks in words; the
players; and the legend of every mark drawn.

A player is drawn in full (every monster by name with the abilities tucked under it,
the kept abilities, the set bonus) or, when the whole table would not fit, as tiles two
to a row (a monster its colour and candies with a dot under it for each ability tucked
under it; a kept ability a ring of its colour): then the player to act (the viewer, in
their own picture) is the one drawn in full, in room kept for the fullest player, so
that the picture keeps its height from turn to turn. What the picture says with icons
is said in words by ``Rules.card_texts`` (``/game cards`` in the game's channel) and in the
move labels.

Speed: every strip but the header is kept by what it shows
(:class:`~renderers.common.Strip`); icons are drawn once per size with smooth edges.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.content import load_json
from renderers import common

#: The pieces' colours: sugar cubes, the Black Candy, candies, coins, mouths, slots.
SUGAR: common.Colour = (250, 250, 250)
SUGAR_TOP: common.Colour = (222, 222, 230)
BLACK_CUBE: common.Colour = (40, 30, 45)
CANDY: common.Colour = (236, 96, 160)
COIN: common.Colour = (250, 196, 40)
COIN_EDGE: common.Colour = (176, 120, 0)
MOUTH: common.Colour = (170, 40, 60)
USED: common.Colour = (0, 140, 80)
EMPTY_SLOT: common.Colour = (240, 232, 222)
FACE_DOWN: common.Colour = (214, 198, 182)
ACTIVE: common.Colour = (255, 244, 214)

WIDTH = common.FRAME_W
M = common.FRAME_MARGIN
INNER = WIDTH - 2 * M
#: An icon's square beside a count, at :data:`TEXT_PX` text.
ICON = 28
#: A line of icons and words on a card, and a row of chips in a player's panel.
LINE = 30
CHIP_H = 36
CHIP_ROW = 40
#: A face-up card: three to a row.
CARD_W = (INNER - 2 * 10) // 3
CARD_BAND = 38
CARD_LINES = 3
CARD_H = CARD_BAND + 4 + CARD_LINES * LINE + 4
SUPPLY_H = 44
#: A player's panel: its heading row, then rows of chips (full) or of tiles (condensed).
HEAD_H = 44
TILE = 36
PANEL_GAP = 8

#: A window's word, as a card's ability begins: when it may be used.
WINDOW_WORDS = {
    "turn": "any time", "start": "start", "collect": "collect",
    "buy_ability": "buy ability", "buy_monster": "buy monster", "black_candy": "Black Candy",
    "once": "once", "event": "event", "end": "game end",
}
#: A measure's words after "per" or in a condition (``board.measure``'s names).
MEASURE_WORDS = {
    "monsters": "monster", "colours": "colour", "kept": "kept ability",
    "tucked": "tucked ability", "tucked_here": "tucked here", "sugar": "sugar",
    "candy": "candy", "black": "black cube",
}


# --------------------------------------------------------------------------- icons


def _icon_shape(draw: ImageDraw.ImageDraw, kind: str, colour: common.Colour, s: float) -> None:
    """One icon drawn in a square of side ``s`` at the origin (see :func:`_icon_sprite`)."""
    line = max(2, round(s / 14))
    if kind in ("sugar", "black"):  # a cube: its front and, lighter, its top
        fill, top, edge = (SUGAR, SUGAR_TOP, common.INK) if kind == "sugar" else \
            (BLACK_CUBE, (96, 86, 100), common.INK)
        d = s * 0.18
        draw.polygon([(s * 0.1 + d, s * 0.1), (s * 0.9, s * 0.1), (s * 0.9 - d, s * 0.1 + d),
                      (s * 0.1, s * 0.1 + d)], fill=top)
        draw.polygon([(s * 0.9, s * 0.1), (s * 0.9, s * 0.9 - d), (s * 0.9 - d, s * 0.9),
                      (s * 0.9 - d, s * 0.1 + d)], fill=top)
        draw.rectangle((s * 0.1, s * 0.1 + d, s * 0.9 - d, s * 0.9), fill=fill)
        draw.polygon([(s * 0.1, s * 0.1 + d), (s * 0.1 + d, s * 0.1), (s * 0.9, s * 0.1),
                      (s * 0.9, s * 0.9 - d), (s * 0.9 - d, s * 0.9), (s * 0.1, s * 0.9)],
                     outline=edge, width=line)
        draw.line((s * 0.1, s * 0.1 + d, s * 0.9 - d, s * 0.1 + d, s * 0.9, s * 0.1),
                  fill=edge, width=line)
        draw.line((s * 0.9 - d, s * 0.1 + d, s * 0.9 - d, s * 0.9), fill=edge, width=line)
    elif kind == "candy":  # a wrapped sweet: a round body and two twists
        cy = s / 2
        for sign in (-1, 1):
            x0, x1 = s / 2 + sign * s * 0.26, s / 2 + sign * s * 0.5
            draw.polygon([(x0, cy), (x1, cy - s * 0.2), (x1, cy + s * 0.2)], fill=colour,
                         outline=common.INK, width=line)
        r = s * 0.27
        draw.ellipse((s / 2 - r, cy - r, s / 2 + r, cy + r), fill=colour, outline=common.INK,
                     width=line)
        draw.arc((s / 2 - r * 0.6, cy - r * 0.6, s / 2 + r * 0.6, cy + r * 0.6), 200, 280,
                 fill=common.WHITE, width=line)
    elif kind == "coin":  # a one-time-use token
        draw.ellipse((s * 0.1, s * 0.1, s * 0.9, s * 0.9), fill=COIN, outline=COIN_EDGE,
                     width=line)
        draw.ellipse((s * 0.3, s * 0.3, s * 0.7, s * 0.7), outline=COIN_EDGE, width=line)
    elif kind == "mouth":  # hunger: an open mouth with two fangs
        draw.chord((s * 0.06, s * 0.05, s * 0.94, s * 0.92), 0, 180, fill=MOUTH, outline=common.INK,
                   width=line)
        draw.line((s * 0.06, s * 0.48, s * 0.94, s * 0.48), fill=common.INK, width=line)
        for x in (0.3, 0.7):
            draw.polygon([(s * (x - 0.1), s * 0.49), (s * (x + 0.1), s * 0.49),
                          (s * x, s * 0.7)], fill=common.WHITE)
    elif kind == "crown":  # the first player card
        draw.polygon([(s * 0.08, s * 0.8), (s * 0.08, s * 0.28), (s * 0.3, s * 0.52),
                      (s * 0.5, s * 0.18), (s * 0.7, s * 0.52), (s * 0.92, s * 0.28),
                      (s * 0.92, s * 0.8)], fill=COIN, outline=common.INK, width=line)
    elif kind == "tick":  # used this round
        draw.line((s * 0.14, s * 0.52, s * 0.4, s * 0.78, s * 0.88, s * 0.2), fill=USED,
                  width=round(s * 0.16), joint="curve")
    elif kind == "monster":  # a monster tile: its candy colour, rounded
        draw.rounded_rectangle((s * 0.04, s * 0.04, s * 0.96, s * 0.96), radius=s * 0.2,
                               fill=colour, outline=common.INK, width=line)
    elif kind == "kept":  # a kept ability: a ring of its colour
        draw.rounded_rectangle((s * 0.06, s * 0.06, s * 0.94, s * 0.94), radius=s * 0.42,
                               fill=common.WHITE, outline=colour, width=round(s * 0.16))
    elif kind == "event":  # an event card of the track: drawn, Black Candy or face down
        fill = {"black": BLACK_CUBE, "drawn": common.WHITE}.get(str(colour), FACE_DOWN)
        draw.rounded_rectangle((s * 0.16, s * 0.04, s * 0.84, s * 0.96), radius=s * 0.12,
                               fill=fill, outline=common.INK if fill != FACE_DOWN else common.MUTED,
                               width=line)


@cache
def _icon_sprite(kind: str, colour: Any, side: int) -> Image.Image:
    return common.smooth_sprite(side, side, lambda draw,
                                k: _icon_shape(draw, kind, colour, side * k))


def icon(image: Image.Image, kind: str, cx: float, cy: float, side: int = ICON,
         colour: Any = CANDY) -> None:
    """An icon centred on ``(cx, cy)``: sugar, black, candy (in ``colour``), coin, mouth,
    crown, tick, monster or kept (in ``colour``), event (``colour`` its state)."""
    common.paste_centred(image, _icon_sprite(kind, tuple(colour) if isinstance(colour, list)
                                             else colour, side), cx, cy)


# --------------------------------------------------------------------------- runs of icons, words

#: A piece of a run: ("w", text) a bold word, ("t", text) plain words, ("n", text) a bold
#: count, ("i", kind, colour) an icon.
Piece = tuple[Any, ...]


def _piece_width(piece: Piece) -> int:
    if piece[0] == "i":
        return ICON
    return common.text_size(piece[1], common.TEXT_PX, piece[0] in ("w", "n"))[0]


def _units(pieces: Sequence[Piece]) -> list[list[Piece]]:
    """``pieces`` in units that a line never splits: a word and the count after it, a
    count and the icon after it."""
    units: list[list[Piece]] = []
    for piece in pieces:
        last = units[-1][-1] if units else None
        if last is not None and ((piece[0] == "i" and last[0] == "n")
                                 or (piece[0] == "n" and last[0] == "t" and last[1] != "→")):
            units[-1].append(piece)
        else:
            units.append([piece])
    return units


def _gap(before: Piece, after: Piece) -> int:
    """The room between two pieces: a count sits close to its icon."""
    return 3 if before[0] == "n" and after[0] == "i" else 7


def _run_width(pieces: Sequence[Piece]) -> int:
    return sum(_piece_width(p) for p in pieces) + sum(
        _gap(a, b) for a, b in itertools.pairwise(pieces))


def _wrap_run(pieces: Sequence[Piece], width: int) -> list[list[Piece]]:
    """``pieces`` in lines no wider than ``width``, never splitting a unit (:func:`_units`)."""
    lines: list[list[Piece]] = [[]]
    for unit in _units(pieces):
        if lines[-1] and _run_width([*lines[-1], *unit]) > width:
            lines.append([])
        lines[-1].extend(unit)
    return lines


def _draw_run(image: Image.Image, line: Sequence[Piece], x: float, cy: float,
              fill: common.Colour = common.INK) -> float:
    """One line of pieces from ``x``, centred on ``cy``; returns the x after it."""
    last = None
    for piece in line:
        if last is not None:
            x += _gap(last, piece)
        if piece[0] == "i":
            icon(image, piece[1], x + ICON / 2, cy, ICON, piece[2] if len(piece) > 2 else CANDY)
        else:
            colour = common.MUTED if piece[0] == "t" else fill
            common.stamp_text(image, (x, cy), piece[1], common.TEXT_PX, colour,
                              piece[0] in ("w", "n"), "lm")
        x += _piece_width(piece)
        last = piece
    return x


def _condition(cond: dict[str, Any]) -> list[Piece]:
    """A card's condition as pieces: "if 3 colours", "if no black cube"."""
    if "most" in cond or "fewest" in cond:
        which = "most" if "most" in cond else "fewest"
        return [("t", f"if {which} {_measure(cond[which])}")]
    name = cond["measure"]
    if cond.get("at_most") == 0:
        if name == "black":
            return [("t", "if no"), ("i", "black")]
        return [("t", f"if no {_measure(name)}")]
    if "at_least" in cond:
        return [("t", f"if {cond['at_least']} {_measure(name)}s")]
    return [("t", f"if at most {cond['at_most']} {_measure(name)}")]


def _measure(name: str) -> str:
    kind, _, colour = name.partition(":")
    if kind == "other_monsters":
        return f"other {colour}"
    if colour:
        return f"{colour} monster"
    return MEASURE_WORDS.get(kind, kind)


def _effect(effect: dict[str, Any]) -> list[Piece]:
    """One effect as icons and counts: "+2 sugar", "steal 3 sugar", "price -3"."""
    verb, n = effect["verb"], int(effect.get("n", 1))
    out: list[Piece]
    if verb == "gain_sugar":
        out = [("n", f"+{n}"), ("i", "sugar")]
    elif verb in ("gain_candy", "score"):
        out = [("n", f"+{n}"), ("i", "candy", CANDY)]
    elif verb == "lose_sugar":
        out = [("n", f"−{n}"), ("i", "sugar")]
    elif verb == "steal_sugar":
        out = [("t", "steal"), ("n", str(n)), ("i", "sugar")]
    elif verb == "remove_black":
        out = [("n", f"−{n}"), ("i", "black")]
    elif verb == "others_gain_sugar":
        out = [("t", "others"), ("n", f"+{n}"), ("i", "sugar")]
    elif verb == "halve_others_sugar":
        out = [("t", "others"), ("n", "−½"), ("i", "sugar")]
    elif verb == "discount":
        out = [("t", "price"), ("n", f"−{n}")]
    elif verb == "ready_purchase":
        out = [("t", "use now")]
    elif verb == "eat_less":
        out = [("t", "eat"), ("n", f"−{n}")]
    elif verb == "refresh_market":
        out = [("t", "new cards for sale")]
    else:
        out = [("t", verb.replace("_", " "))]
    if "per" in effect:
        out.append(("t", f"per {_measure(effect['per'])}"))
    if "if" in effect:
        out.extend(_condition(effect["if"]))
    return out


def ability_pieces(card: dict[str, Any]) -> list[Piece]:
    """A card's ability as a run: its window, what it costs to use, what it does."""
    effects = card.get("effects") or []
    if not effects:
        return [("t", "no ability")]
    out: list[Piece] = [("w", WINDOW_WORDS.get(card.get("window") or "end", "") + ":")]
    if card.get("activation"):
        out += [("n", str(card["activation"])), ("i", "sugar"), ("t", "→")]
    for effect in effects:
        out.extend(_effect(effect))
    return out


def title_name(name: str) -> str:
    """A printed name in title case, narrower than capitals: "I'm Inevitable"."""
    return " ".join(word[:1].upper() + word[1:].lower() for word in name.split())


# --------------------------------------------------------------------------- the supply and events


def _supply(image: Image.Image, draw: ImageDraw.ImageDraw, kingdom: dict[str, Any],
            track: tuple[str, ...], latest: bool) -> None:
    """The kingdom's supply, then the event track: four piles of three cards."""
    cy = SUPPLY_H // 2
    common.stamp_text(image, (M, cy), "Kingdom", common.TEXT_PX, common.INK, True, "lm")
    x = M + common.text_size("Kingdom", common.TEXT_PX, True)[0] + 10
    for kind, count in (("sugar", kingdom["sugar"]), ("black", kingdom["black"]),
                        ("candy", kingdom["candy"]), ("coin", kingdom["tokens"])):
        icon(image, kind, x + ICON / 2, cy)
        x += ICON + 3
        common.stamp_text(image, (x, cy), str(count), common.TEXT_PX, common.INK, True, "lm")
        x += common.text_size(str(count), common.TEXT_PX, True)[0] + 12
    for i, state in enumerate(track):
        x0 = _track_x(i, len(track))
        icon(image, "event", x0 + TRACK_STEP / 2, cy, 30, state)
    drawn = sum(1 for s in track if s != "down")
    if latest and drawn:
        x0 = _track_x(drawn - 1, len(track))
        common.last_move_mark(draw, (x0 - 3, cy - 19, x0 + TRACK_STEP + 3, cy + 19), width=4,
                              radius=6)


TRACK_STEP, PILE_GAP = 22, 10


def _track_x(i: int, cards: int) -> int:
    """Where the ``i``-th event card of the track begins: the track ends at the margin."""
    width = cards * TRACK_STEP + (cards // 3 - 1) * PILE_GAP
    return WIDTH - M - width + i * TRACK_STEP + (i // 3) * PILE_GAP


def _track(view: dict[str, Any]) -> tuple[str, ...]:
    """The event deck as its piles were dealt: each card drawn ("drawn", "black" for a
    Black Candy) or still face down ("down"); nothing about the cards not yet drawn."""
    drawn = ["black" if e["kind"] == "black_candy" else "drawn" for e in view["events"]]
    total = len(drawn) + view["decks"]["events"]
    return tuple(drawn + ["down"] * (total - len(drawn)))


# --------------------------------------------------------------------------- the market


@dataclass(frozen=True)
class Face:
    """A face-up card as the market draws it."""

    name: str
    colour: common.Colour
    colour_name: str
    kind: str
    price: int
    cost: int
    value: int
    eats: str
    ability: tuple[Piece, ...]


def _face(card: dict[str, Any], colours: dict[str, common.Colour]) -> Face:
    hunger = card.get("hunger")
    eats = "" if card["kind"] == "ability" else ("1 per other" if hunger is None else str(hunger))
    return Face(title_name(card["name"]), colours.get(card.get("colour") or "", common.MUTED),
                card.get("colour") or "", card["kind"], int(card.get("price", card["cost"])),
                int(card["cost"]), int(card["value"]), eats, tuple(ability_pieces(card)))


def _facts(face: Face) -> list[Piece]:
    """What a card costs and is worth, and what it eats or which colour it shows."""
    out: list[Piece] = [("n", str(face.price)), ("i", "sugar")]
    if face.price != face.cost:
        out.append(("t", f"(not {face.cost})"))
    out += [("n", str(face.value)), ("i", "candy", face.colour)]
    if face.kind == "ability":
        out.append(("w", face.colour_name))
    else:
        out += [("i", "mouth"), ("n", face.eats)] if face.eats.isdigit() else \
            [("i", "mouth"), ("t", face.eats)]
    return out


def _card_lines(face: Face) -> list[list[Piece]]:
    """The card's facts, then its ability, within the card."""
    return _wrap_run([*_facts(face), *face.ability], CARD_W - 20)


def _market(image: Image.Image, draw: ImageDraw.ImageDraw,
            rows: tuple[tuple[Face | None, ...], ...], buying: tuple[int, int] | None) -> None:
    """The monsters, then the abilities for sale (an empty slot where a card is missing);
    the card being bought outlined as this turn's."""
    for row, faces in enumerate(rows):
        y = 4 + row * (CARD_H + 10)
        for slot, face in enumerate(faces):
            x = M + slot * (CARD_W + 10)
            if face is None:
                common.panel(draw, (x, y, x + CARD_W, y + CARD_H), fill=EMPTY_SLOT)
                continue
            _draw_card(image, draw, face, x, y)
            if buying == (row, slot):
                common.last_move_mark(draw, (x - 4, y - 4, x + CARD_W + 4, y + CARD_H + 4), width=5,
                                      radius=14)


def _draw_card(image: Image.Image, draw: ImageDraw.ImageDraw, face: Face, x: int,
               y: int) -> None:
    """A face-up card: its name on a band of its colour, then what it costs, is worth and
    eats (or its colour), then its ability."""
    common.panel(draw, (x, y, x + CARD_W, y + CARD_H), fill=common.PANEL, outline=face.colour,
                 width=3,
                 radius=12)
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_BAND), radius=12, fill=face.colour)
    draw.rectangle((x, y + CARD_BAND - 12, x + CARD_W, y + CARD_BAND), fill=face.colour)
    size = next((s for s in (common.TEXT_PX, 22, common.SMALL_PX)
                 if common.text_size(face.name, s, True)[0] <= CARD_W - 16), common.SMALL_PX)
    name = common.shorten(face.name, size, CARD_W - 16, True)
    common.outlined_text(draw, (x + CARD_W / 2, y + CARD_BAND / 2 + 1), name, size)
    ly = y + CARD_BAND + 4 + LINE // 2
    for line in _card_lines(face)[:CARD_LINES]:
        _draw_run(image, line, x + 10, ly)
        ly += LINE


MARKET_H = 4 + 2 * (CARD_H + 10)


def _market_strip(view: dict[str, Any], colours: dict[str, common.Colour]) -> common.Strip:
    rows = tuple(tuple(None if c is None else _face(c, colours) for c in view["market"][pile])
                 for pile in ("monsters", "abilities"))
    buying_now = common.table_of(view).decision == "buy"
    card = (view.get("turn") or {}).get("buying") if buying_now else None
    buying = next(((r, s) for r, pile in enumerate(("monsters", "abilities"))
                   for s, c in enumerate(view["market"][pile]) if c and c["id"] == card), None)
    return common.Strip(MARKET_H, _market, (rows, buying))


# --------------------------------------------------------------------------- the players


@dataclass(frozen=True)
class Chip:
    """A card a player holds, as their panel draws it: a monster (with the abilities tucked
    under it after it), a tucked ability or a kept one."""

    kind: str
    name: str
    colour: common.Colour
    value: int
    eats: int = 0
    used: bool = False
    token: bool = False
    #: Touched this turn (bought, tucked or used): the last move's outline.
    touched: bool = False
    #: In its owner's own picture during a Black Candy: what the secret draft gives it.
    meal: tuple[Piece, ...] = ()
    #: A tucked ability's monster's colour (the tint of the group it stands in).
    host: common.Colour = common.MUTED


@dataclass(frozen=True)
class Panel:
    """One player as drawn: seat, name, what they are doing, their counts and cards."""

    seat: int
    name: str
    colours: tuple[str, ...]
    acting: bool
    status: str
    first: bool
    sugar: int
    candy: int
    black: int
    eats: int
    score: int
    collected: bool
    monsters: tuple[tuple[Chip, tuple[Chip, ...]], ...]
    kept: tuple[Chip, ...]
    sets: tuple[Piece, ...]


def _meal(meal: list[Any]) -> tuple[Piece, ...]:
    """A monster's meal in the viewer's own secret draft, as pieces."""
    _, how, sugar, candy, black = meal
    if how == "go":
        return (("w", "let go"),)
    out: list[Piece] = []
    for n, kind in ((sugar, "sugar"), (candy, "candy"), (black, "black")):
        if n:
            out += [("n", str(n)), ("i", kind, CANDY)]
    return tuple(out) or (("t", "nothing"),)


def _panel(view: dict[str, Any], table: common.Table, player: dict[str, Any],
           colours: dict[str, common.Colour]) -> Panel:
    seat = player["seat"]
    turn = view.get("turn") or {}
    mine = turn.get("seat") == seat and view["phase"] == "turn"
    fresh = set(turn.get("fresh") or ()) if mine else set()
    meals = {}
    feeding = view.get("feeding") or {}
    if feeding.get("mine") and table.viewer == seat:
        meals = {m[0]: _meal(m) for m in feeding["mine"]["meals"]}

    def chip(kind: str, card: dict[str, Any], **more: Any) -> Chip:
        used = bool(card.get("used"))
        return Chip(kind, title_name(view["cards"][card["id"]]["name"]),
                    colours.get(card.get("colour") or "", common.MUTED), int(card["value"]),
                    used=used, touched=card["id"] in fresh or (mine and used), **more)

    monsters = tuple(
        (chip("monster", m, eats=int(m["eats"]), meal=meals.get(m["id"], ())),
         tuple(chip("tucked", a, token=bool(a["token"]),
                    host=colours.get(m.get("colour") or "", common.MUTED)) for a in m["tucked"]))
        for m in player["monsters"])
    kept = tuple(chip("kept", k) for k in player["kept"])
    sets: list[Piece] = []
    if player["set_sugar"]:
        sets += [("n", f"+{player['set_sugar']}"), ("i", "sugar")]
    if player["set_candy"]:
        sets += [("n", f"+{player['set_candy']}"), ("i", "candy", CANDY)]
    status = ""
    if table.decision == "feed" and seat in table.deciding:
        status = "decided" if seat in table.answered else "deciding"
    return Panel(seat, table.label(seat) + (" (you)" if table.viewer == seat else ""),
                 table.colours, seat in table.acting, status, bool(player["first"]),
                 int(player["sugar"]), int(player["candy"]), int(player["black"]),
                 sum(int(m["eats"]) for m in player["monsters"]), int(player["score"]),
                 mine and turn.get("action") == "collect", monsters, kept, tuple(sets))


def _chip_width(chip: Chip) -> int:
    name_w = common.text_size(chip.name, common.TEXT_PX, chip.kind == "monster")[0]
    width = 10 + name_w + 10
    if chip.kind == "monster":
        width += 34 + 8 + ICON + 3 + common.text_size(str(chip.eats), common.TEXT_PX, True)[0] + 4
    else:
        width += 14 + 8
    if chip.kind == "kept":
        width += ICON + 3 + common.text_size(str(chip.value), common.TEXT_PX, True)[0] + 4
    if chip.used:
        width += ICON
    if chip.token:
        width += ICON
    if chip.meal:
        width += 12 + sum(_piece_width(p) + 5 for p in chip.meal)
    return min(width, ROOM - 8)


def _draw_chip(image: Image.Image, draw: ImageDraw.ImageDraw, chip: Chip, x: float,
               y: float) -> None:
    """A card in a full panel: a monster with its colour, candies, name and hunger; an
    ability with its colour and name; a tick once used this round, a coin for a token."""
    width = _chip_width(chip)
    cy = y + CHIP_H / 2
    if chip.kind == "monster":
        common.panel(draw, (x, y, x + width, y + CHIP_H), fill=common.WHITE, outline=chip.colour,
                     radius=9,
                     width=3)
        draw.rounded_rectangle((x, y, x + 34, y + CHIP_H), radius=9, fill=chip.colour)
        draw.rectangle((x + 20, y + 2, x + 34, y + CHIP_H - 2), fill=chip.colour)
        common.outlined_text(draw, (x + 17, cy + 1), str(chip.value), common.TEXT_PX)
        tx = x + 34 + 8
    else:
        fill = common.WHITE if chip.kind == "tucked" else common.PANEL
        common.panel(draw, (x, y, x + width, y + CHIP_H), fill=fill, outline=chip.colour, radius=9,
                     width=2 if chip.kind == "tucked" else 3)
        draw.rectangle((x + 8, cy - 7, x + 22, cy + 7), fill=chip.colour, outline=common.INK)
        tx = x + 30
    end = x + width - 10
    if chip.kind == "monster":
        end -= ICON + 3 + common.text_size(str(chip.eats), common.TEXT_PX, True)[0] + 4
        icon(image, "mouth", end + 4 + ICON / 2, cy)
        common.stamp_text(image, (end + 4 + ICON + 3, cy), str(chip.eats), common.TEXT_PX,
                          common.INK, True, "lm")
    if chip.kind == "kept":
        end -= ICON + 3 + common.text_size(str(chip.value), common.TEXT_PX, True)[0] + 4
        icon(image, "candy", end + 4 + ICON / 2, cy, colour=chip.colour)
        common.stamp_text(image, (end + 4 + ICON + 3, cy), str(chip.value), common.TEXT_PX,
                          common.INK, True, "lm")
    if chip.meal:
        end -= 12 + sum(_piece_width(p) + 5 for p in chip.meal)
        draw.rounded_rectangle((end + 4, y + 4, x + width - 4, y + CHIP_H - 4), radius=6,
                               fill=ACTIVE, outline=common.PANEL_EDGE)
        _draw_run(image, chip.meal, end + 10, cy)
    for flag, kind in ((chip.token, "coin"), (chip.used, "tick")):
        if flag:
            end -= ICON
            icon(image, kind, end + ICON / 2, cy)
    common.stamp_text(image, (tx, cy), chip.name, common.TEXT_PX, common.INK,
                      chip.kind == "monster", "lm",
                      width=end - tx - 2)
    if chip.touched:
        common.last_move_mark(draw, (x - 3, y - 3, x + width + 3, y + CHIP_H + 3), width=4,
                              radius=10)


KEPT_WORD = "kept:"
SETS_WORD = "sets:"
#: A flow item of a full panel: ("group", chips, width, open) a monster and the abilities
#: tucked under it (or the part of them on this row: ``open`` when it goes on from the row
#: before), ("word", text, width), ("run", pieces, width).
Item = tuple[str, Any, int, bool]
ROOM = INNER - 20


def _tint(colour: common.Colour) -> common.Colour:
    """``colour`` faded toward white: the ground of a monster's group of cards."""
    return (round(colour[0] * 0.22 + 255 * 0.78), round(colour[1] * 0.22 + 255 * 0.78),
            round(colour[2] * 0.22 + 255 * 0.78))


def _group_width(chips: Sequence[Chip]) -> int:
    return sum(_chip_width(c) for c in chips) + 6 * (len(chips) - 1) + 8


def _flow(p: Panel) -> list[list[Item]]:
    """The rows of a full panel: each monster with the abilities tucked under it, on one
    row where they fit (else carried on to the next), then the kept abilities and the set
    bonus, each row within the panel."""
    items: list[Item] = []
    for m, tucked in p.monsters:
        items.append(("group", (m, *tucked), _group_width((m, *tucked)), False))
    if p.kept:
        items.append(("word", KEPT_WORD, common.text_size(KEPT_WORD, common.TEXT_PX)[0], False))
        items += [("group", (k,), _group_width((k,)), False) for k in p.kept]
    if p.sets:
        items.append(("word", SETS_WORD, common.text_size(SETS_WORD, common.TEXT_PX)[0], False))
        items.append(("run", p.sets, sum(_piece_width(x) + 3 for x in p.sets), False))
    rows: list[list[Item]] = [[]]
    for n, item in enumerate(items):
        x = sum(placed[2] + 10 for placed in rows[-1])
        after = items[n + 1][2] + 10 if item[0] == "word" and n + 1 < len(items) else 0
        if x + item[2] + after <= ROOM:
            rows[-1].append(item)
        elif item[0] != "group" or item[2] <= ROOM:
            rows.append([item])
        else:  # a monster with more tucked under it than a row holds: carried on
            chips, carried = item[1], False
            while chips:
                x = sum(placed[2] + 10 for placed in rows[-1])
                n = len(chips)
                while n and x + _group_width(chips[:n]) > ROOM:
                    n -= 1
                if not n:
                    rows.append([])
                    continue
                rows[-1].append(("group", chips[:n], _group_width(chips[:n]), carried))
                chips, carried = chips[n:], True
                if chips:
                    rows.append([])
    return rows if rows[0] else []


def _full_height(p: Panel) -> int:
    return HEAD_H + CHIP_ROW * len(_flow(p)) + 6 + PANEL_GAP


def _counts(image: Image.Image, draw: ImageDraw.ImageDraw, p: Panel, x: float,
            cy: float) -> float:
    """Sugar, candy, black cubes and what the monsters eat, from ``x``; returns the x after."""
    for kind, count in (("sugar", p.sugar), ("candy", p.candy), ("black", p.black),
                        ("mouth", p.eats)):
        icon(image, kind, x + ICON / 2, cy)
        text = str(count)
        w = common.text_size(text, common.TEXT_PX, True)[0]
        common.stamp_text(image, (x + ICON + 3, cy), text, common.TEXT_PX, common.INK, True, "lm")
        if kind == "sugar" and p.collected:
            common.last_move_mark(draw, (x - 4, cy - 19, x + ICON + 3 + w + 5, cy + 19), width=4,
                                  radius=8)
        x += ICON + 3 + w + 16
    return x


def _counts_width(p: Panel) -> int:
    return sum(ICON + 3 + common.text_size(str(n), common.TEXT_PX, True)[0] + 16
               for n in (p.sugar, p.candy, p.black, p.eats)) - 16


def _name_line(image: Image.Image, draw: ImageDraw.ImageDraw, p: Panel, x0: int,
               right: int, cy: float) -> int:
    """Mark, name, first player, what they are doing and the score from ``x0`` to ``right``;
    returns where the name ends (the room between is the caller's)."""
    common.seat_mark(draw, p.seat, x0 + 12, cy, 12, p.colours)
    score = str(p.score)
    score_w = common.text_size(score, common.LARGE_PX, True)[0]
    common.stamp_text(image, (right, cy), score, common.LARGE_PX,
                      common.seat_text_colour(p.seat, p.colours),
                      True, "rm")
    common.stamp_text(image, (right - score_w - 6, cy + 2), "score", common.TEXT_PX, common.MUTED,
                      anchor="rm")
    tags = right - score_w - 6 - common.text_size("score", common.TEXT_PX)[0] - 14
    if p.status:
        word = "decided ✓" if p.status == "decided" else "deciding"
        tags -= common.text_size(word, common.TEXT_PX, True)[0]
        common.stamp_text(image, (tags, cy), word, common.TEXT_PX,
                          USED if p.status == "decided" else common.MUTED,
                          True, "lm")
        tags -= 10
    if p.first:
        tags -= ICON
        icon(image, "crown", tags + ICON / 2, cy)
        tags -= 8
    return tags


def _frame(draw: ImageDraw.ImageDraw, p: Panel, box: tuple[int, int, int, int]) -> None:
    common.panel(draw, box, fill=ACTIVE if p.acting and not p.status else common.PANEL,
                 outline=common.seat_text_colour(p.seat, p.colours), radius=12,
                 width=4 if p.acting else 2)


def _full(image: Image.Image, draw: ImageDraw.ImageDraw, p: Panel) -> None:
    """A player in full: mark, name, counts and score, then every monster by name with the
    abilities tucked under it, the kept abilities and the set bonus."""
    _frame(draw, p, (M, 0, WIDTH - M, image.height - PANEL_GAP))
    cy = HEAD_H // 2
    x0, right = M + 10, WIDTH - M - 12
    counts_x = _name_line(image, draw, p, x0, right, cy) - _counts_width(p)
    _counts(image, draw, p, counts_x, cy)
    common.stamp_text(image, (x0 + 30, cy), p.name, common.NAME_PX,
                      common.seat_text_colour(p.seat, p.colours),
                      True, "lm", width=counts_x - x0 - 44)
    y = HEAD_H
    for row in _flow(p):
        x = M + 10
        for what, item, width, open_ in row:
            if (what == "group" and len(item) > 1) or open_:
                tint = _tint(item[0].colour if not open_ else item[0].host)
                draw.rounded_rectangle((x - (8 if open_ else 0), y - 3, x + width - 4,
                                        y + CHIP_H + 3), radius=11, fill=tint)
            if what == "group":
                cx = x
                for chip in item:
                    _draw_chip(image, draw, chip, cx, y)
                    cx += _chip_width(chip) + 6
            elif what == "word":
                common.stamp_text(image, (x, y + CHIP_H / 2), item, common.TEXT_PX, common.MUTED,
                                  anchor="lm")
            else:
                _draw_run(image, item, x, y + CHIP_H / 2)
            x += width + 10
        y += CHIP_ROW


#: A player as tiles: half the width, its name and score, its counts, its tiles.
HALF = (INNER - 10) // 2
CONDENSED_H = 40 + 34 + TILE + 14 + 6 + PANEL_GAP


def _condensed(image: Image.Image, draw: ImageDraw.ImageDraw,
               players: tuple[Panel, ...]) -> None:
    """Two players side by side, each as tiles: a monster its colour and candies with a
    dot under it for each ability tucked under it, a kept ability a ring of its colour."""
    for n, p in enumerate(players):
        left = M + n * (HALF + 10)
        _frame(draw, p, (left, 0, left + HALF, image.height - PANEL_GAP))
        x0, right = left + 10, left + HALF - 12
        end = _name_line(image, draw, p, x0, right, 21)
        common.stamp_text(image, (x0 + 30, 21), p.name, common.NAME_PX,
                          common.seat_text_colour(p.seat, p.colours),
                          True, "lm", width=end - x0 - 36)
        _counts(image, draw, p, x0, 57)
        x, y = x0, 76
        step = TILE + 5 if _tiles(p) * (TILE + 5) + 10 <= HALF - 20 else \
            (HALF - 30) // max(1, _tiles(p))
        for m, tucked in p.monsters:
            icon(image, "monster", x + TILE / 2, y + TILE / 2, TILE, m.colour)
            common.outlined_text(draw, (x + TILE / 2, y + TILE / 2 + 1), str(m.value),
                                 common.TEXT_PX)
            for i, a in enumerate(tucked[:5]):
                dx = x + 2 + i * 7
                draw.rectangle((dx, y + TILE + 3, dx + 5, y + TILE + 10), fill=a.colour,
                               outline=common.INK)
            if m.touched or any(a.touched for a in tucked):
                common.last_move_mark(draw, (x - 3, y - 3, x + TILE + 3, y + TILE + 13), width=3,
                                      radius=8)
            x += step
        if p.kept:
            x += 10
        for k in p.kept:
            icon(image, "kept", x + TILE / 2, y + TILE / 2, TILE, k.colour)
            common.stamp_text(image, (x + TILE / 2, y + TILE / 2 + 1), str(k.value), common.TEXT_PX,
                              common.INK,
                              True, "mm")
            x += step


def _tiles(p: Panel) -> int:
    return len(p.monsters) + len(p.kept)


def _player_strips(panels: Sequence[Panel], focus: int | None, budget: int) -> list[common.Strip]:
    """Every player in full when the table fits ``budget``; else the ``focus`` seat in full
    (in as much room as the fullest player would take, so that the picture keeps its height
    whoever's turn it is) and the others as tiles, two to a row; else all as tiles."""
    full = [_full_height(p) for p in panels]
    if sum(full) <= budget:
        return [common.Strip(h, _full, (p,)) for p, h in zip(panels, full, strict=True)]
    seats = [p.seat for p in panels]
    others = [p for p in panels if p.seat != focus]
    pairs = [tuple(others[i:i + 2]) for i in range(0, len(others), 2)]
    if focus in seats and max(full) + CONDENSED_H * len(pairs) <= budget:
        return [common.Strip(max(full), _full, (panels[seats.index(focus)],)),
                *(common.Strip(CONDENSED_H, _condensed, (pair,)) for pair in pairs)]
    return [common.Strip(CONDENSED_H, _condensed, (tuple(panels[i:i + 2]),))
            for i in range(0, len(panels), 2)]


# --------------------------------------------------------------------------- words


def _what(view: dict[str, Any], table: common.Table) -> str:
    """What the seats to act may do now, in the notation's words with an example."""
    turn = view.get("turn") or {}
    player = next((p for p in view["players"] if p["seat"] == turn.get("seat")), None)
    names = {c: title_name(view["cards"][c]["name"]) for c in view["cards"]}
    if table.decision == "feed":
        plain = ("Black Candy: in secret, feed each monster sugar or candy (a black cube per "
                 "sugar short), or let it go")
        seat = _focus(table)
        mine: list[dict[str, Any]] = next(
            (p["monsters"] for p in view["players"] if p["seat"] == seat), [])
        example = f"{plain} (feed {mine[0]['key']} sugar)." if mine else plain + "."
        return example if len(common.wrap(example, common.TEXT_PX,
                                          INNER)) <= common.HEADER_LINES else plain + "."
    if table.decision == "buy":
        card = turn.get("buying")
        name = names.get(card, "the card") if card else "the card"
        market = [c for pile in view["market"].values() for c in pile if c]
        name = next((title_name(c["name"]) for c in market if c["id"] == card), name)
        return f"Buying {name}: use a discount first if you have one, then pay, or cancel."
    if table.decision == "place":
        card = turn.get("buying") or ""
        host = player["monsters"][0]["key"] if player and player["monsters"] else "uno"
        return (f"Tuck {names.get(card, 'the ability')} under one of your monsters (tuck under "
                f"{host}), or keep it for its candies (keep).")
    if turn.get("step") == "start":
        example = next((c["key"] for c in view["market"]["monsters"] if c), "magmot")
        return (f"One action: collect 5 sugar, or buy a monster or an ability (buy {example}). "
                "Start abilities and removing black cubes come first.")
    if turn.get("step") == "after":
        usable = [view["cards"][c["id"]]["key"] for m in (player or {}).get("monsters", ())
                  for c in (m, *m["tucked"]) if not c["used"]
                  and view["cards"][c["id"]]["window"] in ("turn", "once")]
        example = f" (use {usable[0]})" if usable else ""
        return f"Use your abilities{example}, convert 4 sugar into 1 candy, or end turn."
    return ""


def _stage(view: dict[str, Any]) -> str:
    return f"round {view['round']}"


# --------------------------------------------------------------------------- legend and keys


def key_icon(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, kind: str,
             colour: Any = CANDY) -> None:
    """A legend icon: one of the picture's icons, as it draws it."""
    icon(image, kind, cx, cy, common.KEY_ICON - 6 if kind not in ("monster", "kept") else TILE - 4,
         colour)


def key_tile(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: a monster tile with a tucked ability's dot under it."""
    icon(image, "monster", cx, cy - 4, TILE - 8, (204, 121, 167))
    draw.rectangle((cx - 12, cy + 12, cx - 7, cy + 17), fill=(0, 114, 178), outline=common.INK)


def key_meal(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: the ground a meal of the viewer's secret feeding is written on."""
    h = common.KEY_ICON // 2 - 4
    draw.rounded_rectangle((cx - h, cy - h + 4, cx + h, cy + h - 4), radius=6, fill=ACTIVE,
                           outline=common.PANEL_EDGE)


def key_touched(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A legend icon: the outline of what this turn touched."""
    h = common.KEY_ICON // 2 - 1
    common.last_move_mark(draw, (cx - h, cy - h, cx + h, cy + h), width=4, radius=6)


def _turn_words(view: dict[str, Any], table: common.Table, panels: Sequence[Panel]) -> str:
    """What the turn of the player to act has done so far: "Ana collected, used Doro"."""
    turn = view.get("turn") or {}
    seat = turn.get("seat")
    p = next((p for p in panels if p.seat == seat), None)
    if p is None or view["phase"] != "turn":
        return ""
    parts = []
    if p.collected:
        parts.append("collected")
    names = {c: title_name(view["cards"][c]["name"]) for c in view["cards"]}
    bought = [names[c] for c in turn.get("fresh") or () if c in names]
    if table.decision == "buy" and turn.get("buying") in names:
        parts.append(f"is buying {names[turn['buying']]}")
    elif table.decision == "place" and turn.get("buying") in names:
        bought.append(names[turn["buying"]])
    if bought:
        parts.append("bought " + ", ".join(bought))
    used = [c.name for m, tucked in p.monsters for c in (m, *tucked) if c.used]
    if used:
        parts.append("used " + ", ".join(used))
    words = f"this turn: {table.names[p.seat]} " + ", ".join(parts)
    if used and common.text_size(words, common.TEXT_PX)[0] > INNER - common.KEY_ICON - 8:
        words = words.replace("used " + ", ".join(used), f"used {len(used)}")
    return words if parts else ""


def _keys(view: dict[str, Any], table: common.Table, panels: Sequence[Panel], full: Sequence[int],
          latest: bool, room: bool = False) -> tuple[common.Key, ...]:
    """A key for every mark the picture draws now, in a few words each; with ``room``,
    every key it could draw with this table whoever plays and however the players are
    drawn, but for the last one, what this turn did or the latest event. ``full``: the
    seats drawn in full, the others as tiles."""
    condensed = len(full) < len(panels)
    chips = [c for p in panels if p.seat in full
             for m, tucked in p.monsters for c in (m, *tucked)]
    track = _track(view)
    # In an order that packs the rows: the rows take what fits, left to right.
    keys = [common.Key("sugar", key_icon, ("sugar",)), common.Key("candy", key_icon, ("candy",)),
            common.Key("black cube", key_icon, ("black",)),
            common.Key("eats", key_icon, ("mouth",)),
            common.Key("first player", key_icon, ("crown",)),
            common.Key("one-use token", key_icon, ("coin",))]
    if room or any(c.used for c in chips):
        keys.append(common.Key("used", key_icon, ("tick",)))
    if "black" in track:
        keys.append(common.Key("Black Candy", key_icon, ("event", "black")))
    if condensed and (room or any(p.kept for p in panels)):
        keys.append(common.Key("kept ability", key_icon, ("kept", (204, 121, 167))))
    if condensed:
        keys.append(common.Key("monster (dot: tucked)", key_tile))
    for state, label in (("drawn", "event drawn"), ("down", "event to come")):
        if state in track:
            keys.append(common.Key(label, key_icon, ("event", state)))
    if any(c.meal for c in chips):
        keys.append(common.Key("your secret feeding", key_meal))
    if room:  # this turn's line, last: it takes at most one more row
        return tuple(keys)
    words = _turn_words(view, table, panels)
    if words:
        keys.append(common.Key(words, key_touched))
    elif latest and view["events"]:
        keys.append(common.Key(f"latest event: {title_name(view['events'][-1]['name'])}",
                               key_touched))
    return tuple(keys)


# --------------------------------------------------------------------------- the ranking


def _ranking(view: dict[str, Any], table: common.Table) -> common.Strip:
    """The final ranking: most candies, then most candy tokens, then most monsters."""
    standings = [common.Standing(p["seat"], (int(p["score"]), int(p["candy"]), len(p["monsters"])),
                                 f"{p['score']} candies") for p in view["players"]]
    return common.ranking_strip(table, standings, ("candies", "candy tokens", "monsters"))


# --------------------------------------------------------------------------- assembly


def _colours(view: dict[str, Any]) -> dict[str, common.Colour]:
    return {c["id"]: tuple(c["rgb"]) for c in view["colours"]}


def _latest(view: dict[str, Any]) -> bool:
    """Was an event the last thing to happen? At the first turn of a round before its first
    move, or once the game is over."""
    turn = view.get("turn") or {}
    if view["phase"] == "over":
        return True
    if view["phase"] != "turn" or not view["events"]:
        return False
    p = next((p for p in view["players"] if p["seat"] == turn.get("seat")), None)
    return (turn.get("seat") == view["first"] and turn.get("step") == "start"
            and not turn.get("fresh") and p is not None
            and not any(m["used"] or any(a["used"] for a in m["tucked"]) for m in p["monsters"]))


def _focus(table: common.Table) -> int | None:
    """The player drawn in full when not all can be: the viewer in their own picture, else
    the player to act, the first still deciding a joint decision, or the winner."""
    if table.viewer is not None:
        return table.viewer
    waiting = [s for s in table.deciding if s not in table.answered]
    return next(iter([*table.acting[:1], *waiting, *table.deciding, *table.winners]), None)


def _strips(view: dict[str, Any]) -> list[common.Strip]:
    """The header, the supply and events, the cards for sale (the final ranking once over),
    the players, the legend.

    The legend keeps room for every key either way of drawing the players could need
    (and for this turn's line), so that the picture's height follows what is on the table,
    not whose turn it is or what they did so far."""
    table = common.table_of(view)
    colours = _colours(view)
    latest = _latest(view)
    strips = [*common.header_strips(view, "Kingdom's Candy Monsters", stage=_stage(view),
                            what=_what(view, table)),
              common.Strip(SUPPLY_H, _supply, (view["kingdom"], _track(view), latest))]
    strips.append(_ranking(view, table) if table.over else _market_strip(view, colours))
    panels = [_panel(view, table, p, colours) for p in view["players"]]
    room = _legend_height(_keys(view, table, panels, (), latest, room=True)) + common.KEY_ROW
    players = _player_strips(panels, _focus(table),
                             common.FRAME_MAX_H - sum(s.height for s in strips) - room)
    full = [s.args[0].seat for s in players if s.paint is _full]
    keys = _keys(view, table, panels, full, latest)
    spare = room - _legend_height(keys)
    return [*strips, *players, common.legend(keys),
            *([common.Strip(spare, common.blank)] if spare > 0 else [])]


def _legend_height(keys: Sequence[common.Key]) -> int:
    return common.keys_height(tuple(dict.fromkeys(keys)), WIDTH - 2 * M) + 16


# --------------------------------------------------------------------------- palette


#: The real games the palette is drawn from: five seats (every seat colour), early and late
#: (every candy colour on cards, events, Black Candies), in a seat's own eyes (all that is
#: public and its secret feeding); and two seats at their end.
PALETTE_GAMES = (common.Sample(5, 2, (12, 120), (0,)), common.Sample(2, 3, (common.END,)))


def _kept() -> tuple[common.Colour, ...]:
    """Flat fills kept exact in the palette: the kingdom's candy colours among them."""
    kingdom = load_json("candy_monsters", "kingdom.json")["colours"]
    return (SUGAR, BLACK_CUBE, EMPTY_SLOT, CANDY, COIN, ACTIVE, FACE_DOWN,
            *(tuple(c["rgb"]) for c in kingdom), *(_tint(tuple(c["rgb"])) for c in kingdom),
            *(common.seat_text_colour(s) for s in range(5)))


PICTURES = common.Pictures("kingdoms-candy-monsters", WIDTH, _strips, PALETTE_GAMES, keep=_kept)
_draw, _palette, render = PICTURES.draw, PICTURES.palette, PICTURES.render
