"""The PostgreSQL backend: one database shared by several bot processes.

psycopg 3 with a psycopg_pool connection pool (docs/scale.md says why). The queries are
the aggregates' (:mod:`bot.store`), with ``?`` turned into psycopg's ``%s``. Writes run in
READ COMMITTED transactions: a version-guarded UPDATE that meets a concurrent one waits
for it, then finds the version moved on and changes nothing. Reads run outside any
transaction on connections of their own, so they never wait for a writer. Migrations
run under a transaction-level advisory lock, so processes starting together migrate
once; ``candybot_schema`` counts those that ran.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
import weakref
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any

import psycopg
from psycopg import conninfo
from psycopg_pool import AsyncConnectionPool

from bot.store import migrations
from bot.store.connection import Connector
from bot.store.records import NotSavedError, StoreClosedError, StoreError, log

#: Advisory lock keys (any 64-bit numbers no other program on the database uses).
MIGRATION_LOCK = 0x63616E6479_01
IDENTIFY_LOCK = 0x63616E6479_02

_MARK = re.compile(r"\?")

#: A pooled connection handed back less than this many seconds ago is lent again as it
#: is; one idle for longer is pinged first, since a server restarted or an idle timeout
#: on the way leaves idle connections dead. Pinging every loan cost a move eight round
#: trips (1 ms on a local server; more across a network).
FRESH_S = 2.0
_returned: weakref.WeakKeyDictionary[psycopg.AsyncConnection[Any], float] = \
    weakref.WeakKeyDictionary()


async def _note_returned(conn: psycopg.AsyncConnection[Any]) -> None:
    _returned[conn] = time.monotonic()


async def _check_if_idle(conn: psycopg.AsyncConnection[Any]) -> None:
    """The pool's check on lending ``conn``: a ping, unless it was in use just now."""
    returned = _returned.get(conn)
    if returned is not None and time.monotonic() - returned < FRESH_S:
        return
    await AsyncConnectionPool.check_connection(conn)


@functools.lru_cache(maxsize=512)
def to_psycopg(sql: str) -> str:
    """``sql`` with its ``?`` parameters as psycopg's ``%s`` (a literal ``%`` doubled)."""
    return _MARK.sub("%s", sql.replace("%", "%%"))


def redacted(url: str) -> str:
    """``url`` without its password, fit for logs and messages."""
    try:
        parts = conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://(unreadable address)"
    host = parts.get("host") or "localhost"
    user = f"{parts['user']}@" if parts.get("user") else ""
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname', '')}"


class _Statement:
    """One statement on a connection: awaited, it runs and gives its cursor; used with
    ``async with``, the cursor is closed afterwards (as aiosqlite's ``execute``)."""

    def __init__(self, conn: psycopg.AsyncConnection[Any], sql: str,
                 params: Sequence[Any]) -> None:
        self._conn, self._sql, self._params = conn, sql, params
        self._cursor: psycopg.AsyncCursor[Any] | None = None

    async def _run(self) -> psycopg.AsyncCursor[Any]:
        cursor = self._conn.cursor()
        await cursor.execute(to_psycopg(self._sql), tuple(self._params))
        return cursor

    def __await__(self) -> Any:
        return self._run().__await__()

    async def __aenter__(self) -> psycopg.AsyncCursor[Any]:
        self._cursor = await self._run()
        return self._cursor

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        traceback: TracebackType | None) -> None:
        if self._cursor is not None:
            await self._cursor.close()


class _Connection:
    """A pooled connection speaking the store's dialect (``?`` marks, ``execute``)."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.raw = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Statement:
        return _Statement(self.raw, sql, params)

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of ``sql`` (as aiosqlite's method of that name)."""
        async with _Statement(self.raw, sql, params) as cursor:
            return list(await cursor.fetchall())

    async def finish(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """A transaction's last statement; its rows (the commit follows at the end of the
        transaction, as with any other)."""
        return await self.execute_fetchall(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(row) for row in rows]
        if rows:
            async with self.raw.cursor() as cursor:
                await cursor.executemany(to_psycopg(sql), rows)


class PostgresConnector(Connector):
    """The game database in PostgreSQL, shared by every process of the bot."""

    greatest = "GREATEST"
    skip_locked = " FOR UPDATE OF o SKIP LOCKED"
    integrity_errors = (psycopg.errors.IntegrityError,)

    def __init__(self, pool: AsyncConnectionPool, url: str) -> None:
        self._pool: AsyncConnectionPool | None = pool
        self.url = url
        self.path = redacted(url)

    @classmethod
    async def open(cls, url: str, *, connections: int = 8,  # type: ignore[override]
                   timeout: float = 10.0) -> PostgresConnector:
        """Connect to ``url`` (a pool of up to ``connections``) and migrate the schema."""
        pool = AsyncConnectionPool(url, min_size=1, max_size=max(2, connections), open=False,
                                   kwargs={"autocommit": True}, timeout=timeout,
                                   check=_check_if_idle, reset=_note_returned,
                                   name="candybot-pool")
        try:
            await pool.open(wait=True, timeout=timeout)
        except Exception as exc:
            await pool.close()
            raise StoreError(f"The game database {redacted(url)} could not be opened: "
                             f"{_first_line(exc)}.") from None
        store = cls(pool, url)
        try:
            await store._migrate()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    def _pool_or_closed(self) -> AsyncConnectionPool:
        if self._pool is None:
            raise StoreClosedError()
        return self._pool

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Connection]:
        try:
            with self.watch("store"):
                async with self._pool_or_closed().connection() as conn, conn.transaction():
                    yield _Connection(conn)
        except psycopg.errors.IntegrityError:
            raise
        except psycopg.Error as exc:
            log.error("a write to the game database failed and was rolled back: %s",
                      _first_line(exc))
            raise NotSavedError() from exc

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[_Connection]:
        try:
            with self.watch("store"):
                async with self._pool_or_closed().connection() as conn:
                    yield _Connection(conn)
        except psycopg.Error as exc:
            raise StoreError(f"The game database could not be read: {_first_line(exc)}.") \
                from None

    async def check_writable(self) -> None:
        try:
            async with self.transaction() as db, db.execute(
                    "SHOW transaction_read_only") as cursor:
                row = await cursor.fetchone()
        except NotSavedError as exc:
            raise StoreError(f"The game database {self.path} cannot be written: "
                             f"{_first_line(exc.__cause__ or exc)}.") from None
        if row is not None and row[0] == "on":
            raise StoreError(f"The game database {self.path} is read-only (a standby?).")

    async def _migrate(self) -> None:
        for number, migration in enumerate(migrations.MIGRATIONS, start=1):
            async with self.transaction() as db:
                # Processes starting together queue here; each reads the count only once
                # it holds the lock, so a migration another one ran is not run again.
                await db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
                await db.execute("CREATE TABLE IF NOT EXISTS candybot_schema "
                                 "(version INTEGER NOT NULL)")
                if await self._version(db) >= number:
                    continue
                # Several statements in one call: psycopg sends them as one script.
                await db.raw.execute(migrations.for_postgres(migration).encode())
                await db.execute("DELETE FROM candybot_schema")
                await db.execute("INSERT INTO candybot_schema (version) VALUES (?)", (number,))

    @staticmethod
    async def _version(db: _Connection) -> int:
        async with db.execute("SELECT MAX(version) FROM candybot_schema") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    async def schema_version(self) -> int:
        async with self.reading() as db:
            try:
                return await self._version(db)
            except psycopg.errors.UndefinedTable:
                return 0

    @asynccontextmanager
    async def identify_turn(self, window: float) -> AsyncIterator[None]:
        """Hold the database's login turn: one holder at a time across every process and
        machine, each keeping it ``window`` seconds after it was granted, so that gateway
        logins through it are at least ``window`` apart."""
        pool = self._pool_or_closed()
        conn = await pool.getconn()
        try:
            await conn.execute("SELECT pg_advisory_lock(%s)", (IDENTIFY_LOCK,))
        except BaseException:
            await pool.putconn(conn)
            raise
        granted = asyncio.get_running_loop().time()
        try:
            yield
        finally:
            left = window - (asyncio.get_running_loop().time() - granted)
            release = asyncio.create_task(_release_later(pool, conn, left))
            _RELEASES.add(release)
            release.add_done_callback(_RELEASES.discard)


#: Pending releases of the login turn (kept so they are not garbage-collected).
_RELEASES: set[asyncio.Task[None]] = set()


async def _release_later(pool: AsyncConnectionPool, conn: psycopg.AsyncConnection[Any],
                         delay: float) -> None:
    """Let the login turn go after ``delay`` seconds (closing the connection lets it go
    too, should the unlock fail)."""
    try:
        await asyncio.sleep(max(0.0, delay))
        await conn.execute("SELECT pg_advisory_unlock(%s)", (IDENTIFY_LOCK,))
    except (psycopg.Error, asyncio.CancelledError):
        await conn.close()
    finally:
        try:
            await pool.putconn(conn)
        except Exception:  # the pool closed meanwhile (a stop): the connection goes too
            await conn.close()


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
