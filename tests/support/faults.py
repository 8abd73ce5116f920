"""Fault injection for the store: a connection whose chosen statements fail.

:class:`FaultyConnection` wraps the store's aiosqlite connection and raises
``sqlite3.OperationalError`` (as a full disk or an I/O error would) at the
statements whose numbers are listed, counting from 1 since it was installed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Generator
from typing import Any

import aiosqlite

from bot.store import SqliteConnector, Store


class _Failing:
    """What a failing ``execute`` returns: raises when awaited or entered."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    def __await__(self) -> Generator[Any, None, Any]:
        raise self.exc
        yield  # pragma: no cover - makes this a generator

    async def __aenter__(self) -> Any:
        raise self.exc

    async def __aexit__(self, *exc: object) -> bool:
        return False


class _FailingAt:
    """A sqlite3 connection for one trip whose statement number ``at`` (from 0) fails."""

    def __init__(self, conn: sqlite3.Connection, at: int, exc: Exception) -> None:
        self.conn, self.left, self.exc = conn, at, exc

    def _step(self) -> None:
        if self.left == 0:
            raise self.exc
        self.left -= 1

    def execute(self, *args: Any) -> Any:
        self._step()
        return self.conn.execute(*args)

    def executemany(self, *args: Any) -> Any:
        self._step()
        return self.conn.executemany(*args)


class _TripConnection:
    """What a trip's function is given in place of the aiosqlite connection."""

    def __init__(self, conn: _FailingAt) -> None:
        self._conn = conn


class FaultyConnection:
    """An aiosqlite connection whose statements numbered in ``fail_at`` fail."""

    def __init__(self, real: aiosqlite.Connection, fail_at: Collection[int] = (),
                 error: str = "database or disk is full", fail_on: str | None = None) -> None:
        self.real = real
        self.fail_at = set(fail_at)
        #: Also fail the first statement that starts with this text.
        self.fail_on = fail_on
        self.error = error
        self.count = 0
        #: How many times the store went to the connection's thread (its trips).
        self.trips = 0
        self.statements: list[str] = []
        self.failed: list[str] = []

    def _next(self, sql: str) -> _Failing | None:
        self.count += 1
        self.statements.append(" ".join(sql.split()))
        if self.fail_on is not None and self.statements[-1].startswith(self.fail_on):
            self.fail_on = None
            self.fail_at.add(self.count)
        if self.count in self.fail_at:
            self.failed.append(self.statements[-1])
            return _Failing(sqlite3.OperationalError(self.error))
        return None

    async def _execute(self, fn: Any, db: Any, batch: list[tuple[str, Any, bool]],
                       *rest: Any) -> Any:
        """A trip of the store's statements (``bot/store/sqlite.py``): each statement is
        counted, and the one chosen to fail fails inside the trip, where SQLite's own
        error would arise, after those before it ran."""
        self.trips += 1
        for k, (sql, _params, _many) in enumerate(batch):
            failing = self._next(sql)
            if failing is not None:
                return await self.real._execute(
                    fn, _TripConnection(_FailingAt(self.real._conn, k, failing.exc)), batch,
                    *rest)
        return await self.real._execute(fn, self.real, batch, *rest)

    def execute(self, sql: str, *args: Any) -> Any:
        return self._next(sql) or self.real.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        return self._next(sql) or self.real.executemany(sql, *args)

    def execute_fetchall(self, sql: str, *args: Any) -> Any:
        return self._next(sql) or self.real.execute_fetchall(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def inject(store: Store, fail_at: Collection[int] = (), *,
           fail_on: str | None = None) -> FaultyConnection:
    """Make the statements numbered ``fail_at`` (from now on), and the first one starting
    with ``fail_on``, fail in ``store``."""
    connector = store.connector
    assert isinstance(connector, SqliteConnector)
    current = connector._db
    real = current.real if isinstance(current, FaultyConnection) else current
    assert real is not None
    faulty = FaultyConnection(real, fail_at, fail_on=fail_on)
    connector._db = faulty  # type: ignore[assignment]
    return faulty


def statements_of_transaction(faulty: FaultyConnection) -> list[int]:
    """The numbers of the statements from the last BEGIN to its COMMIT."""
    begin = max(i for i, s in enumerate(faulty.statements, 1) if s.startswith("BEGIN"))
    commit = max(i for i, s in enumerate(faulty.statements, 1) if s == "COMMIT")
    return list(range(begin, commit + 1))


def watch_reads(store: Store) -> FaultyConnection:
    """Count the statements of ``store``'s reading connection (none fail)."""
    connector = store.connector
    assert isinstance(connector, SqliteConnector)
    current = connector._reader
    real = current.real if isinstance(current, FaultyConnection) else current
    assert real is not None
    watched = FaultyConnection(real)
    connector._reader = watched  # type: ignore[assignment]
    return watched
