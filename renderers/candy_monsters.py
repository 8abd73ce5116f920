"""Kingdom's Candy Monsters picture: the kingdom's face-up cards, the events, every player's
monsters with their tucked abilities, kept abilities and tokens, and who is to act.

Speed: the header, each market, the events and each player's panel are strips kept by
what they show (:class:`~renderers.common.Strip`), so a move redraws only the panels it
changed; a face-up card, a player's monster with its tucked abilities, an event and a kept
ability are each drawn once into a sprite kept by what it shows, then pasted; other text
goes through the shared mask cache; the PNG is written on one fixed palette. Every cache
is keyed by content taken from the view, so the picture stays a function of the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.content import load_json
from renderers.common import (
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
    box_canvas,
    header,
    outlined_text,
    panel,
    paste_at,
    seat_mark,
    seat_text_colour,
    stamp_text,
    table_of,
    text_size,
    wrap,
)

WIDTH = 900
MARGIN = 16
#: The smallest type a player needs for a decision: 7 px tall capitals at 400 px wide.
READABLE = 22
LINE = 26
#: Texts that need not read at 400 px: the key under the players.
FINE_PRINT = (r"✓ used this round · .*",)
CARD_W = (WIDTH - 2 * MARGIN - 2 * 12) // 3
CARD_H = 240
MINI_GAP = 8
MINI_W = (WIDTH - 2 * MARGIN - 16) // 3 - MINI_GAP
EMPTY_SLOT: Colour = (240, 232, 222)
BLACK_CANDY: Colour = (40, 30, 45)
SUGAR: Colour = (250, 250, 250)
WINDOWS = {
    "turn": "ANY TIME", "start": "START OF TURN", "collect": "WHEN COLLECTING",
    "buy_ability": "BUYING AN ABILITY", "buy_monster": "BUYING A MONSTER",
    "black_candy": "BLACK CANDY", "once": "ONCE PER GAME", "event": "EVENT PHASE",
    "end": "GAME END",
}
#: The line of the kingdom's supply under the header.
KINGDOM_H = 32
PILE_TITLE = 28
EVENT_TITLE = 30
EVENT_ROW = 38
FOOTER = 24
BOTTOM = 6

def _colours(view: dict[str, Any]) -> dict[str, Colour]:
    return {c["id"]: tuple(c["rgb"]) for c in view["colours"]}


def _sugar_cube(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float,
                n: int | str, r: int = 16) -> None:
    draw.rounded_rectangle((x - r, y - r, x + r, y + r), radius=5, fill=SUGAR, outline=INK,
                           width=2)
    stamp_text(image, (x, y + 1), str(n), READABLE, INK, True, "mm")


def _candy(draw: ImageDraw.ImageDraw, x: float, y: float, n: int | str, colour: Colour,
           r: int = 16) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=2)
    outlined_text(draw, (x, y + 1), str(n), READABLE)


# --------------------------------------------------------------------------- sprites


def _card_facts(card: dict[str, Any]) -> str:
    price = card.get("price", card["cost"])
    facts = []
    if card["kind"] == "ability" and card.get("colour"):
        facts.append(card["colour"])  # its name in the notation: `buy haggle red`
    if card["kind"] in ("monster", "starting"):
        facts.append(f"eats {card['hunger']}" if card["hunger"] is not None else "eats 1/other")
    if card.get("window"):
        facts.append(WINDOWS[card["window"]].lower())
    if price != card["cost"]:
        facts.append(f"you pay {price}")
    return " · ".join(facts)


def _card_text(card: dict[str, Any]) -> str:
    """The card's text without its timing window, which the facts line already names."""
    if card.get("window") not in (None, "end"):
        return card["text"].split(": ", 1)[-1]
    return card["text"]


def _card(image: Image.Image, box: tuple[int, int, int, int], card: dict[str, Any],
          colours: dict[str, Colour]) -> None:
    """One face-up card: cost, name, candy colour and value, hunger, window and text."""
    x0, y0, x1, y1 = box
    colour = colours.get(card.get("colour") or "", MUTED)
    sprite = _card_sprite(x1 - x0, y1 - y0, card["name"], card["cost"], card["value"], colour,
                          _card_facts(card), _card_text(card))
    paste_at(image, sprite, x0, y0)


@lru_cache(maxsize=128)
def _card_sprite(width: int, height: int, name: str, cost: int, value: int, colour: Colour,
                 facts: str, text: str) -> Image.Image:
    sprite, draw = box_canvas(width, height)
    names = wrap(name, READABLE, width - 96, bold=True)[:2]
    band = 44 if len(names) == 1 else 70
    panel(draw, (0, 0, width, height), fill=PANEL, outline=colour, width=3, radius=12)
    draw.rounded_rectangle((0, 0, width, band), radius=12, fill=colour)
    draw.rectangle((0, band - 14, width, band), fill=colour)
    _sugar_cube(sprite, draw, 24, 22, cost)
    _candy(draw, width - 24, 22, value, colour)
    for n, line in enumerate(names):
        outlined_text(draw, (width / 2, band / 2 + (n - (len(names) - 1) / 2) * LINE), line,
                      READABLE)
    y = band + 8
    for line in wrap(facts, READABLE, width - 20, bold=True)[:2]:
        stamp_text(sprite, (10, y), line, READABLE, MUTED, True)
        y += LINE
    y += 4
    for line in wrap(text, READABLE, width - 20)[:(height - y - 6) // LINE]:
        stamp_text(sprite, (10, y), line, READABLE, INK)
        y += LINE
    return sprite


def _mini_lines(monster: dict[str, Any], printed: dict[str, Any]
                ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """A controlled monster's name, its facts and each tucked ability, wrapped (never cut)."""
    name = (monster["key"].upper() if not printed else printed["name"]) + \
        (" ✓" if monster["used"] else "")
    window = WINDOWS.get(printed.get("window") or "", "no ability")
    facts = f"eats {monster['eats']} · {window.lower()}"
    tucked = tuple(tuple(wrap(a["key"].upper() + (" ✓" if a["used"] else "")
                              + (" ●used once" if a["token"] else ""), READABLE,
                              MINI_W - 44, bold=True)) for a in monster["tucked"])
    return (tuple(wrap(name, READABLE, MINI_W - 56, bold=True)),
            tuple(wrap(facts, READABLE, MINI_W - 28)), tucked)


def _mini_height(monster: dict[str, Any], printed: dict[str, Any]) -> int:
    names, facts, tucked = _mini_lines(monster, printed)
    return 14 + LINE * (len(names) + len(facts) + sum(len(t) for t in tucked))


def _mini(image: Image.Image, x: int, y: int, monster: dict[str, Any],
          printed: dict[str, Any], colours: dict[str, Colour]) -> int:
    """A monster a player controls, with the abilities tucked under it; returns its height."""
    names, facts, lines = _mini_lines(monster, printed)
    tucked = tuple((text, colours.get(a["colour"], MUTED))
                   for text, a in zip(lines, monster["tucked"], strict=True))
    sprite = _mini_sprite(names, monster["value"], colours.get(monster["colour"], MUTED),
                          facts, tucked)
    paste_at(image, sprite, x, y)
    return sprite.height - 1


@lru_cache(maxsize=256)
def _mini_sprite(names: tuple[str, ...], value: int, colour: Colour, facts: tuple[str, ...],
                 tucked: tuple[tuple[tuple[str, ...], Colour], ...]) -> Image.Image:
    height = 14 + LINE * (len(names) + len(facts) + sum(len(t) for t, _ in tucked))
    sprite, draw = box_canvas(MINI_W, height, PANEL)
    panel(draw, (0, 0, MINI_W, height), fill=WHITE, outline=colour, width=3, radius=10)
    draw.rectangle((3, 3, 13, height - 3), fill=colour)
    _candy(draw, MINI_W - 20, 20, value, colour, r=15)
    y = 7
    for line in names:
        stamp_text(sprite, (20, y), line, READABLE, INK, True)
        y += LINE
    for line in facts:
        stamp_text(sprite, (20, y), line, READABLE, MUTED)
        y += LINE
    for lines, tint in tucked:
        draw.rectangle((20, y + 5, 31, y + 19), fill=tint, outline=INK)
        for line in lines:
            stamp_text(sprite, (38, y), line, READABLE, INK, True)
            y += LINE
    return sprite


@lru_cache(maxsize=128)
def _kept_sprite(label: str, colour: Colour) -> Image.Image:
    """A kept ability as a chip in its colour."""
    width = text_size(label, READABLE, True)[0] + 16
    sprite, draw = box_canvas(width, 32, PANEL)
    draw.rounded_rectangle((0, 0, width, 32), radius=8, fill=colour)
    outlined_text(draw, (8, 16), label, READABLE, anchor="lm")
    return sprite


@lru_cache(maxsize=64)
def _event_sprite(label: str, dark: bool) -> Image.Image:
    """An event drawn so far, as a chip; Black Candy in black."""
    width = _event_width(label)
    sprite, draw = box_canvas(width, 32)
    draw.rounded_rectangle((0, 0, width, 32), radius=8, fill=BLACK_CANDY if dark else WHITE,
                           outline=INK)
    stamp_text(sprite, (9, 16), label, READABLE, WHITE if dark else INK, True, "lm")
    return sprite


@lru_cache(maxsize=64)
def _event_width(label: str) -> int:
    return text_size(label, READABLE, True)[0] + 18


# --------------------------------------------------------------------------- players


def _player_rows(player: dict[str, Any]) -> list[list[dict[str, Any]]]:
    per_row = (WIDTH - 2 * MARGIN - 16) // (MINI_W + MINI_GAP)
    monsters = player["monsters"]
    return [monsters[i:i + per_row] for i in range(0, len(monsters), per_row)] or [[]]


def _player_height(player: dict[str, Any], printed: dict[str, Any], draft: str) -> int:
    height = 78
    for row in _player_rows(player):
        height += max((_mini_height(m, printed.get(m["id"], {})) for m in row),
                      default=0) + MINI_GAP
    height += 40 * len(_kept_rows(player))
    height += LINE * len(_draft_lines(draft))
    return height + 8


def _kept_rows(player: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The kept abilities as chips, in rows that fit the panel after "Kept:"."""
    rows: list[list[dict[str, Any]]] = []
    x = WIDTH
    for kept in player["kept"]:
        w = text_size(_kept_label(kept), READABLE, True)[0] + 22
        if x + w > WIDTH - 2 * MARGIN - 14:
            rows.append([])
            x = 84
        rows[-1].append(kept)
        x += w
    return rows


def _kept_label(kept: dict[str, Any]) -> str:
    return f"{kept['key'].upper()} {kept['value']}"


def _draft_lines(draft: str) -> list[str]:
    return wrap(draft, READABLE, WIDTH - 2 * MARGIN - 28, bold=True) if draft else []


def _draft(view: dict[str, Any], player: dict[str, Any]) -> str:
    feeding = view.get("feeding")
    if not feeding or not feeding.get("mine") or view["table"]["viewer"] != player["seat"]:
        return ""
    meals = feeding["mine"]["meals"]
    if not meals:
        return "Your feeding: nothing chosen yet"
    names = {c: view["cards"][c]["name"] for c in view["cards"]}
    parts = []
    for monster, how, sugar, candy, black in meals:
        name = names.get(monster, monster)
        paid = [f"{n} {what}" for n, what in ((sugar, "sugar"), (candy, "candy"),
                                             (black, "black")) if n]
        parts.append(f"{name} let go" if how == "go" else f"{name} {'+'.join(paid) or 'free'}")
    return "Your feeding (secret): " + ", ".join(parts)


@dataclass(frozen=True)
class Seat:
    """How a player's panel names and marks its seat, and what the seat is doing."""

    seat: int
    name: str
    colours: tuple[str, ...]
    you: bool
    acting: bool
    feeding: bool


def _player_strip(view: dict[str, Any], table: Table, player: dict[str, Any],
                  colours: dict[str, Colour]) -> Strip:
    """A player's panel, with the printed cards of its monsters and its secret feeding
    (in its own view only)."""
    seat = player["seat"]
    printed = {m["id"]: view["cards"].get(m["id"], {}) for m in player["monsters"]}
    draft = _draft(view, player)
    who = Seat(seat, table.names[seat], table.colours, table.viewer == seat,
               seat in table.acting, table.decision == "feed" and seat in table.deciding)
    return Strip(_player_height(player, printed, draft) + 10, _player,
                 (who, player, printed, draft, colours))


def _player(image: Image.Image, draw: ImageDraw.ImageDraw, who: Seat, player: dict[str, Any],
            printed: dict[str, Any], draft: str, colours: dict[str, Colour]) -> None:
    y = 0
    height = _player_height(player, printed, draft)
    seat, acting, feeding = who.seat, who.acting, who.feeding
    panel(draw, (MARGIN, y, WIDTH - MARGIN, y + height),
          outline=HIGHLIGHT if acting else PANEL_EDGE, width=4 if acting else 2)
    seat_mark(draw, seat, MARGIN + 22, y + 22, 11, who.colours)
    title = who.name + (" (you)" if who.you else "")
    stamp_text(image, (MARGIN + 40, y + 8), title, 24, seat_text_colour(seat, who.colours),
               True, width=330)
    tags = []
    if player["first"]:
        tags.append("FIRST PLAYER")
    if acting and not feeding:
        tags.append("TO PLAY")
    if feeding:
        tags.append("FEEDING…" if acting else "FED ✓")
    stamp_text(image, (WIDTH - MARGIN - 12, y + 10), "  ".join(tags), READABLE, INK, True, "ra",
               width=400)
    counts = (f"sugar {player['sugar']}   candy {player['candy']}   black {player['black']}"
              f"   score {player['score']}")
    if player["tokens"]:
        counts += f"   one-time used {len(player['tokens'])}"
    bonus = []
    if player["set_sugar"]:
        bonus.append(f"+{player['set_sugar']} sugar")
    if player["set_candy"]:
        bonus.append(f"+{player['set_candy']} candy")
    if bonus:
        counts += "   sets: " + " ".join(bonus)
    stamp_text(image, (MARGIN + 14, y + 40), counts, 22, INK, True, width=WIDTH - 2 * MARGIN - 28)
    cy = y + 72
    for row in _player_rows(player):
        x = MARGIN + 10
        tallest = 0
        for monster in row:
            tallest = max(tallest, _mini(image, x, cy, monster, printed.get(monster["id"], {}),
                                         colours))
            x += MINI_W + MINI_GAP
        cy += tallest + MINI_GAP
    for n, row in enumerate(_kept_rows(player)):
        if n == 0:
            stamp_text(image, (MARGIN + 14, cy + 6), "Kept:", READABLE, INK, True)
        x = MARGIN + 84
        for kept in row:
            chip = _kept_sprite(_kept_label(kept), colours.get(kept["colour"], MUTED))
            paste_at(image, chip, x, cy + 2)
            x += chip.width - 1 + 6
        cy += 40
    for line in _draft_lines(draft):
        stamp_text(image, (MARGIN + 14, cy + 2), line, READABLE, MUTED, True)
        cy += LINE


# --------------------------------------------------------------------------- events


def _event_places(events: list[dict[str, Any]]) -> tuple[list[tuple[int, int]], int]:
    """Where each drawn event's chip goes (x, row offset), and the height of the chips."""
    places = []
    x, y = MARGIN, 0
    for event in events:
        w = _event_width(event["name"])
        if x + w > WIDTH - MARGIN:
            x = MARGIN
            y += EVENT_ROW
        places.append((x, y))
        x += w + 6
    return places, (y + 42 if events else 34)


def _events(image: Image.Image, draw: ImageDraw.ImageDraw, events: list[dict[str, Any]],
            deck: int, left: int) -> None:
    y = 4
    stamp_text(image, (MARGIN, y), f"Events drawn ({deck} left in the deck, "
               f"{left} Black {'Candy' if left == 1 else 'Candies'} to come):", READABLE, INK,
               True, width=WIDTH - 2 * MARGIN)
    y += EVENT_TITLE
    places, _height = _event_places(events)
    if not events:
        stamp_text(image, (MARGIN, y), "none yet", READABLE, MUTED)
    for event, (x, dy) in zip(events, places, strict=True):
        paste_at(image, _event_sprite(event["name"], event["kind"] == "black_candy"), x, y + dy)


# --------------------------------------------------------------------------- the picture


#: What the seats to act are to do: by the open decision, else by the step of the turn.
DOING = {"feed": "Black Candy: each player feeds their monsters in secret",
         "buy": "Buying: pay or cancel", "place": "Tuck the ability under a monster, or keep it",
         "start": "Take one action: collect 5 sugar, buy a monster or buy an ability",
         "after": "Action taken: use an ability or end the turn"}


def _header(view: dict[str, Any]) -> Header:
    """The shared header under the game's title and round."""
    table = table_of(view)
    step = (view.get("turn") or {}).get("step")
    return header(view, WIDTH - 2 * MARGIN, size=READABLE,
                  title=f"Kingdom's Candy Monsters · round {view['round']}",
                  what=DOING.get(table.decision or step or "", ""))


def _top(head: Header) -> int:
    """Where the markets start: under the header and the kingdom's supply."""
    return 10 + head.height + 6 + KINGDOM_H


def _heading(image: Image.Image, draw: ImageDraw.ImageDraw, head: Header,
             kingdom: dict[str, Any]) -> None:
    """The header, and the kingdom's supply under it."""
    y = head.draw(image, draw, MARGIN, 10) + 6
    stamp_text(image, (MARGIN, y), f"Kingdom: {kingdom['sugar']} sugar · {kingdom['black']} "
               f"black cubes · {kingdom['candy']} candy · {kingdom['tokens']} one-time tokens",
               READABLE, MUTED, width=WIDTH - 2 * MARGIN)


def _market(image: Image.Image, draw: ImageDraw.ImageDraw, title: str,
            cards: list[dict[str, Any] | None], colours: dict[str, Colour]) -> None:
    """One pile's cards for sale, an empty slot where one is missing."""
    stamp_text(image, (MARGIN, 0), title, READABLE, INK, True, width=WIDTH - 2 * MARGIN)
    y = PILE_TITLE
    for slot, card in enumerate(cards):
        x = MARGIN + slot * (CARD_W + 12)
        if card is None:
            panel(draw, (x, y, x + CARD_W, y + CARD_H), fill=EMPTY_SLOT)
            continue
        _card(image, (x, y, x + CARD_W, y + CARD_H), card, colours)


def _footer(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    stamp_text(image, (MARGIN, 0), "✓ used this round · ● one-time-use token on it · "
               "sets: start-of-turn set bonus", 16, MUTED, width=WIDTH - 2 * MARGIN)


def _strips(view: dict[str, Any]) -> list[Strip]:
    """The picture top to bottom, each part a strip drawn from what it shows alone."""
    colours = _colours(view)
    head = _header(view)
    strips = [Strip(_top(head), _heading, (head, view["kingdom"]))]
    for pile, label in (("monsters", "Monsters"), ("abilities", "Abilities")):
        title = (f"{label} for sale (deck {view['decks'][pile]}, discard "
                 f"{view['discard'][pile]})")
        strips.append(Strip(PILE_TITLE + CARD_H + 12, _market,
                            (title, view["market"][pile], colours)))
    events = view["events"]
    strips.append(Strip(4 + EVENT_TITLE + _event_places(events)[1], _events,
                        (events, view["decks"]["events"], view["black_candies"]["left"])))
    strips += [_player_strip(view, head.table, player, colours) for player in view["players"]]
    strips.append(Strip(FOOTER + BOTTOM, _footer))
    return strips


# --------------------------------------------------------------------------- palette


#: The real game the palette is drawn from: five seats (every seat colour), early and late
#: (every candy colour on cards, events, Black Candies), in a seat's own eyes (all that is
#: public and its secret feeding).
PALETTE_GAMES = (Sample(5, 2, (12, 120), (0,)),)


def _kept() -> tuple[Colour, ...]:
    """Flat fills kept exact in the palette: the kingdom's candy colours among them."""
    kingdom = load_json("candy_monsters", "kingdom.json")["colours"]
    return (SUGAR, BLACK_CANDY, EMPTY_SLOT, *(tuple(c["rgb"]) for c in kingdom),
            *(seat_text_colour(s) for s in range(5)))


PICTURES = Pictures("kingdoms-candy-monsters", WIDTH, _strips, PALETTE_GAMES, keep=_kept)
_draw, _palette, render = PICTURES.draw, PICTURES.palette, PICTURES.render

