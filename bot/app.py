"""Building, running and syncing the Discord bot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable, Mapping
from typing import Any

import discord

from bot.config import Settings
from bot.discord.client import CandyBot, ShardedCandyBot
from bot.discord.messages import Renderer
from bot.games.engine import Engine
from bot.games.words import plural
from bot.ops import Exit, OpsError
from bot.ops.access import discord_problem
from bot.ops.database import preflight
from bot.ops.logs import fail, setup_logging, silence_voice_warnings
from bot.store import StoreError
from bot.tables import Clock
from bot.watch import Watch, unwatched
from bot.web.run import serving

log = logging.getLogger(__name__)

NO_TOKEN_HELP = """\
candybot needs a Discord bot token in DISCORD_TOKEN (environment or a .env file).
To get one:
  1. Open https://discord.com/developers/applications and create an application.
  2. Under "Bot", press "Reset Token" and copy it.
  3. Put DISCORD_TOKEN=<your token> in .env beside the database, or export it.
Then run `candybot sync --guild <your test server id>` once, and `candybot run`.
See docs/discord.md for the invite link and permissions."""


def default_renderer() -> Renderer | None:
    """The board renderer, if the renderers package provides one."""
    try:
        from renderers import render
    except ImportError:
        log.warning("no board renderer available: messages will be text only")
        return None
    return render


def create_bot(settings: Settings, *, games: Mapping[str, Engine] | None = None,
               renderer: Renderer | None = None, clock: Clock | None = None,
               watch: Watch = unwatched) -> CandyBot:
    """The configured, unstarted bot. Touches neither the network nor the database.
    ``watch`` times where a move spends its time (the bench's; :mod:`bot.watch`)."""
    import time

    silence_voice_warnings()
    kind = CandyBot if settings.shard_count is None else ShardedCandyBot
    return kind(settings, games=games,
                renderer=renderer if renderer is not None else default_renderer(),
                clock=clock or time.time, watch=watch)


def run_bot(settings: Settings, *, debug: bool = False) -> int:
    """``candybot run``: check the database, connect and play until stopped.

    Returns the exit status (:class:`bot.Exit`); a problem the operator can fix is
    reported in one line, its traceback only with ``debug`` or ``CANDYBOT_LOG=debug``.
    """
    # _run is called by name (not passed), so tests/bot/test_exit_codes.py follows it.
    return _with_token(settings, debug, lambda settings, token: _run(settings, token))


def _run(settings: Settings, token: str) -> int:
    info = preflight(settings)
    log.debug("database %s: %s; connecting to Discord", settings.database_shown,
              info.describe_schema() if info.exists else "new, created on start")
    # Pictures are drawn in worker processes so that channels moving at once do
    # not queue for one interpreter lock (docs/benchmarks.md, load test).
    from bot.rules_work import WORK_MODULES
    from renderers.pool import PooledRenderer

    pool = PooledRenderer(preload=WORK_MODULES)
    try:
        bot = create_bot(settings, renderer=pool)
        stopped = asyncio.run(serve(bot, token))
    finally:
        pool.close()
    if stopped is not None:
        log.info("%s", stopped)
    return Exit.OK


def _with_token(settings: Settings, debug: bool, command: Callable[[Settings, str], int]) -> int:
    """Run ``command`` (given the bot's token) as an operator's command that talks to
    Discord: logging set up, no token told how to give one, and a failure told in one line
    (:func:`bot.ops.logs.fail`; its traceback only with ``debug`` or ``CANDYBOT_LOG=debug``)."""
    setup_logging(settings.log_level, debug=debug)
    debug = debug or settings.log_level == "debug"
    if not settings.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return Exit.CONFIG
    try:
        return command(settings, settings.token)
    except Exception as exc:
        return fail(_explain(exc), debug=debug)


async def serve(bot: CandyBot, token: str) -> str | None:
    """Run ``bot`` until SIGTERM or SIGINT, then stop it cleanly (:meth:`CandyBot.stop`,
    within ``CANDYBOT_STOP_SECONDS``). Serves the metrics when a port is configured.

    Returns the line that tells how the stop went, or ``None`` when the bot ended by
    itself; a failure to start (a refused token, no network) is raised. With
    ``CANDYBOT_WEB_PORT`` (and ``CANDYBOT_PUBLIC_URL``) set it serves the web companion too
    (:mod:`bot.web`), from before it connects until it has stopped.
    """
    loop = asyncio.get_running_loop()
    signalled: asyncio.Future[signal.Signals] = loop.create_future()

    def on_signal(received: signal.Signals) -> None:
        # Taps that arrive from now on are turned away, even before the stop begins.
        bot.gate.shut()
        if not signalled.done():
            signalled.set_result(received)

    stops = (signal.SIGTERM, signal.SIGINT)
    for stop in stops:
        loop.add_signal_handler(stop, on_signal, stop)
    counter = bot.metrics.error_counter()
    logging.getLogger().addHandler(counter)
    try:
        if bot.settings.metrics_port is not None:
            bot.metrics.serve(bot.settings.metrics_port, bot.settings.metrics_host)
            log.info("metrics on %s port %d (GET /metrics)", bot.settings.metrics_host,
                     bot.settings.metrics_port)
        async with contextlib.AsyncExitStack() as web:
            if bot.settings.web_port is not None:
                await web.enter_async_context(serving(bot.settings, bot.renderer))
            return await _until_stopped(bot, token, signalled)
    finally:
        logging.getLogger().removeHandler(counter)
        bot.metrics.close()
        for stop in stops:
            loop.remove_signal_handler(stop)


async def _until_stopped(bot: CandyBot, token: str,
                         signalled: asyncio.Future[signal.Signals]) -> str | None:
    """Run ``bot`` until it ends by itself or ``signalled`` is set, then stop it cleanly."""
    loop = asyncio.get_running_loop()
    async with bot:
        running = asyncio.create_task(bot.start(token), name="candybot-gateway")
        either: set[asyncio.Future[Any]] = {running, signalled}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if not signalled.done():
            running.result()
            return None
        began = loop.time()
        stopped = await bot.stop(bot.settings.stop_seconds)
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        cut = f", {stopped.cut} cut off at the deadline" if stopped.cut else ""
        return (f"stopped on {signalled.result().name} in {loop.time() - began:.1f} s: "
                f"{stopped.finished} interactions in flight finished{cut}; "
                f"{plural(stopped.queued, 'announcement')} left queued for the next start; "
                f"gateway, database and pictures closed")


def sync_commands(settings: Settings, guild_id: int | None, *, debug: bool = False) -> int:
    """``candybot sync``: register the slash commands globally or to one server."""
    return _with_token(settings, debug,
                       lambda settings, token: _sync_commands(settings, token, guild_id))


def _sync_commands(settings: Settings, token: str, guild_id: int | None) -> int:
    # The database is not needed to sync, but a wrong CANDYBOT_DB is best found now.
    preflight(settings)
    try:
        count = asyncio.run(_sync(settings, token, guild_id))
    except discord.HTTPException as exc:
        hint = ""
        if guild_id and exc.status in (403, 404):
            hint = (f": is the bot in server {guild_id}, invited with the "
                    f"applications.commands scope (see docs/discord.md)?")
        raise OpsError(Exit.FAILED, f"Discord refused the commands: {exc.status} "
                                    f"{exc.text or exc.response.reason}{hint}") from exc
    where = f"server {guild_id} (available now)" if guild_id else \
        "every server (global commands may take up to an hour to appear)"
    print(f"Registered {count} commands to {where}.")
    return Exit.OK


def _explain(exc: Exception) -> Exception:
    """An :class:`~bot.OpsError` for the failures an operator can fix; else ``exc``."""
    if isinstance(exc, OpsError):
        return exc
    problem: OpsError | None
    if isinstance(exc, StoreError):
        problem = OpsError(Exit.DATABASE_UNUSABLE,
                               f"{exc} Run `candybot check` for details.")
    else:
        problem = discord_problem(exc)
    if problem is None:
        return exc
    problem.__cause__ = exc
    return problem


async def _sync(settings: Settings, token: str, guild_id: int | None) -> int:
    # Only the HTTP login is needed to sync; the database is never opened. A plain
    # client logs in (which also learns the application id) and syncs the bot's commands.
    commands = create_bot(settings).tree.get_commands()
    client = discord.Client(intents=discord.Intents(guilds=True))
    try:
        await client.login(token)
        tree: discord.app_commands.CommandTree[discord.Client] = \
            discord.app_commands.CommandTree(client)
        for command in commands:
            tree.add_command(command)
        guild = discord.Object(id=guild_id) if guild_id else None
        if guild is not None:
            tree.copy_global_to(guild=guild)
        synced = await tree.sync(guild=guild)
        return len(synced)
    finally:
        await client.close()
