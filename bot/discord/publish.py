"""Showing what was committed: the board in the game's channel, its movement GIF, the card,
the buttons taken off an older board, the lobby.

Every change queues what it must show in its own transaction (see
``bot.tables.core.showing``): its board, the buttons taken off the board it replaces, its card.
The outbox delivers them lane by lane until Discord takes them (:mod:`bot.discord.outbox`);
the handler of the change delivers them at once (:func:`publish_saved`), the outbox's
background sender whatever a crash or a refusal left. This module is how each is shown.

**One message per hand-over.** A change's board carries the ping of the players it hands
the turn to: it is posted as a new message carrying the ping's words and mentions, under
the queued board's nonce. Should Discord refuse the board, the ping is posted on its own
at once under the same nonce (Discord may have refused only the picture), and the board
follows, as the game then stands, under a new one.

**The latest board, once.** A board is drawn as the game stands when it is delivered. A
channel's boards are delivered one at a time in the order their changes were saved, and
one with a later board of its game queued behind it is not posted at all (only its ping,
to those the game still waits for): an older board never follows a newer one, and a
burst of changes shows its last board. A new board takes the buttons away from the one it
replaces before it is recorded as the board on show (should Discord refuse that edit, it
is queued in the transaction that records the new board).

A move that continues the episode on show (see ``Rules.episode``) edits that board message
instead (an edit notifies nobody, so its ping goes out as a message of its own, pointing
to the board).

Movement: a game that animates its moves gets the GIF of a move after the board is
shown: drawn in the background and added to the board message by an edit, unless a
newer board has replaced what that message shows by then.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import itertools
import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord import builder, components, messages, pacing, seasons, threads, weblinks
from bot.discord.host import Host, messageable
from bot.discord.messages import Outgoing
from bot.discord.outbox import Show, unsent
from bot.discord.words import time_left
from bot.games.engine import AI_LEVELS, GameError
from bot.store import (
    Announcement,
    GameRecord,
    NotFoundError,
    OutboxRecord,
    StoreError,
    channel_lane,
)
from bot.tables import Board, Lobby, seat_label
from bot.tables.timed import shown

log = logging.getLogger(__name__)


async def board_outgoing(bot: Host, board: Board,
                         early: messages.EarlyPicture | None = None) -> Outgoing:
    """The full move message for ``board``, with its components when there are any
    (and the picture ``early`` began, when it is of this board)."""
    view = components.rematch_view(board.record.id) if board.record.status == "finished" \
        else None
    if board.record.status == "finished":
        view = await weblinks.watch_button(bot, board.record, view)
    if not board.finished:
        offer = builder.Offer(board.record.id, board.move, board.token)
        # Components are made on the event loop: discord.py ties them to the running loop.
        view = builder.root_view(board.game, board.choices, offer, multi=board.multi,
                                 decide=board.private_choices, dominated=board.dominated)
        if any(s.standing_in for s in board.record.seats):
            view = view or discord.ui.View(timeout=None)
            if len(view.children) < 25:
                view.add_item(components.back_button(board.record.id))
    return await messages.board_message(board, bot.renderer, view, early)


@dataclass
class Hand:
    """What the handler of a change has of it: its board (told from the change itself)
    and the picture begun before the commit; and whether its delivery queued something
    to follow the board (an edit Discord refused, the thread archived)."""

    board: Board
    early: messages.EarlyPicture | None = None
    followed: bool = False


def _in_hand(hand: Any, row: OutboxRecord) -> Hand | None:
    """``hand``, when it shows the game of ``row`` as it stands (nothing changed since)."""
    if isinstance(hand, Hand) and hand.board.record.id == row.announcement.game_id \
            and row.version == hand.board.record.version:
        return hand
    return None


async def publish_saved(bot: Host, board: Board,
                        early: messages.EarlyPicture | None = None,
                        claimed: OutboxRecord | None = None) -> bool:
    """Deliver what the change ``board`` shows queued (see the module text): first what
    waits in the game's channel, then its board carrying its ping, then the older board's
    buttons and the card. Returns False when Discord refused something at or ahead of
    its board: it is retried by the outbox until Discord takes it. ``claimed``: the board's
    row, leased to this sender in the change's own transaction (nothing waited ahead of
    it)."""
    hand = Hand(board, early)
    # The change queued its board in this lane: nobody need ask first whether any is due.
    shown = await bot.outbox.deliver_lane(channel_lane(board.record.channel_id), hand,
                                          queued=True, claimed=claimed)
    # What follows the board in the game's lanes: what its delivery queued, the card.
    lanes = [f"game:{board.record.id}"] if hand.followed else []
    if board.record.parent_id is not None:
        lanes.append(f"card:{board.record.id}")
    if lanes:
        await bot.outbox.deliver(lanes=lanes, hand=hand)
    bot.outbox.kick()  # what it queued elsewhere (its DMs) goes out from the loop
    return shown


def shows(bot: Host) -> Mapping[str, Show]:
    """How the outbox delivers what a change shows, by kind."""
    return {"board": lambda row, hand: show_board(bot, row, hand),
            "turn": lambda row, hand: show_ping(bot, row),
            "card": lambda row, hand: show_card(bot, row, hand),
            "strip": lambda row, hand: strip(bot, row),
            "archive": lambda row, hand: archive(bot, row),
            "season": lambda row, hand: seasons.show(bot, row, hand)}


async def _record(bot: Host, game_id: int | None) -> GameRecord | None:
    """The game an announcement is about, or ``None`` when it is gone."""
    if game_id is None:
        return None
    try:
        return await bot.tables.places.game(game_id)
    except NotFoundError:
        return None


async def _as_it_stands(bot: Host, record: GameRecord) -> Board | None:
    """The game's board as it stands, or ``None`` when it cannot be read (a damaged
    state: its players learn of it from any command)."""
    try:
        return await bot.tables.queries.board_of_game(record)
    except GameError:
        log.info("could not read game %s to show it", record.id, exc_info=True)
        return None


def _ping(bot: Host, row: OutboxRecord, ping: Any, board: Board) -> Announcement | None:
    """The hand-over ``ping`` of ``row`` as it goes out now: naming only the players the
    game still waits for (``None`` when none), and pinging those it pinged when queued,
    unless pinged for the same turn just now (an undo and the move again)."""
    if not isinstance(ping, Mapping):
        return None
    item = row.announcement
    waiting = board.awaited
    users = [entry for entry in ping.get("users") or () if int(entry[0]) in waiting]
    if not users:
        return None
    move = int(ping.get("move", board.move))
    return Announcement(channel_id=item.channel_id, guild_id=item.guild_id,
                        game_id=item.game_id, kind="turn", data={**ping, "users": users},
                        mentions=bot.outbox.pingable(item.game_id, move, item.mentions,
                                                     waiting, again=bool(ping.get("again"))))


async def _ping_alone(bot: Host, row: OutboxRecord, words: Announcement) -> discord.Message:
    """Post a hand-over's words as a message of their own, under ``row``'s nonce."""
    channel = bot.get_partial_messageable(words.channel_id, guild_id=words.guild_id)
    sent = await channel.send(bot.outbox.words(words), nonce=row.nonce,
                              allowed_mentions=messages.only(words.mentions))
    _pinged(bot, words)
    return sent


def _pinged(bot: Host, words: Announcement | None) -> None:
    if words is not None:
        move = int((words.data or {}).get("move", 0))
        bot.outbox.pinged(words.game_id, move, words.mentions)


async def show_board(bot: Host, row: OutboxRecord, hand: Any) -> bool:
    """Deliver a queued board (see the module text): skipped, its ping aside, when a
    later board of the game waits behind it; else the game as it stands, as a new message
    carrying the ping, or the episode's board edited."""
    item = row.announcement
    data = item.data or {}
    held = _in_hand(hand, row)
    # The game as the handler has it (nothing changed since but the board on show), or
    # as it is stored.
    record = dataclasses.replace(held.board.record, board_message_id=row.shown) \
        if held is not None else await _record(bot, item.game_id)
    if record is None:
        await bot.outbox.delivered(row, None)
        return True
    board: Board | None
    if held is not None:
        board = held.board
    elif row.superseded:
        board = await _as_it_stands(bot, record)
    else:
        try:
            board = await bot.tables.queries.shown_board(record, data)
        except GameError:
            log.info("could not read game %s to show its board", record.id, exc_info=True)
            board = None
    if board is None:
        await bot.outbox.delivered(row, None)
        return True
    words = _ping(bot, row, data.get("ping"), board)
    where = messageable(bot, board)
    if row.superseded and row.attempts - 1 > unsent(row):
        await _settle(bot, row, board, words, hand)
        return True
    if row.superseded:
        sent = (await _ping_alone(bot, row, words)).id if words is not None else None
        await bot.outbox.delivered(row, sent)
        return True
    outgoing = await board_outgoing(bot, board, held.early if held is not None else None)
    shown = record.board_message_id
    if board.edits and shown:
        try:
            edited = await where.get_partial_message(shown).edit(
                **outgoing.edit_kwargs())  # type: ignore[arg-type]
        except discord.HTTPException:
            log.info("could not edit the board of game %s; posting a new one", record.id,
                     exc_info=True)
        else:
            # An edit notifies nobody: the ping is a message of its own, pointing to it.
            sent = (await _ping_alone(bot, row, words)).id if words is not None else None
            await bot.outbox.delivered(row, sent or shown)
            _show_movement(bot, board, shown, edited.attachments if edited else [])
            return True
    if words is not None:
        outgoing.content = messages.fit([bot.outbox.words(words), outgoing.content],
                                        keep_first=1)
        outgoing.mentions = messages.only(words.mentions)
    try:
        posted = await where.send(**outgoing.kwargs(), nonce=row.nonce)  # type: ignore[call-overload]
    except (discord.HTTPException, OSError) as exc:
        # A place that refuses the bot (a locked thread...) holds the game meanwhile.
        await threads.place_refused(bot, record, exc)
        if words is None:
            raise
        # The ping goes out on its own at once (Discord may refuse only the picture), under
        # the board's nonce: a board Discord made without saying so comes back instead, and
        # is the board shown. Else the board follows, with a nonce of its own.
        posted = await _ping_alone(bot, row, words)
        if not posted.attachments:
            log.warning("could not post the board of game %s; its ping went alone and the "
                        "board is retried", record.id, exc_info=True)
            rest = {k: v for k, v in data.items() if k != "ping"}
            await bot.outbox.failed(row, exc, getattr(exc, "status", 0) or 0,
                                    getattr(exc, "retry_after", None), mentions=(),
                                    data={**rest, "clear": row.attempts}, renew=True)
            return False
    follow = []
    if shown and shown != posted.id and not await _stripped(bot, record, shown):
        follow.append(Announcement(channel_id=record.channel_id, guild_id=record.guild_id,
                                   game_id=record.id, kind="strip", data={"message": shown}))
    if record.status == "finished" and record.parent_id is not None:
        follow.append(Announcement(channel_id=record.channel_id, guild_id=record.guild_id,
                                   game_id=record.id, kind="archive"))
    if follow and held is not None:
        held.followed = True
    try:
        await bot.tables.places.board_shown(record.id, posted.id, row.id, follow)
    except StoreError:
        # Posted but not recorded: it is claimed again later, and its nonce gets this very
        # message back from Discord instead of a second one.
        log.warning("the board of game %s was posted but could not be recorded", record.id,
                    exc_info=True)
    if record.held is not None:
        await _released(bot, record)
    _pinged(bot, words)
    _show_movement(bot, board, posted.id, posted.attachments)
    return True


async def _released(bot: Host, record: GameRecord) -> None:
    """A game held because its place refused the bot is not any more: its board was
    shown there."""
    try:
        await bot.tables.places.release(record.id)
    except StoreError:
        log.warning("could not note that game %s is shown again", record.id)
    else:
        log.info("game %s is shown again: its place takes the bot's posts", record.id)


async def _settle(bot: Host, row: OutboxRecord, board: Board, words: Announcement | None,
                  hand: Any) -> None:
    """A board a later one replaces, tried before: Discord may have made it without
    saying so (the answer lost, the sender killed), buttons and all. Asked again under
    its nonce, Discord gives that message back, whose buttons are then taken off; or, if
    it never made it, posts it now, without buttons (with its ping, if still due)."""
    outgoing = await board_outgoing(bot, board)
    outgoing.view = None
    if words is not None:
        outgoing.content = messages.fit([bot.outbox.words(words), outgoing.content],
                                        keep_first=1)
        outgoing.mentions = messages.only(words.mentions)
    item = row.announcement
    sent = await messageable(bot, board).send(**outgoing.kwargs(), nonce=row.nonce)  # type: ignore[call-overload]
    follow = [Announcement(channel_id=item.channel_id, guild_id=item.guild_id,
                           game_id=item.game_id, kind="strip", data={"message": sent.id})
              ] if sent.components else []
    _pinged(bot, words)
    if follow and isinstance(hand, Hand):
        hand.followed = True
    await bot.outbox.delivered(row, sent.id, follow)


async def show_ping(bot: Host, row: OutboxRecord) -> bool:
    """Deliver a ping queued on its own (for a player away, due when they are back): to
    the players the game still waits for, words alone."""
    item = row.announcement
    data = item.data
    if data is None:  # queued as text, before announcements were data
        channel = bot.get_partial_messageable(item.channel_id, guild_id=item.guild_id)
        sent = await channel.send(item.content, nonce=row.nonce,
                                  allowed_mentions=messages.only(item.mentions))
        await bot.outbox.delivered(row, sent.id)
        return True
    record = await _record(bot, item.game_id)
    board = await _as_it_stands(bot, record) if record is not None else None
    words = _ping(bot, row, data, board) if board is not None and not board.finished \
        else None
    sent_id = (await _ping_alone(bot, row, words)).id if words is not None else None
    await bot.outbox.delivered(row, sent_id)
    return True


async def show_card(bot: Host, row: OutboxRecord, hand: Any) -> bool:
    """Edit a game's card to say how the game stands (only the latest queued edit is
    made; a held game's card says why it is held until it goes on)."""
    record = await _record(bot, row.announcement.game_id)
    if record is not None and record.held is None and not row.superseded:
        held = _in_hand(hand, row)
        board = held.board if held is not None else await _as_it_stands(bot, record)
        await threads.show_card(bot, record, board)
    await bot.outbox.delivered(row, None)
    return True


async def _strip(bot: Host, channel_id: int, guild_id: int | None, message_id: int) -> None:
    """Take the buttons off an older board message (gone, or in an archived thread where
    no click arrives: nothing to take); raises Discord's other refusals."""
    channel = bot.get_partial_messageable(channel_id, guild_id=guild_id)
    try:
        await channel.get_partial_message(message_id).edit(view=None)
    except discord.HTTPException as exc:
        if exc.code not in (threads.UNKNOWN_MESSAGE, threads.THREAD_ARCHIVED):
            raise


async def _stripped(bot: Host, record: GameRecord, message_id: int) -> bool:
    """Take the buttons off the board a new one replaced; whether Discord took it (else
    it is queued, recorded with the new board: an edit to retry)."""
    try:
        await _strip(bot, record.channel_id, record.guild_id, message_id)
    except (discord.HTTPException, OSError):
        log.info("could not clear the old buttons of game %s; they are queued", record.id,
                 exc_info=True)
        return False
    return True


async def strip(bot: Host, row: OutboxRecord) -> bool:
    """Deliver a queued strip: the buttons taken off an older board message."""
    item = row.announcement
    message_id = int((item.data or {}).get("message") or 0)
    if message_id:
        await _strip(bot, item.channel_id, item.guild_id, message_id)
    await bot.outbox.delivered(row, message_id or None)
    return True


async def archive(bot: Host, row: OutboxRecord) -> bool:
    """Archive a finished game's thread, once its last board is shown and the older one
    has lost its buttons (an archived thread takes no edit)."""
    record = await _record(bot, row.announcement.game_id)
    if record is not None:
        await threads.close_thread(bot, record)
    await bot.outbox.delivered(row, None)
    return True


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
            now = await bot.tables.places.game(board.record.id)
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
        mine = await bot.tables.queries.hand(None, item.mentions[0], item.game_id)
    except GameError:
        return None
    if not mine.legal:
        return None
    offer = builder.Offer(mine.record.id, mine.move, mine.token)
    view = builder.root_view(mine.game, mine.legal, offer, multi=mine.multi,
                             dominated=mine.dominated)
    outgoing = await messages.hand_message(mine, bot.renderer, view)
    clocks = dict(shown(mine.record, bot.tables.clock()))
    clock = [f"⏱ {time_left(clocks[mine.seat])}."] if mine.seat in clocks else []
    outgoing.content = messages.fit([bot.outbox.words(item), *clock, outgoing.content],
                                    keep_first=1 + len(clock))
    return outgoing.kwargs()


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
