"""The content lists of the rules pages, generated from the data the games play.

The rules pages of Sugar Blast (its power cards), Sugar Heist (costumes, hideout cards,
boards, tracks), Kingdom's Candy Monsters (every card) and Sugarworks (boards, tiles,
orders) list their content as the data has it: this prints a page's list (``python -m
tools.rules_pages sugar-heist``), and tests check that each page holds exactly that.
"""

from __future__ import annotations

import sys

from bot.games.candy_monsters import cards, effects
from bot.games.sugar_blast import powers
from bot.games.sugar_heist import cards as heist
from bot.games.sugarworks.content import (
    blankets,
    bonk_table,
    candy_name,
    candy_order,
    cell_name,
    die_faces,
    orders,
    sides,
    tile_kinds,
    tile_text,
)


def _hunger(card: cards.Card) -> str:
    return "1 per other monster" if card.hunger is None else str(card.hunger)


def candy_monsters_cards() -> str:
    """Markdown tables of every card: monsters, abilities, events and the first player card."""
    lines = ["### Candy colours", "",
             ", ".join(c["name"] for c in cards.kingdom()["colours"]) + ".", ""]
    lines += ["### Starting monsters (one each, at random)", "",
              "| Monster | Colour | Candies | Eats | Ability |", "|---|---|---|---|---|"]
    for card_id in cards.ids_of("starting"):
        c = cards.card(card_id)
        lines.append(f"| {c.name} | {c.colour} | {c.value} | {_hunger(c)} | "
                     f"{effects.card_text(c)} |")
    lines += ["", "### Monsters (19)", "",
              "| Monster | Cost | Colour | Candies | Eats | Ability |",
              "|---|---|---|---|---|---|"]
    for card_id in cards.ids_of("monster"):
        c = cards.card(card_id)
        lines.append(f"| {c.name} | {c.cost} | {c.colour} | {c.value} | {_hunger(c)} | "
                     f"{effects.card_text(c)} |")
    lines += ["", "### Abilities (10 types x 3 copies, one copy per colour = 30)", "",
              "| Ability | Cost | Candies kept | Ability when tucked |", "|---|---|---|---|"]
    for type_id in cards.ability_types():
        c = cards.card(f"{type_id}-{cards.colours()[0]}")
        lines.append(f"| {c.name} | {c.cost} | {c.value} | {effects.card_text(c)} |")
    lines += ["", "### Events (8) and Black Candy (4)", "", "| Event | Effect |", "|---|---|"]
    for card_id in cards.ids_of("event"):
        c = cards.card(card_id)
        lines.append(f"| {c.name} | {effects.card_text(c)} |")
    black = cards.card(cards.ids_of("black_candy")[0])
    lines.append(f"| {black.name} (x{len(cards.ids_of('black_candy'))}) | "
                 f"{effects.card_text(black)} |")
    first = cards.card(cards.kingdom()["first_player"]["id"])
    lines += ["", "### First player card", "", f"**{first.name}**: {effects.card_text(first)}"]
    return "\n".join(lines) + "\n"


def sugarworks_content() -> str:
    """The content lists of the rules document, generated from the data."""
    lines = ["### Board sides", ""]
    for side in sides().values():
        lines.append(f"**{side.name}** — {side.width} columns (a–{chr(96 + side.width)}) × "
                     f"{side.height} rows (1 at the bottom). Printed icons, top row first "
                     "(→ right, ← left, ↑ up, ↓ down, ⇒ right jump, ⇈ up spring):")
        lines.append("")
        arrows = {"right": "→", "left": "←", "up": "↑", "down": "↓", "jump-right": "⇒",
                  "spring": "⇈"}
        for row in range(side.height - 1, -1, -1):
            cells = " ".join(arrows[side.printed[(c, row)]] for c in range(side.width))
            lines.append(f"    {row + 1} {cells}")
        lines.append("      " + " ".join(chr(97 + c) for c in range(side.width)))
        lines.append("")
        spaces = ", ".join(cell_name(c) for c in side.output_spaces)
        start = ", ".join(f"{candy_name(t)} at {cell_name(c)}" for t, c in side.start.items())
        crates = ", ".join(f"{name} at {cell_name(c)}" for c, name in side.crates.items())
        lines += [f"- Output spaces: {spaces}.", f"- Output tiles start: {start}.",
                  f"- Shipping crates (just off the board edge): {crates}.", ""]
    lines += ["### Conveyor tiles", "", "| Tile | Count | What it does |", "|---|---|---|"]
    for kind in tile_kinds().values():
        lines.append(f"| {kind.name} (`{kind.kind}`) | {kind.count} | {tile_text(kind.kind)} |")
    total = sum(k.count for k in tile_kinds().values())
    lines += ["", f"{total} conveyor tiles in all. Output tiles carry a printed right belt.", ""]
    lines += ["### Order cards", "", "| Card | Order |", "|---|---|"]
    for order in orders().values():
        lines.append(f"| {order.id} | {order.text()} |")
    lines += ["", f"{len(orders())} order cards.", "", "### Blanket orders", ""]
    for blanket in blankets().values():
        lines.append(f"- {candy_name(blanket.candy).capitalize()}: colourful side up, "
                     f"{blanket.text()}.")
    faces = ", ".join(candy_name(f) if f in candy_order() else "a blank wrapper"
                      for f in die_faces())
    lines += ["", "### Candy die", "", f"Six faces: {faces}.", "",
              "### Bonk! helper", "", "| Candy struck | Bonk! movement |", "|---|---|"]
    for candy, bonk in bonk_table().items():
        who = (f"the struck {candy_name(candy)}" if bonk.moves == "struck"
               else "the striking candy")
        lines.append(f"| {candy_name(candy)} | {who} moves one space {bonk.direction} |")
    return "\n".join(lines) + "\n"


def sugar_blast_cards() -> str:
    """The card list for the rules document, generated from the data."""
    lines = ["| card | tokens | kind | how to play with the token | condition |",
             "|---|---|---|---|---|"]
    kinds = {"board": "stays on the board", "pile": "pile of 3", "discard": "discard to use",
             "card": "stays on the card"}
    for entry in powers.cards():
        text = powers.card_text(entry)
        lines.append(f"| **{entry['name']}** (`{entry['id']}`) | {entry['tokens']} "
                     f"{powers.token_name(entry, int(entry['tokens']))} | {kinds[entry['type']]} | "
                     f"{text['reminder']} | {text['condition']} |")
    total = sum(int(c["tokens"]) for c in powers.cards())
    lines.append("")
    lines.append(f"{len(powers.cards())} cards, {total} tokens in all.")
    return "\n".join(lines)


def sugar_heist_cards() -> str:
    """The card list of the rules document, generated from the data."""
    lines = ["### Costumes (48: 12 designs x 4)", "",
             "| Costume | Cost | Copies | Ability (once per heist) |", "|---|---|---|---|"]
    for c in heist.costumes().values():
        lines.append(f"| {c['name']} | ${c['cost']} | {c['copies']} | "
                     f"{heist.steps_text(c['ability'])} |")
    for cost in (1, 2, 3):
        group = [c for c in heist.hideout_cards().values() if c["cost"] == cost]
        total = sum(c["copies"] for c in group)
        lines += ["", f"### {cost}-cost hideout cards ({total})", "",
                  "| Card | Kind | Copies | Effect | Challenge | Bad stuff |",
                  "|---|---|---|---|---|---|"]
        for c in group:
            d = heist.describe(c)
            lines.append(f"| {c['name']} | {d['kind']} | {c['copies']} | {d['effect'] or '-'} "
                         f"| {d.get('challenge', '-')} | {d.get('bad', '-')} |")
    lines += ["", "### Hideout boards and their default encounters", "",
              "| Board | Default encounter | Challenge | Bad stuff |", "|---|---|---|---|"]
    for b in heist.boards():
        d = b["default"]
        lines.append(f"| {b['name']} | {d['name']} | {heist.challenge_text(d['challenge'])} | "
                     f"{heist.steps_text(d['bad'])} |")
    lines += ["", "### Target tracks", "",
              "| Players | Rounds | Money for the 1st, 2nd, 3rd to pass |", "|---|---|---|"]
    for t in heist._tracks()["tracks"]:
        bonus = ", ".join(f"${b}" for b in t["pass_bonus"])
        lines.append(f"| {t['players']} | {t['rounds']} | {bonus} |")
    return "\n".join(lines) + "\n"


PAGES = {"kingdoms-candy-monsters": candy_monsters_cards, "sugarworks": sugarworks_content,
         "sugar-blast": sugar_blast_cards, "sugar-heist": sugar_heist_cards}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in PAGES:
        print(f"usage: python -m tools.rules_pages {{{'|'.join(PAGES)}}}", file=sys.stderr)
        return 2
    print(PAGES[argv[0]](), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
