"""The web companion beside the real bot offline: a :class:`Site` is a bot on a fresh
database (the offline Discord of tests/support/discord_harness.py) with
``CANDYBOT_PUBLIC_URL`` set, and the companion's site serving the same database on a
loopback port."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiohttp

from bot.app import create_bot
from bot.games.engine import Engine, View
from bot.web.server import ClientLimiter, WebServer
from bot.web.service import WebService
from tests.support.discord_harness import (
    Clock,
    Recorder,
    Session,
    bot_settings,
    connect,
    fake_render,
)

URL = "http://candy.test"
MANAGE_GUILD = 1 << 5
ADMIN = 340000000000000099


@dataclass
class Answer:
    status: int
    headers: Mapping[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode()

    def json(self) -> Any:
        return json.loads(self.body)


class Site:
    """A bot and its web companion (see the module text)."""

    def __init__(self, session: Session, server: WebServer, http: aiohttp.ClientSession):
        self.session, self.server, self.http = session, server, http

    @classmethod
    async def open(cls, folder: Path, games: Mapping[str, Engine], *,
                   renderer: Callable[[View], bytes] | None = None,
                   limiter: ClientLimiter | None = None) -> Site:
        rec, clock = Recorder(), Clock()
        settings = replace(bot_settings(folder / "bot.db"), public_url=URL)
        bot = create_bot(settings, games=games, renderer=renderer or fake_render, clock=clock)
        session = Session(bot, await connect(bot, rec), rec, clock)
        # The pages' own clock: what they keep fresh goes stale in real time.
        service = WebService(bot.tables.store, URL, games=games,
                             renderer=renderer or fake_render)
        server = WebServer(service, limiter=limiter or ClientLimiter(rate=1000, burst=1000))
        await server.start("127.0.0.1", 0)
        # No connection kept alive: the offline Discord waits for every task the bot
        # started, and a kept connection's handler would be one that never ends.
        http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True))
        return cls(session, server, http)

    async def close(self) -> None:
        await self.http.close()
        await self.server.close()
        await self.session.close()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    async def allow(self, allowed: bool = True) -> None:
        """``/settings web:<allowed>`` by a manager of the server."""
        answer = await self.session.command(ADMIN, "settings", None, {"web": allowed},
                                            permissions=MANAGE_GUILD)
        assert answer.ephemeral, answer.content

    async def get(self, path: str, method: str = "GET", **kw: Any) -> Answer:
        """``path`` (an address the bot gave, or a path) asked of the site."""
        path = path.removeprefix(URL)
        async with self.http.request(method, self.base + path, **kw) as answer:
            return Answer(answer.status, dict(answer.headers), await answer.read())


def link_buttons(message: Mapping[str, Any]) -> dict[str, str]:
    """The link buttons of a recorded message: label -> address."""
    return {c["label"]: c["url"] for row in message.get("components", ())
            for c in row["components"] if c.get("style") == 5}
