"""What each command and click does: ask the tables, then tell Discord.

Every handler commits through :class:`~bot.tables.Tables` before posting, so a
failed post never loses a move. Handlers answer the interaction quickly (a
direct reply or a defer) and render images in worker threads.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Protocol

import discord

from bot.discord import components, messages
from bot.discord.errors import PUBLIC_THINKING, guarded, think
from bot.discord.messages import Animator, Outgoing, Renderer
from bot.games.engine import StaleActionError
from bot.tables import Board, Conceded, Lobby, Reminder, Tables

log = logging.getLogger(__name__)


class Host(Protocol):
    """What the handlers need from the bot."""

    tables: Tables
    renderer: Renderer | None
    animator: Animator | None

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


async def board_outgoing(bot: Host, board: Board) -> Outgoing:
    """The full move message for ``board``, with choice components when there are any."""
    view = None
    if board.choices and not board.finished:
        view = components.choices_view(board.record.id, board.move, board.choices)
    return await messages.board_message(board, bot.renderer, view)


async def reply_board(interaction: discord.Interaction, board: Board) -> None:
    """Post ``board`` as the answer to ``interaction`` (after a defer)."""
    outgoing = await board_outgoing(host(interaction), board)
    sent = await interaction.followup.send(**outgoing.kwargs(), wait=True)  # type: ignore[call-overload]
    interaction.extras[PUBLIC_THINKING] = False
    await _remember_board(host(interaction).tables, board, sent)


async def post_board(bot: Host, board: Board) -> None:
    """Post ``board`` straight into its channel (reminders, AI take-overs)."""
    outgoing = await board_outgoing(bot, board)
    channel = bot.get_partial_messageable(board.record.channel_id,
                                          guild_id=board.record.guild_id)
    sent = await channel.send(**outgoing.kwargs())  # type: ignore[call-overload]
    await _remember_board(bot.tables, board, sent)


async def refresh_lobby_message(bot: Host, lobby: Lobby) -> None:
    """Update the lobby message after a change made by a slash command."""
    message_id = lobby.record.lobby_message_id
    if not message_id:
        return
    channel = bot.get_partial_messageable(lobby.record.channel_id,
                                          guild_id=lobby.record.guild_id)
    view = components.lobby_view(lobby.record.id) if not lobby.closed else None
    try:
        await channel.get_partial_message(message_id).edit(
            content=messages.lobby_text(lobby), view=view,
            allowed_mentions=messages.NOBODY)
    except discord.HTTPException:
        log.warning("could not update the lobby message of game %s", lobby.record.id,
                    exc_info=True)


# --------------------------------------------------------------------------- lobby


async def new_game(interaction: discord.Interaction, *, game: str, seats: int | None,
                   reminder_hours: float | None, ai_takeover: bool | None,
                   options: dict[str, str]) -> None:
    """``/game new``: open a lobby message in the channel."""
    async with guarded(interaction):
        tables = host(interaction).tables
        lobby = await tables.open_lobby(
            channel_id=_channel(interaction), guild_id=interaction.guild_id, game=game,
            creator_id=interaction.user.id, creator_name=_user_name(interaction.user),
            seats=seats, reminder_hours=reminder_hours, ai_takeover=bool(ai_takeover),
            options=options)
        response = await interaction.response.send_message(
            messages.lobby_text(lobby), view=components.lobby_view(lobby.record.id),
            allowed_mentions=messages.NOBODY)
        message_id = getattr(response, "message_id", None)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await tables.store.set_lobby_message(lobby.record.id, message_id)


async def lobby_click(interaction: discord.Interaction, game_id: int, op: str) -> None:
    """A lobby button: join, leave, add an AI seat, start or cancel."""
    async with guarded(interaction, game_id):
        tables = host(interaction).tables
        user = interaction.user
        if op == "start":
            # Dealing and any opening AI turns may take a while: answer Discord first.
            await interaction.response.defer()
            lobby, board = await tables.start(game_id, user.id)
            await interaction.edit_original_response(content=messages.lobby_text(lobby),
                                                     view=None,
                                                     allowed_mentions=messages.NOBODY)
            outgoing = await board_outgoing(host(interaction), board)
            sent = await interaction.followup.send(**outgoing.kwargs(), wait=True)  # type: ignore[call-overload]
            await _remember_board(tables, board, sent)
            return
        if op == "join":
            lobby = await tables.join(game_id, user.id, _user_name(user))
        elif op == "leave":
            lobby = await tables.leave_lobby(game_id, user.id)
        elif op == "ai":
            lobby = await tables.add_ai(game_id, user.id)
        else:
            lobby = await tables.cancel_lobby(game_id, user.id, _can_manage(interaction))
        view = None if lobby.closed else components.lobby_view(game_id)
        await interaction.response.edit_message(content=messages.lobby_text(lobby), view=view,
                                                allowed_mentions=messages.NOBODY)


async def _remember_board(tables: Tables, board: Board, message: discord.Message | None,
                          ) -> None:
    # The move is saved and posted; failing to note the message id must not undo that.
    if message is None:
        return
    try:
        await tables.store.set_board_message(board.record.id, message.id)
    except Exception:
        log.exception("could not remember the board message of game %s", board.record.id)


# --------------------------------------------------------------------------- moves


async def play(interaction: discord.Interaction, text: str) -> None:
    """``/play``: a typed or autocompleted action."""
    async with guarded(interaction):
        await think(interaction)
        board = await host(interaction).tables.play(
            channel_id=_channel(interaction), user_id=interaction.user.id, text=text)
        await reply_board(interaction, board)


async def choice_click(interaction: discord.Interaction, game_id: int, move: int,
                       notation: str) -> None:
    """A choice button or menu: play ``notation`` if the game is still at ``move``."""
    async with guarded(interaction, game_id):
        await interaction.response.defer()
        board = await host(interaction).tables.play(
            channel_id=_channel(interaction), user_id=interaction.user.id, text=notation,
            game_id=game_id, expected_move=move)
        outgoing = await board_outgoing(host(interaction), board)
        sent = await interaction.followup.send(**outgoing.kwargs(), wait=True)  # type: ignore[call-overload]
        await _remember_board(host(interaction).tables, board, sent)
        if interaction.message is not None and not interaction.message.flags.ephemeral:
            try:
                await interaction.edit_original_response(view=None)
            except discord.HTTPException:
                log.info("could not clear the old buttons of game %s", game_id, exc_info=True)


async def autocomplete_play(interaction: discord.Interaction, current: str,
                            ) -> list[discord.app_commands.Choice[str]]:
    """The caller's legal actions matching what they typed, most useful first."""
    if interaction.channel_id is None:
        return []
    try:
        pairs = await host(interaction).tables.suggest(interaction.channel_id,
                                                       interaction.user.id, current)
    except Exception:
        log.exception("autocomplete failed in channel %s", interaction.channel_id)
        return []
    return [discord.app_commands.Choice(name=name, value=value) for name, value in pairs]


async def undo(interaction: discord.Interaction) -> None:
    """``/game undo``."""
    async with guarded(interaction):
        await think(interaction)
        board = await host(interaction).tables.undo(_channel(interaction), interaction.user.id)
        await reply_board(interaction, board)


async def leave(interaction: discord.Interaction) -> None:
    """``/game leave``: leave the lobby, or concede the game."""
    async with guarded(interaction):
        await think(interaction)
        bot = host(interaction)
        outcome = await bot.tables.concede(_channel(interaction), interaction.user.id)
        if isinstance(outcome, Lobby):
            await refresh_lobby_message(bot, outcome)
            await interaction.followup.send(
                f"{interaction.user.mention} left the lobby.", allowed_mentions=messages.NOBODY)
            interaction.extras[PUBLIC_THINKING] = False
            return
        assert isinstance(outcome, Conceded)
        await reply_board(interaction, outcome.board)


async def abort(interaction: discord.Interaction) -> None:
    """``/game abort``: the creator or anyone with Manage Channels."""
    async with guarded(interaction):
        bot = host(interaction)
        record = await bot.tables.abort(_channel(interaction), interaction.user.id,
                                        _can_manage(interaction))
        if record is None:
            await interaction.response.send_message(
                f"{interaction.user.mention} ended this channel's damaged game. Start a new one "
                "with `/game new`.", allowed_mentions=messages.NOBODY)
            return
        title = bot.tables.game(record.game).title
        await interaction.response.send_message(
            f"{interaction.user.mention} ended this game of {title}; it counts for nobody. "
            f"Start a new one with `/game new`.", allowed_mentions=messages.NOBODY)
        if record.status == "lobby":
            await refresh_lobby_message(bot, Lobby(record, bot.tables.game(record.game),
                                                   "cancelled"))


# --------------------------------------------------------------------------- looking


async def board(interaction: discord.Interaction) -> None:
    """``/game board``: post the current board again (also the recovery after a failed post)."""
    async with guarded(interaction):
        await think(interaction)
        await reply_board(interaction, await host(interaction).tables.board(_channel(interaction)))


async def hand(interaction: discord.Interaction) -> None:
    """``/game hand``: the caller's private view, ephemeral only."""
    async with guarded(interaction):
        await think(interaction, ephemeral=True)
        bot = host(interaction)
        private = await bot.tables.hand(_channel(interaction), interaction.user.id)
        view = components.choices_view(private.record.id, private.move, private.choices)
        outgoing = await messages.hand_message(private, bot.renderer, view)
        await interaction.followup.send(**outgoing.kwargs(), ephemeral=True)  # type: ignore[call-overload]


async def status(interaction: discord.Interaction) -> None:
    """``/game status``."""
    async with guarded(interaction):
        info = await host(interaction).tables.status(_channel(interaction))
        await interaction.response.send_message(messages.status_text(info),
                                                allowed_mentions=messages.NOBODY)


async def show_log(interaction: discord.Interaction, last: int) -> None:
    """``/game log``."""
    async with guarded(interaction):
        tables = host(interaction).tables
        record, actions = await tables.log(_channel(interaction), last)
        await interaction.response.send_message(
            messages.log_text(record, tables.game(record.game), actions),
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


async def replay(interaction: discord.Interaction) -> None:
    """``/game replay``: the game so far as an animated GIF."""
    async with guarded(interaction):
        await think(interaction)
        bot = host(interaction)
        game, views = await bot.tables.replay_views(_channel(interaction))
        frames = []
        for view in views:
            png = await messages.render(bot.renderer, view)
            if png is not None:
                frames.append(png)
        if not frames or bot.animator is None:
            raise StaleActionError("The replay cannot be drawn right now; try `/game log`.")
        gif = await asyncio.to_thread(bot.animator, frames)
        await interaction.followup.send(
            f"**{game.title}**: the game so far, {len(views) - 1} moves.",
            file=discord.File(io.BytesIO(gif), filename="replay.gif"),
            allowed_mentions=messages.NOBODY)
        interaction.extras[PUBLIC_THINKING] = False


async def stats(interaction: discord.Interaction, user: discord.abc.User | None) -> None:
    """``/stats``: games played and won per game in this server."""
    async with guarded(interaction):
        who = user or interaction.user
        lines = await host(interaction).tables.stats(interaction.guild_id, who.id)
        await interaction.response.send_message(messages.stats_text(who.id, lines),
                                                allowed_mentions=messages.NOBODY)


# --------------------------------------------------------------------------- reminders


async def send_due(bot: Host) -> int:
    """Send every due reminder and AI take-over; returns how many messages were sent."""
    sent = 0
    for item in await bot.tables.due():
        channel_id = item.record.channel_id
        try:
            if isinstance(item, Reminder):
                channel = bot.get_partial_messageable(channel_id, guild_id=item.record.guild_id)
                await channel.send(messages.reminder_text(item),
                                   allowed_mentions=messages.USERS_ONLY)
            else:
                await post_board(bot, item)
            sent += 1
        except discord.HTTPException:
            # The reminder is already marked as sent (never twice); the game is saved.
            log.warning("could not post a reminder for game %s in channel %s",
                        item.record.id, channel_id, exc_info=True)
    return sent


def option_choices(tables: Tables, game_slug: str | None, name: str,
                   current: str) -> list[discord.app_commands.Choice[str]]:
    """Autocomplete for a game option of ``/game new``: the selected game's values."""
    values: list[str] = []
    games = [tables.games[game_slug]] if game_slug in tables.games else list(tables.games.values())
    for game in games:
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
