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
is archived, not locked: it stays readable. A thread the bot opened for nothing is
archived too (deleting one takes Manage Threads, which the bot does not ask for). A
deleted thread or channel ends its games without a result; a deleted card is noticed
when it cannot be edited.

**A place that refuses the bot holds its game.** A moderator may lock a game's thread
(then only Manage Threads posts there or reopens it: Discord answers 160005), the
server may be at Discord's cap on active threads when an archived game's thread should
reopen (160006), or the bot may lose its permissions there. The game is then *held*
(:meth:`bot.store.games.Games.hold`): no change to a game whose thread is locked or cannot
reopen is made (whoever tries is told why), no
reminder goes out, its card says why, and the bot looks again every
:data:`HOLD_SECONDS` (and at once when Discord says the thread was unlocked:
:mod:`bot.discord.places`). Once the place takes its posts again, the board is posted
as the game stands, pinging whoever it waits for. A place that refused for want of a
permission holds no change: the next change's board tells whether it is back.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Literal

import discord

from bot.discord import components, messages, pacing, weblinks, words
from bot.discord.host import Host, messageable
from bot.discord.words import escaped
from bot.games.words import listing
from bot.refusals import NotOpened, ThreadsFull
from bot.store import GameRecord, OpeningRecord, StoreError
from bot.tables import Board, Lobby

log = logging.getLogger(__name__)

#: Minutes of quiet before Discord archives a game's thread: the longest it allows.
AUTO_ARCHIVE_MINUTES: Literal[10080] = 10080
#: Discord's answers this module handles.
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005
MAX_ACTIVE_THREADS = 160006
#: A thread's name is at most 100 characters.
MAX_THREAD_NAME = 100
#: Seconds between two looks at a held game's place (see the module text).
HOLD_SECONDS = 300.0


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


def cannot_show(interaction: discord.Interaction, threaded: bool) -> NotOpened | None:
    """Why a game opened here could not be shown (``None`` when it could): a game gets
    its card in the channel and its boards in its thread (``threaded``), or both in the
    channel (or the thread a game is played in); each post needs sending and a picture."""
    allowed = interaction.app_permissions
    channel = getattr(interaction.channel, "type", None)
    in_thread = channel in (discord.ChannelType.public_thread,
                            discord.ChannelType.private_thread)
    sends = allowed.send_messages_in_threads if in_thread else allowed.send_messages
    if not (sends and allowed.attach_files):
        return NotOpened(why="permissions", thread=threaded)
    return None


def thread_name(title: str, host: str) -> str:
    return messages.clip(f"{title} · {host}", MAX_THREAD_NAME)


def _not_opened(exc: discord.HTTPException, what: str, channel_id: int) -> NotOpened:
    """Discord refusing a step of opening a lobby, as the host's refusal (logged as a
    warning: Discord's trouble or a server's permissions, not the bot's)."""
    log.warning("could not %s in channel %s: %s %s", what, channel_id, exc.status, exc.text)
    forbidden = exc.status == 403 or exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS)
    return NotOpened(why="permissions" if forbidden else "discord", thread=True)


async def start_thread(bot: Host, opening: OpeningRecord, title: str,
                       host_name: str) -> tuple[int, int]:
    """Post the card of ``opening`` in its channel and start its thread from it, noting
    each step in the opening (so that a bot stopped in between finishes or takes it
    back): ``(thread id, card id)``. Refused with :class:`ThreadsFull` when the server
    holds as many active threads as Discord allows, and :class:`NotOpened` for any other
    refusal (the card is then taken back)."""
    channel_id, places = opening.channel_id, bot.tables.places
    try:
        card = await post_card(bot, opening, title)
    except discord.HTTPException as exc:
        raise _not_opened(exc, "post a new game's card", channel_id) from None
    await places.opening_step(opening.id, card_id=card.id)
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
        raise _not_opened(exc, "start a new game's thread", channel_id) from None
    await places.opening_step(opening.id, thread_id=thread.id)
    return thread.id, card.id


async def post_card(bot: Host, opening: OpeningRecord, title: str) -> discord.Message:
    """Post the card of ``opening`` (still saying it is opening). Its nonce is the
    opening's: posted again while Discord remembers it (a few minutes), the card Discord
    made for a bot killed before it heard back is the one returned."""
    channel = bot.get_partial_messageable(opening.channel_id, guild_id=opening.guild_id)
    return await channel.send(messages.opening_text(title), allowed_mentions=messages.NOBODY,
                              nonce=f"opening-{opening.id}")


async def abandon(bot: Host, channel_id: int, guild_id: int | None, card_id: int | None,
                  thread_id: int | None) -> None:
    """Take back a card and its thread when the lobby could not open after all: the
    thread is archived (deleting it would take Manage Threads), the card deleted."""
    if thread_id is not None:
        await archive(bot, thread_id)
    if card_id is not None:
        await _forget(bot.get_partial_messageable(channel_id, guild_id=guild_id)
                      .get_partial_message(card_id))


async def archive(bot: Host, thread_id: int) -> None:
    """Archive a thread the bot made (its maker needs no Manage Threads for that)."""
    thread = await _thread(bot, thread_id)
    try:
        if thread is not None and not thread.archived:
            await thread.edit(archived=True)
    except discord.HTTPException:
        log.info("could not archive thread %s", thread_id, exc_info=True)


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


def refused_because(exc: discord.HTTPException) -> str | None:
    """Why Discord's refusal ``exc`` holds a game (see :class:`~bot.refusals.Held`), or
    ``None`` when it does not say the place refuses the bot."""
    if exc.code == THREAD_LOCKED:
        return "locked"
    if exc.code == MAX_ACTIVE_THREADS:
        return "threads_full"
    if exc.status == 403 or exc.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
        return "permissions"
    return None


async def keep_open(bot: Host, record: GameRecord,
                    thread: discord.Thread | None = None) -> bool:
    """Unarchive the thread of an open game (Discord archived it while the game is on);
    a thread that refuses (locked, or the server's threads full) holds the game. Whether
    the thread is open."""
    if thread is None:
        thread = await _thread(bot, record.channel_id)
    if thread is None:
        return False
    if thread.locked:
        await hold(bot, record, "locked")
        return False
    try:
        await thread.edit(archived=False)
    except discord.HTTPException as exc:
        why = refused_because(exc)
        if why is None:
            log.warning("could not unarchive the thread %s of game %s: %s %s",
                        record.channel_id, record.id, exc.status, exc.text)
            return False
        await hold(bot, record, why)
        return False
    return True


async def close_thread(bot: Host, record: GameRecord) -> None:
    """Archive a finished game's thread (not locked: it stays readable)."""
    if record.parent_id is not None:
        await archive(bot, record.channel_id)


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
    """Who acts, as the card says it (names, never a ping: the card is edited), with the
    time left on each one's clock at a table with a clock."""
    seats = {s.seat: s for s in board.record.seats}
    clocks = dict(board.clocks)
    names = [escaped(seats[s].name) + (f" ({words.time_left(clocks[s])})" if s in clocks else "")
             for s in board.to_act if s in seats]
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


async def show_card(bot: Host, record: GameRecord, board: Board | None) -> None:
    """Edit the game's card to say how the game stands (``board``; ``None`` when it cannot
    be read): whose turn, the result. Raises Discord's refusal (the outbox retries it),
    but a deleted card ends the game."""
    if record.parent_id is None or not record.lobby_message_id:
        return
    title = bot.tables.game(record.game).title
    text = card_text(title, record) if board is None else card_text(
        title, record, turn=turn_of(board), move=board.move, ranking=board.ranking)
    view = components.rematch_view(record.id) if record.status == "finished" else None
    view = await weblinks.watch_button(bot, record, view)
    card = bot.get_partial_messageable(record.parent_id, guild_id=record.guild_id) \
        .get_partial_message(record.lobby_message_id)
    try:
        with pacing.background():  # the board is shown: moves being answered go first
            await card.edit(content=text, view=view, allowed_mentions=messages.NOBODY)
    except discord.HTTPException as exc:
        if exc.code != UNKNOWN_MESSAGE:
            raise
        await ended_elsewhere(bot, record, "card")


# --------------------------------------------------------------------------- held games


async def hold(bot: Host, record: GameRecord, why: str) -> None:
    """The place of ``record`` refuses the bot (``why``): hold the game (no change to it
    is made, none of its reminders go out) and say so on its card, where the players can
    still read it; look again in :data:`HOLD_SECONDS`."""
    tables = bot.tables
    try:
        await tables.places.hold(record.id, why, HOLD_SECONDS)
    except StoreError:
        log.warning("could not hold game %s (%s)", record.id, why, exc_info=True)
        return
    if record.held == why:
        return
    log.info("game %s is held: its place refuses the bot (%s)", record.id, why)
    if record.parent_id is None or not record.lobby_message_id:
        return  # no card: whoever tries to change the game is told why
    if record.game not in tables.games:
        return
    game = tables.game(record.game)
    shown = (messages.lobby_text(Lobby(record=record, game=game)) if record.status == "lobby"
             else card_text(game.title, record))
    text = messages.fit([shown, words.HELD.get(why, "")], keep_last=1)
    card = bot.get_partial_messageable(record.parent_id, guild_id=record.guild_id) \
        .get_partial_message(record.lobby_message_id)
    try:
        with pacing.background():
            await card.edit(content=text, allowed_mentions=messages.NOBODY)
    except discord.HTTPException:
        log.info("could not say on game %s's card that it is held", record.id)


async def place_refused(bot: Host, record: GameRecord, exc: BaseException) -> None:
    """Discord refused to show a saved change of ``record`` (``exc``): when that says its
    place refuses the bot, the game is held until it takes its posts again."""
    if isinstance(exc, discord.HTTPException):
        why = refused_because(exc)
        if why is not None and record.status == "active":
            await hold(bot, record, why)


async def ended_elsewhere(bot: Host, record: GameRecord, what: str) -> None:
    """A moderator deleted the game's ``thread``, its ``channel`` or its ``card``: the
    game ends without a result, said where it can still be said."""
    if record.status not in ("lobby", "active"):
        return
    try:
        await bot.tables.places.abort(record.id)
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
        records = await bot.tables.places.open_games_in(channel_id)
    except StoreError:
        log.warning("could not read the games of deleted channel %s", channel_id,
                    exc_info=True)
        return
    for record in records:
        await ended_elsewhere(bot, record, "thread" if thread else "channel")
