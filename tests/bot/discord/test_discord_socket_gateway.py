"""The offline Discord's gateway over a websocket (tools/offline_http.py), as discord.py's
gateway code meets it: HELLO, heartbeats, IDENTIFY and READY, the servers with their
active threads only, RESUME with the events missed, a session Discord forgot, a wrong
token; the bot's own requests announced back to it; and a SIGKILL at a chosen request."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot.app import create_bot
from bot.config import Settings
from bot.discord.client import CandyBot
from tests.support.discord_harness import fake_render
from tools.offline import (
    ALL_PERMISSIONS,
    CHANNEL_ID,
    GUILD_ID,
    PUBLIC_THREAD,
    Channel,
    Recorder,
)
from tools.offline_http import TOKEN, OfflineServer

ALICE = 370000000000000001
ACTIVE, ARCHIVED = 600000000000000901, 600000000000000902


@pytest.fixture
def server() -> Iterator[OfflineServer]:
    """The offline Discord on sockets, with a games channel and two threads of it, one of
    them archived."""
    rec = Recorder()
    rec.room(CHANNEL_ID).permissions = ALL_PERMISSIONS
    for thread, archived in ((ACTIVE, False), (ARCHIVED, True)):
        rec.rooms[thread] = Channel(thread, PUBLIC_THREAD, GUILD_ID, CHANNEL_ID,
                                    archived=archived)
    with OfflineServer(rec) as running:
        yield running


class Socket:
    """A bare websocket to the gateway, reading frames as discord.py does."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse, compressed: bool) -> None:
        self.socket = socket
        self.inflate = zlib.decompressobj() if compressed else None

    async def receive(self) -> dict[str, Any]:
        frame = await self.socket.receive(timeout=5)
        if frame.type is aiohttp.WSMsgType.BINARY:
            assert self.inflate is not None and frame.data.endswith(b"\x00\x00\xff\xff")
            return dict(json.loads(self.inflate.decompress(frame.data)))
        assert frame.type is aiohttp.WSMsgType.TEXT, frame
        return dict(json.loads(frame.data))

    async def send(self, op: int, data: Any) -> None:
        await self.socket.send_str(json.dumps({"op": op, "d": data}))


@contextlib.asynccontextmanager
async def gateway(server: OfflineServer, compress: str = "") -> AsyncIterator[Socket]:
    query = "?v=10&encoding=json" + (f"&compress={compress}" if compress else "")
    async with aiohttp.ClientSession() as session, \
            session.ws_connect(server.gateway_url + query) as socket:
        yield Socket(socket, bool(compress))


def identify(token: str = TOKEN) -> dict[str, Any]:
    return {"token": token, "intents": 1, "properties": {"os": "linux"}}


async def test_hello_heartbeats_identify_ready_and_the_server_with_its_active_threads_only(
        server: OfflineServer) -> None:
    async with gateway(server, "zlib-stream") as socket:
        hello = await socket.receive()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await socket.send(1, None)
        assert (await socket.receive())["op"] == 11
        await socket.send(2, identify())
        ready = await socket.receive()
        assert (ready["op"], ready["t"], ready["s"]) == (0, "READY", 1)
        assert ready["d"]["resume_gateway_url"] == server.gateway_url
        assert ready["d"]["guilds"] == [{"id": str(GUILD_ID), "unavailable": True}]
        guild = await socket.receive()
        assert (guild["t"], guild["s"]) == ("GUILD_CREATE", 2)
        assert [c["id"] for c in guild["d"]["channels"]] == [str(CHANNEL_ID)]
        assert [t["id"] for t in guild["d"]["threads"]] == [str(ACTIVE)], \
            "Discord announces a server's active threads only"


async def test_a_wrong_token_or_an_unknown_opcode_closes_the_connection(
        server: OfflineServer) -> None:
    for op, data, code in ((2, identify("not-the-token"), 4004), (42, {}, 4001)):
        async with gateway(server) as socket:
            await socket.receive()  # HELLO
            await socket.send(op, data)
            closed = await socket.socket.receive(timeout=5)
            assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == code


async def test_a_resume_gets_the_events_missed_and_an_unknown_session_identifies_afresh(
        server: OfflineServer) -> None:
    async with gateway(server) as socket:
        await socket.receive()
        await socket.send(2, identify())
        session = (await socket.receive())["d"]["session_id"]
        await socket.receive()  # GUILD_CREATE, sequence 2
    await wait_for(lambda: server.connected() == 0, "the connection never closed")
    server.call(server.gateway.archive, ACTIVE)  # while the bot is away
    assert [event for event, _ in server.missed] == ["THREAD_UPDATE"]
    async with gateway(server) as socket:
        await socket.receive()
        await socket.send(6, {"token": TOKEN, "session_id": session, "seq": 2})
        missed, resumed = await socket.receive(), await socket.receive()
        assert (missed["t"], missed["s"], missed["d"]["id"]) == ("THREAD_UPDATE", 3,
                                                                 str(ACTIVE))
        assert (resumed["t"], resumed["s"]) == ("RESUMED", 4)
    async with gateway(server) as socket:
        await socket.receive()
        await socket.send(6, {"token": TOKEN, "session_id": "forgotten", "seq": 2})
        assert await socket.receive() == {"op": 9, "d": False, "s": None, "t": None}


async def wait_for(check: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


@pytest.fixture
async def connected(server: OfflineServer, tmp_path: Path) -> AsyncIterator[CandyBot]:
    """The bot in this process, connected through discord.py's own login and gateway."""
    bot = create_bot(Settings(token=TOKEN, db_path=tmp_path / "bot.db"),
                     renderer=fake_render, clock=time.time)
    running = asyncio.create_task(bot.start(TOKEN))
    try:
        await wait_for(bot.is_ready, "the bot never became ready")
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await running


async def test_discord_py_connects_over_the_socket_and_answers_what_it_is_sent(
        server: OfflineServer, connected: CandyBot) -> None:
    bot, rec = connected, server.recorder
    assert isinstance(bot.get_channel(ACTIVE), discord.Thread)
    assert bot.get_channel(ARCHIVED) is None, "an archived thread is not announced"
    await asyncio.sleep(0.1)  # discord.py heartbeats as soon as it is greeted
    assert bot.latency < 5, "every heartbeat is acknowledged"
    payload = server.call(server.gateway.command, ALICE, "game", "new",
                          {"game": "sugar-blast"}, channel_id=CHANNEL_ID)
    server.call(server.gateway.dispatch, payload)
    await wait_for(lambda: server.call(lambda: any(
        "Your lobby" in s.content for s in rec.sent)), "the host was never answered")
    (thread,) = server.call(lambda: [t.id for t in rec.threads()
                                     if t.id not in (ACTIVE, ARCHIVED)])
    assert isinstance(bot.get_channel(thread), discord.Thread), \
        "Discord announces the thread the bot started (THREAD_CREATE)"


async def test_a_thread_archived_or_deleted_by_a_moderator_reaches_the_bot_over_the_socket(
        server: OfflineServer, connected: CandyBot) -> None:
    rec = server.recorder
    payload = server.call(server.gateway.command, ALICE, "game", "new",
                          {"game": "sugar-blast"}, channel_id=CHANNEL_ID)
    server.call(server.gateway.dispatch, payload)
    await wait_for(lambda: server.call(lambda: len(rec.threads())) == 3, "no thread started")
    (thread,) = server.call(lambda: [t.id for t in rec.threads()
                                     if t.id not in (ACTIVE, ARCHIVED)])
    await wait_for(lambda: connected.get_channel(thread) is not None, "THREAD_CREATE lost")
    store = connected.tables.store
    # A moderator archives the lobby's thread once the lobby is in it (its row written
    # after Discord made the thread), as people do, not in the same millisecond.
    for _ in range(500):
        if await store.games.open_game(thread) is not None:
            break
        await asyncio.sleep(0.02)
    server.call(server.gateway.archive, thread)  # THREAD_UPDATE: the bot reopens it
    await wait_for(lambda: not server.call(lambda: rec.room(thread).archived),
                   "the bot never reopened its lobby's thread")
    server.call(server.gateway.delete_channel, thread)  # THREAD_DELETE: the lobby ends
    for _ in range(500):
        if await store.games.open_game(thread) is None:
            break
        await asyncio.sleep(0.02)
    assert await store.games.open_game(thread) is None, "the lobby of a deleted thread ends"


async def test_asked_to_reconnect_the_bot_resumes_or_identifies_when_discord_forgot_it(
        server: OfflineServer, connected: CandyBot) -> None:
    server.reconnect()
    await wait_for(lambda: len(server.resumes) == 1, "the bot never resumed")
    assert len(server.readies) == 1
    await wait_for(lambda: connected.metrics.reconnects._value.get() == 1,
                   "the bot never heard it resumed")
    server.reconnect(resumable=False)
    await wait_for(lambda: len(server.readies) == 2, "the bot never identified afresh")
    await wait_for(lambda: server.connected() == 1, "the bot is not connected")


#: A stand-in for a bot process: it posts ``message 1``, ``message 2``... and prints each
#: answer's id as it gets it.
POSTER = """\
import json, sys, urllib.request
for n in range(1, 6):
    request = urllib.request.Request(
        sys.argv[1] + "/channels/%s/messages" % sys.argv[2], method="POST",
        data=json.dumps({"content": "message %d" % n}).encode(),
        headers={"Authorization": "Bot " + sys.argv[3], "Content-Type": "application/json"})
    print(json.load(urllib.request.urlopen(request))["id"], flush=True)
"""


@pytest.mark.parametrize("after", [False, True])
def test_a_kill_at_the_third_request_comes_before_or_after_discord_carries_it_out(
        server: OfflineServer, after: bool) -> None:
    poster = subprocess.Popen([sys.executable, "-c", POSTER, server.base, str(CHANNEL_ID),
                               TOKEN], stdout=subprocess.PIPE, text=True)
    kill = server.kill_at(poster.pid, nth=3, after=after)
    out, _ = poster.communicate(timeout=30)
    assert poster.returncode == -9 and kill.fired.wait(5)
    assert kill.request is not None and kill.request.content == "message 3"
    assert len(out.split()) == 2, "the bot never hears the answer to the third"
    created = server.call(lambda: [m["content"] for m in server.recorder.messages.values()])
    assert created == ["message 1", "message 2", "message 3"][:3 if after else 2]
