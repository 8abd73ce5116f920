"""Discord's rate limits as discord.py meets them: the offline Discord on real sockets
(tools/offline_http.py) answers with the headers and 429s of tools/ratelimits.py, and
discord.py's own HTTP client reacts to them as it does to Discord's.

The windows here are a fraction of a second so that the tests are quick; what is
checked is what discord.py and the bot do, never how long it took."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import discord
import pytest
from discord.http import HTTPClient, Route

from bot.app import create_bot
from bot.config import Settings
from bot.discord.client import CandyBot
from bot.games import GAMES
from bot.games.engine import SeatInfo, dumps
from bot.store import Announcement, SeatRecord
from tests.support.discord_harness import fake_render
from tools.offline import APP_ID, GUILD_ID, Gateway, Recorder, Sent, settle
from tools.offline_http import OfflineServer
from tools.ratelimits import RateLimits, Rule

MESSAGES = ("POST", "/channels/{id}/messages")


@pytest.fixture
async def client() -> AsyncIterator[tuple[HTTPClient, Recorder]]:
    """discord.py's HTTP client logged in to the offline Discord, over a socket."""
    recorder = Recorder()
    recorder.limits = RateLimits(application_id=APP_ID, rules={MESSAGES: Rule(2, 0.3)})
    with OfflineServer(recorder):
        http = HTTPClient(asyncio.get_running_loop())
        await http.static_login("offline-token")
        try:
            yield http, recorder
        finally:
            await http.close()


def post(http: HTTPClient, channel: int, text: str) -> asyncio.Future[object]:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
    return asyncio.ensure_future(http.request(route, json={"content": text}))


async def test_discord_py_learns_a_bucket_from_the_headers_and_waits_instead_of_asking(
        client: tuple[HTTPClient, Recorder]) -> None:
    http, recorder = client
    texts = [f"message {n}" for n in range(7)]
    for text in texts:  # one after another, as the outbox sends a channel's announcements
        await post(http, 1, text)
    await asyncio.gather(*(post(http, 2, text) for text in texts))  # and all at once
    assert recorder.limits is not None
    assert recorder.limits.count(429) == 0
    assert [s.content for s in recorder.sent if s.created and s.channel_id == 1] == texts
    assert sorted(s.content for s in recorder.sent if s.created and s.channel_id == 2) == texts


async def test_discord_py_sleeps_a_429s_retry_after_and_tries_again(
        client: tuple[HTTPClient, Recorder]) -> None:
    http, recorder = client
    limits = recorder.limits
    assert limits is not None
    for _ in range(2):  # another process on the same token spends the channel's bucket
        assert limits.admit("POST", "/channels/3/messages") is None
    await post(http, 3, "after the wait")
    assert limits.count(429, "user") == 1
    assert [s.failed for s in recorder.sent] == [429, None]
    assert recorder.sent[-1].created
    assert recorder.sent[1].at - recorder.sent[0].at >= 0.1  # it slept before trying again


async def test_a_banned_bot_gets_cloudflares_429_which_discord_py_does_not_retry(
        client: tuple[HTTPClient, Recorder]) -> None:
    http, recorder = client
    limits = recorder.limits
    assert limits is not None
    for _ in range(limits.invalid_limit):
        limits.answered(403)
    with pytest.raises(discord.HTTPException) as refused:
        await post(http, 4, "banned")
    assert refused.value.status == 429 and refused.value.text == "error code: 1015"
    assert [s.failed for s in recorder.sent] == [429]  # asked once, never again


# --------------------------------------------------------------------------- the bot


#: The offline Discord's global limit in the bot's tests, and the bot's own pace under it
#: (with its burst of 2: at most 22 in any second, 8 to spare for the network's jitter).
GLOBAL, PACE = 30, 20
ANNOUNCING = range(100, 140)  # channels with announcements queued
PER_CHANNEL = 2
MOVER = 1  # the channel a player moves in meanwhile


async def bot_on_sockets(tmp_path: Path, recorder: Recorder, pace: int,
                         server: OfflineServer) -> tuple[CandyBot, Gateway]:
    settings = Settings(token=None, db_path=tmp_path / "bot.db", requests_per_second=pace)
    bot = create_bot(settings, games=GAMES, renderer=fake_render, clock=time.time)
    return bot, await server.connect(bot)


async def queue_burst(bot: CandyBot) -> None:
    """Announcements due at once in many channels, each channel's in turn."""
    items = [Announcement(channel_id=channel, guild_id=GUILD_ID, game_id=None, kind="notice",
                          content=f"announcement {k} of channel {channel}")
             for k in range(PER_CHANNEL) for channel in ANNOUNCING]
    await bot.tables.store.outbox.queue_announcements(items, time.time())


async def open_game(bot: CandyBot) -> str:
    """A Sugar Blast game of three people in :data:`MOVER`; the move its first player makes."""
    game = GAMES["sugar-blast"]
    seats = [SeatInfo(f"Player {n}") for n in range(3)]
    state = game.new(seats, 7)
    store = bot.tables.store
    record = await store.games.create_lobby(channel_id=MOVER, guild_id=GUILD_ID, game=game.slug,
                                            creator_id=PLAYER, options={}, settings={},
                                            now=time.time())
    await store.games.start(record.id, record.version, seed=7, state_json=dumps(state),
                            seats=[SeatRecord(n, PLAYER + n, s.name, False)
                                   for n, s in enumerate(seats)],
                            now=time.time(), next_reminder_at=None)
    seat = min(game.to_act(state))
    assert seat == 0
    return game.ai_action(state, seat).notation


PLAYER = 5000


async def until(test: Callable[[], bool], seconds: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not test():
        assert loop.time() < deadline, "waited too long"
        await asyncio.sleep(0.005)


def announcements(recorder: Recorder) -> list[Sent]:
    return [s for s in recorder.sent if s.created and s.channel_id in ANNOUNCING]


async def test_a_drain_keeps_the_bots_pace_in_order_and_a_move_goes_before_it(
        tmp_path: Path) -> None:
    recorder = Recorder()
    recorder.limits = RateLimits(application_id=APP_ID, global_limit=GLOBAL,
                                 rules={MESSAGES: Rule(5, 1.0)})
    with OfflineServer(recorder) as server:
        bot, gateway = await bot_on_sockets(tmp_path, recorder, PACE, server)
        try:
            move = await open_game(bot)
            await queue_burst(bot)
            drain = asyncio.create_task(bot.outbox.run())
            # The first batch (one announcement of each channel) is under way: past the
            # burst, 30 and more of its requests wait for the pace.
            await until(lambda: len(announcements(recorder)) >= 7)
            before = len(recorder.sent)
            gateway.dispatch(gateway.command(PLAYER, "play", options={"action": move},
                                             channel_id=MOVER))
            await until(lambda: any(s.channel_id == MOVER and s.pngs and s.created
                                    for s in recorder.sent[before:]))
            board = next(n for n, s in enumerate(recorder.sent) if n >= before
                         and s.channel_id == MOVER and s.pngs)
            overtaken = [s for s in recorder.sent[before:board] if s.channel_id in ANNOUNCING]
            await until(lambda: len(announcements(recorder)) == len(ANNOUNCING) * PER_CHANNEL)
            drain.cancel()
            await settle(ignore=[drain])
        finally:
            await bot.close()
    limits = recorder.limits
    # The move's board went before the announcements waiting for the pace: only those let
    # go while it was being worked out came between (without its priority, 20 and more).
    assert len(overtaken) <= 10, [s.content for s in overtaken]
    # Nothing over a limit: the bot kept its own pace and discord.py the channels' buckets.
    assert limits.count(429) == 0 and limits.invalid_total == 0
    assert limits.peak() <= GLOBAL
    # Every announcement once, each channel's in order.
    sent = [s.content for s in announcements(recorder)]
    assert sorted(sent) == sorted(f"announcement {k} of channel {c}"
                                  for k in range(PER_CHANNEL) for c in ANNOUNCING)
    for channel in ANNOUNCING:
        assert [text for text in sent if text.endswith(f"channel {channel}")] == [
            f"announcement {k} of channel {channel}" for k in range(PER_CHANNEL)]


async def test_without_its_pace_the_bot_meets_the_global_limit(tmp_path: Path) -> None:
    """The control: the same announcements sent as fast as discord.py lets them go draw
    global 429s from the offline Discord, as they did from Discord before the pacing."""
    recorder = Recorder()
    recorder.limits = RateLimits(application_id=APP_ID, global_limit=GLOBAL,
                                 rules={MESSAGES: Rule(5, 1.0)})
    with OfflineServer(recorder) as server:
        bot, _gateway = await bot_on_sockets(tmp_path, recorder, 0, server)
        try:
            assert bot.pacer is None
            await queue_burst(bot)
            drain = asyncio.create_task(bot.outbox.run())
            await until(lambda: recorder.limits is not None
                        and recorder.limits.count(429, "global") > 0)
            drain.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await drain
        finally:
            await bot.close()
    assert recorder.limits.peak() > GLOBAL
