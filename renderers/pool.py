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


def _warm_worker() -> None:
    """Run once in each worker: draw every registered game's opening picture."""
    from bot.games import GAMES
    from bot.games.engine import SeatInfo

    for game in GAMES.values():
        try:
            seats = [SeatInfo(f"Seat {i + 1}") for i in range(game.min_seats)]
            render(game.view(game.new(seats, 1), None))
        except Exception:  # a game that cannot warm up still renders later, only slower
            log.exception("warming up the renderer of %s failed", game.slug)


def _ai_choice(job: tuple[str, dict[str, Any], int, str]) -> Any:
    """In a worker: the AI's move for a seat of a registered game (``Game.ai_action``)."""
    from bot.games import GAMES

    slug, state, seat, level = job
    return GAMES[slug].ai_action(state, seat, level)


def _pid() -> int:
    return os.getpid()


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
        self.renderer = renderer
        self._lock = threading.Lock()
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._started = False
        self._failed = False

    @property
    def pooled(self) -> bool:
        """Whether pictures are being drawn in worker processes (else in-process)."""
        return self._executor is not None

    def start(self) -> bool:
        """Start and warm up the workers (done by the first picture otherwise).

        Returns whether a pool runs; ``False`` means pictures are drawn in-process.
        """
        with self._lock:
            if not self._started:
                self._started = True
                self._executor = self._launch()
            return self._executor is not None

    def _launch(self) -> concurrent.futures.ProcessPoolExecutor | None:
        executor = None
        try:
            executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=_context(), initializer=_warm_worker)
            # One task per worker makes the pool start them all now, each warmed up.
            pids = {f.result(timeout=120) for f in
                    [executor.submit(_pid) for _ in range(self.workers)]}
            log.info("rendering in %d worker processes", len(pids))
            return executor
        except Exception:
            log.exception("no render pool could start: drawing pictures in-process")
            self._failed = True
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
            return None

    def submit(self, view: dict[str, Any]) -> concurrent.futures.Future[bytes]:
        """Start drawing ``view``; the future gives the PNG bytes."""
        self.start()
        executor = self._executor
        if executor is not None:
            try:
                return executor.submit(self.renderer, view)
            except (BrokenProcessPool, RuntimeError):
                self._broken(executor)
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
            if self._executor is not None:
                self._broken(self._executor)
            return self.renderer(view)

    def think(self, game: Game, state: dict[str, Any], seat: int, level: str) -> Action:
        """An AI seat's move (``game.ai_action(state, seat, level)``), chosen in a worker
        so that the bot's own process is free meanwhile; in-process for a game the
        workers do not have (one a test registers) or when the pool is broken. The
        choice is the same either way: the AI's randomness comes from the state."""
        from bot.games import GAMES

        self.start()
        executor = self._executor
        if executor is not None and GAMES.get(game.slug) is game:
            try:
                chosen: Action = executor.submit(
                    _ai_choice, (game.slug, state, seat, level)).result(timeout=TIMEOUT_S)
                return chosen
            except (BrokenProcessPool, RuntimeError, concurrent.futures.TimeoutError):
                self._broken(executor)
        return game.ai_action(state, seat, level)

    def animate(self, view: dict[str, Any]) -> bytes | None:
        """The GIF of the latest move of ``view`` (see :func:`renderers.animate`), drawn
        in a worker like a picture: a long animation never holds the event loop's lock."""
        self.start()
        executor = self._executor
        if executor is not None:
            try:
                return executor.submit(animate, view).result(timeout=TIMEOUT_S)
            except (BrokenProcessPool, RuntimeError, concurrent.futures.TimeoutError):
                self._broken(executor)
        return animate(view)

    async def render_async(self, view: dict[str, Any]) -> bytes:
        """The PNG of ``view`` awaited on the event loop without tying up a thread."""
        return await self._awaited(self.renderer, view)

    async def animate_async(self, view: dict[str, Any]) -> bytes | None:
        """The GIF of the latest move of ``view``, awaited like :meth:`render_async`."""
        return await self._awaited(animate, view)

    async def run_async(self, work: Any, job: Any) -> Any:
        """``work(job)`` in a worker (``work`` a module-level function, ``job`` picklable),
        given :data:`HEAVY_TIMEOUT_S`: for heavy pictures such as a whole replay, which the
        bot's own process then never holds in memory."""
        return await self._awaited(work, job, HEAVY_TIMEOUT_S)

    async def _awaited(self, work: Any, view: Any, timeout: float = TIMEOUT_S) -> Any:
        if not self._started:
            await asyncio.to_thread(self.start)
        executor = self._executor
        if executor is not None:
            try:
                return await asyncio.wait_for(asyncio.wrap_future(executor.submit(work, view)),
                                              timeout)
            except (BrokenProcessPool, RuntimeError, TimeoutError):
                # A new pool takes seconds to start: not on the event loop's thread.
                await asyncio.to_thread(self._broken, executor)
        return await asyncio.to_thread(work, view)

    def _broken(self, executor: concurrent.futures.ProcessPoolExecutor) -> None:
        """A worker died or hung: start a fresh pool once, else stay in-process."""
        with self._lock:
            if self._executor is not executor:
                return  # another thread already dealt with it
            log.error("the render pool broke: starting a new one")
            executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None if self._failed else self._launch()
            self._failed = True  # a second break leaves pictures in-process for good

    def close(self) -> None:
        """Stop the workers; later pictures are drawn in-process."""
        with self._lock:
            self._started = True
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
