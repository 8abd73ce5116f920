"""Where games are shown: the channels, threads and messages the Discord layer keeps a
game's board and card in, the openings under way, and the servers that come and go.

The Discord layer asks these of the tables, never of the store (a test reads the layer
for any use of a store): what it learns of Discord (a thread gone, a permission taken
away, a message posted) is noted here, and the games it must show are read here.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store import Announcement, GameRecord, OpeningRecord
from bot.tables.core import Pipeline


class Places:
    """The games' places, for the Discord layer."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store
        self.clock = pipeline.clock

    # ----------------------------------------------------------------- games by place

    async def game(self, game_id: int) -> GameRecord:
        """The game ``game_id`` as stored (:class:`~bot.store.NotFoundError` if none)."""
        return await self.store.games.get_game(game_id)

    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The lobby or game under way in ``channel_id`` (a channel or a game's thread)."""
        return await self.store.games.open_game(channel_id)

    async def open_games_in(self, channel_id: int) -> list[GameRecord]:
        """The lobbies and games under way in ``channel_id`` and its threads."""
        return await self.store.games.open_games_in(channel_id)

    async def open_games_of(self, guild_id: int) -> list[GameRecord]:
        """The lobbies and games under way in a server."""
        return await self.store.games.open_games_of(guild_id)

    # ----------------------------------------------------------------- what Discord did

    async def lobby_shown(self, game_id: int, message_id: int | None) -> None:
        """The lobby's message (its card, in thread mode) is ``message_id``."""
        await self.store.games.set_lobby_message(game_id, message_id)

    async def board_shown(self, game_id: int, message_id: int, announcement_id: int,
                          follow: Sequence[Announcement] = ()) -> None:
        """The board announcement ``announcement_id`` was posted as ``message_id``; what
        must follow it is queued with that, in one transaction."""
        await self.store.outbox.board_shown(game_id, message_id, announcement_id, self.clock(),
                                            follow)

    async def hold(self, game_id: int, why: str, seconds: float) -> None:
        """The game's place refused a change (``why``): changes wait until it is tried
        again in ``seconds``."""
        await self.store.games.hold(game_id, why, self.clock() + seconds)

    async def held_due(self) -> list[GameRecord]:
        """The held games whose place is due to be tried again."""
        return await self.store.games.held_games(self.clock())

    async def release(self, game_id: int) -> bool:
        """The game's place takes posts again; whether it was held."""
        return await self.store.games.release(game_id, self.clock())

    async def abort(self, game_id: int) -> None:
        """The game ends without a result: its place is gone (its thread deleted), or its
        lobby could not be shown."""
        await self.store.games.abort(game_id, self.clock())

    # ----------------------------------------------------------------- openings

    async def begin_opening(self, *, guild_id: int | None, channel_id: int, creator_id: int,
                            game: str) -> OpeningRecord:
        """Note a table's game being opened in a thread of ``channel_id`` for a tournament
        (whose sign-up counted its players already, so no lobby limit applies): a card and
        a thread follow, then the lobby (:meth:`~bot.tables.lobby.Lobbies.open_lobby`)."""
        return await self.store.openings.begin_opening(guild_id=guild_id, channel_id=channel_id,
                                                       creator_id=creator_id, game=game,
                                                       now=self.clock(), threaded=True)

    async def opening_step(self, opening_id: int, *, card_id: int | None = None,
                           thread_id: int | None = None) -> None:
        """A lobby being opened got its card or its thread."""
        await self.store.openings.opening_step(opening_id, self.clock(), card_id=card_id,
                                               thread_id=thread_id)

    async def stale_openings(self, seconds: float) -> list[OpeningRecord]:
        """Openings left unfinished for more than ``seconds``."""
        return await self.store.openings.stale_openings(self.clock() - seconds)

    async def claim_opening(self, opening: OpeningRecord) -> bool:
        """Take ``opening`` to finish or undo it; ``False`` when another process has."""
        return await self.store.openings.claim_opening(opening, self.clock())

    # ----------------------------------------------------------------- servers

    async def server_gone(self, guild_id: int) -> int:
        """A server removed the bot: its lobbies close (how many), its games are kept for
        the grace period."""
        return await self.store.servers.server_gone(guild_id, self.clock())

    async def server_back(self, guild_id: int) -> None:
        """A server added the bot (again): whatever it had is kept."""
        await self.store.servers.server_back(guild_id)
