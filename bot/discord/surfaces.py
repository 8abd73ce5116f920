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
   message, their next choice in that same message;
5. **publish** (:func:`bot.discord.publish.publish`): the board in the game's channel or
   thread, as a new message that pings whoever was handed the turn (should Discord refuse
   it, the mover is told the move counts and the board is queued).

A surface differs only in what it puts in the :class:`~bot.tables.MoveRequest` (a typed
move its channel and text, a button its game, decision and notation, a direct message
no channel at all) and where the mover's private answer goes.
"""

from __future__ import annotations

import logging

import discord

from bot.discord import builder, messages
from bot.discord.errors import PUBLIC_THINKING, guarded, tell
from bot.discord.host import host
from bot.discord.publish import early_picture, publish_saved
from bot.games.engine import GameError
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
        prepared = await bot.tables.prepare(request)
        with early_picture(bot, prepared.record.id) as early:
            if prepared.view is not None:
                early(prepared.view)
            board = await bot.tables.commit(prepared)
            await answer_mover(interaction, board,
                               board.played or prepared.played or request.text)
            if not await publish_saved(bot, board, early):
                await tell(interaction, messages.saved_not_shown(board))


async def answer_mover(interaction: discord.Interaction, board: Board, played: str) -> None:
    """Tell the mover, privately, their move and what only they learn; in a private
    message they clicked in, go on there with their next choice (the next monster to
    feed, say). A command's "thinking" note is always answered."""
    user = interaction.user.id
    if interaction.type is not discord.InteractionType.component:
        await interaction.followup.send(messages.mover_text(board, user, played),
                                        ephemeral=True, allowed_mentions=messages.NOBODY)
        return
    if board.private_lines(user) or board.hidden_for_mover:
        await interaction.followup.send(messages.mover_text(board, user, played),
                                        ephemeral=True, allowed_mentions=messages.NOBODY)
    if not private(interaction):
        return
    text = f"You played `{played}`."
    view = None
    # Go on here when the choice is the mover's alone (a secret one), and in a direct
    # message always: a player who plays from their DMs keeps playing there when the move
    # leaves the turn with them (a swap and then its Blast, a card placed and then a bear
    # fed), where no new turn message comes.
    if not board.finished and (board.chooser is None or interaction.guild_id is None):
        try:
            again = await host(interaction).tables.choosing(
                user_id=user, game_id=board.record.id, channel_id=None)
        except GameError:
            again = None
        if again is not None:
            view = builder.root_view(again.game, again.legal,
                                     builder.Offer(again.record.id, again.move, again.token),
                                     multi=again.multi)
            text += " Your next choice:"
    try:
        await interaction.edit_original_response(content=text, attachments=[], view=view)
    except discord.HTTPException:
        log.info("could not update the private choices of game %s", board.record.id)
