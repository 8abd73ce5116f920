"""What each command and click does: ask the tables, then tell Discord.

Every handler first asks the tables whether the request can be done (that is
quick: it only reads, and reads never wait for a write) and answers a refusal
privately from the first byte; only work that will post publicly gets a public
"thinking" placeholder. A write that runs before the answer goes through
:func:`~bot.discord.errors.in_time`, which acknowledges the interaction if the
database keeps it waiting, so Discord's 3 s deadline is always met. Every change is committed
through :class:`~bot.tables.Tables` before anything is posted, so a failed post
never loses a move. Images are rendered in worker threads.

Boards: a new board message takes the buttons away from the previous one. A
move that continues the episode on show (see ``Game.episode``) edits that
message instead.

Movement: a game that animates its moves gets the GIF of a move after the
board is shown: the GIF is drawn in the background and added to the board message by
an edit, unless a newer board has replaced what that message shows by then.

Pings: a board never notifies anybody. Whoever a change hands the turn to is
pinged by a short, newly created message that the change queued in the store's
outbox in its own transaction; :func:`publish` delivers the channel's queue
before it posts the board, and the outbox's sender retries what Discord refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import logging
import secrets
from collections.abc import Iterator, Sequence
from typing import Protocol

import discord

from bot.discord import builder, components, messages, words
from bot.discord.errors import PUBLIC_THINKING, announce, guarded, in_time, tell, think
from bot.discord.messages import Outgoing, Renderer
from bot.discord.outbox import Outbox
from bot.discord.words import escaped
from bot.games import GAMES
from bot.games.engine import Action, GameError, StaleActionError
from bot.games.rng import Rng
from bot.limits import Cooldowns
from bot.refusals import Refused
from bot.replays import Replays, draw_in_worker
from bot.replays import draw as draw_replay
from bot.store import Announcement, GameRecord, StoreError
from bot.tables import Board, Conceded, Lobby, Reminder, Tables, plural
from bot.tables.play import Choosing
from renderers import leaderboard

log = logging.getLogger(__name__)


class Host(Protocol):
    """What the handlers need from the bot."""

    tables: Tables
    outbox: Outbox
    renderer: Renderer | None
    cooldowns: Cooldowns
    replays: Replays

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None,
                                ) -> discord.PartialMessageable: ...


def host(interaction: discord.Interaction) -> Host:
    return interaction.client  # type: ignore[return-value]


def _user_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def _can_manage(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_channels)


def _channel(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise StaleActionError("Games live in server channels; run this command in one.")
    return interaction.channel_id


# --------------------------------------------------------------------------- posting


async def board_outgoing(bot: Host, board: Board,
                         early: messages.EarlyPicture | None = None) -> Outgoing:
    """The full move message for ``board``, with its components when there are any
    (and the picture ``early`` began, when it is of this board)."""
    view = None
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


def _messageable(bot: Host, board: Board) -> discord.PartialMessageable:
    return bot.get_partial_messageable(board.record.channel_id, guild_id=board.record.guild_id)


async def publish(bot: Host, board: Board,
                  interaction: discord.Interaction | None = None, *,
                  nonce: str | None = None,
                  early: messages.EarlyPicture | None = None) -> int | None:
    """Deliver the channel's queued announcements (the ping for whoever the change handed
    the turn to), then show ``board``: edit the episode's message, or post a new one.

    A new board is the answer to ``interaction`` when it has one to give (a public
    placeholder or a click), else it is posted in the channel. The previous board
    message loses its buttons, so only the newest board offers live choices. The board
    itself notifies nobody (the answer to a "thinking" placeholder is an edit, which
    Discord never lets notify): the ping is a newly created message of its own.
    ``nonce`` goes with a new channel post (the outbox's repeat of a refused board);
    ``early`` is the picture begun before the change was committed.
    Returns the id of the message that shows the board.
    """
    await bot.outbox.deliver(board.record.channel_id)
    outgoing = await board_outgoing(bot, board, early)
    previous = board.record.board_message_id
    if board.edits and previous:
        try:
            edited = await _messageable(bot, board).get_partial_message(previous).edit(
                **outgoing.edit_kwargs())  # type: ignore[arg-type]
        except discord.HTTPException:
            log.info("could not edit the board of game %s; posting a new one", board.record.id,
                     exc_info=True)
        else:
            if interaction is not None and interaction.extras.get(PUBLIC_THINKING):
                await _drop_placeholder(interaction)
            _show_movement(bot, board, previous, edited.attachments if edited else [])
            return previous
    sent: discord.Message | None
    if interaction is not None and (interaction.extras.get(PUBLIC_THINKING)
                                    or interaction.type is discord.InteractionType.component):
        sent = await interaction.followup.send(**outgoing.kwargs(), wait=True)  # type: ignore[call-overload]
        interaction.extras[PUBLIC_THINKING] = False
    else:
        extra = {"nonce": nonce} if nonce is not None else {}
        sent = await _messageable(bot, board).send(**outgoing.kwargs(), **extra)  # type: ignore[call-overload]
    await _remember_board(bot.tables, board, sent)
    if previous and sent is not None and previous != sent.id:
        await _strip(bot, board, previous)
    if sent is not None:
        _show_movement(bot, board, sent.id, sent.attachments)
    return sent.id if sent is not None else None


#: What each board message shows, by a number that grows with every board shown: a GIF
#: drawn for a board that an edit has since replaced is not attached.
_showing: dict[int, int] = {}
_boards = itertools.count(1)
_drawing: set[asyncio.Task[None]] = set()


def _show_movement(bot: Host, board: Board, message_id: int,
                   attachments: Sequence[discord.Attachment]) -> None:
    """Draw the GIF of the move ``board`` shows in the background and add it to the
    board message (the picture is already there: a player never waits for the GIF)."""
    if bot.renderer is None or not messages.animates(board.game):
        return
    mark = _showing[message_id] = next(_boards)
    task = asyncio.create_task(_attach_movement(bot, board, message_id, list(attachments),
                                                mark), name=f"movement-{board.record.id}")
    _drawing.add(task)
    task.add_done_callback(_drawing.discard)


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
        movement = discord.File(io.BytesIO(gif), filename="move.gif")
        try:
            await _messageable(bot, board).get_partial_message(message_id).edit(
                attachments=[*attachments, movement], allowed_mentions=messages.NOBODY)
        except discord.HTTPException:
            log.info("could not add the movement to the board of game %s", board.record.id,
                     exc_info=True)
    finally:
        if _showing.get(message_id) == mark:
            del _showing[message_id]


@contextlib.contextmanager
def _early_picture(bot: Host, game_id: int | None = None) -> Iterator[messages.EarlyPicture]:
    """A picture to begin before a move is committed, dropped if the move is not shown."""
    early = messages.EarlyPicture(bot.renderer, game_id)
    try:
        yield early
    finally:
        early.cancel()


async def publish_saved(bot: Host, board: Board, interaction: discord.Interaction,
                        early: messages.EarlyPicture | None = None) -> bool:
    """:func:`publish` after a change the player made was saved: if Discord refuses the
    board, tell them the truth privately (the move counts, the next player is told)
    instead of an error. Returns whether the board was shown."""
    try:
        await publish(bot, board, interaction, early=early)
    except discord.HTTPException:
        log.warning("could not show the board of game %s after a saved change; it is queued",
                    board.record.id, exc_info=True)
        await _queue_board(bot, board)
        try:
            await tell(interaction, messages.saved_not_shown(board))
        except discord.HTTPException:
            log.warning("could not tell the player game %s was saved", board.record.id)
        return False
    return True


async def _queue_board(bot: Host, board: Board) -> None:
    """Queue a refused board in the outbox: it is posted, as the game stands then, once
    Discord takes it (unless a newer board is shown first)."""
    shown = str(board.record.board_message_id or "")
    item = Announcement(board.record.channel_id, board.record.guild_id, board.record.id,
                        "board", shown)
    try:
        await bot.tables.store.queue_announcements((item,), bot.tables.clock())
    except StoreError:
        log.warning("could not queue the board of game %s", board.record.id, exc_info=True)
        return
    bot.outbox.kick()


async def repost_board(bot: Host, game_id: int, shown: str, nonce: str) -> int | None:
    """Deliver a queued board (the outbox's ``"board"`` announcement): the game's board
    as it stands now, unless the game is gone or a newer board than ``shown`` (the board
    message on show when it was queued) has been posted since."""
    try:
        record = await bot.tables.store.get_game(game_id)
    except StoreError:
        return None
    if str(record.board_message_id or "") != shown:
        return None
    try:
        board = await bot.tables.board(record.channel_id)
    except GameError:
        return None
    if board.record.id != game_id:
        return None
    return await publish(bot, board, nonce=nonce)


async def _strip(bot: Host, board: Board, message_id: int) -> None:
    """Take the buttons off an older board message."""
    try:
        await _messageable(bot, board).get_partial_message(message_id).edit(view=None)
    except discord.HTTPException:
        log.info("could not clear the old buttons of game %s", board.record.id, exc_info=True)


async def _drop_placeholder(interaction: discord.Interaction) -> None:
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.debug("could not delete the thinking placeholder", exc_info=True)
    interaction.extras[PUBLIC_THINKING] = False


async def _remember_board(tables: Tables, board: Board, message: discord.Message | None,
                          ) -> None:
    # The move is saved and posted; failing to note the message id must not undo that.
    if message is None:
        return
    try:
        await tables.store.set_board_message(board.record.id, message.id)
    except Exception:
        log.exception("could not remember the board message of game %s", board.record.id)


async def refresh_lobby_message(bot: Host, lobby: Lobby) -> None:
    """Update the lobby message after a change made by a slash command."""
    message_id = lobby.record.lobby_message_id
    if not message_id:
        return
    channel = bot.get_partial_messageable(lobby.record.channel_id,
                                          guild_id=lobby.record.guild_id)
    view = lobby_view(lobby) if not lobby.closed else None
    try:
        await channel.get_partial_message(message_id).edit(
            content=messages.lobby_text(lobby), view=view,
            allowed_mentions=messages.NOBODY)
    except discord.HTTPException:
        log.warning("could not update the lobby message of game %s", lobby.record.id,
                    exc_info=True)


async def _tell_mover(interaction: discord.Interaction, board: Board, played: str, *,
                      always: bool) -> None:
    """Answer the mover privately with their move and what only they learn, when there is
    something to say (``always`` after a private placeholder, which needs replacing)."""
    if not (always or board.private_lines(interaction.user.id) or board.hidden_for_mover):
        return
    await interaction.followup.send(messages.mover_text(board, interaction.user.id, played),
                                    ephemeral=True, allowed_mentions=messages.NOBODY)


# --------------------------------------------------------------------------- lobby


async def new_game(interaction: discord.Interaction, *, game: str, seats: int | None,
                   reminder_hours: float | None, ai_takeover: bool | None,
                   options: dict[str, str]) -> None:
    """``/game new``: open a lobby message in the channel."""
    async with guarded(interaction):
        tables = host(interaction).tables
        lobby = await in_time(tables.open_lobby(
            channel_id=_channel(interaction), guild_id=interaction.guild_id, game=game,
            creator_id=interaction.user.id, creator_name=_user_name(interaction.user),
            seats=seats, reminder_hours=reminder_hours,
            ai_takeover=True if ai_takeover is None else ai_takeover,
            options=options), lambda: think(interaction))
        message_id = await announce(interaction, messages.lobby_text(lobby),
                                    view=lobby_view(lobby),
                                    allowed_mentions=messages.NOBODY)
        await tables.store.set_lobby_message(lobby.record.id, message_id)


def lobby_view(lobby: Lobby) -> discord.ui.View:
    """The lobby's buttons, and its host's menu of the seats they may remove."""
    owner = lobby.owner
    removable = [(f"s{s.seat}" if s.ai else f"u{s.user_id}",
                  f"{s.seat + 1}. {s.name}{' (AI)' if s.ai else ''}")
                 for s in lobby.record.seats if s.ai or s.user_id != owner]
    return components.lobby_view(lobby.record.id, removable)


@components.handles("lobby")
async def lobby_click(interaction: discord.Interaction, game_id: int, op: str,
                      target: str = "") -> None:
    """A lobby button: join, leave, add an AI seat, start or cancel; or the host's menu
    removing ``target`` from the lobby."""
    async with guarded(interaction, game_id):
        bot = host(interaction)
        tables = bot.tables
        user = interaction.user
        channel = _channel(interaction)
        if op == "start":
            await tables.check_start(game_id, user.id, channel)
            # Dealing and any opening AI turns may take a while: answer Discord first.
            await interaction.response.defer()
            lobby, board = await tables.start(game_id, user.id, channel)
            try:
                await interaction.edit_original_response(content=messages.lobby_text(lobby),
                                                         view=None,
                                                         allowed_mentions=messages.NOBODY)
            except discord.HTTPException:
                log.info("could not close the lobby message of game %s", game_id, exc_info=True)
            await publish_saved(bot, board, interaction)
            return
        if op == "join":
            change = tables.join(game_id, user.id, _user_name(user), channel)
        elif op == "leave":
            change = tables.leave_lobby(game_id, user.id, channel)
        elif op == "ai":
            change = tables.add_ai(game_id, user.id, channel)
        elif op == "remove":
            change = tables.remove_from_lobby(game_id, user.id, target, channel)
        else:
            change = tables.cancel_lobby(game_id, user.id, _can_manage(interaction), channel)
        lobby = await in_time(change, interaction.response.defer)
        view = None if lobby.closed else lobby_view(lobby)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=messages.lobby_text(lobby),
                                                     view=view, allowed_mentions=messages.NOBODY)
        else:
            await interaction.response.edit_message(content=messages.lobby_text(lobby),
                                                    view=view, allowed_mentions=messages.NOBODY)


# --------------------------------------------------------------------------- moves


async def play(interaction: discord.Interaction, text: str) -> None:
    """``/play``: a typed or autocompleted action."""
    async with guarded(interaction):
        bot = host(interaction)
        channel = _channel(interaction)
        checked = await bot.tables.check_play(channel_id=channel, user_id=interaction.user.id,
                                              text=text, interaction_id=interaction.id)
        await think(interaction, ephemeral=checked.quiet)
        with _early_picture(bot) as early:
            board = await bot.tables.play(channel_id=channel, user_id=interaction.user.id,
                                          text=text, interaction_id=interaction.id,
                                          checked=checked, sketch=early)
            shown = await publish_saved(bot, board, interaction, early)
        await _tell_mover(interaction, board, board.played or text,
                          always=checked.quiet and shown)


@components.handles("move")
async def choice_click(interaction: discord.Interaction, game_id: int, offered_at: int,
                       token: str | int, notation: str) -> None:
    """A choice button or menu: play ``notation`` while its decision is open for the clicker."""
    async with guarded(interaction, game_id):
        await _play_clicked(host(interaction), interaction, game_id, token, offered_at,
                            notation)


@components.handles("step")
async def step_click(interaction: discord.Interaction, game_id: int, offered_at: int,
                     token: str, op: str, page: int, carried: str) -> None:
    """A step of the move builder: show the next step privately, preview, or play."""
    async with guarded(interaction, game_id):
        bot = host(interaction)
        choosing = await bot.tables.choosing(channel_id=_channel(interaction),
                                             user_id=interaction.user.id, game_id=game_id,
                                             expected=token, offered_at=offered_at)
        path = builder.decode(carried, choosing.legal)
        if path is None:
            raise StaleActionError(EXPIRED_STEP)
        if op in ("o", "b"):
            node = builder.node_at(choosing.game, choosing.legal, path)
            if node is None:
                raise StaleActionError(EXPIRED_STEP)
            if node.action is None:
                await _show_step(interaction, choosing, node, page, clear=op == "b")
                return
            path = node.action.notation
        action = builder.chosen_action(choosing.legal, path)
        if action is None:
            raise StaleActionError(EXPIRED_STEP)
        if op != "c" and len(builder.trail(choosing.game, choosing.legal, path)) > 1:
            view = await asyncio.to_thread(_preview_view, choosing, action)
            if view is not None:
                await _show_preview(bot, interaction, choosing, action, view)
                return
        await _play_chosen(bot, interaction, choosing, action)


EXPIRED_STEP = ("That choice has expired: the game has moved on since it was offered. See the "
                "newest board, or `/game board`.")


def _private(interaction: discord.Interaction) -> bool:
    """Was the clicked component on a message only the clicker sees?"""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _offer(choosing: Choosing) -> builder.Offer:
    return builder.Offer(choosing.record.id, choosing.move, choosing.token)


def _back_of(choosing: Choosing, path: str) -> str | None:
    """Where Back goes from the step that offers (or is) ``path``."""
    steps = builder.trail(choosing.game, choosing.legal, path)
    if not steps:
        return None
    if steps[-1].path == path:
        return steps[-2].path if len(steps) > 1 else None
    return steps[-1].path


async def _show_step(interaction: discord.Interaction, choosing: Choosing, node: builder.Node,
                     page: int, *, clear: bool) -> None:
    """Show a step in the player's private builder message (opening one from a board)."""
    view = builder.step_view(choosing.game, choosing.legal, node, _offer(choosing), page=page,
                             back=_back_of(choosing, node.path) if node.path else None)
    text = f"**{choosing.game.title}**: {builder.prompt(node, page)}"
    if _private(interaction):
        extra: dict[str, object] = {"attachments": []} if clear else {}
        await interaction.response.edit_message(content=text, view=view, **extra)  # type: ignore[arg-type]
    else:
        await interaction.response.send_message(text, view=view, ephemeral=True)  # type: ignore[arg-type]


#: How many worlds the player cannot tell from the real one a drawing move is tried in.
PREVIEW_WORLDS = 2


def _preview_view(choosing: Choosing, action: Action) -> dict[str, object] | None:
    """What the player may see of the board after ``action`` (runs in a worker thread).

    A move that reveals nothing and draws no chance shows the player's own view after
    it. A move that draws (a land card placed, a tile laid) shows the public
    view after it, but only when that view comes out the same in worlds the player
    cannot tell from the real one (:meth:`Game.resample`): then it tells them nothing
    they could not work out, and what they draw stays hidden until they confirm.
    Otherwise ``None``: the move is played at once.
    """
    game, state, seat = choosing.game, choosing.state, choosing.seat
    outcome = game.apply(state, seat, action)
    if outcome.undoable:
        return game.view(outcome.state, seat)
    public = game.view(outcome.state, None)
    rng = Rng.from_seed(secrets.randbits(63))
    for _ in range(PREVIEW_WORLDS):
        try:
            other = game.apply(game.resample(state, seat, rng), seat, action)
        except GameError:
            return None
        if game.view(other.state, None) != public:
            return None
    return public


async def _show_preview(bot: Host, interaction: discord.Interaction, choosing: Choosing,
                        action: Action, view: dict[str, object]) -> None:
    """Privately: the board after ``action``, with Confirm and Back."""
    offer = _offer(choosing)
    buttons = discord.ui.View(timeout=None)
    confirm = offer.button("c", action.notation, choosing.legal, "Confirm",
                           style=discord.ButtonStyle.success)
    back = _back_of(choosing, action.notation)
    if confirm is not None:
        buttons.add_item(confirm)
    if back is not None:
        item = offer.button("b", back, choosing.legal, "◂ Back",
                            style=discord.ButtonStyle.secondary)
        if item is not None:
            buttons.add_item(item)
    components.inert(buttons)
    label = escaped(action.label) if action.label and action.label != action.notation else ""
    hidden = " What you draw is shown once you confirm." if view.get("viewer") is None else ""
    text = (f"**{choosing.game.title}**: preview of `{action.notation}`"
            f"{f' ({label})' if label else ''}, only you see this. Confirm to play it.{hidden}")
    private = _private(interaction)
    if private:
        await interaction.response.defer()
    else:
        await think(interaction, ephemeral=True)
    image = await messages.render(bot.renderer, view, game_id=choosing.record.id)
    files = [discord.File(io.BytesIO(image), filename="preview.png")] if image else []
    if private:
        await interaction.edit_original_response(content=messages.clip(text, 2000),
                                                 attachments=files, view=buttons)
    else:
        await interaction.followup.send(messages.clip(text, 2000), files=files, view=buttons,
                                        ephemeral=True)


async def _play_chosen(bot: Host, interaction: discord.Interaction, choosing: Choosing,
                       action: Action) -> None:
    """Play the move the builder arrived at."""
    await _play_clicked(bot, interaction, choosing.record.id, choosing.token, choosing.move,
                        action.notation)


async def _play_clicked(bot: Host, interaction: discord.Interaction, game_id: int,
                        token: str | int, offered_at: int, notation: str) -> None:
    """Play a clicked move while its decision is open for the clicker; then carry on in
    the private message it was clicked in when the player still has a choice that is
    theirs alone (the next monster to feed, say)."""
    channel = _channel(interaction)
    user = interaction.user.id
    checked = await bot.tables.check_play(channel_id=channel, user_id=user, text=notation,
                                          game_id=game_id, expected=token,
                                          offered_at=offered_at, interaction_id=interaction.id)
    await interaction.response.defer()
    with _early_picture(bot, game_id) as early:
        board = await bot.tables.play(channel_id=channel, user_id=user, text=notation,
                                      game_id=game_id, expected=token, offered_at=offered_at,
                                      interaction_id=interaction.id, checked=checked,
                                      sketch=early)
        await publish_saved(bot, board, interaction, early)
    await _tell_mover(interaction, board, board.played or notation, always=False)
    if not _private(interaction):
        return
    text = f"You played `{board.played or notation}`."
    view = None
    if not board.finished and board.chooser is None:
        try:
            again = await bot.tables.choosing(channel_id=channel, user_id=user,
                                              game_id=game_id)
        except GameError:
            again = None
        if again is not None:
            view = builder.root_view(again.game, again.legal, _offer(again), multi=again.multi)
            text += " Your next choice:"
    try:
        await interaction.edit_original_response(content=text, attachments=[], view=view)
    except discord.HTTPException:
        log.info("could not update the private choices of game %s", game_id)


@components.handles("many")
async def many_click(interaction: discord.Interaction, game_id: int, offered_at: int,
                     token: str, values: Sequence[str]) -> None:
    """A several-at-once menu: the chosen values make one action."""
    async with guarded(interaction, game_id):
        bot = host(interaction)
        channel = _channel(interaction)
        await bot.tables.play_many(channel_id=channel, user_id=interaction.user.id,
                                   game_id=game_id, expected=token, offered_at=offered_at,
                                   values=values, check_only=True)
        await interaction.response.defer()
        with _early_picture(bot, game_id) as early:
            board = await bot.tables.play_many(channel_id=channel, user_id=interaction.user.id,
                                               game_id=game_id, expected=token,
                                               offered_at=offered_at, values=values,
                                               interaction_id=interaction.id, sketch=early)
            assert isinstance(board, Board)
            await publish_saved(bot, board, interaction, early)
        await _tell_mover(interaction, board, board.played, always=False)


async def autocomplete_play(interaction: discord.Interaction, current: str,
                            ) -> list[discord.app_commands.Choice[str]]:
    """The caller's legal actions matching what they typed, most useful first."""
    if interaction.channel_id is None:
        return []
    try:
        pairs = await host(interaction).tables.suggest(interaction.channel_id,
                                                       interaction.user.id, current)
    except GameError:  # a damaged game: the player learns of it from any command
        return []
    except Exception:
        log.exception("autocomplete failed in channel %s", interaction.channel_id)
        return []
    return [discord.app_commands.Choice(name=name, value=value) for name, value in pairs]


async def autocomplete_zoom(interaction: discord.Interaction, current: str,
                            ) -> list[discord.app_commands.Choice[str]]:
    """Places of the channel's game to zoom to."""
    if interaction.channel_id is None:
        return []
    try:
        spots = await host(interaction).tables.zoom_spots(interaction.channel_id, current)
    except GameError:
        return []
    except Exception:
        log.exception("zoom autocomplete failed in channel %s", interaction.channel_id)
        return []
    return [discord.app_commands.Choice(name=spot, value=spot) for spot in spots]


async def undo(interaction: discord.Interaction) -> None:
    """``/game undo``."""
    async with guarded(interaction):
        bot = host(interaction)
        board = await in_time(bot.tables.undo(_channel(interaction), interaction.user.id),
                              lambda: think(interaction))
        if not interaction.response.is_done():
            await think(interaction)
        await publish(bot, board, interaction)


async def leave(interaction: discord.Interaction) -> None:
    """``/game leave``: leave the lobby, or concede the game."""
    async with guarded(interaction):
        bot = host(interaction)
        channel = _channel(interaction)
        await bot.tables.check_concede(channel, interaction.user.id)
        await think(interaction)
        outcome = await bot.tables.concede(channel, interaction.user.id)
        if isinstance(outcome, Lobby):
            await refresh_lobby_message(bot, outcome)
            await interaction.followup.send(
                f"{interaction.user.mention} left the lobby.", allowed_mentions=messages.NOBODY)
            interaction.extras[PUBLIC_THINKING] = False
            return
        assert isinstance(outcome, Conceded)
        await publish_saved(bot, outcome.board, interaction)


async def vote(interaction: discord.Interaction, player: discord.abc.User, give: str) -> None:
    """``/game vote``: vote on the seat of a player an AI stands in for; the table sees the
    vote (naming without pinging), and the board when the vote carries."""
    async with guarded(interaction):
        bot = host(interaction)
        channel = _channel(interaction)
        # A vote that cannot be cast is refused privately before anything is shown.
        await bot.tables.check_vote(channel, interaction.user.id, player.id, give)
        await think(interaction)
        outcome = await bot.tables.vote_seat(channel, interaction.user.id, player.id, give)
        if outcome.board is None:
            await announce(interaction, messages.vote_text(outcome, interaction.user.display_name),
                           allowed_mentions=messages.NOBODY)
            return
        await publish_saved(bot, outcome.board, interaction)


async def sit(interaction: discord.Interaction) -> None:
    """``/game sit``: take the seat the table opened for a new player."""
    async with guarded(interaction):
        bot = host(interaction)
        channel = _channel(interaction)
        await bot.tables.check_sit(channel, interaction.user.id)
        await think(interaction)
        board = await bot.tables.sit(channel, interaction.user.id,
                                     interaction.user.display_name)
        await publish_saved(bot, board, interaction)


async def back(interaction: discord.Interaction) -> None:
    """``/game back``: take your seat back from the AI standing in for you."""
    async with guarded(interaction):
        await _come_back(interaction, None)


@components.handles("back")
async def back_click(interaction: discord.Interaction, game_id: int) -> None:
    """The board's "I'm back" button."""
    async with guarded(interaction, game_id):
        await _come_back(interaction, game_id)


async def _come_back(interaction: discord.Interaction, game_id: int | None) -> None:
    bot = host(interaction)
    channel = _channel(interaction)
    record = await bot.tables.store.get_game(game_id) if game_id is not None else \
        await bot.tables.store.open_game(channel)
    if record is None or not any(s.standing_in and s.user_id == interaction.user.id
                                 for s in record.seats):
        raise GameError("No AI is standing in for you in this game: your seat is yours.")
    await think(interaction)
    board = await bot.tables.come_back_to(channel, interaction.user.id, game_id)
    await publish_saved(bot, board, interaction)


async def abort(interaction: discord.Interaction) -> None:
    """``/game abort``: the host or anyone with Manage Channels."""
    async with guarded(interaction):
        bot = host(interaction)
        record = await in_time(bot.tables.abort(_channel(interaction), interaction.user.id,
                                                _can_manage(interaction)),
                               lambda: think(interaction))
        if record is None:
            text = (f"{interaction.user.mention} ended this channel's damaged game. Start a "
                    f"new one with `/game new`.")
        else:
            text = (f"{interaction.user.mention} ended this game of "
                    f"{bot.tables.game(record.game).title}; it counts for nobody. Start a new "
                    f"one with `/game new`.")
        await announce(interaction, text, allowed_mentions=messages.NOBODY)
        if record is None:
            return
        if record.status == "lobby":
            await refresh_lobby_message(bot, Lobby(record, bot.tables.game(record.game),
                                                   "cancelled"))
        elif record.board_message_id:
            channel = bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            try:
                await channel.get_partial_message(record.board_message_id).edit(view=None)
            except discord.HTTPException:
                log.info("could not clear the buttons of aborted game %s", record.id)


# --------------------------------------------------------------------------- looking


def _plays(record: GameRecord, user_id: int) -> bool:
    """Whether ``user_id`` has a seat of their own in the game (an AI may stand in)."""
    return any(s.user_id == user_id and not s.ai for s in record.seats)


async def board(interaction: discord.Interaction, zoom: str | None = None) -> None:
    """``/game board``: a player posts the current board again, moving its buttons to it
    (also the recovery after a failed post), at most once in a while; anyone else sees
    it privately, and the players' board keeps its buttons."""
    async with guarded(interaction):
        bot = host(interaction)
        user = interaction.user.id
        current = await bot.tables.board(_channel(interaction), zoom)
        cooling = bot.cooldowns.waiting(user, "board")
        if not _plays(current.record, user) or cooling is not None:
            await think(interaction, ephemeral=True)
            outgoing = await messages.board_message(current, bot.renderer, None)
            if cooling is not None:
                outgoing.content = messages.fit([outgoing.content, words.only_you("board",
                                                                                  cooling)])
            await interaction.followup.send(**outgoing.kwargs(), ephemeral=True)  # type: ignore[call-overload]
            return
        bot.cooldowns.spend(user, "board")
        await think(interaction)
        await publish(bot, current, interaction)


async def hand(interaction: discord.Interaction) -> None:
    """``/game hand``: the caller's private view, ephemeral only."""
    async with guarded(interaction):
        await _show_hand(interaction, None)


@components.handles("decide")
async def decide_click(interaction: discord.Interaction, game_id: int) -> None:
    """The Decide button: the clicker's own choices, privately."""
    async with guarded(interaction, game_id):
        await _show_hand(interaction, game_id)


async def _show_hand(interaction: discord.Interaction, game_id: int | None) -> None:
    bot = host(interaction)
    private = await bot.tables.hand(_channel(interaction), interaction.user.id, game_id)
    await think(interaction, ephemeral=True)
    offer = builder.Offer(private.record.id, private.move, private.token)
    view = builder.root_view(private.game, private.legal, offer, multi=private.multi)
    outgoing = await messages.hand_message(private, bot.renderer, view)
    await interaction.followup.send(**outgoing.kwargs(), ephemeral=True)  # type: ignore[call-overload]


async def status(interaction: discord.Interaction) -> None:
    """``/game status``."""
    async with guarded(interaction):
        info = await host(interaction).tables.status(_channel(interaction))
        await interaction.response.send_message(messages.status_text(info),
                                                allowed_mentions=messages.NOBODY)


async def show_log(interaction: discord.Interaction, last: int,
                   game_id: int | None = None, start: int | None = None) -> None:
    """``/game log``: the moves with their whole narration, over several messages if needed."""
    async with guarded(interaction):
        tables = host(interaction).tables
        record, actions = await tables.log(_channel(interaction), last, game_id, start)
        cooldowns, user = host(interaction).cooldowns, interaction.user.id
        cooling = cooldowns.waiting(user, "log")
        if cooling is None:
            cooldowns.spend(user, "log")
            pages = messages.log_pages(record, tables.game(record.game), actions, start=start)
        else:
            note = words.only_you("log", cooling)
            pages = messages.log_pages(record, tables.game(record.game), actions, start=start,
                                       limit=messages.MAX_CONTENT - len(note) - 1)
            pages[0] = f"{note}\n{pages[0]}"
        first, *rest = pages
        private = cooling is not None
        await interaction.response.send_message(first, allowed_mentions=messages.NOBODY,
                                                ephemeral=private)
        for page in rest:
            await interaction.followup.send(page, allowed_mentions=messages.NOBODY,
                                            ephemeral=private)


async def history(interaction: discord.Interaction) -> None:
    """``/game history``: the channel's ended games with their results."""
    async with guarded(interaction):
        tables = host(interaction).tables
        games = await tables.history(_channel(interaction))
        await interaction.response.send_message(
            messages.history_text(tables.game, games),
            allowed_mentions=messages.NOBODY)


async def rules(interaction: discord.Interaction, game: str | None) -> None:
    """``/game rules``: from the named game, or the channel's game."""
    async with guarded(interaction):
        tables = host(interaction).tables
        if game is None:
            current = (await tables.store.open_game(interaction.channel_id)
                       if interaction.channel_id else None)
            if current is None:
                titles = ", ".join(g.title for g in tables.games.values())
                await interaction.response.send_message(
                    f"Pick a game: `/game rules game:<name>`. Games: {titles}.", ephemeral=True)
                return
            game = current.game
        await interaction.response.send_message(messages.rules_text(tables.game(game)),
                                                ephemeral=True)


async def replay(interaction: discord.Interaction, game_id: int | None = None) -> None:
    """``/game replay``: the game so far (or an ended game) as an animated GIF."""
    async with guarded(interaction):
        bot = host(interaction)
        channel = _channel(interaction)
        record = await bot.tables.check_replay(channel, game_id)
        renderer = bot.renderer
        if renderer is None:
            raise StaleActionError("The replay cannot be drawn by this bot; try `/game log`.")
        bot.cooldowns.take(interaction.user.id, "replay")
        await think(interaction)
        game, job = await bot.tables.replay_job(record)

        async def drawing() -> bytes:
            pooled = getattr(renderer, "run_async", None)
            if callable(pooled) and job.slug in GAMES:
                return bytes(await pooled(draw_in_worker, job))
            return await asyncio.to_thread(draw_replay, game, job, renderer)

        try:
            gif = await bot.replays.gif((record.id, record.version), drawing)
        except Refused:
            raise
        except Exception:
            log.exception("the replay of game %s could not be drawn", record.id)
            raise StaleActionError("The replay cannot be drawn right now; try `/game log`.") \
                from None
        so_far = "the game so far" if record.status == "active" else f"game {record.id}"
        await interaction.followup.send(
            f"**{game.title}**: {so_far}, {plural(job.moves, 'move')}.",
            file=discord.File(io.BytesIO(gif), filename="replay.gif",
                              description=f"An animated replay of {game.title}: "
                                          f"{plural(job.moves, 'move')}."),
            allowed_mentions=messages.NOBODY)
        interaction.extras[PUBLIC_THINKING] = False


async def stats(interaction: discord.Interaction, user: discord.abc.User | None,
                board: str | None = None) -> None:
    """``/stats``: games played and won per game in this server, or a leaderboard."""
    async with guarded(interaction):
        if board is not None:
            tables = host(interaction).tables
            ranks = await tables.leaderboard(interaction.guild_id, board)
            cooldowns, user = host(interaction).cooldowns, interaction.user.id
            cooling = cooldowns.waiting(user, "leaderboard")
            if cooling is None:
                cooldowns.spend(user, "leaderboard")
            await think(interaction, ephemeral=cooling is not None)
            png = await asyncio.to_thread(leaderboard.render, ranks)
            text = messages.leaderboard_text(ranks)
            if cooling is not None:
                text = f"{text} {words.only_you('leaderboard', cooling)}"
            await interaction.followup.send(
                content=text, allowed_mentions=messages.NOBODY,
                ephemeral=cooling is not None,
                file=discord.File(io.BytesIO(png), filename="leaderboard.png",
                                  description=messages.leaderboard_alt(ranks)))
            interaction.extras[PUBLIC_THINKING] = False
            return
        who = user or interaction.user
        lines = await host(interaction).tables.stats(interaction.guild_id, who.id)
        await interaction.response.send_message(messages.stats_text(who.id, lines),
                                                allowed_mentions=messages.NOBODY)


async def my_games(interaction: discord.Interaction) -> None:
    """``/games``: the caller's games on every server, privately; works anywhere."""
    async with guarded(interaction):
        tables = host(interaction).tables
        await think(interaction, ephemeral=True)
        entries = await tables.my_games(interaction.user.id)
        await interaction.followup.send(messages.my_games_text(entries, tables.clock()),
                                        ephemeral=True, allowed_mentions=messages.NOBODY)


async def away(interaction: discord.Interaction, timezone: str | None, quiet_from: int | None,
               quiet_to: int | None, vacation_days: int | None = None,
               vacation_from: str | None = None, back: bool = False) -> None:
    """``/away``: quiet hours, a vacation, or back from one; answered privately."""
    async with guarded(interaction):
        tables = host(interaction).tables
        user = interaction.user.id
        if back:
            text = messages.back_text(await tables.come_back(user))
        elif vacation_days is not None or vacation_from is not None:
            if vacation_days is None:
                raise GameError("Say how long: `vacation_days` (1 to 21).")
            text = messages.vacation_text(
                await tables.take_vacation(user, vacation_days, vacation_from))
        else:
            text = messages.quiet_hours_text(
                await tables.set_quiet_hours(user, timezone, quiet_from, quiet_to))
        await interaction.response.send_message(text, ephemeral=True)


async def notify(interaction: discord.Interaction, how: str | None,
                 reminders: str | None = None) -> None:
    """``/notify``: keep how the caller is reached and which reminders ping them, privately
    (with neither given, say what they are)."""
    async with guarded(interaction):
        tables = host(interaction).tables
        user = interaction.user.id
        if how is not None:
            await tables.set_notify(user, how)
        if reminders is not None:
            await tables.set_reminder_pings(user, reminders)
        mode, pings = await tables.notify_settings(user)
        await interaction.response.send_message(messages.notify_text(mode, pings),
                                                ephemeral=True)


async def privacy(interaction: discord.Interaction, delete: bool) -> None:
    """``/privacy``: everything kept about the caller as a private file, or (``delete``)
    delete what no game under way needs; privately, anywhere."""
    async with guarded(interaction):
        tables = host(interaction).tables
        user = interaction.user.id
        await think(interaction, ephemeral=True)
        if delete:
            forgotten = await tables.forget(user)
            await interaction.followup.send(messages.forgotten_text(forgotten),
                                            ephemeral=True)
            return
        kept = await tables.about(user)
        data = json.dumps(kept, indent=2, sort_keys=True, ensure_ascii=False).encode()
        await interaction.followup.send(
            messages.privacy_text(kept), ephemeral=True,
            file=discord.File(io.BytesIO(data), filename=f"candybot-{user}.json",
                              description="Everything candybot keeps about you, as JSON."))


# --------------------------------------------------------------------------- reminders


async def send_due(bot: Host) -> int:
    """Queue every due reminder and play every due AI take-over, then deliver the outbox;
    returns how many reminders and take-overs there were."""
    count = 0
    for item in await bot.tables.due():
        count += 1
        if isinstance(item, Reminder):
            continue  # queued in the outbox with its claim; delivered below
        try:
            await publish(bot, item)
        except discord.HTTPException:
            # The AI's move is saved and its ping queued; /game board shows the board.
            log.warning("could not post the take-over board of game %s in channel %s",
                        item.record.id, item.record.channel_id, exc_info=True)
    await bot.outbox.deliver()
    return count


def option_choices(tables: Tables, game_slug: str | None, name: str,
                   current: str) -> list[discord.app_commands.Choice[str]]:
    """Autocomplete for a game option of ``/game new``: the selected game's values."""
    values: list[str] = []
    games = [tables.games[game_slug]] if game_slug in tables.games else list(tables.games.values())
    for game in games:
        suggested = game.option_suggestions(name, current)
        if suggested is not None:  # the game knows better, e.g. pairs of power cards
            values.extend(suggested)
            continue
        for spec in game.options:
            if spec.name != name:
                continue
            if spec.kind == "choice":
                values.extend(spec.choices)
            elif spec.kind == "bool":
                values.extend(["yes", "no"])
            elif spec.minimum is not None and spec.maximum is not None \
                    and spec.maximum - spec.minimum < 25:
                values.extend(str(n) for n in range(spec.minimum, spec.maximum + 1))
            else:
                values.append(str(spec.default))
    needle = current.strip().lower()
    unique = [v for v in dict.fromkeys(values) if needle in v.lower() and len(v) <= 100]
    return [discord.app_commands.Choice(name=v, value=v) for v in unique[:25]]
