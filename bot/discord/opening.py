"""Opening a lobby so that nothing is left half-made, whatever stops the bot midway.

A lobby is counted against its host's and its server's limits before anything is
posted (:meth:`bot.tables.Tables.begin_lobby`): from then on it is an *opening* in the
store, and each step noted there as it is done: its card posted in the channel and its
thread started from the card (thread mode), then the lobby itself stored, in the same
write that notes it in the opening. Once the lobby's message shows its buttons the
opening ends.

A bot killed in between leaves the opening behind, and :func:`settle` (the reminder
pass, every minute or so) finishes it or takes it back once it has had no step for the
grace the operator sets (``CANDYBOT_OPENING_GRACE_SECONDS``, a minute): a stored lobby
gets its message and buttons (its players added to its thread); anything else is taken
back (its card deleted, its thread archived, the count given back). A lobby whose place
is gone or refuses the bot ends without a result. So no card says "opening…" for good, no
thread stays open for nothing, and no lobby that nobody can join, start or cancel counts
against anyone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.discord import messages, pacing, threads, words
from bot.discord.errors import announce, in_time, read_or_warn, tell, think
from bot.discord.host import Host, host
from bot.discord.publish import lobby_view
from bot.discord.surfaces import acknowledge
from bot.store import NotFoundError, OpeningRecord
from bot.tables import Lobby

log = logging.getLogger(__name__)


async def in_thread(interaction: discord.Interaction, opening: OpeningRecord, host_name: str,
                    make: Callable[[int, int], Awaitable[Lobby]]) -> Lobby:
    """Open ``opening``'s lobby in a thread of its channel: the card, the thread, then
    the lobby ``make(thread id, card id)`` stores; tell the host privately where it is.
    Whatever fails is taken back (the card deleted, the thread archived) and refused."""
    bot = host(interaction)
    tables = bot.tables
    try:
        await acknowledge(interaction)
        thread_id, card_id = await threads.start_thread(
            bot, opening, tables.game(opening.game).title, host_name)
    except Exception:
        await tables.lobbies.end_opening(opening)  # the card, if posted, was taken back
        raise
    try:
        lobby = await make(thread_id, card_id)
    except Exception:
        await threads.abandon(bot, opening.channel_id, opening.guild_id, card_id, thread_id)
        await tables.lobbies.end_opening(opening)
        raise
    await _shown(bot, lobby, opening)
    await tell(interaction, messages.lobby_opened_text(lobby))
    return lobby


async def in_channel(interaction: discord.Interaction, opening: OpeningRecord,
                     make: Callable[[], Awaitable[Lobby]]) -> Lobby:
    """Open ``opening``'s lobby in the channel itself (no thread of its own): the lobby
    ``make`` stores, then its message, as the answer to the command or click."""
    bot = host(interaction)
    tables = bot.tables
    try:
        lobby = await in_time(make(), lambda: _thinking(interaction))
    except Exception:
        await tables.lobbies.end_opening(opening)
        raise
    try:
        message_id = await announce(interaction, messages.lobby_text(lobby),
                                    view=lobby_view(lobby), allowed_mentions=messages.NOBODY)
    except discord.HTTPException:
        log.warning("could not show lobby %s as the answer; it is posted later",
                    lobby.record.id, exc_info=True)
        try:
            await tell(interaction, words.LOBBY_SHOWN_LATER)
        except discord.HTTPException:
            log.info("could not tell the host of lobby %s", lobby.record.id)
        return lobby
    await tables.places.lobby_shown(lobby.record.id, message_id)
    await tables.lobbies.end_opening(opening)
    return lobby


async def _thinking(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():
        await think(interaction)


async def show_lobby(bot: Host, lobby: Lobby) -> None:
    """Show ``lobby`` on its message, with its buttons; raises what Discord refuses."""
    record = lobby.record
    assert record.lobby_message_id is not None
    message = bot.get_partial_messageable(record.card_channel_id, guild_id=record.guild_id) \
        .get_partial_message(record.lobby_message_id)
    await message.edit(content=messages.lobby_text(lobby), view=lobby_view(lobby),
                       allowed_mentions=messages.NOBODY)


async def _shown(bot: Host, lobby: Lobby, opening: OpeningRecord) -> bool:
    """Give a lobby in a thread its buttons and its players the thread, then end its
    opening; should Discord refuse, the opening stays for :func:`settle` to finish."""
    try:
        await show_lobby(bot, lobby)
    except discord.HTTPException:
        log.warning("could not show lobby %s on its card; it is shown later",
                    lobby.record.id, exc_info=True)
        return False
    await _seat_players(bot, lobby)
    await bot.tables.lobbies.end_opening(opening)
    return True


async def _seat_players(bot: Host, lobby: Lobby) -> None:
    """Add the lobby's players to its thread (it shows in their channel list)."""
    for seat in lobby.record.seats:
        if seat.user_id is not None and not seat.ai:
            await threads.seat_in_thread(bot, lobby.record, seat.user_id)


async def settle(bot: Host, grace: float) -> int:
    """Finish or take back every opening left without a step for ``grace`` seconds (a bot
    stopped midway); returns how many were settled. Several bots on one database each
    take an opening over before settling it, so each is settled once."""
    tables = bot.tables
    stale = await read_or_warn(tables.places.stale_openings(grace), log,
                               "could not read the lobbies being opened")
    if stale is None:
        return 0
    settled = 0
    for opening in stale:
        try:
            if not await tables.places.claim_opening(opening):
                continue
            with pacing.background():  # moves being answered go first
                settled += await _settle(bot, opening)
        except Exception:
            # Tried again at a later pass; one opening must not hold up the others.
            log.exception("could not settle lobby opening %s", opening.id)
    return settled


async def _settle(bot: Host, opening: OpeningRecord) -> int:
    tables = bot.tables
    if opening.game_id is None:
        card = opening.card_id
        if card is None and opening.threaded and opening.game in tables.games:
            # Killed around the card's post: posting it again under the same nonce finds
            # the card Discord made, if any (else makes one), to take it back.
            try:
                card = (await threads.post_card(bot, opening,
                                                tables.game(opening.game).title)).id
            except discord.HTTPException as exc:
                if exc.status >= 500:
                    return 0  # Discord's trouble: the next pass tries again
                card = None  # the bot may not post there (any more): it made no card
        # A thread started from a message has the message's id.
        await threads.abandon(bot, opening.channel_id, opening.guild_id, card,
                              opening.thread_id or card)
        await tables.lobbies.end_opening(opening)
        log.info("took back lobby opening %s in channel %s: it never opened", opening.id,
                 opening.channel_id)
        return 1
    try:
        record = await tables.places.game(opening.game_id)
    except NotFoundError:
        record = None
    if record is None or record.status != "lobby" or record.game not in tables.games:
        await tables.lobbies.end_opening(opening)
        return 1
    lobby = Lobby(record=record, game=tables.game(record.game))
    try:
        if record.lobby_message_id is None:
            channel = bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            # The nonce makes a post Discord made but never confirmed count as the one.
            sent = await channel.send(messages.lobby_text(lobby), view=lobby_view(lobby),
                                      allowed_mentions=messages.NOBODY,
                                      nonce=f"lobby-{record.id}")
            await tables.places.lobby_shown(record.id, sent.id)
        else:
            await show_lobby(bot, lobby)
            await _seat_players(bot, lobby)
    except discord.HTTPException as exc:
        if exc.status not in (403, 404):
            return 0  # Discord's trouble: the next pass tries again
        # Its place is gone or refuses the bot: a lobby nobody could reach ends.
        await tables.places.abort(record.id)
        await threads.ended_without_result(bot, record, lobby.game.title)
        log.info("lobby %s ended: its message could not be shown (%s)", record.id,
                 exc.status)
    else:
        log.info("finished opening lobby %s in channel %s", record.id, record.channel_id)
    await tables.lobbies.end_opening(opening)
    return 1

