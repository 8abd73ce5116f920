"""``candybot bench``: how fast a move is, measured on this machine.

Figures are medians and 95th percentiles over repeated runs, and the key
one is a ratio: a whole Sugar Blast move (load from SQLite, apply, commit,
render) against python-chess drawing a board through cairosvg at the same
width, which is how Discord chess bots make their images. The AI's win rate
against a uniformly random player is measured here too, not in a timed test.
"""

from __future__ import annotations

import asyncio
import io
import json
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.games import get_game
from bot.games.engine import SeatInfo, State, dumps, loads
from bot.games.rng import Rng

GAME = "sugar-blast"


def _stats(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median": statistics.median(ordered), "p95": p95}


def _timed(fn: Callable[[], Any], samples: int) -> tuple[list[float], list[Any]]:
    times, results = [], []
    for _ in range(samples):
        start = time.perf_counter()
        results.append(fn())
        times.append((time.perf_counter() - start) * 1000)
    return times, results


def _sample_views(samples: int) -> list[dict[str, Any]]:
    """Spectator views from real AI games, one per move, enough for ``samples``."""
    game = get_game(GAME)
    views: list[dict[str, Any]] = []
    seed = 0
    while len(views) < samples:
        state = game.new([SeatInfo(n, ai=True) for n in ("Ana", "Bo", "Cy")], seed)
        while game.to_act(state) and len(views) < samples:
            seat = min(game.to_act(state))
            state = game.apply(state, seat, game.ai_action(state, seat)).state
            views.append(game.view(state, None))
        seed += 1
    return views


def bench_render(samples: int) -> dict[str, Any]:
    from PIL import Image

    from renderers import render

    views = iter(_sample_views(samples))
    render(next(iter(_sample_views(1))))  # warm fonts and caches
    times, pngs = _timed(lambda: render(next(views)), samples)
    width = Image.open(io.BytesIO(pngs[0])).width
    sizes = [len(p) / 1024 for p in pngs]
    return {"render_ms": _stats(times), "png_kb": _stats(sizes), "width_px": width}


async def _bench_moves(samples: int, folder: Path) -> list[float]:
    from bot.store import SeatRecord, Store
    from renderers import render

    game = get_game(GAME)
    store = await Store.open(folder / "bench.db")
    times: list[float] = []
    try:
        channel = 0
        record = None
        while len(times) < samples:
            if record is None:
                channel += 1
                seats = [SeatInfo(n, ai=True) for n in ("Ana", "Bo", "Cy")]
                state = game.new(seats, channel)
                rows = [SeatRecord(i, None, s.name, True) for i, s in enumerate(seats)]
                record = await store.create_lobby(channel_id=channel, guild_id=None, game=GAME,
                                                  creator_id=0, options={}, settings={}, now=0.0)
                record = await store.start(record.id, record.version, seed=channel,
                                           state_json=dumps(state), seats=rows, now=0.0,
                                           next_reminder_at=None)
            start = time.perf_counter()
            record = await store.get_game(record.id)
            assert record.state_json is not None
            state = loads(record.state_json, game)
            seat = min(game.to_act(state))
            outcome = game.apply(state, seat, game.ai_action(state, seat))
            over = game.result(outcome.state) is not None
            record = await store.commit_move(
                record.id, record.version, state_json=dumps(outcome.state), seat=seat,
                user_id=None, notation=outcome.action.notation,
                narration=" ".join(e.text for e in outcome.events), undoable=outcome.undoable,
                now=0.0, turn_changed=True, next_reminder_at=None)
            await asyncio.to_thread(render, game.view(outcome.state, None))
            times.append((time.perf_counter() - start) * 1000)
            if over:
                await store.abort(record.id, 0.0)
                record = None
    finally:
        await store.close()
    return times


def bench_move(samples: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        times = asyncio.run(_bench_moves(samples, Path(folder)))
    return {"move_ms": _stats(times)}


def bench_chess(samples: int, width: int) -> dict[str, Any] | None:
    """python-chess SVG -> PNG through cairosvg, at ``width`` pixels (the `bench` extra)."""
    try:
        import cairosvg
        import chess
        import chess.svg
    except ImportError:
        return None
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    lastmove = chess.Move.from_uci("g1f3")

    def draw() -> bytes:
        svg = chess.svg.board(board, size=width, lastmove=lastmove)
        return cairosvg.svg2png(bytestring=svg.encode(), output_width=width)

    draw()
    times, pngs = _timed(draw, samples)
    return {"chess_render_ms": _stats(times), "chess_png_kb": len(pngs[0]) / 1024}


def ai_win_rate(games: int = 200) -> float:
    """Share of 2-player games the AI wins against a uniformly random legal player.

    The AI takes seat 0 in even games and seat 1 in odd ones, so going first
    is no advantage to either side.
    """
    game = get_game(GAME)
    wins = 0
    for seed in range(games):
        ai_seat = seed % 2
        state: State = game.new([SeatInfo("A"), SeatInfo("B")], seed)
        pick = Rng.from_seed(10_000 + seed)
        while game.to_act(state):
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            action = game.ai_action(state, seat) if seat == ai_seat else pick.choice(legal)
            state = game.apply(state, seat, action).state
        result = game.result(state)
        assert result is not None
        if result.winners == (ai_seat,):
            wins += 1
    return wins / games


def bench(as_json: bool = False, samples: int = 60) -> int:
    """Run every figure and print them (one JSON line with ``as_json``)."""
    figures: dict[str, Any] = {"machine": f"{platform.machine()} {platform.python_version()}",
                               "samples": samples}
    figures.update(bench_render(samples))
    figures.update(bench_move(samples))
    chess_figures = bench_chess(samples, figures["width_px"])
    if chess_figures:
        figures.update(chess_figures)
        figures["move_vs_chess_render"] = (figures["move_ms"]["median"]
                                           / chess_figures["chess_render_ms"]["median"])
    figures["ai_win_rate_vs_random_2p"] = ai_win_rate()
    if as_json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print(f"Sugar Blast on {figures['machine']}, {samples} samples each")
    print(f"  render:     median {figures['render_ms']['median']:.1f} ms, "
          f"p95 {figures['render_ms']['p95']:.1f} ms, {figures['width_px']} px wide")
    print(f"  PNG size:   median {figures['png_kb']['median']:.0f} KB, "
          f"p95 {figures['png_kb']['p95']:.0f} KB")
    print(f"  whole move: median {figures['move_ms']['median']:.1f} ms, "
          f"p95 {figures['move_ms']['p95']:.1f} ms (load, apply, commit, render)")
    if chess_figures:
        print(f"  chess board via python-chess + cairosvg: median "
              f"{figures['chess_render_ms']['median']:.1f} ms, p95 "
              f"{figures['chess_render_ms']['p95']:.1f} ms")
        print(f"  a move takes {figures['move_vs_chess_render']:.2f}x the chess render "
              "(target: under 0.25x)")
    else:
        print("  chess comparison skipped: install the `bench` extra (chess, cairosvg)")
    print(f"  AI wins {figures['ai_win_rate_vs_random_2p']:.0%} of 200 two-player games "
          "against a random player (target: at least 70%)")
    return 0
