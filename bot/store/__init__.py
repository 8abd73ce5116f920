"""Persistent storage for games, on SQLite (the default) or PostgreSQL.

One row in ``games`` per table (lobby, running game or finished game), the full action
log in ``actions`` so any game can be replayed from its seed, one row per seat of every
finished game in ``results`` for ``stats``, and the ``outbox`` of announcements (pings,
reminders) written in the same transaction as the change they announce, until a sender
has delivered them.

``await Store.open(target)`` opens a SQLite file or, for a ``postgresql://`` URL, a
PostgreSQL database; both backends run the same queries (:mod:`bot.store.base`) and the
same migrations (:mod:`bot.store.migrations`). See docs/reliability.md and docs/scale.md.
"""

from bot.store.base import Store, is_postgres
from bot.store.migrations import MIGRATIONS, Migration
from bot.store.postgres import PostgresStore
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
from bot.store.sqlite import SqliteStore

Store.backends.update(sqlite=SqliteStore, postgresql=PostgresStore)

__all__ = [
    "MIGRATIONS",
    "ActionRecord",
    "AlreadyDoneError",
    "Announcement",
    "ChannelBusyError",
    "ClockWrite",
    "ConflictError",
    "CorruptRowError",
    "FinishRecord",
    "GameRecord",
    "Migration",
    "MoveRecord",
    "NotFoundError",
    "NotSavedError",
    "OpeningRecord",
    "OutboxRecord",
    "PostgresStore",
    "Reach",
    "RematchTakenError",
    "Retold",
    "SeatRecord",
    "SqliteStore",
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
