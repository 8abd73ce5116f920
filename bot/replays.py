"""Replays: a whole game as an animated GIF, bounded in memory and shared.

A replay is the heaviest picture the bot draws, and anyone in a channel may ask
for one, so three things keep it from costing the host more than a small bound:

* **Drawn once.** A GIF is kept by game and version (:class:`Replays`, a cache of
  bounded size): everybody asking for the same game as it stands gets the same
  bytes, and a second request while the first is drawn waits for that drawing.
* **Streamed.** :func:`draw` replays the log with the engine, keeps only the public
  views of the frames it shows (at most :data:`MAX_FRAMES`), and writes the GIF
  frame by frame (:class:`renderers.gif.GifStream`): a replay holds a few pictures
  at a time whatever the game's length. With the render pool it runs in a worker
  process (:func:`draw_in_worker`), so the bot's own process only sends the log and
  receives the GIF.
* **In line.** At most :attr:`~bot.limits.Limits.heavy_at_once` replays are drawn at
  once, in the order asked (the rest wait, up to :attr:`~bot.limits.Limits.heavy_queue`
  of them, then a request is refused as busy); each person also waits a cooldown
  between their own (:class:`bot.limits.Cooldowns`).
"""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from bot.games.engine import Engine, SeatInfo, View
from bot.refusals import Busy

#: The most frames a replay shows; a longer game is thinned to this many positions.
MAX_FRAMES = 80
#: How long each position shows, and the last one.
FRAME_MS, LAST_FRAME_MS = 900, 3000
#: The width replays are drawn at.
WIDTH = 640
#: The bytes of GIFs kept for asking again.
CACHE_BYTES = 64 * 1024 * 1024
#: How long a person told "busy" should wait before asking again, in seconds.
BUSY_RETRY = 60.0

Renderer = Callable[[View], bytes]


@dataclass(frozen=True, kw_only=True)
class ReplayJob:
    """Everything a replay needs, small and picklable: the table and the log."""

    slug: str
    seats: tuple[tuple[str, bool], ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    rules: int
    #: ``(seat, notation)`` of every action, in order.
    log: tuple[tuple[int, str], ...]
    frames: int = MAX_FRAMES

    @property
    def moves(self) -> int:
        """How many actions the replay shows."""
        return len(self.log)


def shown_positions(total: int, frames: int = MAX_FRAMES) -> list[int]:
    """Which of ``total`` positions (0: the deal) a replay shows: every one while they
    fit ``frames``, else as many spread evenly, the last always included."""
    if total <= frames:
        return list(range(total))
    step = total / frames
    return sorted({int(i * step) for i in range(frames - 1)} | {total - 1})


def views(game: Engine, job: ReplayJob) -> Iterator[View]:
    """The public view of each shown position of ``job``'s game, in order."""
    wanted = set(shown_positions(job.moves + 1, job.frames))
    seats = [SeatInfo(name, ai) for name, ai in job.seats]
    state = game.new(seats, job.seed, job.options, job.rules)
    if 0 in wanted:
        yield game.view(state, None)
    for n, (seat, notation) in enumerate(job.log, start=1):
        state = game.apply(state, seat, notation).state
        if n in wanted:
            yield game.view(state, None)


def draw(game: Engine, job: ReplayJob, render: Renderer) -> bytes:
    """The GIF of ``job``'s game, each frame drawn by ``render``.

    Each position's picture is kept as the PNG ``render`` made (compressed: a few MB for
    a whole replay) and opened only when its frame is written, so a replay never holds
    more than a few open pictures. The palette comes from a few frames spread over the
    game, the canvas from the largest frame (a board can grow as a game goes on).
    """
    from renderers.common import palette_of
    from renderers.gif import GifStream, sample_indices, scaled, scaled_size

    pngs = [render(view) for view in views(game, job)]

    def frame(n: int) -> Image.Image:
        with Image.open(io.BytesIO(pngs[n])) as picture:
            return scaled(picture.convert("RGB"), WIDTH)

    sizes = [scaled_size(*_size(png), WIDTH) for png in pngs]
    canvas = (max(w for w, _h in sizes), max(h for _w, h in sizes))
    stream = GifStream(palette_of([frame(n) for n in sample_indices(len(pngs))]), canvas)
    last = len(pngs) - 1
    for n in range(len(pngs)):
        stream.add(frame(n), LAST_FRAME_MS if n == last else FRAME_MS)
        pngs[n] = b""  # written: its picture is no longer needed
    return stream.finish()


def _size(png: bytes) -> tuple[int, int]:
    """A picture's size, read from its PNG header alone."""
    with Image.open(io.BytesIO(png)) as picture:
        return picture.size


def draw_in_worker(job: ReplayJob) -> bytes:
    """:func:`draw` in a render pool's worker, with the registered game and renderers."""
    from bot.games import GAMES
    from renderers import render

    return draw(GAMES[job.slug], job, render)


class Replays:
    """Replay GIFs by game and version: drawn once, kept in a bounded cache, a bounded
    number drawn at once (see the module text)."""

    def __init__(self, *, at_once: int, queue: int, clock: Callable[[], float],
                 cache_bytes: int = CACHE_BYTES) -> None:
        self._slots = asyncio.Semaphore(max(1, at_once))
        self._queue = queue
        self._clock = clock
        self._cache_bytes = cache_bytes
        self._cache: OrderedDict[Hashable, bytes] = OrderedDict()
        self._held = 0
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}
        self._waiting = 0
        #: How many replays were drawn (cache misses), for tests and the bench.
        self.drawn = 0

    async def gif(self, key: Hashable, drawing: Callable[[], Awaitable[bytes]]) -> bytes:
        """The GIF kept for ``key`` (game id, version), or the one being drawn for it, or
        a new one from ``drawing()`` once a slot is free. Raises
        :class:`~bot.refusals.Busy` when too many wait already.

        Any heavy picture shared the same way uses it too (the web companion's pictures,
        by game and move): ``key`` is then whatever names that picture."""
        kept = self._cache.get(key)
        if kept is not None:
            self._cache.move_to_end(key)
            return kept
        under_way = self._drawing.get(key)
        if under_way is not None:
            return await asyncio.shield(under_way)
        if self._waiting >= self._queue:
            raise Busy(retry_at=self._clock() + BUSY_RETRY)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            self._waiting += 1
            try:
                await self._slots.acquire()
            finally:
                self._waiting -= 1
            try:
                data = await drawing()
            finally:
                self._slots.release()
            self.drawn += 1
            self._keep(key, data)
            future.set_result(data)
            return data
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
                future.exception()  # marked as seen: only those who wait for it care
            raise
        finally:
            if self._drawing.get(key) is future:
                del self._drawing[key]

    def _keep(self, key: Hashable, data: bytes) -> None:
        if len(data) > self._cache_bytes // 4:
            return  # one huge GIF would push out every other
        self._cache[key] = data
        self._held += len(data)
        while self._held > self._cache_bytes:
            _old, dropped = self._cache.popitem(last=False)
            self._held -= len(dropped)

    @property
    def kept(self) -> Sequence[Hashable]:
        """The keys whose GIFs are kept, oldest first."""
        return list(self._cache)
