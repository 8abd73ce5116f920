"""The SQLite backend: one file, written through aiosqlite, the default.

Every write runs in a ``BEGIN IMMEDIATE`` transaction, so writers serialise across
connections and processes (WAL mode lets readers carry on). Reads go through a second,
read-only connection, so they never queue behind a write that waits for another
process's lock. ``PRAGMA user_version`` counts the migrations that ran.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiosqlite

from bot.store import migrations
from bot.store.base import Store
from bot.store.records import NotSavedError, StoreError, log, owner_only

_BUSY_TIMEOUT_MS = 10_000

async def _connect(name: str) -> aiosqlite.Connection:
    """A connection to the database ``name`` set up as the store needs it (WAL, waits)."""
    try:
        db = await aiosqlite.connect(name, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"The game database {name} could not be opened: {exc}.") from None
    try:
        await db.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
        await db.execute("PRAGMA foreign_keys = ON")
        async with db.execute("PRAGMA journal_mode = WAL") as cursor:
            row = await cursor.fetchone()
        if row is None or str(row[0]).lower() != "wal":
            raise StoreError(f"The game database {name} cannot use write-ahead logging.")
        await db.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        await db.close()
        raise
    return db


class SqliteStore(Store):
    """The game database in one SQLite file (WAL mode), the zero-set-up default."""

    _integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db: aiosqlite.Connection | None = db
        self.path = path
        # One connection cannot hold two transactions, so coroutines sharing this
        # store take turns; other connections are kept out by BEGIN IMMEDIATE.
        self._lock = asyncio.Lock()
        # Reads use a connection of their own: in WAL mode they never wait for a writer,
        # so a write waiting for another process's lock holds up no board or button.
        self._reader: aiosqlite.Connection | None = None
        self._read_lock = asyncio.Lock()

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> SqliteStore:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        name = os.fspath(path)
        with owner_only():
            store = cls(await _connect(name), name)
        try:
            await store._migrate()
            store._reader = await _connect(name)
            await store._reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connections once the write under way (if any) is done, checkpointing
        the write-ahead log into the database file first (the file alone is then the whole
        database); calling it again does nothing."""
        async with self._lock:
            reader, db = self._reader, self._db
            self._db = self._reader = None
            if reader is not None:
                await reader.close()
            if db is None:
                return
            try:
                await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                # A reader elsewhere (a backup) may hold the log; SQLite checkpoints later.
                log.warning("could not checkpoint the game database %s: %s", self.path, exc)
            await db.close()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """The reading connection, one reader at a time."""
        with self.watch("store"):
            async with self._read_lock:
                if self._reader is None:
                    raise StoreError("The game store is closed.")
                yield self._reader

    async def check_writable(self) -> None:
        """Take the write lock and let it go, writing nothing; raises :class:`StoreError`
        when the database cannot be written now (read-only, locked, closed)."""
        try:
            async with self._transaction():
                pass
        except sqlite3.Error as exc:
            raise StoreError(f"The game database {self.path} cannot be written: {exc}.") \
                from None

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("The game store is closed.")
        return self._db

    async def _migrate(self) -> None:
        db = self._conn()
        for number, migration in enumerate(migrations.MIGRATIONS, start=1):
            await self._begin()
            try:
                # Read inside the transaction: another process may have migrated meanwhile.
                if await self._user_version() >= number:
                    await db.execute("ROLLBACK")
                    continue
                for statement in migrations.statements(migrations.for_sqlite(migration)):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")
                await db.execute("COMMIT")
            except BaseException:
                await self._roll_back(db)
                raise

    async def _user_version(self) -> int:
        async with self._conn().execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def schema_version(self) -> int:
        """How many migrations this database has run."""
        async with self._lock:
            return await self._user_version()

    async def journal_mode(self) -> str:
        """The SQLite journal mode in use (``'wal'``)."""
        async with self._reading() as db, db.execute("PRAGMA journal_mode") as cursor:
            row = await cursor.fetchone()
        return str(row[0]).lower() if row else ""

    # ----------------------------------------------------------------- low-level helpers

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction under the lock: BEGIN IMMEDIATE, then COMMIT or ROLLBACK.

        A statement or the COMMIT itself failing (disk full, I/O error) rolls everything
        back and raises :class:`NotSavedError`; the store stays usable for the next write.
        """
        with self.watch("store"):
            async with self._lock:
                db = await self._begin()
                try:
                    yield db
                    await db.execute("COMMIT")
                except BaseException as exc:
                    await self._roll_back(db)
                    if isinstance(exc, sqlite3.Error) and not isinstance(
                            exc, sqlite3.IntegrityError):
                        log.error("a write to the game database failed and was rolled back: "
                                  "%s", exc)
                        raise NotSavedError() from exc
                    raise

    async def _roll_back(self, db: aiosqlite.Connection) -> None:
        """End the open transaction, whatever it takes, so the next write can begin.

        SQLite may already have rolled back on its own (some failed COMMITs do); if the
        ROLLBACK itself fails with the transaction still open, the connection is replaced.
        """
        try:
            if db.in_transaction:
                await db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            log.error("rolling back a failed write failed too (%s): reconnecting", exc)
        try:
            stuck = db.in_transaction
        except (sqlite3.Error, ValueError):
            stuck = True
        if stuck and self._db is not None:
            await self._reconnect()

    async def _reconnect(self) -> None:
        """Close the connection (dropping its transaction) and open a fresh one."""
        old = self._db
        self._db = None
        if old is not None:
            try:
                await old.close()
            except sqlite3.Error:
                log.warning("closing the wedged database connection failed", exc_info=True)
        self._db = await _connect(self.path)

    async def _begin(self) -> aiosqlite.Connection:
        db = self._conn()
        try:
            await db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            raise StoreError("The game database is busy; try again in a moment.") from None
        return db
