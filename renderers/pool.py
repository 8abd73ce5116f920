"""Pictures drawn in worker processes, so that channels do not queue for one interpreter lock.

Drawing a board is pure Python and Pillow work that holds the interpreter lock:
in one process, fifty channels moving at once are drawn one after another, and
the event loop waits its turn between them. :class:`PooledRenderer` sends each
view to a pool of processes, one per core, and blocks only the calling thread
(with the lock released) until the PNG comes back::

    renderer = PooledRenderer()
    png = await asyncio.to_thread(renderer, view)   # or: await renderer.render_async(view)
    renderer.close()

The same workers choose AI seats' moves (:meth:`PooledRenderer.think`), the other pure
work that holds the lock for milliseconds a move.

Work is done in two lanes of workers. What a player waits for (a board, an AI seat's
move) goes to the **now** workers, one per core. What follows a board or was asked for
apart from a move (a move's movement GIF, a whole replay) goes to the **later** workers,
as many (at most :data:`LATER_MOST`), which run at a lower scheduling priority (``nice``):
they take the CPU the bot and the now workers leave, so a burst of boards is never queued
behind GIFs, and GIFs still use every core the boards leave idle.

Workers start with the ``forkserver`` method (``spawn`` where there is none):
never ``fork``, which would copy a running event loop and its threads. Each
worker warms up once (imports every game's renderer, draws each game's opening
picture, so fonts and palettes are ready) before its first real picture. If no
pool can be started, or the pool breaks, pictures are drawn in-process instead:
slower under load, never missing.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import logging
import multiprocessing
import os
import threading
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from renderers import Renderer, animate, render

if TYPE_CHECKING:
    from bot.games.engine import Action, Game

log = logging.getLogger(__name__)

#: A picture that takes longer than this in a worker is drawn again in-process.
TIMEOUT_S = 30.0
#: A heavy job (a whole replay) gets this long before it is given up.
HEAVY_TIMEOUT_S = 600.0
#: How much less the later workers count with the system's scheduler (``nice``, 0-19).
LATER_NICENESS = 10
#: The most later workers (GIFs and replays come now and then; each worker holds ~110 MB).
LATER_MOST = 4
#: The lanes: work a player waits for, and work that can come later.
NOW, LATER = "now", "later"


def _warm_worker() -> None:
    """Run once in each worker: draw every registered game's opening picture, then leave
    what that loaded (modules, fonts, palettes, content) out of later garbage collections,
    as the bot's own process does once connected: a full collection then walks only what
    the pictures since made, not the whole interpreter."""
    from bot.games import GAMES
    from bot.games.engine import SeatInfo

    for game in GAMES.values():
        try:
            seats = [SeatInfo(f"Seat {i + 1}") for i in range(game.min_seats)]
            render(game.view(game.new(seats, 1), None))
        except Exception:  # a game that cannot warm up still renders later, only slower
            log.exception("warming up the renderer of %s failed", game.slug)
    gc.collect()
    gc.freeze()


def _ai_choice(job: tuple[str, dict[str, Any], int, str]) -> Any:
    """In a worker: the AI's move for a seat of a registered game (``Game.ai_action``)."""
    from bot.games import GAMES

    slug, state, seat, level = job
    return GAMES[slug].ai_action(state, seat, level)


def _warm_later_worker() -> None:
    """Run once in each later worker: yield the CPU to everything else, then warm up."""
    try:
        os.nice(LATER_NICENESS)
    except OSError:  # a system that refuses: the lane still keeps GIFs off the boards' queue
        log.warning("could not lower the priority of a worker for later work")
    _warm_worker()


def _pid() -> int:
    return os.getpid()


#: How many more jobs than the least busy worker a game's own worker may have waiting
#: and still be given the game's next picture (its card sprites and text are there).
HOME_SLACK = 1


class _Workers:
    """One lane's worker processes, in executors that a job can be sent to by choice.

    The now lane has an executor per worker: a game's pictures go to the worker that
    holds its sprites (its "home", by game id), unless that worker has more than
    :data:`HOME_SLACK` jobs more waiting than the least busy one; jobs of no game (an AI
    seat's move) go to the least busy worker. With one shared queue, each of two workers
    would draw about half of a game's pictures, and every new card, label and sprite of
    the game twice.
    """

    def __init__(self, executors: list[concurrent.futures.ProcessPoolExecutor]) -> None:
        self.executors = executors
        self._waiting = [0] * len(executors)
        self._lock = threading.Lock()

    def submit(self, work: Any, *args: Any, key: int | None = None,
               ) -> concurrent.futures.Future[Any]:
        """``work(*args)`` in the worker :meth:`pick` chooses for ``key``."""
        with self._lock:
            chosen = self.pick(key)
            self._waiting[chosen] += 1
        try:
            future = self.executors[chosen].submit(work, *args)
        except BaseException:
            self._done(chosen)
            raise
        future.add_done_callback(lambda _: self._done(chosen))
        return future

    def pick(self, key: int | None) -> int:
        """The worker for a job of game ``key`` (``None``: of no game); call locked."""
        least = min(range(len(self._waiting)), key=self._waiting.__getitem__)
        if key is None:
            return least
        home = key % len(self.executors)
        return home if self._waiting[home] <= self._waiting[least] + HOME_SLACK else least

    def _done(self, worker: int) -> None:
        with self._lock:
            self._waiting[worker] -= 1

    def pids(self) -> list[int]:
        return [pid for executor in self.executors
                for pid in (getattr(executor, "_processes", None) or {})]

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        for executor in self.executors:
            executor.shutdown(wait=wait, cancel_futures=cancel_futures)


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class PooledRenderer:
    """A renderer (``view -> PNG bytes``) that draws in a process pool sized to the cores.

    Safe to call from many threads at once. ``workers`` defaults to the number
    of cores this process may use. ``renderer`` must be a module-level function
    (it is sent to the workers by name); the default draws any registered game.
    """

    def __init__(self, workers: int | None = None, renderer: Renderer = render) -> None:
        if workers is None:
            workers = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                       else os.cpu_count() or 1)
        self.workers = max(1, workers)
        #: The later lane's workers (GIFs, replays).
        self.later_workers = min(self.workers, LATER_MOST)
        self.renderer = renderer
        self._lock = threading.Lock()
        self._lanes: dict[str, _Workers | None] = {NOW: None, LATER: None}
        self._started = False
        self._failed: set[str] = set()

    @property
    def pooled(self) -> bool:
        """Whether pictures are being drawn in worker processes (else in-process)."""
        return self._lanes[NOW] is not None

    def worker_pids(self) -> list[int]:
        """The process ids of every running worker, of both lanes."""
        return [pid for workers in self._lanes.values() if workers is not None
                for pid in workers.pids()]

    def start(self) -> bool:
        """Start and warm up the workers (done by the first picture otherwise).

        Returns whether a pool runs; ``False`` means pictures are drawn in-process.
        """
        with self._lock:
            if not self._started:
                self._started = True
                self._lanes[NOW] = self._launch(NOW)
                if self._lanes[NOW] is not None:
                    self._lanes[LATER] = self._launch(LATER)
            return self._lanes[NOW] is not None

    def _launch(self, lane: str) -> _Workers | None:
        """Start ``lane``'s workers, each warmed up; ``None`` if they cannot start.

        The now lane has an executor per worker (:class:`_Workers` routes by game); the
        later lane one executor for all, whose shared queue gives a long replay's
        neighbours to whichever worker is free first.
        """
        executors: list[concurrent.futures.ProcessPoolExecutor] = []
        count = self.workers if lane == NOW else self.later_workers
        sizes = [1] * count if lane == NOW else [count]
        try:
            for size in sizes:
                executors.append(concurrent.futures.ProcessPoolExecutor(
                    max_workers=size, mp_context=_context(),
                    initializer=_warm_worker if lane == NOW else _warm_later_worker))
            # One task per worker makes each pool start its workers now, warmed up.
            started = [executor.submit(_pid)
                       for executor, size in zip(executors, sizes, strict=True)
                       for _ in range(size)]
            pids = {f.result(timeout=120) for f in started}
            log.info("rendering in %d worker processes (%s)", len(pids), lane)
            return _Workers(executors)
        except Exception:
            log.exception("no render pool could start (%s): drawing in-process", lane)
            self._failed.add(lane)
            for executor in executors:
                executor.shutdown(wait=False, cancel_futures=True)
            return None

    def submit(self, view: dict[str, Any], key: int | None = None,
               ) -> concurrent.futures.Future[bytes]:
        """Start drawing ``view`` (of the game ``key``, if known: its worker draws it); the
        future gives the PNG bytes."""
        self.start()
        workers = self._lanes[NOW]
        if workers is not None:
            try:
                future: concurrent.futures.Future[bytes] = workers.submit(
                    self.renderer, view, key=key)
                return future
            except (BrokenProcessPool, RuntimeError):
                self._broken(NOW, workers)
        done: concurrent.futures.Future[bytes] = concurrent.futures.Future()
        try:
            done.set_result(self.renderer(view))
        except Exception as exc:
            done.set_exception(exc)
        return done

    def __call__(self, view: dict[str, Any]) -> bytes:
        """The PNG of ``view`` (blocks the calling thread, not the interpreter)."""
        future = self.submit(view)
        try:
            return future.result(timeout=TIMEOUT_S)
        except (BrokenProcessPool, concurrent.futures.TimeoutError):
            workers = self._lanes[NOW]
            if workers is not None:
                self._broken(NOW, workers)
            return self.renderer(view)

    def think(self, game: Game, state: dict[str, Any], seat: int, level: str) -> Action:
        """An AI seat's move (``game.ai_action(state, seat, level)``), chosen in a worker
        so that the bot's own process is free meanwhile; in-process for a game the
        workers do not have (one a test registers) or when the pool is broken. The
        choice is the same either way: the AI's randomness comes from the state."""
        from bot.games import GAMES

        if GAMES.get(game.slug) is not game:
            return game.ai_action(state, seat, level)
        chosen: Action = self._blocking(NOW, _ai_choice, (game.slug, state, seat, level))
        return chosen

    def animate(self, view: dict[str, Any]) -> bytes | None:
        """The GIF of the latest move of ``view`` (see :func:`renderers.animate`), drawn
        by a later worker: a long animation never holds the event loop's lock."""
        gif: bytes | None = self._blocking(LATER, animate, view)
        return gif

    def _blocking(self, lane: str, work: Any, job: Any) -> Any:
        """``work(job)`` in a worker of ``lane``, waited for in this thread; in-process
        when the lane has no workers."""
        self.start()
        workers = self._lanes[lane]
        if workers is not None:
            try:
                return workers.submit(work, job).result(timeout=TIMEOUT_S)
            except (BrokenProcessPool, RuntimeError, concurrent.futures.TimeoutError):
                self._broken(lane, workers)
        return work(job)

    async def render_async(self, view: dict[str, Any], key: int | None = None) -> bytes:
        """The PNG of ``view`` awaited on the event loop without tying up a thread; ``key``
        (the game's id) sends it to the worker that drew the game's last picture."""
        return await self._awaited(NOW, self.renderer, view, key=key)

    async def animate_async(self, view: dict[str, Any]) -> bytes | None:
        """The GIF of the latest move of ``view``, awaited like :meth:`render_async`
        from a later worker."""
        return await self._awaited(LATER, animate, view)

    async def run_async(self, work: Any, job: Any) -> Any:
        """``work(job)`` in a later worker (``work`` a module-level function, ``job``
        picklable), given :data:`HEAVY_TIMEOUT_S`: for heavy pictures such as a whole
        replay, which the bot's own process then never holds in memory."""
        return await self._awaited(LATER, work, job, HEAVY_TIMEOUT_S)

    async def _awaited(self, lane: str, work: Any, job: Any,
                       timeout: float = TIMEOUT_S, key: int | None = None) -> Any:
        if not self._started:
            await asyncio.to_thread(self.start)
        workers = self._lanes[lane]
        if workers is not None:
            try:
                return await asyncio.wait_for(
                    asyncio.wrap_future(workers.submit(work, job, key=key)), timeout)
            except (BrokenProcessPool, RuntimeError, TimeoutError):
                # A new pool takes seconds to start: not on the event loop's thread.
                await asyncio.to_thread(self._broken, lane, workers)
        return await asyncio.to_thread(work, job)

    def _broken(self, lane: str, workers: _Workers) -> None:
        """A worker of ``lane`` died or hung: start fresh workers once, else that lane's
        work is done in-process from then on."""
        with self._lock:
            if self._lanes[lane] is not workers:
                return  # another thread already dealt with it
            log.error("the render pool broke (%s): starting new workers", lane)
            workers.shutdown(wait=False, cancel_futures=True)
            self._lanes[lane] = None if lane in self._failed else self._launch(lane)
            self._failed.add(lane)  # a second break leaves the lane in-process for good

    def close(self) -> None:
        """Stop the workers; later pictures are drawn in-process."""
        with self._lock:
            self._started = True
            lanes = [w for w in self._lanes.values() if w is not None]
            self._lanes = {NOW: None, LATER: None}
        for workers in lanes:
            workers.shutdown(wait=True, cancel_futures=True)
