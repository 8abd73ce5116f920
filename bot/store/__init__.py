"""Persistent storage for games, on SQLite (the default) or PostgreSQL.

One row in ``games`` per table (lobby, running game or finished game), the full action
log in ``actions`` so any game can be replayed from its seed, one row per seat of every
finished game in ``results`` for ``stats``, and the ``outbox`` of announcements (pings,
reminders) written in the same transaction as the change they announce, until a sender
has delivered them.

``await Store.open(target)`` opens a SQLite file or, for a ``postgresql://`` URL, a
PostgreSQL database, and holds the aggregates (:mod:`bot.store.base`); both backends'
connectors (:mod:`bot.store.connection`) run the same queries and the same migrations
(:mod:`bot.store.migrations`). See docs/reliability.md and docs/scale.md.
"""

from bot.store.base import Store, is_postgres
from bot.store.connection import Connection, Connector
from bot.store.migrations import MIGRATIONS, Migration
from bot.store.postgres import PostgresConnector
from bot.store.records import (
    ActionRecord,
    AlreadyDoneError,
    Announcement,
    ChannelBusyError,
    ClockWrite,
    ConflictError,
    CorruptRowError,
    FinishRecord,
    GameRecord,
    Lease,
    MoveRecord,
    NotFoundError,
    NotSavedError,
    OpeningRecord,
    OutboxRecord,
    Reach,
    RematchTakenError,
    Retold,
    SeatRecord,
    StatLine,
    StoreBusyError,
    StoreClosedError,
    StoreError,
    WebTarget,
    WrongStatusError,
    channel_lane,
)
from bot.store.sqlite import SqliteConnector

Store.backends.update(sqlite=SqliteConnector, postgresql=PostgresConnector)

__all__ = [
    "MIGRATIONS",
    "ActionRecord",
    "AlreadyDoneError",
    "Announcement",
    "ChannelBusyError",
    "ClockWrite",
    "ConflictError",
    "Connection",
    "Connector",
    "CorruptRowError",
    "FinishRecord",
    "GameRecord",
    "Lease",
    "Migration",
    "MoveRecord",
    "NotFoundError",
    "NotSavedError",
    "OpeningRecord",
    "OutboxRecord",
    "PostgresConnector",
    "Reach",
    "RematchTakenError",
    "Retold",
    "SeatRecord",
    "SqliteConnector",
    "StatLine",
    "Store",
    "StoreBusyError",
    "StoreClosedError",
    "StoreError",
    "WebTarget",
    "WrongStatusError",
    "channel_lane",
    "is_postgres",
]
