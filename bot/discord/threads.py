"""A game in a thread of its own (thread mode), and the card that stands for it.

Where the bot may create public threads and post in them, ``/game new`` posts the
lobby in the channel and starts a public thread from that message: the game is played
in the thread, so a channel holds any number of games. The lobby message becomes the
game's **card**: game, players, whose turn at which move, a link to the thread; it is
edited as the game goes and shows the result (with **Rematch**) at the end. Elsewhere,
or with the server's thread mode off, a channel holds one game, played in it.

Discord archives a quiet thread (at most 7 days after its last message) and delivers no
click or command from an archived thread. A game's thread is made with the longest
auto-archive duration, unarchived when Discord archives it while the game is on, and
before an edit in it (a new message unarchives it by itself). A finished game's thread
is archived, not locked: it stays readable. A deleted thread or channel ends its games
without a result; a deleted card is noticed when it cannot be edited.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Literal

import discord

from bot.discord import components, messages, pacing, words
from bot.discord.host import Host, messageable
from bot.discord.words import escaped
from bot.games.words import listing
from bot.refusals import ThreadsFull
from bot.store import GameRecord, StoreError
from bot.tables import Board

log = logging.getLogger(__name__)

#: Minutes of quiet before Discord archives a game's thread: the longest it allows.
AUTO_ARCHIVE_MINUTES: Literal[10080] = 10080
#: Discord's answers this module handles.
MAX_ACTIVE_THREADS = 160006
THREAD_ARCHIVED = 50083
UNKNOWN_MESSAGE = 10008
#: A thread's name is at most 100 characters.
MAX_THREAD_NAME = 100


def no_thread(interaction: discord.Interaction, defaults: dict[str, Any]) -> str:
    """Why a new game here cannot have a thread of its own ("" when it can): the
    server turned thread mode ``off``, the channel's ``type`` has no threads (a thread
    itself, a voice channel), or the bot lacks ``permissions`` here."""
    if defaults.get("threads") is False:
        return "off"
    if getattr(interaction.channel, "type", None) is not discord.ChannelType.text:
        return "type"
    allowed = interaction.app_permissions
    if not (allowed.create_public_threads and allowed.send_messages_in_threads):
        return "permissions"
    return ""


def thread_name(title: str, host: str) -> str:
    return messages.clip(f"{title} · {host}", MAX_THREAD_NAME)


async def start_thread(bot: Host, channel_id: int, guild_id: int | None, title: str,
                       host_name: str, opening: str) -> tuple[int, int]:
    """Post a game's card in ``channel_id`` and start its thread from it: ``(thread id,
    card id)``. Refused with :class:`ThreadsFull` when the server holds as many active
    threads as Discord allows (the card is then taken back)."""
    channel = bot.get_partial_messageable(channel_id, guild_id=guild_id)
    card = await channel.send(opening, allowed_mentions=messages.NOBODY)
    name = thread_name(title, host_name)
    try:
        try:
            thread = await card.create_thread(name=name,
                                              auto_archive_duration=AUTO_ARCHIVE_MINUTES)
        except ValueError:
            # discord.py knows no server for the card yet (the gateway has not announced
            # it): start the thread through the channel, asked of Discord.
            parent = await bot.fetch_channel(channel_id)
            thread = await parent.create_thread(name=name, message=card,
                                                auto_archive_duration=AUTO_ARCHIVE_MINUTES)
    except discord.HTTPException as exc:
        await _forget(card)
        if exc.code == MAX_ACTIVE_THREADS:
            raise ThreadsFull() from None
        raise
    return thread.id, card.id


async def abandon(bot: Host, channel_id: int, guild_id: int | None, card_id: int,
                  thread_id: int) -> None:
    """Take back a card and its thread when the lobby could not open after all."""
    thread = await _thread(bot, thread_id)
    try:
        if thread is not None:
            await thread.delete()
    except discord.HTTPException:
        log.info("could not delete thread %s", thread_id, exc_info=True)
    await _forget(bot.get_partial_messageable(channel_id, guild_id=guild_id)
                  .get_partial_message(card_id))


async def _forget(message: discord.PartialMessage | discord.Message) -> None:
    try:
        await message.delete()
    except discord.HTTPException:
        log.info("could not take back message %s", message.id, exc_info=True)


async def _thread(bot: Host, thread_id: int) -> discord.Thread | None:
    """A thread as discord.py knows it: from its cache (the gateway announces threads),
    else asked of Discord."""
    known = bot.get_channel(thread_id)
    if isinstance(known, discord.Thread):
        return known
    try:
        fetched = await bot.fetch_channel(thread_id)
    except discord.HTTPException:
        log.info("could not find thread %s", thread_id, exc_info=True)
        return None
    return fetched if isinstance(fetched, discord.Thread) else None


async def seat_in_thread(bot: Host, record: GameRecord, user_id: int) -> None:
    """Add a player to their game's thread (it shows in their channel list)."""
    if record.parent_id is None or record.status not in ("lobby", "active"):
        return
    thread = await _thread(bot, record.channel_id)
    try:
        if thread is not None:
            await thread.add_user(discord.Object(id=user_id))
    except discord.HTTPException:
        log.info("could not add user %s to the thread of game %s", user_id, record.id,
                 exc_info=True)


async def keep_open(bot: Host, thread_id: int) -> None:
    """Unarchive a game's thread (Discord archived it while the game is on)."""
    thread = await _thread(bot, thread_id)
    try:
        if thread is not None:
            await thread.edit(archived=False)
    except discord.HTTPException:
        log.warning("could not unarchive the thread %s of an active game", thread_id,
                    exc_info=True)


async def close_thread(bot: Host, record: GameRecord) -> None:
    """Archive a finished game's thread (not locked: it stays readable)."""
    if record.parent_id is None:
        return
    thread = await _thread(bot, record.channel_id)
    try:
        if thread is not None:
            await thread.edit(archived=True, locked=False)
    except discord.HTTPException:
        log.info("could not archive the thread of game %s", record.id, exc_info=True)


# --------------------------------------------------------------------------- the card


def card_text(game_title: str, record: GameRecord, *, turn: str = "", move: int | None = None,
              ranking: tuple[tuple[str, int, int], ...] = ()) -> str:
    """The card: the game, its players, whose turn at which move or how it ended, and
    a link to its thread."""
    link = messages.message_link(record.guild_id, record.channel_id, None)
    head = f"**{game_title}** · game {record.id} · {link}"
    lines = [head]
    if record.seats:
        lines.append("Players: " + ", ".join(
            escaped(s.name) + (" (AI)" if s.ai else "") for s in record.seats))
    if record.status == "finished":
        lines.append("Game over: " + ", ".join(
            f"{place}. {escaped(name)} {score}" for name, place, score in ranking) + ".")
    elif record.status == "aborted":
        lines.append(words.ENDED_WITHOUT_RESULT)
    elif turn:
        lines.append(f"Move {move}: {turn}")
    return messages.fit(lines, keep_last=0)


def turn_of(board: Board) -> str:
    """Who acts, as the card says it (names, never a ping: the card is edited)."""
    seats = {s.seat: s for s in board.record.seats}
    names = [escaped(seats[s].name) for s in board.to_act if s in seats]
    if not names:
        return "the game goes on."
    return f"waiting for {listing(names)}."


async def ended_without_result(bot: Host, record: GameRecord, title: str) -> None:
    """A game of a thread ended with no result (aborted, its lobby cancelled or left
    empty): its card says so, with no buttons, and its thread is archived."""
    if record.parent_id is None:
        return
    if record.lobby_message_id:
        card = bot.get_partial_messageable(record.parent_id, guild_id=record.guild_id) \
            .get_partial_message(record.lobby_message_id)
        text = card_text(title, dataclasses.replace(record, status="aborted"))
        try:
            await card.edit(content=text, view=None, allowed_mentions=messages.NOBODY)
        except discord.HTTPException:
            log.info("could not update the card of game %s", record.id, exc_info=True)
    await close_thread(bot, record)


async def show_card(bot: Host, board: Board) -> None:
    """Edit the game's card after a change its thread shows (whose turn, the result)."""
    record = board.record
    if record.parent_id is None or not record.lobby_message_id:
        return
    text = card_text(board.game.title, record, turn=turn_of(board), move=board.move,
                     ranking=board.ranking)
    view = components.rematch_view(record.id) if record.status == "finished" else None
    card = bot.get_partial_messageable(record.parent_id, guild_id=record.guild_id) \
        .get_partial_message(record.lobby_message_id)
    try:
        with pacing.background():  # the board is shown: moves being answered go first
            await card.edit(content=text, view=view, allowed_mentions=messages.NOBODY)
    except discord.HTTPException as exc:
        if exc.code == UNKNOWN_MESSAGE:
            await ended_elsewhere(bot, record, "card")
            return
        log.info("could not update the card of game %s", record.id, exc_info=True)
    if record.status == "finished":
        await close_thread(bot, record)


# --------------------------------------------------------------------------- events


async def thread_archived(bot: Host, thread_id: int) -> None:
    """Discord archived a thread: unarchive it if a game is on in it (a thread of its own,
    or one a player opened and played in, such as a forum's post)."""
    try:
        record = await bot.tables.store.open_game(thread_id)
    except StoreError:
        return
    if record is not None:
        await keep_open(bot, thread_id)


async def reopen_archived(bot: Host, guild: discord.Guild) -> int:
    """On connecting, unarchive the threads of the server's games under way that Discord
    archived while the bot was away (it heard no THREAD_UPDATE then). The gateway
    announces a server with its active threads only, so a game whose channel the bot
    does not know is in an archived thread (or a deleted one: nothing to do then).
    Returns how many threads were asked to reopen."""
    try:
        games = await bot.tables.store.active_games_of(guild.id)
    except StoreError:
        log.warning("could not list the games of server %s", guild.id, exc_info=True)
        return 0
    reopened = 0
    for record in games:
        if guild.get_channel_or_thread(record.channel_id) is None:
            await keep_open(bot, record.channel_id)
            reopened += 1
    return reopened


async def ended_elsewhere(bot: Host, record: GameRecord, what: str) -> None:
    """A moderator deleted the game's ``thread``, its ``channel`` or its ``card``: the
    game ends without a result, said where it can still be said."""
    if record.status not in ("lobby", "active"):
        return
    try:
        await bot.tables.store.abort(record.id, bot.tables.clock())
    except StoreError:
        log.warning("could not end game %s after its %s was deleted", record.id, what,
                    exc_info=True)
        return
    log.info("game %s ended without a result: its %s was deleted", record.id, what)
    if what == "card":
        where = messageable(bot, record)
        text = messages.gone_text(what)
        try:
            await where.send(text, allowed_mentions=messages.NOBODY)
        except discord.HTTPException:
            log.info("could not say in game %s's thread that it ended", record.id)
        await close_thread(bot, record)
    elif what == "thread" and record.lobby_message_id and record.parent_id is not None:
        card = bot.get_partial_messageable(record.parent_id, guild_id=record.guild_id) \
            .get_partial_message(record.lobby_message_id)
        try:
            await card.edit(content=messages.gone_text(what), view=None,
                            allowed_mentions=messages.NOBODY)
        except discord.HTTPException:
            log.info("could not say on game %s's card that it ended", record.id)


async def channel_gone(bot: Host, channel_id: int, *, thread: bool) -> None:
    """A thread or channel was deleted: end the games held there (a channel's threads
    go with it)."""
    try:
        records = await bot.tables.store.open_games_in(channel_id)
    except StoreError:
        log.warning("could not read the games of deleted channel %s", channel_id,
                    exc_info=True)
        return
    for record in records:
        await ended_elsewhere(bot, record, "thread" if thread else "channel")
