"""Building, running and syncing the Discord bot."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Mapping

import discord

from bot.config import Settings
from bot.discord.client import CandyBot
from bot.discord.messages import Animator, Renderer
from bot.games.engine import Game
from bot.tables import Clock

log = logging.getLogger(__name__)

NO_TOKEN_HELP = """\
candybot needs a Discord bot token in DISCORD_TOKEN (environment or a .env file).
To get one:
  1. Open https://discord.com/developers/applications and create an application.
  2. Under "Bot", press "Reset Token" and copy it.
  3. Put DISCORD_TOKEN=<your token> in .env beside the database, or export it.
Then run `candybot sync --guild <your test server id>` once, and `candybot run`.
See docs/discord.md for the invite link and permissions."""


def default_renderer() -> Renderer | None:
    """The board renderer, if the renderers package provides one."""
    try:
        from renderers import render
    except ImportError:
        log.warning("no board renderer available: messages will be text only")
        return None
    return render


def default_animator() -> Animator | None:
    """The GIF maker for ``/game replay``, if available."""
    try:
        from renderers.gif import animate
    except ImportError:
        log.warning("no GIF maker available: /game replay is disabled")
        return None
    return animate


def create_bot(settings: Settings, *, games: Mapping[str, Game] | None = None,
               renderer: Renderer | None = None, animator: Animator | None = None,
               clock: Clock | None = None) -> CandyBot:
    """The configured, unstarted bot. Touches neither the network nor the database."""
    import time

    return CandyBot(settings, games=games,
                    renderer=renderer if renderer is not None else default_renderer(),
                    animator=animator if animator is not None else default_animator(),
                    clock=clock or time.time)


def run_bot(settings: Settings) -> int:
    """``candybot run``: connect and play until stopped. Returns the exit status."""
    if not settings.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = create_bot(settings)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print("Discord rejected the token in DISCORD_TOKEN; reset it in the developer portal.",
              file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Discord refused the gateway intents; candybot needs no privileged intents.",
              file=sys.stderr)
        return 1
    return 0


def sync_commands(settings: Settings, guild_id: int | None) -> int:
    """``candybot sync``: register the slash commands globally or to one server."""
    if not settings.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING)
    try:
        count = asyncio.run(_sync(settings, settings.token, guild_id))
    except discord.LoginFailure:
        print("Discord rejected the token in DISCORD_TOKEN.", file=sys.stderr)
        return 1
    except discord.HTTPException as exc:
        print(f"Discord refused the commands: {exc.status} {exc.text}", file=sys.stderr)
        return 1
    where = f"server {guild_id} (available now)" if guild_id else \
        "every server (global commands may take up to an hour to appear)"
    print(f"Registered {count} commands to {where}.")
    return 0


async def _sync(settings: Settings, token: str, guild_id: int | None) -> int:
    # Only the HTTP login is needed to sync; the database is never opened.
    bot = create_bot(settings)
    try:
        await bot.http.static_login(token)
        app = await bot.application_info()
        bot._connection.application_id = app.id
        guild = discord.Object(id=guild_id) if guild_id else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
        return len(synced)
    finally:
        await bot.http.close()
