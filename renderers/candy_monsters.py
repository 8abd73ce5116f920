"""Kingdom's Candy Monsters picture: the kingdom's face-up cards, the events, every player's
monsters with their tucked abilities, kept abilities and tokens, and who is to act."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from renderers.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    WHITE,
    Colour,
    fitted_text,
    new_canvas,
    panel,
    seat_mark,
    seat_text_colour,
    to_png,
    wrap,
)

WIDTH = 900
MARGIN = 16
CARD_W = (WIDTH - 2 * MARGIN - 2 * 12) // 3
CARD_H = 178
MINI_W = 206
MINI_GAP = 8
BLACK_CANDY: Colour = (40, 30, 45)
SUGAR: Colour = (250, 250, 250)
WINDOWS = {
    "turn": "ANY TIME", "start": "START OF TURN", "collect": "WHEN COLLECTING",
    "buy_ability": "BUYING AN ABILITY", "buy_monster": "BUYING A MONSTER",
    "black_candy": "BLACK CANDY", "once": "ONCE PER GAME", "event": "EVENT PHASE",
    "end": "GAME END",
}


def _colours(view: dict[str, Any]) -> dict[str, Colour]:
    return {c["id"]: tuple(c["rgb"]) for c in view["colours"]}  # type: ignore[misc]


def _status(view: dict[str, Any]) -> str:
    names = {p["seat"]: p["name"] for p in view["players"]}
    if view["result"]:
        return view["result"]["summary"]
    if view["phase"] == "feeding" and view["feeding"]:
        waiting = " and ".join(names[s] for s in view["feeding"]["waiting"])
        return f"BLACK CANDY: still feeding: {waiting}"
    if view["turn"]:
        seat = view["turn"]["seat"]
        if view["turn"]["buying"]:
            return f"{names[seat]} is buying"
        return f"{names[seat]}'s turn" + (" (action taken)"
                                          if view["turn"]["step"] == "after" else "")
    return ""


def _sugar_cube(draw: ImageDraw.ImageDraw, x: float, y: float, n: int | str, r: int = 16) -> None:
    draw.rounded_rectangle((x - r, y - r, x + r, y + r), radius=5, fill=SUGAR, outline=INK,
                           width=2)
    draw.text((x, y + 1), str(n), font=_font(20, True), fill=INK, anchor="mm")


def _candy(draw: ImageDraw.ImageDraw, x: float, y: float, n: int | str, colour: Colour,
           r: int = 16) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=2)
    draw.text((x, y + 1), str(n), font=_font(20, True), fill=WHITE, anchor="mm",
              stroke_width=2, stroke_fill=INK)


def _font(size: int, bold: bool = False) -> Any:
    from renderers.common import font

    return font(size, bold)


def _card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], card: dict[str, Any],
          colours: dict[str, Colour]) -> None:
    """One face-up card: cost, name, candy colour and value, hunger, window and text."""
    x0, y0, x1, _ = box
    colour = colours.get(card.get("colour") or "", MUTED)
    panel(draw, box, fill=PANEL, outline=colour, width=3, radius=12)
    draw.rounded_rectangle((x0, y0, x1, y0 + 44), radius=12, fill=colour)
    draw.rectangle((x0, y0 + 30, x1, y0 + 44), fill=colour)
    price = card.get("price", card["cost"])
    _sugar_cube(draw, x0 + 24, y0 + 22, card["cost"])
    _candy(draw, x1 - 24, y0 + 22, card["value"], colour)
    name_w = x1 - x0 - 100
    draw.text(((x0 + x1) / 2, y0 + 22), _shorten(draw, card["name"], 19, name_w),
              font=_font(19, True), fill=WHITE, anchor="mm", stroke_width=2, stroke_fill=INK)
    y = y0 + 52
    facts = []
    if card["kind"] in ("monster", "starting"):
        facts.append(f"eats {card['hunger']}" if card["hunger"] is not None else "eats 1/other")
    if card.get("window"):
        facts.append(WINDOWS[card["window"]].lower())
    if price != card["cost"]:
        facts.append(f"you pay {price}")
    fitted_text(draw, (x0 + 10, y), " · ".join(facts), 16, x1 - x0 - 20, MUTED, bold=True)
    y += 24
    text = card["text"].split(": ", 1)[-1] if card.get("window") not in (None, "end") else \
        card["text"]
    for line in wrap(draw, text, 19, x1 - x0 - 20)[:5]:
        draw.text((x0 + 10, y), line, font=_font(19), fill=INK)
        y += 23


def _shorten(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    from renderers.common import shorten

    return shorten(draw, text, size, width, bold=True)


def _mini(draw: ImageDraw.ImageDraw, x: int, y: int, monster: dict[str, Any],
          printed: dict[str, Any], colours: dict[str, Colour]) -> int:
    """A monster a player controls, with the abilities tucked under it; returns its height."""
    tucked = monster["tucked"]
    height = 62 + 22 * len(tucked)
    colour = colours.get(monster["colour"], MUTED)
    panel(draw, (x, y, x + MINI_W, y + height), fill=WHITE, outline=colour, width=3, radius=10)
    draw.rectangle((x + 3, y + 3, x + 13, y + height - 3), fill=colour)
    name = monster["key"].upper() if not printed else printed["name"]
    mark = " ✓" if monster["used"] else ""
    fitted_text(draw, (x + 20, y + 6), name + mark, 18, MINI_W - 52, INK, bold=True)
    _candy(draw, x + MINI_W - 18, y + 17, monster["value"], colour, r=13)
    window = WINDOWS.get(printed.get("window") or "", "no ability")
    fitted_text(draw, (x + 20, y + 32), f"eats {monster['eats']} · {window.lower()}", 14,
                MINI_W - 28, MUTED)
    ty = y + 56
    for ability in tucked:
        tag = " ✓" if ability["used"] else ""
        tag += " ●used once" if ability["token"] else ""
        c = colours.get(ability["colour"], MUTED)
        draw.rectangle((x + 20, ty + 3, x + 30, ty + 15), fill=c, outline=INK)
        fitted_text(draw, (x + 36, ty), ability["key"].upper() + tag, 15, MINI_W - 44, INK,
                    bold=True)
        ty += 22
    return height


def _player_rows(view: dict[str, Any], player: dict[str, Any]) -> list[list[dict[str, Any]]]:
    per_row = (WIDTH - 2 * MARGIN - 16) // (MINI_W + MINI_GAP)
    monsters = player["monsters"]
    return [monsters[i:i + per_row] for i in range(0, len(monsters), per_row)] or [[]]


def _player_height(view: dict[str, Any], player: dict[str, Any]) -> int:
    rows = _player_rows(view, player)
    height = 78
    for row in rows:
        height += max((62 + 22 * len(m["tucked"]) for m in row), default=0) + MINI_GAP
    if player["kept"]:
        height += 34
    if _draft(view, player):
        height += 28
    return height + 8


def _draft(view: dict[str, Any], player: dict[str, Any]) -> str:
    feeding = view.get("feeding")
    if not feeding or not feeding.get("mine") or view["viewer"] != player["seat"]:
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


def _player(image: Any, draw: ImageDraw.ImageDraw, view: dict[str, Any],
            player: dict[str, Any], y: int, colours: dict[str, Colour]) -> int:
    height = _player_height(view, player)
    seat = player["seat"]
    acting = player["acting"] or player["feeding"] == "waiting"
    panel(draw, (MARGIN, y, WIDTH - MARGIN, y + height),
          outline=HIGHLIGHT if acting else (222, 205, 190), width=4 if acting else 2)
    seat_mark(draw, seat, MARGIN + 22, y + 22, 11)
    title = player["name"] + (" (you)" if view["viewer"] == seat else "")
    fitted_text(draw, (MARGIN + 40, y + 8), title, 24, 330, seat_text_colour(seat), bold=True)
    tags = []
    if player["first"]:
        tags.append("FIRST PLAYER")
    if player["acting"]:
        tags.append("TO PLAY")
    if player["feeding"] == "waiting":
        tags.append("FEEDING…")
    elif player["feeding"] == "decided":
        tags.append("FED ✓")
    fitted_text(draw, (WIDTH - MARGIN - 12, y + 10), "  ".join(tags), 18, 320, INK, bold=True,
                anchor="ra")
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
    fitted_text(draw, (MARGIN + 14, y + 40), counts, 22, WIDTH - 2 * MARGIN - 28, INK,
                bold=True)
    cy = y + 72
    for row in _player_rows(view, player):
        x = MARGIN + 10
        tallest = 0
        for monster in row:
            printed = view["cards"].get(monster["id"], {})
            tallest = max(tallest, _mini(draw, x, cy, monster, printed, colours))
            x += MINI_W + MINI_GAP
        cy += tallest + MINI_GAP
    if player["kept"]:
        x = MARGIN + 14
        draw.text((x, cy + 4), "Kept:", font=_font(17, True), fill=INK)
        x += 56
        for kept in player["kept"]:
            label = f"{kept['key'].upper()} {kept['value']}"
            w = round(draw.textlength(label, font=_font(15, True))) + 16
            c = colours.get(kept["colour"], MUTED)
            draw.rounded_rectangle((x, cy + 2, x + w, cy + 28), radius=8, fill=c)
            draw.text((x + 8, cy + 15), label, font=_font(15, True), fill=WHITE, anchor="lm",
                      stroke_width=2, stroke_fill=INK)
            x += w + 6
        cy += 34
    draft = _draft(view, player)
    if draft:
        fitted_text(draw, (MARGIN + 14, cy + 2), draft, 17, WIDTH - 2 * MARGIN - 28, MUTED,
                    bold=True)
    return y + height


def _events(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    left = view["black_candies"]["left"]
    fitted_text(draw, (MARGIN, y), f"Events drawn ({view['decks']['events']} left in the deck, "
                f"{left} Black {'Candy' if left == 1 else 'Candies'} to come):", 19,
                WIDTH - 2 * MARGIN, INK, bold=True)
    y += 28
    x = MARGIN
    if not view["events"]:
        draw.text((x, y), "none yet", font=_font(17), fill=MUTED)
        return y + 30
    for event in view["events"]:
        dark = event["kind"] == "black_candy"
        label = event["name"]
        w = round(draw.textlength(label, font=_font(15, True))) + 18
        if x + w > WIDTH - MARGIN:
            x = MARGIN
            y += 32
        draw.rounded_rectangle((x, y, x + w, y + 26), radius=8,
                               fill=BLACK_CANDY if dark else WHITE, outline=INK)
        draw.text((x + 9, y + 13), label, font=_font(15, True), fill=WHITE if dark else INK,
                  anchor="lm")
        x += w + 6
    return y + 36


def render(view: dict[str, Any]) -> bytes:
    """Draw a Kingdom's Candy Monsters view as a PNG."""
    colours = _colours(view)
    players = view["players"]
    height = 110 + 2 * (CARD_H + 40) + 90 + sum(_player_height(view, p) + 10 for p in players)
    height += 40 * (len(view["events"]) // 6) + 30
    image, draw = new_canvas(WIDTH, height)
    fitted_text(draw, (MARGIN, 10), f"Kingdom's Candy Monsters · round {view['round']}", 28,
                WIDTH - 2 * MARGIN, INK, bold=True)
    fitted_text(draw, (MARGIN, 46), _status(view), 22, WIDTH - 2 * MARGIN, INK, bold=True)
    k = view["kingdom"]
    fitted_text(draw, (MARGIN, 78), f"Kingdom: {k['sugar']} sugar · {k['black']} black cubes · "
                f"{k['candy']} candy · {k['tokens']} one-time tokens", 19, WIDTH - 2 * MARGIN,
                MUTED)
    y = 110
    for pile, label in (("monsters", "Monsters"), ("abilities", "Abilities")):
        fitted_text(draw, (MARGIN, y), f"{label} for sale (deck {view['decks'][pile]}, discard "
                    f"{view['discard'][pile]})", 19, WIDTH - 2 * MARGIN, INK, bold=True)
        y += 28
        for slot, card in enumerate(view["market"][pile]):
            x = MARGIN + slot * (CARD_W + 12)
            if card is None:
                panel(draw, (x, y, x + CARD_W, y + CARD_H), fill=(240, 232, 222))
                continue
            _card(draw, (x, y, x + CARD_W, y + CARD_H), card, colours)
        y += CARD_H + 12
    y = _events(draw, view, y + 4)
    for player in players:
        y = _player(image, draw, view, player, y, colours) + 10
    fitted_text(draw, (MARGIN, y), "✓ used this round · ● one-time-use token on it · "
                "sets: start-of-turn set bonus", 16, WIDTH - 2 * MARGIN, MUTED)
    y += 24
    return to_png(image.crop((0, 0, WIDTH, min(height, y + 6))))
