"""Discord as far as the operator's commands meet it, on a loopback port.

:class:`StandInDiscord` answers the REST routes that logging in, ``candybot sync`` and
``candybot check`` use (and 401 to a token it does not take), and serves a gateway that a
real ``candybot run`` connects to: HELLO, IDENTIFY (a refused token closes it with 4004,
as Discord does), READY, heartbeats acknowledged. :func:`serving` runs it in a thread of
its own. A process is pointed at it by ``stand_in_site/sitecustomize.py`` (on
``PYTHONPATH``, with ``STAND_IN_DISCORD`` set to :attr:`Serving.url`); a test in this
process patches ``discord.http.Route.BASE`` itself (tests/test_ops.py).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

#: The folder to put on ``PYTHONPATH`` so that a process talks to the stand-in.
SITE = Path(__file__).resolve().parent / "stand_in_site"
TOKEN = "MTIzNDU2Nzg5.good-token-value"
WRONG = "MTIzNDU2Nzg5.wrong-token-value"
APP_ID = 900000000000000001
BOT_ID = 900000000000000002
BOT_USER = {"id": str(BOT_ID), "username": "candybot", "discriminator": "0",
            "global_name": "CandyBot", "avatar": None, "bot": True}
CLUB, OTHER, GONE = 800000000000000001, 800000000000000002, 800000000000000009
BOT_ROLE = 810000000000000001
GENERAL, LOCKED, HIDDEN, THREAD, DELETED = (700000000000000001, 700000000000000002,
                                            700000000000000003, 700000000000000004,
                                            700000000000000005)
VIEW, SEND, ATTACH, SEND_IN_THREADS = 1 << 10, 1 << 11, 1 << 15, 1 << 38
CREATE_THREADS = 1 << 35
#: Gateway opcodes (Discord's "Gateway Opcodes" table).
DISPATCH, HEARTBEAT, IDENTIFY, HELLO, HEARTBEAT_ACK = 0, 1, 2, 10, 11
#: The close code of a refused token.
AUTHENTICATION_FAILED = 4004


def role(role_id: int, name: str, permissions: int, position: int) -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "permissions": str(permissions),
            "position": position, "color": 0, "hoist": False, "managed": False,
            "mentionable": False, "flags": 0}


def text_channel(channel_id: int, name: str, deny: int = 0) -> dict[str, Any]:
    return {"id": str(channel_id), "type": 0, "guild_id": str(CLUB), "name": name,
            "position": 0, "nsfw": False, "parent_id": None,
            "permission_overwrites": [{"id": str(CLUB), "type": 0, "allow": "0",
                                       "deny": str(deny)}]}


def answer(data: Any, status: int = 200) -> web.Response:
    """JSON as Discord sends it: discord.py wants exactly ``application/json``."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


@dataclass
class StandInDiscord:
    """Discord's REST API as far as login, ``sync`` and ``check`` use it, and its gateway.

    ``token`` is the one token it takes; ``None`` takes any but :data:`WRONG` (the
    operator's documented placeholders stand for their real token)."""

    token: str | None = TOKEN
    requests: list[str] = field(default_factory=list)
    guilds: dict[int, str] = field(default_factory=lambda: {CLUB: "Candy Club",
                                                            OTHER: "Other"})
    everyone: int = VIEW | SEND | ATTACH | SEND_IN_THREADS
    channels: dict[int, dict[str, Any]] = field(default_factory=lambda: {
        GENERAL: text_channel(GENERAL, "general"),
        LOCKED: text_channel(LOCKED, "locked", deny=ATTACH),
        THREAD: {**text_channel(THREAD, "a-thread"), "type": 11, "parent_id": str(GENERAL),
                 "owner_id": "1", "message_count": 0, "member_count": 1, "thread_metadata": {
                     "archived": False, "auto_archive_duration": 1440, "locked": False,
                     "archive_timestamp": "2024-01-01T00:00:00+00:00"}},
    })
    #: Slash commands registered: ``None`` for global ones, else the server's id.
    commands: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    #: Each IDENTIFY the gateway took: its shard ``[id, count]``, or ``None``.
    identified: list[list[int] | None] = field(default_factory=list)
    #: Gateway connections open now.
    sockets: set[web.WebSocketResponse] = field(default_factory=set)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def takes(self, authorization: str | None) -> bool:
        given = (authorization or "").removeprefix("Bot ")
        return given == self.token if self.token is not None else given not in ("", WRONG)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if request.path == "/gateway-socket":
            return await self.gateway(request)
        path = request.path.removeprefix("/api/v10")
        self.requests.append(f"{request.method} {path}")
        if not self.takes(request.headers.get("Authorization")):
            return answer({"message": "401: Unauthorized", "code": 0}, status=401)
        parts = path.strip("/").split("/")
        if path == "/users/@me":
            return answer(BOT_USER)
        if path == "/oauth2/applications/@me":
            return answer({"id": str(APP_ID), "name": "candybot", "description": "",
                           "icon": None, "bot_public": True, "bot_require_code_grant": False,
                           "owner": BOT_USER, "verify_key": "0" * 64, "flags": 0})
        if parts[0] == "applications" and request.method == "PUT":
            guild = int(parts[3]) if parts[2] == "guilds" else None
            self.commands[guild] = [
                {**command, "id": str(next(self._ids)), "application_id": str(APP_ID),
                 "version": "1", **({"guild_id": str(guild)} if guild else {})}
                for command in await request.json()]
            return answer(self.commands[guild])
        if path == "/users/@me/guilds":
            return answer([
                {"id": str(g), "name": n, "icon": None, "owner": False, "permissions": "0",
                 "features": []} for g, n in self.guilds.items()])
        if parts[0] == "guilds" and len(parts) == 2 and int(parts[1]) in self.guilds:
            guild_id = int(parts[1])
            return answer({
                "id": str(guild_id), "name": self.guilds[guild_id], "icon": None,
                "owner_id": "1", "features": [], "emojis": [], "stickers": [],
                "roles": [role(guild_id, "@everyone", self.everyone, 0),
                          role(BOT_ROLE, "candybot", 0, 1)]})
        if parts[0] == "guilds" and parts[2:3] == ["channels"]:
            return answer([c for c in self.channels.values() if c.get("type") == 0
                           and int(parts[1]) == CLUB])
        if parts[0] == "guilds" and parts[2:3] == ["members"]:
            return answer({"user": BOT_USER, "roles": [str(BOT_ROLE)], "nick": None,
                           "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False,
                           "mute": False, "flags": 0})
        if parts[0] == "channels" and int(parts[1]) in self.channels:
            return answer(self.channels[int(parts[1])])
        if parts[0] == "channels" and int(parts[1]) == HIDDEN:
            return answer({"message": "Missing Access", "code": 50001}, status=403)
        return answer({"message": "Unknown", "code": 10003}, status=404)

    async def gateway(self, request: web.Request) -> web.StreamResponse:
        """One gateway session: HELLO, then READY for a token it takes (no servers)."""
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        sequence = itertools.count(1)
        self.sockets.add(socket)
        try:
            await socket.send_json({"op": HELLO, "d": {"heartbeat_interval": 41250}})
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    break
                sent = json.loads(message.data)
                if sent["op"] == HEARTBEAT:
                    await socket.send_json({"op": HEARTBEAT_ACK})
                elif sent["op"] == IDENTIFY:
                    if not self.takes(sent["d"]["token"]):
                        await socket.close(code=AUTHENTICATION_FAILED,
                                           message=b"Authentication failed.")
                        break
                    shard = sent["d"].get("shard")
                    self.identified.append(shard)
                    ready = {"v": 10, "user": BOT_USER, "guilds": [],
                             "session_id": f"session-{len(self.identified)}",
                             "resume_gateway_url": str(request.url.with_query(None)),
                             "application": {"id": str(APP_ID), "flags": 0}}
                    if shard is not None:
                        ready["shard"] = shard
                    await socket.send_json({"op": DISPATCH, "t": "READY",
                                            "s": next(sequence), "d": ready})
        finally:
            self.sockets.discard(socket)
        return socket

    async def close(self, app: web.Application) -> None:
        """Close the gateway connections still open (the server is going away)."""
        for socket in list(self.sockets):
            await socket.close(code=1001)


@dataclass
class Serving:
    """A :class:`StandInDiscord` being served, and where."""

    discord: StandInDiscord
    url: str

    @property
    def api(self) -> str:
        """The REST base, as ``discord.http.Route.BASE`` takes it."""
        return f"{self.url}/api/v10"


@contextmanager
def serving(discord: StandInDiscord | None = None) -> Iterator[Serving]:
    """Serve ``discord`` on a loopback port from a thread of its own until the block ends."""
    stand_in = discord or StandInDiscord()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", stand_in.handle)
    app.on_shutdown.append(stand_in.close)
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(app, access_log=None)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield Serving(stand_in, f"http://127.0.0.1:{port}")
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()
