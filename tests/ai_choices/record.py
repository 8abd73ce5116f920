"""Record what an AI chooses: ``python -m tests.ai_choices.record SLUG``.

For each of the game's cases below, an all-AI game at the normal level is played from
its seed (the lowest seat that may act moving first), and the file keeps its action log
and, for every move, a digest of the values the AI gave each legal action. A change
meant to make an AI faster, not different, must leave both as they are:
tests/bot/games/test_ai_choices.py plays the cases again and compares. Record again only when the
AI is meant to choose differently (and show it is no weaker: tools/arena.py).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from bot.games import GAMES
from bot.games.engine import Action, Engine, SeatInfo, State, playing

HERE = Path(__file__).resolve().parent

#: (seed, players, rules version or None for the current one) per game.
CASES: dict[str, list[tuple[int, int, int | None]]] = {
    "sugartopia": [(1, 3, None), (2, 3, None), (3, 3, None), (4, 2, None), (5, 4, None)],
    "sugar-heist": [(1, 3, None), (2, 3, None), (3, 3, None), (4, 4, None), (5, 5, None),
                    (6, 3, 2), (7, 3, 1)],
    "sugarworks": [(1, 2, None), (2, 3, None), (3, 4, None), (4, 2, None)],
}

#: The module whose ``action_values(view, legal)`` each game's AI chooses by.
AI_MODULES = {"sugartopia": "bot.games.sugartopia.ai", "sugar-heist": "bot.games.sugar_heist.ai",
              "sugarworks": "bot.games.sugarworks.ai"}


def values_digest(values: dict[str, float]) -> str:
    """A short digest of every legal action's value, exactly (``repr`` of each float)."""
    text = "\n".join(f"{notation}={value!r}" for notation, value in values.items())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play(game: Engine, seed: int, players: int, rules: int | None) -> dict[str, Any]:
    """One all-AI game: its log and, per move, the digest of the mover's action values."""
    values_of = importlib.import_module(AI_MODULES[game.slug]).action_values
    seats = [SeatInfo(f"P{i + 1}", ai=True) for i in range(players)]
    digests: list[str] = []

    def choose(state: State, seat: int) -> Action:
        """The AI's move, its values of every legal move noted first."""
        legal = game.legal_actions(state, seat)
        digests.append(values_digest(values_of(game.view(state, seat), legal)))
        return game.ai_action(state, seat)

    log = [[seat, outcome.action.notation]
           for seat, outcome in playing(game, game.new(seats, seed, rules=rules), choose)]
    return {"seed": seed, "players": players, "rules": rules, "log": log, "values": digests}


def record(slug: str) -> Path:
    game = GAMES[slug]
    cases = [play(game, *case) for case in CASES[slug]]
    path = HERE / f"{slug}.json"
    lines = ",\n".join(json.dumps(case, separators=(",", ":")) for case in cases)
    path.write_text(f'{{"game": "{slug}", "cases": [\n{lines}\n]}}\n', encoding="utf-8")
    return path


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(record(name))
