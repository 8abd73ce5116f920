"""Running the web companion: inside ``candybot run`` when it is set, or alone as
``candybot web`` on the same database (another process, another machine on PostgreSQL)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import signal
from collections.abc import AsyncIterator, Callable

from bot.config import Settings
from bot.games.engine import View
from bot.ops import Exit, OpsError
from bot.ops.database import preflight
from bot.ops.logs import fail, setup_logging
from bot.store import Store, StoreError
from bot.web.server import WebServer
from bot.web.service import WebService

log = logging.getLogger(__name__)

OFF = ("The web companion is off: set CANDYBOT_WEB_PORT (the port it listens on) and "
       "CANDYBOT_PUBLIC_URL (the address people reach it at), then run `candybot web` "
       "again (docs/web.md).")


@contextlib.asynccontextmanager
async def serving(settings: Settings,
                  renderer: Callable[[View], bytes] | None = None) -> AsyncIterator[WebServer]:
    """The web companion on ``settings``' database, listening until the block ends.

    Raises :class:`~bot.ops.OpsError` (:data:`Exit.PORT_TAKEN`) when it cannot listen on
    its port."""
    assert settings.web_port is not None and settings.public_url is not None
    store = await Store.open(settings.database)
    try:
        site = WebServer(WebService(store, settings.public_url, renderer=renderer))
        try:
            await site.start(settings.web_host, settings.web_port)
        except OSError as exc:
            taken = "is taken by another program" if exc.errno == errno.EADDRINUSE else \
                f"cannot be used ({exc.strerror or exc})"
            raise OpsError(Exit.PORT_TAKEN,
                           f"The web companion's port {settings.web_host}:{settings.web_port} "
                           f"{taken}: choose another CANDYBOT_WEB_PORT, or stop what holds "
                           f"it.") from exc
        log.info("web companion on %s port %d, reached at %s", settings.web_host, site.port,
                 settings.public_url)
        try:
            yield site
        finally:
            await site.close()
    finally:
        await store.close()


def run_web(settings: Settings, *, debug: bool = False) -> int:
    """``candybot web``: the web companion alone, on the bot's database, until SIGTERM or
    SIGINT (exit 0). Its pictures are drawn in worker processes, as the bot's are."""
    setup_logging(settings.log_level, debug=debug)
    debug = debug or settings.log_level == "debug"
    if settings.web_port is None:
        return fail(OpsError(Exit.CONFIG, OFF), debug=debug)
    try:
        preflight(settings)
        from renderers.pool import PooledRenderer

        pool = PooledRenderer()
        try:
            asyncio.run(_until_stopped(settings, pool))
        finally:
            pool.close()
    except OpsError as exc:
        return fail(exc, debug=debug)
    except StoreError as exc:
        return fail(OpsError(Exit.DATABASE_UNUSABLE,
                             f"{exc} Run `candybot check` for details."), debug=debug)
    except Exception as exc:
        return fail(exc, debug=debug)
    log.info("web companion stopped")
    return Exit.OK


async def _until_stopped(settings: Settings, renderer: Callable[[View], bytes]) -> None:
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    stops = (signal.SIGTERM, signal.SIGINT)
    for stop in stops:
        loop.add_signal_handler(stop, stopped.set)
    try:
        async with serving(settings, renderer):
            await stopped.wait()
    finally:
        for stop in stops:
            loop.remove_signal_handler(stop)
