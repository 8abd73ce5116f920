"""Links from Discord to the web companion's pages (docs/web.md): **Watch on the web** on a
game's card and its game-over board, **Step through it on the web** beside a replay GIF,
**Leaderboards on the web** with ``/settings`` and ``/stats board``, **Standings on the
web** with a tournament's standings.

A link is there only where the operator runs the web companion (``bot.web``) and the
server's managers allowed it (``/settings web:True``); a link that cannot be made now
(the database is busy) is left out, never in the way of the message it rides on. A
link button takes no custom id and answers no click: Discord opens its address.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord import words
from bot.discord.components import inert
from bot.discord.host import Host
from bot.store import GameRecord, StoreError
from bot.store.tournaments import TournamentRecord
from bot.web.service import WebService

log = logging.getLogger(__name__)

#: Discord's most components in a message (five rows of five buttons).
MOST_COMPONENTS = 25


def _web(bot: Host) -> WebService | None:
    web = getattr(bot, "web", None)
    return web if isinstance(web, WebService) else None


def with_link(view: discord.ui.View | None, label: str,
              url: str | None) -> discord.ui.View | None:
    """``view`` with a link button to ``url`` added (a new view when there was none);
    ``view`` as it was without an address or with no room left."""
    if url is None:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    if len(view.children) < MOST_COMPONENTS:
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label, url=url))
    return inert(view)  # a link answers no click: nothing to keep listening for


async def _address(bot: Host, page: Callable[[WebService], Awaitable[str | None]],
                   what: str) -> str | None:
    """The address ``page`` gives, where the bot serves the web companion and it can be
    read now (``what`` names the page in the log when it cannot)."""
    web = _web(bot)
    if web is None:
        return None
    try:
        return await page(web)
    except StoreError:
        log.warning("no web link for %s this time", what, exc_info=True)
        return None


def _link_kwargs(label: str, url: str | None) -> dict[str, Any]:
    """The keyword arguments that add a link button to a message (none without ``url``)."""
    view = with_link(None, label, url)
    return {} if view is None else {"view": view}


async def game_link(bot: Host, record: GameRecord) -> str | None:
    """The address of ``record``'s page, where there is one to give."""
    return await _address(bot, lambda web: web.link(record), f"game {record.id}")


async def watch_button(bot: Host, record: GameRecord,
                       view: discord.ui.View | None) -> discord.ui.View | None:
    """``view`` with **Watch on the web** added, where the game has a page."""
    return with_link(view, words.WATCH_ON_THE_WEB, await game_link(bot, record))


async def replay_button(bot: Host, record: GameRecord) -> dict[str, Any]:
    """The keyword arguments that add **Step through it on the web** to a replay's message
    (none where the game has no page)."""
    url = await game_link(bot, record)
    return _link_kwargs(words.STEP_ON_THE_WEB, url and f"{url}/replay")


async def server_button(bot: Host, guild_id: int | None) -> dict[str, Any]:
    """The keyword arguments that add **Leaderboards on the web** to a message (none where
    the server has no page)."""
    url = await _address(bot, lambda web: web.server_link(guild_id), f"server {guild_id}")
    return _link_kwargs(words.BOARDS_ON_THE_WEB, url)


async def tournament_button(bot: Host, record: TournamentRecord) -> dict[str, Any]:
    """The keyword arguments that add **Standings on the web** to a tournament's message
    (none where its server has no pages)."""
    url = await _address(bot, lambda web: web.tournament_link(record),
                         f"tournament {record.id}")
    return _link_kwargs(words.STANDINGS_ON_THE_WEB, url)


async def channel_deleted(bot: Host, channel_id: int) -> None:
    """A moderator deleted a channel or thread: the pages of its games (those of its
    threads too), under way or ended, go with it."""
    web = _web(bot)
    if web is None:
        return
    try:
        await web.revoke(channel_id=channel_id)
    except StoreError:
        log.warning("could not revoke the web links of channel %s", channel_id,
                    exc_info=True)
