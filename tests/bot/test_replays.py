"""Replays are heavy, so they are drawn once per game and version, written frame by frame,
and drawn a bounded number at a time; every viewer gets the same GIF."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image, ImageDraw, ImageSequence

from bot.games import GAMES
from bot.games.engine import SeatInfo
from bot.refusals import Busy
from bot.replays import MAX_FRAMES, ReplayJob, Replays, draw, shown_positions, views
from renderers import render
from renderers.common import palette_of
from renderers.gif import GifStream


def picture(n: int, size: tuple[int, int] = (120, 80)) -> Image.Image:
    image = Image.new("RGB", size, (250, 240, 230))
    ImageDraw.Draw(image).rectangle((5 * n, 10, 5 * n + 20, 40), fill=(200, 30, 30))
    return image


def frames_of(data: bytes) -> list[tuple[Image.Image, int]]:
    with Image.open(io.BytesIO(data)) as gif:
        return [(frame.convert("RGB").copy(), int(frame.info.get("duration", 0)))
                for frame in ImageSequence.Iterator(gif)]


def test_a_stream_shows_each_frame_as_given_and_merges_frames_alike() -> None:
    pictures = [picture(0), picture(1), picture(1), picture(2)]
    palette = palette_of(pictures)
    stream = GifStream(palette)
    for p in pictures:
        stream.add(p, 500)
    shown = frames_of(stream.finish())
    assert [ms for _f, ms in shown] == [500, 1000, 500], "the twin frame lengthens the one before"
    expected = [pictures[0], pictures[1], pictures[3]]
    for (frame, _ms), want in zip(shown, expected, strict=True):
        mapped = want.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        assert frame.tobytes() == mapped.tobytes()


def test_a_long_game_is_thinned_to_the_frames_a_replay_shows() -> None:
    assert shown_positions(10) == list(range(10))
    many = shown_positions(500)
    assert len(many) == MAX_FRAMES and many[0] == 0 and many[-1] == 499
    assert many == sorted(set(many))


def sugar_blast_job(moves: int) -> ReplayJob:
    game = GAMES["sugar-blast"]
    seats = [SeatInfo("Ann", True), SeatInfo("Bo", True)]
    state = game.new(seats, 4)
    log = []
    while game.to_act(state) and len(log) < moves:
        seat = min(game.to_act(state))
        action = game.ai_action(state, seat)
        log.append((seat, action.notation))
        state = game.apply(state, seat, action).state
    return ReplayJob(slug=game.slug, seats=(("Ann", True), ("Bo", True)), seed=4,
                     rules=game.rules_version, log=tuple(log))


def test_a_replay_shows_the_public_view_of_every_position() -> None:
    game = GAMES["sugar-blast"]
    job = sugar_blast_job(12)
    shown = list(views(game, job))
    assert len(shown) == 13 and all(v["table"]["viewer"] is None for v in shown)
    gif = draw(game, job, render)
    assert gif.startswith(b"GIF89a")
    assert 1 < len(frames_of(gif)) <= 13


async def test_everyone_asking_for_one_game_shares_one_drawing() -> None:
    replays = Replays(at_once=1, queue=20, clock=lambda: 0.0)
    drawn = 0

    async def drawing() -> bytes:
        nonlocal drawn
        drawn += 1
        await asyncio.sleep(0.05)
        return b"GIF89a-one"

    got = await asyncio.gather(*(replays.gif((1, 7), drawing) for _ in range(20)))
    assert set(got) == {b"GIF89a-one"} and drawn == 1
    assert await replays.gif((1, 7), drawing) == b"GIF89a-one" and drawn == 1
    await replays.gif((1, 8), drawing)
    assert drawn == 2, "a new version is a new replay"


async def test_replays_are_drawn_one_at_a_time_and_a_long_line_is_refused() -> None:
    replays = Replays(at_once=1, queue=3, clock=lambda: 100.0)
    running = peak = 0
    release = asyncio.Event()

    async def drawing() -> bytes:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await release.wait()
        running -= 1
        return b"GIF"

    tasks = [asyncio.create_task(replays.gif((n, 1), drawing)) for n in range(4)]
    await asyncio.sleep(0.01)
    with pytest.raises(Busy) as busy:
        await replays.gif((99, 1), drawing)
    assert busy.value.retry_at > 100.0
    release.set()
    await asyncio.gather(*tasks)
    assert peak == 1


async def test_the_cache_keeps_a_bounded_number_of_bytes() -> None:
    replays = Replays(at_once=1, queue=5, clock=lambda: 0.0, cache_bytes=1000)

    async def drawing() -> bytes:
        return b"x" * 200

    for n in range(10):
        await replays.gif((n, 1), drawing)
    assert len(replays.kept) == 5 and replays.kept[-1] == (9, 1)


def test_a_stream_of_frames_that_grow_and_shrink_shows_each_whole_on_one_canvas() -> None:
    from renderers.common import BACKGROUND

    pictures = [picture(n, (120, 60 + 20 * (n % 3))) for n in range(6)]
    canvas = (120, max(p.height for p in pictures))
    palette = palette_of(pictures)
    stream = GifStream(palette, canvas)
    for p in pictures:
        stream.add(p, 300)
    shown = frames_of(stream.finish())
    assert len(shown) == 6 and all(frame.size == canvas for frame, _ms in shown)
    for (frame, _ms), want in zip(shown, pictures, strict=True):
        framed = Image.new("RGB", canvas, BACKGROUND)
        framed.paste(want, (0, 0))
        mapped = framed.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        assert frame.tobytes() == mapped.tobytes(), "no part of a taller frame lingers"


def test_every_frame_of_a_long_replay_reads_as_drawn() -> None:
    game = GAMES["kingdoms-candy-monsters"]
    seats = [SeatInfo(f"P{i}") for i in range(4)]
    state = game.new(seats, 3)
    log = []
    while game.to_act(state) and len(log) < 150:
        seat = min(game.to_act(state))
        action = game.ai_action(state, seat)
        log.append((seat, action.notation))
        state = game.apply(state, seat, action).state
    job = ReplayJob(slug=game.slug, seats=tuple((f"P{i}", False) for i in range(4)), seed=3,
                    rules=game.rules_version, log=tuple(log), frames=12)
    shown = frames_of(draw(game, job, render))
    sizes = {frame.size for frame, _ms in shown}
    assert len(sizes) == 1 and 3 < len(shown) <= 12
