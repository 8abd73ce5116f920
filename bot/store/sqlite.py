"""The SQLite backend: one file, written through aiosqlite, the default.

Every write runs in a ``BEGIN IMMEDIATE`` transaction, so writers serialise across
connections and processes (WAL mode lets readers carry on). Reads go through a second,
read-only connection, so they never queue behind a write that waits for another
process's lock. ``PRAGMA user_version`` counts the migrations that ran.

aiosqlite runs each connection's statements in a thread of its own, and every trip to
that thread and back costs the event loop about 0.15 ms of CPU, more than most of the
store's statements take. So the store goes there as few times as it can
(:class:`_Trips`): a statement's rows come back with it (no second trip to fetch them),
and ``BEGIN IMMEDIATE`` and statements whose outcome nobody reads (``executemany``)
wait to go with the next statement that is read, or with the ``COMMIT``; a
transaction's last read goes with its ``COMMIT`` (:meth:`_Trips.finish`). A move's
transaction makes two trips, not five.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from bot.store import migrations
from bot.store.connection import Connector
from bot.store.records import (
    NotSavedError,
    StoreBusyError,
    StoreClosedError,
    StoreError,
    log,
    owner_only,
)

_BUSY_TIMEOUT_MS = 10_000
#: Commits between two checkpoints of the write-ahead log into the database file. SQLite's
#: own (every 1,000 pages) runs inside the commit that crosses the mark, a stall of 5-15 ms
#: (an fsync of the log and the file) every few dozen moves; here a connection of its own
#: copies the log over in the background, while the next move is written.
CHECKPOINT_EVERY = 32

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


async def _writer(name: str) -> aiosqlite.Connection:
    """The writing connection: its commits never checkpoint (:data:`CHECKPOINT_EVERY`)."""
    db = await _connect(name)
    await db.execute("PRAGMA wal_autocheckpoint = 0")
    return db


class _Outcome:
    """What a statement gave, fetched in the trip that ran it: its rows and ``rowcount``
    (what the store reads of aiosqlite's cursors)."""

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self.rows = rows
        self.rowcount = rowcount

    async def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    async def fetchall(self) -> list[Any]:
        return self.rows


class _Statement:
    """``db.execute(...)`` of :class:`_Trips`: awaited, or used with ``async with``."""

    def __init__(self, trips: _Trips, sql: str, params: Sequence[Any]) -> None:
        self._trips, self._sql, self._params = trips, sql, params

    async def _run(self) -> _Outcome:
        return await self._trips.run(self._sql, self._params)

    def __await__(self) -> Generator[Any, None, _Outcome]:
        return self._run().__await__()

    async def __aenter__(self) -> _Outcome:
        return await self._run()

    async def __aexit__(self, *exc: object) -> None:
        return None


def _write_failed(exc: sqlite3.Error) -> StoreError:
    """What a write that failed (and changed nothing) raises: busy when another process
    held the lock past the busy timeout, else not saved (and logged)."""
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return StoreBusyError()
    log.error("a write to the game database failed and was rolled back: %s", exc)
    return NotSavedError()


class _Busy(Exception):
    """``BEGIN IMMEDIATE`` found the database locked past the busy timeout."""


class _Trips:
    """A connection's statements, taken to its thread in as few trips as they allow.

    Statements that nothing reads wait (:meth:`executemany`, and ``BEGIN IMMEDIATE`` when
    ``begin``) and go in order with the next :meth:`run`, so a read sees every write
    before it; their errors come from that trip, inside the same transaction.
    """

    def __init__(self, db: aiosqlite.Connection, *, begin: bool = False) -> None:
        self.db = db
        self._waiting: list[tuple[str, Any, bool]] = [("BEGIN IMMEDIATE", (), False)] \
            if begin else []
        #: The transaction was committed with its last read (:meth:`finish`).
        self.committed = False

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Statement:
        return _Statement(self, sql, params)

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return (await self.run(sql, params)).rows

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._waiting.append((sql, [tuple(row) for row in rows], True))

    async def finish(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The transaction's last statement: run with what waits and the ``COMMIT``, in one
        trip; its rows. Nothing may follow it."""
        rows = (await self.run(sql, params, then=("COMMIT", (), False))).rows
        self.committed = True
        return rows

    async def run(self, sql: str, params: Sequence[Any],
                  then: tuple[str, Any, bool] | None = None) -> _Outcome:
        """Run what waits and then ``sql`` (and ``then``, the ``COMMIT``), in one trip;
        ``sql``'s outcome."""
        if self.committed:
            raise StoreError("A transaction was written to after its commit.")
        batch, self._waiting = [*self._waiting, (sql, params, False)], []
        keep = len(batch) - 1
        if then is not None:
            batch.append(then)
        if not IN_ONE_TRIP:
            return await _trip_by_trip(self.db, batch, keep)
        # aiosqlite's own way to run a function in the connection's thread (not part of
        # its documented API, hence IN_ONE_TRIP).
        in_thread: Callable[..., Awaitable[_Outcome]] = self.db._execute
        return await in_thread(_trip, self.db, batch, keep)


#: Whether this aiosqlite runs a function in a connection's thread the way
#: :meth:`_Trips.run` uses (its ``_execute`` and ``_conn``, there since 0.17); without them
#: every statement makes its own trip through the documented API, with the same outcome.
IN_ONE_TRIP = all(hasattr(aiosqlite.Connection, name) for name in ("_execute", "_conn"))


async def _trip_by_trip(db: aiosqlite.Connection, batch: list[tuple[str, Any, bool]],
                        keep: int) -> _Outcome:
    """:func:`_trip` through aiosqlite's documented API: a trip a statement."""
    outcome = _Outcome([], -1)
    for index, (sql, values, many) in enumerate(batch):
        if index == keep:
            async with db.execute(sql, values) as cursor:
                outcome = _Outcome(list(await cursor.fetchall()), cursor.rowcount)
        elif many:
            await db.executemany(sql, values)
        elif sql == "BEGIN IMMEDIATE":
            try:
                await db.execute(sql)
            except sqlite3.OperationalError:
                raise _Busy() from None
        else:
            await db.execute(sql, values)
    return outcome


def _trip(db: aiosqlite.Connection, batch: list[tuple[str, Any, bool]],
          keep: int) -> _Outcome:
    """In the connection's thread: run ``batch`` in order, the outcome of its ``keep``-th
    statement (read whole before any later one runs)."""
    conn = db._conn
    outcome = _Outcome([], -1)
    for index, (sql, values, many) in enumerate(batch):
        if index == keep:
            cursor = conn.execute(sql, values)
            try:
                outcome = _Outcome(cursor.fetchall(), cursor.rowcount)
            finally:
                cursor.close()
        elif many:
            conn.executemany(sql, values)
        elif sql == "BEGIN IMMEDIATE":
            try:
                conn.execute(sql)
            except sqlite3.OperationalError:
                raise _Busy() from None
        else:
            conn.execute(sql, values)
    return outcome


class SqliteConnector(Connector):
    """The game database in one SQLite file (WAL mode), the zero-set-up default."""

    integrity_errors = (sqlite3.IntegrityError,)

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
        # The write-ahead log is checkpointed in the background, by a connection (and a
        # thread) of its own, once every CHECKPOINT_EVERY commits.
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpoint: asyncio.Task[None] | None = None
        self._commits = 0

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> SqliteConnector:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        name = os.fspath(path)
        with owner_only():
            store = cls(await _writer(name), name)
        try:
            await store._migrate()
            store._reader = await _connect(name)
            await store._reader.execute("PRAGMA query_only = ON")
            store._checkpointer = await _connect(name)
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connections once the write under way (if any) is done, checkpointing
        the write-ahead log into the database file first (the file alone is then the whole
        database); calling it again does nothing."""
        async with self._lock:
            reader, db, checkpointer = self._reader, self._db, self._checkpointer
            self._db = self._reader = self._checkpointer = None
            if self._checkpoint is not None:
                await self._checkpoint
            for other in (reader, checkpointer):
                if other is not None:
                    await other.close()
            if db is None:
                return
            try:
                await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                # A reader elsewhere (a backup) may hold the log; SQLite checkpoints later.
                log.warning("could not checkpoint the game database %s: %s", self.path, exc)
            await db.close()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[_Trips]:
        """The reading connection, one reader at a time."""
        with self.watch("store"):
            async with self._read_lock:
                if self._reader is None:
                    raise StoreClosedError()
                yield _Trips(self._reader)

    async def check_writable(self) -> None:
        """Take the write lock and let it go, writing nothing; raises :class:`StoreError`
        when the database cannot be written now (read-only, locked, closed)."""
        try:
            async with self.transaction():
                pass
        except sqlite3.Error as exc:
            raise StoreError(f"The game database {self.path} cannot be written: {exc}.") \
                from None

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreClosedError()
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
        async with self.reading() as db, db.execute("PRAGMA journal_mode") as cursor:
            row = await cursor.fetchone()
        return str(row[0]).lower() if row else ""

    # ----------------------------------------------------------------- low-level helpers

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Trips]:
        """One write transaction under the lock: BEGIN IMMEDIATE, then COMMIT or ROLLBACK.

        A statement or the COMMIT itself failing (disk full, I/O error) rolls everything
        back and raises :class:`NotSavedError`; the store stays usable for the next write.
        """
        with self.watch("store"):
            async with self._lock:
                db = self._conn()
                trips = _Trips(db, begin=True)
                try:
                    yield trips
                    if not trips.committed:
                        await trips.run("COMMIT", ())
                    self._committed()
                except _Busy:
                    await self._roll_back(db)
                    raise StoreBusyError() from None
                except BaseException as exc:
                    await self._roll_back(db)
                    if isinstance(exc, sqlite3.Error) and not isinstance(
                            exc, sqlite3.IntegrityError):
                        raise _write_failed(exc) from exc
                    raise

    async def alone(self, sql: str, params: Sequence[Any]) -> int:
        """Write one statement in one trip: SQLite makes a lone statement a transaction of
        its own (the connection is in autocommit mode), so it needs no BEGIN or COMMIT."""
        with self.watch("store"):
            async with self._lock:
                try:
                    changed = (await _Trips(self._conn()).run(sql, params)).rowcount
                    self._committed()
                    return changed
                except sqlite3.IntegrityError:
                    raise
                except sqlite3.Error as exc:
                    raise _write_failed(exc) from exc

    def _committed(self) -> None:
        """Count a commit; every :data:`CHECKPOINT_EVERY` begin a checkpoint in the
        background (none while one runs)."""
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and self._checkpointer is not None and (
                self._checkpoint is None or self._checkpoint.done()):
            self._commits = 0
            self._checkpoint = asyncio.get_running_loop().create_task(
                self._checkpoint_log(self._checkpointer))

    async def _checkpoint_log(self, checkpointer: aiosqlite.Connection) -> None:
        """Copy the write-ahead log into the database file as far as no reader holds it
        back (``PASSIVE``: it waits for nobody, and writers go on meanwhile)."""
        try:
            await checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except (sqlite3.Error, ValueError) as exc:
            # The next checkpoint copies what this one could not; the log only grows.
            log.warning("could not checkpoint the game database %s: %s", self.path, exc)

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
        self._db = await _writer(self.path)

    async def _begin(self) -> aiosqlite.Connection:
        db = self._conn()
        try:
            await db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            raise StoreBusyError() from None
        return db
