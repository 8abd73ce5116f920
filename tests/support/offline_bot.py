"""A real candybot process against the offline Discord stand-in, for tests that signal it.

``python -m tests.support.offline_bot`` reads its settings
from the environment as ``candybot run`` does and runs the production path,
:func:`bot.app.serve` (signal handlers, the clean stop, the metrics endpoint, the
health status), with only discord.py's login and gateway replaced:

- INTERACTION_CREATE payloads arrive as JSON lines on standard input (build them with
  :class:`discord_harness.Gateway`); ``{"ready": true}`` is printed once they are read;
- every request the bot makes to Discord is printed as one JSON line on standard output
  (``{"sent": {...}, "message": {...}}``: the request and the message as it stands);
- pictures take ``PICTURE_SECONDS`` (environment, default 0.2) to draw; a line
  ``{"picture_seconds": 4}`` changes that, so that a test can keep moves in flight
  long enough to signal the process in their middle.

Games: the registered ones plus the test-only Candy Stroll (``candy-stroll``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from typing import Any

import discord

from bot.app import create_bot, serve
from bot.config import Settings
from bot.games import GAMES
from bot.games.engine import Engine, View
from bot.ops.logs import setup_logging
from tests.support.discord_harness import APP_ID, BOT_USER, Recorder, fake_render
from tests.support.race_game import CandyStroll

log = logging.getLogger("offline_bot")
PICTURES = {"seconds": float(os.environ.get("PICTURE_SECONDS", "0.2"))}


def slow_render(view: View) -> bytes:
    time.sleep(PICTURES["seconds"])
    return fake_render(view)


class Reporter(Recorder):
    """The harness's Discord stand-in, telling the test about every request."""

    def _handle(self, via: str, method: str, url: str, payload: dict[str, Any] | None,
                multipart: list[dict[str, Any]] | None) -> Any:
        try:
            return super()._handle(via, method, url, payload, multipart)
        finally:
            sent = self.sent[-1]
            report = {"via": sent.via, "method": sent.method, "path": sent.path,
                      "kind": sent.kind, "content": sent.content, "ephemeral": sent.ephemeral,
                      "custom_ids": sent.custom_ids, "message_id": sent.message_id,
                      "pngs": len(sent.pngs)}
            message = self.messages.get(sent.message_id or 0)
            print(json.dumps({"sent": report, "message": message}), flush=True)


async def main() -> str | None:
    settings = Settings.from_env()
    setup_logging(settings.log_level)
    bot = create_bot(settings, games={**GAMES, CandyStroll.slug: Engine(CandyStroll())},
                     renderer=slow_render, clock=time.time)
    Reporter().install(bot)

    async def login(token: str) -> None:
        bot._connection.application_id = APP_ID
        bot._connection.user = discord.ClientUser(state=bot._connection,
                                                  data=BOT_USER)  # type: ignore[arg-type]
        await bot.setup_hook()

    async def connect(*, reconnect: bool = True) -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        bot.dispatch("connect")
        bot._ready.set()  # type: ignore[union-attr]
        bot.dispatch("ready")
        print(json.dumps({"ready": True}), flush=True)
        while line := await reader.readline():
            payload = json.loads(line)
            if "picture_seconds" in payload:
                PICTURES["seconds"] = float(payload["picture_seconds"])
            else:
                bot._connection.parse_interaction_create(payload)
        await asyncio.Event().wait()  # the test closed our input: wait for a signal

    bot.login = login  # type: ignore[method-assign]
    bot.connect = connect  # type: ignore[method-assign]
    return await serve(bot, settings.token or "offline")


if __name__ == "__main__":
    stopped = asyncio.run(main())
    if stopped is not None:
        log.info("%s", stopped)
