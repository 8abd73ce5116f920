"""``/season``: a server's managers set, list and end seasons; and a season's final
standings posted from the outbox once it is over (a picture, its alt text and the same in
words). The seasons themselves are :class:`bot.tables.seasons.Seasons`."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from bot.discord import messages
from bot.discord.errors import guarded
from bot.discord.host import Host, host
from bot.refusals import ManageServerOnly, NoGameHere
from bot.store import OutboxRecord
from renderers import season as season_picture

log = logging.getLogger(__name__)


def _managed(interaction: discord.Interaction) -> int:
    """The server a manager asks about: the same check as ``/settings`` (Discord hides
    the command from others; a forged call is refused here too)."""
    if interaction.guild_id is None:
        raise NoGameHere()
    if not interaction.permissions.manage_guild:
        raise ManageServerOnly()
    return interaction.guild_id


async def new(interaction: discord.Interaction, *, name: str, start: str, end: str,
              channel_id: int | None) -> None:
    """``/season new``: a season from ``start`` to ``end`` (its final standings posted in
    ``channel_id``, by default here), said privately."""
    async with guarded(interaction):
        guild = _managed(interaction)
        where = channel_id or interaction.channel_id
        assert where is not None
        season = await host(interaction).seasons.create(guild, name=name, start=start,
                                                        end=end, channel_id=where)
        await interaction.response.send_message(messages.season_made_text(season),
                                                ephemeral=True,
                                                allowed_mentions=messages.NOBODY)


async def end(interaction: discord.Interaction, name: str) -> None:
    """``/season end``: end a season under way now (its standings are posted at once), or
    remove one not yet begun."""
    async with guarded(interaction):
        guild = _managed(interaction)
        bot = host(interaction)
        season = await bot.seasons.end(guild, name)
        await interaction.response.send_message(messages.season_ended_text(name, season),
                                                ephemeral=True,
                                                allowed_mentions=messages.NOBODY)
        if season is not None:
            await settle(bot)


async def listed(interaction: discord.Interaction) -> None:
    """``/season list``: the server's seasons, privately (anyone may ask)."""
    async with guarded(interaction):
        if interaction.guild_id is None:
            raise NoGameHere()
        bot = host(interaction)
        seasons = await bot.seasons.listed(interaction.guild_id)
        await interaction.response.send_message(
            messages.seasons_text(seasons, bot.seasons.clock()), ephemeral=True,
            allowed_mentions=messages.NOBODY)


async def names(interaction: discord.Interaction,
                current: str) -> list[discord.app_commands.Choice[str]]:
    """Autocomplete of ``/stats season``: the server's seasons begun, newest first, and
    all time."""
    found = await host(interaction).seasons.suggest(interaction.guild_id, current)
    return [discord.app_commands.Choice(name=name, value=name) for name in found]


async def open_names(interaction: discord.Interaction,
                     current: str) -> list[discord.app_commands.Choice[str]]:
    """Autocomplete of ``/season end``: the server's seasons not over yet."""
    found = await host(interaction).seasons.suggest(interaction.guild_id, current, ending=True)
    return [discord.app_commands.Choice(name=name, value=name) for name in found]


async def settle(bot: Host) -> int:
    """Close every season that is over (its standings kept, their post queued) and
    deliver the posts; how many closed. Run with every reminder pass, so a bot that was
    down catches up on connect."""
    closed = await bot.seasons.close_due()
    for season in closed:
        log.info("season %s of server %s is over; its standings are kept", season.id,
                 season.guild_id)
        if season.channel_id is not None:
            await bot.outbox.deliver(season.channel_id)
    return len(closed)


async def show(bot: Host, row: OutboxRecord, hand: Any = None) -> bool:
    """Deliver a queued ``season`` announcement: the season's final standings as kept,
    drawn now (a player who deleted their data meanwhile reads as a former player)."""
    item = row.announcement
    season_id = int((item.data or {}).get("season") or 0)
    season = (await bot.seasons.season_of(item.guild_id, season_id)
              if item.guild_id is not None else None)
    if season is None:  # the server's data is gone
        await bot.outbox.delivered(row, None)
        return True
    games = await bot.seasons.final(season)
    png = await asyncio.to_thread(season_picture.render, messages.season_board(season, games))
    channel = bot.get_partial_messageable(item.channel_id, guild_id=item.guild_id)
    sent = await channel.send(
        messages.season_text(season, games), nonce=row.nonce,
        allowed_mentions=messages.NOBODY,
        file=discord.File(io.BytesIO(png), filename="season.png",
                          description=messages.season_alt(season, games)))
    await bot.outbox.delivered(row, sent.id)
    return True
