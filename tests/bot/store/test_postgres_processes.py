"""Several bot processes on one PostgreSQL database, as real processes: they migrate a new
database once when they start together; one killed with SIGKILL mid-game loses no move it
confirmed while another plays on; and the announcements and reminders it had claimed are
delivered by the other, each once."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import threading
import time

import psycopg
import pytest

from bot.games import GAMES
from bot.store import MIGRATIONS, Announcement, Store
from bot.tables import Tables
from tests.support.crashes import ROOT, CrashBot, logged, missing, replay_all

pytestmark = pytest.mark.slow  # bot processes on PostgreSQL, one killed

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
OPEN_STORE = ("import asyncio, sys\nfrom bot.store import Store\n"
              "async def main():\n    store = await Store.open(sys.argv[1])\n"
              "    print(await store.schema_version())\n    await store.close()\n"
              "asyncio.run(main())\n")


def test_processes_starting_together_on_a_new_database_migrate_it_once(
        postgres_url: str) -> None:
    processes = [subprocess.Popen([sys.executable, "-c", OPEN_STORE, postgres_url], env=ENV,
                                  cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for _ in range(4)]
    answers = [p.communicate(timeout=120) for p in processes]
    assert [p.returncode for p in processes] == [0] * 4, [err for _out, err in answers]
    assert {out.strip() for out, _err in answers} == {str(len(MIGRATIONS))}
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT version FROM candybot_schema").fetchall() == [
            (len(MIGRATIONS),)]


def test_a_process_killed_mid_game_loses_no_confirmed_move_while_another_plays_on(
        postgres_url: str) -> None:
    chance = random.Random(21)
    slugs = sorted(GAMES)
    steady = CrashBot(postgres_url, slugs, channels=200)
    confirmed: dict[int, int] = {}
    try:
        for kill in range(4):
            victim = CrashBot(postgres_url, slugs, channels=100)
            try:
                victim.wait_for(1)
                time.sleep(chance.uniform(0.0, 0.6))
            finally:
                acked = victim.kill()
            for game_id, count in acked.items():
                confirmed[game_id] = max(confirmed.get(game_id, 0), count)
            assert missing(confirmed, logged(postgres_url)) == {}, f"after kill {kill + 1}"
        steady.wait_for(3)
    finally:
        for game_id, count in steady.kill().items():
            confirmed[game_id] = max(confirmed.get(game_id, 0), count)
    assert missing(confirmed, logged(postgres_url)) == {}
    assert replay_all(postgres_url) >= 2 * len(slugs) - 1


class Worker:
    """tests/support/outbox_worker.py on ``db``; ``posts`` are the lines it printed."""

    def __init__(self, db: str, name: str) -> None:
        self.name = name
        self.posts: list[tuple[str, int, str, str, int, float]] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.outbox_worker", db, name], cwd=ROOT,
            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            _post, name, row, nonce, kind, channel, at = line.split()
            self.posts.append((name, int(row), nonce, kind, int(channel), float(at)))

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)
        self._reader.join(timeout=30)


async def _queue_work(db: str, games: int, channels: int, each: int) -> list[int]:
    """Games whose first reminder is due now, and ``each`` announcements queued in each of
    ``channels`` channels; the games' ids."""
    begun = time.time() - 3 * 86_400
    store = await Store.open(db)
    try:
        tables = Tables(store, GAMES, lambda: begun)
        ids = []
        for channel in range(games):
            lobby = await tables.lobbies.open_lobby(channel_id=5000 + channel, guild_id=1,
                                                    game="sugar-blast", creator_id=77,
                                                    creator_name="Ann", reminder_hours=1)
            await tables.lobbies.add_ai(lobby.record.id, 77)
            await tables.lobbies.start(lobby.record.id, 77)
            ids.append(lobby.record.id)
        await store.outbox.queue_announcements([
            Announcement(channel_id=6000 + channel, guild_id=1, game_id=None, kind="turn",
                         content=f"message {n} of {channel}")
            for n in range(each) for channel in range(channels)], begun)
        return ids
    finally:
        await store.close()


async def _outbox(db: str) -> list[tuple[int, int | None, str, str, int]]:
    store = await Store.open(db)
    try:
        async with store.connector.reading() as conn, conn.execute(
                "SELECT id, game_id, kind, status, channel_id FROM outbox ORDER BY id") as cursor:
            return [tuple(row) for row in await cursor.fetchall()]
    finally:
        await store.close()


def test_what_a_killed_process_had_claimed_is_delivered_once_by_the_other(
        postgres_url: str) -> None:
    games = asyncio.run(_queue_work(postgres_url, games=6, channels=12, each=12))
    first, second = Worker(postgres_url, "first"), Worker(postgres_url, "second")
    try:
        deadline = time.monotonic() + 60
        while len(first.posts) < 15 and time.monotonic() < deadline:
            time.sleep(0.01)
        first.kill()
        rows = asyncio.run(_outbox(postgres_url))
        while time.monotonic() < deadline and any(r[3] == "pending" for r in rows):
            time.sleep(0.2)
            rows = asyncio.run(_outbox(postgres_url))
    finally:
        first.kill()
        second.kill()
    assert len(first.posts) >= 15 and second.posts
    assert [r for r in rows if r[3] != "delivered"] == []
    posts = sorted(first.posts + second.posts, key=lambda post: post[5])
    nonces: dict[int, set[str]] = {}
    for _name, row, nonce, _kind, _channel, _at in posts:
        nonces.setdefault(row, set()).add(nonce)
    # Every announcement was posted, each with one nonce however often it was tried.
    assert set(nonces) == {r[0] for r in rows}
    assert all(len(n) == 1 for n in nonces.values())
    # Only the one the killed process had in hand was posted twice, the first time by it.
    twice = {row for row in nonces if sum(p[1] == row for p in posts) > 1}
    assert len(twice) <= 1
    assert all(next(p for p in posts if p[1] == row)[0] == "first" for row in twice)
    # Each game's first reminder was queued once, by whichever process claimed it.
    reminders = [r[1] for r in rows if r[2] == "reminder"]
    assert sorted(reminders) == sorted(games)
    # A channel's announcements went out in the order they were queued.
    for channel in {r[4] for r in rows}:
        firsts = [p[1] for p in sorted(posts, key=posts.index) if p[4] == channel]
        seen = list(dict.fromkeys(firsts))
        assert seen == sorted(seen), channel
