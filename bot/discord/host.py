"""The bot as the Discord layer's handlers see it, and where a game is shown."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.discord.messages import Pictures, Renderer
from bot.discord.outbox import Outbox
from bot.limits import Cooldowns
from bot.replays import Replays
from bot.store import GameRecord
from bot.tables import Board, Tables
from bot.tables.seasons import Seasons
from bot.tournaments import Organizer


class Host(Protocol):
    """What the handlers need from the bot."""

    @property
    def tables(self) -> Tables: ...
    @property
    def outbox(self) -> Outbox: ...
    @property
    def seasons(self) -> Seasons: ...
    @property
    def organizer(self) -> Organizer: ...

    http: discord.http.HTTPClient

    renderer: Renderer | None
    pictures: Pictures
    cooldowns: Cooldowns
    replays: Replays

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None,
                                ) -> discord.PartialMessageable: ...

    def get_channel(self, id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...


def host(interaction: discord.Interaction) -> Host:
    return interaction.client  # type: ignore[return-value]


def messageable(bot: Host, where: Board | GameRecord) -> discord.PartialMessageable:
    """The game's channel (or thread)."""
    record = where if isinstance(where, GameRecord) else where.record
    return bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
