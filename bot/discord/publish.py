"""Showing what was committed: the board in the game's channel, its movement GIF, the lobby.

**One message per hand-over.** A change that hands the turn to someone queued its
ping in the outbox in its own transaction (:mod:`bot.discord.outbox`). :func:`publish`
first delivers the announcements older than that ping (in order), then posts the board
as a *new* message that carries the ping itself, with that announcement's nonce, and
marks it delivered: the board that hands the turn over is the message that notifies.
Should Discord refuse the board, the ping is posted on its own at once (Discord may
have refused only the picture) under the same nonce, so a post Discord made but never
confirmed is not made twice, and the board is queued and posted as the game then stands.
A ping that fails again is retried by the outbox carried by that board.

A move that continues the episode on show (see ``Game.episode``) edits that board
message instead (an edit notifies nobody, so its ping goes out as a message of its own,
pointing to the board). A new board takes the buttons away from the previous one.

Movement: a game that animates its moves gets the GIF of a move after the board is
shown: drawn in the background and added to the board message by an edit, unless a
newer board has replaced what that message shows by then.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import logging
from collections.abc import Iterator, Sequence
from typing import Any

import discord

from bot.discord import builder, components, messages, pacing, threads
from bot.discord.host import Host, messageable
from bot.discord.messages import Outgoing
from bot.games.engine import AI_LEVELS, GameError
from bot.store import Announcement, OutboxRecord, StoreError
from bot.tables import Board, Lobby, Tables, seat_label

log = logging.getLogger(__name__)


async def board_outgoing(bot: Host, board: Board,
                         early: messages.EarlyPicture | None = None) -> Outgoing:
    """The full move message for ``board``, with its components when there are any
    (and the picture ``early`` began, when it is of this board)."""
    view = components.rematch_view(board.record.id) if board.record.status == "finished" \
        else None
    if not board.finished:
        offer = builder.Offer(board.record.id, board.move, board.token)
        # Components are made on the event loop: discord.py ties them to the running loop.
        view = builder.root_view(board.game, board.choices, offer, multi=board.multi,
                                 decide=board.private_choices)
        if any(s.standing_in for s in board.record.seats):
            view = view or discord.ui.View(timeout=None)
            if len(view.children) < 25:
                view.add_item(components.BackButton(board.record.id))
    return await messages.board_message(board, bot.renderer, view, early)


def _hands_over(row: OutboxRecord, board: Board) -> bool:
    """Whether ``row`` is the ping of the change ``board`` shows (its hand-over, due now)."""
    item = row.announcement
    data = item.data or {}
    return (item.kind == "turn" and item.game_id == board.record.id
            and data.get("move") == board.move and not data.get("board"))


async def publish(bot: Host, board: Board, *, nonce: str | None = None,
                  early: messages.EarlyPicture | None = None,
                  ping: OutboxRecord | None = None) -> int:
    """Show ``board``: edit the episode's message, or post a new one, which carries
    ``ping`` (a claimed hand-over) when there is one, with that announcement's nonce.

    ``nonce`` goes with a new post otherwise; ``early`` is the picture begun before the
    change was committed. Returns the id of the message that shows the board. Raises
    :class:`discord.HTTPException` (or :class:`OSError`) when Discord refuses it.
    """
    outgoing = await board_outgoing(bot, board, early)
    previous = board.record.board_message_id
    if board.edits and previous and ping is None:
        try:
            edited = await messageable(bot, board).get_partial_message(previous).edit(
                **outgoing.edit_kwargs())  # type: ignore[arg-type]
        except discord.HTTPException:
            log.info("could not edit the board of game %s; posting a new one", board.record.id,
                     exc_info=True)
        else:
            _show_movement(bot, board, previous, edited.attachments if edited else [])
            return previous
    if ping is not None:
        outgoing.content = messages.fit([bot.outbox.words(ping.announcement),
                                         outgoing.content], keep_first=1)
        outgoing.mentions = messages.only(ping.announcement.mentions)
        nonce = ping.nonce
    extra = {"nonce": nonce} if nonce is not None else {}
    sent = await messageable(bot, board).send(**outgoing.kwargs(), **extra)  # type: ignore[call-overload]
    await _remember_board(bot.tables, board, sent)
    if previous and previous != sent.id:
        await _strip(bot, board, previous)
    _show_movement(bot, board, sent.id, sent.attachments)
    return sent.id


#: What each board message shows, by a number that grows with every board shown: a GIF
#: drawn for a board that an edit has since replaced is not attached.
_showing: dict[int, int] = {}
_boards = itertools.count(1)
#: The movement GIFs being drawn, and the bot each is for.
_drawing: dict[asyncio.Task[None], Host] = {}


def _show_movement(bot: Host, board: Board, message_id: int,
                   attachments: Sequence[discord.Attachment]) -> None:
    """Draw the GIF of the move ``board`` shows in the background and add it to the
    board message (the picture is already there: a player never waits for the GIF)."""
    if bot.renderer is None or not messages.animates(board.game):
        return
    mark = _showing[message_id] = next(_boards)
    task = asyncio.create_task(_attach_movement(bot, board, message_id, list(attachments),
                                                mark), name=f"movement-{board.record.id}")
    _drawing[task] = bot
    task.add_done_callback(lambda done: _drawing.pop(done, None))


async def stop_movements(bot: Host) -> None:
    """Stop drawing ``bot``'s movement GIFs (it is closing, and its store with it): a
    board already shown simply keeps no animation."""
    tasks = [task for task, owner in _drawing.items() if owner is bot]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _attach_movement(bot: Host, board: Board, message_id: int,
                           attachments: list[discord.Attachment], mark: int) -> None:
    try:
        gif = await messages.animate(bot.renderer, board.view, game_id=board.record.id)
        if gif is None or _showing.get(message_id) != mark:
            return
        # Another process (a shard, a board reposted by its outbox) may have moved the game
        # on meanwhile: the stored game tells, whoever made the change.
        try:
            now = await bot.tables.store.get_game(board.record.id)
        except StoreError:
            return
        if now.version != board.record.version or now.board_message_id != message_id:
            return
        movement = discord.File(io.BytesIO(gif), filename="move.gif",
                                description=messages.movement_alt(board))
        try:
            with pacing.background():  # the board is shown: moves being answered go first
                await messageable(bot, board).get_partial_message(message_id).edit(
                    attachments=[*attachments, movement], allowed_mentions=messages.NOBODY)
        except discord.HTTPException:
            log.info("could not add the movement to the board of game %s", board.record.id,
                     exc_info=True)
    finally:
        if _showing.get(message_id) == mark:
            del _showing[message_id]


@contextlib.contextmanager
def early_picture(bot: Host, game_id: int | None = None) -> Iterator[messages.EarlyPicture]:
    """A picture to begin before a move is committed, dropped if the move is not shown."""
    early = messages.EarlyPicture(bot.renderer, game_id)
    try:
        yield early
    finally:
        early.cancel()


async def publish_saved(bot: Host, board: Board,
                        early: messages.EarlyPicture | None = None) -> bool:
    """Deliver the channel's queued announcements, then :func:`publish` ``board`` after a
    change was saved, the hand-over's ping riding on it (see the module text). Should
    Discord refuse the board, the ping goes out alone and the board is queued in the
    outbox, posted as the game then stands. Returns whether the board was shown."""
    ping = await bot.outbox.deliver_until(
        board.record.channel_id, lambda row: not board.edits and _hands_over(row, board),
        lambda row: row.announcement.kind == "board" and row.announcement.game_id ==
        board.record.id)
    try:
        message_id = await publish(bot, board, early=early, ping=ping)
    except (discord.HTTPException, OSError) as exc:
        log.warning("could not show the board of game %s after a saved change; it is queued",
                    board.record.id, exc_info=True)
        await threads.place_refused(bot, board.record, exc)
        if ping is not None:
            # The ping goes out on its own at once (Discord may refuse only the picture);
            # should that fail too, its retry carries the board.
            await bot.outbox.post(ping, alone=True)
        await _queue_board(bot, board)
        return False
    if ping is not None:
        await bot.outbox.delivered(ping, message_id)
        bot.outbox.kick()  # what waited behind the ping (its DMs) goes out from the loop
    await threads.show_card(bot, board)
    return True


async def _queue_board(bot: Host, board: Board) -> None:
    """Queue a refused board in the outbox: it is posted, as the game stands then, once
    Discord takes it (unless a newer board is shown first)."""
    shown = str(board.record.board_message_id or "")
    item = Announcement(channel_id=board.record.channel_id, guild_id=board.record.guild_id,
                        game_id=board.record.id, kind="board", data={"shown": shown})
    try:
        await bot.tables.store.queue_announcements((item,), bot.tables.clock())
    except StoreError:
        log.warning("could not queue the board of game %s", board.record.id, exc_info=True)
        return
    bot.outbox.kick()


async def repost_board(bot: Host, row: OutboxRecord) -> int | None:
    """Deliver, for the outbox, a board Discord refused after a saved change: a queued
    ``board``, or a hand-over ping whose board was never shown (which the board then
    carries). The board is drawn as the game stands now. ``None`` when there is nothing
    to show any more: the game is gone, or a newer board (or, for a ping, a later move)
    has been shown since."""
    item = row.announcement
    data = item.data or {}
    if item.game_id is None:
        return None
    try:
        record = await bot.tables.store.get_game(item.game_id)
    except StoreError:
        return None
    if str(record.board_message_id or "") != str(data.get("shown") or ""):
        return None
    try:
        board = await bot.tables.board_of_game(record)
    except Exception:
        log.info("could not read game %s to post its board again", item.game_id,
                 exc_info=True)
        return None
    if item.kind == "turn":
        if board.move != data.get("move") or board.finished:
            return None
        return await publish(bot, board, ping=row)
    return await publish(bot, board, nonce=row.nonce)


async def turn_dm(bot: Host, row: OutboxRecord) -> dict[str, Any] | None:
    """The direct message handing a player their turn (``/notify how:dm``): its words,
    the player's own view (theirs alone to see) and the first step of the move builder,
    so that the move is made from the DM with the same taps as in the channel. ``None``
    (the words alone) when it is no longer their turn or the game cannot be read."""
    item = row.announcement
    data = item.data or {}
    if data.get("about") != "turn" or item.game_id is None or len(item.mentions) != 1:
        return None
    try:
        mine = await bot.tables.hand(None, item.mentions[0], item.game_id)
    except GameError:
        return None
    if not mine.legal:
        return None
    offer = builder.Offer(mine.record.id, mine.move, mine.token)
    view = builder.root_view(mine.game, mine.legal, offer, multi=mine.multi)
    outgoing = await messages.hand_message(mine, bot.renderer, view)
    outgoing.content = messages.fit([bot.outbox.words(item), outgoing.content], keep_first=1)
    return outgoing.kwargs()


async def _strip(bot: Host, board: Board, message_id: int) -> None:
    """Take the buttons off an older board message."""
    try:
        await messageable(bot, board).get_partial_message(message_id).edit(view=None)
    except discord.HTTPException:
        log.info("could not clear the old buttons of game %s", board.record.id, exc_info=True)


async def _remember_board(tables: Tables, board: Board, message: discord.Message | None,
                          ) -> None:
    # The move is saved and posted; failing to note the message id must not undo that.
    if message is None:
        return
    try:
        await tables.store.set_board_message(board.record.id, message.id)
    except Exception:
        log.exception("could not remember the board message of game %s", board.record.id)


def lobby_view(lobby: Lobby) -> discord.ui.View:
    """The lobby's buttons, and its host's menu of the seats they may remove."""
    owner = lobby.owner
    removable = [(f"s{s.seat}" if s.ai else f"u{s.user_id}",
                  f"{s.seat + 1}. {seat_label(s)}{' (AI)' if s.ai else ''}")
                 for s in lobby.record.seats if s.ai or s.user_id != owner]
    levels = [(f"s{s.seat}:{level}", f"{s.seat + 1}. {s.name} plays {level}")
              for s in lobby.record.seats if s.ai for level in AI_LEVELS if level != s.level]
    return components.lobby_view(lobby.record.id, removable, levels)


async def refresh_lobby_message(bot: Host, lobby: Lobby) -> None:
    """Update the lobby message after a change made by a slash command."""
    message_id = lobby.record.lobby_message_id
    if not message_id:
        return
    channel = bot.get_partial_messageable(lobby.record.card_channel_id,
                                          guild_id=lobby.record.guild_id)
    view = lobby_view(lobby) if not lobby.closed else None
    try:
        with pacing.background():  # the command is acknowledged already; moves go first
            await channel.get_partial_message(message_id).edit(
                content=messages.lobby_text(lobby), view=view,
                allowed_mentions=messages.NOBODY)
    except discord.HTTPException:
        log.warning("could not update the lobby message of game %s", lobby.record.id,
                    exc_info=True)
