"""The offline Discord's copy of Discord's rate limits (tools/ratelimits.py), on a clock
the test drives: per-route buckets, the global limit, 429 bodies and headers, the invalid
requests that get a bot banned."""

from __future__ import annotations

import pytest

from tools.offline import APP_ID, Recorder
from tools.ratelimits import RATE_LIMITED, VIA, OverLimit, RateLimits, Rule, route_of


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limits(clock: Clock, **kwargs: object) -> RateLimits:
    return RateLimits(application_id=APP_ID, clock=clock, wall=lambda: 1_700_000_000.0 + clock.now,
                      **kwargs)  # type: ignore[arg-type]


def over(result: OverLimit | None) -> OverLimit:
    assert result is not None, "Discord carried the request out instead of answering 429"
    return result


def test_routes_are_counted_by_their_top_level_resource() -> None:
    post = route_of("POST", "/channels/123/messages")
    assert (post.template, post.major, post.global_bound) == (
        "/channels/{id}/messages", "channels/123", True)
    edit = route_of("PATCH", "/channels/123/messages/456")
    assert (edit.template, edit.major) == ("/channels/{id}/messages/{id}", "channels/123")
    followup = route_of("POST", f"/webhooks/{APP_ID}/tok-en", APP_ID)
    assert (followup.template, followup.major, followup.global_bound) == (
        "/webhooks/{id}/{token}", f"webhooks/{APP_ID}/tok-en", False)
    assert route_of("POST", "/webhooks/77/other", APP_ID).global_bound  # not an interaction's
    callback = route_of("POST", "/interactions/5/tok/callback", APP_ID)
    assert callback.interaction and not callback.global_bound
    assert route_of("POST", "/users/@me/channels").major == ""


def test_a_channel_bucket_allows_five_messages_per_five_seconds_and_says_so() -> None:
    clock = Clock()
    model = limits(clock)
    seen = []
    for _ in range(5):
        assert model.admit("POST", "/channels/1/messages") is None
        seen.append(model.headers("POST", "/channels/1/messages"))
        clock.now += 0.5
    assert [h["X-RateLimit-Remaining"] for h in seen] == ["4", "3", "2", "1", "0"]
    assert {h["X-RateLimit-Limit"] for h in seen} == {"5"}
    assert len({h["X-RateLimit-Bucket"] for h in seen}) == 1
    assert seen[0]["X-RateLimit-Reset-After"] == "5.000"
    assert seen[4]["X-RateLimit-Reset-After"] == "3.000"  # the window began with the first
    assert float(seen[4]["X-RateLimit-Reset"]) == pytest.approx(1_700_000_000.0 + 1005.0)
    # Another channel has a bucket of its own (the same hash: one route, two resources).
    assert model.admit("POST", "/channels/2/messages") is None
    assert model.headers("POST", "/channels/2/messages")["X-RateLimit-Remaining"] == "4"
    assert model.headers("POST", "/channels/2/messages")["X-RateLimit-Bucket"] == \
        seen[0]["X-RateLimit-Bucket"]
    refused = over(model.admit("POST", "/channels/1/messages"))
    assert refused.status == 429 and refused.scope == "user"
    assert refused.body == {"message": RATE_LIMITED, "retry_after": 2.5, "global": False}
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.headers["Retry-After"] == "3"  # whole seconds, rounded up
    assert refused.headers["Via"] == VIA  # discord.py retries only what came through Discord
    assert "X-RateLimit-Global" not in refused.headers
    clock.now += 2.5
    assert model.admit("POST", "/channels/1/messages") is None  # a new window
    assert model.headers("POST", "/channels/1/messages")["X-RateLimit-Remaining"] == "4"


def test_fifty_requests_in_a_second_then_the_global_limit_but_not_for_interactions() -> None:
    clock = Clock()
    model = limits(clock)
    for n in range(50):
        assert model.admit("POST", f"/channels/{n + 1}/messages") is None
        clock.now += 0.01
    refused = over(model.admit("POST", "/channels/99/messages"))
    assert refused.scope == "global"
    assert refused.body == {"message": RATE_LIMITED, "retry_after": 0.5, "global": True}
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.headers["Via"] == VIA
    # Interaction callbacks and the application's followups are not bound by it.
    assert model.admit("POST", "/interactions/5/tok/callback") is None
    assert model.admit("POST", f"/webhooks/{APP_ID}/tok") is None
    assert model.admit("PATCH", f"/webhooks/{APP_ID}/tok/messages/@original") is None
    assert model.admit("POST", "/webhooks/77/somebody-elses") is not None
    clock.now += 0.6  # the oldest requests leave the window
    assert model.admit("POST", "/channels/99/messages") is None
    assert model.count(429, "global") == 2
    assert model.peak() == 52  # 50 carried out and 2 refused reached Discord in one second
    assert model.peak(global_bound=False) == 55


def test_invalid_requests_are_counted_and_too_many_ban_the_bot() -> None:
    clock = Clock()
    model = limits(clock, invalid_limit=10, invalid_window=600.0, ban_seconds=3600.0,
                   rules={("POST", "/channels/{id}/messages"): Rule(1, 5.0),
                          ("PATCH", "/channels/{id}"): Rule(1, 600.0, scope="shared")})
    assert model.admit("POST", "/channels/1/messages") is None
    for _ in range(3):
        over(model.admit("POST", "/channels/1/messages"))
    assert model.invalid_total == 3
    # A shared resource's 429 is not the bot's fault: not counted.
    assert model.admit("PATCH", "/channels/1") is None
    shared = over(model.admit("PATCH", "/channels/1"))
    assert shared.scope == "shared" and shared.headers["X-RateLimit-Scope"] == "shared"
    assert model.invalid_total == 3
    model.answered(403)
    model.answered(401)
    model.answered(404)  # not an invalid request
    model.answered(500)
    model.answered(429, "shared")
    assert model.invalid_total == 5
    clock.now += 601  # ten minutes on, those no longer count
    assert model.invalid_now() == 0
    for _ in range(9):
        model.answered(403)
    assert model.banned_until is None
    model.answered(403)  # the ten-thousandth, here the tenth, in ten minutes
    assert model.banned_until == pytest.approx(clock.now + 3600)
    banned = over(model.admit("POST", "/channels/2/messages"))
    assert banned.scope == "cloudflare"
    assert banned.body == "error code: 1015"  # a text page: discord.py does not retry it
    assert "Via" not in banned.headers
    assert over(model.admit("POST", "/interactions/5/tok/callback")).scope == "cloudflare"
    clock.now += 3600
    assert model.admit("POST", "/channels/2/messages") is None


def test_the_recorder_answers_429_over_a_limit_and_records_it() -> None:
    clock = Clock()
    recorder = Recorder()
    recorder.limits = limits(clock)
    url = "https://discord.com/api/v10/channels/7/messages"
    for n in range(5):
        recorder._handle("http", "POST", url, {"content": f"hi {n}"}, None)
    with pytest.raises(OverLimit) as refused:
        recorder._handle("http", "POST", url, {"content": "one too many"}, None)
    assert refused.value.status == 429 and refused.value.retry_after == 5.0
    assert [s.failed for s in recorder.sent] == [None] * 5 + [429]
    assert not recorder.sent[-1].created
    assert [s.content for s in recorder.sent if s.created] == [f"hi {n}" for n in range(5)]
