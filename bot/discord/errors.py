"""Answering interactions safely: friendly errors, logged surprises, never a traceback."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

from bot.games.engine import GameError
from bot.store import StoreError

log = logging.getLogger(__name__)

#: Errors a user can cause; their text is written for players.
FRIENDLY: tuple[type[Exception], ...] = (GameError, StoreError)
PUBLIC_THINKING = "candybot.public_thinking"
#: Said when the bot does not know whether a move was saved, so it claims neither.
SOMETHING_WRONG = ("Something went wrong on my side; nothing you did. `/game board` shows "
                   "what was saved: if your move is not there, try it again in a moment.")


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Tell the user ``text`` ephemerally, whatever state the interaction is in.

    After a public "thinking" defer the first followup would replace the public
    placeholder, so that placeholder is deleted first and the note sent as a new,
    ephemeral message.
    """
    text = text if len(text) <= 2000 else text[:1999] + "…"
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True)
        return
    if interaction.extras.get(PUBLIC_THINKING):
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.debug("could not delete the thinking placeholder", exc_info=True)
        interaction.extras[PUBLIC_THINKING] = False
    await interaction.followup.send(text, ephemeral=True)


async def think(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Defer with a "thinking" placeholder, remembering whether it is public."""
    await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    interaction.extras[PUBLIC_THINKING] = not ephemeral


def describe(interaction: discord.Interaction) -> str:
    """Where an interaction came from, for log lines."""
    data = interaction.data or {}
    custom_id = str(data.get("custom_id") or "")
    # A button's id may carry a private choice (a card in hand): log only its kind.
    what = data.get("name") or ":".join(custom_id.split(":")[:2]) or interaction.type.name
    return f"{what} in guild {interaction.guild_id} channel {interaction.channel_id}"


@asynccontextmanager
async def guarded(interaction: discord.Interaction, game_id: int | None = None,
                  ) -> AsyncIterator[None]:
    """Turn friendly errors into ephemeral notes and log everything else."""
    try:
        yield
    except FRIENDLY as exc:
        await _safe_tell(interaction, str(exc))
    except Exception:
        log.exception("unexpected error handling %s (game %s)", describe(interaction), game_id)
        await _safe_tell(interaction, SOMETHING_WRONG)


async def _safe_tell(interaction: discord.Interaction, text: str) -> None:
    try:
        await tell(interaction, text)
    except discord.HTTPException:
        log.warning("could not answer %s", describe(interaction), exc_info=True)
