"""The bot itself: a :class:`discord.Client` with a command tree, a reminder loop, a
heartbeat (health status and metrics) and a clean stop."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot import ratings
from bot.config import Settings
from bot.discord import (
    commands,
    components,
    flows,
    organized,
    places,
    publish,
    threads,
    weblinks,
    words,
)
from bot.discord.errors import FRIENDLY, describe, tell
from bot.discord.gate import Gate
from bot.discord.messages import Pictures, Renderer
from bot.discord.options import check_options
from bot.discord.outbox import Outbox
from bot.discord.pacing import Pacer
from bot.discord.shards import IDENTIFY_WINDOW, IdentifyPacer, identify_lock_path
from bot.games.engine import Engine
from bot.games.words import plural
from bot.health import BEAT_SECONDS, Status, process_mark, status_path, write_status
from bot.limits import Cooldowns
from bot.metrics import Metrics
from bot.ops import OpsError
from bot.ops.database import inspect_target
from bot.replays import Replays
from bot.rules_work import RulesWork
from bot.store import StoreError
from bot.tables import Clock, Tables, think_here
from bot.tables.clocks import OUTAGE
from bot.tables.seasons import Seasons
from bot.tournaments import Organizer
from bot.watch import Watch, unwatched
from bot.web.service import WebService

log = logging.getLogger(__name__)

DAY = 24 * 3600.0
#: How often old announcements and departed servers' games are looked for.
HOUSEKEEPING_SECONDS = 3600.0


def freeze_heap() -> None:
    """Collect once, then keep everything the process holds now (modules, game data, fonts,
    discord.py's caches of servers and members) out of every later garbage collection.

    A full collection walks every container object the process holds and pauses the event
    loop meanwhile: with the heap of a connected bot that was 40 to 80 ms, longer than a
    whole /play (docs/benchmarks.md, "What made the difference"). Frozen objects are still freed
    when nothing refers to them; only cycles among them wait for the process to end.
    """
    gc.collect()
    gc.freeze()


class CandyTree(app_commands.CommandTree["CandyBot"]):
    """A command tree whose errors become friendly ephemeral notes."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Commands pass the bot's gate (turned away while the bot stops) and must carry
        options Discord would have sent."""
        check_options(interaction)
        return await self.client.gate.admit(interaction)

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, FRIENDLY):
            text = words.refusal(cause)
        elif isinstance(cause, app_commands.CommandSignatureMismatch):
            log.warning("mismatched options in %s", describe(interaction))
            text = words.MISMATCHED
        elif isinstance(cause, app_commands.TransformerError | app_commands.CheckFailure):
            text = str(cause) or words.CANNOT_USE_HERE
        else:
            log.error("unexpected error in %s", describe(interaction), exc_info=cause)
            text = words.SOMETHING_WRONG
        try:
            await tell(interaction, text)
        except discord.HTTPException:
            log.warning("could not report an error to %s", describe(interaction))


@dataclass(frozen=True)
class Stopped:
    """How a clean stop went: interactions finished or cut off at the deadline, and
    announcements left queued for the next start."""

    finished: int
    cut: int
    queued: int


class CandyBot(discord.Client):
    """The candybot Discord client. Network work starts only in :meth:`start`/:meth:`login`."""

    def __init__(self, settings: Settings, *, games: Mapping[str, Engine] | None = None,
                 renderer: Renderer | None = None, clock: Clock = time.time,
                 watch: Watch = unwatched) -> None:
        # Every request outside interaction answers shares one budget under Discord's
        # global limit, moves' requests first (bot.discord.pacing).
        self.pacer = Pacer(settings.requests_per_second) \
            if settings.requests_per_second > 0 else None
        paced: dict[str, Any] = {} if self.pacer is None else {
            "http_trace": self.pacer.trace(lambda: self.application_id)}
        # Slash commands and components need no privileged intents; guilds is enough.
        super().__init__(intents=discord.Intents(guilds=True),
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                                  users=True),
                         **paced, **self.connection_options(settings))
        if games is None:
            from bot.games import GAMES

            games = GAMES
        self.settings = settings
        self.games = games
        self.renderer = renderer
        self.clock = clock
        self.watch = watch
        self.cooldowns = Cooldowns(settings.limits, clock)
        self.pictures = Pictures()
        self.replays = Replays(at_once=settings.limits.heavy_at_once,
                               queue=settings.limits.heavy_queue, clock=clock)
        #: The web companion's links (its pages' addresses), with ``CANDYBOT_PUBLIC_URL``.
        self.web: WebService | None = None
        self._tables: Tables | None = None
        self._organizer: Organizer | None = None
        self._outbox: Outbox | None = None
        self._reminders: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        # Held by a reminder pass; a stop takes it so that no new pass begins.
        self._reminding = asyncio.Lock()
        self._housekept_at = 0.0
        self._heartbeat: asyncio.Task[None] | None = None
        self.metrics = Metrics()
        self.metrics.follow_latency(lambda: self.latency)
        self.gate = Gate(self.metrics.answered)
        self.status_path: Path = status_path(settings.db_path)
        # What the status says about the bot's end: sticky, so that a late event (the
        # gateway's disconnect) does not make a stopping or stopped bot read as running.
        self._stopping = False
        self._stopped = False
        self._status_written = False
        self._process = process_mark()
        self._connected = False
        self._connected_at: float | None = None
        self._connections = 0
        self._database_problem: str | None = "not open yet"
        self._announcements: tuple[int | None, float | None] = (None, None)
        self.tree = CandyTree(self)
        commands.install(self.tree, games)
        self.identify_pacer = IdentifyPacer(identify_lock_path(settings.db_path))

    @staticmethod
    def connection_options(settings: Settings) -> dict[str, Any]:
        """Keyword arguments for discord.py's client beyond intents and mentions."""
        return {}

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Space gateway logins across every process on this database (replaces
        discord.py's in-process 5 s wait, which only spaces one process's shards)."""
        if self._tables is not None and self._tables.upkeep.shared:
            # Processes on several machines share the database, not a file.
            started = self.clock()
            async with self._tables.upkeep.login_turn(IDENTIFY_WINDOW):
                waited = self.clock() - started
        else:
            waited = await self.identify_pacer.wait()
        log.debug("shard %s identifies after waiting %.1f s", shard_id, waited)

    @property
    def tables(self) -> Tables:
        """The game service; available once :meth:`setup_hook` has opened the database."""
        return _set_up(self._tables)

    @property
    def seasons(self) -> Seasons:
        """The seasons service (the tables'); available once :meth:`setup_hook` has opened
        the database."""
        return self.tables.seasons

    @property
    def organizer(self) -> Organizer:
        """The tournament service; available once :meth:`setup_hook` has opened the database."""
        return _set_up(self._organizer)

    @property
    def outbox(self) -> Outbox:
        """The announcement sender (``await bot.outbox.drain(timeout)`` before a clean stop)."""
        return _set_up(self._outbox)

    async def setup_hook(self) -> None:
        """Start the render pool's workers, open the database, register persistent
        components, start the reminder loop and the outbox's sender (which first sends what
        a previous run left queued)."""
        # The render pool's workers start now, in a thread of their own, not at the first
        # board: a Start pressed meanwhile has its board drawn here (renderers.pool).
        warm = getattr(self.renderer, "warm", None)
        if callable(warm):
            warm()
        self._stopping = self._stopped = False
        # With a pool of worker processes, AI seats think there too (bot.rules_work), and
        # moves are worked out there (the pool's offload, which then draws their boards).
        work = RulesWork.of(self.renderer)
        self._tables = await Tables.open(
            self.settings.database, self.games, self.clock, on_moves=self.metrics.moved,
            limits=self.settings.limits, watch=self.watch,
            think=work.think if work is not None else think_here,
            offload=work.workers.offload if work is not None else None)
        self._organizer = Organizer.over(self._tables)
        ratings.warm()  # not at the first finished game, inside its commit
        if self.settings.public_url is not None:
            self.web = WebService.over(self._tables, self.settings.public_url,
                                       renderer=self.renderer)
        # The bot is up from now: a clock never charges the time it was down (the gap
        # since the last beat of its previous run). Each reminder pass beats, so a bot that
        # passes less often than the usual outage is given three passes' time.
        self._tables.clocks.outage = max(OUTAGE, 3 * self.settings.reminder_poll_seconds)
        await self._tables.clocks.beat()
        self._outbox = Outbox(self._tables.announcements, self, self.clock, games=self.games,
                              shows={**publish.shows(self), "standings":
                                     lambda row, hand: organized.show_standings(self, row)},
                              directs=lambda row: publish.turn_dm(self, row))
        # What a process that died here left half-sent is taken over now (its boards are
        # drawn by the render workers started above, or here until they are up).
        await self._outbox.take_over()
        self.add_dynamic_items(*components.DYNAMIC_ITEMS)
        self._reminders = asyncio.create_task(self._reminder_loop(), name="candybot-reminders")
        self._sender = asyncio.create_task(self._sender_loop(), name="candybot-outbox")
        await self.beat()

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Log in, set up and connect (as discord.py does), with the heartbeat writing the
        health status meanwhile."""
        if self._heartbeat is None:
            self._heartbeat = asyncio.create_task(self._heartbeat_loop(),
                                                  name="candybot-heartbeat")
        await super().start(token, reconnect=reconnect)

    async def stop(self, timeout: float) -> Stopped:
        """A clean stop: turn new interactions away, give those being handled (and a
        reminder pass under way) up to ``timeout`` seconds, send the announcements that
        wait in what is left of it (the rest stay queued for the next start), then
        :meth:`close`.

        Every move is committed with its announcements before anything is posted, so an
        interaction cut off at the deadline has either stored its move whole or not at all.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self._stopping = True
        self._write_status()
        drained = await self.gate.close(timeout)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._reminding.acquire(), max(0.0, deadline - loop.time()))
        queued = 0
        if self._outbox is not None:
            try:
                queued = await self._outbox.drain(max(0.0, deadline - loop.time()))
            except Exception:
                log.exception("sending the announcements that wait failed; they stay queued")
        await self.close()
        return Stopped(drained.finished, drained.cut, queued)

    async def close(self) -> None:
        """Stop the loops and release the gateway and the database (its log checkpointed;
        queued announcements stay queued); then, if this bot wrote a health status, say in
        it that the bot has stopped (``candybot health``, ``candybot restore``)."""
        for task in (self._reminders, self._sender, self._heartbeat):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._reminders = self._sender = self._heartbeat = None
        self.gate.shut()
        await publish.stop_movements(self)
        await super().close()
        if self._outbox is not None:
            await self._outbox.close()
        if self._tables is not None:
            await self._tables.close()
            self.web = None
            self._tables = None
            self._organizer = None
            self._outbox = None
        self.metrics.close()
        if self._status_written:
            self._connected, self._stopped = False, True
            self._write_status()

    async def send_due(self) -> int:
        """One pass of the reminder loop: send what is due now (and, once an hour, forget
        what is kept no longer: :meth:`housekeeping`)."""
        count = await flows.send_due(self, self.settings.opening_grace_seconds)
        if self.clock() - self._housekept_at >= HOUSEKEEPING_SECONDS:
            await self.housekeeping()
        return count

    async def housekeeping(self) -> tuple[int, list[int]]:
        """Delete announcements delivered more than ``keep_days`` ago, and the games of
        servers that removed the bot more than ``grace_days`` ago (docs/privacy.md);
        how many announcements, and which servers."""
        now = self.clock()
        self._housekept_at = now
        pruned, purged = await self.tables.upkeep.housekeeping(
            delivered_before=now - self.settings.keep_days * DAY,
            removed_before=now - self.settings.grace_days * DAY)
        if pruned or purged:
            log.info("housekeeping: %s deleted; %s", plural(pruned, "old announcement"),
                     f"the games of {plural(len(purged), 'server')} that removed the bot "
                     f"dropped" if purged else "no server's games dropped")
        return pruned, purged

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """A server removed the bot: its lobbies close now, its games are dropped after the
        grace period unless it adds the bot back (docs/privacy.md)."""
        if self._tables is None:
            return
        try:
            closed = await self._tables.places.server_gone(guild.id)
        except StoreError:
            log.exception("could not note that server %s removed the bot", guild.id)
            return
        log.info("server %s removed the bot: %s closed; its games are kept %g days",
                 guild.id, plural(closed, "lobby", "lobbies"), self.settings.grace_days)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A server added the bot (again): whatever it had is kept."""
        if self._tables is None:
            return
        try:
            await self._tables.places.server_back(guild.id)
        except StoreError:
            log.exception("could not note that server %s added the bot", guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server announced on connecting: catch up with what changed there while the
        bot was away (deleted threads and channels end their games, archived threads
        reopen, locks lifted let games go on, a deleted games channel lapses). The lobbies
        a stopped bot left half-opened are settled by the reminder pass, which runs as
        soon as the bot is ready (:mod:`bot.discord.opening`)."""
        if self._tables is None:
            return
        await places.reconcile(self, guild)
        allowed = (await self.tables.lobbies.server_defaults(guild.id)).get("channels") or ()
        gone = [int(c) for c in allowed if guild.get_channel(int(c)) is None]
        if gone:
            await self.tables.lobbies.lapse_channels(guild.id, gone)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Discord changed a thread: a game going on in it must not stay archived (an
        archived thread delivers no click or command), waits while a moderator keeps it
        locked, and goes on once they unlock it."""
        if self._tables is None:
            return
        metadata = payload.data.get("thread_metadata", {})
        await places.thread_updated(self, payload.thread_id,
                                     archived=bool(metadata.get("archived")),
                                     locked=bool(metadata.get("locked")))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread was deleted: the game ends without a result, and its page on the
        web goes."""
        if self._tables is not None:
            await threads.channel_gone(self, payload.thread_id, thread=True)
            await weblinks.channel_deleted(self, payload.thread_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its games, and those of its threads, end without a
        result, and their pages on the web go; as the server's games channel, it lapses."""
        if self._tables is not None:
            await threads.channel_gone(self, channel.id, thread=False)
            await weblinks.channel_deleted(self, channel.id)
            await self.tables.lobbies.lapse_channels(channel.guild.id, [channel.id])

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
            async with self._reminding:
                try:
                    await self.send_due()
                except Exception:
                    log.exception("the reminder pass failed; trying again later")
            await asyncio.sleep(self.settings.reminder_poll_seconds)

    # ----------------------------------------------------------------- health

    async def beat(self) -> Status:
        """Check the database, refresh the metrics and write the status file once."""
        if self._tables is None:
            self._database_problem = "not open"
        else:
            try:
                counts, self._announcements = await self._tables.upkeep.health()
                self.metrics.set_open_games(counts)
                self.metrics.announcements_waiting.set(self._announcements[0])
                self._database_problem = None
            except StoreError as exc:
                self._database_problem = str(exc)
        return self._write_status()

    def _write_status(self) -> Status:
        """Write what the bot knows now (the database and the outbox as the last beat
        found them)."""
        database_problem = self._database_problem
        waiting, due = self._announcements
        now = time.time()
        if self._connected:
            self._connected_at = now
        latency = self.latency
        status = Status(
            written_at=now, pid=os.getpid(), connected=self._connected,
            connected_at=self._connected_at,
            latency_ms=latency * 1000 if math.isfinite(latency) else None,
            database_ok=database_problem is None, database_problem=database_problem,
            stopping=self._stopping, stopped=self._stopped, process=self._process,
            announcements_waiting=waiting, announcement_due_at=due)
        try:
            write_status(self.status_path, status)
            self._status_written = True
        except OSError as exc:
            log.warning("could not write the health status %s: %s", self.status_path, exc)
        return status

    async def _heartbeat_loop(self) -> None:
        while not self.is_closed():
            await asyncio.sleep(BEAT_SECONDS)
            try:
                await self.beat()
            except Exception:
                log.exception("the heartbeat failed; trying again later")

    def _gateway(self, connected: bool) -> None:
        self._connected = connected
        self._write_status()

    async def on_connect(self) -> None:
        self._connections += 1
        if self._connections > 1:
            self.metrics.reconnects.inc()
        self._gateway(True)

    async def on_resumed(self) -> None:
        self.metrics.reconnects.inc()
        self._gateway(True)

    async def on_disconnect(self) -> None:
        self._gateway(False)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer clicks on components no handler takes, instead of letting them fail."""
        try:
            await components.answer_unrecognised(interaction)
        except discord.HTTPException:
            log.warning("could not answer %s", describe(interaction), exc_info=True)

    async def on_ready(self) -> None:
        freeze_heap()  # the caches Discord has just filled are with the bot for good
        log.info("%s", await self.ready_message())

    async def ready_message(self) -> str:
        """The one line logged when the bot is connected: who, where, how busy, which
        database (read through SQLite only, so the store's locks stay intact)."""
        path = self.settings.database_shown
        try:
            info = await asyncio.to_thread(inspect_target, self.settings.database, probe=False)
            games, schema = plural(info.active, "active game"), f"schema {info.schema}"
        except OpsError as exc:
            games, schema = "active games unknown", str(exc)
        return (f"ready as {self.user}; {plural(len(self.guilds), 'server')}; {games}; "
                f"database {path} ({schema})")


class ShardedCandyBot(CandyBot, discord.AutoShardedClient):
    """The bot on the shards ``--shard-count``/``--shard-ids`` name (discord.py's
    AutoShardedClient): several processes, each with some of the shards, split the servers.

    Nothing a tap needs is kept in memory: custom ids carry the game, the version and the
    choice, and the database holds the rest, so whichever process Discord hands a tap to
    can answer it.
    """

    @staticmethod
    def connection_options(settings: Settings) -> dict[str, Any]:
        ids = list(settings.shard_ids) if settings.shard_ids is not None else None
        return {"shard_count": settings.shard_count, "shard_ids": ids}


Service = TypeVar("Service")


def _set_up(service: Service | None) -> Service:
    """``service``, which :meth:`CandyBot.setup_hook` makes once it has opened the database."""
    if service is None:
        raise RuntimeError("The bot has not been set up yet (setup_hook opens the database).")
    return service
