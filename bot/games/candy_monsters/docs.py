"""The card list of the rules document, generated from the same data the game plays.

``python -m bot.games.candy_monsters.docs`` prints it; a test checks that
``docs/rules/kingdoms-candy-monsters.md`` contains exactly this text.
"""

from __future__ import annotations

from bot.games.candy_monsters import cards, effects


def _hunger(card: cards.Card) -> str:
    return "1 per other monster" if card.hunger is None else str(card.hunger)


def cards_markdown() -> str:
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


if __name__ == "__main__":
    print(cards_markdown(), end="")
