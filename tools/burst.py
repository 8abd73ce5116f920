"""``candybot bench --burst N``: the morning burst, measured against Discord's rate limits.

``N`` announcements (reminders) fall due at once over ``--burst-channels`` channels, as
when quiet hours end or the bot comes back after an outage, and the bot's outbox
delivers them while players move in other channels. The bot runs as ``candybot run``
runs it, with discord.py's own HTTP client, talking over a loopback socket to the
offline Discord (:mod:`tools.offline_http`), which answers with Discord's rate limits
(:mod:`tools.ratelimits`: per-route buckets, 50 requests a second, 429s, the invalid
requests that get a bot banned).

Figures: how many announcements were delivered and how fast, the most requests that
reached Discord in any one second (of those the global limit counts), the 429s by
scope, the invalid requests, whether every channel got its announcements once and in
order, and the moves made during the drain, from the interaction to their board (median,
p95) and to their acknowledgement. ``--pace 0`` runs the same without the bot's pacing
(:mod:`bot.discord.pacing`): discord.py alone, which only reacts to 429s.

Targets: at most 50 requests in any second, no 429 the bot could have avoided
(global or of a route's own bucket), fewer than 100 invalid requests, each channel's
announcements in order, moves during the drain answered with p95 under 500 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.games import GAMES, get_game
from bot.games.engine import Engine
from tools.bench import (
    USER_BASE,
    BenchBot,
    BenchChannel,
    Renderer,
    alone,
    game_of,
    prepare_move,
)

TARGET_PEAK = 50
TARGET_INVALID = 100
TARGET_MOVE_P95_MS = 500.0
#: Burst channels' ids start here (the movers' channels are 1, 2, ...).
BURST_CHANNEL_BASE = 10_000_000
TICK_S = 0.005


def _stats(samples: Sequence[float]) -> dict[str, float]:
    if not samples:
        return {"median": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median": statistics.median(ordered), "p95": p95, "max": ordered[-1]}


def _reminders(count: int, channels: int, now: float) -> list[Any]:
    """``count`` reminders over ``channels`` channels, queued a round at a time (the first
    of every channel, then the second...), as reminder passes queue them."""
    from bot.store import Announcement
    from tools.offline import GUILD_ID

    slugs = list(GAMES)
    out = []
    for n in range(count):
        channel = BURST_CHANNEL_BASE + n % channels
        user = USER_BASE + 1000 + n % channels
        slug = slugs[n % channels % len(slugs)]
        data = {"about": "reminder", "game": slug, "number": 1 + n // channels % 3, "of": 3,
                "last": False, "takeover_at": None, "waiting_since": now - 8 * 3600,
                "users": [[user, 0]], "since": [], "since_more": 0}
        out.append(Announcement(channel_id=channel, guild_id=GUILD_ID, game_id=None,
                                kind="reminder", mentions=(user,),
                                data=data))
    return out


def _order(db: Path, sent: Sequence[Any]) -> dict[str, int]:
    """How the channels' announcements arrived, against the order they were queued in:
    delivered, delivered twice, out of order, and channels whose order broke."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        queued = {nonce: (channel, row) for row, channel, nonce in
                  conn.execute("SELECT id, channel_id, nonce FROM outbox")}
    last: dict[int, int] = {}
    seen: set[str] = set()
    twice = late = 0
    broken: set[int] = set()
    for message in sent:
        nonce = str(message.body.get("nonce") or "")
        if nonce not in queued:
            continue
        if nonce in seen:
            twice += 1
            continue
        seen.add(nonce)
        channel, row = queued[nonce]
        if row < last.get(channel, 0):
            late += 1
            broken.add(channel)
        last[channel] = row
    return {"delivered": len(seen), "twice": twice, "out_of_order": late,
            "channels_out_of_order": len(broken)}


def bench_burst(announcements: int, channels: int, *, renderer: Renderer | None = None,
                pace: int | None = None, movers: int = 20, move_every: float = 0.5,
                timeout: float = 1800.0) -> dict[str, Any]:
    """The morning burst (see the module text). ``pace``: the bot's requests a second
    (``None``: its default; 0: no pacing)."""
    from bot.app import create_bot
    from bot.config import DEFAULT_PER_SECOND, Settings
    from bot.discord.client import freeze_heap
    from tools.offline import APP_ID, Recorder
    from tools.offline_http import OfflineServer
    from tools.ratelimits import RateLimits

    pace = DEFAULT_PER_SECOND if pace is None else pace
    games: list[Engine] = [get_game(slug) for slug in GAMES]

    async def run(folder: Path) -> dict[str, Any]:
        recorder = Recorder()
        limits = recorder.limits = RateLimits(application_id=APP_ID)
        settings = Settings(token=None, db_path=folder / "burst.db", requests_per_second=pace)
        with OfflineServer(recorder) as server:
            bot = create_bot(settings, renderer=renderer, clock=time.time)
            gateway = await server.connect(bot)
            freeze_heap()
            try:
                return await work(BenchBot(bot, gateway, recorder), limits, folder / "burst.db")
            finally:
                await bot.close()
                gc.unfreeze()

    async def work(bot: BenchBot, limits: Any, db: Path) -> dict[str, Any]:
        from tools.offline import settle

        table = [BenchChannel(n + 1) for n in range(movers)]
        for channel in table:
            await prepare_move(bot.store, game_of(games, channel), channel)
        await bot.play(table)  # a first move each, untimed: caches warm as in a live bot
        await bot.store.outbox.queue_announcements(_reminders(announcements, channels, time.time()),
                                                   time.time())
        limits.seen.clear()
        first = len(bot.recorder.sent)
        lags: list[float] = []
        running = True

        async def ticker() -> None:
            while running:
                start = time.perf_counter()
                await asyncio.sleep(TICK_S)
                lags.append((time.perf_counter() - start - TICK_S) * 1000)

        tick = asyncio.create_task(ticker())
        start = time.perf_counter()
        drain = asyncio.create_task(bot.bot.outbox.run(), name="burst-drain")
        boards: list[float] = []
        acks: list[float] = []
        turn = 0
        try:
            while await bot.bot.outbox.pending():
                if time.perf_counter() - start > timeout or limits.banned_until is not None:
                    break  # a banned bot delivers nothing for an hour
                channel = table[turn % len(table)]
                turn += 1
                await prepare_move(bot.store, game_of(games, channel), channel)
                moved = time.perf_counter()
                answer = await _move(bot, channel, moved)
                if answer is not None:
                    acks.append(answer[0])
                    boards.append(answer[1])
                await asyncio.sleep(max(0.0, move_every - (time.perf_counter() - moved)))
            drained = time.perf_counter() - start
        finally:
            drain.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await drain
            running = False
            await tick
        await settle()
        left = await bot.bot.outbox.pending()
        sent = [s for s in bot.recorder.sent[first:]
                if s.channel_id is not None and s.channel_id >= BURST_CHANNEL_BASE]
        created = [s for s in sent if s.created]
        order = _order(db, created)
        last_at = max((s.at for s in created), default=start)
        pacer = bot.bot.pacer
        return {
            "announcements": announcements, "channels": channels, "pace": pace,
            "movers": movers, "seconds": drained, "left": left,
            "delivered_per_s": order["delivered"] / max(1e-9, last_at - start),
            **order,
            "refused": sum(1 for s in sent if s.failed is not None),
            "peak_per_s": limits.peak(), "peak_per_s_all": limits.peak(global_bound=False),
            "global_429": limits.count(429, "global"), "route_429": limits.count(429, "user"),
            "shared_429": limits.count(429, "shared"),
            "banned_429": limits.count(429, "cloudflare"), "invalid": limits.invalid_total,
            "banned": limits.banned_until is not None,
            "moves": len(boards), "move_board_ms": _stats(boards),
            "move_acknowledged_ms": _stats(acks), "stall_ms": _stats(lags),
            "paced": {"granted": pacer.granted, "waited": pacer.waited} if pacer else None,
        }

    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(run(Path(folder)))


async def _move(bot: BenchBot, channel: BenchChannel, moved: float,
                wait: float = 30.0) -> tuple[float, float] | None:
    """``channel``'s player types their /play; until the interaction is acknowledged and
    until the board reaches the channel, in milliseconds (``None``: no board in ``wait``)."""
    recorder = bot.recorder
    seen = len(recorder.sent)
    payload = bot.gateway.command(channel.user_id, "play", options={"action": channel.text},
                                  channel_id=channel.channel_id)
    callback = f"/interactions/{payload['id']}/"
    bot.gateway.dispatch(payload)
    ack: float | None = None
    while time.perf_counter() - moved < wait:
        await asyncio.sleep(0.002)
        new, seen = recorder.sent[seen:], len(recorder.sent)
        for sent in new:
            if ack is None and sent.path.startswith(callback):
                ack = (sent.at - moved) * 1000
            if sent.channel_id == channel.channel_id and sent.pngs and sent.failed is None:
                return (ack if ack is not None else (sent.at - moved) * 1000,
                        (sent.at - moved) * 1000)
    return None


def print_burst(f: dict[str, Any]) -> None:
    ok = ("ok" if not f["banned"] and f["peak_per_s"] <= TARGET_PEAK and f["global_429"] == 0
          and f["route_429"] == 0 and f["invalid"] < TARGET_INVALID
          and f["out_of_order"] == 0 and f["twice"] == 0 and f["left"] == 0
          and f["move_board_ms"]["p95"] < TARGET_MOVE_P95_MS else "OVER TARGET")
    pace = f"paced at {f['pace']} a second" if f["pace"] else "not paced"
    print(f"Morning burst: {f['announcements']} announcements due at once over "
          f"{f['channels']} channels, the bot {pace}")
    if f["banned"]:
        print(f"  BANNED by Cloudflare after {f['seconds']:.0f} s: {f['invalid']} invalid "
              "requests in ten minutes")
    print(f"  delivered {f['delivered']} in {f['seconds']:.0f} s "
          f"({f['delivered_per_s']:.1f} a second), {f['left']} left, {f['twice']} twice, "
          f"{f['out_of_order']} out of order ({f['channels_out_of_order']} channels); "
          f"{f['refused']} of their requests refused")
    print(f"  at most {f['peak_per_s']} requests in any second (target at most {TARGET_PEAK}; "
          f"{f['peak_per_s_all']} with interaction answers); 429s: {f['global_429']} global, "
          f"{f['route_429']} of a route, {f['shared_429']} shared, {f['banned_429']} banned; "
          f"{f['invalid']} invalid requests (target under {TARGET_INVALID})")
    print(f"  {f['moves']} moves in {f['movers']} other channels meanwhile: board "
          f"median {f['move_board_ms']['median']:.0f} ms, p95 {f['move_board_ms']['p95']:.0f} ms "
          f"(target under {TARGET_MOVE_P95_MS:.0f}), acknowledged p95 "
          f"{f['move_acknowledged_ms']['p95']:.0f} ms; event loop stalls at most "
          f"{f['stall_ms']['max']:.0f} ms ({ok})")


def burst(announcements: int, channels: int, *, pace: int | None = None,
          as_json: bool = False) -> int:
    """``candybot bench --burst N``: the morning burst measured with a render pool of its
    own, its figures printed (one JSON line with ``as_json``)."""
    return alone(lambda pool: bench_burst(announcements, channels, renderer=pool, pace=pace),
                 print_burst, as_json)
