"""The servers aggregate: a server's defaults for new games, and its data once it removed
the bot (closed at once, dropped after a grace period)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.store.connection import Aggregate
from bot.store.records import check_int, dump_object


class Servers(Aggregate):
    """Servers' settings, and servers gone."""

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's defaults for new games (empty: none set). A damaged row reads as none:
        the defaults of the bot then hold."""
        async with self.connector.reading() as db:
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
        async with self.connector.transaction() as db:
            await db.execute(
                "INSERT INTO server_settings (guild_id, settings, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at", (guild_id, text, now))

    async def server_gone(self, guild_id: int, now: float) -> int:
        """The server removed the bot: close its lobbies, revoke its web links, and note
        when, so that its data is dropped after a grace period (:meth:`purge_servers`); how
        many lobbies closed."""
        check_int(guild_id, "server id")
        async with self.connector.transaction() as db:
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
        async with self.connector.transaction() as db:
            await db.execute("DELETE FROM servers_gone WHERE guild_id = ?", (int(guild_id),))

    async def purge_servers(self, before: float) -> list[int]:
        """Drop every game, result, rating and announcement of the servers that removed
        the bot before ``before``; the servers dropped."""
        async with self.connector.transaction() as db:
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
