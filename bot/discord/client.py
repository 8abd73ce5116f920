"""The bot itself: a :class:`discord.Client` with a command tree and a reminder loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.config import Settings
from bot.discord import commands, components, flows
from bot.discord.errors import FRIENDLY, SOMETHING_WRONG, describe, tell
from bot.discord.messages import Animator, Renderer, announcement
from bot.discord.outbox import Outbox
from bot.games.engine import Game
from bot.games.words import plural
from bot.ops import OpsError
from bot.ops.database import inspect_database
from bot.store import Store
from bot.tables import Clock, Tables

log = logging.getLogger(__name__)


class CandyTree(app_commands.CommandTree["CandyBot"]):
    """A command tree whose errors become friendly ephemeral notes."""

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, FRIENDLY):
            text = str(cause)
        elif isinstance(cause, app_commands.TransformerError | app_commands.CheckFailure):
            text = str(cause) or "That command cannot be used like that here."
        else:
            log.error("unexpected error in %s", describe(interaction), exc_info=cause)
            text = SOMETHING_WRONG
        try:
            await tell(interaction, text)
        except discord.HTTPException:
            log.warning("could not report an error to %s", describe(interaction))


class CandyBot(discord.Client):
    """The candybot Discord client. Network work starts only in :meth:`start`/:meth:`login`."""

    def __init__(self, settings: Settings, *, games: Mapping[str, Game] | None = None,
                 renderer: Renderer | None = None, animator: Animator | None = None,
                 clock: Clock = time.time) -> None:
        # Slash commands and components need no privileged intents; guilds is enough.
        super().__init__(intents=discord.Intents(guilds=True),
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                                  users=True))
        if games is None:
            from bot.games import GAMES

            games = GAMES
        self.settings = settings
        self.games = games
        self.renderer = renderer
        self.animator = animator
        self.clock = clock
        self.store: Store | None = None
        self._tables: Tables | None = None
        self._outbox: Outbox | None = None
        self._reminders: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self.tree = CandyTree(self)
        commands.install(self.tree, games)

    @property
    def tables(self) -> Tables:
        """The game service; available once :meth:`setup_hook` has opened the database."""
        if self._tables is None:
            raise RuntimeError("The bot has not been set up yet (setup_hook opens the database).")
        return self._tables

    @property
    def outbox(self) -> Outbox:
        """The announcement sender (``await bot.outbox.drain(timeout)`` before a clean stop)."""
        if self._outbox is None:
            raise RuntimeError("The bot has not been set up yet (setup_hook opens the database).")
        return self._outbox

    async def setup_hook(self) -> None:
        """Open the database, register persistent components, start the reminder loop and
        the outbox's sender (which first sends what a previous run left queued)."""
        self.store = await Store.open(self.settings.db_path)
        self._tables = Tables(self.store, self.games, self.clock, announcer=announcement)
        self._outbox = Outbox(self.store, self, self.clock)
        self.add_dynamic_items(*components.DYNAMIC_ITEMS)
        self._reminders = asyncio.create_task(self._reminder_loop(), name="candybot-reminders")
        self._sender = asyncio.create_task(self._sender_loop(), name="candybot-outbox")

    async def close(self) -> None:
        """Stop the loops and release the database (queued announcements stay queued)."""
        for task in (self._reminders, self._sender):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._reminders = self._sender = None
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None
            self._tables = None
            self._outbox = None

    async def send_due(self) -> int:
        """One pass of the reminder loop: send what is due now."""
        return await flows.send_due(self)

    async def _sender_loop(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.outbox.run()
            except Exception:
                log.exception("the outbox's sender failed; starting it again")
                await asyncio.sleep(self.settings.reminder_poll_seconds)

    async def _reminder_loop(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.send_due()
            except Exception:
                log.exception("the reminder pass failed; trying again later")
            await asyncio.sleep(self.settings.reminder_poll_seconds)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer clicks on components no handler takes, instead of letting them fail."""
        try:
            await components.answer_unrecognised(interaction)
        except discord.HTTPException:
            log.warning("could not answer %s", describe(interaction), exc_info=True)

    async def on_ready(self) -> None:
        log.info("%s", await self.ready_message())

    async def ready_message(self) -> str:
        """The one line logged when the bot is connected: who, where, how busy, which
        database (read through SQLite only, so the store's locks stay intact)."""
        path = self.settings.db_path
        try:
            info = await asyncio.to_thread(inspect_database, path, probe=False)
            games, schema = plural(info.active, "active game"), f"schema {info.schema}"
        except OpsError as exc:
            games, schema = "active games unknown", str(exc)
        return (f"ready as {self.user}; {plural(len(self.guilds), 'server')}; {games}; "
                f"database {path} ({schema})")
