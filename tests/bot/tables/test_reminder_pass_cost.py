"""A reminder pass costs in proportion to the games due, not the games stored (issue 35).

The work is counted, not timed: SQLite's virtual machine instructions on both of the
store's connections (a progress handler), for the same due games among few and among
many stored games and delivered announcements. A control drops the partial indexes the
pass relies on and shows that the same count then grows with what is stored."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.games import GAMES
from bot.store import Store
from bot.tables import Tables
from tests.support.discord_harness import Clock

DUE = 8
FEW, MANY = 100, 4000
GUILD = 66
#: Every this many VM instructions the handler counts one.
STEP = 10


async def stored(path: Path, others: int) -> tuple[Store, Tables, Clock]:
    """:data:`DUE` games whose reminder is due, among ``others`` stored games (half over,
    half under way with their reminder a day off) and as many delivered announcements."""
    store = await Store.open(path)
    clock = Clock()
    tables = Tables(store, GAMES, clock)
    for n in range(DUE):
        lobby = await tables.lobbies.open_lobby(
            channel_id=n + 1, guild_id=GUILD, game="sugar-blast",
            creator_id=1000 + 2 * n, creator_name="Ann",
            reminder_hours=1.0)
        await tables.lobbies.join(lobby.record.id, 1001 + 2 * n, "Bob")
        await tables.lobbies.start(lobby.record.id, 1000 + 2 * n)
    now = clock()
    with sqlite3.connect(path) as db:
        db.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
            "INSERT INTO games (channel_id, guild_id, game, status, creator_id, options, "
            "settings, seats, seed, state_json, version, created_at, updated_at, "
            "turn_started_at, reminders_sent, next_reminder_at, result_json, finished_at) "
            "SELECT 100000 + i, guild_id, game, CASE i % 2 WHEN 0 THEN 'active' ELSE "
            "'finished' END, creator_id, options, settings, seats, seed, state_json, version, "
            "created_at, updated_at, turn_started_at, 0, CASE i % 2 WHEN 0 THEN ? END, "
            "NULL, CASE i % 2 WHEN 1 THEN ? END FROM games, n WHERE games.id = 1",
            (others, now + 24 * 3600, now))
        db.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
            "INSERT INTO outbox (channel_id, guild_id, kind, content, nonce, status, "
            "created_at, due_at, delivered_at, message_id) SELECT 100000 + i % 500, ?, "
            "'reminder', 'an old reminder', 'n' || i, 'delivered', ?, ?, ?, i FROM n",
            (others, GUILD, now - 3600, now - 3600, now - 3600))
    clock.advance(2)  # the due games' first reminder is due
    return store, tables, clock


async def counted(store: Store, work: Callable[[], Awaitable[object]]) -> int:
    """The VM instructions (in :data:`STEP`\\ s) ``work`` makes SQLite run on the store's
    connections."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    connections = [store.connector._db, store.connector._reader]  # type: ignore[attr-defined]
    for connection in connections:
        await connection.set_progress_handler(count, STEP)
    try:
        await work()
    finally:
        for connection in connections:
            await connection.set_progress_handler(None, STEP)
    return steps


async def pass_cost(path: Path, others: int) -> int:
    """The work of one reminder pass over :data:`DUE` due games among ``others``."""
    store, tables, clock = await stored(path, others)
    try:
        found: list[object] = []

        async def reminder_pass() -> None:
            found.extend(await tables.reminders.due())  # claims each due reminder, queues it
            await store.outbox.claim_announcements(clock(), lease=120)  # the outbox sends them
            await store.outbox.pending_announcements()

        cost = await counted(store, reminder_pass)
        assert len(found) == DUE
        # Each game's start ping (never sent here) and its reminder wait.
        assert (await store.outbox.pending_announcements())[0] == 2 * DUE
        return cost
    finally:
        await store.close()


async def test_a_reminder_pass_costs_in_proportion_to_the_games_due(tmp_path: Path) -> None:
    few = await pass_cost(tmp_path / "few.db", FEW)
    many = await pass_cost(tmp_path / "many.db", MANY)
    # Forty times as many stored games and announcements, the same work within a few
    # percent (a deeper B-tree, longer rows to skip).
    assert many < few * 1.15, (few, many)


async def test_without_its_indexes_the_same_reads_would_grow_with_what_is_stored(
        tmp_path: Path) -> None:
    """The control: the count above sees a scan of the stored games."""
    path = tmp_path / "control.db"
    store, _tables, clock = await stored(path, MANY)
    try:
        async def reads() -> None:
            assert len(await store.clocks.due_reminders(clock())) == DUE
            await store.outbox.pending_announcements()

        indexed = await counted(store, reads)
        with sqlite3.connect(path) as db:
            db.execute("DROP INDEX games_reminders_due")
            db.execute("DROP INDEX outbox_lanes")
        scanning = await counted(store, reads)
    finally:
        await store.close()
    assert scanning > 20 * indexed, (indexed, scanning)
