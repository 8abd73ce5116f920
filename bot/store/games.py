"""The games aggregate: a table's row from its lobby to its end (seats, holds, the
messages it shows, its finish), and the helpers other aggregates run inside their own
transactions on it (:func:`guarded_update`, :func:`finish_in_transaction`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.connection import Aggregate, Connection, Connector, Params
from bot.store.outbox import queue
from bot.store.ratings import rate_finished
from bot.store.records import (
    GAME_COLUMNS,
    OPEN_STATUSES,
    Announcement,
    ChannelBusyError,
    ClockWrite,
    ConflictError,
    FinishRecord,
    GameRecord,
    NotFoundError,
    RematchTakenError,
    SeatRecord,
    StoreError,
    WrongStatusError,
    check_int,
    dump_object,
    dump_seats,
    game_record,
    readable,
    same_as,
)


async def fetch_game(db: Connection, game_id: int) -> GameRecord:
    """The game ``game_id`` read on ``db``; :class:`NotFoundError` if there is none."""
    rows = await db.execute_fetchall(
        f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
    if not rows:
        raise NotFoundError("game")
    return game_record(rows[0])


async def raw_status(db: Connection, game_id: int) -> tuple[str, int] | None:
    """The game's status and version, read without its JSON (``None``: no such game)."""
    async with db.execute(
            "SELECT status, version FROM games WHERE id = ?", (game_id,)) as cursor:
        row = await cursor.fetchone()
    return None if row is None else (row[0], row[1])


async def explain_miss(db: Connection, game_id: int, expected_version: int,
                       statuses: Sequence[str], doing: str) -> StoreError:
    """Why a guarded UPDATE matched no row: gone, moved on, or the wrong status."""
    raw = await raw_status(db, game_id)
    if raw is None:
        return NotFoundError("game")
    status, version = raw
    if version != expected_version:
        return ConflictError()
    if status not in statuses:
        return WrongStatusError(status, doing)
    return ConflictError()


async def guarded_update(db: Connection, game_id: int, expected_version: int,
                         statuses: Sequence[str], doing: str, assignments: str,
                         params: Params, *, returning: bool = False,
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
            raise await explain_miss(db, game_id, expected_version, statuses, doing)
        return game_record(rows[0])
    cursor = await db.execute(sql, values)
    if cursor.rowcount != 1:
        raise await explain_miss(db, game_id, expected_version, statuses, doing)
    return None


async def finish_in_transaction(db: Connection, game_id: int, state_json: str,
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
    await rate_finished(db, game_id, now)


async def rematch_made(connector: Connector, game_id: int) -> tuple[int, int] | None:
    """The rematch of ``game_id`` (its id and channel), if it has one."""
    async with connector.reading() as db:
        rows = await db.execute_fetchall(
            "SELECT id, channel_id FROM games WHERE rematch_of = ?", (game_id,))
    return (int(rows[0][0]), int(rows[0][1])) if rows else None


def clock_values(clock: ClockWrite | None) -> tuple[Any, ...]:
    """The ``clock`` and ``clock_due_at`` column values of ``clock`` (none for ``None``)."""
    if clock is None:
        return ()
    return dump_object(clock.clock, "clock"), clock.due_at


class Games(Aggregate):
    """Lobbies and games: reading them, opening, seating, starting, holding and ending them."""

    async def open_game_counts(self) -> dict[tuple[str, str], int]:
        """How many lobbies and active games there are, keyed by (game, status)."""
        async with self.connector.reading() as db, db.execute(
                "SELECT game, status, COUNT(*) FROM games WHERE status IN ('lobby', 'active') "
                "GROUP BY game, status") as cursor:
            rows = await cursor.fetchall()
        return {(str(game), str(status)): int(count) for game, status, count in rows}

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The channel's lobby or active game, if any."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? "
                f"AND status IN ('lobby', 'active')", (channel_id,))
        return game_record(rows[0]) if rows else None

    async def open_games_in(self, channel_id: int) -> list[GameRecord]:
        """The lobbies and active games held in a channel or in its threads."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE (channel_id = ? OR parent_id = ?) "
                f"AND status IN ('lobby', 'active')", (channel_id, channel_id))
        return readable(rows, "a game of a deleted channel, %s, cannot be read: %s")

    async def open_games_of(self, guild_id: int) -> list[GameRecord]:
        """The lobbies and games under way in a server (a bounded number:
        ``games_per_server``)."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? "
                f"AND status IN ('lobby', 'active')", (guild_id,))
        return readable(rows, "a game of a server, %s, cannot be read: %s")

    async def get_game(self, game_id: int) -> GameRecord:
        """The game ``game_id`` in any status; :class:`NotFoundError` if there is none."""
        async with self.connector.reading() as db:
            return await fetch_game(db, game_id)

    async def games_in_channel(self, channel_id: int) -> list[GameRecord]:
        """Every game ever held in the channel, oldest first."""
        async with self.connector.reading() as db, db.execute(
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
        async with self.connector.reading() as db, db.execute(query, params) as cursor:
            rows = await cursor.fetchall()
        return [game_record(row) for row in rows]

    async def games_of(self, user_id: int, *, finished_since: float) -> list[GameRecord]:
        """The active games ``user_id`` sits in, and the ones they sat in (or left) that
        finished at or after ``finished_since``, on every server, oldest first (damaged
        rows are skipped)."""
        async with self.connector.reading() as db, db.execute(
                f"SELECT {', '.join('g.' + c for c in GAME_COLUMNS.split(', '))} "
                f"FROM seat_users s JOIN games g ON g.id = s.game_id "
                f"WHERE s.user_id = ? AND ((g.status = 'active' AND s.gone = 0) "
                f"OR (g.status = 'finished' AND g.finished_at >= ?)) ORDER BY g.id",
                (user_id, finished_since)) as cursor:
            rows = await cursor.fetchall()
        return readable(rows, "leaving damaged game %s out of a player's list of games: %s")

    async def open_counts(self, user_id: int, guild_id: int | None) -> tuple[int, int, int]:
        """For the limits of :mod:`bot.limits`, in one statement: the lobbies ``user_id``
        hosts, the seats they hold in lobbies and games under way (everywhere), and the
        lobbies and games under way in the server ``guild_id``."""
        server, given = same_as("guild_id", guild_id)
        # A lobby being opened counts from its first step: its row comes last.
        async with self.connector.reading() as db, db.execute(
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
            async with self.connector.transaction() as db:
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
                record = await fetch_game(db, int(row[0]))
        except self.connector.integrity_errors:
            if rematch_of is not None:
                taken = await rematch_made(self.connector, rematch_of)
                if taken is not None:
                    raise RematchTakenError(*taken) from None
            raise ChannelBusyError() from None
        return record

    async def close_lobby(self, game_id: int, expected_version: int, now: float,
                          announce: Sequence[Announcement] = ()) -> GameRecord:
        """Close a lobby nobody started (it expired), queuing ``announce`` with it."""
        async with self.connector.transaction() as db:
            record = await guarded_update(db, game_id, expected_version, ("lobby",), "abort",
                "status = 'aborted', updated_at = ?, next_reminder_at = NULL", (now,),
                returning=True)
            await queue(db, announce, now)
        assert record is not None
        return record

    async def stale_lobbies(self, before: float) -> list[GameRecord]:
        """Lobbies nobody changed since ``before``."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'lobby' AND updated_at < ? "
                f"ORDER BY updated_at, id", (before,))
        return readable(rows, "a lobby, %s, cannot be read: %s")

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

    async def _write(self, game_id: int, expected_version: int, statuses: Sequence[str],
                     doing: str, assignments: str, params: Params) -> GameRecord:
        """One guarded update in its own transaction; returns the new record."""
        async with self.connector.transaction() as db:
            record = await guarded_update(db, game_id, expected_version, statuses, doing,
                                                assignments, params, returning=True)
        assert record is not None
        return record

    async def _set_message(self, game_id: int, column: str, message_id: int | None) -> None:
        check_int(message_id, "message id")
        if await self.connector.alone(f"UPDATE games SET {column} = ? WHERE id = ?",
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
        async with self.connector.transaction() as db:
            await guarded_update(db, game_id, expected_version, ("lobby",), "start",
                "status = 'active', seed = ?, state_json = ?, seats = ?, updated_at = ?, "
                "turn_started_at = ?, reminders_sent = 0, next_reminder_at = ?" + timed,
                (seed, state_json, dump_seats(seats), now, now, next_reminder_at,
                 *clock_values(clock)))
            await queue(db, announce, now)
            record = await fetch_game(db, game_id)
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
        async with self.connector.transaction() as db:
            current = await fetch_game(db, game_id)
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
            await guarded_update(db, game_id, expected_version, OPEN_STATUSES, "change seats",
                                 "seats = ?, updated_at = ?" + timed,
                                 (dump_seats(merged), now, *clock_values(clock)))
            await queue(db, announce, now)
            record = await fetch_game(db, game_id)
        return record

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
        async with self.connector.transaction() as db:
            await guarded_update(db, game_id, expected_version, ("active",), "finish",
                                 assignments, params)
            await finish_in_transaction(
                db, game_id, state_json, FinishRecord(result_json, tuple(placements)), now)
            await queue(db, announce, now)
            record = await fetch_game(db, game_id)
        return record

    async def abort(self, game_id: int, now: float) -> None:
        """End a lobby or active game without a result, freeing the channel.

        Aborting an aborted game does nothing; a finished game cannot be aborted.
        Works even when the row's JSON is damaged, so a broken game can be cleared.
        """
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = 'aborted', version = version + 1, updated_at = ?, "
                "next_reminder_at = NULL, clock_due_at = NULL "
                "WHERE id = ? AND status IN ('lobby', 'active')",
                (now, game_id))
            if cursor.rowcount != 1:
                raw = await raw_status(db, game_id)
                if raw is None:
                    raise NotFoundError("game")
                if raw[0] != "aborted":
                    raise WrongStatusError(raw[0], "abort")

    async def hold(self, game_id: int, why: str, until: float) -> None:
        """The place ``game_id`` is shown in refuses the bot (``why``); look again at
        ``until``. Does not change the version: moves in flight are refused by reading it."""
        await self.connector.alone("UPDATE games SET held = ?, held_until = ? WHERE id = ?",
                          (why, until, game_id))

    async def release(self, game_id: int, now: float,
                      announce: Sequence[Announcement] = ()) -> bool:
        """The game's place takes the bot's posts again: ``announce`` (who the game waits
        for) is queued in the same write. Whether it was held (if not, nothing is
        written: another bot released it first)."""
        async with self.connector.transaction() as db:
            cursor = await db.execute("UPDATE games SET held = NULL, held_until = NULL "
                                      "WHERE id = ? AND held IS NOT NULL", (game_id,))
            if cursor.rowcount != 1:
                return False
            await queue(db, announce, now)
        return True

    async def held_games(self, until: float) -> list[GameRecord]:
        """Games under way (or lobbies) whose place refused the bot, due to be looked at
        again by ``until``."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE held IS NOT NULL AND "
                f"held_until <= ? AND status IN ('lobby', 'active') ORDER BY held_until, id",
                (until,))
        return readable(rows, "a held game, %s, cannot be read: %s")

    async def vote_seat(self, game_id: int, player: int, voter: int, give: str,
                        now: float) -> dict[int, str]:
        """Keep ``voter``'s vote on ``player``'s seat (``give`` is what to do with it); all
        the votes on that seat now, by voter."""
        check_int(player, "user id")
        check_int(voter, "user id")
        async with self.connector.transaction() as db:
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
        async with self.connector.transaction() as db:
            await db.execute("DELETE FROM seat_votes WHERE game_id = ? AND player = ?",
                             (game_id, int(player)))
