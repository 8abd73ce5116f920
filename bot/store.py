"""Persistent storage for games: SQLite through aiosqlite.

One row in ``games`` per table (lobby, running game or finished game), the full
action log in ``actions`` so any game can be replayed from its seed, one row
per seat of every finished game in ``results`` for ``/stats``, and the
``outbox`` of announcements (pings, reminders) written in the same transaction
as the change they announce, until a sender has delivered them.

Concurrency rules:

* Every write runs in an explicit ``BEGIN IMMEDIATE`` transaction, so writers
  serialise across connections and processes (WAL mode lets readers carry on).
* ``games.version`` goes up on every write to a game row except the two message
  ids and reminder bookkeeping. A writer passes the version it read; if the row
  moved on it gets :class:`ConflictError` and nothing is written.
* At most one lobby or active game per channel, enforced by a partial unique index.
* Reads go through a second, read-only connection, so they never queue behind a
  write that waits for another process's lock.
* A write that fails at any statement, COMMIT included, is rolled back whole and
  raises :class:`NotSavedError`; the store stays usable (see docs/reliability.md).

Times are UNIX seconds supplied by the caller; the store never reads the clock.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from bot.ratings import Rating, rate

log = logging.getLogger(__name__)

#: SQLite stores signed 64-bit integers.
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1
_BUSY_TIMEOUT_MS = 10_000
_OPEN = ("lobby", "active")

# --------------------------------------------------------------------------- errors


class StoreError(Exception):
    """Base class of storage errors; ``str()`` is safe to show to players."""


class ChannelBusyError(StoreError):
    """The channel already has a lobby or an active game."""

    def __init__(self, message: str = "This channel already has a game. Finish it or use "
                                      "/game abort first.") -> None:
        super().__init__(message)


class ConflictError(StoreError):
    """The row moved on since the caller read it: someone else wrote first."""

    def __init__(self, message: str = "That move was already made by someone else; the board "
                                      "has moved on.") -> None:
        super().__init__(message)


class NotFoundError(StoreError):
    """The game (or the thing asked for in it) does not exist."""


class WrongStatusError(StoreError):
    """The operation does not fit the game's status, e.g. a move in a finished game."""


class NotSavedError(StoreError):
    """A write failed inside the database (disk full, I/O error) and was rolled back."""

    def __init__(self, message: str = "The game database could not save that (the disk may be "
                                      "full or failing), so it was NOT saved and nothing "
                                      "changed. Try again in a moment.") -> None:
        super().__init__(message)


class CorruptRowError(StoreError):
    """A stored row cannot be read back; ``game_id`` says which game, so it can be aborted."""

    def __init__(self, game_id: int, what: str) -> None:
        super().__init__(f"The saved game #{game_id} is damaged ({what}) and cannot be loaded. "
                         f"Use /game abort to clear it and start a new one.")
        self.game_id = game_id


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class SeatRecord:
    """A seat at the table: a Discord user (``user_id``) or an AI (``ai``, no user)."""

    seat: int
    user_id: int | None
    name: str
    ai: bool
    #: An AI plays this player's seat until they are back (see ``/game back``).
    standing_in: bool = False

    @property
    def machine(self) -> bool:
        """Whether an AI plays this seat now (an AI seat, or one standing in)."""
        return self.ai or self.standing_in


@dataclass(frozen=True)
class GameRecord:
    """One row of ``games`` with its seats, as read at ``version``."""

    id: int
    channel_id: int
    guild_id: int | None
    game: str
    status: str  # 'lobby' | 'active' | 'finished' | 'aborted'
    creator_id: int
    options: dict[str, Any]
    settings: dict[str, Any]
    seed: int | None
    state_json: str | None  # engine state text, None in the lobby; never parsed here
    version: int
    seats: tuple[SeatRecord, ...]
    created_at: float
    updated_at: float
    turn_started_at: float | None
    reminders_sent: int
    next_reminder_at: float | None
    lobby_message_id: int | None
    board_message_id: int | None
    result_json: str | None


@dataclass(frozen=True)
class ActionRecord:
    """One logged action: ``n`` counts from 1 within its game.

    ``notation`` is what was really played (the replay needs it); ``public`` is how
    everybody else saw it ("" in rows logged before hidden actions existed: then the
    notation itself was public). ``narration`` is public; ``private`` holds the lines
    only some seats may read, by seat. ``user_id`` is None when an AI chose the action.
    """

    n: int
    seat: int
    user_id: int | None
    notation: str
    narration: str
    at: float
    undoable: bool
    public: str = ""
    private: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    #: The game's episode key after this action (see ``Game.episode``), if any.
    episode: str | None = None
    #: Whether the state before this action was kept, so undo can restore it.
    snapshot: bool = False

    @property
    def shown(self) -> str:
        """The action as everybody may see it."""
        return self.public or self.notation

    @property
    def by_ai(self) -> bool:
        return self.user_id is None

    def lines_for(self, seat: int | None) -> tuple[str, ...]:
        """The narration ``seat`` may read: the public lines, then its private ones."""
        public = (self.narration,) if self.narration else ()
        return public + (tuple(self.private.get(seat, ())) if seat is not None else ())


@dataclass(frozen=True)
class MoveRecord:
    """An action to log with :meth:`Store.commit_moves` (``user_id`` None for an AI).

    ``before`` is the state text before the action, kept so that undo can restore it
    (None for actions that cannot or need not be undone).
    """

    seat: int
    user_id: int | None
    notation: str
    narration: str
    undoable: bool
    public: str = ""
    private: Mapping[int, Sequence[str]] = field(default_factory=dict)
    before: str | None = None
    episode: str | None = None


@dataclass(frozen=True)
class FinishRecord:
    """How a game ended: the result text and ``(user_id, seat, place, won)`` per seat."""

    result_json: str
    placements: Sequence[tuple[int | None, int, int, bool]]


@dataclass(frozen=True)
class Announcement:
    """A message to post in a channel because of a committed change (see the outbox).

    ``mentions`` are the only users it may ping; ``kind`` says what it is
    ("turn", "reminder") for logs and metrics.
    """

    channel_id: int
    guild_id: int | None
    game_id: int | None
    kind: str
    content: str
    mentions: tuple[int, ...] = ()
    #: When to post it (UNIX seconds), if not at once: a ping waits for a player away.
    due_at: float | None = None


@dataclass(frozen=True)
class OutboxRecord:
    """A queued announcement, as claimed by a sender.

    ``nonce`` goes with every attempt to post it, so Discord creates it only once;
    ``attempts`` counts the claims so far (this one included).
    """

    id: int
    announcement: Announcement
    nonce: str
    created_at: float
    attempts: int


@dataclass(frozen=True)
class StatLine:
    """A player's record in one game: finished games played and won."""

    game: str
    played: int
    won: int
    #: The player's skill rating in this game here, once a game of theirs was rated
    #: (left out of comparisons: a line compares by its counts).
    rating: Rating | None = field(default=None, compare=False)


# --------------------------------------------------------------------------- schema

#: The user ids seated in ``NEW.seats`` (a damaged value reads as nobody; AI seats have none).
_SEATED = ("SELECT json_extract(CASE WHEN j.type = 'object' THEN j.value END, '$.user_id') "
           "AS u FROM json_each(CASE WHEN json_valid(NEW.seats) AND json_type(NEW.seats) = "
           "'array' THEN NEW.seats ELSE '[]' END) AS j WHERE u IS NOT NULL")
#: A trigger body keeping ``seat_users`` in step with ``NEW.seats``.
_SYNC_SEAT_USERS = (
    f"INSERT OR IGNORE INTO seat_users (user_id, game_id) SELECT u, NEW.id FROM ({_SEATED});\n"
    f"UPDATE seat_users SET gone = (user_id NOT IN ({_SEATED})) WHERE game_id = NEW.id;\n"
    "DELETE FROM seat_users WHERE game_id = NEW.id AND gone = 1 AND NEW.status = 'lobby';")

#: Each entry is one migration script; ``PRAGMA user_version`` counts how many ran.
#: Append new scripts, never edit one that has shipped.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE games (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id       INTEGER NOT NULL,
        guild_id         INTEGER,
        game             TEXT    NOT NULL,
        status           TEXT    NOT NULL
                         CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
        creator_id       INTEGER NOT NULL,
        options          TEXT    NOT NULL DEFAULT '{}',
        settings         TEXT    NOT NULL DEFAULT '{}',
        seats            TEXT    NOT NULL DEFAULT '[]',
        seed             INTEGER,
        state_json       TEXT,
        version          INTEGER NOT NULL DEFAULT 1,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL,
        turn_started_at  REAL,
        reminders_sent   INTEGER NOT NULL DEFAULT 0,
        next_reminder_at REAL,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        result_json      TEXT,
        finished_at      REAL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX games_reminders_due
        ON games (next_reminder_at) WHERE status = 'active' AND next_reminder_at IS NOT NULL;
    CREATE TABLE actions (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        n         INTEGER NOT NULL,
        seat      INTEGER NOT NULL,
        user_id   INTEGER,
        notation  TEXT    NOT NULL,
        narration TEXT    NOT NULL,
        at        REAL    NOT NULL,
        undoable  INTEGER NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE results (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        game        TEXT    NOT NULL,
        user_id     INTEGER,
        place       INTEGER NOT NULL,
        won         INTEGER NOT NULL,
        finished_at REAL    NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_by_player ON results (guild_id, user_id, game);
    """,
    # 2: hidden actions (their public form and private narration per seat), undo by
    # snapshot instead of re-running the rules, and episodes narrated in one message.
    """
    ALTER TABLE actions ADD COLUMN public TEXT NOT NULL DEFAULT '';
    ALTER TABLE actions ADD COLUMN private TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE actions ADD COLUMN before TEXT;
    ALTER TABLE actions ADD COLUMN episode TEXT;
    """,
    # 3: the announcement outbox. A row is written with the change it announces and
    # stays 'pending' until a sender posts it ('delivered') or gives it up ('dropped').
    # A sender claims the oldest pending row of a channel with a lease (leased_until),
    # so rows of one channel go out one at a time, in order.
    """
    CREATE TABLE outbox (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id   INTEGER NOT NULL,
        guild_id     INTEGER,
        game_id      INTEGER,
        kind         TEXT    NOT NULL,
        content      TEXT    NOT NULL,
        mentions     TEXT    NOT NULL DEFAULT '[]',
        nonce        TEXT    NOT NULL,
        status       TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'delivered', 'dropped')),
        created_at   REAL    NOT NULL,
        due_at       REAL    NOT NULL,
        attempts     INTEGER NOT NULL DEFAULT 0,
        leased_until REAL,
        delivered_at REAL,
        message_id   INTEGER,
        last_error   TEXT
    );
    CREATE INDEX outbox_pending ON outbox (channel_id, id) WHERE status = 'pending';
    """,
    # 4: who sits where, by user, so /games finds a player's games without reading every
    # row. Triggers keep it in step with games.seats whoever writes them; a user who
    # leaves a running game stays listed with gone = 1 (a lobby forgets them).
    f"""
    CREATE TABLE seat_users (
        user_id INTEGER NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        gone    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, game_id)
    );
    CREATE TRIGGER seat_users_insert AFTER INSERT ON games BEGIN
        {_SYNC_SEAT_USERS}
    END;
    CREATE TRIGGER seat_users_update AFTER UPDATE OF seats ON games BEGIN
        {_SYNC_SEAT_USERS}
    END;
    -- Index the games that existed before: touching seats runs the trigger.
    UPDATE games SET seats = seats;
    """,
    # 5: skill ratings per server (0 outside one), game and player (see bot/ratings.py),
    # written in the transaction that finishes a game.
    """
    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    """,
    # 6: quiet hours per player (see bot/away.py): reminders wait until they end.
    """
    CREATE TABLE quiet_hours (
        user_id    INTEGER PRIMARY KEY,
        timezone   TEXT    NOT NULL,
        start_hour INTEGER NOT NULL,
        end_hour   INTEGER NOT NULL,
        updated_at REAL    NOT NULL
    );
    """,
    # 7: vacations per player (see bot/away.py): no ping, reminder or AI take-over
    # reaches them from ``starts`` to ``ends``; a yearly allowance is counted from them.
    """
    CREATE TABLE vacations (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id    INTEGER NOT NULL,
        starts     REAL    NOT NULL,
        ends       REAL    NOT NULL CHECK (ends > starts),
        created_at REAL    NOT NULL
    );
    CREATE INDEX vacations_by_user ON vacations (user_id, ends);
    """,
    # 8: how each player is reached (see /notify): a mention in the channel (the
    # default, no row), a direct message as well, or quietly (no mention); dm_closed
    # notes that Discord refused a DM, so the bot stops trying until they ask again.
    """
    CREATE TABLE notify (
        user_id    INTEGER PRIMARY KEY,
        mode       TEXT    NOT NULL CHECK (mode IN ('channel', 'dm', 'quiet')),
        dm_closed  INTEGER NOT NULL DEFAULT 0,
        updated_at REAL    NOT NULL
    );
    """,
]


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (``executescript`` would commit early)."""
    out: list[str] = []
    buffer = ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \t\r\n;"):
                out.append(buffer.strip())
            buffer = ""
    if buffer.strip(" \t\r\n;"):
        raise StoreError("A database migration script is incomplete.")
    return out


# --------------------------------------------------------------------------- encoding

_GAME_COLUMNS = (
    "id, channel_id, guild_id, game, status, creator_id, options, settings, seats, seed, "
    "state_json, version, created_at, updated_at, turn_started_at, reminders_sent, "
    "next_reminder_at, lobby_message_id, board_message_id, result_json"
)


def _dump_object(value: Mapping[str, Any], what: str) -> str:
    try:
        return json.dumps(dict(value), sort_keys=True)
    except (TypeError, ValueError):
        raise StoreError(f"The game {what} could not be saved: they must be plain "
                         f"text, numbers, true/false, lists or mappings.") from None


def _dump_seats(seats: Sequence[SeatRecord]) -> str:
    numbers = [s.seat for s in seats]
    if len(set(numbers)) != len(numbers):
        raise StoreError("Two players cannot share one seat.")
    return json.dumps([{"seat": int(s.seat), "user_id": s.user_id, "name": str(s.name),
                        "ai": bool(s.ai), **({"standing_in": True} if s.standing_in else {})}
                       for s in seats])


def _load_object(game_id: int, text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        raise CorruptRowError(game_id, f"unreadable {what}") from None
    if not isinstance(value, dict):
        raise CorruptRowError(game_id, f"{what} are not a mapping")
    return value


def _load_seats(game_id: int, text: str) -> tuple[SeatRecord, ...]:
    try:
        raw = json.loads(text)
        seats = tuple(
            SeatRecord(int(s["seat"]), None if s["user_id"] is None else int(s["user_id"]),
                       str(s["name"]), bool(s["ai"]), bool(s.get("standing_in", False)))
            for s in raw)
    except (TypeError, ValueError, KeyError):
        raise CorruptRowError(game_id, "unreadable seats") from None
    return seats


def _dump_private(private: Mapping[int, Sequence[str]]) -> str:
    return json.dumps({str(int(seat)): [str(line) for line in lines]
                       for seat, lines in private.items() if lines}, sort_keys=True)


def _load_private(game_id: int, text: str | None) -> dict[int, tuple[str, ...]]:
    try:
        raw = json.loads(text or "{}")
        return {int(seat): tuple(str(line) for line in lines) for seat, lines in raw.items()}
    except (TypeError, ValueError, AttributeError):
        raise CorruptRowError(game_id, "unreadable private narration") from None


def _record(row: sqlite3.Row | tuple[Any, ...]) -> GameRecord:
    (game_id, channel_id, guild_id, game, status, creator_id, options, settings, seats, seed,
     state_json, version, created_at, updated_at, turn_started_at, reminders_sent,
     next_reminder_at, lobby_message_id, board_message_id, result_json) = row
    return GameRecord(
        id=game_id, channel_id=channel_id, guild_id=guild_id, game=game, status=status,
        creator_id=creator_id, options=_load_object(game_id, options, "options"),
        settings=_load_object(game_id, settings, "settings"), seed=seed,
        state_json=state_json, version=version, seats=_load_seats(game_id, seats),
        created_at=created_at, updated_at=updated_at, turn_started_at=turn_started_at,
        reminders_sent=reminders_sent, next_reminder_at=next_reminder_at,
        lobby_message_id=lobby_message_id, board_message_id=board_message_id,
        result_json=result_json)


def _readable(rows: Sequence[Any], warning: str) -> list[GameRecord]:
    """The records of ``rows`` that can be read; each damaged one is logged with
    ``warning`` (game id, error) and left out, so it cannot hold up the others."""
    records = []
    for row in rows:
        try:
            records.append(_record(row))
        except CorruptRowError as exc:
            log.warning(warning, exc.game_id, exc)
    return records


def _check_int(value: int | None, what: str) -> int | None:
    if value is not None and not _INT_MIN <= int(value) <= _INT_MAX:
        raise StoreError(f"The {what} {value} is too large to save.")
    return value


def _status_message(status: str, doing: str) -> str:
    if status == "lobby":
        return f"This game has not started yet, so you cannot {doing} now."
    if status == "active":
        return f"This game has already started, so you cannot {doing} now."
    if status == "finished":
        return f"This game is over, so you cannot {doing} now."
    return f"This game was ended early, so you cannot {doing} now."


# --------------------------------------------------------------------------- the store


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


class Store:
    """Async access to the game database; create with :meth:`Store.open`."""

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
    async def open(cls, path: str | os.PathLike[str]) -> Store:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        name = os.fspath(path)
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

    async def open_game_counts(self) -> dict[tuple[str, str], int]:
        """How many lobbies and active games there are, keyed by (game, status)."""
        async with self._reading() as db, db.execute(
                "SELECT game, status, COUNT(*) FROM games WHERE status IN ('lobby', 'active') "
                "GROUP BY game, status") as cursor:
            rows = await cursor.fetchall()
        return {(str(game), str(status)): int(count) for game, status, count in rows}

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("The game store is closed.")
        return self._db

    async def _migrate(self) -> None:
        db = self._conn()
        for number, script in enumerate(MIGRATIONS, start=1):
            await self._begin()
            try:
                # Read inside the transaction: another process may have migrated meanwhile.
                if await self._user_version() >= number:
                    await db.execute("ROLLBACK")
                    continue
                for statement in _statements(script):
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
        async with self._lock:
            db = await self._begin()
            try:
                yield db
                await db.execute("COMMIT")
            except BaseException as exc:
                await self._roll_back(db)
                if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
                    log.error("a write to the game database failed and was rolled back: %s", exc)
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

    async def _fetch(self, game_id: int, db: aiosqlite.Connection | None = None) -> GameRecord:
        async with (db or self._conn()).execute(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise NotFoundError("That game no longer exists.")
        return _record(row)

    async def _raw(self, game_id: int) -> tuple[str, int] | None:
        async with self._conn().execute(
                "SELECT status, version FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else (row[0], row[1])

    async def _explain_miss(self, game_id: int, expected_version: int,
                            statuses: Sequence[str], doing: str) -> StoreError:
        """Why a guarded UPDATE matched no row: gone, moved on, or the wrong status."""
        raw = await self._raw(game_id)
        if raw is None:
            return NotFoundError("That game no longer exists.")
        status, version = raw
        if version != expected_version:
            return ConflictError()
        if status not in statuses:
            return WrongStatusError(_status_message(status, doing))
        return ConflictError()

    async def _guarded_update(self, game_id: int, expected_version: int,
                              statuses: Sequence[str], doing: str, assignments: str,
                              params: Sequence[Any]) -> None:
        """``UPDATE games`` at ``expected_version`` in one of ``statuses``, bumping the
        version; raises (inside the caller's transaction) if no row matched."""
        marks = ", ".join("?" for _ in statuses)
        cursor = await self._conn().execute(
            f"UPDATE games SET {assignments}, version = version + 1 "
            f"WHERE id = ? AND version = ? AND status IN ({marks})",
            (*params, game_id, expected_version, *statuses))
        if cursor.rowcount != 1:
            raise await self._explain_miss(game_id, expected_version, statuses, doing)

    async def _write(self, game_id: int, expected_version: int, statuses: Sequence[str],
                     doing: str, assignments: str, params: Sequence[Any]) -> GameRecord:
        """One guarded update in its own transaction; returns the new record."""
        async with self._transaction():
            await self._guarded_update(game_id, expected_version, statuses, doing,
                                       assignments, params)
            record = await self._fetch(game_id)
        return record

    # ----------------------------------------------------------------- reading

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The channel's lobby or active game, if any."""
        async with self._reading() as db, db.execute(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? "
                f"AND status IN ('lobby', 'active')", (channel_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _record(row)

    async def get_game(self, game_id: int) -> GameRecord:
        """The game ``game_id`` in any status; :class:`NotFoundError` if there is none."""
        async with self._reading() as db:
            return await self._fetch(game_id, db)

    async def games_in_channel(self, channel_id: int) -> list[GameRecord]:
        """Every game ever held in the channel, oldest first."""
        async with self._reading() as db, db.execute(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id",
                (channel_id,)) as cursor:
            rows = await cursor.fetchall()
        return [_record(row) for row in rows]

    async def past_games(self, channel_id: int, limit: int | None = None) -> list[GameRecord]:
        """The channel's games that were played and have ended (finished or aborted after
        the start), newest first; ``limit`` keeps the newest few."""
        query = (f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? "
                 "AND status IN ('finished', 'aborted') AND state_json IS NOT NULL "
                 "ORDER BY id DESC")
        params: list[Any] = [channel_id]
        if limit is not None:
            query += " LIMIT ?"
            params.append(max(0, int(limit)))
        async with self._lock, self._conn().execute(query, params) as cursor:
            rows = await cursor.fetchall()
        return [_record(row) for row in rows]

    async def actions(self, game_id: int, last: int | None = None, *,
                      after: int | None = None) -> list[ActionRecord]:
        """The game's action log in order; ``last=k`` gives only the final ``k``,
        ``after=n`` only the actions numbered above ``n``."""
        query = ("SELECT n, seat, user_id, notation, narration, at, undoable, public, private, "
                 "episode, before IS NOT NULL FROM actions WHERE game_id = ?")
        params: list[Any] = [game_id]
        if after is not None:
            query += " AND n > ?"
            params.append(int(after))
        query += " ORDER BY n DESC"
        if last is not None:
            query += " LIMIT ?"
            params.append(max(0, int(last)))
        async with self._reading() as db, db.execute(query, params) as cursor:
            rows = await cursor.fetchall()
        return [ActionRecord(n, seat, user_id, notation, narration, at, bool(undoable), public,
                             _load_private(game_id, private), episode, bool(snapshot))
                for (n, seat, user_id, notation, narration, at, undoable, public, private,
                     episode, snapshot) in reversed(rows)]

    async def snapshot(self, game_id: int, n: int) -> str | None:
        """The state text kept from before action ``n``, if one was kept."""
        async with self._reading() as db, db.execute(
                "SELECT before FROM actions WHERE game_id = ? AND n = ?",
                (game_id, n)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]

    async def games_of(self, user_id: int, *, finished_since: float) -> list[GameRecord]:
        """The active games ``user_id`` sits in, and the ones they sat in (or left) that
        finished at or after ``finished_since``, on every server, oldest first (damaged
        rows are skipped)."""
        async with self._reading() as db, db.execute(
                f"SELECT {', '.join('g.' + c for c in _GAME_COLUMNS.split(', '))} "
                f"FROM seat_users s JOIN games g ON g.id = s.game_id "
                f"WHERE s.user_id = ? AND ((g.status = 'active' AND s.gone = 0) "
                f"OR (g.status = 'finished' AND g.finished_at >= ?)) ORDER BY g.id",
                (user_id, finished_since)) as cursor:
            rows = await cursor.fetchall()
        return _readable(rows, "leaving damaged game %s out of /games: %s")

    async def stats(self, guild_id: int | None, user_id: int) -> list[StatLine]:
        """Finished games played and won by ``user_id`` in this server, per game."""
        async with self._reading() as db:
            # A game the player left before its end counts as played and lost.
            async with db.execute(
                    "SELECT game, COUNT(DISTINCT game_id), "
                    "COUNT(DISTINCT CASE WHEN won THEN game_id END) FROM ("
                    "SELECT game, game_id, won FROM results WHERE guild_id IS ? AND user_id = ? "
                    "UNION ALL SELECT g.game, g.id, 0 FROM seat_users s JOIN games g "
                    "ON g.id = s.game_id WHERE s.user_id = ? AND s.gone = 1 "
                    "AND g.status = 'finished' AND g.guild_id IS ?) "
                    "GROUP BY game ORDER BY game",
                    (guild_id, user_id, user_id, guild_id)) as cursor:
                rows = await cursor.fetchall()
            async with db.execute(
                    "SELECT game, mu, sigma, games FROM ratings WHERE guild_id = ? "
                    "AND user_id = ?", (guild_id or 0, user_id)) as cursor:
                rated = {game: Rating(mu, sigma, games)
                         for game, mu, sigma, games in await cursor.fetchall()}
        return [StatLine(game, played, won, rated.get(game)) for game, played, won in rows]

    # ----------------------------------------------------------------- lobby

    async def leaders(self, guild_id: int | None, game: str, limit: int = 10,
                      ) -> list[tuple[int, str, Rating]]:
        """The best-rated players of ``game`` in this server (``(user, name, rating)``, best
        shown rating first), each named as in the last game of theirs here."""
        async with self._reading() as db:
            async with db.execute(
                    "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND "
                    "game = ?", (guild_id or 0, game)) as cursor:
                rated = [(int(u), Rating(mu, sigma, n))
                         for u, mu, sigma, n in await cursor.fetchall()]
            rated.sort(key=lambda item: (-item[1].shown, item[0]))
            rated = rated[:limit]
            names: dict[int, str] = {}
            for user, _rating in rated:
                async with db.execute(
                        "SELECT g.seats FROM seat_users s JOIN games g ON g.id = s.game_id "
                        "WHERE s.user_id = ? AND g.guild_id IS ? ORDER BY g.id DESC LIMIT 1",
                        (user, guild_id)) as cursor:
                    row = await cursor.fetchone()
                try:
                    seats = _load_seats(0, row[0]) if row else ()
                except CorruptRowError:
                    seats = ()
                names[user] = next((s.name for s in seats if s.user_id == user), f"Player {user}")
        return [(user, names[user], rating) for user, rating in rated]

    async def create_lobby(self, *, channel_id: int, guild_id: int | None, game: str,
                           creator_id: int, options: Mapping[str, Any],
                           settings: Mapping[str, Any], now: float) -> GameRecord:
        """Open a lobby (no seats yet) in the channel; :class:`ChannelBusyError` if taken."""
        options_text = _dump_object(options, "options")
        settings_text = _dump_object(settings, "settings")
        _check_int(channel_id, "channel id")
        _check_int(guild_id, "server id")
        _check_int(creator_id, "user id")
        try:
            async with self._transaction() as db:
                cursor = await db.execute(
                    "INSERT INTO games (channel_id, guild_id, game, status, creator_id, options, "
                    "settings, seats, version, created_at, updated_at) "
                    "VALUES (?, ?, ?, 'lobby', ?, ?, ?, '[]', 1, ?, ?)",
                    (channel_id, guild_id, game, creator_id, options_text, settings_text,
                     now, now))
                game_id = cursor.lastrowid
                assert game_id is not None
                record = await self._fetch(game_id)
        except sqlite3.IntegrityError:
            raise ChannelBusyError() from None
        return record

    async def set_seats(self, game_id: int, expected_version: int, seats: Sequence[SeatRecord],
                        now: float, *, creator_id: int | None = None) -> GameRecord:
        """Replace all seats of a lobby (join, leave, add an AI).

        ``creator_id`` hands the lobby to another player (its creator left).
        """
        if creator_id is None:
            return await self._write(game_id, expected_version, ("lobby",), "change seats",
                                     "seats = ?, updated_at = ?", (_dump_seats(seats), now))
        _check_int(creator_id, "user id")
        return await self._write(game_id, expected_version, ("lobby",), "change seats",
                                 "seats = ?, updated_at = ?, creator_id = ?",
                                 (_dump_seats(seats), now, creator_id))

    async def _set_message(self, game_id: int, column: str, message_id: int | None) -> None:
        _check_int(message_id, "message id")
        async with self._transaction() as db:
            cursor = await db.execute(f"UPDATE games SET {column} = ? WHERE id = ?",
                                      (message_id, game_id))
            if cursor.rowcount != 1:
                raise NotFoundError("That game no longer exists.")

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the lobby message; does not change the version."""
        await self._set_message(game_id, "lobby_message_id", message_id)

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the latest board message; does not change the version."""
        await self._set_message(game_id, "board_message_id", message_id)

    async def start(self, game_id: int, expected_version: int, *, seed: int | None,
                    state_json: str, seats: Sequence[SeatRecord], now: float,
                    next_reminder_at: float | None,
                    announce: Sequence[Announcement] = ()) -> GameRecord:
        """Turn the lobby into an active game with its first state and final seats
        (queuing ``announce`` in the outbox in the same transaction)."""
        _check_int(seed, "seed")
        async with self._transaction():
            await self._guarded_update(
                game_id, expected_version, ("lobby",), "start",
                "status = 'active', seed = ?, state_json = ?, seats = ?, updated_at = ?, "
                "turn_started_at = ?, reminders_sent = 0, next_reminder_at = ?",
                (seed, state_json, _dump_seats(seats), now, now, next_reminder_at))
            await self._queue(announce, now)
            record = await self._fetch(game_id)
        return record

    # ----------------------------------------------------------------- moves

    async def commit_move(self, game_id: int, expected_version: int, *, state_json: str,
                          seat: int, user_id: int | None, notation: str, narration: str,
                          undoable: bool, now: float, turn_changed: bool,
                          next_reminder_at: float | None,
                          finish: FinishRecord | None = None, public: str = "",
                          before: str | None = None) -> GameRecord:
        """Log one action and store the new state in one transaction."""
        move = MoveRecord(seat, user_id, notation, narration, undoable, public, before=before)
        return await self.commit_moves(game_id, expected_version, (move,),
                                       state_json=state_json, now=now, turn_changed=turn_changed,
                                       next_reminder_at=next_reminder_at, finish=finish)

    async def commit_moves(self, game_id: int, expected_version: int, moves: Sequence[MoveRecord],
                           *, state_json: str, now: float, turn_changed: bool,
                           next_reminder_at: float | None,
                           finish: FinishRecord | None = None,
                           seats: Sequence[SeatRecord] | None = None,
                           announce: Sequence[Announcement] = ()) -> GameRecord:
        """Log several actions (a move and the AI replies) and the final state at once.

        Raises :class:`ConflictError`, writing nothing, unless the game is still active
        at ``expected_version``. With ``turn_changed`` the turn clock restarts and the
        reminders are rescheduled to ``next_reminder_at``; otherwise they stay as they
        were. ``finish`` ends the game in the same transaction (see :meth:`finish`);
        ``seats`` replaces every seat in it too (a seat handed to the AI and its reply),
        and ``announce`` queues its announcements in the outbox.
        """
        if not moves:
            raise StoreError("There is no move to save.")
        assignments = "state_json = ?, updated_at = ?"
        params: list[Any] = [state_json, now]
        if seats is not None:
            assignments += ", seats = ?"
            params.append(_dump_seats(seats))
        if turn_changed:
            assignments += ", turn_started_at = ?, reminders_sent = 0, next_reminder_at = ?"
            params += [now, next_reminder_at]
        async with self._transaction() as db:
            await self._guarded_update(game_id, expected_version, ("active",), "play",
                                       assignments, params)
            await db.executemany(
                "INSERT INTO actions (game_id, n, seat, user_id, notation, narration, at, "
                "undoable, public, private, before, episode) VALUES (?, (SELECT "
                "COALESCE(MAX(n), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?, ?, ?, ?, "
                "?, ?, ?, ?)",
                [(game_id, game_id, m.seat, m.user_id, m.notation, m.narration, now,
                  int(bool(m.undoable)), m.public, _dump_private(m.private), m.before,
                  m.episode) for m in moves])
            if finish is not None:
                await self._finish_in_transaction(game_id, state_json, finish, now)
            await self._queue(announce, now)
            record = await self._fetch(game_id)
        return record

    async def undo_last(self, game_id: int, expected_version: int, *, state_json: str,
                        now: float) -> GameRecord:
        """Delete the last action and store ``state_json`` as the state, atomically.

        The turn clock and reminder schedule are left as they were.
        """
        async with self._transaction() as db:
            await self._guarded_update(game_id, expected_version, ("active",), "undo",
                                       "state_json = ?, updated_at = ?", (state_json, now))
            cursor = await db.execute(
                "DELETE FROM actions WHERE game_id = ? AND n = "
                "(SELECT MAX(n) FROM actions WHERE game_id = ?)", (game_id, game_id))
            if cursor.rowcount != 1:
                raise NotFoundError("There is nothing to undo yet.")
            record = await self._fetch(game_id)
        return record

    async def undo_to(self, game_id: int, expected_version: int, *, n: int, state_json: str,
                      now: float) -> GameRecord:
        """Delete action ``n`` and every later one, storing ``state_json`` (the state
        before ``n``), atomically. The turn clock and reminders are left as they were."""
        async with self._transaction() as db:
            await self._guarded_update(game_id, expected_version, ("active",), "undo",
                                       "state_json = ?, updated_at = ?", (state_json, now))
            cursor = await db.execute("DELETE FROM actions WHERE game_id = ? AND n >= ?",
                                      (game_id, int(n)))
            if cursor.rowcount < 1:
                raise NotFoundError("There is nothing to undo yet.")
            record = await self._fetch(game_id)
        return record

    async def replace_seat(self, game_id: int, expected_version: int, seat: SeatRecord,
                           now: float) -> GameRecord:
        """Put ``seat`` in place of the seat with the same number (e.g. a human hands over
        to an AI); allowed in a lobby or an active game."""
        return await self.replace_seats(game_id, expected_version, (seat,), now)

    async def replace_seats(self, game_id: int, expected_version: int,
                            seats: Sequence[SeatRecord], now: float) -> GameRecord:
        """Put each of ``seats`` in place of the seat with the same number, at once;
        allowed in a lobby or an active game."""
        async with self._transaction():
            current = await self._fetch(game_id)
            if current.version != expected_version:
                raise ConflictError()
            if current.status not in _OPEN:
                raise WrongStatusError(_status_message(current.status, "change seats"))
            numbers = {s.seat for s in current.seats}
            for seat in seats:
                if seat.seat not in numbers:
                    raise NotFoundError(f"This game has no seat {seat.seat + 1}.")
            by_number = {s.seat: s for s in seats}
            merged = [by_number.get(s.seat, s) for s in current.seats]
            await self._guarded_update(game_id, expected_version, _OPEN, "change seats",
                                       "seats = ?, updated_at = ?", (_dump_seats(merged), now))
            record = await self._fetch(game_id)
        return record

    # ----------------------------------------------------------------- the end

    async def _finish_in_transaction(self, game_id: int, state_json: str, finish: FinishRecord,
                                     now: float) -> None:
        """Mark the (already version-checked) game finished and record its placements."""
        seats = [p[1] for p in finish.placements]
        if len(set(seats)) != len(seats):
            raise StoreError("A result cannot place the same seat twice.")
        db = self._conn()
        await db.execute(
            "UPDATE games SET status = 'finished', state_json = ?, result_json = ?, "
            "finished_at = ?, updated_at = ?, next_reminder_at = NULL WHERE id = ?",
            (state_json, finish.result_json, now, now, game_id))
        # Nothing can be undone any more: the snapshots kept for undo may go.
        await db.execute("UPDATE actions SET before = NULL WHERE game_id = ?", (game_id,))
        await db.executemany(
            "INSERT INTO results (game_id, seat, guild_id, channel_id, game, user_id, place, won, "
            "finished_at) SELECT id, ?, guild_id, channel_id, game, ?, ?, ?, ? FROM games "
            "WHERE id = ?",
            [(seat, user_id, place, int(bool(won)), now, game_id)
             for user_id, seat, place, won in finish.placements])
        await self._rate_in_transaction(game_id, now)

    async def _rate_in_transaction(self, game_id: int, now: float) -> None:
        """Update the ratings of the finished game's human players, inside the caller's
        transaction: each seated player at their place, and every player who left it
        before the end (their seat went to an AI) below everyone, as a loss for them
        only. AI seats are not rated; a game with fewer than two rated players rates
        nobody."""
        db = self._conn()
        async with db.execute(
                "SELECT COALESCE(guild_id, 0), game FROM games WHERE id = ?",
                (game_id,)) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        guild, slug = row
        async with db.execute(
                "SELECT user_id, MIN(place) FROM results WHERE game_id = ? "
                "AND user_id IS NOT NULL GROUP BY user_id", (game_id,)) as cursor:
            placed = {int(user): int(place) for user, place in await cursor.fetchall()}
        async with db.execute(
                "SELECT COUNT(*) FROM results WHERE game_id = ?", (game_id,)) as cursor:
            seats = await cursor.fetchone()
        last = int(seats[0]) if seats else 0
        async with db.execute(
                "SELECT user_id FROM seat_users WHERE game_id = ? AND gone = 1",
                (game_id,)) as cursor:
            for (user,) in await cursor.fetchall():
                placed.setdefault(int(user), last + 1)
        if len(placed) < 2:
            return
        users = sorted(placed)
        marks = ", ".join("?" for _ in users)
        async with db.execute(
                f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? "
                f"AND game = ? AND user_id IN ({marks})", (guild, slug, *users)) as cursor:
            known = {int(u): Rating(mu, sigma, games)
                     for u, mu, sigma, games in await cursor.fetchall()}
        try:
            new = rate([(known.get(u, Rating()), placed[u]) for u in users])
        except ImportError:
            # A missing dependency must not cost the game its ending: it is saved unrated.
            log.error("openskill is not installed: game %s finished without rating", game_id)
            return
        await db.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE "
            "SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
            "updated_at = excluded.updated_at",
            [(guild, slug, u, r.mu, r.sigma, r.games, now) for u, r in zip(users, new,
                                                                          strict=True)])

    async def finish(self, game_id: int, expected_version: int, *, state_json: str,
                     result_json: str,
                     placements: Sequence[tuple[int | None, int, int, bool]],
                     now: float, seats: Sequence[SeatRecord] | None = None) -> GameRecord:
        """End an active game: store the result and one ``results`` row per placement
        ``(user_id, seat, place, won)``; ``seats`` replaces every seat at the same time."""
        assignments = "updated_at = ?"
        params: list[Any] = [now]
        if seats is not None:
            assignments += ", seats = ?"
            params.append(_dump_seats(seats))
        async with self._transaction():
            await self._guarded_update(game_id, expected_version, ("active",), "finish",
                                       assignments, params)
            await self._finish_in_transaction(
                game_id, state_json, FinishRecord(result_json, tuple(placements)), now)
            record = await self._fetch(game_id)
        return record

    async def abort(self, game_id: int, now: float) -> None:
        """End a lobby or active game without a result, freeing the channel.

        Aborting an aborted game does nothing; a finished game cannot be aborted.
        Works even when the row's JSON is damaged, so a broken game can be cleared.
        """
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'aborted', version = version + 1, updated_at = ?, "
                "next_reminder_at = NULL WHERE id = ? AND status IN ('lobby', 'active')",
                (now, game_id))
            if cursor.rowcount != 1:
                raw = await self._raw(game_id)
                if raw is None:
                    raise NotFoundError("That game no longer exists.")
                if raw[0] != "aborted":
                    raise WrongStatusError(_status_message(raw[0], "abort it"))

    # ----------------------------------------------------------------- reminders

    async def due_reminders(self, now: float) -> list[GameRecord]:
        """Active games whose next reminder is due at ``now``, earliest first.

        A damaged row is logged and skipped, so it cannot hold up other channels.
        """
        async with self._reading() as db, db.execute(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' "
                f"AND next_reminder_at IS NOT NULL AND next_reminder_at <= ? "
                f"ORDER BY next_reminder_at, id", (now,)) as cursor:
            rows = await cursor.fetchall()
        return _readable(rows, "skipping reminders for game %s: %s")

    async def mark_reminded(self, game_id: int, expected_version: int, *, reminders_sent: int,
                            next_reminder_at: float | None,
                            announce: Sequence[Announcement] = (), now: float = 0.0) -> bool:
        """Claim a due reminder before sending it: True means send it, False means do not.

        ``announce`` (the reminder itself) is queued in the outbox, due at ``now``, only
        with a claim and in the same transaction, so it is delivered exactly once.

        The version is not bumped (buttons on the board stay valid), so the claim is
        guarded by the reminder columns instead. Only while the game is active at
        ``expected_version``:

        * if ``reminders_sent`` is exactly one more than the stored count, the count and
          schedule are updated and the call returns True. Of several callers (two bots,
          or one after a restart) that read the same count, only the first can make that
          step, so each reminder number is sent at most once;
        * if ``reminders_sent`` equals the stored count and ``next_reminder_at`` is None,
          the schedule is cleared (nothing is due any more) and the call returns False,
          because there is nothing to send.

        Anything else (a stale or skipped count, a changed version, a finished game)
        changes nothing and returns False.
        """
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET reminders_sent = :sent, next_reminder_at = :next "
                "WHERE id = :id AND version = :version AND status = 'active' "
                "AND reminders_sent = :sent - 1",
                {"sent": reminders_sent, "next": next_reminder_at, "id": game_id,
                 "version": expected_version})
            claimed = cursor.rowcount == 1
            if claimed:
                await self._queue(announce, now)
            if not claimed and next_reminder_at is None:
                await db.execute(
                    "UPDATE games SET next_reminder_at = NULL WHERE id = ? AND version = ? "
                    "AND status = 'active' AND reminders_sent = ?",
                    (game_id, expected_version, reminders_sent))
        return claimed

    async def postpone_reminder(self, game_id: int, expected_version: int, *,
                                reminders_sent: int, until: float) -> bool:
        """Move the due reminder to ``until`` without sending it (its players are in
        quiet hours); like :meth:`mark_reminded`, only while nothing else moved on."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET next_reminder_at = ? WHERE id = ? AND version = ? "
                "AND status = 'active' AND reminders_sent = ?",
                (until, game_id, expected_version, reminders_sent))
        return cursor.rowcount == 1

    # ----------------------------------------------------------------- quiet hours

    async def set_quiet_hours(self, user_id: int, hours: tuple[str, int, int] | None,
                              now: float) -> None:
        """Keep ``(timezone, start hour, end hour)`` for the user, or forget them (None)."""
        _check_int(user_id, "user id")
        async with self._transaction() as db:
            if hours is None:
                await db.execute("DELETE FROM quiet_hours WHERE user_id = ?", (user_id,))
                return
            await db.execute(
                "INSERT INTO quiet_hours (user_id, timezone, start_hour, end_hour, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "timezone = excluded.timezone, start_hour = excluded.start_hour, "
                "end_hour = excluded.end_hour, updated_at = excluded.updated_at",
                (user_id, *hours, now))

    async def quiet_hours(self, user_ids: Sequence[int]) -> dict[int, tuple[str, int, int]]:
        """The quiet hours kept for each of ``user_ids`` that has some."""
        users = [int(u) for u in user_ids]
        if not users:
            return {}
        marks = ", ".join("?" for _ in users)
        async with self._reading() as db, db.execute(
                f"SELECT user_id, timezone, start_hour, end_hour FROM quiet_hours "
                f"WHERE user_id IN ({marks})", users) as cursor:
            rows = await cursor.fetchall()
        return {int(u): (str(tz), int(start), int(end)) for u, tz, start, end in rows}

    async def add_vacation(self, user_id: int, starts: float, ends: float,
                           now: float) -> None:
        """Keep a vacation of the user from ``starts`` to ``ends``."""
        _check_int(user_id, "user id")
        async with self._transaction() as db:
            await db.execute("INSERT INTO vacations (user_id, starts, ends, created_at) "
                             "VALUES (?, ?, ?, ?)", (user_id, starts, ends, now))

    async def end_vacations(self, user_id: int, now: float) -> int:
        """End the user's current vacation now and cancel the ones to come; how many."""
        _check_int(user_id, "user id")
        async with self._transaction() as db:
            ended = await db.execute("UPDATE vacations SET ends = ? WHERE user_id = ? AND "
                                     "starts < ? AND ends > ?", (now, user_id, now, now))
            cancelled = await db.execute("DELETE FROM vacations WHERE user_id = ? AND "
                                         "starts >= ?", (user_id, now))
            return ended.rowcount + cancelled.rowcount

    async def vacations(self, user_ids: Sequence[int], *, ending_after: float,
                        ) -> dict[int, list[tuple[float, float]]]:
        """The vacations of each of ``user_ids`` that end after ``ending_after``, in order."""
        users = [int(u) for u in user_ids]
        if not users:
            return {}
        marks = ", ".join("?" for _ in users)
        async with self._reading() as db, db.execute(
                f"SELECT user_id, starts, ends FROM vacations WHERE user_id IN ({marks}) "
                f"AND ends > ? ORDER BY starts", [*users, ending_after]) as cursor:
            rows = await cursor.fetchall()
        out: dict[int, list[tuple[float, float]]] = {}
        for user, starts, ends in rows:
            out.setdefault(int(user), []).append((float(starts), float(ends)))
        return out

    async def set_notify(self, user_id: int, mode: str, now: float) -> None:
        """Keep how the user is reached: ``channel`` (the default), ``dm`` or ``quiet``."""
        _check_int(user_id, "user id")
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO notify (user_id, mode, dm_closed, updated_at) VALUES (?, ?, 0, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET mode = excluded.mode, dm_closed = 0, "
                "updated_at = excluded.updated_at", (user_id, mode, now))

    async def notify_modes(self, user_ids: Sequence[int]) -> dict[int, str]:
        """How each of ``user_ids`` that chose is reached: ``dm`` (only while Discord
        takes their DMs), ``quiet`` or ``channel``."""
        users = [int(u) for u in user_ids]
        if not users:
            return {}
        marks = ", ".join("?" for _ in users)
        async with self._reading() as db, db.execute(
                f"SELECT user_id, mode, dm_closed FROM notify WHERE user_id IN ({marks})",
                users) as cursor:
            rows = await cursor.fetchall()
        return {int(u): ("channel" if mode == "dm" and closed else str(mode))
                for u, mode, closed in rows}

    async def dm_refused(self, user_id: int, now: float) -> bool:
        """Note that Discord refused a DM to the user; whether this is the first time
        since they chose DMs (the one time to tell them)."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE notify SET dm_closed = 1, updated_at = ? WHERE user_id = ? AND "
                "mode = 'dm' AND dm_closed = 0", (now, int(user_id)))
            return cursor.rowcount > 0

    # ----------------------------------------------------------------- the outbox

    async def queue_announcements(self, announcements: Sequence[Announcement],
                                  now: float) -> None:
        """Add ``announcements`` to the outbox in a transaction of their own (for what a
        change needs announced after it was saved, such as a board Discord refused)."""
        async with self._transaction():
            await self._queue(announcements, now)

    async def _queue(self, announcements: Sequence[Announcement], now: float) -> None:
        """Add ``announcements`` to the outbox inside the caller's transaction, due at once
        (or at their own ``due_at``)."""
        if not announcements:
            return
        await self._conn().executemany(
            "INSERT INTO outbox (channel_id, guild_id, game_id, kind, content, mentions, nonce, "
            "created_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(_check_int(a.channel_id, "channel id"), _check_int(a.guild_id, "server id"),
              a.game_id, a.kind, a.content, json.dumps([int(u) for u in a.mentions]),
              secrets.token_hex(8), now, now if a.due_at is None else max(now, a.due_at))
             for a in announcements])

    async def claim_announcements(self, now: float, *, lease: float,
                                  channel_id: int | None = None,
                                  limit: int = 50) -> list[OutboxRecord]:
        """Claim due announcements to post: the oldest pending one of each channel (of
        ``channel_id`` only, if given), unless another sender's lease on it still runs.

        Each claimed row is leased until ``now + lease``: until then no other sender
        (another task or process) claims it, and the later rows of its channel wait, so
        a channel's announcements go out one at a time and in order. The claimer must
        end the lease with :meth:`announcement_delivered`, :meth:`retry_announcement` or
        :meth:`drop_announcement`; if it dies instead, the lease runs out and the row is
        claimed again (its nonce keeps Discord from posting it twice).
        """
        where = "" if channel_id is None else "AND o.channel_id = :channel "
        async with self._transaction() as db:
            async with db.execute(
                    "SELECT o.id, o.channel_id, o.guild_id, o.game_id, o.kind, o.content, "
                    "o.mentions, o.nonce, o.created_at, o.attempts FROM outbox o "
                    "WHERE o.status = 'pending' AND o.id = (SELECT MIN(i.id) FROM outbox i "
                    "WHERE i.channel_id = o.channel_id AND i.status = 'pending') "
                    "AND o.due_at <= :now AND (o.leased_until IS NULL OR o.leased_until <= :now) "
                    f"{where}ORDER BY o.id LIMIT :limit",
                    {"now": now, "channel": channel_id, "limit": max(1, int(limit))}) as cursor:
                rows = await cursor.fetchall()
            await db.executemany(
                "UPDATE outbox SET leased_until = ?, attempts = attempts + 1 WHERE id = ?",
                [(now + lease, row[0]) for row in rows])
        out = []
        for (row_id, channel, guild, game_id, kind, content, mentions, nonce, created,
             attempts) in rows:
            try:
                users = tuple(int(u) for u in json.loads(mentions))
            except (TypeError, ValueError):
                users = ()  # a damaged list pings nobody rather than blocking the channel
            out.append(OutboxRecord(row_id, Announcement(channel, guild, game_id, kind, content,
                                                         users), nonce, created, attempts + 1))
        return out

    async def announcement_delivered(self, announcement_id: int, message_id: int | None,
                                     now: float) -> None:
        """Discord accepted the announcement: it is never sent again."""
        _check_int(message_id, "message id")
        async with self._transaction() as db:
            await db.execute(
                "UPDATE outbox SET status = 'delivered', delivered_at = ?, message_id = ?, "
                "leased_until = NULL WHERE id = ? AND status = 'pending'",
                (now, message_id, announcement_id))

    async def retry_announcement(self, announcement_id: int, due_at: float, error: str) -> None:
        """Posting failed: release the lease; the announcement is due again at ``due_at``."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE outbox SET leased_until = NULL, due_at = ?, last_error = ? "
                "WHERE id = ? AND status = 'pending'", (due_at, error[:500], announcement_id))

    async def drop_announcement(self, announcement_id: int, error: str) -> None:
        """Give the announcement up for good (Discord will never take it), so the later
        ones of its channel can go."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE outbox SET status = 'dropped', leased_until = NULL, last_error = ? "
                "WHERE id = ? AND status = 'pending'", (error[:500], announcement_id))

    async def pending_announcements(self) -> tuple[int, float | None]:
        """How many announcements wait to be delivered, and when the next can be claimed
        (``None`` when none waits): the earliest of the channels' oldest pending ones, each
        due at its back-off or, while leased, when its lease runs out."""
        async with self._reading() as db, db.execute(
                "SELECT (SELECT COUNT(*) FROM outbox WHERE status = 'pending'), "
                "MIN(MAX(o.due_at, COALESCE(o.leased_until, o.due_at))) FROM outbox o "
                "WHERE o.status = 'pending' AND o.id = (SELECT MIN(i.id) FROM outbox i "
                "WHERE i.channel_id = o.channel_id AND i.status = 'pending')") as cursor:
            row = await cursor.fetchone()
        if row is None or not row[0] or row[1] is None:
            return 0, None
        return int(row[0]), float(row[1])
