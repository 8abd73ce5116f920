"""What each command and click does: a few lines each over the tables and the one move
pipeline.

Moves from every surface go through :func:`bot.discord.surfaces.move`; boards are shown
by :mod:`bot.discord.publish`. A handler that only reads answers from the first byte,
a refusal privately; one that changes a game acknowledges privately first (it may wait
for the database) and shows the result in the game's channel. Every change is committed
through :class:`~bot.tables.Tables` before anything is posted, so a failed post never
loses a move. Words are written by :mod:`bot.discord.messages` and
:mod:`bot.discord.words`.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.discord import (
    builder,
    components,
    messages,
    opening,
    organized,
    pacing,
    places,
    seasons,
    threads,
    weblinks,
    words,
)
from bot.discord.errors import PUBLIC_THINKING, announce, guarded, in_time, tell, think
from bot.discord.host import Host, host
from bot.discord.publish import lobby_view, refresh_lobby_message
from bot.discord.surfaces import acknowledge, move, private, quietly, saved_shown
from bot.discord.words import escaped
from bot.games import GAMES
from bot.games.engine import Action, GameError, StaleActionError
from bot.games.rng import Rng
from bot.refusals import (
    Busy,
    Expired,
    ManageServerOnly,
    NoGameHere,
    NoStandIn,
    NotAGamesChannel,
    Refused,
)
from bot.replays import draw as draw_replay
from bot.replays import draw_in_worker
from bot.store import GameRecord
from bot.tables import (
    Board,
    Choosing,
    Conceded,
    Lobby,
    MoveRequest,
    Reminder,
    TableClock,
    Tables,
    plural,
)
from bot.tables.seasons import CARRY, FRESH
from renderers import leaderboard

log = logging.getLogger(__name__)


def _user_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def _can_manage(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_channels)


def _channel(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise StaleActionError(words.OUTSIDE_SERVER)
    return interaction.channel_id


def _where(interaction: discord.Interaction) -> int | None:
    """Where a click came from: its channel or thread, ``None`` for a direct message (a
    button there counts for its own game only, and only for the player seated in it)."""
    return interaction.channel_id if interaction.guild_id is not None else None


async def _shown_after(interaction: discord.Interaction, board: Board) -> None:
    """Show a board a command changed (the change is saved) in the game's channel, then
    clear the command's private "thinking" note (or say the board is queued)."""
    bot = host(interaction)
    if await saved_shown(bot, board):
        await quietly(interaction.delete_original_response(), "clear the private note")
    else:
        await quietly(tell(interaction, messages.saved_not_shown(board)), "answer")


async def _said_in_channel(interaction: discord.Interaction, text: str) -> None:
    """Post ``text`` in the channel after a change a command made, naming without pinging,
    and clear the command's private "thinking" note."""
    channel = interaction.channel
    assert channel is not None and hasattr(channel, "send")
    await channel.send(text, allowed_mentions=messages.NOBODY)
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.debug("could not clear the private note", exc_info=True)


# --------------------------------------------------------------------------- lobby


async def new_game(interaction: discord.Interaction, *, game: str, seats: int | None,
                   reminder_hours: float | None, ai_takeover: bool | None,
                   options: dict[str, str], clock: str | None = None,
                   on_timeout: str | None = None) -> None:
    """``/game new``: open a lobby. In thread mode its message in the channel starts the
    game's own thread and becomes the game's card (:mod:`bot.discord.threads`); else the
    lobby message is posted in the channel, which then holds this one game. The lobby
    counts against the limits before anything is posted (:mod:`bot.discord.opening`)."""
    async with guarded(interaction):
        bot = host(interaction)
        tables = bot.tables
        where = _channel(interaction)
        defaults = await tables.lobbies.server_defaults(interaction.guild_id)
        allowed = await _games_channels(interaction, defaults)
        parent = getattr(interaction.channel, "parent_id", None)
        if allowed and where not in allowed and parent not in allowed:
            raise NotAGamesChannel(channels=allowed)
        asked: dict[str, Any] = {"guild_id": interaction.guild_id, "game": game,
                 "creator_id": interaction.user.id, "seats": seats,
                 "reminder_hours": (defaults.get("reminder_hours") if reminder_hours is None
                                    else reminder_hours),
                 "ai_takeover": (defaults.get("ai_takeover", True) if ai_takeover is None
                                 else ai_takeover),
                 "options": options,
                 "clock": TableClock.chosen(defaults.get("clock") if clock is None else clock,
                                            defaults.get("on_timeout") if on_timeout is None
                                            else on_timeout)}
        name = _user_name(interaction.user)
        why = threads.no_thread(interaction, defaults)
        refused = threads.cannot_show(interaction, not why)
        if refused is not None:
            raise refused
        bot.cooldowns.check(interaction.user.id, "lobby")
        if not why:
            started = await in_time(tables.lobbies.begin_lobby(channel_id=where, **asked),
                                    lambda: acknowledge(interaction))
            await opening.in_thread(interaction, started, name, lambda thread, card:
                                    tables.lobbies.open_lobby(channel_id=thread, parent_id=where,
                                                              creator_name=name, opening=started,
                                                              lobby_message_id=card, **asked))
            return
        started = await in_time(tables.lobbies.begin_lobby(channel_id=where, in_channel=True,
                                                           no_thread=why, **asked),
                                lambda: think(interaction))
        await opening.in_channel(interaction, started, lambda: tables.lobbies.open_lobby(
            channel_id=where, creator_name=name, no_thread=why, opening=started, **asked))


async def _games_channels(interaction: discord.Interaction,
                          defaults: dict[str, Any]) -> tuple[int, ...]:
    """The channels the server lets games open in (none: any). One deleted (while the bot
    was away, say) no longer counts: it lapses, and ``/settings`` tells the managers."""
    allowed = tuple(int(c) for c in defaults.get("channels") or ())
    guild = interaction.guild
    if not allowed or guild is None or interaction.guild_id is None:
        return allowed
    gone = [c for c in allowed if guild.get_channel(c) is None]
    if gone:
        settings = await host(interaction).tables.lobbies.lapse_channels(interaction.guild_id, gone)
        allowed = tuple(int(c) for c in settings.get("channels") or ())
    return allowed


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
            await tables.lobbies.check_start(game_id, user.id, channel)
            # Dealing and any opening AI turns may take a while: answer Discord first.
            await interaction.response.defer()
            lobby, board = await tables.lobbies.start(game_id, user.id, channel)
            await quietly(interaction.edit_original_response(
                content=messages.lobby_text(lobby), view=None,
                allowed_mentions=messages.NOBODY), "close the lobby message")
            if not await saved_shown(bot, board):
                await quietly(tell(interaction, messages.saved_not_shown(board)), "answer")
            return
        if op == "join":
            change = tables.lobbies.join(game_id, user.id, _user_name(user), channel)
        elif op == "leave":
            change = tables.lobbies.leave_lobby(game_id, user.id, channel)
        elif op == "ai":
            change = tables.lobbies.add_ai(game_id, user.id, channel)
        elif op == "remove":
            change = tables.lobbies.remove_from_lobby(game_id, user.id, target, channel)
        elif op == "level":
            change = tables.lobbies.set_ai_level(game_id, user.id, target, channel)
        else:
            change = tables.lobbies.cancel_lobby(game_id, user.id, _can_manage(interaction),
                                                 channel)
        lobby = await in_time(change, interaction.response.defer)
        if op == "join":
            await threads.seat_in_thread(bot, lobby.record, user.id)
        elif lobby.closed:  # cancelled, or everyone left: a thread of its own goes quiet
            bot.cooldowns.spend(user.id, "lobby")  # opened and closed again: not in a loop
            await threads.close_thread(bot, lobby.record)
        view = None if lobby.closed else lobby_view(lobby)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=messages.lobby_text(lobby),
                                                     view=view, allowed_mentions=messages.NOBODY)
        else:
            await interaction.response.edit_message(content=messages.lobby_text(lobby),
                                                    view=view, allowed_mentions=messages.NOBODY)
        if op == "join":
            # An edited card tells the joiner nothing of their own: say it, and where to go.
            await quietly(interaction.followup.send(messages.joined_text(lobby, user.id),
                                                    ephemeral=True,
                                                    allowed_mentions=messages.NOBODY),
                          "answer the player who joined")


@components.handles("rematch")
async def rematch_click(interaction: discord.Interaction, game_id: int) -> None:
    """Rematch (on a game-over board, or the game's card): a new lobby for the same game,
    options and players, hosted by whoever pressed it; in a new thread when the game had
    one. It counts as the presser's lobby before anything is posted, and opens once."""
    async with guarded(interaction, game_id):
        bot = host(interaction)
        tables = bot.tables
        user = interaction.user
        bot.cooldowns.check(user.id, "lobby")
        ended, _game, started = await in_time(
            tables.lobbies.claim_rematch(game_id, user.id, _channel(interaction)),
            lambda: acknowledge(interaction))
        name = _user_name(user)
        if ended.parent_id is not None:
            parent = ended.parent_id
            await opening.in_thread(interaction, started, name, lambda thread, card:
                                    tables.lobbies.open_rematch(ended, user.id, name,
                                                                channel_id=thread,
                                                                guild_id=interaction.guild_id,
                                                                parent_id=parent, opening=started,
                                                                lobby_message_id=card))
            return
        await opening.in_channel(interaction, started, lambda: tables.lobbies.open_rematch(
            ended, user.id, name, channel_id=ended.channel_id, guild_id=ended.guild_id,
            opening=started))


# --------------------------------------------------------------------------- moves


async def play(interaction: discord.Interaction, text: str) -> None:
    """``/play``: a typed or autocompleted move."""
    await move(interaction, MoveRequest(user_id=interaction.user.id, text=text,
                                        channel_id=interaction.channel_id,
                                        interaction_id=interaction.id))


@components.handles("move")
async def choice_click(interaction: discord.Interaction, game_id: int, offered_at: int,
                       token: str | int, notation: str) -> None:
    """A choice button or menu: play ``notation`` while its decision is open for the clicker."""
    await move(interaction, MoveRequest(user_id=interaction.user.id, text=notation,
                                        game_id=game_id, channel_id=_where(interaction),
                                        token=token, offered_at=offered_at,
                                        interaction_id=interaction.id))


@components.handles("many")
async def many_click(interaction: discord.Interaction, game_id: int, offered_at: int,
                     token: str, values: Sequence[str]) -> None:
    """A several-at-once menu: the chosen values make one move."""
    await move(interaction, MoveRequest(user_id=interaction.user.id, values=tuple(values),
                                        game_id=game_id, channel_id=_where(interaction),
                                        token=token, offered_at=offered_at,
                                        interaction_id=interaction.id))


@components.handles("step")
async def step_click(interaction: discord.Interaction, game_id: int, offered_at: int,
                     token: str, op: str, page: int, carried: str) -> None:
    """A step of the move builder: show the next step privately, preview, or play. Only a
    pick that needs no preview, or a confirmed one, is played: a stale or forged click,
    or a preview Discord would not show, plays nothing."""
    request: MoveRequest | None = None
    async with guarded(interaction, game_id):
        bot = host(interaction)
        choosing = await bot.tables.moves.choosing(channel_id=_where(interaction),
                                                   user_id=interaction.user.id, game_id=game_id,
                                                   expected=token, offered_at=offered_at)
        path = builder.decode(carried, choosing.legal)
        if path is None:
            raise Expired()
        if op in ("o", "b", "a"):
            moves = builder.offered(choosing.legal, dominated=choosing.dominated,
                                    multi=choosing.multi, every=op == "a")
            node = builder.node_at(choosing.game, moves, path)
            if node is None:
                raise Expired()
            if node.action is None or not node.path:
                # (A first step of one move, the menu of dice beside it, is shown too.)
                await _show_step(interaction, choosing, builder.as_step(node), page,
                                 clear=op == "b", every=op == "a")
                return
            path = node.action.notation
        action = builder.chosen_action(choosing.legal, path)
        if action is None:
            raise Expired()
        if op != "c" and len(builder.trail(choosing.game, choosing.legal, path)) != 1:
            view = await asyncio.to_thread(_preview_view, choosing, action)
            if view is not None:
                await _show_preview(bot, interaction, choosing, action, view)
                return
        request = MoveRequest(user_id=interaction.user.id, text=action.notation,
                              game_id=game_id, channel_id=_where(interaction),
                              token=choosing.token, offered_at=choosing.move,
                              interaction_id=interaction.id)
    if request is not None:
        await move(interaction, request)


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
                     page: int, *, clear: bool, every: bool = False) -> None:
    """Show a step in the player's private builder message (opening one from a board);
    with ``every``, every way the player may take (dominated ones too), Back leading to
    the usual ones."""
    back = _back_of(choosing, node.path) if node.path else None
    view = builder.step_view(choosing.game, choosing.legal, node, _offer(choosing), page=page,
                             back="" if every and back is None else back,
                             dominated=choosing.dominated, every=every,
                             multi=None if node.path else choosing.multi)
    text = f"**{choosing.game.title}**: {builder.prompt(node, page)}"
    if private(interaction):
        extra: dict[str, object] = {"attachments": []} if clear else {}
        await interaction.response.edit_message(content=text, view=view, **extra)  # type: ignore[arg-type]
    else:
        await interaction.response.send_message(text, view=view, ephemeral=True)  # type: ignore[arg-type]


#: How many worlds the player cannot tell from the real one a drawing move is tried in.
PREVIEW_WORLDS = 3


def _preview_view(choosing: Choosing, action: Action) -> dict[str, object] | None:
    """What the player may see of the board after ``action`` (runs in a worker thread).

    A move that reveals nothing and draws no chance is played at once, with no preview
    (``/game undo`` takes it back). A move that draws (a land card placed, a tile laid)
    cannot be taken back, so it is previewed by the public view after it, when that view
    does not depend on anything the player does not know. The preview is worked out from
    the game as the player may know it (:meth:`Engine.known_to`), never from the real
    state, and compared with worlds drawn from that alone (:meth:`Engine.resample`, seeded
    by what the player may see): so whether a move is previewed, and what the preview
    shows, is the same in every state the player cannot tell from the real one, and a
    preview can give no draw away before the move is confirmed (the player could go back
    and choose another). ``None``: the move is played at once.
    """
    game, seat = choosing.game, choosing.seat
    known = game.known_to(choosing.state, seat)
    try:
        outcome = game.apply(known, seat, action)
    except GameError:
        return None
    if outcome.undoable:
        return None
    public = game.view(outcome.state, None)
    seed = hashlib.blake2b(json.dumps([public, action.notation], sort_keys=True).encode(),
                           digest_size=8).digest()
    rng = Rng.from_seed(int.from_bytes(seed, "big") >> 1)
    for _ in range(PREVIEW_WORLDS):
        try:
            other = game.apply(game.resample(known, seat, rng), seat, action)
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
    inside = private(interaction)
    if inside:
        await interaction.response.defer()
    else:
        await think(interaction, ephemeral=True)
    image = await messages.render(bot.renderer, view, game_id=choosing.record.id)
    alt = f"{choosing.game.title}: the board after {action.notation}, only you see it."
    files = ([discord.File(io.BytesIO(image), filename="preview.png", description=alt)]
             if image else [])
    if inside:
        await interaction.edit_original_response(content=messages.clip(text, 2000),
                                                 attachments=files, view=buttons)
    else:
        await interaction.followup.send(messages.clip(text, 2000), files=files, view=buttons,
                                        ephemeral=True)


async def autocomplete_play(interaction: discord.Interaction, current: str,
                            ) -> list[discord.app_commands.Choice[str]]:
    """The caller's legal actions matching what they typed, most useful first."""
    if interaction.channel_id is None:
        return []
    try:
        pairs = await host(interaction).tables.queries.suggest(interaction.channel_id,
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
        spots = await host(interaction).tables.queries.zoom_spots(interaction.channel_id, current)
    except GameError:
        return []
    except Exception:
        log.exception("zoom autocomplete failed in channel %s", interaction.channel_id)
        return []
    return [discord.app_commands.Choice(name=spot, value=spot) for spot in spots]




async def undo(interaction: discord.Interaction) -> None:
    """``/game undo``: the board, taken back, in the channel."""
    async with guarded(interaction):
        await acknowledge(interaction)
        board = await host(interaction).tables.moves.undo(_channel(interaction),
                                                          interaction.user.id)
        await _shown_after(interaction, board)


async def leave(interaction: discord.Interaction) -> None:
    """``/game leave``: leave the lobby, or concede the game."""
    async with guarded(interaction):
        bot = host(interaction)
        await acknowledge(interaction)
        outcome = await bot.tables.leaving.concede(_channel(interaction), interaction.user.id)
        if isinstance(outcome, Lobby):
            # The lobby message shows who is seated: leaving posts nothing new, so joining
            # and leaving again and again floods nobody.
            await refresh_lobby_message(bot, outcome)
            if outcome.closed:
                bot.cooldowns.spend(interaction.user.id, "lobby")
                await threads.close_thread(bot, outcome.record)
            await tell(interaction, words.LEFT_LOBBY)
            return
        assert isinstance(outcome, Conceded)
        await _shown_after(interaction, outcome.board)


async def vote(interaction: discord.Interaction, player: discord.abc.User, give: str) -> None:
    """``/game vote``: vote on the seat of a player an AI stands in for; the table sees the
    vote (naming without pinging), and the board when the vote carries."""
    async with guarded(interaction):
        await acknowledge(interaction)
        outcome = await host(interaction).tables.seats.vote_seat(
            _channel(interaction), interaction.user.id, player.id, give)
        if outcome.board is None:
            text = messages.vote_text(outcome, _user_name(interaction.user))
            cooldowns, user = host(interaction).cooldowns, interaction.user.id
            cooling = cooldowns.waiting(user, "vote")
            if cooling is not None:  # a vote changed again and again is said once
                await tell(interaction, f"{text}\n{words.only_you('vote', cooling)}")
                return
            cooldowns.spend(user, "vote")
            await _said_in_channel(interaction, text)
            return
        await _shown_after(interaction, outcome.board)


async def sit(interaction: discord.Interaction) -> None:
    """``/game sit``: take the seat the table opened for a new player."""
    async with guarded(interaction):
        await acknowledge(interaction)
        board = await host(interaction).tables.seats.sit(_channel(interaction), interaction.user.id,
                                                         _user_name(interaction.user))
        await _shown_after(interaction, board)


async def _come_back(interaction: discord.Interaction, game_id: int | None) -> None:
    bot = host(interaction)
    channel = _channel(interaction)
    record = await bot.tables.places.game(game_id) if game_id is not None else \
        await bot.tables.places.open_game(channel)
    if record is None or not any(s.standing_in and s.user_id == interaction.user.id
                                 for s in record.seats):
        raise NoStandIn()
    await acknowledge(interaction)
    board = await bot.tables.reminders.come_back_to(channel, interaction.user.id, game_id)
    if interaction.type is discord.InteractionType.component:
        await saved_shown(bot, board)
        return
    await _shown_after(interaction, board)


def _asked_or_clicked(kind: str, answer: Callable[[discord.Interaction, int | None],
                                                  Awaitable[None]]
                      ) -> Callable[[discord.Interaction], Awaitable[None]]:
    """A slash command that ``answer`` answers for the channel's game (``game_id`` None),
    and a board's button of ``kind`` it answers for that board's game: the command is
    returned, the button registered."""

    async def asked(interaction: discord.Interaction) -> None:
        async with guarded(interaction):
            await answer(interaction, None)

    @components.handles(kind)
    async def clicked(interaction: discord.Interaction, game_id: int) -> None:
        async with guarded(interaction, game_id):
            await answer(interaction, game_id)

    return asked


#: ``/game back`` and the board's "I'm back" button: take your seat back from the AI
#: standing in for you.
back = _asked_or_clicked("back", _come_back)


async def abort(interaction: discord.Interaction) -> None:
    """``/game abort``: the host or anyone with Manage Channels."""
    async with guarded(interaction):
        bot = host(interaction)
        record = await in_time(bot.tables.leaving.abort(_channel(interaction), interaction.user.id,
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
            bot.cooldowns.spend(interaction.user.id, "lobby")
        if record.parent_id is not None:
            await threads.ended_without_result(bot, record, bot.tables.game(record.game).title)
        elif record.status == "lobby":
            await refresh_lobby_message(bot, Lobby(record=record, game=bot.tables.game(record.game),
                                                   closed="cancelled"))
        if record.status != "lobby" and record.board_message_id:
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
        current = await bot.tables.queries.board(_channel(interaction), zoom)
        cooling = bot.cooldowns.waiting(user, "board")
        if not _plays(current.record, user) or cooling is not None:
            await think(interaction, ephemeral=True)
            # Asked again and again, the picture of a game that did not move is drawn once.
            outgoing = await messages.board_message(current, bot.renderer, None,
                                                    pictures=bot.pictures)
            if cooling is not None:
                outgoing.content = messages.fit([outgoing.content, words.only_you("board",
                                                                                  cooling)])
            await interaction.followup.send(**outgoing.kwargs(), ephemeral=True)  # type: ignore[call-overload]
            return
        bot.cooldowns.spend(user, "board")
        await acknowledge(interaction)
        await bot.tables.queries.show_again(current)
        await _shown_after(interaction, current)


async def _show_hand(interaction: discord.Interaction, game_id: int | None) -> None:
    bot = host(interaction)
    mine = await bot.tables.queries.hand(_channel(interaction), interaction.user.id, game_id)
    await think(interaction, ephemeral=True)
    offer = builder.Offer(mine.record.id, mine.move, mine.token)
    view = builder.root_view(mine.game, mine.legal, offer, multi=mine.multi,
                             dominated=mine.dominated)
    outgoing = await messages.hand_message(mine, bot.renderer, view)
    await interaction.followup.send(**outgoing.kwargs(), ephemeral=True)  # type: ignore[call-overload]


#: ``/game hand`` and the board's Decide button: the caller's private view and own
#: choices, ephemeral only.
hand = _asked_or_clicked("decide", _show_hand)


async def cards(interaction: discord.Interaction) -> None:
    """``/game cards``: every card on the table in words, as the caller may know them,
    privately (over several messages when it takes more than one)."""
    async with guarded(interaction):
        shown = await host(interaction).tables.queries.cards(_channel(interaction),
                                                             interaction.user.id)
        await _send_pages(interaction, messages.cards_pages(shown), ephemeral=True)


async def _send_pages(interaction: discord.Interaction, pages: Sequence[str], *,
                      ephemeral: bool) -> None:
    """Answer with ``pages`` (at least one), the first as the answer, the rest after it."""
    first, *rest = pages
    await interaction.response.send_message(first, allowed_mentions=messages.NOBODY,
                                            ephemeral=ephemeral)
    for page in rest:
        await interaction.followup.send(page, allowed_mentions=messages.NOBODY,
                                        ephemeral=ephemeral)


async def status(interaction: discord.Interaction) -> None:
    """``/game status``."""
    async with guarded(interaction):
        info = await host(interaction).tables.queries.status(_channel(interaction))
        if not _plays(info.record, interaction.user.id):
            # Someone watching asks for themselves: the table's channel stays the table's.
            await interaction.response.send_message(messages.status_text(info), ephemeral=True,
                                                    allowed_mentions=messages.NOBODY)
            return
        await _public_once_in_a_while(interaction, "status", messages.status_text(info))


async def _public_once_in_a_while(interaction: discord.Interaction, kind: str,
                                  text: str) -> None:
    """Answer ``text`` for everyone, at most once in a while for each asker (the
    cooldown of ``kind``); meanwhile privately, saying when it may be public again, so
    that a stranger or a loop asking again and again posts once."""
    cooldowns, user = host(interaction).cooldowns, interaction.user.id
    cooling = cooldowns.waiting(user, kind)
    if cooling is None:
        cooldowns.spend(user, kind)
        await interaction.response.send_message(text, allowed_mentions=messages.NOBODY)
        return
    note = words.only_you(kind, cooling)
    await interaction.response.send_message(
        f"{messages.clip(text, messages.MAX_CONTENT - len(note) - 1)}\n{note}",
        ephemeral=True, allowed_mentions=messages.NOBODY)


async def show_log(interaction: discord.Interaction, last: int,
                   game_id: int | None = None, start: int | None = None) -> None:
    """``/game log``: the moves with their whole narration, over several messages if needed."""
    async with guarded(interaction):
        tables = host(interaction).tables
        record, actions = await tables.queries.log(_channel(interaction), last, game_id, start)
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
        await _send_pages(interaction, pages, ephemeral=cooling is not None)


async def history(interaction: discord.Interaction) -> None:
    """``/game history``: the channel's ended games with their results."""
    async with guarded(interaction):
        tables = host(interaction).tables
        games = await tables.queries.history(_channel(interaction))
        await _public_once_in_a_while(interaction, "history",
                                      messages.history_text(tables.game, games))


async def rules(interaction: discord.Interaction, game: str | None) -> None:
    """``/game rules``: from the named game, or the channel's game."""
    async with guarded(interaction):
        tables = host(interaction).tables
        if game is None:
            current = (await tables.places.open_game(interaction.channel_id)
                       if interaction.channel_id else None)
            if current is None:
                await interaction.response.send_message(
                    words.pick_a_game([g.title for g in tables.games.values()]), ephemeral=True)
                return
            game = current.game
        await interaction.response.send_message(messages.rules_text(tables.game(game)),
                                                ephemeral=True)


async def replay(interaction: discord.Interaction, game_id: int | None = None) -> None:
    """``/game replay``: the game so far (or an ended game) as an animated GIF."""
    async with guarded(interaction):
        bot = host(interaction)
        channel = _channel(interaction)
        record = await bot.tables.queries.check_replay(channel, game_id)
        renderer = bot.renderer
        if renderer is None:
            raise StaleActionError(words.NO_REPLAY_HERE)
        bot.cooldowns.take(interaction.user.id, "replay")
        await think(interaction)
        game, job = await bot.tables.queries.replay_job(record)

        async def drawing() -> bytes:
            pooled = getattr(renderer, "run_async", None)
            if callable(pooled) and job.slug in GAMES:
                return bytes(await pooled(draw_in_worker, job))
            return await asyncio.to_thread(draw_replay, game, job, renderer)

        try:
            gif = await bot.replays.gif((record.id, record.version), drawing)
        except Busy:
            # Turned away, not served: the wait starts with a replay that is drawn.
            bot.cooldowns.give_back(interaction.user.id, "replay")
            raise
        except Refused:
            raise
        except Exception:
            log.exception("the replay of game %s could not be drawn", record.id)
            raise StaleActionError(words.REPLAY_FAILED) from None
        so_far = "the game so far" if record.status == "active" else f"game {record.id}"
        await interaction.followup.send(
            f"**{game.title}**: {so_far}, {plural(job.moves, 'move')}.",
            file=discord.File(io.BytesIO(gif), filename="replay.gif",
                              description=messages.replay_alt(game, record, job.moves)),
            allowed_mentions=messages.NOBODY, **await weblinks.replay_button(bot, record))
        interaction.extras[PUBLIC_THINKING] = False


async def stats(interaction: discord.Interaction, user: discord.abc.User | None,
                board: str | None = None, season: str | None = None) -> None:
    """``/stats``: games played and won per game in this server, or a leaderboard: in the
    season under way (or the one named), else all time."""
    async with guarded(interaction):
        bot = host(interaction)
        chosen = await bot.seasons.chosen(interaction.guild_id, season)
        if board is not None:
            tables = bot.tables
            ranks = messages.leaderboard_board(
                await tables.queries.leaderboard(interaction.guild_id, board, chosen))
            cooldowns, asker = bot.cooldowns, interaction.user.id
            cooling = cooldowns.waiting(asker, "leaderboard")
            if cooling is None:
                cooldowns.spend(asker, "leaderboard")
            await think(interaction, ephemeral=cooling is not None)
            png = await asyncio.to_thread(leaderboard.render, ranks)
            text = messages.leaderboard_text(ranks)
            if cooling is not None:
                text = f"{text} {words.only_you('leaderboard', cooling)}"
            await interaction.followup.send(
                content=text, allowed_mentions=messages.NOBODY,
                ephemeral=cooling is not None,
                file=discord.File(io.BytesIO(png), filename="leaderboard.png",
                                  description=messages.leaderboard_alt(ranks)),
                **await weblinks.server_button(bot, interaction.guild_id))
            interaction.extras[PUBLIC_THINKING] = False
            return
        who = user or interaction.user
        lines = await bot.tables.queries.stats(interaction.guild_id, who.id, chosen)
        await _public_once_in_a_while(interaction, "stats",
                                      messages.stats_text(who.id, lines, chosen))


async def my_games(interaction: discord.Interaction) -> None:
    """``/games``: the caller's games on every server, privately; works anywhere."""
    async with guarded(interaction):
        tables = host(interaction).tables
        await think(interaction, ephemeral=True)
        entries = await tables.queries.my_games(interaction.user.id)
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
            text = messages.back_text(await tables.reminders.come_back(user))
        elif vacation_days is not None or vacation_from is not None:
            if vacation_days is None:
                raise GameError(words.SAY_HOW_LONG)
            text = messages.vacation_text(
                await tables.reminders.take_vacation(user, vacation_days, vacation_from))
        else:
            text = messages.quiet_hours_text(
                await tables.reminders.set_quiet_hours(user, timezone, quiet_from, quiet_to))
        await interaction.response.send_message(text, ephemeral=True)


async def notify(interaction: discord.Interaction, how: str | None,
                 reminders: str | None = None) -> None:
    """``/notify``: keep how the caller is reached and which reminders ping them, privately
    (with neither given, say what they are)."""
    async with guarded(interaction):
        tables = host(interaction).tables
        user = interaction.user.id
        if how is not None:
            await tables.reminders.set_notify(user, how)
        if reminders is not None:
            await tables.reminders.set_reminder_pings(user, reminders)
        mode, pings = await tables.reminders.notify_settings(user)
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
            forgotten = await tables.queries.forget(user)
            await interaction.followup.send(messages.forgotten_text(forgotten),
                                            ephemeral=True)
            return
        kept = await tables.queries.about(user)
        data = json.dumps(kept, indent=2, sort_keys=True, ensure_ascii=False).encode()
        await interaction.followup.send(
            messages.privacy_text(kept), ephemeral=True,
            file=discord.File(io.BytesIO(data), filename=f"candybot-{user}.json",
                              description=words.PRIVACY_FILE))


async def server_settings(interaction: discord.Interaction, *, threads: bool | None,
                          reminder_hours: float | None, ai_takeover: bool | None,
                          games_channel: int | None, any_channel: bool,
                          web: bool | None = None, season_ratings: str | None = None,
                          clock: str | None = None, on_timeout: str | None = None) -> None:
    """``/settings``: change the server's defaults for new games (Manage Server; Discord
    hides the command from others, and a forged call is refused here too), then say them,
    privately."""
    async with guarded(interaction):
        if interaction.guild_id is None:
            raise NoGameHere()
        if not interaction.permissions.manage_guild:
            raise ManageServerOnly()
        tables = host(interaction).tables
        current = await tables.lobbies.server_defaults(interaction.guild_id)
        channels: list[int] | None = None
        if any_channel:
            channels = []
        elif games_channel is not None:
            channels = [*current.get("channels", ()), games_channel]
        now = await tables.lobbies.set_server_defaults(
            interaction.guild_id, threads=threads, reminder_hours=reminder_hours,
            ai_takeover=ai_takeover, channels=channels, web=web,
            season_ratings=season_ratings if season_ratings in (CARRY, FRESH) else None,
            clock=clock, on_timeout=on_timeout)
        await interaction.response.send_message(
            messages.settings_text(now), ephemeral=True,
            **await weblinks.server_button(host(interaction), interaction.guild_id))


# --------------------------------------------------------------------------- reminders


async def send_due(bot: Host, opening_grace: float) -> int:
    """Queue every due reminder and play every due AI take-over, apply the clocks (their
    low-time reminders, a seat out of time), settle the lobbies left half-opened for
    ``opening_grace`` seconds, then deliver the outbox; returns how many reminders,
    take-overs and clocks run out there were. Its requests are background work
    (:mod:`~bot.discord.pacing`): a move being answered meanwhile goes first."""
    count = 0
    with pacing.background():
        for item in await bot.tables.reminders.due():
            count += 1
            if isinstance(item, Reminder):
                continue  # queued in the outbox with its claim; delivered below
            await saved_shown(bot, item)
        for board in await bot.tables.clocks.due():
            count += 1  # a clock run out (its low-time reminders are queued as they go)
            await saved_shown(bot, board)
        for lobby in await bot.tables.lobbies.expire_lobbies():
            # Its players are told by the notice queued with it, delivered below.
            await refresh_lobby_message(bot, lobby)
            await threads.close_thread(bot, lobby.record)
        await organized.advance(bot)
        await opening.settle(bot, opening_grace)
        await places.look_again(bot)
        await seasons.settle(bot)
        await bot.outbox.deliver()
    return count


def option_choices(tables: Tables, game_slug: str | None, name: str,
                   current: str) -> list[discord.app_commands.Choice[str]]:
    """Autocomplete for a game option of ``/game new``: the selected game's values."""
    values: list[str] = []
    games = ([tables.games[game_slug]] if game_slug is not None and game_slug in tables.games
             else list(tables.games.values()))
    for game in games:
        suggested = game.rules.option_suggestions(name, current)
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
