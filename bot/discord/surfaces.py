"""Every place a move comes from goes through one function over the one pipeline.

:func:`move` is what a typed ``/play``, a choice button, a menu, a several-at-once menu
and the move builder's last step all call, in a channel, a thread or a direct message:

1. **acknowledge** the interaction privately at once (a command's private "thinking", a
   click's silent update), so Discord's 3-second deadline is always met and a refusal
   stays private from the first byte;
2. **prepare** the move (:meth:`bot.tables.Tables.prepare`): read the game, check the
   seat, the decision and the notation, work out the move and the AI replies. A refusal
   is told privately and nothing changed;
3. begin the board's picture (in the render pool) while the move is **committed**
   (:meth:`bot.tables.Tables.commit`), with what it must announce, in one transaction;
4. **answer the mover** privately: what only they learn, or, clicked in a private
   message, their next choice in that same message; and, at the same time,
5. **publish** (:func:`bot.discord.publish.publish_saved`): what the move queued with it,
   delivered at once: the board in the game's channel or thread, as a new message that
   pings whoever was handed the turn, the older board's buttons taken off, the card
   (should Discord refuse any of it, it is retried until Discord takes it, and the mover
   is told the move counts).

Once the move is saved nothing tells the mover it failed: an answer Discord refuses (the
thread archived meanwhile, the interaction's webhook failing) is logged and tried again
once the board is shown (a new message reopens an archived thread).

A surface differs only in what it puts in the :class:`~bot.tables.MoveRequest` (a typed
move its channel and text, a button its game, decision and notation, a direct message
no channel at all) and where the mover's private answer goes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

import aiohttp
import discord

from bot.discord import builder, messages
from bot.discord.errors import PUBLIC_THINKING, guarded, tell
from bot.discord.host import Host, host
from bot.discord.publish import early_picture, publish_saved
from bot.games.engine import GameError
from bot.store import OutboxRecord
from bot.tables import Board, MoveRequest

log = logging.getLogger(__name__)


async def acknowledge(interaction: discord.Interaction) -> None:
    """Answer Discord at once, privately: a command shows its user alone a "thinking"
    note (replaced by the answer), a click changes nothing on screen."""
    if interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(thinking=True, ephemeral=True)
        interaction.extras[PUBLIC_THINKING] = False


def private(interaction: discord.Interaction) -> bool:
    """Was the clicked component on a message only the clicker sees (a private step, a
    direct message)?"""
    message = interaction.message
    return message is not None and (message.flags.ephemeral or interaction.guild_id is None)


async def move(interaction: discord.Interaction, request: MoveRequest) -> None:
    """Play ``request`` (see the module text); every refusal is told privately."""
    async with guarded(interaction, request.game_id):
        bot = host(interaction)
        await acknowledge(interaction)
        prepared = await bot.tables.moves.prepare(request)
        with early_picture(bot, prepared.record.id) as early:
            if prepared.view is not None:
                early(prepared.view)
            # The board is leased to this handler in the move's own transaction: no claim.
            lease = bot.outbox.lease()
            board = await bot.tables.moves.commit(prepared, lease)
            # Saved: from here on every failure is logged, never told as the move's.
            played = board.played or prepared.played or request.text
            # The private answer and the board go to Discord side by side (two routes,
            # two webhooks): neither waits a round trip for the other.
            answered, shown = await asyncio.gather(
                quietly(answer_mover(interaction, board, played), "answer"),
                saved_shown(bot, board, early, lease.claimed))
            if not answered:
                answered = await quietly(answer_mover(interaction, board, played), "answer")
            if not shown and answered:
                await quietly(tell(interaction, messages.saved_not_shown(board)), "answer")


async def quietly(work: Awaitable[object], what: str) -> bool:
    """Await ``work`` (a request to Discord after a change was saved); a failure is logged,
    and False returned, instead of reaching the player as the change's."""
    try:
        await work
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError):
        log.info("could not %s after a saved change", what, exc_info=True)
        return False
    return True


async def saved_shown(bot: Host, board: Board,
                      early: messages.EarlyPicture | None = None,
                      claimed: OutboxRecord | None = None) -> bool:
    """:func:`publish_saved` after a saved change, whose failure (Discord's, or the
    bot's own) never reaches the player as the change's: what is queued stays queued."""
    try:
        return await publish_saved(bot, board, early, claimed)
    except Exception:
        log.exception("could not show game %s after a saved change; it stays queued",
                      board.record.id)
        bot.outbox.kick()
        return False


async def answer_mover(interaction: discord.Interaction, board: Board, played: str) -> None:
    """Tell the mover, privately, their move and what only they learn; in a private
    message they clicked in, go on there with their next choice (the next monster to
    feed, say). A command's "thinking" note is always answered."""
    user = interaction.user.id
    if interaction.type is not discord.InteractionType.component:
        await interaction.followup.send(messages.mover_text(board, user, played),
                                        ephemeral=True, allowed_mentions=messages.NOBODY)
        return
    if interaction.guild_id is None:
        await _answer_in_direct_message(interaction, board, played)
        return
    if board.private_lines(user) or board.hidden_for_mover:
        await interaction.followup.send(messages.mover_text(board, user, played),
                                        ephemeral=True, allowed_mentions=messages.NOBODY)
    if not private(interaction):
        return
    text = f"You played `{played}`."
    view = None
    # Go on here when the choice is the mover's alone (a secret one).
    if not board.finished and board.chooser is None:
        try:
            again = await host(interaction).tables.moves.choosing(
                user_id=user, game_id=board.record.id, channel_id=None)
        except GameError:
            again = None
        if again is not None:
            view = builder.root_view(again.game, again.legal,
                                     builder.Offer(again.record.id, again.move, again.token),
                                     multi=again.multi, dominated=again.dominated)
            text += " Your next choice:"
    try:
        await interaction.edit_original_response(content=text, attachments=[], view=view)
    except discord.HTTPException:
        log.info("could not update the private choices of game %s", board.record.id)


async def _answer_in_direct_message(interaction: discord.Interaction, board: Board,
                                    played: str) -> None:
    """A move made from a direct message leaves that one message for it, said once: the
    prompt clicked becomes the answer (the move and what only the mover learns), without
    buttons; when the turn stays with the player (a swap and then its Blast, a card placed
    and then a bear fed: nobody else acted, so no new turn DM comes), the same message goes
    on with their view and next choice. What the moves answering it told the player (an
    AI's raid, marked ⚠) is said once: by the catch-up of the new turn DM when others
    acted and the turn comes back (that DM is the next decision's prompt), or of the
    prompt going on, else in the answer."""
    bot, user = host(interaction), interaction.user.id
    handed = user in board.handed
    outgoing: messages.Outgoing | None = None
    if not board.finished and not handed:
        try:
            mine = await bot.tables.queries.hand(None, user, board.record.id)
        except GameError:
            mine = None
        if mine is not None and mine.legal and mine.seat in board.to_act:
            view = builder.root_view(mine.game, mine.legal,
                                     builder.Offer(mine.record.id, mine.move, mine.token),
                                     multi=mine.multi, dominated=mine.dominated)
            outgoing = await messages.hand_message(mine, bot.renderer, view)
            text = messages.dm_answer_text(board, user, played, others=not mine.since)
            outgoing.content = messages.fit([text, outgoing.content], keep_first=1)
    if outgoing is None:
        outgoing = messages.Outgoing(
            messages.dm_answer_text(board, user, played, others=not handed))
    try:
        await interaction.edit_original_response(**outgoing.edit_kwargs())  # type: ignore[arg-type]
    except discord.HTTPException:
        log.info("could not update the direct message of game %s", board.record.id)
