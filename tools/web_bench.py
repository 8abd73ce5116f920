"""``candybot bench --web N``: N people watching one live game on the web companion.

The real bot on an offline Discord serves the companion in its own process, as ``candybot
run`` does, its pictures drawn by the render pool, while a player moves every two seconds.
The viewers run in another process (so that their work is not counted as the bot's), each
with its own connection and client address (as a reverse proxy forwards them): each opens
the game's page with its style, script and board, then asks every second what changed, as
the page's script does, and fetches the new board when there is one. They arrive over
the first :data:`ARRIVING` seconds. Every answer's time
is counted, and how long after each move each viewer saw it.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.ops import Exit
from tools.bench import BenchBot, BenchChannel, _stats, _with_bot, prepare_move

URL = "http://bench.invalid"
#: Seconds between the player's moves, and how often a page asks what changed.
MOVE_EVERY, POLL_EVERY = 2.0, 1.0
#: The viewers open the page one after another over this many seconds, as people
#: following a link arrive (all of them are watching for the rest of the run).
ARRIVING = 2.0


async def _viewer(base: str, path: str, n: int, count: int, until: float) -> dict[str, Any]:
    """One viewer: the page and what it loads, then a poll a second; every answer's time."""
    import aiohttp

    forwarded = {"X-Forwarded-For": f"10.{n // 250}.{n % 250}.1"}
    times: list[tuple[str, float]] = []
    seen: list[tuple[int, float]] = []
    await asyncio.sleep(ARRIVING * n / count)  # people arrive over a few seconds
    async with aiohttp.ClientSession(headers=forwarded) as http:

        async def get(kind: str, url: str) -> bytes:
            began = time.perf_counter()
            async with http.get(base + url) as answer:
                body = await answer.read()
                if answer.status != 200:
                    raise RuntimeError(f"{url} answered {answer.status}")
            times.append((kind, (time.perf_counter() - began) * 1000))
            return body

        page = (await get("page", path)).decode()
        await get("static", "/static/web.css")
        await get("static", "/static/web.js")
        version = int(page.split('data-version="', 1)[1].split('"', 1)[0])
        await get("picture", f"{path}/board.png?v={version}")
        while time.time() < until:
            live = json.loads(await get("live", f"{path}/live?v={version}"))
            if live["version"] != version:
                version = live["version"]
                seen.append((version, time.time()))
                await get("picture", live["board"])
            await asyncio.sleep(POLL_EVERY)
    return {"times": times, "seen": seen}


def _viewers(base: str, path: str, count: int, until: float, out: Any) -> None:
    """The viewers' process: ``count`` viewers at once; their figures sent down ``out``."""

    async def all_of() -> list[dict[str, Any]]:
        return list(await asyncio.gather(*(_viewer(base, path, n, count, until)
                                           for n in range(count))))

    out.send(asyncio.run(all_of()))
    out.close()


def bench_web(viewers: int, seconds: float, renderer: Any) -> dict[str, Any]:
    """``viewers`` watch one live Sugar Blast game for ``seconds`` while it is played."""
    from bot.games import GAMES
    from bot.web.server import WebServer
    from bot.web.service import WebService
    from tools.offline import GUILD_ID

    async def work(bot: BenchBot) -> dict[str, Any]:
        game = GAMES["sugar-blast"]
        channel = BenchChannel(1)
        await prepare_move(bot.store, game, channel)
        await bot.store.servers.set_server_settings(GUILD_ID, {"web": True}, time.time())
        service = WebService(bot.store, URL, renderer=renderer)
        site = WebServer(service)
        await site.start("127.0.0.1", 0)
        try:
            record = await bot.store.games.open_game(channel.channel_id)
            link = await service.link(record)
            assert link is not None
            path = link.removeprefix(URL)
            until = time.time() + seconds
            mine, theirs = multiprocessing.get_context("spawn").Pipe(duplex=False)
            watching = multiprocessing.get_context("spawn").Process(
                target=_viewers, args=(f"http://127.0.0.1:{site.port}", path, viewers,
                                       until, theirs))
            watching.start()
            theirs.close()
            moves: dict[int, float] = {}
            loop = asyncio.get_running_loop()
            while time.time() < until - MOVE_EVERY:
                await asyncio.sleep(MOVE_EVERY)
                bot.gateway.dispatch(bot.gateway.command(
                    channel.user_id, "play", options={"action": channel.text},
                    channel_id=channel.channel_id))
                moved = time.time()
                for _ in range(100):  # the move is saved: its version names it
                    await asyncio.sleep(0.02)
                    after = await bot.store.games.open_game(channel.channel_id)
                    if after is None or after.version != record.version:
                        break
                if after is None:
                    break
                moves[after.version] = moved
                record = after
                await prepare_move(bot.store, game, channel)
            figures = await loop.run_in_executor(None, mine.recv)
            await loop.run_in_executor(None, watching.join)
        finally:
            await site.close()
        times = [ms for viewer in figures for _kind, ms in viewer["times"]]
        by_kind: dict[str, list[float]] = {}
        for viewer in figures:
            for kind, ms in viewer["times"]:
                by_kind.setdefault(kind, []).append(ms)
        delays = [(at - moves[v]) * 1000 for viewer in figures for v, at in viewer["seen"]
                  if v in moves]
        return {"viewers": viewers, "seconds": seconds, "moves": len(moves),
                "requests": len(times), "answers_ms": _stats(times),
                "by_kind_ms": {k: _stats(v) for k, v in sorted(by_kind.items())},
                "seen_after_move_ms": _stats(delays) if delays else None,
                "cores": len(os.sched_getaffinity(0)), "load": os.getloadavg(),
                "pictures_drawn": service.pictures.drawn}

    with tempfile.TemporaryDirectory() as folder:
        return dict(asyncio.run(_with_bot(Path(folder), work, renderer)))


def print_web(f: dict[str, Any]) -> None:
    a = f["answers_ms"]
    print(f"Web companion: {f['viewers']} viewers of one live game for {f['seconds']:g} s, "
          f"{f['moves']} moves made meanwhile; {f['requests']} answers: median "
          f"{a['median']:.1f} ms, p95 {a['p95']:.1f} ms, most {a['max']:.1f} ms")
    for kind, s in f["by_kind_ms"].items():
        print(f"  {kind}: median {s['median']:.1f} ms, p95 {s['p95']:.1f} ms")
    seen = f["seen_after_move_ms"]
    if seen:
        print(f"  a move seen by its viewers after: median {seen['median']:.0f} ms, p95 "
              f"{seen['p95']:.0f} ms")
    print(f"  {f['pictures_drawn']} pictures drawn; {f['cores']} cores, load "
          f"{' '.join(f'{x:.2f}' for x in f['load'])} at the end")


def web_bench(viewers: int, seconds: float, as_json: bool) -> int:
    """``candybot bench --web N``: measure, with a render pool of the bot's own, and print."""
    from renderers.pool import PooledRenderer

    pool = PooledRenderer()
    try:
        pool.start()
        figures = bench_web(viewers, seconds, pool)
    finally:
        pool.close()
    if as_json:
        print(json.dumps(figures, sort_keys=True))
    else:
        print_web(figures)
    return Exit.OK
