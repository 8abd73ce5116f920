"""The people aggregate: how each player is reached (quiet hours, vacations, notices,
reminder pings) and their privacy: what is kept about them, and forgetting it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.connection import Aggregate, Connection, Row
from bot.store.entries import entries_of, forget_entries
from bot.store.records import (
    GAME_COLUMNS,
    CorruptRowError,
    GameRecord,
    Reach,
    Retold,
    SeatRecord,
    check_int,
    dump_object,
    dump_private,
    dump_seats,
    load_seats,
    readable,
)


class People(Aggregate):
    """Players' choices of reach, and what is kept about them."""

    async def _of_users(self, sql: str, user_ids: Sequence[int],
                        *params: Any) -> list[Row]:
        """The rows ``sql`` reads for ``user_ids`` (put in place of ``{users}``) and then
        ``params``; none for no users."""
        users = [int(u) for u in user_ids]
        if not users:
            return []
        marks = ", ".join("?" for _ in users)
        async with self.connector.reading() as db:
            return list(await db.execute_fetchall(sql.format(users=marks), [*users, *params]))

    async def set_quiet_hours(self, user_id: int, hours: tuple[str, int, int] | None,
                              now: float) -> None:
        """Keep ``(timezone, start hour, end hour)`` for the user, or forget them (None)."""
        check_int(user_id, "user id")
        async with self.connector.transaction() as db:
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
        async with self.connector.transaction() as db:
            await db.execute("INSERT INTO vacations (user_id, starts, ends, created_at) "
                             "VALUES (?, ?, ?, ?)", (user_id, starts, ends, now))

    async def end_vacations(self, user_id: int, now: float) -> int:
        """End the user's current vacation now and cancel the ones to come; how many."""
        check_int(user_id, "user id")
        async with self.connector.transaction() as db:
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
        async with self.connector.transaction() as db:
            await db.execute(
                "INSERT INTO notify (user_id, mode, dm_closed, updated_at) VALUES (?, ?, 0, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET mode = excluded.mode, dm_closed = 0, "
                "updated_at = excluded.updated_at", (user_id, mode, now))

    async def set_reminder_pings(self, user_id: int, pings: str, now: float) -> None:
        """Keep which reminders ping the user: ``each`` (the default), ``first`` or
        ``none``; how they are reached stays as it was."""
        check_int(user_id, "user id")
        async with self.connector.transaction() as db:
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
        async with self.connector.reading() as db:
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
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "UPDATE notify SET dm_closed = 1, updated_at = ? WHERE user_id = ? AND "
                "mode = 'dm' AND dm_closed = 0", (now, int(user_id)))
            return cursor.rowcount > 0

    async def about(self, user_id: int) -> dict[str, Any]:
        """Everything kept about ``user_id``, as plain JSON values (docs/privacy.md)."""
        check_int(user_id, "user id")
        user = int(user_id)
        out: dict[str, Any] = {"user_id": user}
        async with self.connector.reading() as db:
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

    async def _announcements_of(self, user: int, *, not_needed: bool = False) -> list[Row]:
        """The outbox rows that mention ``user`` (pinged or sent to them, or about them,
        such as the notice that their DMs are closed); with ``not_needed``, only those no
        game under way still waits to deliver."""
        needed = ("AND (status <> 'pending' OR game_id IS NULL OR game_id NOT IN "
                  "(SELECT id FROM games WHERE status IN ('lobby', 'active'))) "
                  if not_needed else "")
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                "SELECT id, kind, channel_id, status, content, created_at, delivered_at, data, "
                f"mentions FROM outbox WHERE (mentions LIKE ? OR data LIKE ?) {needed}"
                "ORDER BY id", (f"%{user}%", f"%{user}%"))
        out: list[Row] = []
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
        async with self.connector.reading() as db:
            rows = list(await db.execute_fetchall(
                f"SELECT {', '.join('g.' + c.strip() for c in GAME_COLUMNS.split(','))} "
                "FROM seat_users s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? "
                "AND g.status NOT IN ('lobby', 'active')", (user,)))
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
        async with self.connector.transaction() as db:
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

    async def _forget_in(self, db: Connection, game_id: int, user: int, name: str,
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


def _reached_by(mode: Any, dm_closed: Any) -> str:
    """How a player who chose ``mode`` is reached: by DM only while Discord takes them."""
    return "channel" if mode == "dm" and dm_closed else str(mode)
