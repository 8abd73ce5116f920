"""Answering interactions safely: friendly errors, logged surprises, never a traceback."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import discord

from bot.discord import words
from bot.games.engine import GameError
from bot.store import StoreError

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Errors a user can cause; :func:`bot.discord.words.refusal` words them.
FRIENDLY: tuple[type[Exception], ...] = (GameError, StoreError)
PUBLIC_THINKING = "candybot.public_thinking"
#: Seconds a handler may work before it acknowledges the interaction (Discord allows 3).
ANSWER_WITHIN = 2.0


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


async def in_time(work: Awaitable[T], acknowledge: Callable[[], Awaitable[object]]) -> T:
    """Await ``work``; if it is not done within :data:`ANSWER_WITHIN` seconds (a write
    waiting for the database), ``acknowledge`` the interaction first, then keep waiting.

    Discord drops an interaction not acknowledged within 3 s. Quick work keeps its usual
    answer (a refusal stays private from the first byte); slow work still meets the
    deadline. Afterwards ``interaction.response.is_done()`` says which happened.
    """
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.wait_for(asyncio.shield(task), ANSWER_WITHIN)
    except TimeoutError:
        await acknowledge()
        return await task


async def announce(interaction: discord.Interaction, content: str, **kwargs: Any) -> int:
    """Answer with a public message, whether or not the interaction was deferred with a
    public "thinking" placeholder (which the message then replaces); its message id."""
    if interaction.response.is_done():
        sent = await interaction.followup.send(content, wait=True, **kwargs)
        interaction.extras[PUBLIC_THINKING] = False
        return sent.id
    response = await interaction.response.send_message(content, **kwargs)
    message_id = getattr(response, "message_id", None)
    return message_id if message_id is not None else (await interaction.original_response()).id


async def think(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Defer with a "thinking" placeholder, remembering whether it is public."""
    await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    interaction.extras[PUBLIC_THINKING] = not ephemeral


#: Discord's error code for an interaction answered before.
ALREADY_ACKNOWLEDGED = 40060


async def read_or_warn(read: Awaitable[T], logger: logging.Logger, failed: str,
                       *args: object) -> T | None:
    """What ``read`` reads from the store; ``None`` when the store cannot answer now, which
    ``logger`` warns of (``failed % args``). For the background passes: the next pass reads
    again."""
    try:
        return await read
    except StoreError:
        logger.warning(failed, *args, exc_info=True)
        return None


def answered_elsewhere(exc: BaseException) -> bool:
    """Whether ``exc`` says the interaction was already answered (by this very request
    delivered twice, or in another process)."""
    return isinstance(exc, discord.InteractionResponded) or (
        isinstance(exc, discord.HTTPException) and exc.code == ALREADY_ACKNOWLEDGED)


def describe(interaction: discord.Interaction) -> str:
    """Where an interaction came from, for log lines."""
    data: Mapping[str, object] = interaction.data or {}
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
        await _safe_tell(interaction, words.refusal(exc))
    except (discord.InteractionResponded, discord.HTTPException) as exc:
        if not answered_elsewhere(exc):
            log.exception("unexpected error handling %s (game %s)", describe(interaction),
                          game_id)
            await _safe_tell(interaction, words.SOMETHING_WRONG)
            return
        # The same interaction delivered twice (a resumed gateway, another process): the
        # first delivery answers it; this one stops here, having changed nothing.
        log.info("%s was answered already; not handled twice", describe(interaction))
    except Exception:
        log.exception("unexpected error handling %s (game %s)", describe(interaction), game_id)
        await _safe_tell(interaction, words.SOMETHING_WRONG)


async def _safe_tell(interaction: discord.Interaction, text: str) -> None:
    try:
        await tell(interaction, text)
    except discord.HTTPException:
        log.warning("could not answer %s", describe(interaction), exc_info=True)
