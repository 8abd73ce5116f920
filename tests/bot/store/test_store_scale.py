"""A reminder pass costs in proportion to the games due, not the games stored (issue 35).

The store calls of one pass (the due reminders, then the outbox's claim) are recorded as
they run, then run again with the database ten times larger and nothing more due. On
PostgreSQL each statement's plan (``EXPLAIN ANALYZE``) must read no row of ``games`` or
``outbox`` beyond the due ones, through an index; on SQLite the plan must search an index
and the work the statement does (its virtual machine's steps) must not grow with the
table. Not timed: what is counted is rows and steps.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import psycopg

from bot.store import Announcement, SeatRecord, Store, is_postgres
from bot.store.postgres import to_psycopg

NOW = 1_900_000_000.0
DUE = 3
#: A stored state as long as a small real one (the rows' size is what a scan pays for).
STATE = json.dumps({"board": "x" * 1500})
#: Tables a reminder pass reads.
PASS_TABLES = ("games", "outbox")


class Recording:
    """A store connection that notes every statement run through it."""

    def __init__(self, db: Any, seen: list[tuple[str, tuple[Any, ...]]]) -> None:
        self._db, self._seen = db, seen

    def execute(self, sql: str, params: Any = ()) -> Any:
        self._seen.append((sql, tuple(params)))
        return self._db.execute(sql, params)

    async def execute_fetchall(self, sql: str, params: Any = ()) -> Any:
        self._seen.append((sql, tuple(params)))
        return await self._db.execute_fetchall(sql, params)

    async def executemany(self, sql: str, rows: Any) -> Any:
        return await self._db.executemany(sql, rows)


def recording(store: Store, seen: list[tuple[str, tuple[Any, ...]]]) -> None:
    """Have ``store`` note every statement it runs in ``seen``."""
    for name in ("reading", "transaction"):
        opened = getattr(store.connector, name)

        def wrapped(opened: Callable[[], Any] = opened) -> Any:
            @asynccontextmanager
            async def connection() -> AsyncIterator[Recording]:
                async with opened() as db:
                    yield Recording(db, seen)
            return connection()

        setattr(store.connector, name, wrapped)


async def add_games(store: Store, count: int, start: int) -> None:
    """``count`` games nothing is due in: under way with a reminder to come, under way
    with none, finished; and as many delivered announcements."""
    async with store.connector.transaction() as db:
        await db.execute(
            "WITH RECURSIVE n(i) AS (SELECT CAST(? AS BIGINT) UNION ALL SELECT i + 1 FROM n "
            "WHERE i < ?) "
            "INSERT INTO games (channel_id, guild_id, game, status, creator_id, seats, "
            "state_json, created_at, updated_at, next_reminder_at, finished_at) "
            "SELECT 7000000 + i, 66, 'sugar-blast', CASE WHEN i % 4 = 0 THEN 'finished' "
            "ELSE 'active' END, 5000 + i, '[{\"seat\": 0, \"user_id\": ' || (5000 + i) || "
            "', \"name\": \"P\", \"ai\": false}]', ?, ?, ?, "
            "CASE WHEN i % 4 = 1 THEN ? + i END, CASE WHEN i % 4 = 0 THEN ? END FROM n",
            (start, start + count - 1, STATE, NOW - 86400, NOW - 3600, NOW + 600, NOW - 7200))
        await db.execute(
            "WITH RECURSIVE n(i) AS (SELECT CAST(? AS BIGINT) UNION ALL SELECT i + 1 FROM n "
            "WHERE i < ?) "
            "INSERT INTO outbox (channel_id, guild_id, game_id, kind, content, nonce, status, "
            "created_at, due_at, delivered_at) SELECT 7000000 + i, 66, NULL, 'turn', 'hi', "
            "'n' || i, 'delivered', ?, ?, ? FROM n",
            (start, start + count - 1, NOW - 3600, NOW - 3600, NOW - 3500))


async def add_due(store: Store) -> None:
    """:data:`DUE` games whose reminder is due, each with a pending announcement."""
    for number in range(DUE):
        lobby = await store.games.create_lobby(channel_id=100 + number, guild_id=66,
                                               game="sugar-blast", creator_id=1, options={},
                                               settings={}, now=NOW - 7200)
        await store.games.start(lobby.id, lobby.version, seed=number, state_json="{}",
                                seats=[SeatRecord(0, 1, "Ann", False)], now=NOW - 7200,
                                next_reminder_at=NOW - 60 * (number + 1),
                                announce=[Announcement(
                                    channel_id=100 + number, guild_id=66, game_id=lobby.id,
                                    kind="turn", content="go")])


async def analyse(store: Store, target: str) -> None:
    async with store.connector.transaction() as db:
        await db.execute("ANALYZE")


async def one_pass(store: Store) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements of a reminder pass's store calls (nothing is claimed for good: the
    recorded claim runs again on its own)."""
    seen: list[tuple[str, tuple[Any, ...]]] = []
    recording(store, seen)
    try:
        assert len(await store.clocks.due_reminders(NOW)) == DUE
        claimed = await store.outbox.claim_announcements(NOW, lease=60.0)
        assert len(claimed) == DUE
        for row in claimed:
            await store.outbox.retry_announcement(row.id, NOW, "not sent")  # pending again, due now
    finally:
        for name in ("reading", "transaction"):
            delattr(store.connector, name)
    return [(sql, params) for sql, params in seen
            if sql.lstrip().upper().startswith("SELECT")]


# ----------------------------------------------------------------- PostgreSQL


def _scans(node: dict[str, Any]) -> list[dict[str, Any]]:
    out = [node] if "Relation Name" in node else []
    for child in node.get("Plans", ()):
        out += _scans(child)
    return out


def rows_read(url: str, sql: str, params: tuple[Any, ...]) -> dict[str, int]:
    """Rows of each pass table the statement's plan reads (kept or filtered out), and
    ``-1`` for a table it reads whole."""
    with psycopg.connect(url) as conn:
        plan = conn.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {to_psycopg(sql)}",
                            params).fetchone()
        conn.rollback()
    assert plan is not None
    read: dict[str, int] = {}
    for scan in _scans(json.loads(plan[0])[0]["Plan"] if isinstance(plan[0], str)
                       else plan[0][0]["Plan"]):
        table = scan["Relation Name"]
        if table not in PASS_TABLES:
            continue
        if scan["Node Type"] == "Seq Scan":
            read[table] = -1
            continue
        rows = (scan.get("Actual Rows", 0) + scan.get("Rows Removed by Filter", 0)
                + scan.get("Rows Removed by Index Recheck", 0)) * scan.get("Actual Loops", 1)
        if read.get(table) != -1:
            read[table] = read.get(table, 0) + int(rows)
    return read


# ----------------------------------------------------------------- SQLite


def steps(path: str, sql: str, params: tuple[Any, ...]) -> tuple[int, str]:
    """The virtual machine steps of ``sql`` on the SQLite file ``path``, and its plan."""
    counted = [0]

    def step() -> int:
        counted[0] += 1
        return 0

    with sqlite3.connect(path) as db:
        plan = " / ".join(row[-1] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", params))
        db.set_progress_handler(step, 1)
        db.execute(sql, params).fetchall()
        db.set_progress_handler(None, 1)
    return counted[0], plan


# ----------------------------------------------------------------- the test


def cost(target: str, statements: list[tuple[str, tuple[Any, ...]]]) -> list[int]:
    """What each statement costs now: on PostgreSQL the rows of the pass tables its plan
    reads (checked to come through an index), on SQLite its steps (checked to search an
    index rather than scan a table)."""
    out = []
    for sql, params in statements:
        if is_postgres(target):
            read = rows_read(target, sql, params)
            assert all(rows >= 0 for rows in read.values()), ("a table read whole", sql)
            out.append(sum(read.values()))
            continue
        counted, plan = steps(target, sql, params)
        scans = [line for line in plan.split(" / ") if line.startswith("SCAN")]
        assert all("USING" in line for line in scans), ("a table read whole", sql, plan)
        out.append(counted)
    return out


async def test_a_reminder_pass_reads_the_due_games_not_the_stored_ones(
        db_target: str) -> None:
    store = await Store.open(db_target)
    try:
        await add_due(store)
        await add_games(store, 1000, 1)
        await analyse(store, db_target)
        small = await one_pass(store)
        before = cost(db_target, small)
        await add_games(store, 9000, 1001)
        await analyse(store, db_target)
        large = await one_pass(store)
        after = cost(db_target, large)
    finally:
        await store.close()
    assert [sql for sql, _ in small] == [sql for sql, _ in large]
    assert any("next_reminder_at <=" in sql for sql, _ in large)
    assert any("FROM outbox" in sql for sql, _ in large)
    if is_postgres(db_target):
        # Nothing but the due games and their announcements, however many games are
        # stored (the claim reads each due announcement three times: to claim it, to see
        # that it is its lane's oldest, and to count its lane's pending ones; and its
        # game's row, for the version and board the game stands at, through its key).
        assert all(rows <= 5 * DUE for rows in before + after), (before, after)
        assert after == before
        return
    # Ten times the games stored, the same games due: the same work, give or take the
    # depth of the indexes.
    for was, now in zip(before, after, strict=True):
        assert now <= was * 1.2 + 50, (before, after)
