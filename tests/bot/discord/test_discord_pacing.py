"""The bot paces its own requests (bot/discord/pacing.py): one budget under Discord's
global limit, moves' requests before background work, each kind in order. The pacer's
clock is driven by the test: it sleeps in simulated time."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from bot.config import ConfigError, Settings, parse_pace
from bot.discord import pacing
from bot.discord.pacing import BURST, DEFAULT_PER_SECOND, Pacer, bound_by_global

APP = 900000000000000001


class Simulated:
    """Simulated time: ``sleep`` moves the clock on at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)  # the requests let go before it slept see the time they went
        self.now += seconds


def pacer(time: Simulated, per_second: int = DEFAULT_PER_SECOND, burst: int = BURST) -> Pacer:
    return Pacer(per_second, burst=burst, clock=time, sleep=time.sleep)


def most_in_a_second(times: Sequence[float]) -> int:
    """The most of ``times`` inside any one second (a window sliding over them)."""
    ordered = sorted(times)
    best = start = 0
    for end, at in enumerate(ordered):
        while ordered[start] <= at - 1.0 + 1e-9:
            start += 1
        best = max(best, end - start + 1)
    return best


async def take(pace: Pacer, time: Simulated, label: str, log: list[tuple[str, float]],
               urgent: bool) -> None:
    await pace.acquire(urgent)
    log.append((label, time.now))


async def test_the_pace_never_exceeds_the_budget_in_any_simulated_second() -> None:
    time = Simulated()
    pace = pacer(time)
    log: list[tuple[str, float]] = []
    await asyncio.gather(*(take(pace, time, f"b{n}", log, urgent=False) for n in range(400)))
    times = [at for _, at in log]
    assert len(times) == 400 and pace.granted == 400
    assert most_in_a_second(times) <= DEFAULT_PER_SECOND + BURST
    assert most_in_a_second(times) <= 42 < 50  # Discord's global limit, with room to spare
    assert times[:BURST] == [0.0] * BURST  # an idle budget lets a few go at once...
    gaps = [b - a for a, b in zip(times[BURST:], times[BURST + 1:], strict=False)]
    assert min(gaps) == pytest.approx(1 / DEFAULT_PER_SECOND)  # ...then one every 1/40 s
    assert times[-1] == pytest.approx((400 - BURST) / DEFAULT_PER_SECOND)
    # Each simulated second, counted from zero, stays within the budget too.
    per_second = [sum(1 for t in times if k <= t < k + 1) for k in range(11)]
    assert max(per_second) <= DEFAULT_PER_SECOND + BURST
    assert sum(per_second[1:9]) == 8 * DEFAULT_PER_SECOND  # the steady pace is the budget


async def test_a_quiet_budget_lets_requests_go_at_once() -> None:
    time = Simulated()
    pace = pacer(time)
    log: list[tuple[str, float]] = []
    for n in range(BURST):
        await take(pace, time, f"u{n}", log, urgent=True)
    assert [at for _, at in log] == [0.0] * BURST and pace.waited == 0
    time.now += 10.0  # quiet: the whole burst is back
    await asyncio.gather(*(take(pace, time, f"v{n}", log, urgent=True) for n in range(BURST)))
    assert pace.waited == 0


async def test_urgent_requests_overtake_the_background_work_waiting() -> None:
    time = Simulated()
    pace = pacer(time, per_second=10, burst=1)
    log: list[tuple[str, float]] = []
    asked: dict[str, float] = {}

    async def urgent(label: str) -> None:
        asked[label] = time.now
        await take(pace, time, label, log, urgent=True)

    background = [asyncio.create_task(take(pace, time, f"b{n}", log, urgent=False))
                  for n in range(30)]
    while len(log) < 5:  # the background drain is under way
        await asyncio.sleep(0)
    moves = [asyncio.create_task(urgent(f"u{n}")) for n in range(3)]
    await asyncio.gather(*background, *moves)
    order = [label for label, _ in log]
    first = order.index("u0")
    # The urgent ones went next, one after another: nothing asked before them went first
    # but what was let go by the time they asked, though 20 and more background requests
    # were still waiting.
    assert order[first:first + 3] == ["u0", "u1", "u2"]
    assert all(at <= asked["u0"] for _, at in log[:first])
    assert first < 10
    assert [at - asked[label] for label, at in log[first:first + 3]] == pytest.approx(
        [0.1, 0.2, 0.3])
    # Background requests kept their order (a channel's announcements stay in order).
    assert [label for label in order if label.startswith("b")] == [f"b{n}" for n in range(30)]


async def test_background_waits_behind_urgent_even_with_room_for_one() -> None:
    time = Simulated()
    pace = pacer(time, per_second=10, burst=1)
    log: list[tuple[str, float]] = []
    await take(pace, time, "first", log, urgent=True)
    waiting = [asyncio.create_task(take(pace, time, "bg", log, urgent=False)),
               asyncio.create_task(take(pace, time, "move", log, urgent=True))]
    await asyncio.gather(*waiting)
    assert [label for label, _ in log] == ["first", "move", "bg"]


async def test_a_request_given_up_while_waiting_takes_no_budget() -> None:
    time = Simulated()
    pace = pacer(time, per_second=10, burst=1)
    log: list[tuple[str, float]] = []
    tasks = [asyncio.create_task(take(pace, time, f"b{n}", log, urgent=False))
             for n in range(5)]
    await asyncio.sleep(0)
    tasks[2].cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert [label for label, _ in log] == ["b0", "b1", "b3", "b4"]
    assert pace.granted == 4
    assert [at for _, at in log] == pytest.approx([0.0, 0.1, 0.2, 0.3])


async def test_background_marks_the_requests_of_a_block_and_the_tasks_it_starts() -> None:
    assert not pacing.in_background()

    async def seen() -> bool:
        return pacing.in_background()

    with pacing.background():
        assert pacing.in_background()
        assert await asyncio.create_task(seen())
    assert not pacing.in_background()
    assert not await asyncio.create_task(seen())


def test_interaction_answers_are_not_counted_against_the_global_limit() -> None:
    assert bound_by_global("/api/v10/channels/1/messages", APP)
    assert bound_by_global("/api/v10/channels/1/messages/2", APP)
    assert bound_by_global("/api/v10/users/@me/channels", APP)
    assert not bound_by_global("/api/v10/interactions/5/token/callback", APP)
    assert not bound_by_global(f"/api/v10/webhooks/{APP}/token", APP)
    assert not bound_by_global(f"/api/v10/webhooks/{APP}/token/messages/@original", APP)
    assert bound_by_global("/api/v10/webhooks/123/another", APP)
    assert not bound_by_global("/", APP)  # the gateway's websocket
    assert not bound_by_global("/attachments/1/2/board.png", APP)  # the CDN


def test_the_pace_is_a_setting() -> None:
    assert Settings().requests_per_second == DEFAULT_PER_SECOND
    assert Settings.from_env({"CANDYBOT_REQUESTS_PER_SECOND": "20"},
                             None).requests_per_second == 20
    assert parse_pace("0") == 0 and parse_pace(" ") == DEFAULT_PER_SECOND
    for wrong in ("46", "50", "-1", "fast", "2.5"):
        with pytest.raises(ConfigError, match="CANDYBOT_REQUESTS_PER_SECOND"):
            parse_pace(wrong)
