"""The command docs/scale.md gives for a hundred thousand games, run with small counts: it
fills what it says it fills and measures through the bot (not timed: only counts and the
presence of every figure are checked)."""

from __future__ import annotations

import json
import subprocess
import sys

import psycopg
import pytest

from bot.games import GAMES
from bot.games.engine import loads
from bot.store import MIGRATIONS
from tests.support.paths import ROOT
from tools.scale import PLAYER, scoped

pytestmark = pytest.mark.slow  # fills a PostgreSQL schema

GAMES_STORED, ACTIVE, PLAYER_GAMES = 2000, 200, 50


def test_the_documented_command_fills_and_measures_with_small_counts(
        postgres_url: str) -> None:
    documented = (ROOT / "docs" / "scale.md").read_text()
    assert "python -m tools.scale --db" in documented
    done = subprocess.run(
        [sys.executable, "-m", "tools.scale", "--db", postgres_url, "--games",
         str(GAMES_STORED), "--active", str(ACTIVE), "--player-games", str(PLAYER_GAMES),
         "--templates", "1", "--samples", "1", "--passes", "2", "--lists", "2", "--keep",
         "--json"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])

    rows = out["fill"]["rows"]
    assert rows["games"] == GAMES_STORED and rows["active"] == ACTIVE
    assert rows["player_games"] == PLAYER_GAMES
    finished = GAMES_STORED - ACTIVE
    assert rows["results"] >= 2 * finished  # every finished game places two seats or more
    assert rows["seat_users"] >= 2 * GAMES_STORED
    assert rows["actions"] >= 5 * GAMES_STORED  # real logs, not a row or two
    assert rows["ratings"] > 0 and rows["outbox"] > 0
    assert out["schema_version"] == len(MIGRATIONS)
    for side in ("empty", "full"):
        figures = out[side]
        assert figures["move_ms"]["samples"] == len(GAMES)  # one timed move of each game
        assert set(figures["move_ms_by_game"]) == set(GAMES)
        assert figures["reminder_pass_ms"]["samples"] == 2
        assert figures["reminders_sent"] == 0  # nothing was due
        assert 0 < figures["move_ms"]["median"] <= figures["move_ms"]["max"]
        assert figures["store_ms_per_move"]["median"] > 0
    # A fifth of the player's games are under way and a fifth finished this week.
    assert out["games_command"]["listed"] == 2 * PLAYER_GAMES // 5
    assert out["games_command"]["ms"]["samples"] == 2
    assert out["move_p95_ratio"] > 0
    assert out["machine"]["cpus"] and out["server"]

    # The kept schema holds what the bot would have stored: games of every kind whose
    # states the rules read, each under way with a player to act and its own log.
    url = scoped(postgres_url, out["schema"])
    try:
        with psycopg.connect(url) as conn:
            kinds = {row[0] for row in conn.execute("SELECT DISTINCT game FROM games")}
            assert kinds == set(GAMES)
            under_way = conn.execute(
                "SELECT g.game, g.state_json, (SELECT COUNT(*) FROM actions a "
                "WHERE a.game_id = g.id) FROM games g WHERE g.status = 'active' "
                "AND g.channel_id >= 400000000000000000").fetchall()
            assert len(under_way) == ACTIVE
            for slug, text, logged in under_way:
                game = GAMES[slug]
                assert game.to_act(loads(text, game)) and logged > 0
            mine = conn.execute("SELECT COUNT(*) FROM seat_users s JOIN games g "
                                "ON g.id = s.game_id WHERE s.user_id = %s "
                                "AND g.status = 'active'", (PLAYER,)).fetchone()
            assert mine == (PLAYER_GAMES // 5,)
            due = conn.execute("SELECT COUNT(*) FROM games WHERE next_reminder_at <= "
                               "EXTRACT(EPOCH FROM now())").fetchone()
            assert due == (0,)
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {out['schema']} CASCADE")
