"""Counting candies: the score of one seat, item by item."""

from __future__ import annotations

from bot.games.candy_monsters import board, cards, effects
from bot.games.engine import State

#: The items of a score in the rulebook's order.
ITEMS = ("monsters", "kept", "tucked", "candy", "sugar", "black", "bonus")

ITEM_NAMES = {
    "monsters": "monsters", "kept": "kept abilities", "tucked": "tucked abilities",
    "candy": "candy tokens", "sugar": "sugar", "black": "black cubes", "bonus": "end-game bonuses",
}


def breakdown(state: State, seat: int) -> dict[str, int]:
    """Each item of ``seat``'s candies and their ``total``."""
    p = board.player(state, seat)
    monsters = board.monster_ids(state, seat)
    items = {
        "monsters": sum(cards.card(m).value for m in monsters),
        "kept": sum(cards.card(a).value for a in p["kept"]),
        "tucked": len(board.tucked_ids(state, seat)),
        "candy": p["candy"],
        "sugar": p["sugar"] // cards.kingdom()["convert"],
        "black": -p["black"],
        "bonus": sum(effects.end_bonus(state, seat, m) for m in monsters),
    }
    items["total"] = sum(items[k] for k in ITEMS)
    return items


def tie_key(state: State, seat: int) -> tuple[int, int, int]:
    """Most candies, then most candy tokens, then most monsters."""
    p = board.player(state, seat)
    return breakdown(state, seat)["total"], p["candy"], len(p["monsters"])


def breakdown_text(items: dict[str, int]) -> str:
    """"16 from monsters + 6 from kept abilities + ... - 2 for black cubes = 17": candies
    counted per item (a monster counts its value, not 1)."""
    text = ""
    for key in ITEMS:
        value = items[key]
        if not value:
            continue
        sign = "- " if value < 0 else "+ "
        source = "for" if value < 0 else "from"
        text += f"{sign if text or value < 0 else ''}{abs(value)} {source} {ITEM_NAMES[key]} "
    return f"{text or 'nothing '}= {items['total']}"
