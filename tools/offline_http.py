"""The offline Discord over real sockets: discord.py's own HTTP client and gateway talk to it.

:mod:`tools.offline` replaces the bot's ``http.request`` in-process, so discord.py's
rate-limit handling (its per-route buckets learnt from the headers, its retries of 429s
and 5xx, its global lock) never runs. Here an ``aiohttp`` server on a loopback port
answers Discord's REST routes through the same :class:`~tools.offline.Recorder`, with
the headers and the 429s of its :attr:`~tools.offline.Recorder.limits`, and
``discord.http.Route.BASE`` points discord.py at it: the bot's requests, interaction
responses included, go through discord.py exactly as they go to Discord, and through the
bot's own pacing (:mod:`bot.discord.pacing`, an ``aiohttp`` trace on its session).

Beside it the same server is Discord's **gateway**, a websocket at :attr:`OfflineServer.
gateway_url` (also given by ``GET /gateway/bot``, which a sharded client asks; a plain
discord.py client connects to ``DiscordWebSocket.DEFAULT_GATEWAY``, which
:meth:`OfflineServer.start` points here too). It speaks Discord's protocol as discord.py's
``gateway.py`` reads it: HELLO with the heartbeat interval; every HEARTBEAT answered with
an ACK; IDENTIFY (a wrong token is closed with 4004) answered with READY (a new session,
its ``resume_gateway_url``, the servers as unavailable) and then a GUILD_CREATE per server
with its channels and *active* threads only (:meth:`~tools.offline.Recorder.guild`);
RESUME of a known session replays the events it missed, then RESUMED, and of an unknown
one gets INVALID_SESSION (``false``), so the bot identifies afresh. Frames are zlib-stream
compressed when the bot asks for it, plain text otherwise. Events reach the bot two ways:
those Discord sends by itself when a request changed something (a thread started,
archived, unarchived or deleted: :attr:`~tools.offline.Recorder.announce`), and those a
test delivers through :attr:`OfflineServer.gateway`, a :class:`~tools.offline.Gateway`
whose events go over the socket (INTERACTION_CREATE, GUILD_CREATE, THREAD_UPDATE,
THREAD_DELETE, CHANNEL_DELETE). Events for a bot that is not connected are dropped, as
Discord drops interactions nobody receives (:attr:`OfflineServer.missed`).

So a real ``candybot run`` process can be driven (:mod:`tools.offline_process` starts
one): interactions a test builds travel to it over the socket, and its answers come back
through the REST routes into the same recorder, every rule of the offline Discord
applying. :meth:`OfflineServer.kill_at` SIGKILLs that process when a chosen request
arrives (the k-th, or the first a test matches), before Discord carries it out or after,
the answer lost.

The server runs in a thread of its own with its own event loop, so that the bot's loop
holds none of its tasks (:func:`tools.offline.settle` waits for the bot's tasks only).
Whatever reads or changes the recorder while the server runs goes through
:meth:`OfflineServer.call`, which runs it on the server's thread::

    recorder = Recorder()
    recorder.limits = RateLimits(application_id=APP_ID)
    with OfflineServer(recorder) as server:
        gateway = await server.connect(bot)   # in process: REST over the socket only
        ...
        await bot.close()
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import io
import json
import logging
import os
import secrets
import signal
import socket
import threading
import time
import zlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import aiohttp
import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.discord.client import CandyBot
from tools.offline import APP_ID, APPLICATION, BOT_USER, Gateway, Recorder, Sent
from tools.ratelimits import VIA, OverLimit

log = logging.getLogger(__name__)

#: The base every URL is recorded under, as :class:`~tools.offline.Recorder` reads URLs.
DISCORD_API = "https://discord.com/api/v10"
#: Where the REST API and the gateway are under the server's address.
API, GATEWAY = "/api/v10", "/gateway"
#: The token the bot logs in to the offline Discord with.
TOKEN = "offline-token"
#: Gateway opcodes (Discord's numbers).
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = \
    0, 1, 2, 6, 7, 9, 10, 11
#: Opcodes a bot may send that the offline gateway takes and ignores (presence, voice,
#: member and soundboard requests).
IGNORED = (3, 4, 8, 31)
#: Close codes: an opcode Discord does not know, a token it refuses.
UNKNOWN_OPCODE, AUTHENTICATION_FAILED = 4001, 4004
#: Milliseconds between heartbeats, as Discord's HELLO says today.
HEARTBEAT_MS = 41250
#: The end of every zlib-stream frame (a sync flush).
ZLIB_SUFFIX = b"\x00\x00\xff\xff"

T = TypeVar("T")


@dataclass
class Kill:
    """A SIGKILL waiting for a request: the ``nth`` to arrive from now on (counting from
    1) of those ``test`` matches (of all, without ``test``), or the first ``test``
    matches (without ``nth``); ``after``: once Discord has carried it out (the answer
    never reaches the bot), else before (Discord never sees it)."""

    pid: int
    nth: int | None = None
    test: Callable[[Sent], bool] | None = None
    after: bool = False
    #: Requests seen since it was armed.
    seen: int = 0
    #: The request it fired at, once it has.
    request: Sent | None = None
    fired: threading.Event = field(default_factory=threading.Event)

    def due(self, sent: Sent) -> bool:
        if self.test is not None and not self.test(sent):
            return False
        self.seen += 1
        return self.nth is None or self.seen == self.nth

    def fire(self, sent: Sent) -> None:
        """SIGKILL the process (with its whole process group when it leads one, as when
        its container dies: its render workers too) and wait until it is gone, so that
        nothing it does later (it does nothing) can follow this request."""
        self.request = sent
        with contextlib.suppress(ProcessLookupError):
            if os.getpgid(self.pid) == self.pid:
                os.killpg(self.pid, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        stat = Path(f"/proc/{self.pid}/stat")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                # A dead child waits as a zombie (state Z) until its parent reaps it.
                if stat.read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    break
            except (FileNotFoundError, ProcessLookupError):
                break
            time.sleep(0.001)
        self.fired.set()


class _Link:
    """One websocket connection of a bot to the gateway: frames leave in order, from one
    writer task, compressed as the bot asked."""

    def __init__(self, socket: web.WebSocketResponse, compress: str) -> None:
        self.socket = socket
        self.zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self.outgoing: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        self.outgoing.put_nowait(message)

    async def _write(self) -> None:
        while (message := await self.outgoing.get()) is not None:
            text = json.dumps(message)
            try:
                if self.zlib is not None:
                    await self.socket.send_bytes(self.zlib.compress(text.encode())
                                                 + self.zlib.flush(zlib.Z_SYNC_FLUSH))
                else:
                    await self.socket.send_str(text)
            except (ConnectionError, RuntimeError):
                return  # the bot went away: its session keeps what it missed

    async def close(self, code: int) -> None:
        self.outgoing.put_nowait(None)
        await self.writer
        await self.socket.close(code=code)


@dataclass
class _Session:
    """A gateway session: what was dispatched in it (numbered), to replay on a RESUME."""

    id: str
    shard: tuple[int, int] | None
    sequence: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    link: _Link | None = None

    def covers(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives events of ``guild_id`` (Discord's rule:
        ``(guild_id >> 22) % shard_count``)."""
        if self.shard is None or guild_id is None:
            return True
        index, count = self.shard
        return (guild_id >> 22) % count == index

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.sequence += 1
        message = {"op": DISPATCH, "t": event, "s": self.sequence, "d": data}
        self.sent.append(message)
        if self.link is not None:
            self.link.send(message)


class OfflineServer:
    """The offline Discord's REST API and gateway on ``127.0.0.1``, answered by
    ``recorder``; ``token`` is the bot token it accepts (a bot it starts logs in with it),
    ``also`` more tokens it accepts (those an operator's documents stand for theirs)."""

    def __init__(self, recorder: Recorder, *, token: str = TOKEN,
                 also: Collection[str] = ()) -> None:
        self.recorder = recorder
        self.token = token
        self.tokens = {token, *also}
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(512)
        port = self._sock.getsockname()[1]
        #: Where it answers: the REST base and the gateway are under it (a process is
        #: pointed here by :func:`tools.offline_process.pointed`).
        self.url = f"http://127.0.0.1:{port}"
        self.base = f"{self.url}{API}"
        self.gateway_url = f"ws://127.0.0.1:{port}{GATEWAY}"
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._base_before: str | None = None
        self._gateway_before: yarl.URL | None = None
        self._sessions: dict[str, _Session] = {}
        self._links: set[_Link] = set()
        #: The events a test (through it) or Discord itself sends to the bot over the socket.
        self.gateway = Gateway(None, recorder, deliver=self._deliver)
        #: Events nobody received (no bot was connected), as ``(event, data)``.
        self.missed: list[tuple[str, dict[str, Any]]] = []
        #: When each IDENTIFY was answered with READY, and each RESUME with RESUMED
        #: (``time.monotonic``); the shard each IDENTIFY asked for (``None``: unsharded).
        self.readies: list[float] = []
        self.shards: list[tuple[int, int] | None] = []
        self.resumes: list[float] = []
        self._kill: Kill | None = None
        #: Every REST request that arrived, in order, whoever answered it (logging in, a
        #: refused token); and when the last one arrived (``time.monotonic``).
        self.requests: list[Sent] = []
        self.last_request = time.monotonic()

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
        self._gateway_before = DiscordWebSocket.DEFAULT_GATEWAY
        Route.BASE = self.base
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        self.recorder.announce = self._deliver
        return self

    def stop(self) -> None:
        """Stop serving and point discord.py back at Discord."""
        if self._base_before is not None and self._gateway_before is not None:
            Route.BASE = self._base_before
            DiscordWebSocket.DEFAULT_GATEWAY = self._gateway_before
            self._base_before = self._gateway_before = None
        self.recorder.announce = None
        if self._loop is not None and self._thread is not None:
            asyncio.run_coroutine_threadsafe(self._hang_up(), self._loop).result(10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        self._loop = self._thread = None

    async def _hang_up(self) -> None:
        for link in list(self._links):
            await link.close(1001)

    def call(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``work(*args, **kwargs)`` on the server's thread and return what it returns:
        the way to read or change the recorder, or use :attr:`gateway`, while it serves."""
        assert self._loop is not None, "the server is not running"
        done: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(work(*args, **kwargs))
            except BaseException as exc:
                done.set_exception(exc)

        self._loop.call_soon_threadsafe(run)
        return done.result(30)

    def kill_at(self, pid: int, *, nth: int | None = None,
                test: Callable[[Sent], bool] | None = None, after: bool = False) -> Kill:
        """SIGKILL process ``pid`` when the ``nth`` request from now on arrives (counting
        those ``test`` matches, when given) or the first ``test`` matches (no ``nth``),
        before Discord carries it out or, ``after``, once it has (the bot never hears the
        answer). One kill waits at a time; :meth:`disarm` drops it."""
        assert nth is not None or test is not None, "say which request: nth or test"
        kill = Kill(pid, nth, test, after)
        self.call(setattr, self, "_kill", kill)
        return kill

    def disarm(self) -> None:
        """Drop the kill that waits, if any."""
        self.call(setattr, self, "_kill", None)

    def connected(self) -> int:
        """How many bot connections have identified or resumed and are open."""
        return self.call(lambda: sum(1 for s in self._sessions.values()
                                     if s.link is not None))

    def reconnect(self, *, resumable: bool = True) -> None:
        """Ask every connected bot to reconnect and resume (op 7), as Discord does when it
        moves a session; with ``resumable`` false, the sessions are forgotten first, so a
        RESUME is refused (INVALID_SESSION) and the bot identifies afresh."""
        def ask() -> None:
            links = [s.link for s in self._sessions.values() if s.link is not None]
            if not resumable:
                self._sessions.clear()
            for link in links:
                link.send({"op": RECONNECT, "d": None, "s": None, "t": None})
        self.call(ask)

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
        app.router.add_get(GATEWAY, self._connect)
        app.router.add_route("*", API + "/{tail:.*}", self._answer)
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
        sent = self.recorder.arrived(via, method, DISCORD_API + path, payload, multipart)
        self.requests.append(sent)
        self.last_request = time.monotonic()
        given = request.headers.get("Authorization", "").removeprefix("Bot ")
        if via == "http" and given not in self.tokens:
            sent.failed = 401
            return _json({"message": "401: Unauthorized", "code": 0}, 401, {})
        kill = self._kill if self._kill is not None and self._kill.due(sent) else None
        if kill is not None:
            self._kill = None
            if not kill.after:
                kill.fire(sent)
                return web.Response(status=503)  # nobody is left to read it
        try:
            return self._carry_out(sent, limits)
        finally:
            if kill is not None:
                kill.fire(sent)

    def _carry_out(self, sent: Sent, limits: Any) -> web.Response:
        """Discord's answer to a request: what the recorder makes of it, with the rate
        limits' headers."""
        method, path = sent.method, sent.path.split("?", 1)[0]
        try:
            if method == "GET" and path == "/users/@me":  # logging in
                over = limits.admit(method, path) if limits is not None else None
                if over is not None:
                    raise over
                data: Any = BOT_USER
            elif method == "GET" and path == "/oauth2/applications/@me":
                data = APPLICATION
            elif method == "GET" and path in ("/gateway", "/gateway/bot"):
                data = {"url": self.gateway_url}
                if path == "/gateway/bot":
                    data.update(shards=1, session_start_limit={
                        "total": 1000, "remaining": 1000, "reset_after": 86_400_000,
                        "max_concurrency": 1})
            else:
                with self.recorder.watch("offline Discord"):
                    data = self.recorder.carry_out(sent)
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


    # ----------------------------------------------------------------- the gateway

    def _deliver(self, event: str, data: dict[str, Any]) -> None:
        """Dispatch an event to every session that receives its server (a test's, through
        :attr:`gateway`, or Discord's own, through the recorder's ``announce``)."""
        if self._loop is not None and threading.current_thread() is not self._thread:
            self._loop.call_soon_threadsafe(self._deliver, event, data)
            return
        guild = data.get("guild_id") or (data.get("id") if event == "GUILD_CREATE" else None)
        sessions = [s for s in self._sessions.values()
                    if s.covers(int(guild) if guild else None)]
        if not any(s.link is not None for s in sessions):
            self.missed.append((event, data))
        for session in sessions:  # a session not connected keeps it for its RESUME
            session.dispatch(event, data)

    async def _connect(self, request: web.Request) -> web.WebSocketResponse:
        """One connection of a bot to the gateway, from HELLO to its close."""
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        link = _Link(socket, request.query.get("compress", ""))
        self._links.add(link)
        link.send({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_MS}, "s": None,
                   "t": None})
        session: _Session | None = None
        try:
            async for frame in socket:
                if frame.type is not aiohttp.WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                op, data = message.get("op"), message.get("d")
                if op == HEARTBEAT:
                    link.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
                elif op in (IDENTIFY, RESUME) and (data or {}).get("token") not in self.tokens:
                    await link.close(AUTHENTICATION_FAILED)
                elif op == IDENTIFY:
                    session = self._identify(link, data)
                elif op == RESUME:
                    session = self._resume(link, data)
                elif op not in IGNORED:
                    await link.close(UNKNOWN_OPCODE)
        finally:
            self._links.discard(link)
            if session is not None and session.link is link:
                session.link = None  # resumable: what it misses is kept
            link.outgoing.put_nowait(None)
        return socket

    def _identify(self, link: _Link, data: dict[str, Any]) -> _Session:
        """A new session: READY, then every server the bot is in, as GUILD_CREATE."""
        shard = data.get("shard")
        session = _Session(secrets.token_hex(16),
                           (int(shard[0]), int(shard[1])) if shard else None)
        self._sessions[session.id] = session
        session.link = link
        self.shards.append(session.shard)
        mine = [g for g in self.recorder.server_ids() if session.covers(g)]
        ready: dict[str, Any] = {
            "v": 10, "user": BOT_USER, "session_id": session.id,
            "resume_gateway_url": self.gateway_url, "private_channels": [],
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "application": {"id": str(APP_ID), "flags": 0}}
        if shard:
            ready["shard"] = list(shard)
        session.dispatch("READY", ready)
        self.readies.append(time.monotonic())
        for guild_id in mine:
            session.dispatch("GUILD_CREATE", self.recorder.guild(guild_id))
        return session

    def _resume(self, link: _Link, data: dict[str, Any]) -> _Session | None:
        """RESUME: the events the session missed since ``seq``, then RESUMED; a session
        Discord does not know is invalid (``false``: identify afresh)."""
        session = self._sessions.get(str(data.get("session_id")))
        if session is None:
            link.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return None
        session.link = link
        seen = int(data.get("seq") or 0)
        for message in session.sent:
            if message["s"] > seen:
                link.send(message)
        session.dispatch("RESUMED", {})
        self.resumes.append(time.monotonic())
        return session


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
