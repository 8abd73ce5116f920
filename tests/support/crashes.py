"""Running tests/support/crash_bot.py as a real process, and checking what a database kept."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg

from bot.games import GAMES
from bot.games.engine import SeatInfo, dumps, loads
from tests.support.paths import ROOT


class CrashBot:
    """tests/support/crash_bot.py playing ``slugs`` on ``db``; ``acked`` maps each game to the
    number of its actions the store confirmed."""

    def __init__(self, db: Path | str, slugs: list[str], *, channels: int = 100) -> None:
        self.acked: dict[int, int] = {}
        self.count = 0
        self._lock = threading.Lock()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.crash_bot", str(db), *slugs],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), "CRASH_BOT_CHANNELS": str(channels)})
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            kind, game_id, count = line.split()
            if kind == "ack":
                with self._lock:
                    self.acked[int(game_id)] = max(self.acked.get(int(game_id), 0), int(count))
                    self.count += 1

    def snapshot(self) -> dict[int, int]:
        with self._lock:
            return dict(self.acked)

    def wait_for(self, moves: int, timeout: float = 60.0) -> None:
        """Wait until ``moves`` more moves are confirmed."""
        with self._lock:
            goal = self.count + moves
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if self.count >= goal:
                    return
            if self.process.poll() is not None:
                raise AssertionError(f"the bot died: {self.process.stderr.read()}")  # type: ignore[union-attr]
            time.sleep(0.01)
        raise AssertionError("the bot confirmed no moves in time")

    def kill(self) -> dict[int, int]:
        """SIGKILL the bot; what it had confirmed by then."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self._reader.join(timeout=30)
        return self.snapshot()


def backup(db: Path, target: Path) -> str:
    """``candybot backup`` from its own process; its one line of output."""
    done = subprocess.run([sys.executable, "-m", "bot.cli", "backup", str(target)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "CANDYBOT_DB": str(db), "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return done.stdout


def _query(db: Path | str, sql: str, params: tuple[object, ...] = ()) -> list[tuple]:
    """Rows of ``sql`` (``?`` marks) read from a SQLite file or a PostgreSQL URL."""
    if isinstance(db, str) and db.startswith("postgresql://"):
        with psycopg.connect(db) as pg:
            return pg.execute(sql.replace("?", "%s"), params).fetchall()
    with sqlite3.connect(db) as conn:
        rows = conn.execute(sql, params).fetchall()
    conn.close()
    return rows


def logged(db: Path | str) -> dict[int, int]:
    """How many actions each game in the database ``db`` has logged (a SQLite file passes
    its integrity check first)."""
    if not (isinstance(db, str) and db.startswith("postgresql://")):
        assert _query(db, "PRAGMA integrity_check") == [("ok",)]
    return dict(_query(db, "SELECT game_id, COUNT(*) FROM actions GROUP BY game_id"))


def missing(acked: dict[int, int], kept: dict[int, int]) -> dict[int, tuple[int, int]]:
    """Games with fewer actions kept than confirmed: ``{game: (confirmed, kept)}``."""
    return {g: (n, kept.get(g, 0)) for g, n in acked.items() if kept.get(g, 0) < n}


def replay_all(db: Path | str) -> int:
    """Replay every started game in ``db`` from seed and log and compare it with its
    stored state; the number of games replayed."""
    games = _query(db, "SELECT id, game, seats, seed, options, state_json FROM games "
                       "WHERE seed IS NOT NULL")
    logs = {gid: [(seat, notation) for seat, notation in _query(
        db, "SELECT seat, notation FROM actions WHERE game_id = ? ORDER BY n", (gid,))]
        for gid, *_ in games}
    import json

    for game_id, slug, seats, seed, options, state_json in games:
        game = GAMES[slug]
        infos = [SeatInfo(s["name"], s["ai"]) for s in json.loads(seats)]
        rebuilt = game.replay(infos, seed, json.loads(options), logs[game_id])
        assert dumps(rebuilt) == dumps(loads(state_json, game)), f"game {game_id} ({slug})"
    return len(games)
