"""The web companion's site over aiohttp: routes, headers and limits for a site strangers open.

Routes (``<token>`` is a link's token; anything else answers 404):

* ``/g/<token>`` a game's page, ``/g/<token>/live`` what it fetches to follow the game,
  ``/g/<token>/board.png`` its board now;
* ``/g/<token>/replay?move=N`` the replay, ``/g/<token>/move/<N>.png`` and ``.json`` the
  picture and words of one position;
* ``/s/<token>`` a server's leaderboards; ``/t/<token>`` a tournament's standings, rounds
  and tables;
* ``/static/web.js``, ``/static/web.css``, ``/robots.txt``, ``/``.

Every answer carries a strict Content-Security-Policy (its own files only: no inline
script or style, nothing from another site), ``noindex``, no referrer and no cookie; only
GET and HEAD are served. Each client address may ask :data:`PER_SECOND` a second with
bursts of :data:`BURST`; past that it is answered 429 with ``Retry-After``.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from bot.refusals import Busy
from bot.web import pages
from bot.web.service import GamePage, NotFound, WebService

log = logging.getLogger(__name__)

#: What a client address may ask: requests a second, and a burst after a quiet moment (a
#: page is four requests; a replay stepped with a held arrow key a picture and its words
#: per step).
PER_SECOND, BURST = 10.0, 60.0
#: Client addresses remembered by the limiter (the least recently seen are forgotten).
CLIENTS = 10_000
#: Where a page may fetch from: itself only.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}
#: How long a browser may keep what: pages and their data are asked afresh (a move, a
#: revoked link, a forgotten name show at once); pictures of a position a minute.
NO_STORE, PICTURE_CACHE, STATIC_CACHE = "no-store", "private, max-age=60", "public, max-age=3600"
ROBOTS = "User-agent: *\nDisallow: /\n"
#: Pages and their data kept as written, for the games being watched.
WRITTEN = 512
#: The most positions a replay may have (a move number past it is not even parsed).
MOVE_DIGITS = 6


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath(name).read_bytes()


class ClientLimiter:
    """A token bucket per client address: ``rate`` a second, ``burst`` at most."""

    def __init__(self, rate: float = PER_SECOND, burst: float = BURST,
                 clock: Callable[[], float] = time.monotonic, size: int = CLIENTS) -> None:
        self.rate, self.burst, self._clock, self._size = rate, burst, clock, size
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def wait(self, client: str) -> float:
        """Take a request from ``client``'s bucket: 0 when it may go, else the seconds
        until it may ask again (nothing taken)."""
        now = self._clock()
        tokens, at = self._buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return (1 - tokens) / self.rate
        self._buckets[client] = (tokens - 1, now)
        self._buckets.move_to_end(client)
        while len(self._buckets) > self._size:
            self._buckets.popitem(last=False)
        return 0.0


def client_address(request: web.BaseRequest) -> str:
    """Who asks: the peer's address, or, when the peer is this machine (a reverse proxy
    in front of the companion), the address it names last in ``X-Forwarded-For``."""
    peer = request.remote or ""
    try:
        local = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        local = False
    forwarded = request.headers.get("X-Forwarded-For", "")
    if local and forwarded:
        return forwarded.rsplit(",", 1)[-1].strip()[:64] or peer
    return peer


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class WebServer:
    """The site of :class:`~bot.web.service.WebService` (see the module text)."""

    def __init__(self, service: WebService, *, limiter: ClientLimiter | None = None) -> None:
        self.service = service
        self.root = urlsplit(service.public_url).path.rstrip("/")
        self.limiter = limiter or ClientLimiter()
        self._files = {"web.js": (_static("web.js"), "text/javascript"),
                       "web.css": (_static("web.css"), "text/css")}
        self.app = web.Application(middlewares=[self._guard])
        get = self.app.router.add_get
        get("/", self._home)
        get("/robots.txt", self._robots)
        get("/static/{name}", self._file)
        get("/g/{token}", self._game)
        get("/g/{token}/live", self._live)
        get("/g/{token}/board.png", self._board)
        get("/g/{token}/replay", self._replay)
        move = "/g/{token}/move/{n:[0-9]{1,%d}}" % MOVE_DIGITS  # noqa: UP031 (braces)
        get(move + ".png", self._move_picture)
        get(move + ".json", self._move_words)
        get("/s/{token}", self._server)
        get("/t/{token}", self._tournament)
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self._texts: OrderedDict[tuple[str, GamePage], str] = OrderedDict()

    # ----------------------------------------------------------------- serving

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host:port`` (port 0: any free port, then :attr:`port` says which)."""
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = int(sockets[0].getsockname()[1]) if sockets else port

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ----------------------------------------------------------------- the guard

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Limits, errors and the headers every answer carries."""
        wait = self.limiter.wait(client_address(request))
        response: web.StreamResponse
        if wait:
            response = web.Response(status=429, text="Too many requests: slow down.\n",
                                    headers={"Retry-After": str(math.ceil(wait))})
        else:
            try:
                response = await handler(request)
            except NotFound:
                response = self._html(pages.not_found_page(self.root), status=404)
            except Busy as exc:
                seconds = max(1, math.ceil(exc.retry_at - self.service.clock()))
                response = self._html(pages.busy_page(self.root, seconds), status=503)
                response.headers["Retry-After"] = str(seconds)
            except web.HTTPException as exc:
                if exc.status not in (404, 405):
                    raise
                response = self._html(pages.not_found_page(self.root), status=exc.status)
                if exc.status == 405:
                    response.headers["Allow"] = "GET, HEAD"
        response.headers.update(HEADERS)
        response.headers.setdefault("Cache-Control", NO_STORE)
        return response

    @staticmethod
    def _html(text: str, status: int = 200) -> web.Response:
        return web.Response(text=text, status=status, content_type="text/html",
                            charset="utf-8")

    @staticmethod
    def _json(data: Any) -> web.Response:
        return web.Response(text=json.dumps(data, separators=(",", ":")),
                            content_type="application/json")

    @staticmethod
    def _png(data: bytes) -> web.Response:
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": PICTURE_CACHE})

    # ----------------------------------------------------------------- routes

    async def _home(self, request: web.Request) -> web.Response:
        return self._html(pages.home_page(self.root))

    async def _robots(self, request: web.Request) -> web.Response:
        return web.Response(text=ROBOTS, content_type="text/plain")

    async def _file(self, request: web.Request) -> web.Response:
        found = self._files.get(request.match_info["name"])
        if found is None:
            raise NotFound()
        body, kind = found
        return web.Response(body=body, content_type=kind, charset="utf-8",
                            headers={"Cache-Control": STATIC_CACHE})

    async def _game(self, request: web.Request) -> web.Response:
        page = await self.service.game(request.match_info["token"])
        return self._html(self._written(("page", page), lambda: pages.game_page(self.root,
                                                                                 page)))

    async def _live(self, request: web.Request) -> web.Response:
        page = await self.service.game(request.match_info["token"])
        return web.Response(text=self._written(
            ("live", page), lambda: json.dumps(pages.live(self.root, page),
                                               separators=(",", ":"))),
            content_type="application/json")

    def _written(self, key: tuple[str, GamePage], write: Callable[[], str]) -> str:
        """A game's page or data as written for this version of it (hundreds watching
        one game are answered the same text)."""
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = write()
            while len(self._texts) > WRITTEN:
                self._texts.popitem(last=False)
        return text

    async def _board(self, request: web.Request) -> web.Response:
        return self._png(await self.service.picture(request.match_info["token"]))

    async def _replay(self, request: web.Request) -> web.Response:
        replay = await self.service.replay(request.match_info["token"])
        asked = request.query.get("move", "")
        position = int(asked) if asked.isdigit() and len(asked) <= MOVE_DIGITS else 0
        return self._html(pages.replay_page(self.root, replay, position))

    async def _move_picture(self, request: web.Request) -> web.Response:
        return self._png(await self.service.picture(request.match_info["token"],
                                                    int(request.match_info["n"])))

    async def _move_words(self, request: web.Request) -> web.Response:
        replay = await self.service.replay(request.match_info["token"])
        n = int(request.match_info["n"])
        if n > len(replay.lines):
            raise NotFound()
        return self._json(pages.step(replay, n))

    async def _server(self, request: web.Request) -> web.Response:
        standings = await self.service.standings(request.match_info["token"])
        return self._html(pages.standings_page(self.root, standings))

    async def _tournament(self, request: web.Request) -> web.Response:
        standings = await self.service.tournament(request.match_info["token"])
        return self._html(pages.tournament_page(self.root, standings))
