"""Every confirmed move survives SIGKILL at random moments, with backups in between, in
every registered game; every stored game then replays exactly from seed and log."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from bot.games import GAMES
from tests.support.crashes import CrashBot, backup, logged, missing, replay_all

pytestmark = pytest.mark.slow  # kills a running bot many times

KILLS = 7


def test_many_kills_at_random_moments_lose_no_confirmed_move(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    chance = random.Random(16)
    confirmed: dict[int, int] = {}
    copies: list[tuple[Path, dict[int, int]]] = []
    for kill in range(KILLS):
        bot = CrashBot(db, sorted(GAMES))
        try:
            bot.wait_for(1)
            if kill % 3 == 1:
                before = {**confirmed, **bot.snapshot()}
                target = tmp_path / f"copy-{kill}.db"
                backup(db, target)
                copies.append((target, before))
            time.sleep(chance.uniform(0.0, 0.8))
        finally:
            acked = bot.kill()
        for game_id, count in acked.items():
            confirmed[game_id] = max(confirmed.get(game_id, 0), count)
        assert missing(confirmed, logged(db)) == {}, f"after kill {kill + 1}"
    assert sum(confirmed.values()) >= KILLS
    assert replay_all(db) >= len(GAMES)
    for target, before in copies:
        assert missing(before, logged(target)) == {}, target
        replay_all(target)
