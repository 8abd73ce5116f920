"""What Discord lets the bot do: failures to reach it explained, and the bot's access
where games are open, checked over HTTP only."""

from __future__ import annotations

import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.ops import PORTAL, Exit, OpsError
from bot.ops.database import OpenGame
from bot.ops.logs import silence_voice_warnings, summarise

if TYPE_CHECKING:
    import discord

def discord_problem(exc: BaseException) -> OpsError | None:
    """What a failure to talk to Discord means for the operator, or None if it is not one."""
    import aiohttp
    import discord

    if isinstance(exc, discord.LoginFailure) or (
            isinstance(exc, discord.ConnectionClosed) and exc.code == 4004):
        return OpsError(Exit.TOKEN_REFUSED,
                        f"Discord rejected the token in DISCORD_TOKEN: press Reset Token on the "
                        f"Bot page of {PORTAL}, put the new token in DISCORD_TOKEN, and try "
                        f"again.")
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return OpsError(Exit.TOKEN_REFUSED,
                        "Discord refused the gateway intents: candybot needs none of the "
                        f"privileged ones; check the Bot page of {PORTAL}.")
    if isinstance(exc, discord.DiscordServerError):
        return OpsError(Exit.DISCORD_UNREACHABLE,
                        f"Discord is having trouble (HTTP {exc.status}): try again in a few "
                        f"minutes; https://discordstatus.com shows outages.")
    if isinstance(exc, discord.ConnectionClosed):
        return OpsError(Exit.DISCORD_UNREACHABLE,
                        f"Discord closed the connection (code {exc.code}): try again in a few "
                        f"minutes.")
    if isinstance(exc, TimeoutError):
        return OpsError(Exit.DISCORD_UNREACHABLE,
                        "Discord did not answer in time: check this machine's internet "
                        "connection, DNS, proxy and firewall, then try again.")
    # aiohttp wraps refused connections, DNS and TLS failures in ClientError; a bare
    # OSError (a missing file, say) is not about the network, so it is not caught here.
    if isinstance(exc, discord.GatewayNotFound | aiohttp.ClientError | ConnectionError
                  | socket.gaierror):
        return OpsError(Exit.DISCORD_UNREACHABLE,
                        f"Could not reach Discord ({summarise(exc)}): check this machine's "
                        f"internet connection, DNS, proxy and firewall, then try again.")
    return None


#: What the bot needs where a game is open, with the names Discord's settings show.
NEEDED = {"view_channel": "View Channel", "send_messages": "Send Messages",
          "attach_files": "Attach Files"}
NEEDED_IN_THREADS = {"view_channel": "View Channel",
                     "send_messages_in_threads": "Send Messages in Threads",
                     "attach_files": "Attach Files"}
#: What a text channel needs besides :data:`NEEDED` for each new game to get a thread.
THREAD_MODE = {"create_public_threads": "Create Public Threads",
               "send_messages_in_threads": "Send Messages in Threads"}


@dataclass(frozen=True)
class ChannelAccess:
    """The bot's permissions in one channel with open games."""

    channel_id: int
    name: str
    games: tuple[OpenGame, ...]
    missing: tuple[str, ...] = ()
    #: Why the channel could not be checked (it was deleted), if so.
    note: str = ""


@dataclass(frozen=True)
class ServerAccess:
    """One server the bot is in, and the channels of its open games."""

    id: int
    name: str
    channels: tuple[ChannelAccess, ...] = ()
    #: Each text channel the bot can post in, with the thread permissions it lacks
    #: there (none: new games get a thread of their own).
    thread_mode: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class DiscordAccess:
    """What Discord says about the bot: who it is, its servers, games it cannot reach."""

    user: str
    user_id: int
    servers: tuple[ServerAccess, ...]
    #: Open games in servers the bot is no longer in (or outside any server).
    stranded: tuple[OpenGame, ...] = ()


async def discord_access(token: str, games: Sequence[OpenGame]) -> DiscordAccess:
    """Log in over HTTP only (no gateway) and check the bot's access where games are open.

    Raises whatever discord.py raises: :func:`discord_problem` explains it.
    """
    import discord

    silence_voice_warnings()
    client = discord.Client(intents=discord.Intents(guilds=True))
    try:
        data = await client.http.static_login(token)
        me = discord.Object(int(data["id"]))
        name = str(data.get("username") or me.id)
        if data.get("discriminator") not in (None, "0"):
            name = f"{name}#{data['discriminator']}"
        guilds = [g async for g in client.fetch_guilds(limit=None)]
        by_guild: dict[int | None, list[OpenGame]] = {}
        for game in games:
            by_guild.setdefault(game.guild_id, []).append(game)
        servers = []
        for guild in guilds:
            here = by_guild.pop(guild.id, [])
            channels = await _channels(client, guild.id, me.id, here) if here else ()
            servers.append(ServerAccess(guild.id, guild.name, channels,
                                        await _thread_mode(client, guild.id, me.id)))
        stranded = tuple(g for gs in by_guild.values() for g in gs)
        return DiscordAccess(name, me.id, tuple(servers), stranded)
    finally:
        await client.http.close()


async def _thread_mode(client: discord.Client, guild_id: int,
                       user_id: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Where new games would get threads of their own: each text channel the bot can post
    in, with the thread permissions it lacks there."""
    import discord

    guild = await client.fetch_guild(guild_id)
    member = await guild.fetch_member(user_id)
    out = []
    for channel in await guild.fetch_channels():
        if not isinstance(channel, discord.TextChannel):
            continue
        allowed = channel.permissions_for(member)
        if not all(getattr(allowed, flag) for flag in NEEDED):
            continue
        lacking = tuple(label for flag, label in THREAD_MODE.items()
                        if not getattr(allowed, flag))
        out.append((f"#{channel.name}", lacking))
    return tuple(out)


async def _channels(client: discord.Client, guild_id: int, user_id: int,
                    games: Sequence[OpenGame]) -> tuple[ChannelAccess, ...]:
    import discord

    # The full guild (its roles) and the bot's member. Channels are fetched through the
    # guild, so they resolve its roles; a thread takes its parent channel's permissions.
    guild = await client.fetch_guild(guild_id)
    member = await guild.fetch_member(user_id)
    by_channel: dict[int, list[OpenGame]] = {}
    for game in games:
        by_channel.setdefault(game.channel_id, []).append(game)
    out = []
    for channel_id, here in by_channel.items():
        try:
            channel = await guild.fetch_channel(channel_id)
        except discord.NotFound:
            out.append(ChannelAccess(channel_id, "channel", tuple(here),
                                     note="the channel was deleted"))
            continue
        except discord.Forbidden:
            out.append(ChannelAccess(channel_id, "channel", tuple(here),
                                     missing=("View Channel",)))
            continue
        needed = NEEDED
        where: object = channel
        if isinstance(channel, discord.Thread):
            needed = NEEDED_IN_THREADS
            where = await guild.fetch_channel(channel.parent_id)
        permissions = where.permissions_for(member)  # type: ignore[attr-defined]
        if isinstance(channel, discord.Thread) and not permissions.send_messages_in_threads:
            permissions.attach_files = False  # as discord.py's Thread.permissions_for does
        missing = tuple(label for flag, label in needed.items() if not getattr(permissions, flag))
        out.append(ChannelAccess(channel_id, f"#{getattr(channel, 'name', channel_id)}",
                                 tuple(here), missing))
    return tuple(out)
