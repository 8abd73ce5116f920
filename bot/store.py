"""SQLite storage for games, seats, the action log, results and reminders.

One open (lobby or active) game per channel, enforced by a partial unique
index. Every row of ``games`` carries a ``version`` that bumps on each write;
writers pass the version they read and lose with :class:`ConflictError` if
someone else wrote first, so two clicks can never both apply. Every write is
one ``BEGIN IMMEDIATE`` transaction. The schema is versioned with
``PRAGMA user_version`` and upgraded by :data:`MIGRATIONS` on open.

Times are UNIX seconds passed in by the caller; the store never reads a clock.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiosqlite

MIGRATIONS: list[str] = [
    # 1: games, seats, the action log and results.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id INTEGER NOT NULL,
        guild_id INTEGER,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
        creator_id INTEGER NOT NULL,
        options_json TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        seed INTEGER,
        state_json TEXT,
        version INTEGER NOT NULL DEFAULT 1,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        turn_started_at REAL,
        reminders_sent INTEGER NOT NULL DEFAULT 0,
        next_reminder_at REAL,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        result_json TEXT
    );
    CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX games_due_reminders ON games (next_reminder_at) WHERE status = 'active';
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        ai INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        notation TEXT NOT NULL,
        narration TEXT NOT NULL,
        at REAL NOT NULL,
        undoable INTEGER NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER,
        seat INTEGER NOT NULL,
        place INTEGER NOT NULL,
        won INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_by_player ON results (guild_id, user_id);
    """,
]


# --------------------------------------------------------------------------- errors


class StoreError(Exception):
    """A storage problem; ``str()`` is safe to show a player."""


class ChannelBusyError(StoreError):
    """The channel already has an open game."""


class ConflictError(StoreError):
    """Somebody else wrote the game first; nothing was written."""


class NotFoundError(StoreError):
    """No such game."""


class CorruptRowError(StoreError):
    """A stored row cannot be read back."""


BUSY = "This channel already has a game. Finish it or use /game abort first."
CONFLICT = "That move was already made by someone else; the board has moved on."


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    user_id: int | None
    name: str
    ai: bool


@dataclass(frozen=True)
class MoveRecord:
    seat: int
    user_id: int | None
    notation: str
    narration: str
    undoable: bool


@dataclass(frozen=True)
class FinishRecord:
    """The end of a game: result JSON and ``(user_id, seat, place, won)`` per seat."""

    result_json: str
    placements: Sequence[tuple[int | None, int, int, bool]]


@dataclass(frozen=True)
class GameRecord:
    id: int
    channel_id: int
    guild_id: int | None
    game: str
    status: str
    creator_id: int
    options: dict[str, Any]
    settings: dict[str, Any]
    seed: int | None
    state_json: str | None
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
    n: int
    seat: int
    user_id: int | None
    notation: str
    narration: str
    at: float
    undoable: bool


@dataclass(frozen=True)
class StatLine:
    game: str
    played: int
    won: int


# --------------------------------------------------------------------------- the store


class Store:
    """Async access to one SQLite file. Open with :meth:`open`, release with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # One connection serves every coroutine of this instance: the lock keeps
        # one coroutine's transaction from interleaving with another's statements.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Store:
        """Open (creating if needed) and migrate the database at ``path``."""
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db)
        await store._migrate()
        return store

    async def close(self) -> None:
        """Close the connection; safe to call twice."""
        if self._db is not None:
            db, self._db = self._db, None  # type: ignore[assignment]
            await db.close()

    async def schema_version(self) -> int:
        async with self._reading() as db, db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def journal_mode(self) -> str:
        async with self._reading() as db, db.execute("PRAGMA journal_mode") as cur:
            row = await cur.fetchone()
        return str(row[0]) if row else ""

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self._transaction() as db:
                for statement in _statements(script):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            else:
                await self._db.execute("COMMIT")

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self._db

    # ----------------------------------------------------------------- reading

    async def get_game(self, game_id: int) -> GameRecord:
        async with self._reading() as db:
            async with db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                raise NotFoundError("That game no longer exists.")
            return await self._record(row)

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The channel's lobby or active game, if any."""
        async with self._reading() as db:
            async with db.execute(
                "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            ) as cur:
                row = await cur.fetchone()
            return await self._record(row) if row else None

    async def games_in_channel(self, channel_id: int) -> list[GameRecord]:
        """Every game ever played in the channel, oldest first."""
        async with self._reading() as db:
            async with db.execute(
                "SELECT * FROM games WHERE channel_id = ? ORDER BY id", (channel_id,)
            ) as cur:
                rows = await cur.fetchall()
            return [await self._record(r) for r in rows]

    async def actions(self, game_id: int, last: int | None = None) -> list[ActionRecord]:
        """The action log in order; ``last=n`` gives only the final ``n``."""
        sql = "SELECT * FROM actions WHERE game_id = ? ORDER BY n"
        async with self._reading() as db, db.execute(sql, (game_id,)) as cur:
            rows = await cur.fetchall()
        records = [ActionRecord(r["n"], r["seat"], r["user_id"], r["notation"], r["narration"],
                                r["at"], bool(r["undoable"])) for r in rows]
        return records[-last:] if last else records

    async def stats(self, guild_id: int | None, user_id: int) -> list[StatLine]:
        """Games played and won per game by ``user_id`` in ``guild_id``."""
        async with self._reading() as db, db.execute(
            "SELECT game, COUNT(*) AS played, SUM(won) AS won FROM results "
            "WHERE guild_id IS ? AND user_id = ? GROUP BY game ORDER BY game",
            (guild_id, user_id),
        ) as cur:
            rows = await cur.fetchall()
        return [StatLine(r["game"], int(r["played"]), int(r["won"] or 0)) for r in rows]

    async def due_reminders(self, now: float) -> list[GameRecord]:
        async with self._reading() as db:
            async with db.execute(
                "SELECT * FROM games WHERE status = 'active' AND next_reminder_at IS NOT NULL "
                "AND next_reminder_at <= ? ORDER BY next_reminder_at", (now,)
            ) as cur:
                rows = await cur.fetchall()
            return [await self._record(r) for r in rows]

    async def _record(self, row: sqlite3.Row) -> GameRecord:
        async with self._db.execute(
            "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (row["id"],)
        ) as cur:
            seat_rows = await cur.fetchall()
        try:
            options = json.loads(row["options_json"])
            settings = json.loads(row["settings_json"])
            if not isinstance(options, dict) or not isinstance(settings, dict):
                raise ValueError("not an object")
        except (TypeError, ValueError):
            raise CorruptRowError(
                "This channel's saved game is damaged and cannot be read. "
                "An admin can end it with /game abort."
            ) from None
        return GameRecord(
            id=row["id"], channel_id=row["channel_id"], guild_id=row["guild_id"],
            game=row["game"], status=row["status"], creator_id=row["creator_id"],
            options=options, settings=settings, seed=row["seed"], state_json=row["state_json"],
            version=row["version"],
            seats=tuple(SeatRecord(s["seat"], s["user_id"], s["name"], bool(s["ai"]))
                        for s in seat_rows),
            created_at=row["created_at"], updated_at=row["updated_at"],
            turn_started_at=row["turn_started_at"], reminders_sent=row["reminders_sent"],
            next_reminder_at=row["next_reminder_at"], lobby_message_id=row["lobby_message_id"],
            board_message_id=row["board_message_id"], result_json=row["result_json"],
        )

    # ----------------------------------------------------------------- writing

    async def create_lobby(self, *, channel_id: int, guild_id: int | None, game: str,
                           creator_id: int, options: dict[str, Any], settings: dict[str, Any],
                           now: float) -> GameRecord:
        """Open a lobby; :class:`ChannelBusyError` if the channel has an open game."""
        try:
            async with self._transaction() as db:
                cur = await db.execute(
                    "INSERT INTO games (channel_id, guild_id, game, status, creator_id, "
                    "options_json, settings_json, created_at, updated_at) "
                    "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                    (channel_id, guild_id, game, creator_id, json.dumps(options),
                     json.dumps(settings), now, now),
                )
                game_id = cur.lastrowid
        except sqlite3.IntegrityError:
            raise ChannelBusyError(BUSY) from None
        assert game_id is not None
        return await self.get_game(game_id)

    async def _bump(self, db: aiosqlite.Connection, game_id: int, expected_version: int,
                    status: str, assignments: str, params: Sequence[Any]) -> None:
        """Bump the version if it is still ``expected_version``; else ConflictError."""
        cur = await db.execute(
            f"UPDATE games SET version = version + 1, {assignments} "
            "WHERE id = ? AND version = ? AND status = ?",
            (*params, game_id, expected_version, status),
        )
        if cur.rowcount != 1:
            raise ConflictError(CONFLICT)

    @staticmethod
    async def _write_seats(db: aiosqlite.Connection, game_id: int,
                           seats: Sequence[SeatRecord]) -> None:
        await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, ai) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, int(s.ai)) for s in seats],
        )

    async def set_seats(self, game_id: int, expected_version: int, seats: Sequence[SeatRecord],
                        now: float) -> GameRecord:
        """Replace the lobby's seats (join, leave, add an AI)."""
        async with self._transaction() as db:
            await self._bump(db, game_id, expected_version, "lobby", "updated_at = ?", (now,))
            await self._write_seats(db, game_id, seats)
        return await self.get_game(game_id)

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        async with self._transaction() as db:
            await db.execute("UPDATE games SET lobby_message_id = ? WHERE id = ?",
                             (message_id, game_id))

    async def set_board_message(self, game_id: int, message_id: int) -> None:
        async with self._transaction() as db:
            await db.execute("UPDATE games SET board_message_id = ? WHERE id = ?",
                             (message_id, game_id))

    async def start(self, game_id: int, expected_version: int, *, seed: int, state_json: str,
                    seats: Sequence[SeatRecord], now: float,
                    next_reminder_at: float | None) -> GameRecord:
        """Turn a lobby into an active game."""
        async with self._transaction() as db:
            await self._bump(db, game_id, expected_version, "lobby",
                             "status = 'active', seed = ?, state_json = ?, updated_at = ?, "
                             "turn_started_at = ?, reminders_sent = 0, next_reminder_at = ?",
                             (seed, state_json, now, now, next_reminder_at))
            await self._write_seats(db, game_id, seats)
        return await self.get_game(game_id)

    async def commit_move(self, game_id: int, expected_version: int, *, state_json: str,
                          seat: int, user_id: int | None, notation: str, narration: str,
                          undoable: bool, now: float, turn_changed: bool,
                          next_reminder_at: float | None,
                          finish: FinishRecord | None = None) -> GameRecord:
        """Store one move: the new state and its log line, in one transaction."""
        return await self.commit_moves(
            game_id, expected_version,
            [MoveRecord(seat, user_id, notation, narration, undoable)],
            state_json=state_json, now=now, turn_changed=turn_changed,
            next_reminder_at=next_reminder_at, finish=finish)

    async def commit_moves(self, game_id: int, expected_version: int,
                           moves: Sequence[MoveRecord], *, state_json: str, now: float,
                           turn_changed: bool, next_reminder_at: float | None,
                           finish: FinishRecord | None = None) -> GameRecord:
        """Store several moves (a human move and the AI moves after it) in one transaction."""
        turn = (", turn_started_at = ?, reminders_sent = 0, next_reminder_at = ?"
                if turn_changed else "")
        params: list[Any] = [state_json, now]
        if turn_changed:
            params += [now, next_reminder_at]
        async with self._transaction() as db:
            await self._bump(db, game_id, expected_version, "active",
                             "state_json = ?, updated_at = ?" + turn, params)
            async with db.execute("SELECT COALESCE(MAX(n), 0) FROM actions WHERE game_id = ?",
                                  (game_id,)) as cur:
                row = await cur.fetchone()
            n = int(row[0]) if row else 0
            await db.executemany(
                "INSERT INTO actions (game_id, n, seat, user_id, notation, narration, at, "
                "undoable) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, n + i + 1, m.seat, m.user_id, m.notation, m.narration, now,
                  int(m.undoable)) for i, m in enumerate(moves)],
            )
            if finish is not None:
                await self._finish(db, game_id, finish, now)
        return await self.get_game(game_id)

    async def undo_last(self, game_id: int, expected_version: int, *, state_json: str,
                        now: float) -> GameRecord:
        """Drop the last logged action and store the state rebuilt without it."""
        async with self._transaction() as db:
            await self._bump(db, game_id, expected_version, "active",
                             "state_json = ?, updated_at = ?", (state_json, now))
            await db.execute(
                "DELETE FROM actions WHERE game_id = ? AND n = "
                "(SELECT MAX(n) FROM actions WHERE game_id = ?)", (game_id, game_id))
        return await self.get_game(game_id)

    async def replace_seat(self, game_id: int, expected_version: int, seat: SeatRecord,
                           now: float) -> GameRecord:
        """Change who sits at one seat of an active game (a conceding human becomes AI)."""
        async with self._transaction() as db:
            await self._bump(db, game_id, expected_version, "active", "updated_at = ?", (now,))
            await db.execute(
                "UPDATE seats SET user_id = ?, name = ?, ai = ? WHERE game_id = ? AND seat = ?",
                (seat.user_id, seat.name, int(seat.ai), game_id, seat.seat))
        return await self.get_game(game_id)

    async def finish(self, game_id: int, expected_version: int, *, state_json: str,
                     result_json: str, placements: Sequence[tuple[int | None, int, int, bool]],
                     now: float) -> GameRecord:
        """End an active game and record each seat's place for /stats."""
        async with self._transaction() as db:
            await self._bump(db, game_id, expected_version, "active",
                             "state_json = ?, updated_at = ?", (state_json, now))
            await self._finish(db, game_id, FinishRecord(result_json, placements), now)
        return await self.get_game(game_id)

    async def _finish(self, db: aiosqlite.Connection, game_id: int, finish: FinishRecord,
                      now: float) -> None:
        await db.execute(
            "UPDATE games SET status = 'finished', result_json = ?, next_reminder_at = NULL "
            "WHERE id = ?", (finish.result_json, game_id))
        await db.executemany(
            "INSERT INTO results (game_id, guild_id, channel_id, game, user_id, seat, place, "
            "won, finished_at) SELECT id, guild_id, channel_id, game, ?, ?, ?, ?, ? "
            "FROM games WHERE id = ?",
            [(user_id, seat, place, int(won), now, game_id)
             for user_id, seat, place, won in finish.placements])

    async def abort(self, game_id: int, now: float) -> None:
        """End a lobby or game without a result; the channel is free again."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE games SET status = 'aborted', version = version + 1, updated_at = ?, "
                "next_reminder_at = NULL WHERE id = ? AND status IN ('lobby', 'active')",
                (now, game_id))

    async def mark_reminded(self, game_id: int, expected_version: int, *, reminders_sent: int,
                            next_reminder_at: float | None) -> bool:
        """Record that reminder number ``reminders_sent`` went out.

        Compare-and-set on the game's version and on the previous count, without
        bumping the version (a reminder must not expire the move buttons). Of two
        bot instances racing for the same reminder, exactly one gets True.
        """
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE games SET reminders_sent = ?, next_reminder_at = ? "
                "WHERE id = ? AND version = ? AND reminders_sent = ? AND status = 'active'",
                (reminders_sent, next_reminder_at, game_id, expected_version,
                 reminders_sent - 1))
            return cur.rowcount == 1


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (none of ours contain a semicolon in text)."""
    return [s.strip() for s in script.split(";") if s.strip()]
