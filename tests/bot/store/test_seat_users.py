"""The seat index behind ``/games``: kept in step with every write of a game's seats."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import bot.store.migrations as store_module
from bot.store import SeatRecord, Store

T0 = 1_700_000_000.0
ALICE, BOB = 11, 12


async def test_a_database_of_an_older_schema_indexes_its_games_when_migrating(
        tmp_path: Path) -> None:
    db_path = tmp_path / "old.db"
    with sqlite3.connect(db_path) as raw:
        for script in store_module.MIGRATIONS[:3]:
            for statement in store_module.statements(script):
                raw.execute(statement)
        raw.execute("PRAGMA user_version = 3")
        raw.execute(
            "INSERT INTO games (id, channel_id, game, status, creator_id, seats, state_json, "
            "created_at, updated_at) VALUES (7, 1, 'sugar-blast', 'active', 1, ?, '{}', 0, 0)",
            ('[{"seat": 0, "user_id": 11, "name": "A", "ai": false}, '
             '{"seat": 1, "user_id": null, "name": "AI", "ai": true}]',))
        raw.execute("INSERT INTO games (id, channel_id, game, status, creator_id, seats, "
                    "created_at, updated_at) VALUES (8, 2, 'sugar-blast', 'active', 1, "
                    "'not json', 0, 0)")
    raw.close()
    store = await Store.open(db_path)
    try:
        assert [g.id for g in await store.games.games_of(ALICE, finished_since=T0)] == [7]
    finally:
        await store.close()


async def test_a_damaged_seats_value_is_saved_and_indexes_nobody(db_target: str) -> None:
    store = await Store.open(db_target)
    try:
        record = await store.games.create_lobby(channel_id=1, guild_id=2, game="sugar-blast",
                                                creator_id=ALICE, options={}, settings={}, now=T0)
        seats = (SeatRecord(0, ALICE, "A", False), SeatRecord(1, BOB, "B", False))
        record = await store.games.set_seats(record.id, record.version, seats, T0)
        await store.games.start(record.id, record.version, seed=1, state_json="{}", seats=seats,
                                now=T0, next_reminder_at=None)
        assert [g.id for g in await store.games.games_of(BOB, finished_since=T0)] == [record.id]
        async with store.connector.transaction() as db:
            await db.execute("UPDATE games SET seats = '[1, \"x\", {' WHERE id = ?",
                             (record.id,))
        assert await store.games.games_of(BOB, finished_since=T0) == []
    finally:
        await store.close()


async def test_leaving_a_lobby_forgets_the_player(db_target: str) -> None:
    store = await Store.open(db_target)
    try:
        record = await store.games.create_lobby(channel_id=1, guild_id=2, game="sugar-blast",
                                                creator_id=ALICE, options={}, settings={}, now=T0)
        record = await store.games.set_seats(record.id, record.version,
                                             (SeatRecord(0, ALICE, "A", False),
                                              SeatRecord(1, BOB, "B", False)), T0)
        await store.games.set_seats(record.id, record.version, (SeatRecord(0, ALICE, "A", False),),
                                    T0)
        async with store.connector.reading() as db, db.execute(
                "SELECT user_id, gone FROM seat_users ORDER BY user_id") as cursor:
            assert await cursor.fetchall() == [(ALICE, 0)]
    finally:
        await store.close()
