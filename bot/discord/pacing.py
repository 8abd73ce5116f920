"""The bot paces its own requests under Discord's global rate limit.

Discord answers a bot that sends more than 50 requests in a second with a global 429,
and discord.py only reacts to those: it stops every request of the bot for the
``retry_after`` the answer names, so one burst of announcements (a reminder pass, the
end of quiet hours, an outage over) holds up every move's board and ping behind it,
and each 429 counts towards the invalid requests that get the bot's IP banned
(docs/reliability.md, "Discord's rate limits").

:class:`Pacer` is one budget, :data:`DEFAULT_PER_SECOND` requests a second, evenly
spaced (at most that plus a burst of :data:`BURST` in any second), shared by every
request the bot sends to Discord's REST API except interaction responses and followups
(Discord does not count those against the global limit). It is wired into discord.py's
HTTP session as an ``aiohttp`` trace (:meth:`Pacer.trace`, passed as the client's
``http_trace``), so it paces each request at the moment it is sent: after discord.py
has waited for the request's own per-route bucket, and again for each retry.

Requests made while answering someone (a move's board, the ping it carries, the older
announcements of its channel it delivers first) go before background work: a task that
runs inside :func:`background` (the outbox's sender, the reminder pass, a movement GIF
added to a board, a lobby message refreshed) waits behind every urgent request. Within
each kind, requests go in the order they asked, so the announcements of a channel, which
the outbox sends one after another, stay in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from types import SimpleNamespace

import aiohttp

from bot.config import DEFAULT_PER_SECOND

#: Requests that may go at once after a quiet moment (a move's board and the buttons
#: taken off the previous one), beyond the steady pace. Kept small: whatever the pace lets
#: go in one second may reach Discord in a shorter span (measured under load, a few
#: requests more in some second than were sent in any), and Discord counts what arrives.
BURST = 2

_BACKGROUND: ContextVar[bool] = ContextVar("candybot_background_request", default=False)


@contextlib.contextmanager
def background() -> Iterator[None]:
    """Requests sent inside this block (and by tasks it starts) are background work: they
    wait behind every request made while answering someone."""
    token = _BACKGROUND.set(True)
    try:
        yield
    finally:
        _BACKGROUND.reset(token)


def in_background() -> bool:
    """Whether the running code sends its requests as background work."""
    return _BACKGROUND.get()


def bound_by_global(path: str, application_id: int | None = None) -> bool:
    """Whether a request to ``path`` counts towards the global limit: every route of
    Discord's REST API (``/api/v10/...``) but interaction callbacks and the application's
    followups and their edits (``/webhooks/<application id>/<token>``). Anything else
    (the gateway, the CDN) is not a REST request."""
    parts = path.strip("/").split("/")
    if len(parts) < 2 or parts[0] != "api" or not parts[1].startswith("v"):
        return False
    route = parts[2:]
    if not route or route[0] == "interactions":
        return False
    if route[0] == "webhooks":
        return application_id is not None and route[1:2] != [str(application_id)]
    return True


class Pacer:
    """One request every ``1/per_second`` seconds, and up to ``burst`` at once after a quiet
    moment (a token bucket), so at most ``per_second + burst`` go in any second; urgent
    requests first, then background ones, each kind in the order it asked.

    ``clock`` and ``sleep`` are the time the budget is counted in (a test drives both).
    """

    def __init__(self, per_second: int = DEFAULT_PER_SECOND, *, burst: int = BURST,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        if per_second < 1 or burst < 1:
            raise ValueError("a pace needs at least one request a second, and a burst of one")
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self.sleep = sleep
        self._interval = 1.0 / per_second
        #: When the bucket would be full again, had nothing more gone meanwhile.
        self._full_at = -math.inf
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._background: deque[asyncio.Future[None]] = deque()
        self._pump: asyncio.Task[None] | None = None
        #: Requests let go, and how many of them waited for the budget.
        self.granted = 0
        self.waited = 0

    @property
    def waiting(self) -> int:
        """Requests waiting for the budget now."""
        return sum(not f.done() for f in (*self._urgent, *self._background))

    def _wait(self, now: float) -> float:
        """How long until one more request may go (0: now)."""
        wait = self._full_at - (self.burst - 1) * self._interval - now
        return wait if wait > 1e-9 else 0.0  # not a rounding error's worth of waiting

    def _grant(self, now: float) -> None:
        self._full_at = max(self._full_at, now) + self._interval
        self.granted += 1

    async def acquire(self, urgent: bool | None = None) -> None:
        """Wait until the budget lets one more request go. ``urgent`` defaults to whether
        the caller is outside :func:`background`."""
        if urgent is None:
            urgent = not in_background()
        ahead = self._urgent if urgent else (*self._urgent, *self._background)
        now = self.clock()
        if not any(not f.done() for f in ahead) and self._wait(now) <= 0:
            self._grant(now)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        (self._urgent if urgent else self._background).append(future)
        self.waited += 1
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._run(), name="candybot-pacer")
        await future

    def _next(self) -> asyncio.Future[None] | None:
        """The first waiter still waiting: urgent ones first (a cancelled one is dropped)."""
        for line in (self._urgent, self._background):
            while line:
                future = line.popleft()
                if not future.done():
                    return future
        return None

    async def _run(self) -> None:
        """Let the waiting requests go as the budget frees, then end."""
        while self._urgent or self._background:
            now = self.clock()
            wait = self._wait(now)
            if wait > 0:
                await self.sleep(wait)
                continue
            future = self._next()
            if future is not None:
                self._grant(now)
                future.set_result(None)

    def trace(self, application_id: Callable[[], int | None]) -> aiohttp.TraceConfig:
        """The trace that makes a client session pace its requests (discord.py's
        ``http_trace``); ``application_id`` tells which webhooks are interaction followups."""
        config = aiohttp.TraceConfig()

        async def on_request_start(session: aiohttp.ClientSession, context: SimpleNamespace,
                                   params: aiohttp.TraceRequestStartParams) -> None:
            if bound_by_global(params.url.path, application_id()):
                await self.acquire()

        config.on_request_start.append(on_request_start)
        return config
