"""Tournaments in the store: one aggregate over ``tournaments``, ``tournament_players`` and
``tournament_tables`` (migration 19), on either backend through the store's connector.

Every change to a tournament is one transaction; a round's tables are written together
with the round number and what announces them (queued in the outbox in the same write),
so a round is formed once and shown whatever stops the bot. A process working on a
tournament (forming a round, opening its games) holds its lease, ``busy_until``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.store.connection import Aggregate, Row
from bot.store.entries import entries_of, forget_entries
from bot.store.outbox import queue
from bot.store.records import (
    Announcement,
    ConflictError,
    NotFoundError,
    check_int,
    dump_object,
)

TOURNAMENT_COLUMNS = ("id, guild_id, channel_id, host_id, game, format, rounds, seats, "
                      "settings, status, round, deadline, message_id, token, version")
OPEN = ("signup", "running")
#: What a sign-up came to.
Joined = Literal["joined", "already", "full", "closed", "signups"]


@dataclass(frozen=True)
class TournamentRecord:
    """One row of ``tournaments``."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    format: str
    rounds: int
    seats: int
    settings: Mapping[str, Any]
    status: str
    round: int
    deadline: float | None
    message_id: int | None
    token: str
    version: int


@dataclass(frozen=True)
class EntryRecord:
    """A player of a tournament: ``entry`` numbers them in sign-up order; ``user_id`` and
    ``name`` are gone once they asked to be forgotten; ``withdrawn`` is the round they
    left in (0: before the first)."""

    entry: int
    user_id: int | None
    name: str
    withdrawn: int | None


@dataclass(frozen=True)
class TableRecord:
    """A table of a round: its entries in seat order, its game, each entry's place once
    the game ended (``None`` before). A table of one entry is a bye."""

    round: int
    number: int
    entries: tuple[int, ...]
    game_id: int | None
    places: Mapping[int, int] | None

    @property
    def bye(self) -> bool:
        return len(self.entries) == 1


def _tournament(row: Row) -> TournamentRecord:
    (tid, guild, channel, host, game, fmt, rounds, seats, settings, status, number,
     deadline, message, token, version) = row
    try:
        loaded = json.loads(settings)
    except (TypeError, ValueError):
        loaded = {}
    return TournamentRecord(int(tid), int(guild), int(channel), int(host), str(game), str(fmt),
                            int(rounds), int(seats), loaded if isinstance(loaded, dict) else {},
                            str(status), int(number), deadline, message, str(token),
                            int(version))


def _table(row: Row) -> TableRecord:
    number, table, entries, game_id, places = row
    places_read: dict[int, int] | None = None
    if places:
        places_read = {int(k): int(v) for k, v in json.loads(places).items()}
    return TableRecord(int(number), int(table), tuple(int(e) for e in json.loads(entries)),
                       game_id, places_read)


class Tournaments(Aggregate):
    """The tournament aggregate of a :class:`~bot.store.Store` (``store.tournaments``)."""

    # ----------------------------------------------------------------- reading

    async def get(self, tournament_id: int) -> TournamentRecord:
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
        if not rows:
            raise NotFoundError("tournament")
        return _tournament(rows[0])

    async def by_token(self, token: str) -> TournamentRecord | None:
        """The tournament whose web page ``token`` names (none of a server that left)."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE token = ? AND guild_id "
                "NOT IN (SELECT guild_id FROM servers_gone)", (token,))
        return _tournament(rows[0]) if rows else None

    async def open_in(self, guild_id: int) -> list[TournamentRecord]:
        """The tournaments of a server signing up or under way."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = ? "
                "AND status IN ('signup', 'running') ORDER BY id", (guild_id,))
        return [_tournament(r) for r in rows]

    async def in_play(self, now: float) -> list[TournamentRecord]:
        """The tournaments a pass has work for: those under way, and those signing up
        whose deadline has come (none of a server that removed the bot: they wait for it
        to come back, or are dropped with its games)."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE (status = 'running' "
                "OR (status = 'signup' AND deadline IS NOT NULL AND deadline <= ?)) AND guild_id "
                "NOT IN (SELECT guild_id FROM servers_gone) ORDER BY id", (now,))
        return [_tournament(r) for r in rows]

    async def players(self, tournament_id: int) -> list[EntryRecord]:
        """The tournament's players in sign-up order."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                "SELECT entry, user_id, name, withdrawn FROM tournament_players "
                "WHERE tournament_id = ? ORDER BY entry", (tournament_id,))
        return [EntryRecord(int(e), u, str(n), w) for e, u, n, w in rows]

    async def tables(self, tournament_id: int) -> list[TableRecord]:
        """Every table of every round, in order."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                "SELECT round, number, entries, game_id, places FROM tournament_tables "
                "WHERE tournament_id = ? ORDER BY round, number", (tournament_id,))
        return [_table(r) for r in rows]

    async def signups_of(self, user_id: int) -> int:
        """How many tournaments signing up or under way ``user_id`` is in."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                "SELECT COUNT(*) FROM tournament_players p JOIN tournaments t "
                "ON t.id = p.tournament_id WHERE p.user_id = ? AND p.withdrawn IS NULL "
                "AND t.status IN ('signup', 'running')", (user_id,))
        return int(rows[0][0])

    # ----------------------------------------------------------------- writing

    async def create(self, *, guild_id: int, channel_id: int, host_id: int, game: str,
                     format: str, rounds: int, seats: int, settings: Mapping[str, Any],
                     deadline: float | None, token: str, now: float) -> TournamentRecord:
        check_int(guild_id, "server id")
        check_int(channel_id, "channel id")
        async with self.connector.transaction() as db:
            rows = await db.execute_fetchall(
                "INSERT INTO tournaments (guild_id, channel_id, host_id, game, format, rounds, "
                "seats, settings, status, deadline, token, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?) "
                f"RETURNING {TOURNAMENT_COLUMNS}",
                (guild_id, channel_id, host_id, game, format, rounds, seats,
                 dump_object(settings, "tournament settings"), deadline, token, now, now))
        return _tournament(rows[0])

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        async with self.connector.transaction() as db:
            await db.execute("UPDATE tournaments SET message_id = ? WHERE id = ?",
                             (message_id, tournament_id))

    async def join(self, tournament_id: int, user_id: int, name: str, now: float, *,
                   most_players: int, most_signups: int) -> Joined:
        """Sign ``user_id`` up, unless they are in already, the tournament is full or no
        longer signing up, or they are in ``most_signups`` tournaments already."""
        check_int(user_id, "user id")
        async with self.connector.transaction() as db:
            rows = await db.execute_fetchall(
                "SELECT status FROM tournaments WHERE id = ?", (tournament_id,))
            if not rows or rows[0][0] != "signup":
                return "closed"
            mine = await db.execute_fetchall(
                "SELECT 1 FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id))
            if mine:
                return "already"
            counted = await db.execute_fetchall(
                "SELECT COUNT(*), COALESCE(MAX(entry), 0) FROM tournament_players "
                "WHERE tournament_id = ?", (tournament_id,))
            count, last = int(counted[0][0]), int(counted[0][1])
            if count >= most_players:
                return "full"
            elsewhere = await db.execute_fetchall(
                "SELECT COUNT(*) FROM tournament_players p JOIN tournaments t "
                "ON t.id = p.tournament_id WHERE p.user_id = ? AND p.withdrawn IS NULL "
                "AND t.status IN ('signup', 'running')", (user_id,))
            if int(elsewhere[0][0]) >= most_signups:
                return "signups"
            await db.execute(
                "INSERT INTO tournament_players (tournament_id, entry, user_id, name, "
                "joined_at) VALUES (?, ?, ?, ?, ?)",
                (tournament_id, last + 1, user_id, name, now))
            await db.execute("UPDATE tournaments SET updated_at = ?, version = version + 1 "
                             "WHERE id = ?", (now, tournament_id))
        return "joined"

    async def leave(self, tournament_id: int, user_id: int, now: float) -> EntryRecord | None:
        """Take ``user_id`` out: off the list while signing up, withdrawn from the current
        round on once under way; their entry as it was, or ``None`` if they were not in."""
        async with self.connector.transaction() as db:
            rows = await db.execute_fetchall(
                "SELECT status, round FROM tournaments WHERE id = ?", (tournament_id,))
            if not rows or rows[0][0] not in OPEN:
                return None
            status, number = rows[0]
            found = await db.execute_fetchall(
                "SELECT entry, user_id, name, withdrawn FROM tournament_players "
                "WHERE tournament_id = ? AND user_id = ? AND withdrawn IS NULL",
                (tournament_id, user_id))
            if not found:
                return None
            entry = EntryRecord(int(found[0][0]), found[0][1], str(found[0][2]), found[0][3])
            if status == "signup":
                await db.execute("DELETE FROM tournament_players WHERE tournament_id = ? "
                                 "AND entry = ?", (tournament_id, entry.entry))
            else:
                await db.execute("UPDATE tournament_players SET withdrawn = ? "
                                 "WHERE tournament_id = ? AND entry = ?",
                                 (int(number), tournament_id, entry.entry))
            await db.execute("UPDATE tournaments SET updated_at = ?, version = version + 1 "
                             "WHERE id = ?", (now, tournament_id))
        return entry

    async def withdraw_entries(self, tournament_id: int, entries: Sequence[int],
                               round_number: int) -> None:
        """Withdraw ``entries`` (players who left the server) from ``round_number`` on."""
        if not entries:
            return
        async with self.connector.transaction() as db:
            await db.executemany(
                "UPDATE tournament_players SET withdrawn = ? WHERE tournament_id = ? "
                "AND entry = ? AND withdrawn IS NULL",
                [(round_number, tournament_id, e) for e in entries])

    async def claim(self, tournament_id: int, now: float, lease: float) -> bool:
        """Take the tournament's lease for ``lease`` seconds, unless another holds it."""
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournaments SET busy_until = ? WHERE id = ? "
                "AND (busy_until IS NULL OR busy_until < ?)", (now + lease, tournament_id, now))
            return bool(cursor.rowcount == 1)

    async def release(self, tournament_id: int) -> None:
        async with self.connector.transaction() as db:
            await db.execute("UPDATE tournaments SET busy_until = NULL WHERE id = ?",
                             (tournament_id,))

    async def begin_round(self, record: TournamentRecord, number: int,
                          tables: Sequence[tuple[int, ...]], now: float,
                          announce: Sequence[Announcement] = (), *,
                          rounds: int | None = None) -> TournamentRecord:
        """Round ``number`` formed: its tables (a table of one is a bye, ended at once)
        written with the round, under way, and what announces it; ``rounds`` sets the
        number of rounds (a round-robin's, once its players are known). Refused with
        :class:`~bot.store.ConflictError` when the tournament moved on meanwhile."""
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournaments SET round = ?, status = 'running', rounds = ?, "
                "updated_at = ?, version = version + 1 WHERE id = ? AND version = ?",
                (number, record.rounds if rounds is None else rounds, now, record.id,
                 record.version))
            if cursor.rowcount != 1:
                raise ConflictError()
            await db.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, number, entries, places) "
                "VALUES (?, ?, ?, ?, ?)",
                [(record.id, number, i + 1, json.dumps(list(t)),
                  json.dumps({str(t[0]): 1}) if len(t) == 1 else None)
                 for i, t in enumerate(tables)])
            await queue(db, announce, now)
        return await self.get(record.id)

    async def set_game(self, tournament_id: int, round_number: int, number: int,
                       game_id: int) -> None:
        async with self.connector.transaction() as db:
            await db.execute(
                "UPDATE tournament_tables SET game_id = ? WHERE tournament_id = ? AND round = ? "
                "AND number = ? AND game_id IS NULL", (game_id, tournament_id, round_number,
                                                       number))

    async def end_table(self, tournament_id: int, round_number: int, number: int,
                        places: Mapping[int, int]) -> None:
        async with self.connector.transaction() as db:
            await db.execute(
                "UPDATE tournament_tables SET places = ? WHERE tournament_id = ? AND round = ? "
                "AND number = ? AND places IS NULL",
                (json.dumps({str(k): v for k, v in places.items()}), tournament_id,
                 round_number, number))

    async def close(self, record: TournamentRecord, status: str, now: float,
                    announce: Sequence[Announcement] = ()) -> TournamentRecord:
        """The tournament ends (``finished``) or is called off (``cancelled``), with what
        announces it; refused with ``ConflictError`` when it moved on meanwhile."""
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournaments SET status = ?, updated_at = ?, version = version + 1 "
                "WHERE id = ? AND version = ?", (status, now, record.id, record.version))
            if cursor.rowcount != 1:
                raise ConflictError()
            await queue(db, announce, now)
        return await self.get(record.id)

    # ----------------------------------------------------------------- privacy

    async def about(self, user_id: int) -> list[dict[str, Any]]:
        """The tournament entries kept about ``user_id``."""
        async with self.connector.reading() as db:
            return await entries_of(db, user_id)

    async def forget(self, user_id: int) -> dict[str, int]:
        """:func:`forget_entries` in a transaction of its own."""
        async with self.connector.transaction() as db:
            return await forget_entries(db, user_id)

