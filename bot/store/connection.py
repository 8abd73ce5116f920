"""What the store's SQL is written against: a typed connection, and a backend's connector.

A :class:`Connection` is the little of a driver connection the aggregates use: ``execute``
(awaited, or used with ``async with``) giving an :class:`Outcome` with ``fetchone``,
``fetchall`` and ``rowcount``; ``execute_fetchall``; ``executemany``. A :class:`Connector`
owns a backend's driver connections (SQLite's two, PostgreSQL's pool), lends them as
:meth:`Connector.transaction` and :meth:`Connector.reading`, and knows the few words where
the two dialects differ. The backends are :mod:`bot.store.sqlite` and
:mod:`bot.store.postgres`.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Generator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, ClassVar, Protocol

from bot.watch import Watch, unwatched

#: One row as a statement gives it: its columns in the SELECT's order.
Row = Sequence[Any]
#: The values a statement's ``?`` marks take, in order.
Params = Sequence[Any]


class Outcome(Protocol):
    """What a statement gave: its rows and how many it changed."""

    @property
    def rowcount(self) -> int: ...

    async def fetchone(self) -> Row | None: ...

    async def fetchall(self) -> Sequence[Row]: ...


class Statement(Protocol):
    """``Connection.execute(...)``: awaited, or used with ``async with``."""

    def __await__(self) -> Generator[Any, None, Outcome]: ...

    async def __aenter__(self) -> Outcome: ...

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        traceback: TracebackType | None) -> None: ...


class Connection(Protocol):
    """A connection lent by a :class:`Connector` (``?`` marks the parameters)."""

    def execute(self, sql: str, params: Params = ()) -> Statement: ...

    async def execute_fetchall(self, sql: str, params: Params = ()) -> Sequence[Row]: ...

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None: ...

    async def finish(self, sql: str, params: Params = ()) -> Sequence[Row]:
        """A write transaction's last statement (its rows), sent with its commit where
        the backend can: nothing may follow it."""
        ...


class Aggregate:
    """One part of the store (its games, its people, ...) over the backend's connector.
    A write that spans parts is still one transaction: their helpers take the caller's
    connection."""

    def __init__(self, connector: Connector) -> None:
        self.connector = connector


class Connector(ABC):
    """A backend's connections to the game database and its dialect."""

    #: How the backend's SQL says "the larger of two values", and what it adds to a
    #: SELECT to lock its rows, skipping rows others hold.
    greatest: ClassVar[str] = "MAX"
    skip_locked: ClassVar[str] = ""
    #: The driver's exceptions for a broken unique key or constraint.
    integrity_errors: ClassVar[tuple[type[BaseException], ...]] = ()
    #: Where the database is: a file path or a PostgreSQL URL (its password left out).
    path: str
    #: Times every read and write (``store``) for a tool that measures them (bot/watch.py).
    watch: Watch = staticmethod(unwatched)

    @classmethod
    @abstractmethod
    async def open(cls, target: str | os.PathLike[str]) -> Connector:
        """Connect to the database ``target`` and bring its schema up to date."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction: yields a connection, commits at the end, rolls back on
        any error (raising :class:`~bot.store.NotSavedError` for a database failure)."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads, which never wait for a writer."""

    async def alone(self, sql: str, params: Params) -> int:
        """Write one statement, a transaction by itself; how many rows it changed."""
        async with self.transaction() as db:
            return (await db.execute(sql, params)).rowcount

    @abstractmethod
    async def close(self) -> None:
        """Close the connections once the writes under way are done; again does nothing."""

    @abstractmethod
    async def schema_version(self) -> int:
        """How many migrations this database has run."""

    @abstractmethod
    async def check_writable(self) -> None:
        """Take the write lock and let it go, writing nothing; raises
        :class:`~bot.store.StoreError` when the database cannot be written now."""
