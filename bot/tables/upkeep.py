"""The bot's upkeep of what it keeps: its health, what it forgets in time, and the turn of
its processes' gateway logins.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from bot.store import PostgresConnector
from bot.tables.core import Pipeline


class Upkeep:
    """Health, housekeeping and login turns, for the process that runs the bot."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store

    async def health(self) -> tuple[dict[tuple[str, str], int], tuple[int, float | None]]:
        """Check the database takes writes; the open games by game and status, and how many
        announcements wait (and when the next is due)."""
        await self.store.check_writable()
        counts = await self.store.games.open_game_counts()
        return counts, await self.store.outbox.pending_announcements(self.pipeline.clock())

    async def housekeeping(self, *, delivered_before: float,
                           removed_before: float) -> tuple[int, list[int]]:
        """Delete announcements delivered before ``delivered_before`` and the games of
        servers that removed the bot before ``removed_before``: how many announcements,
        and which servers."""
        pruned = await self.store.outbox.prune_announcements(delivered_before)
        return pruned, await self.store.servers.purge_servers(removed_before)

    @property
    def shared(self) -> bool:
        """Whether processes on several machines share this database (PostgreSQL)."""
        return isinstance(self.store.connector, PostgresConnector)

    @contextlib.asynccontextmanager
    async def login_turn(self, window: float) -> AsyncIterator[None]:
        """Hold the database's login turn (see :meth:`PostgresConnector.identify_turn`)."""
        connector = self.store.connector
        assert isinstance(connector, PostgresConnector), "only a shared database has turns"
        async with connector.identify_turn(window):
            yield
