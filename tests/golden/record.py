"""Record a golden playthrough: ``python -m tests.golden.record SLUG SEED PLAYERS [k=v ...]``.

A golden playthrough is a seed, the options, an action log and the hash of the
final state. tests/bot/games/test_golden.py replays every one on every run, so a change of
rules or cards that would alter a game already played cannot pass unnoticed:
such a change bumps the game's ``rules_version`` and records goldens of the new
version (new seeds); the old ones stay, as stored games of the old version (see
docs/engine.md, "Rules versions").
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from bot.games import GAMES
from bot.games.engine import dumps
from tests.support.playthrough import play

HERE = Path(__file__).resolve().parent


def state_hash(state: dict) -> str:
    return hashlib.sha256(dumps(state).encode()).hexdigest()


def record(slug: str, seed: int, players: int, options: dict[str, str]) -> Path:
    game = GAMES[slug]
    final, log = play(game, seed, players, frozenset({players - 1}), options=options)
    golden = {"game": slug, "rules_version": game.rules_version, "seed": seed,
              "players": players, "options": options, "log": [list(e) for e in log],
              "final_sha256": state_hash(final)}
    suffix = "-".join(f"{k}-{v}" for k, v in sorted(options.items())).replace(" ", "_")
    path = HERE / slug / f"seed{seed}-p{players}{'-' + suffix if suffix else ''}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(golden, indent=1) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    slug, seed, players, *pairs = sys.argv[1:]
    print(record(slug, int(seed), int(players), dict(p.split("=", 1) for p in pairs)))
