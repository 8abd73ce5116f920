"""The offline Discord over real sockets: discord.py's own HTTP client talks to it.

:mod:`tools.offline` replaces the bot's ``http.request`` in-process, so discord.py's
rate-limit handling (its per-route buckets learnt from the headers, its retries of 429s
and 5xx, its global lock) never runs. Here an ``aiohttp`` server on a loopback port
answers Discord's REST routes through the same :class:`~tools.offline.Recorder`, with
the headers and the 429s of its :attr:`~tools.offline.Recorder.limits`, and
``discord.http.Route.BASE`` points discord.py at it: the bot's requests, interaction
responses included, go through discord.py exactly as they go to Discord, and through the
bot's own pacing (:mod:`bot.discord.pacing`, an ``aiohttp`` trace on its session).

The server runs in a thread of its own with its own event loop, so that the bot's loop
holds none of its tasks (:func:`tools.offline.settle` waits for the bot's tasks only).
The gateway is still fed in-process (:class:`tools.offline.Gateway`)::

    recorder = Recorder()
    recorder.limits = RateLimits(application_id=APP_ID)
    with OfflineServer(recorder) as server:
        gateway = await server.connect(bot)
        ...
        await bot.close()
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import socket
import threading
from types import TracebackType
from typing import Any

import aiohttp
import discord
from aiohttp import web
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.discord.client import CandyBot
from tools.offline import APP_ID, BOT_USER, Gateway, Recorder
from tools.ratelimits import VIA, OverLimit

log = logging.getLogger(__name__)

#: The base every URL is recorded under, as :class:`~tools.offline.Recorder` reads URLs.
DISCORD_API = "https://discord.com/api/v10"
#: The token the bot logs in to the offline Discord with.
TOKEN = "offline-token"


class OfflineServer:
    """The offline Discord's REST API on ``127.0.0.1``, answered by ``recorder``."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(512)
        self.base = f"http://127.0.0.1:{self._sock.getsockname()[1]}/api/v10"
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._base_before: str | None = None

    # ----------------------------------------------------------------- lifecycle

    def start(self) -> OfflineServer:
        """Serve in a thread of its own and point discord.py at it."""
        ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(ready,),
                                        name="offline-discord", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the offline Discord's server did not start")
        self._base_before = Route.BASE
        Route.BASE = self.base
        return self

    def stop(self) -> None:
        """Stop serving and point discord.py back at Discord."""
        if self._base_before is not None:
            Route.BASE = self._base_before
            self._base_before = None
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        self._loop = self._thread = None

    def __enter__(self) -> OfflineServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    async def connect(self, bot: CandyBot) -> Gateway:
        """Set ``bot`` up as logging in would, its HTTP client logged in to this server
        (discord.py's own session, with the bot's pacing trace); the gateway that feeds it
        interactions."""
        await bot._async_setup_hook()
        await bot.http.static_login(TOKEN)
        await bot.setup_hook()
        bot._connection.application_id = APP_ID
        bot._connection.user = discord.ClientUser(state=bot._connection, data=BOT_USER)  # type: ignore[arg-type]
        # Interaction responses go through discord.py's own webhook adapter (the in-process
        # offline Discord swaps it for one that calls the recorder).
        async_context.set(AsyncWebhookAdapter())
        return Gateway(bot, self.recorder)

    def _serve(self, ready: threading.Event) -> None:
        loop = self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._answer)
        runner = web.AppRunner(app, access_log=None)
        loop.run_until_complete(runner.setup())
        loop.run_until_complete(web.SockSite(runner, self._sock).start())
        ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(runner.cleanup())
            loop.close()

    # ----------------------------------------------------------------- answering

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        payload, multipart = await _body(request)
        limits = self.recorder.limits
        via = "webhook" if path.startswith(("/interactions/", "/webhooks/")) else "http"
        try:
            if method == "GET" and path == "/users/@me":  # logging in
                over = limits.admit(method, path) if limits is not None else None
                if over is not None:
                    raise over
                data: Any = BOT_USER
            else:
                data = self.recorder._handle(via, method, DISCORD_API + path, payload,
                                             multipart)
        except OverLimit as over:
            if isinstance(over.body, str):  # banned: Cloudflare's page, no Via
                return web.Response(status=429, text=over.body, headers=over.headers)
            return _json(over.body, 429, over.headers)
        except discord.HTTPException as exc:
            if limits is not None:
                limits.answered(exc.status)
            return _error(exc, limits.headers(method, path) if limits is not None else {})
        except AssertionError as exc:  # a route the offline Discord does not know
            log.error("offline Discord: %s", exc)
            return _json({"message": str(exc), "code": 0}, 400, {})
        headers = limits.headers(method, path) if limits is not None else {}
        if data is None:
            return web.Response(status=204, headers=headers)
        return _json(data, 200, headers)


async def _body(request: web.Request) -> tuple[dict[str, Any] | None,
                                                list[dict[str, Any]] | None]:
    """The JSON payload, or the multipart form (as discord.py builds it: ``payload_json``
    and the files), of a request."""
    if request.content_type.startswith("multipart/"):
        parts: list[dict[str, Any]] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, aiohttp.BodyPartReader):
                continue
            data = bytes(await part.read())
            if part.name == "payload_json":
                parts.append({"name": "payload_json", "value": data.decode()})
            else:
                parts.append({"name": part.name or "", "filename": part.filename or "",
                              "value": io.BytesIO(data)})
        return None, parts
    text = await request.text()
    return (json.loads(text) if text else None), None


def _error(exc: discord.HTTPException, headers: dict[str, str]) -> web.Response:
    """Discord's answer for an error the recorder raised (a refusal, an injected failure)."""
    body: dict[str, Any] = {"message": exc.text, "code": exc.code}
    if exc.status == 429:
        retry_after = float(getattr(exc, "retry_after", None) or 1.0)
        body.update(retry_after=retry_after, **{"global": False})
        headers = {**headers, "Via": VIA, "Retry-After": str(max(1, round(retry_after))),
                   "X-RateLimit-Scope": "user"}
    return _json(body, exc.status, headers)


def _json(data: Any, status: int, headers: dict[str, str]) -> web.Response:
    """A JSON answer as Discord sends it: discord.py reads a body as JSON only when its
    content type is exactly ``application/json`` (no charset)."""
    return web.Response(status=status, body=json.dumps(data).encode(),
                        headers={**headers, "Content-Type": "application/json"})
