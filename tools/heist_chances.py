"""Write ``data/sugar_heist/chances.json``: the chances of paying a room that the Sugar
Heist AI's prep values ask for, worked out once here rather than in every bot's first
heists (several seconds of CPU over a game's first choices, for the same figures each
time). Run ``python -m tools.heist_chances`` after changing a card; a test checks that
the file holds exactly what this works out."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bot.games import get_game
from bot.games.content import data_path
from bot.games.sugar_heist import ai, worth


def chances() -> dict[str, float]:
    """Every chance the AI asks for under each rules version the game plays, by key."""
    game = get_game("sugar-heist")
    out: dict[str, float] = {}
    for rules in sorted({game.rules_version, *game.older_rules}):
        for challenge, effect, dice in ai.chances_asked(rules):
            frozen = (worth._freeze(challenge), worth._freeze(effect), dice)
            key = worth.chance_key(*frozen)
            if key not in out:
                out[key] = worth.computed_chance(*frozen)
    return dict(sorted(out.items()))


def text(known: dict[str, float]) -> str:
    """The file's text: one chance a line, keyed as :func:`worth.chance_key` keys them."""
    lines = ",\n".join(f"{json.dumps(k)}: {v!r}" for k, v in known.items())
    note = ("Chances of paying a room that the Sugar Heist AI asks for, worked out by "
            "python -m tools.heist_chances; do not edit.")
    return f'{{"note": {json.dumps(note)},\n"chances": {{\n{lines}\n}}}}\n'


def main() -> int:
    path = Path(data_path("sugar_heist", "chances.json"))
    known = chances()
    path.write_text(text(known), encoding="utf-8")
    print(f"{path}: {len(known)} chances")
    return 0


if __name__ == "__main__":
    sys.exit(main())
