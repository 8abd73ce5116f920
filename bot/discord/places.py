"""Where games are shown, caught up with: what changed while the bot was away, and the
places that refuse the bot (see :mod:`bot.discord.threads`, "A place that refuses the
bot holds its game").

On connecting, :func:`reconcile` goes through each server's open games (the gateway
announces a server with its channels and only its *active* threads, and the bot heard no
event while it was away): a thread or channel deleted meanwhile ends its games, an
archived thread is reopened (or its game held, when it is locked or the server's threads
are full), and a game held by a lock that was lifted goes on. :func:`thread_updated`
does the same for one thread as Discord tells of it, and :func:`look_again` (the
reminder pass) looks again at the places of held games. A game whose place takes the
bot's posts again goes on with its board as it stands, pinging whoever it waits for
(:func:`resume`).
"""

from __future__ import annotations

import logging

import discord

from bot.discord import messages, threads
from bot.discord.errors import read_or_warn
from bot.discord.host import Host
from bot.discord.publish import lobby_view, publish_saved
from bot.store import GameRecord, StoreError
from bot.tables import HOLDING

log = logging.getLogger(__name__)


async def thread_updated(bot: Host, thread_id: int, *, archived: bool, locked: bool) -> None:
    """Discord changed a thread: a game going on in it (a thread of its own, or one a
    player opened and played in, such as a forum's post) must not stay archived, is held
    while a moderator keeps the thread locked, and goes on once it is unlocked."""
    try:
        record = await bot.tables.places.open_game(thread_id)
    except StoreError:
        return
    if record is None:
        return
    if locked:
        await threads.hold(bot, record, "locked")
    elif archived:
        if await threads.keep_open(bot, record) and record.held is not None:
            await resume(bot, record)
    elif record.held in HOLDING:
        await resume(bot, record)


async def reconcile(bot: Host, guild: discord.Guild) -> int:
    """On connecting, catch up with what changed in a server while the bot was away (it
    heard no event then): the games of a thread or channel deleted meanwhile end; a thread
    Discord archived is reopened (the gateway announces a server with its active threads
    only, so a game whose thread the bot does not know is archived, or gone); a game held
    by a lock that was lifted goes on. Returns how many games it looked up on Discord."""
    games = await read_or_warn(bot.tables.places.open_games_of(guild.id), log,
                               "could not list the games of server %s", guild.id)
    if games is None:
        return 0
    asked = 0
    for record in games:
        try:
            asked += await _catch_up(bot, guild, record)
        except Exception:
            # One game must not keep the others of the server from being caught up.
            log.exception("could not catch up with game %s", record.id)
    return asked


async def _catch_up(bot: Host, guild: discord.Guild, record: GameRecord) -> int:
    """:func:`reconcile` for one game; 1 when it asked Discord about its place."""
    parent = record.parent_id
    if parent is not None and guild.get_channel(parent) is None:
        try:
            await bot.fetch_channel(parent)
        except discord.NotFound:
            await threads.ended_elsewhere(bot, record, "channel")
            return 1
        except discord.HTTPException:
            log.info("could not look up channel %s of game %s", parent, record.id)
            return 1
    known = guild.get_channel_or_thread(record.channel_id)
    if known is not None and not isinstance(known, discord.Thread):
        return 0  # a channel the server still has
    thread = known
    if thread is None:
        try:
            found = await bot.fetch_channel(record.channel_id)
        except discord.NotFound:
            gone = "thread" if parent is not None else "channel"
            await threads.ended_elsewhere(bot, record, gone)
            return 1
        except discord.HTTPException as exc:
            if threads.refused_because(exc) == "permissions":
                await threads.hold(bot, record, "permissions")
            return 1
        if not isinstance(found, discord.Thread):
            return 1
        thread = found
    if thread.locked:
        await threads.hold(bot, record, "locked")
    elif thread.archived:
        if await threads.keep_open(bot, record, thread) and record.held is not None:
            await resume(bot, record)
    elif record.held in HOLDING:
        await resume(bot, record)
    return 0 if known is not None else 1


async def look_again(bot: Host) -> int:
    """Look again at the places of the held games that are due (the reminder pass does):
    a thread reopened, its lock lifted or the bot's permissions back, the game goes on;
    else it is looked at again later. Returns how many went on."""
    tables = bot.tables
    due = await read_or_warn(tables.places.held_due(), log, "could not read the held games")
    if due is None:
        return 0
    resumed = 0
    for record in due:
        try:
            if await _clear(bot, record):
                resumed += await resume(bot, record)
            else:
                await tables.places.hold(record.id, record.held or "permissions",
                                         threads.HOLD_SECONDS)
        except Exception:
            log.exception("could not look again at held game %s", record.id)
    return resumed


async def _clear(bot: Host, record: GameRecord) -> bool:
    """Whether the place of held ``record`` takes the bot's posts now (a deleted one ends
    the game, and is not clear)."""
    if record.parent_id is None:
        return True  # its board is posted again: that tells
    try:
        thread = await bot.fetch_channel(record.channel_id)
    except discord.NotFound:
        await threads.ended_elsewhere(bot, record, "thread")
        return False
    except discord.HTTPException:
        return False
    if not isinstance(thread, discord.Thread) or thread.locked:
        return False
    if thread.archived:
        try:
            await thread.edit(archived=False)
        except discord.HTTPException:
            return False
    return True


async def resume(bot: Host, record: GameRecord) -> int:
    """The held game's place takes the bot's posts again: its board as it stands, with
    a ping for whoever it waits for (a lobby: its card with its buttons). 1 when the board
    (or card) was shown; a place still refusing holds the game again."""
    tables = bot.tables
    try:
        board = await tables.reminders.resume(record)
    except Exception:
        log.exception("could not go on with held game %s", record.id)
        return 0
    if board is None:
        if record.status == "lobby" and record.lobby_message_id:
            lobby = await tables.lobbies.lobby(record.id)
            card = bot.get_partial_messageable(record.card_channel_id,
                                               guild_id=record.guild_id) \
                .get_partial_message(record.lobby_message_id)
            try:
                await card.edit(content=messages.lobby_text(lobby), view=lobby_view(lobby),
                                allowed_mentions=messages.NOBODY)
            except discord.HTTPException:
                log.info("could not show the lobby of game %s again", record.id)
        return 0
    log.info("game %s goes on: its place takes the bot's posts again", record.id)
    return 1 if await publish_saved(bot, board) else 0
