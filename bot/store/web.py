"""The web links aggregate: the tokens that name a game's or a server's page on the web
companion, kept and revoked."""

from __future__ import annotations

from bot.store.connection import Aggregate
from bot.store.records import GAME_COLUMNS, StoreError, WebTarget, check_int, game_record


class WebLinks(Aggregate):
    """Live web links and what they name."""

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
            async with self.connector.reading() as db:
                rows = await db.execute_fetchall(find, (kind, value))
            if rows:
                return str(rows[0][0])
            try:
                async with self.connector.transaction() as db:
                    await db.execute(
                        "INSERT INTO web_links (token, kind, game_id, guild_id, created_at) "
                        "VALUES (?, ?, ?, ?, ?)", (token, kind, game_id, guild_id, now))
                return token
            except self.connector.integrity_errors:
                continue  # another process kept its link first: read it
        raise StoreError("A web link could not be kept.")

    async def web_target(self, token: str) -> WebTarget | None:
        """What the live web link ``token`` names, read in one statement; ``None`` for a
        token never given or revoked (or a game no longer kept)."""
        columns = ", ".join(f"g.{c}" for c in GAME_COLUMNS.split(", "))
        async with self.connector.reading() as db:
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
        return await self.connector.alone(
            f"UPDATE web_links SET revoked_at = ? WHERE {where} AND revoked_at IS NULL",
            (now, *values))
