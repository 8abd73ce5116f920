"""Discord's rate limits as discord.py meets them: the offline Discord on real sockets
(tools/offline_http.py) answers with the headers and 429s of tools/ratelimits.py, and
discord.py's own HTTP client reacts to them as it does to Discord's.

The windows here are a fraction of a second so that the tests are quick; what is
checked is what discord.py and the bot do, never how long it took."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest
from discord.http import HTTPClient, Route

from tools.offline import APP_ID, Recorder
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
