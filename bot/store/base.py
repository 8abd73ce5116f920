"""The store's queries, written once for both backends.

:class:`Store` holds every read and write of the game database as SQL that SQLite and
PostgreSQL both run (``?`` marks parameters; the PostgreSQL backend translates them). A
backend supplies connections (:meth:`Store._transaction` for a write transaction,
:meth:`Store._reading` for reads) and the few words where the two dialects differ.

Concurrency rules, on both backends:

* Every write runs in one transaction; a statement or the COMMIT failing rolls the whole
  write back and raises :class:`NotSavedError`, and the store stays usable.
* ``games.version`` goes up on every write to a game row except the two message ids and
  reminder bookkeeping. A writer passes the version it read; the UPDATE is conditional on
  it, so if the row moved on (another task or process wrote first) the writer gets
  :class:`ConflictError` and nothing is written.
* At most one lobby or active game per channel, enforced by a partial unique index.
* A move made by a Discord interaction records its id under a unique key, so a delivery
  seen twice (by one process or two) makes the move once (:class:`AlreadyDoneError`).
* Announcements are claimed with a lease (and, on PostgreSQL, ``FOR UPDATE SKIP
  LOCKED``), so several senders never post the same one twice; a dead sender's lease
  runs out and another takes the row over. Reminders are claimed by a compare-and-set on
  their count, in the transaction that queues them.

Times are UNIX seconds supplied by the caller; the store never reads the clock.
"""

from __future__ import annotations

import itertools
import json
import os
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any, ClassVar, cast

from bot.organized.seasons import Season, season_at
from bot.ratings import Rating, rate
from bot.store.entries import entries_of, forget_entries
from bot.store.records import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    OPEN_STATUSES,
    OPENING_COLUMNS,
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
    OpeningRecord,
    OutboxRecord,
    Reach,
    RematchTakenError,
    Retold,
    SeatRecord,
    StatLine,
    StoreError,
    WebTarget,
    WrongStatusError,
    action_records,
    channel_lane,
    check_int,
    dump_object,
    dump_private,
    dump_seats,
    game_record,
    load_seats,
    log,
    opening_record,
    readable,
)
from bot.watch import Watch, unwatched

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: How many of the log's last actions :meth:`Store.trailing_run` reads first.
RUN_FIRST_READ = 6
#: A time after every other (what "every pending row" waits for).
FOREVER = 1e300
#: How long a stretch a bot ran is kept once two later stretches began (seconds).
UPTIME_KEPT = 30 * 86400


def _rated_in(guild_id: int | None, season: Season | None) -> tuple[str, int]:
    """Where ratings are read: the server's all-time ratings, or ``season``'s own (a
    table and its condition, with the condition's value)."""
    if season is None:
        return "ratings WHERE guild_id = ?", guild_id or 0
    return "season_ratings WHERE season_id = ?", season.id


def is_postgres(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` (``CANDYBOT_DB``) names a PostgreSQL database rather than a file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class Store(ABC):
    """Async access to the game database; create with :meth:`Store.open`. The backends
    (:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`) supply the abstract methods."""

    #: How the backend's SQL says "the larger of two values", and what it adds to a
    #: SELECT to lock its rows, skipping rows others hold.
    _greatest: ClassVar[str] = "MAX"
    _skip_locked: ClassVar[str] = ""
    #: The driver's exceptions for a broken unique key or constraint.
    _integrity_errors: ClassVar[tuple[type[BaseException], ...]] = ()
    #: Where the database is: a file path or a PostgreSQL URL (its password left out).
    path: str
    #: Times every read and write (``store``) for a tool that measures them (bot/watch.py).
    watch: Watch = staticmethod(unwatched)

    # ----------------------------------------------------------------- lifecycle

    #: The backends by kind ("sqlite", "postgresql"), filled in by :mod:`bot.store`.
    backends: ClassVar[dict[str, type[Store]]] = {}

    @classmethod
    async def open(cls, target: str | os.PathLike[str]) -> Store:
        """Open the database ``target`` (a SQLite file, created if needed, or a
        ``postgresql://`` URL) and bring its schema up to date."""
        kind = "postgresql" if is_postgres(target) else "sqlite"
        if kind not in Store.backends:
            raise StoreError(f"This candybot has no {kind} backend.")
        return await Store.backends[kind].open(target)

    @abstractmethod
    async def close(self) -> None:
        """Close the connections once the writes under way are done; again does nothing."""

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Any]:
        """A write transaction: yields a connection, commits at the end, rolls back on
        any error (raising :class:`NotSavedError` for a database failure)."""

    @abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Any]:
        """A connection for reads, which never wait for a writer."""

    @abstractmethod
    async def schema_version(self) -> int:
        """How many migrations this database has run."""

    @abstractmethod
    async def check_writable(self) -> None:
        """Take the write lock and let it go, writing nothing; raises :class:`StoreError`
        when the database cannot be written now (read-only, locked, closed)."""

    async def open_game_counts(self) -> dict[tuple[str, str], int]:
        """How many lobbies and active games there are, keyed by (game, status)."""
        async with self._reading() as db, db.execute(
                "SELECT game, status, COUNT(*) FROM games WHERE status IN ('lobby', 'active') "
                "GROUP BY game, status") as cursor:
            rows = await cursor.fetchall()
        return {(str(game), str(status)): int(count) for game, status, count in rows}

    # ----------------------------------------------------------------- low-level helpers

    async def _fetch(self, db: Any, game_id: int) -> GameRecord:
        rows = await db.execute_fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise NotFoundError("game")
        return game_record(rows[0])

    async def _raw(self, db: Any, game_id: int) -> tuple[str, int] | None:
        async with db.execute(
                "SELECT status, version FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else (row[0], row[1])

    async def _explain_miss(self, db: Any, game_id: int, expected_version: int,
                            statuses: Sequence[str], doing: str) -> StoreError:
        """Why a guarded UPDATE matched no row: gone, moved on, or the wrong status."""
        raw = await self._raw(db, game_id)
        if raw is None:
            return NotFoundError("game")
        status, version = raw
        if version != expected_version:
            return ConflictError()
        if status not in statuses:
            return WrongStatusError(status, doing)
        return ConflictError()

    async def _guarded_update(self, db: Any, game_id: int, expected_version: int,
                              statuses: Sequence[str], doing: str, assignments: str,
                              params: Sequence[Any], *, returning: bool = False,
                              ) -> GameRecord | None:
        """``UPDATE games`` at ``expected_version`` in one of ``statuses``, bumping the
        version; raises (inside the caller's transaction) if no row matched. With
        ``returning``, the updated game comes back from the same statement."""
        marks = ", ".join("?" for _ in statuses)
        sql = (f"UPDATE games SET {assignments}, version = version + 1 "
               f"WHERE id = ? AND version = ? AND status IN ({marks})")
        values = (*params, game_id, expected_version, *statuses)
        if returning:
            rows = await db.execute_fetchall(f"{sql} RETURNING {GAME_COLUMNS}", values)
            if len(rows) != 1:
                raise await self._explain_miss(db, game_id, expected_version, statuses, doing)
            return game_record(rows[0])
        cursor = await db.execute(sql, values)
        if cursor.rowcount != 1:
            raise await self._explain_miss(db, game_id, expected_version, statuses, doing)
        return None

    async def _write(self, game_id: int, expected_version: int, statuses: Sequence[str],
                     doing: str, assignments: str, params: Sequence[Any]) -> GameRecord:
        """One guarded update in its own transaction; returns the new record."""
        async with self._transaction() as db:
            record = await self._guarded_update(db, game_id, expected_version, statuses, doing,
                                                assignments, params, returning=True)
        assert record is not None
        return record

    # ----------------------------------------------------------------- reading

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The channel's lobby or active game, if any."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? "
                f"AND status IN ('lobby', 'active')", (channel_id,))
        return game_record(rows[0]) if rows else None

    async def open_games_in(self, channel_id: int) -> list[GameRecord]:
        """The lobbies and active games held in a channel or in its threads."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE (channel_id = ? OR parent_id = ?) "
                f"AND status IN ('lobby', 'active')", (channel_id, channel_id))
        return readable(rows, "a game of a deleted channel, %s, cannot be read: %s")

    async def open_games_of(self, guild_id: int) -> list[GameRecord]:
        """The lobbies and games under way in a server (a bounded number:
        ``games_per_server``)."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? "
                f"AND status IN ('lobby', 'active')", (guild_id,))
        return readable(rows, "a game of a server, %s, cannot be read: %s")

    async def get_game(self, game_id: int) -> GameRecord:
        """The game ``game_id`` in any status; :class:`NotFoundError` if there is none."""
        async with self._reading() as db:
            return await self._fetch(db, game_id)

    async def games_in_channel(self, channel_id: int) -> list[GameRecord]:
        """Every game ever held in the channel, oldest first."""
        async with self._reading() as db, db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id",
                (channel_id,)) as cursor:
            rows = await cursor.fetchall()
        return [game_record(row) for row in rows]

    async def past_games(self, channel_id: int, limit: int | None = None) -> list[GameRecord]:
        """The channel's games that were played and have ended (finished or aborted after
        the start), in the channel or in threads of it, newest first; ``limit`` keeps the
        newest few."""
        query = (f"SELECT {GAME_COLUMNS} FROM games WHERE (channel_id = ? OR parent_id = ?) "
                 "AND status IN ('finished', 'aborted') AND state_json IS NOT NULL "
                 "ORDER BY id DESC")
        params: list[Any] = [channel_id, channel_id]
        if limit is not None:
            query += " LIMIT ?"
            params.append(max(0, int(limit)))
        async with self._reading() as db, db.execute(query, params) as cursor:
            rows = await cursor.fetchall()
        return [game_record(row) for row in rows]

    async def actions(self, game_id: int, last: int | None = None, *,
                      after: int | None = None) -> list[ActionRecord]:
        """The game's action log in order; ``last=k`` gives only the final ``k``,
        ``after=n`` only the actions numbered above ``n``."""
        query = f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ?"
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
        return action_records(game_id, reversed(rows))

    async def trailing_run(self, game_id: int, episode: str, limit: int) -> list[ActionRecord]:
        """The actions at the end of the game's log whose episode key is ``episode`` (at most
        ``limit``), in order: what a board shows of the episode so far.

        Most runs are a move or two, so the last few rows are read first, and the rest only
        when all of those belong to the run; only the run's rows are parsed."""
        run: list[Any] = []
        async with self._reading() as db:
            for batch in (min(limit, RUN_FIRST_READ), limit):
                rows = await db.execute_fetchall(
                    f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? "
                    "ORDER BY n DESC LIMIT ?", (game_id, batch))
                run = list(itertools.takewhile(lambda row: row[9] == episode, rows))
                if len(run) < len(rows) or len(rows) < batch:
                    break
        return action_records(game_id, reversed(run))

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
                f"SELECT {', '.join('g.' + c for c in GAME_COLUMNS.split(', '))} "
                f"FROM seat_users s JOIN games g ON g.id = s.game_id "
                f"WHERE s.user_id = ? AND ((g.status = 'active' AND s.gone = 0) "
                f"OR (g.status = 'finished' AND g.finished_at >= ?)) ORDER BY g.id",
                (user_id, finished_since)) as cursor:
            rows = await cursor.fetchall()
        return readable(rows, "leaving damaged game %s out of a player's list of games: %s")

    async def stats(self, guild_id: int | None, user_id: int,
                    season: Season | None = None) -> list[StatLine]:
        """Finished games played and won by ``user_id`` in this server, per game, with
        their ratings: all time, or in ``season`` (the games that ended in it, and its
        own ratings)."""
        async with self._reading() as db:
            # A game the player left before its end counts as played and lost.
            server, given = _same("guild_id", guild_id)
            game_server, _ = _same("g.guild_id", guild_id)
            within, between = "", cast(tuple[float, ...], ())
            if season is not None:
                within, between = " AND finished_at >= ? AND finished_at < ?", (
                    season.starts_at, season.ends_at)
            async with db.execute(
                    "SELECT game, COUNT(DISTINCT game_id), "
                    "COUNT(DISTINCT CASE WHEN won = 1 THEN game_id END) FROM ("
                    f"SELECT game, game_id, won FROM results WHERE {server} "
                    f"AND user_id = ?{within} UNION ALL SELECT g.game, g.id, 0 FROM seat_users s "
                    "JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND s.gone = 1 "
                    f"AND g.status = 'finished' AND {game_server}"
                    f"{within.replace('finished_at', 'g.finished_at')}) x "
                    "GROUP BY game ORDER BY game",
                    (*given, user_id, *between, user_id, *given, *between)) as cursor:
                rows = await cursor.fetchall()
            where, key = _rated_in(guild_id, season)
            async with db.execute(f"SELECT game, mu, sigma, games FROM {where} AND user_id = ?",
                                  (key, user_id)) as cursor:
                rated = {game: Rating(mu, sigma, games)
                         for game, mu, sigma, games in await cursor.fetchall()}
        return [StatLine(game, played, won, rated.get(game)) for game, played, won in rows]

    # ----------------------------------------------------------------- lobby

    async def leaders(self, guild_id: int | None, game: str, limit: int = 10,
                      season: Season | None = None) -> list[tuple[int, str, Rating]]:
        """The best-rated players of ``game`` in this server, all time or in ``season``
        (its own ratings) (``(user, name, rating)``, best shown rating first), each named
        as in the last game of theirs here."""
        async with self._reading() as db:
            return await self._leaders(db, guild_id, game, limit, season)

    async def _leaders(self, db: Any, guild_id: int | None, game: str, limit: int | None,
                       season: Season | None) -> list[tuple[int, str, Rating]]:
        where, key = _rated_in(guild_id, season)
        async with db.execute(f"SELECT user_id, mu, sigma, games FROM {where} AND game = ?",
                              (key, game)) as cursor:
            rated = [(int(u), Rating(mu, sigma, n))
                     for u, mu, sigma, n in await cursor.fetchall()]
        rated.sort(key=lambda item: (-item[1].shown, item[0]))
        rated = rated[:limit]
        names: dict[int, str] = {}
        server, given = _same("g.guild_id", guild_id)
        for user, _rating in rated:
            async with db.execute(
                    "SELECT g.seats FROM seat_users s JOIN games g ON g.id = s.game_id "
                    f"WHERE s.user_id = ? AND {server} ORDER BY g.id DESC LIMIT 1",
                    (user, *given)) as cursor:
                row = await cursor.fetchone()
            try:
                seats = load_seats(0, row[0]) if row else ()
            except CorruptRowError:
                seats = ()
            names[user] = next((s.name for s in seats if s.user_id == user), f"Player {user}")
        return [(user, names[user], rating) for user, rating in rated]

    # ----------------------------------------------------------------- seasons

    async def seasons(self, guild_id: int) -> list[Season]:
        """A server's seasons, in start order."""
        async with self._reading() as db:
            return await self._seasons(db, "guild_id = ?", (guild_id,))

    async def _seasons(self, db: Any, where: str, params: Sequence[Any]) -> list[Season]:
        rows = await db.execute_fetchall(
            "SELECT id, name, starts_at, ends_at, fresh, closed_at, channel_id, guild_id "
            f"FROM seasons WHERE {where} ORDER BY starts_at, id", tuple(params))
        return [Season(int(i), str(name), float(a), float(b), bool(fresh), closed is not None,
                       int(channel), int(guild))
                for i, name, a, b, fresh, closed, channel, guild in rows]

    async def add_season(self, guild_id: int, *, name: str, starts_at: float, ends_at: float,
                         channel_id: int, fresh: bool, now: float,
                         check: Callable[[list[Season]], None]) -> Season:
        """Add a season to a server. ``check`` sees the server's seasons first, in the same
        transaction (one server's seasons are added one at a time), and raises to refuse."""
        check_int(guild_id, "server id")
        check_int(channel_id, "channel id")
        async with self._transaction() as db:
            # Taking the server's settings row in hand queues a second manager's season
            # behind this one, on both backends, so two cannot overlap.
            await db.execute(
                "INSERT INTO server_settings (guild_id, settings, updated_at) VALUES (?, '{}', ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET updated_at = server_settings.updated_at",
                (guild_id, now))
            check(await self._seasons(db, "guild_id = ?", (guild_id,)))
            await db.execute(
                "INSERT INTO seasons (guild_id, name, starts_at, ends_at, channel_id, fresh, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, name, starts_at, ends_at, channel_id, int(fresh), now))
            (added,) = await self._seasons(
                db, "guild_id = ? AND starts_at = ?", (guild_id, starts_at))
        return added

    async def end_season(self, season: Season, now: float) -> Season | None:
        """End ``season`` at ``now`` if it is under way (its standings are then due), or
        remove it if it has not begun; the season as it stands, ``None`` if removed."""
        async with self._transaction() as db:
            if now < season.starts_at:
                await db.execute("DELETE FROM seasons WHERE id = ? AND closed_at IS NULL "
                                 "AND starts_at > ?", (season.id, now))
            else:
                await db.execute("UPDATE seasons SET ends_at = ? WHERE id = ? AND ends_at > ? "
                                 "AND closed_at IS NULL", (now, season.id, now))
            found = await self._seasons(db, "id = ?", (season.id,))
        return found[0] if found else None

    async def seasons_due(self, now: float) -> list[Season]:
        """Every server's seasons over at ``now`` whose standings are not kept yet."""
        async with self._reading() as db:
            return await self._seasons(db, "closed_at IS NULL AND ends_at <= ?", (now,))

    async def close_season(self, season: Season, now: float,
                           announce: Sequence[Announcement]) -> bool:
        """Keep ``season``'s final standings (each game rated in it, every player ranked)
        and queue ``announce``, once; whether this call did."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE seasons SET closed_at = ? WHERE id = ? AND closed_at IS NULL "
                "AND ends_at <= ?", (now, season.id, now))
            if cursor.rowcount != 1:
                return False
            games = await db.execute_fetchall(
                "SELECT DISTINCT game FROM season_ratings WHERE season_id = ? ORDER BY game",
                (season.id,))
            for (game,) in games:
                table = await self._leaders(db, season.guild_id, game, None, season)
                await db.executemany(
                    "INSERT INTO season_standings (season_id, game, place, user_id, name, "
                    "rating, games, provisional) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(season.id, game, place, user, name, rating.shown, rating.games,
                      int(rating.provisional))
                     for place, (user, name, rating) in enumerate(table, start=1)])
            await self._queue(db, announce, now)
        return True

    async def season_games(self, season: Season) -> list[str]:
        """The games rated in ``season``, by slug."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT DISTINCT game FROM season_ratings WHERE season_id = ? ORDER BY game",
                (season.id,))
        return [str(row[0]) for row in rows]

    async def season_standings(self, season: Season, limit: int | None = None,
                               ) -> dict[str, list[tuple[str, int, int, bool]]]:
        """A closed season's final standings as kept: per game, ``(name, rating, rated
        games, provisional)`` by place (a player who deleted their data under the name
        :meth:`forget` gave them)."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT game, place, name, rating, games, provisional FROM season_standings "
                "WHERE season_id = ? AND place <= ? ORDER BY game, place",
                (season.id, limit if limit is not None else 1 << 62))
        out: dict[str, list[tuple[str, int, int, bool]]] = {}
        for game, _place, name, rating, games, provisional in rows:
            out.setdefault(str(game), []).append((str(name), int(rating), int(games),
                                                  bool(provisional)))
        return out

    async def create_lobby(self, *, channel_id: int, guild_id: int | None, game: str,
                           creator_id: int, options: Mapping[str, Any],
                           settings: Mapping[str, Any], now: float,
                           parent_id: int | None = None, seats: Sequence[SeatRecord] = (),
                           opening: int | None = None, lobby_message_id: int | None = None,
                           rematch_of: int | None = None) -> GameRecord:
        """Open a lobby with ``seats`` in the channel (a thread of ``parent_id``, when
        given), its message ``lobby_message_id`` if already posted; the ``opening`` it
        comes from notes it in the same write. :class:`ChannelBusyError` if the channel is
        taken, :class:`RematchTakenError` if ``rematch_of`` already has its rematch."""
        options_text = dump_object(options, "options")
        settings_text = dump_object(settings, "settings")
        for value, what in ((channel_id, "channel id"), (guild_id, "server id"),
                            (creator_id, "user id"), (parent_id, "channel id"),
                            (lobby_message_id, "message id")):
            check_int(value, what)
        try:
            async with self._transaction() as db:
                async with db.execute(
                        "INSERT INTO games (channel_id, guild_id, game, status, creator_id, "
                        "options, settings, seats, version, created_at, updated_at, "
                        "parent_id, lobby_message_id, rematch_of) VALUES "
                        "(?, ?, ?, 'lobby', ?, ?, ?, ?, 1, ?, ?, ?, ?, ?) RETURNING id",
                        (channel_id, guild_id, game, creator_id, options_text, settings_text,
                         dump_seats(seats), now, now, parent_id, lobby_message_id,
                         rematch_of)) as cursor:
                    row = await cursor.fetchone()
                assert row is not None
                if opening is not None:
                    await db.execute("UPDATE openings SET game_id = ?, updated_at = ? "
                                     "WHERE id = ?", (int(row[0]), now, opening))
                record = await self._fetch(db, int(row[0]))
        except self._integrity_errors:
            if rematch_of is not None:
                taken = await self._rematch_of(rematch_of)
                if taken is not None:
                    raise RematchTakenError(*taken) from None
            raise ChannelBusyError() from None
        return record

    # ----------------------------------------------------------------- opening lobbies

    async def _rematch_of(self, game_id: int) -> tuple[int, int] | None:
        """The rematch of ``game_id`` (its id and channel), if it has one."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT id, channel_id FROM games WHERE rematch_of = ?", (game_id,))
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def begin_opening(self, *, guild_id: int | None, channel_id: int, creator_id: int,
                            game: str, now: float, threaded: bool = False,
                            rematch_of: int | None = None) -> OpeningRecord:
        """Note a lobby being opened in ``channel_id`` (``threaded``: with a card there
        and a thread of its own): from now on it counts against its host's and its
        server's limits (:meth:`open_counts`). A rematch is refused with
        :class:`RematchTakenError` when ``rematch_of`` has one, or one being opened."""
        for value, what in ((guild_id, "server id"), (channel_id, "channel id"),
                            (creator_id, "user id")):
            check_int(value, what)
        if rematch_of is not None:
            taken = await self._rematch_of(rematch_of)
            if taken is not None:
                raise RematchTakenError(*taken)
        try:
            async with self._transaction() as db:
                rows = await db.execute_fetchall(
                    "INSERT INTO openings (guild_id, channel_id, creator_id, game, threaded, "
                    "rematch_of, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    f"RETURNING {OPENING_COLUMNS}",
                    (guild_id, channel_id, creator_id, game, int(threaded), rematch_of, now,
                     now))
                if rematch_of is not None:
                    # Made while this one was checked: the rematch is there already.
                    made = await db.execute_fetchall(
                        "SELECT id, channel_id FROM games WHERE rematch_of = ?", (rematch_of,))
                    if made:
                        raise RematchTakenError(int(made[0][0]), int(made[0][1]))
        except self._integrity_errors:
            raise RematchTakenError(None, None) from None
        return opening_record(rows[0])

    async def opening_step(self, opening_id: int, now: float, *, card_id: int | None = None,
                           thread_id: int | None = None) -> None:
        """Note a step of an opening done: its card posted, its thread started."""
        check_int(card_id, "message id")
        check_int(thread_id, "channel id")
        await self._alone("UPDATE openings SET card_id = COALESCE(?, card_id), "
                          "thread_id = COALESCE(?, thread_id), updated_at = ? WHERE id = ?",
                          (card_id, thread_id, now, opening_id))

    async def end_opening(self, opening_id: int) -> None:
        """The opening is over: its lobby is shown, or everything it made is taken back."""
        await self._alone("DELETE FROM openings WHERE id = ?", (opening_id,))

    async def stale_openings(self, before: float) -> list[OpeningRecord]:
        """Openings no step of which was noted since ``before``: their bot stopped."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {OPENING_COLUMNS} FROM openings WHERE updated_at < ? ORDER BY id",
                (before,))
        return [opening_record(row) for row in rows]

    async def claim_opening(self, opening: OpeningRecord, now: float) -> bool:
        """Take a stale opening over to finish it or take it back: ``False`` when another
        bot took it (or noted a step) since it was read."""
        return await self._alone(
            "UPDATE openings SET updated_at = ? WHERE id = ? AND updated_at = ?",
            (now, opening.id, opening.updated_at)) == 1

    # ----------------------------------------------------------------- places that refuse

    async def hold(self, game_id: int, why: str, until: float) -> None:
        """The place ``game_id`` is shown in refuses the bot (``why``); look again at
        ``until``. Does not change the version: moves in flight are refused by reading it."""
        await self._alone("UPDATE games SET held = ?, held_until = ? WHERE id = ?",
                          (why, until, game_id))

    async def release(self, game_id: int, now: float,
                      announce: Sequence[Announcement] = ()) -> bool:
        """The game's place takes the bot's posts again: ``announce`` (who the game waits
        for) is queued in the same write. Whether it was held (if not, nothing is
        written: another bot released it first)."""
        async with self._transaction() as db:
            cursor = await db.execute("UPDATE games SET held = NULL, held_until = NULL "
                                      "WHERE id = ? AND held IS NOT NULL", (game_id,))
            if cursor.rowcount != 1:
                return False
            await self._queue(db, announce, now)
        return True

    async def held_games(self, until: float) -> list[GameRecord]:
        """Games under way (or lobbies) whose place refused the bot, due to be looked at
        again by ``until``."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE held IS NOT NULL AND "
                f"held_until <= ? AND status IN ('lobby', 'active') ORDER BY held_until, id",
                (until,))
        return readable(rows, "a held game, %s, cannot be read: %s")

    async def stale_lobbies(self, before: float) -> list[GameRecord]:
        """Lobbies nobody changed since ``before``."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'lobby' AND updated_at < ? "
                f"ORDER BY updated_at, id", (before,))
        return readable(rows, "a lobby, %s, cannot be read: %s")

    async def close_lobby(self, game_id: int, expected_version: int, now: float,
                          announce: Sequence[Announcement] = ()) -> GameRecord:
        """Close a lobby nobody started (it expired), queuing ``announce`` with it."""
        async with self._transaction() as db:
            record = await self._guarded_update(
                db, game_id, expected_version, ("lobby",), "abort",
                "status = 'aborted', updated_at = ?, next_reminder_at = NULL", (now,),
                returning=True)
            await self._queue(db, announce, now)
        assert record is not None
        return record

    async def set_seats(self, game_id: int, expected_version: int, seats: Sequence[SeatRecord],
                        now: float, *, creator_id: int | None = None,
                        settings: Mapping[str, Any] | None = None) -> GameRecord:
        """Replace all seats of a lobby (join, leave, add an AI, remove someone).

        ``creator_id`` hands the lobby to another player (its creator left); ``settings``
        replaces the table's settings in the same write.
        """
        assignments, params = "seats = ?, updated_at = ?", [dump_seats(seats), now]
        if creator_id is not None:
            check_int(creator_id, "user id")
            assignments += ", creator_id = ?"
            params.append(creator_id)
        if settings is not None:
            assignments += ", settings = ?"
            params.append(dump_object(settings, "settings"))
        return await self._write(game_id, expected_version, ("lobby",), "change seats",
                                 assignments, params)

    async def set_ended_settings(self, game_id: int, expected_version: int,
                                 settings: Mapping[str, Any]) -> GameRecord:
        """Replace an ended game's settings (what it keeps after its end, its rematch)."""
        return await self._write(game_id, expected_version, ("finished", "aborted"),
                                 "change settings", "settings = ?",
                                 [dump_object(settings, "settings")])

    async def _alone(self, sql: str, params: Sequence[Any]) -> int:
        """Write one statement, a transaction by itself; how many rows it changed."""
        async with self._transaction() as db:
            cursor = await db.execute(sql, params)
            return int(cursor.rowcount)

    async def _set_message(self, game_id: int, column: str, message_id: int | None) -> None:
        check_int(message_id, "message id")
        if await self._alone(f"UPDATE games SET {column} = ? WHERE id = ?",
                             (message_id, game_id)) != 1:
            raise NotFoundError("game")

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the lobby message; does not change the version."""
        await self._set_message(game_id, "lobby_message_id", message_id)

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the latest board message; does not change the version."""
        await self._set_message(game_id, "board_message_id", message_id)

    async def start(self, game_id: int, expected_version: int, *, seed: int | None,
                    state_json: str, seats: Sequence[SeatRecord], now: float,
                    next_reminder_at: float | None,
                    announce: Sequence[Announcement] = (),
                    clock: ClockWrite | None = None) -> GameRecord:
        """Turn the lobby into an active game with its first state and final seats
        (queuing ``announce`` in the outbox and starting its ``clock`` in the same
        transaction)."""
        check_int(seed, "seed")
        timed = ", clock = ?, clock_due_at = ?" if clock is not None else ""
        async with self._transaction() as db:
            await self._guarded_update(
                db, game_id, expected_version, ("lobby",), "start",
                "status = 'active', seed = ?, state_json = ?, seats = ?, updated_at = ?, "
                "turn_started_at = ?, reminders_sent = 0, next_reminder_at = ?" + timed,
                (seed, state_json, dump_seats(seats), now, now, next_reminder_at,
                 *_clock_values(clock)))
            await self._queue(db, announce, now)
            record = await self._fetch(db, game_id)
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
                           announce: Sequence[Announcement] = (),
                           interaction_id: int | None = None,
                           clock: ClockWrite | None = None) -> GameRecord:
        """Log several actions (a move and the AI replies) and the final state at once.

        Raises :class:`ConflictError`, writing nothing, unless the game is still active
        at ``expected_version``. With ``turn_changed`` the turn clock restarts and the
        reminders are rescheduled to ``next_reminder_at``; otherwise they stay as they
        were. ``finish`` ends the game in the same transaction (see :meth:`finish`);
        ``seats`` replaces every seat in it too (a seat handed to the AI and its reply),
        and ``announce`` queues its announcements in the outbox. ``interaction_id`` (the
        Discord interaction that asked for the move) is kept with the first action under
        a unique key: asking again raises :class:`AlreadyDoneError` and writes nothing.
        ``clock`` is the table's clocks as the moves leave them.
        """
        if not moves:
            raise StoreError("There is no move to save.")
        assignments = "state_json = ?, updated_at = ?"
        params: list[Any] = [state_json, now]
        if clock is not None:
            assignments += ", clock = ?, clock_due_at = ?"
            params += _clock_values(clock)
        if seats is not None:
            assignments += ", seats = ?"
            params.append(dump_seats(seats))
        if turn_changed:
            assignments += ", turn_started_at = ?, reminders_sent = 0, next_reminder_at = ?"
            params += [now, next_reminder_at]
        check_int(interaction_id, "interaction id")
        try:
            async with self._transaction() as db:
                try:
                    # A finished game is changed again below: read back at the end.
                    updated = await self._guarded_update(
                        db, game_id, expected_version, ("active",), "play", assignments,
                        params, returning=finish is None)
                except StoreError:
                    # The game moved on: by this very interaction's move, delivered twice?
                    # (Asked only then, a move costs one round trip less; a twin that
                    # gets past the update is stopped by the unique interaction key.)
                    if interaction_id is not None:
                        await self._not_done(db, interaction_id)
                    raise
                await db.executemany(
                    "INSERT INTO actions (game_id, n, seat, user_id, notation, narration, at, "
                    "undoable, public, private, before, episode, interaction_id) VALUES (?, "
                    "(SELECT COALESCE(MAX(n), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?, "
                    "?, ?, ?, ?, ?, ?, ?, ?)",
                    [(game_id, game_id, m.seat, m.user_id, m.notation, m.narration, now,
                      int(bool(m.undoable)), m.public, dump_private(m.private), m.before,
                      m.episode, interaction_id if i == 0 else None)
                     for i, m in enumerate(moves)])
                if finish is not None:
                    await self._finish_in_transaction(db, game_id, state_json, finish, now)
                await self._queue(db, announce, now)
                record = updated or await self._fetch(db, game_id)
        except self._integrity_errors:
            if interaction_id is None:
                raise
            # Another delivery of the same interaction committed its move first.
            raise AlreadyDoneError() from None
        return record

    async def _not_done(self, db: Any, interaction_id: int) -> None:
        """Raise :class:`AlreadyDoneError` if ``interaction_id`` already made a move."""
        if await db.execute_fetchall("SELECT 1 FROM actions WHERE interaction_id = ?",
                                     (interaction_id,)):
            raise AlreadyDoneError()

    async def game_for_move(self, interaction_id: int | None, *, channel_id: int | None = None,
                            game_id: int | None = None) -> tuple[GameRecord | None, bool]:
        """The game a move asks for (the game ``game_id`` in any status, else the lobby or
        game under way in ``channel_id``) and whether the interaction ``interaction_id``
        already made a move, in one read (a move makes one trip less). Only when there is
        no such game is the interaction looked up alone."""
        made = "EXISTS (SELECT 1 FROM actions WHERE interaction_id = ?)"
        where, key = (("id = ?", game_id) if game_id is not None else
                      ("channel_id = ? AND status IN ('lobby', 'active')", channel_id))
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS}, {made} FROM games WHERE {where}",
                (interaction_id, key))
        if rows:
            return game_record(rows[0][:-1]), bool(rows[0][-1])
        return None, interaction_id is not None and await self.move_of(
            interaction_id) is not None

    async def move_of(self, interaction_id: int) -> tuple[int, int] | None:
        """The game and action number that the interaction ``interaction_id`` made, if any."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT game_id, n FROM actions WHERE interaction_id = ?", (interaction_id,))
        return (int(rows[0][0]), int(rows[0][1])) if rows else None


    async def undo_last(self, game_id: int, expected_version: int, *, state_json: str,
                        now: float) -> GameRecord:
        """Delete the last action and store ``state_json`` as the state, atomically.

        The turn clock and reminder schedule are left as they were.
        """
        async with self._transaction() as db:
            await self._guarded_update(db, game_id, expected_version, ("active",), "undo",
                                       "state_json = ?, updated_at = ?", (state_json, now))
            cursor = await db.execute(
                "DELETE FROM actions WHERE game_id = ? AND n = "
                "(SELECT MAX(n) FROM actions WHERE game_id = ?)", (game_id, game_id))
            if cursor.rowcount != 1:
                raise NotFoundError("undo")
            record = await self._fetch(db, game_id)
        return record

    async def undo_to(self, game_id: int, expected_version: int, *, n: int, state_json: str,
                      now: float, announce: Sequence[Announcement] = ()) -> GameRecord:
        """Delete action ``n`` and every later one, storing ``state_json`` (the state
        before ``n``), atomically, with ``announce`` queued. The turn clock and reminders
        are left as they were."""
        async with self._transaction() as db:
            await self._guarded_update(db, game_id, expected_version, ("active",), "undo",
                                       "state_json = ?, updated_at = ?", (state_json, now))
            cursor = await db.execute("DELETE FROM actions WHERE game_id = ? AND n >= ?",
                                      (game_id, int(n)))
            if cursor.rowcount < 1:
                raise NotFoundError("undo")
            await self._queue(db, announce, now)
            record = await self._fetch(db, game_id)
        return record

    async def replace_seat(self, game_id: int, expected_version: int, seat: SeatRecord,
                           now: float) -> GameRecord:
        """Put ``seat`` in place of the seat with the same number (e.g. a human hands over
        to an AI); allowed in a lobby or an active game."""
        return await self.replace_seats(game_id, expected_version, (seat,), now)

    async def replace_seats(self, game_id: int, expected_version: int,
                            seats: Sequence[SeatRecord], now: float,
                            announce: Sequence[Announcement] = (),
                            clock: ClockWrite | None = None) -> GameRecord:
        """Put each of ``seats`` in place of the seat with the same number, at once, with
        ``announce`` queued (and the ``clock`` the change leaves); allowed in a lobby or
        an active game."""
        async with self._transaction() as db:
            current = await self._fetch(db, game_id)
            if current.version != expected_version:
                raise ConflictError()
            if current.status not in OPEN_STATUSES:
                raise WrongStatusError(current.status, "change seats")
            numbers = {s.seat for s in current.seats}
            for seat in seats:
                if seat.seat not in numbers:
                    raise NotFoundError("seat", seat.seat)
            by_number = {s.seat: s for s in seats}
            merged = [by_number.get(s.seat, s) for s in current.seats]
            timed = ", clock = ?, clock_due_at = ?" if clock is not None else ""
            await self._guarded_update(db, game_id, expected_version, OPEN_STATUSES, "change seats",
                                       "seats = ?, updated_at = ?" + timed,
                                       (dump_seats(merged), now, *_clock_values(clock)))
            await self._queue(db, announce, now)
            record = await self._fetch(db, game_id)
        return record

    # ----------------------------------------------------------------- the end

    async def _finish_in_transaction(self, db: Any, game_id: int, state_json: str,
                                     finish: FinishRecord, now: float) -> None:
        """Mark the (already version-checked) game finished and record its placements."""
        seats = [p[1] for p in finish.placements]
        if len(set(seats)) != len(seats):
            raise StoreError("A result cannot place the same seat twice.")
        await db.execute(
            "UPDATE games SET status = 'finished', state_json = ?, result_json = ?, "
            "finished_at = ?, updated_at = ?, next_reminder_at = NULL, clock_due_at = NULL "
            "WHERE id = ?",
            (state_json, finish.result_json, now, now, game_id))
        # Nothing can be undone any more: the snapshots kept for undo may go.
        await db.execute("UPDATE actions SET before = NULL WHERE game_id = ?", (game_id,))
        await db.executemany(
            "INSERT INTO results (game_id, seat, guild_id, channel_id, game, user_id, place, won, "
            "finished_at) SELECT id, CAST(? AS BIGINT), guild_id, channel_id, game, "
            "CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), "
            "CAST(? AS DOUBLE PRECISION) FROM games WHERE id = ?",
            [(seat, user_id, place, int(bool(won)), now, game_id)
             for user_id, seat, place, won in finish.placements])
        await self._rate_in_transaction(db, game_id, now)

    async def _rate_in_transaction(self, db: Any, game_id: int, now: float) -> None:
        """Update the ratings of the finished game's human players, inside the caller's
        transaction: each seated player at their place, and every player who left it
        before the end (their seat went to an AI) below everyone, as a loss for them
        only. AI seats are not rated; a game with fewer than two rated players rates
        nobody."""
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
        if guild:
            await self._rate_season(db, int(guild), slug, users, placed, known, now)

    async def _rate_season(self, db: Any, guild: int, slug: str, users: Sequence[int],
                           placed: Mapping[int, int], known: Mapping[int, Rating],
                           now: float) -> None:
        """Rate the game again in the season it ended in, if any, with the season's own
        ratings: a player's first game of a season starts from their all-time rating here
        before this game (ratings carry over) or a newcomer's (``fresh``). The all-time
        ratings are never touched by seasons."""
        season = season_at(await self._seasons(
            db, "guild_id = ? AND starts_at <= ? AND ends_at > ?", (guild, now, now)), now)
        if season is None:
            return
        marks = ", ".join("?" for _ in users)
        async with db.execute(
                f"SELECT user_id, mu, sigma, games FROM season_ratings WHERE season_id = ? "
                f"AND game = ? AND user_id IN ({marks})", (season.id, slug, *users)) as cursor:
            mine = {int(u): Rating(mu, sigma, games)
                    for u, mu, sigma, games in await cursor.fetchall()}
        before = [mine.get(u) or (Rating() if season.fresh else
                                  replace(known.get(u, Rating()), games=0)) for u in users]
        new = rate([(rating, placed[u]) for rating, u in zip(before, users, strict=True)])
        await db.executemany(
            "INSERT INTO season_ratings (season_id, game, user_id, mu, sigma, games, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (season_id, game, user_id) "
            "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
            "updated_at = excluded.updated_at",
            [(season.id, slug, u, r.mu, r.sigma, r.games, now)
             for u, r in zip(users, new, strict=True)])

    async def finish(self, game_id: int, expected_version: int, *, state_json: str,
                     result_json: str,
                     placements: Sequence[tuple[int | None, int, int, bool]],
                     now: float, seats: Sequence[SeatRecord] | None = None,
                     announce: Sequence[Announcement] = ()) -> GameRecord:
        """End an active game: store the result and one ``results`` row per placement
        ``(user_id, seat, place, won)``; ``seats`` replaces every seat at the same time, and
        ``announce`` is queued."""
        assignments = "updated_at = ?"
        params: list[Any] = [now]
        if seats is not None:
            assignments += ", seats = ?"
            params.append(dump_seats(seats))
        async with self._transaction() as db:
            await self._guarded_update(db, game_id, expected_version, ("active",), "finish",
                                       assignments, params)
            await self._finish_in_transaction(
                db, game_id, state_json, FinishRecord(result_json, tuple(placements)), now)
            await self._queue(db, announce, now)
            record = await self._fetch(db, game_id)
        return record

    async def abort(self, game_id: int, now: float) -> None:
        """End a lobby or active game without a result, freeing the channel.

        Aborting an aborted game does nothing; a finished game cannot be aborted.
        Works even when the row's JSON is damaged, so a broken game can be cleared.
        """
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'aborted', version = version + 1, updated_at = ?, "
                "next_reminder_at = NULL, clock_due_at = NULL "
                "WHERE id = ? AND status IN ('lobby', 'active')",
                (now, game_id))
            if cursor.rowcount != 1:
                raw = await self._raw(db, game_id)
                if raw is None:
                    raise NotFoundError("game")
                if raw[0] != "aborted":
                    raise WrongStatusError(raw[0], "abort")

    # ----------------------------------------------------------------- reminders

    async def due_reminders(self, now: float) -> list[GameRecord]:
        """Active games whose next reminder is due at ``now``, earliest first (not those
        whose place refuses the bot: see :meth:`hold`).

        A damaged row is logged and skipped, so it cannot hold up other channels.
        """
        return await self._due("next_reminder_at", now, "skipping reminders for game %s: %s")

    async def _due(self, column: str, now: float, skipping: str) -> list[GameRecord]:
        """Active games not held whose ``column`` (a time) is due at ``now``, earliest
        first; a damaged row is logged (``skipping``) and left out."""
        async with self._reading() as db, db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' "
                f"AND {column} IS NOT NULL AND {column} <= ? "
                f"AND held IS NULL ORDER BY {column}, id", (now,)) as cursor:
            rows = await cursor.fetchall()
        return readable(rows, skipping)

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
                "UPDATE games SET reminders_sent = ?, next_reminder_at = ? "
                "WHERE id = ? AND version = ? AND status = 'active' AND reminders_sent = ?",
                (reminders_sent, next_reminder_at, game_id, expected_version,
                 reminders_sent - 1))
            claimed = cursor.rowcount == 1
            if claimed:
                await self._queue(db, announce, now)
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

    # ----------------------------------------------------------------- clocks

    async def due_clocks(self, now: float) -> list[GameRecord]:
        """Active games whose clocks are due a look at ``now`` (a reminder, time run out, a
        charge), earliest first, not those whose place refuses the bot (see :meth:`hold`).
        A damaged row is logged and skipped."""
        return await self._due("clock_due_at", now, "skipping the clock of game %s: %s")

    async def set_clock(self, game_id: int, expected_version: int, clock: ClockWrite, *,
                        announce: Sequence[Announcement] = (), now: float = 0.0) -> bool:
        """Store the game's clocks as charged at ``now`` (with ``announce``, its low-time
        reminders, queued in the same write), only while it is active at
        ``expected_version`` and its clocks are still ``clock``'s predecessor as read (a
        move saved meanwhile wins); the version is not bumped, so buttons stay valid.
        Whether it was stored."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET clock = ?, clock_due_at = ? WHERE id = ? AND version = ? "
                "AND status = 'active'", (*_clock_values(clock), game_id, expected_version))
            stored = cursor.rowcount == 1
            if stored:
                await self._queue(db, announce, now)
        return stored

    async def uptime_beat(self, now: float, outage: float) -> None:
        """Note that a bot is running at ``now``: the latest running stretch goes on to
        ``now``, or, when its last beat is more than ``outage`` seconds old (the bot was
        down meanwhile), a new stretch begins."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE uptime SET beat_at = ? WHERE id = (SELECT MAX(id) FROM uptime) "
                "AND beat_at >= ? AND beat_at <= ?", (now, now - outage, now))
            if cursor.rowcount != 1:
                rows = await db.execute_fetchall(
                    "SELECT 1 FROM uptime WHERE id = (SELECT MAX(id) FROM uptime) "
                    "AND beat_at > ?", (now,))
                if not rows:
                    await db.execute("INSERT INTO uptime (started_at, beat_at) VALUES (?, ?)",
                                     (now, now))
                    # A running clock is charged at least hourly while a bot runs, so only
                    # the stretch before the latest outage is ever asked about; a month's
                    # margin keeps the table from growing with every restart.
                    await db.execute(
                        "DELETE FROM uptime WHERE beat_at < ? AND id < "
                        "(SELECT MAX(id) FROM uptime) - 1", (now - UPTIME_KEPT,))

    async def downtime(self, since: float, now: float, outage: float,
                       ) -> list[tuple[float, float]]:
        """The stretches between ``since`` and ``now`` when no bot was running: the gaps
        between running stretches, and the time since the last beat when that is more
        than ``outage`` seconds ago (none known when no bot ever beat)."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT started_at, beat_at FROM uptime WHERE beat_at >= ? "
                "OR id = (SELECT MAX(id) FROM uptime WHERE beat_at < ?) ORDER BY started_at",
                (since, since))
        gaps: list[tuple[float, float]] = []
        stretches = [(float(a), float(b)) for a, b in rows]
        for (_, ended), (began, _) in itertools.pairwise(stretches):
            if began > ended:
                gaps.append((max(ended, since), min(began, now)))
        if stretches and now - stretches[-1][1] > outage:
            gaps.append((max(stretches[-1][1], since), now))
        return [(a, b) for a, b in gaps if b > a]

    # ----------------------------------------------------------------- quiet hours

    async def _of_users(self, sql: str, user_ids: Sequence[int],
                        *params: Any) -> list[Any]:
        """The rows ``sql`` reads for ``user_ids`` (put in place of ``{users}``) and then
        ``params``; none for no users."""
        users = [int(u) for u in user_ids]
        if not users:
            return []
        marks = ", ".join("?" for _ in users)
        async with self._reading() as db:
            return list(await db.execute_fetchall(sql.format(users=marks), [*users, *params]))

    async def set_quiet_hours(self, user_id: int, hours: tuple[str, int, int] | None,
                              now: float) -> None:
        """Keep ``(timezone, start hour, end hour)`` for the user, or forget them (None)."""
        check_int(user_id, "user id")
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
        rows = await self._of_users(
            "SELECT user_id, timezone, start_hour, end_hour FROM quiet_hours "
            "WHERE user_id IN ({users})", user_ids)
        return {int(u): (str(tz), int(start), int(end)) for u, tz, start, end in rows}

    async def add_vacation(self, user_id: int, starts: float, ends: float,
                           now: float) -> None:
        """Keep a vacation of the user from ``starts`` to ``ends``."""
        check_int(user_id, "user id")
        async with self._transaction() as db:
            await db.execute("INSERT INTO vacations (user_id, starts, ends, created_at) "
                             "VALUES (?, ?, ?, ?)", (user_id, starts, ends, now))

    async def end_vacations(self, user_id: int, now: float) -> int:
        """End the user's current vacation now and cancel the ones to come; how many."""
        check_int(user_id, "user id")
        async with self._transaction() as db:
            ended = await db.execute("UPDATE vacations SET ends = ? WHERE user_id = ? AND "
                                     "starts < ? AND ends > ?", (now, user_id, now, now))
            cancelled = await db.execute("DELETE FROM vacations WHERE user_id = ? AND "
                                         "starts >= ?", (user_id, now))
            return ended.rowcount + cancelled.rowcount

    async def vacations(self, user_ids: Sequence[int], *, ending_after: float,
                        ) -> dict[int, list[tuple[float, float]]]:
        """The vacations of each of ``user_ids`` that end after ``ending_after``, in order."""
        rows = await self._of_users(
            "SELECT user_id, starts, ends FROM vacations WHERE user_id IN ({users}) "
            "AND ends > ? ORDER BY starts", user_ids, ending_after)
        out: dict[int, list[tuple[float, float]]] = {}
        for user, starts, ends in rows:
            out.setdefault(int(user), []).append((float(starts), float(ends)))
        return out

    async def set_notify(self, user_id: int, mode: str, now: float) -> None:
        """Keep how the user is reached: ``channel`` (the default), ``dm`` or ``quiet``."""
        check_int(user_id, "user id")
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO notify (user_id, mode, dm_closed, updated_at) VALUES (?, ?, 0, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET mode = excluded.mode, dm_closed = 0, "
                "updated_at = excluded.updated_at", (user_id, mode, now))

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's defaults for new games (empty: none set). A damaged row reads as none:
        the defaults of the bot then hold."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT settings FROM server_settings WHERE guild_id = ?", (guild_id,))
        if not rows:
            return {}
        try:
            value = json.loads(rows[0][0])
        except (TypeError, ValueError):
            return {}
        return value if isinstance(value, dict) else {}

    async def set_server_settings(self, guild_id: int, settings: Mapping[str, Any],
                                  now: float) -> None:
        """Keep a server's defaults for new games (the whole mapping, replacing the last)."""
        check_int(guild_id, "server id")
        text = dump_object(settings, "settings")
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO server_settings (guild_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at", (guild_id, text, now))

    async def vote_seat(self, game_id: int, player: int, voter: int, give: str,
                        now: float) -> dict[int, str]:
        """Keep ``voter``'s vote on ``player``'s seat (``give`` is what to do with it); all
        the votes on that seat now, by voter."""
        check_int(player, "user id")
        check_int(voter, "user id")
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO seat_votes (game_id, player, voter, give, at) VALUES "
                "(?, ?, ?, ?, ?) ON CONFLICT (game_id, player, voter) DO UPDATE SET "
                "give = excluded.give, at = excluded.at", (game_id, player, voter, give, now))
            async with db.execute("SELECT voter, give FROM seat_votes WHERE game_id = ? "
                                  "AND player = ?", (game_id, player)) as cursor:
                rows = await cursor.fetchall()
        return {int(v): str(g) for v, g in rows}

    async def clear_seat_votes(self, game_id: int, player: int) -> None:
        """Forget the votes on ``player``'s seat (they are back, or the vote carried)."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM seat_votes WHERE game_id = ? AND player = ?",
                             (game_id, int(player)))

    async def set_reminder_pings(self, user_id: int, pings: str, now: float) -> None:
        """Keep which reminders ping the user: ``each`` (the default), ``first`` or
        ``none``; how they are reached stays as it was."""
        check_int(user_id, "user id")
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO notify (user_id, mode, dm_closed, updated_at, reminders) "
                "VALUES (?, 'channel', 0, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "reminders = excluded.reminders, updated_at = excluded.updated_at",
                (user_id, now, pings))

    async def reminder_pings(self, user_ids: Sequence[int]) -> dict[int, str]:
        """Which reminders ping each of ``user_ids`` that chose (``first`` or ``none``;
        ``each`` for the rest)."""
        rows = await self._of_users(
            "SELECT user_id, reminders FROM notify WHERE user_id IN ({users})", user_ids)
        return {int(u): str(pings) for u, pings in rows}

    async def notify_modes(self, user_ids: Sequence[int]) -> dict[int, str]:
        """How each of ``user_ids`` that chose is reached: ``dm`` (only while Discord
        takes their DMs), ``quiet`` or ``channel``."""
        rows = await self._of_users(
            "SELECT user_id, mode, dm_closed FROM notify WHERE user_id IN ({users})", user_ids)
        return {int(u): _reached_by(mode, closed) for u, mode, closed in rows}

    async def reach(self, user_ids: Sequence[int], *, ending_after: float) -> Reach:
        """:meth:`quiet_hours`, :meth:`vacations` (ending after ``ending_after``) and
        :meth:`notify_modes` of ``user_ids`` in one statement: every move reads them."""
        users = [int(u) for u in user_ids]
        if not users:
            return Reach({}, {}, {})
        marks = ", ".join("?" for _ in users)
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT 'q', user_id, timezone, start_hour, end_hour FROM quiet_hours "
                f"WHERE user_id IN ({marks}) UNION ALL "
                f"SELECT 'v', user_id, NULL, starts, ends FROM vacations "
                f"WHERE user_id IN ({marks}) AND ends > ? UNION ALL "
                f"SELECT 'n', user_id, mode, dm_closed, NULL FROM notify "
                f"WHERE user_id IN ({marks})", [*users, *users, ending_after, *users])
        hours: dict[int, tuple[str, int, int]] = {}
        vacations: dict[int, list[tuple[float, float]]] = {}
        modes: dict[int, str] = {}
        for kind, user, text, first, second in rows:
            if kind == "q":
                hours[int(user)] = (str(text), int(first), int(second))
            elif kind == "v":
                vacations.setdefault(int(user), []).append((float(first), float(second)))
            else:
                modes[int(user)] = _reached_by(text, first)
        for spans in vacations.values():
            spans.sort()
        return Reach(hours, vacations, modes)

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
        """Add ``announcements`` to the outbox in a transaction of their own (for what is
        shown without a change, such as a board a player posts again)."""
        async with self._transaction() as db:
            await self._queue(db, announcements, now)

    async def _queue(self, db: Any, announcements: Sequence[Announcement], now: float) -> None:
        """Add ``announcements`` to the outbox inside the caller's transaction, each in its
        lane, due at once (or at their own ``due_at``)."""
        if not announcements:
            return
        await db.executemany(
            "INSERT INTO outbox (channel_id, guild_id, game_id, kind, content, mentions, nonce, "
            "created_at, due_at, data, lane) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(check_int(a.channel_id, "channel id"), check_int(a.guild_id, "server id"),
              a.game_id, a.kind, a.content, json.dumps([int(u) for u in a.mentions]),
              secrets.token_hex(8), now, now if a.due_at is None else max(now, a.due_at),
              None if a.data is None else dump_object(a.data, "announcement"), a.lane)
             for a in announcements])

    #: Which rows of a lane its head is taken from: a row that was tried (and waits for its
    #: back-off) holds the rest, one that waits for its own time (a ping for a player away)
    #: does not.
    _WAITING = "(i.attempts > 0 OR i.due_at <= ?)"

    async def claim_announcements(self, now: float, *, lease: float, owner: str | None = None,
                                  channel_id: int | None = None,
                                  lanes: Sequence[str] | None = None, limit: int = 50,
                                  eager: bool = False,
                                  queued_before: float | None = None,
                                  queued: bool = False) -> list[OutboxRecord]:
        """Claim due announcements to post: the oldest pending one of each lane (of
        ``lanes``, or ``channel_id``'s lane, if given), unless a lease on it still runs.

        Each claimed row is leased to ``owner`` until ``now + lease``: until then no other
        sender (another task or process) claims it, and the later rows of its lane wait,
        so a lane's announcements go out one at a time and in order. A row waiting for its
        own ``due_at`` (a ping for a player away) does not hold its lane; a row waiting
        for its back-off after a failure does, and ``eager`` claims it before its back-off
        ends (a new change in the channel tries again at once). With ``queued_before``, a
        lane whose head was queued later and never tried is left alone (the handler of its
        change is delivering it), but for direct messages. The claimer must end the
        lease with :meth:`announcement_delivered`, :meth:`board_shown`,
        :meth:`retry_announcement`, :meth:`release_announcements` or
        :meth:`drop_announcement`; if it dies instead, its lease is ended by
        :meth:`forget_senders`, or runs out, and the row is claimed again (its nonce keeps
        Discord from posting it twice). ``queued``: the caller has just queued an
        announcement in these lanes (the handler of a change delivering it), so the read
        that asks first whether anything is due is skipped: it would find that one.
        """
        if channel_id is not None:
            lanes = [*(lanes or ()), channel_lane(channel_id)]
        where, params = "", []
        if lanes is not None:
            if not lanes:
                return []
            where = f"AND i.lane IN ({', '.join('?' for _ in lanes)}) "
            params = list(lanes)
        due = "(i.due_at <= ? OR i.attempts > 0)" if eager else "i.due_at <= ?"
        fresh, settled = "", []
        if queued_before is not None:
            fresh = "AND (o.attempts > 0 OR o.created_at <= ? OR o.lane LIKE 'user:%') "
            settled = [queued_before]
        # Most claims find nothing due (every board shown asks first): a read, which takes
        # no write lock and waits for no writer, says so without a transaction.
        if not queued:
            async with self._reading() as db:
                if not await db.execute_fetchall(
                        f"SELECT 1 FROM outbox i WHERE i.status = 'pending' {where}"
                        f"AND {due} {fresh.replace('o.', 'i.')}LIMIT 1",
                        [*params, now, *settled]):
                    return []
        ready = "(o.due_at <= ? OR o.attempts > 0)" if eager else "o.due_at <= ?"
        async with self._transaction() as db:
            # Each lane's head, read from the index of pending rows only (outbox_lanes): a
            # claim costs in proportion to what waits, not to the delivered announcements
            # kept for keep_days. Rows another process has locked (it is claiming them) are
            # skipped, not waited for; once it commits, their lease keeps them from being
            # claimed twice.
            rows = await db.execute_fetchall(
                    "SELECT o.id, o.channel_id, o.guild_id, o.game_id, o.kind, o.content, "
                    "o.mentions, o.nonce, o.created_at, o.attempts, o.data, o.lane, "
                    "(SELECT COUNT(*) FROM outbox m WHERE m.lane = o.lane "
                    "AND m.status = 'pending'), "
                    "EXISTS (SELECT 1 FROM outbox m WHERE m.lane = o.lane AND "
                    "m.status = 'pending' AND m.id > o.id AND o.kind IN ('board', 'card') "
                    "AND m.kind = o.kind AND m.game_id = o.game_id), "
                    "g.version, g.board_message_id FROM outbox o "
                    "LEFT JOIN games g ON g.id = o.game_id "
                    "WHERE o.status = 'pending' AND o.id IN (SELECT MIN(i.id) FROM outbox i "
                    f"WHERE i.status = 'pending' AND {self._WAITING} {where}GROUP BY i.lane) "
                    f"AND {ready} AND (o.leased_until IS NULL OR o.leased_until <= ?) "
                    f"{fresh}ORDER BY o.id LIMIT ?{self._skip_locked}",
                    [now, *params, now, now, *settled, max(1, int(limit))])
            if rows:
                await db.executemany(
                    "UPDATE outbox SET leased_until = ?, leased_by = ?, attempts = attempts + 1 "
                    "WHERE id = ?", [(now + lease, owner, row[0]) for row in rows])
        out = []
        for (row_id, channel, guild, game_id, kind, content, mentions, nonce, created,
             attempts, data, lane, pending, superseded, version, shown) in rows:
            try:
                users = tuple(int(u) for u in json.loads(mentions))
            except (TypeError, ValueError):
                users = ()  # a damaged list pings nobody rather than blocking the lane
            try:
                said = json.loads(data) if data else None
            except (TypeError, ValueError):
                said = None  # worded as "damaged" rather than blocking the lane
            item = Announcement(channel_id=channel, guild_id=guild, game_id=game_id, kind=kind,
                                content=content, mentions=users, data=said)
            out.append(OutboxRecord(row_id, item, nonce, created, attempts + 1,
                                    more=int(pending) > 1, lane=str(lane),
                                    superseded=bool(superseded),
                                    version=None if version is None else int(version),
                                    shown=None if shown is None else int(shown)))
        return out

    async def announcement_delivered(self, announcement_id: int, message_id: int | None,
                                     now: float, follow: Sequence[Announcement] = ()) -> None:
        """Discord accepted the announcement (or it has nothing left to show): it is never
        sent again; ``follow`` is queued in the same transaction."""
        check_int(message_id, "message id")
        done = ("UPDATE outbox SET status = 'delivered', delivered_at = ?, message_id = ?, "
                "leased_until = NULL WHERE id = ? AND status = 'pending'")
        if not follow:
            await self._alone(done, (now, message_id, announcement_id))
            return
        async with self._transaction() as db:
            await db.executemany(done, [(now, message_id, announcement_id)])
            await self._queue(db, follow, now)

    async def board_shown(self, game_id: int, message_id: int, announcement_id: int,
                          now: float, follow: Sequence[Announcement] = ()) -> None:
        """A claimed board went out as message ``message_id``, in one transaction: the game
        notes it as its board on show, the announcement is delivered, and ``follow`` (what
        must come after a new board: the older one's buttons taken off, a finished game's
        thread archived) is queued."""
        check_int(message_id, "message id")
        async with self._transaction() as db:
            # Nothing reads what these change: they go in one trip with the COMMIT.
            await db.executemany("UPDATE games SET board_message_id = ? WHERE id = ?",
                                 [(message_id, game_id)])
            await db.executemany(
                "UPDATE outbox SET status = 'delivered', delivered_at = ?, message_id = ?, "
                "leased_until = NULL WHERE id = ? AND status = 'pending'",
                [(now, message_id, announcement_id)])
            await self._queue(db, follow, now)

    async def retry_announcement(self, announcement_id: int, due_at: float, error: str, *,
                                 mentions: Sequence[int] | None = None,
                                 data: Mapping[str, Any] | None = None,
                                 renew: bool = False) -> None:
        """Posting failed: release the lease; the announcement is due again at ``due_at``.
        What went out of it meanwhile can be taken off: ``mentions`` and ``data`` replace
        its own, and ``renew`` gives it a new nonce (a ping sent alone under the old one
        leaves its board to post as a new message)."""
        assignments, params = "leased_until = NULL, due_at = ?, last_error = ?", [due_at,
                                                                                error[:500]]
        if mentions is not None:
            assignments += ", mentions = ?"
            params.append(json.dumps([int(u) for u in mentions]))
        if data is not None:
            assignments += ", data = ?"
            params.append(dump_object(data, "announcement"))
        if renew:
            assignments += ", nonce = ?"
            params.append(secrets.token_hex(8))
        await self._alone(f"UPDATE outbox SET {assignments} WHERE id = ? AND status = 'pending'",
                          (*params, announcement_id))

    async def release_announcements(self, announcement_ids: Sequence[int]) -> None:
        """Give back claimed announcements nobody tried to post (their lane was busy in
        this process): due as they were, the claim not counted as an attempt."""
        if not announcement_ids:
            return
        await self._alone(
            f"UPDATE outbox SET leased_until = NULL, leased_by = NULL, attempts = attempts - 1 "
            f"WHERE id IN ({', '.join('?' for _ in announcement_ids)}) AND status = 'pending'",
            [int(i) for i in announcement_ids])

    async def drop_announcement(self, announcement_id: int, error: str) -> None:
        """Give the announcement up for good (Discord will never take it, or its place is
        gone), so the later ones of its lane can go."""
        await self._alone(
            "UPDATE outbox SET status = 'dropped', leased_until = NULL, last_error = ? "
            "WHERE id = ? AND status = 'pending'", (error[:500], announcement_id))

    async def pending_announcements(self, now: float | None = None, *,
                                    handlers_first: float = 0.0,
                                    ) -> tuple[int, float | None]:
        """How many announcements wait to be delivered, and when the next can be claimed
        at the earliest (``None`` when none waits): each lane's head at its back-off or,
        while leased, when its lease runs out; a row waiting for its own time (a player
        away) at that time; with ``handlers_first``, a row never tried that many seconds
        after it was queued (see :meth:`claim_announcements`). Without ``now``, every
        pending row counts as waiting."""
        at = FOREVER if now is None else now
        async with self._reading() as db, db.execute(
                "SELECT (SELECT COUNT(*) FROM outbox WHERE status = 'pending'), "
                f"MIN({self._greatest}(o.due_at, COALESCE(o.leased_until, o.due_at), "
                "CASE WHEN o.attempts = 0 AND o.lane NOT LIKE 'user:%' THEN o.created_at + ? "
                "ELSE o.due_at END)) "
                "FROM outbox o WHERE o.status = 'pending' AND ("
                "o.id = (SELECT MIN(i.id) FROM outbox i WHERE i.lane = o.lane AND "
                f"i.status = 'pending' AND {self._WAITING}) "
                "OR (o.attempts = 0 AND o.due_at > ?))",
                (float(handlers_first), at, at)) as cursor:
            row = await cursor.fetchone()
        if row is None or not row[0] or row[1] is None:
            return (int(row[0]) if row is not None and row[0] else 0), None
        return int(row[0]), float(row[1])

    # ----------------------------------------------------------------- senders

    async def sender_beat(self, sender: str, pid: int, mark: str | None, now: float) -> None:
        """Note that the sending process ``sender`` (``pid``, marked ``mark``: see
        :func:`bot.health.process_mark`) is alive at ``now``: its leases hold while its
        beat is fresh."""
        await self._alone(
            "INSERT INTO senders (id, pid, mark, beat_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at",
            (sender, int(pid), mark, now))

    async def senders(self) -> list[tuple[str, int, str | None, float]]:
        """Every sending process known: ``(sender, pid, mark, latest beat)``."""
        async with self._reading() as db:
            rows = await db.execute_fetchall("SELECT id, pid, mark, beat_at FROM senders")
        return [(str(s), int(p), None if m is None else str(m), float(b))
                for s, p, m, b in rows]

    async def lane_leased(self, lane: str, now: float) -> bool:
        """Whether the head of ``lane`` is held by a sender's running lease."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT 1 FROM outbox i WHERE i.lane = ? AND i.status = 'pending' AND "
                "i.leased_until > ? LIMIT 1", (lane, now))
        return bool(rows)

    async def forget_senders(self, senders: Sequence[str]) -> int:
        """Forget sending processes that stopped (or died): the announcements they held
        are released at once, due as they were, for any sender to claim. How many were
        released."""
        if not senders:
            return 0
        marks = ", ".join("?" for _ in senders)
        async with self._transaction() as db:
            cursor = await db.execute(
                f"UPDATE outbox SET leased_until = NULL, leased_by = NULL "
                f"WHERE status = 'pending' AND leased_by IN ({marks})", list(senders))
            released = int(cursor.rowcount)
            await db.execute(f"DELETE FROM senders WHERE id IN ({marks})", list(senders))
        return released

    # ----------------------------------------------------------------- limits

    async def open_counts(self, user_id: int, guild_id: int | None) -> tuple[int, int, int]:
        """For the limits of :mod:`bot.limits`, in one statement: the lobbies ``user_id``
        hosts, the seats they hold in lobbies and games under way (everywhere), and the
        lobbies and games under way in the server ``guild_id``."""
        server, given = _same("guild_id", guild_id)
        # A lobby being opened counts from its first step: its row comes last.
        async with self._reading() as db, db.execute(
                "SELECT (SELECT COUNT(*) FROM games WHERE status = 'lobby' "
                "AND creator_id = ?), (SELECT COUNT(*) FROM seat_users s JOIN games g "
                "ON g.id = s.game_id WHERE s.user_id = ? AND s.gone = 0 "
                "AND g.status IN ('lobby', 'active')), (SELECT COUNT(*) FROM games "
                f"WHERE {server} AND status IN ('lobby', 'active')), (SELECT COUNT(*) FROM "
                "openings WHERE creator_id = ? AND game_id IS NULL), (SELECT COUNT(*) FROM "
                f"openings WHERE {server} AND game_id IS NULL)",
                (user_id, user_id, *given, user_id, *given)) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        opening, opening_here = int(row[3]), int(row[4])
        return int(row[0]) + opening, int(row[1]) + opening, int(row[2]) + opening_here

    # ----------------------------------------------------------------- web links

    async def web_link(self, kind: str, *, token: str, now: float, game_id: int | None = None,
                       guild_id: int | None = None) -> str:
        """The live web link of a game (``kind`` ``game``, by ``game_id``) or of a server's
        page (``server``, by ``guild_id``): the one kept, else ``token`` kept as it from
        now on. Two processes asking at once keep one of their tokens."""
        check_int(game_id, "game id")
        check_int(guild_id, "server id")
        key, value = ("game_id", game_id) if kind == "game" else ("guild_id", guild_id)
        find = (f"SELECT token FROM web_links WHERE kind = ? AND {key} = ? "
                "AND revoked_at IS NULL")
        for _ in range(2):
            async with self._reading() as db:
                rows = await db.execute_fetchall(find, (kind, value))
            if rows:
                return str(rows[0][0])
            try:
                async with self._transaction() as db:
                    await db.execute(
                        "INSERT INTO web_links (token, kind, game_id, guild_id, created_at) "
                        "VALUES (?, ?, ?, ?, ?)", (token, kind, game_id, guild_id, now))
                return token
            except self._integrity_errors:
                continue  # another process kept its link first: read it
        raise StoreError("A web link could not be kept.")

    async def web_target(self, token: str) -> WebTarget | None:
        """What the live web link ``token`` names, read in one statement; ``None`` for a
        token never given or revoked (or a game no longer kept)."""
        columns = ", ".join(f"g.{c}" for c in GAME_COLUMNS.split(", "))
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT l.kind, l.guild_id, l.game_id, {columns} FROM web_links l "
                "LEFT JOIN games g ON g.id = l.game_id "
                "WHERE l.token = ? AND l.revoked_at IS NULL", (token,))
        if not rows:
            return None
        kind, guild, game_id, *game = rows[0]
        if kind == "game":
            if game_id is None or game[0] is None:
                return None
            return WebTarget(str(kind), guild, game_record(tuple(game)))
        return WebTarget(str(kind), guild)

    async def revoke_web_links(self, now: float, *, game_id: int | None = None,
                               guild_id: int | None = None,
                               channel_id: int | None = None) -> int:
        """Revoke the live web links of a game, of a server (its page and its games'
        pages), or of the games of a channel or thread (and of its threads): they name
        nothing from now on. How many were revoked."""
        values: tuple[int, ...]
        if game_id is not None:
            where, values = "game_id = ?", (game_id,)
        elif guild_id is not None:
            where, values = "guild_id = ?", (guild_id,)
        elif channel_id is not None:
            where, values = ("game_id IN (SELECT id FROM games WHERE channel_id = ? "
                             "OR parent_id = ?)", (channel_id, channel_id))
        else:
            return 0
        return await self._alone(
            f"UPDATE web_links SET revoked_at = ? WHERE {where} AND revoked_at IS NULL",
            (now, *values))

    # ----------------------------------------------------------------- privacy

    async def about(self, user_id: int) -> dict[str, Any]:
        """Everything kept about ``user_id``, as plain JSON values (docs/privacy.md)."""
        check_int(user_id, "user id")
        user = int(user_id)
        out: dict[str, Any] = {"user_id": user}
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT timezone, start_hour, end_hour, updated_at FROM quiet_hours "
                "WHERE user_id = ?", (user,))
            out["quiet_hours"] = [dict(zip(("timezone", "from_hour", "to_hour", "updated_at"),
                                           row, strict=True)) for row in rows]
            rows = await db.execute_fetchall(
                "SELECT starts, ends, created_at FROM vacations WHERE user_id = ? "
                "ORDER BY starts", (user,))
            out["vacations"] = [dict(zip(("starts", "ends", "created_at"), row, strict=True))
                                for row in rows]
            rows = await db.execute_fetchall(
                "SELECT mode, dm_closed, reminders, updated_at FROM notify WHERE user_id = ?",
                (user,))
            out["notifications"] = [
                {"how": mode, "dm_refused": bool(closed), "reminders": reminders,
                 "updated_at": at} for mode, closed, reminders, at in rows]
            rows = await db.execute_fetchall(
                "SELECT guild_id, game, mu, sigma, games, updated_at FROM ratings "
                "WHERE user_id = ? ORDER BY guild_id, game", (user,))
            out["ratings"] = [dict(zip(("server_id", "game", "mu", "sigma", "games",
                                        "updated_at"), row, strict=True)) for row in rows]
            rows = await db.execute_fetchall(
                "SELECT s.guild_id, s.name, r.game, r.mu, r.sigma, r.games, r.updated_at "
                "FROM season_ratings r JOIN seasons s ON s.id = r.season_id "
                "WHERE r.user_id = ? ORDER BY s.starts_at, r.game", (user,))
            out["season_ratings"] = [dict(zip(("server_id", "season", "game", "mu", "sigma",
                                               "games", "updated_at"), row, strict=True))
                                     for row in rows]
            rows = await db.execute_fetchall(
                "SELECT s.guild_id, s.name, t.game, t.place, t.name, t.rating, t.games "
                "FROM season_standings t JOIN seasons s ON s.id = t.season_id "
                "WHERE t.user_id = ? ORDER BY s.starts_at, t.game", (user,))
            out["season_standings"] = [dict(zip(("server_id", "season", "game", "place",
                                                 "name", "rating", "games"), row, strict=True))
                                       for row in rows]
            rows = await db.execute_fetchall(
                "SELECT game_id, guild_id, channel_id, game, place, won, finished_at "
                "FROM results WHERE user_id = ? ORDER BY game_id", (user,))
            out["results"] = [
                {"game_id": g, "server_id": guild, "channel_id": channel, "game": game,
                 "place": place, "won": bool(won), "finished_at": at}
                for g, guild, channel, game, place, won, at in rows]
            rows = await db.execute_fetchall(
                "SELECT g.id, g.guild_id, g.channel_id, g.game, g.status, g.seats, "
                "g.created_at, g.updated_at, s.gone FROM seat_users s JOIN games g "
                "ON g.id = s.game_id WHERE s.user_id = ? ORDER BY g.id", (user,))
            games = []
            for game_id, guild, channel, game, status, seats, created, updated, gone in rows:
                try:
                    names = [seat.name for seat in load_seats(game_id, seats)
                             if user in (seat.user_id, seat.left)]
                except CorruptRowError:
                    names = []
                games.append({"game_id": game_id, "server_id": guild, "channel_id": channel,
                              "game": game, "status": status, "name": names[0] if names else None,
                              "left": bool(gone), "created_at": created, "updated_at": updated})
            out["games"] = games
            rows = await db.execute_fetchall(
                "SELECT game_id, player, voter, give, at FROM seat_votes WHERE player = ? "
                "OR voter = ?", (user, user))
            out["seat_votes"] = [dict(zip(("game_id", "player", "voter", "give", "at"), row,
                                          strict=True)) for row in rows]
            out["tournaments"] = await entries_of(db, user)
        out["announcements"] = [
            {"kind": kind, "channel_id": channel, "status": status, "text": content,
             "data": json.loads(data) if data else None, "created_at": created,
             "delivered_at": delivered}
            for _id, kind, channel, status, content, created, delivered, data
            in await self._announcements_of(user)]
        return out

    async def _announcements_of(self, user: int, *, not_needed: bool = False) -> list[Any]:
        """The outbox rows that mention ``user`` (pinged or sent to them, or about them,
        such as the notice that their DMs are closed); with ``not_needed``, only those no
        game under way still waits to deliver."""
        needed = ("AND (status <> 'pending' OR game_id IS NULL OR game_id NOT IN "
                  "(SELECT id FROM games WHERE status IN ('lobby', 'active'))) "
                  if not_needed else "")
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT id, kind, channel_id, status, content, created_at, delivered_at, data, "
                f"mentions FROM outbox WHERE (mentions LIKE ? OR data LIKE ?) {needed}"
                "ORDER BY id", (f"%{user}%", f"%{user}%"))
        out = []
        for *row, mentions in rows:
            try:
                named = {int(u) for u in json.loads(mentions)}
                if user in named or user in _ids_in(json.loads(row[-1] or "null")):
                    out.append(row)
            except (TypeError, ValueError):
                continue
        return out

    async def ended_games_of(self, user_id: int) -> list[GameRecord]:
        """The ended games ``user_id`` sat in: in a seat of their own, or one they left
        (or the table gave to the AI)."""
        check_int(user_id, "user id")
        user = int(user_id)
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {', '.join('g.' + c.strip() for c in GAME_COLUMNS.split(','))} "
                "FROM seat_users s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? "
                "AND g.status NOT IN ('lobby', 'active')", (user,))
            rows += await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status NOT IN ('lobby', 'active') "
                "AND seats LIKE ?", (f'%"left": {user}%',))
        records = {r.id: r for r in readable(rows, "an ended game, %s, cannot be read: %s")}
        return [records[key] for key in sorted(records)
                if any(user in (s.user_id, s.left) for s in records[key].seats)]

    async def forget(self, user_id: int, name: str, now: float,
                     renamed: Mapping[int, Retold]) -> dict[str, int]:
        """Delete what is kept about ``user_id`` that no game under way needs: their
        settings, vacations, notification choices, ratings (all time and each season's),
        votes and the announcements that named them; in a season's kept standings their
        place reads as ``name``; in the ended games ``renamed`` names (:meth:`ended_games_of`),
        their seat becomes ``name`` with no user in the seats and the state, their id goes
        from the game, its actions and its settings, its actions read as ``renamed`` gives
        them (told again with the new name), and its delivered announcements go. Games
        under way keep their seat. Returns how many of each were deleted or renamed."""
        check_int(user_id, "user id")
        user = int(user_id)
        told = [row[0] for row in await self._announcements_of(user, not_needed=True)]
        async with self._transaction() as db:
            counts: dict[str, int] = {}
            for table, key in (("quiet_hours", "user_id"), ("vacations", "user_id"),
                               ("notify", "user_id"), ("ratings", "user_id")):
                cursor = await db.execute(f"DELETE FROM {table} WHERE {key} = ?", (user,))
                counts[table] = max(0, cursor.rowcount)
            cursor = await db.execute(
                "DELETE FROM seat_votes WHERE (player = ? OR voter = ?) AND game_id IN "
                "(SELECT id FROM games WHERE status NOT IN ('lobby', 'active'))", (user, user))
            counts["seat_votes"] = max(0, cursor.rowcount)
            cursor = await db.execute("UPDATE results SET user_id = NULL WHERE user_id = ?",
                                      (user,))
            counts["results"] = max(0, cursor.rowcount)
            cursor = await db.execute("DELETE FROM season_ratings WHERE user_id = ?", (user,))
            counts["season_ratings"] = max(0, cursor.rowcount)
            # A season's kept standings keep their place for everyone else: the place is
            # a former player's now.
            cursor = await db.execute(
                "UPDATE season_standings SET user_id = NULL, name = ? WHERE user_id = ?",
                (name, user))
            counts["season_standings"] = max(0, cursor.rowcount)
            if told:
                marks = ", ".join("?" for _ in told)
                cursor = await db.execute(f"DELETE FROM outbox WHERE id IN ({marks})", told)
            counts["announcements"] = len(told)
            renamed_games = 0
            for game_id, retold in renamed.items():
                if await self._forget_in(db, game_id, user, name, retold):
                    renamed_games += 1
            counts["ended_games"] = renamed_games
            counts.update(await forget_entries(db, user))
            # Whatever else of an ended game named them: its host (0: no Discord user),
            # the moves they made, a lobby's list of those its host removed.
            ended = "(SELECT id FROM games WHERE status NOT IN ('lobby', 'active'))"
            await db.execute("UPDATE games SET creator_id = 0 WHERE creator_id = ? AND "
                             "status NOT IN ('lobby', 'active')", (user,))
            await db.execute(f"UPDATE actions SET user_id = NULL WHERE user_id = ? AND "
                             f"game_id IN {ended}", (user,))
            rows = await db.execute_fetchall(
                "SELECT id, settings FROM games WHERE status NOT IN ('lobby', 'active') "
                "AND settings LIKE ?", (f"%{user}%",))
            for game_id, settings_text in rows:
                settings = _settings_without(settings_text, user)
                if settings is not None:
                    await db.execute("UPDATE games SET settings = ? WHERE id = ?",
                                     (settings, game_id))
        return counts

    async def _forget_in(self, db: Any, game_id: int, user: int, name: str,
                         retold: Retold) -> bool:
        """:meth:`forget` in one ended game; whether it was still an ended game of theirs."""
        rows = await db.execute_fetchall(
            "SELECT seats, state_json, result_json FROM games WHERE id = ? AND "
            "status NOT IN ('lobby', 'active')", (game_id,))
        if not rows:
            return False
        seats_text, state_json, result_json = rows[0]
        try:
            seats = load_seats(game_id, seats_text)
        except CorruptRowError:
            return False
        mine = {s.seat: s.name for s in seats if user in (s.user_id, s.left)}
        if not mine:
            return False
        kept = [SeatRecord(s.seat, None, name, s.ai, s.standing_in, s.open)
                if s.seat in mine else s for s in seats]
        await db.execute("UPDATE games SET seats = ?, state_json = ?, result_json = ?, "
                         "version = version + 1 WHERE id = ?",
                         (dump_seats(kept), _renamed_state(state_json, mine, name),
                          _summarised(result_json, retold.summary), game_id))
        for n, narration, public, private in retold.actions:
            await db.execute("UPDATE actions SET narration = ?, public = ?, private = ? "
                             "WHERE game_id = ? AND n = ?",
                             (narration, public, dump_private(private), game_id, n))
        # Delivered or given up, an ended game's announcements are only history, and
        # they may name the player.
        await db.execute("DELETE FROM outbox WHERE game_id = ? AND status <> 'pending'",
                         (game_id,))
        await db.execute("DELETE FROM seat_users WHERE user_id = ? AND game_id = ?",
                         (user, game_id))
        return True

    async def prune_announcements(self, before: float) -> int:
        """Delete announcements delivered or given up that were queued before ``before``."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "DELETE FROM outbox WHERE status <> 'pending' AND created_at < ?", (before,))
        return max(0, cursor.rowcount)

    async def server_gone(self, guild_id: int, now: float) -> int:
        """The server removed the bot: close its lobbies, revoke its web links, and note
        when, so that its data is dropped after a grace period (:meth:`purge_servers`); how
        many lobbies closed."""
        check_int(guild_id, "server id")
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'aborted', version = version + 1, updated_at = ?, "
                "next_reminder_at = NULL WHERE guild_id = ? AND status = 'lobby'",
                (now, guild_id))
            closed = max(0, cursor.rowcount)
            await db.execute(
                "INSERT INTO servers_gone (guild_id, gone_at) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO NOTHING", (guild_id, now))
            # Its pages on the web go at once: a server that left shows nothing to anyone.
            await db.execute("UPDATE web_links SET revoked_at = ? WHERE guild_id = ? "
                             "AND revoked_at IS NULL", (now, guild_id))
        return closed

    async def server_back(self, guild_id: int) -> None:
        """The server added the bot again: its games are kept."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM servers_gone WHERE guild_id = ?", (int(guild_id),))

    async def purge_servers(self, before: float) -> list[int]:
        """Drop every game, result, rating and announcement of the servers that removed
        the bot before ``before``; the servers dropped."""
        async with self._transaction() as db:
            rows = await db.execute_fetchall(
                "SELECT guild_id FROM servers_gone WHERE gone_at < ?", (before,))
            gone = [int(row[0]) for row in rows]
            for guild in gone:
                await db.execute("DELETE FROM outbox WHERE guild_id = ?", (guild,))
                await db.execute("DELETE FROM results WHERE guild_id = ?", (guild,))
                await db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild,))
                await db.execute("DELETE FROM season_standings WHERE season_id IN "
                                 "(SELECT id FROM seasons WHERE guild_id = ?)", (guild,))
                await db.execute("DELETE FROM season_ratings WHERE season_id IN "
                                 "(SELECT id FROM seasons WHERE guild_id = ?)", (guild,))
                await db.execute("DELETE FROM seasons WHERE guild_id = ?", (guild,))
                await db.execute("DELETE FROM web_links WHERE guild_id = ?", (guild,))
                await db.execute("DELETE FROM tournaments WHERE guild_id = ?", (guild,))
                await db.execute("DELETE FROM games WHERE guild_id = ?", (guild,))
                await db.execute("DELETE FROM servers_gone WHERE guild_id = ?", (guild,))
                await db.execute("DELETE FROM server_settings WHERE guild_id = ?", (guild,))
        return gone


def _clock_values(clock: ClockWrite | None) -> tuple[Any, ...]:
    """The ``clock`` and ``clock_due_at`` column values of ``clock`` (none for ``None``)."""
    if clock is None:
        return ()
    return dump_object(clock.clock, "clock"), clock.due_at


def _renamed_state(state_json: str | None, seats: Mapping[int, str], name: str) -> str | None:
    """``state_json`` with the names of ``seats`` replaced by ``name``. A state that
    cannot be read is left as it is."""
    if not state_json or not seats:
        return state_json
    try:
        state = json.loads(state_json)
        for seat in seats:
            state["seats"][seat]["name"] = name
    except (TypeError, ValueError, KeyError, IndexError):
        return state_json
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def _summarised(result_json: str | None, summary: str | None) -> str | None:
    """A stored result with its summary told again (``summary``; ``None``: as it is)."""
    if result_json is None or summary is None:
        return result_json
    try:
        result = json.loads(result_json)
        result["summary"] = summary
    except (TypeError, ValueError):
        return result_json
    return json.dumps(result, sort_keys=True)


def _settings_without(text: str, user: int) -> str | None:
    """A game's settings text without ``user`` in its list of those its host removed
    (``None``: nothing to change, or a value that cannot be read)."""
    try:
        settings = json.loads(text)
        removed = settings.get("removed")
    except (TypeError, ValueError, AttributeError):
        return None
    if not isinstance(removed, list) or user not in removed:
        return None
    settings["removed"] = [u for u in removed if u != user]
    return dump_object(settings, "settings")


def _ids_in(value: Any) -> set[int]:
    """Every whole number in a JSON value: the Discord ids an announcement's data holds
    (``dm_closed``, ``users`` and the like)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_ids_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_ids_in(v) for v in value))
    return set()


def _same(column: str, value: int | None) -> tuple[str, tuple[int, ...]]:
    """``column`` equal to ``value``, NULL included, as SQL that an index serves on both
    backends (PostgreSQL's ``IS NOT DISTINCT FROM`` reads every row), and its parameters."""
    if value is None:
        return f"{column} IS NULL", ()
    return f"{column} = ?", (value,)


def _reached_by(mode: Any, dm_closed: Any) -> str:
    """How a player who chose ``mode`` is reached: by DM only while Discord takes them."""
    return "channel" if mode == "dm" and dm_closed else str(mode)
