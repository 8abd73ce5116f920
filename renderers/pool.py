"""Pictures drawn in worker processes, so that channels do not queue for one interpreter lock.

Drawing a board is pure Python and Pillow work that holds the interpreter lock:
in one process, fifty channels moving at once are drawn one after another, and
the event loop waits its turn between them. :class:`PooledRenderer` sends each
view to a pool of processes, one per core, and blocks only the calling thread
(with the lock released) until the PNG comes back::

    renderer = PooledRenderer()
    png = await asyncio.to_thread(renderer, view)   # or: await renderer.render_async(view)
    renderer.close()

The same workers do the rules' work a player waits for, the other pure work that holds
the lock for milliseconds a move (:meth:`PooledRenderer.run_now`,
:meth:`PooledRenderer.offload`; :mod:`bot.rules_work` sends AI seats' moves and moves
worked out there); the worker that works a move out draws its board straight after, as
its next job, so that the board does not wait for a round trip to the bot first.

Work is done in two lanes of workers. What a player waits for (a board, an AI seat's
move) goes to the **now** workers, one per core. What follows a board or was asked for
apart from a move (a move's movement GIF, a whole replay) goes to the **later** workers,
as many (at most :data:`LATER_MOST`), which run at a lower scheduling priority (``nice``):
they take the CPU the bot and the now workers leave, so a burst of boards is never queued
behind GIFs, and GIFs still use every core the boards leave idle.

Workers start with the ``forkserver`` method (``spawn`` where there is none):
never ``fork``, which would copy a running event loop and its threads. The fork
server warms up once (imports every game's renderer, draws each game's opening
picture, so fonts and palettes are ready: :data:`PRELOAD`; and imports the modules of
the other work it is given, ``preload``) before it forks the first worker, so every
worker begins as a warm copy of it. The bot starts its
workers as it starts (:meth:`PooledRenderer.warm`), and until they are up what it
asks of them is done in its own process, so that nobody waits for them (its own process
warms up meanwhile too, drawing each game's opening picture). If no
pool can be started, or the pool breaks, pictures are drawn in-process instead:
slower under load, never missing.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import functools
import gc
import importlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import threading
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, Protocol

from renderers import Renderer, animate, render

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
#: The most pictures begun with their moves (:meth:`PooledRenderer.offload`) kept for the
#: boards that show them.
DRAWN_KEPT = 16


def warm_up() -> None:
    """Draw every registered game's opening picture (modules, fonts, palettes and content
    loaded), then leave what that loaded out of later garbage collections, as the bot's own
    process does once connected: a full collection then walks only what the pictures since
    made, not the whole interpreter.

    Done once in the fork server the workers start from (:data:`PRELOAD`), so that each
    worker begins warm as a copy of it, and again in each worker (little work then, or all
    of it where there is no fork server)."""
    openings()
    gc.collect()
    gc.freeze()


def openings(renderer: Renderer = render, enough: Callable[[], bool] = lambda: False,
             ) -> None:
    """Draw every registered game's opening picture with ``renderer``: its modules, fonts,
    palette and content loaded; stop at the first game after ``enough()`` says so."""
    from bot.games import GAMES
    from bot.games.engine import SeatInfo

    for game in GAMES.values():
        if enough():
            return
        try:
            seats = [SeatInfo(f"Seat {i + 1}") for i in range(game.min_seats)]
            renderer(game.view(game.new(seats, 1), None))
        except Exception:  # a game that cannot warm up still renders later, only slower
            log.exception("warming up the renderer of %s failed", game.slug)


def _warm_worker(preload: Sequence[str] = ()) -> None:
    """Run once in each worker: import the modules its jobs come from (``preload``; done
    already by a fork server), then warm up (:func:`warm_up`).

    A worker ignores Ctrl-C, which a terminal sends to the bot and its workers alike: the
    bot stops them itself once its own clean stop is done."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for module in preload:
        importlib.import_module(module)
    warm_up()


def _warm_later_worker(preload: Sequence[str] = ()) -> None:
    """Run once in each later worker: yield the CPU to everything else, then warm up."""
    try:
        os.nice(LATER_NICENESS)
    except OSError:  # a system that refuses: the lane still keeps GIFs off the boards' queue
        log.warning("could not lower the priority of a worker for later work")
    _warm_worker(preload)


def _pid() -> int:
    return os.getpid()


#: In a now worker: the view the job just answered left to draw (:func:`_leaving`), for
#: the job queued right behind it (:func:`_draw_left`).
_left: list[Any] = [None]


def _leaving(work: Callable[[Any], Any], job: Any, draws: Callable[[Any], Any]) -> Any:
    """In a now worker: ``work(job)``, leaving the view ``draws`` finds in what it gives
    (``None``: nothing to draw) for the next job; a job that raises leaves nothing."""
    _left[0] = None
    result = work(job)
    _left[0] = draws(result)
    return result


def _draw_left(renderer: Renderer) -> bytes | None:
    """In a now worker: the picture of the view the job before left (:func:`_leaving`),
    ``None`` when it left none."""
    view, _left[0] = _left[0], None
    return None if view is None else renderer(view)


def _serve(jobs: Connection, answers: Connection, initializer: Callable[[], None]) -> None:
    """A now worker's life: warm up, then answer each job read from ``jobs`` in turn with
    ``(True, result)`` or ``(False, exception)`` on ``answers``, until the bot's end of
    ``jobs`` closes."""
    initializer()
    while True:
        try:
            work, args = pickle.loads(jobs.recv_bytes())
        except (EOFError, OSError):
            return  # the bot closed the pipe (or is gone): nothing more will come
        try:
            answer = pickle.dumps((True, work(*args)))
        except BaseException as exc:  # the caller gets it, as from an executor
            try:
                answer = pickle.dumps((False, exc))
            except Exception:  # an exception that cannot be pickled: its words then
                answer = pickle.dumps((False, RuntimeError(repr(exc))))
        answers.send_bytes(answer)


#: How many more jobs than the least busy worker a game's own worker may have waiting
#: and still be given the game's next picture (its card sprites and text are there).
HOME_SLACK = 1
#: The most bytes of jobs sent to one worker and not yet answered. A job past it waits in
#: the bot's process and is sent as answers come back, so that sending never waits for a
#: full pipe: it is under the 64 KB a pipe holds where it cannot be widened, with room for
#: each job's 4-byte header (a board's view is 1-10 KB).
UNANSWERED_BYTES = 48 * 1024
#: The most jobs sent to one worker and not yet answered: the one it works on and the
#: next two, so that it does not wait for the bot between jobs while the bot's reader
#: thread waits its turn at the interpreter lock (2 left it idle at times, 3 and 4 did
#: not). The others wait in the bot's process, where an urgent job (a move worked out, an
#: AI seat's choice) goes before the pictures: it holds up its move's board and a slot of
#: the moves at once.
IN_FLIGHT = 3


def pick(waiting: list[int], key: int | None) -> int:
    """Which worker, with ``waiting`` jobs each, takes a job of game ``key`` (``None``: of
    no game): the game's home unless it has more than :data:`HOME_SLACK` jobs more
    waiting than the least busy worker, which takes it then (and every job of no game)."""
    least = min(range(len(waiting)), key=waiting.__getitem__)
    if key is None:
        return least
    home = key % len(waiting)
    return home if waiting[home] <= waiting[least] + HOME_SLACK else least


#: How much a worker's pipes hold (Linux, where a process may widen a pipe to 1 MB): an
#: answer (a PNG of 60-90 KB) is then written whole at once, the worker free for its next
#: job whether or not the bot's reader thread has had its turn at the interpreter lock.
PIPE_BYTES = 1024 * 1024


def _widen(end: Connection) -> None:
    """Make the pipe of ``end`` hold :data:`PIPE_BYTES` where the system lets it."""
    try:
        import fcntl

        fcntl.fcntl(end.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_BYTES)
    except (ImportError, OSError):
        pass  # the system's default (64 KB on Linux): answers then wait for the reader


class _Worker:
    """One now worker: its process, the pipes its jobs go down and its answers come back
    up, the futures of the jobs sent (answered in that order) and those waiting to go."""

    def __init__(self, context: Any, initializer: Callable[[], None]) -> None:
        # Two one-way pipes (a duplex one is a socket pair: its writes cost the worker more).
        their_jobs, self.jobs = context.Pipe(duplex=False)
        self.answers, their_answers = context.Pipe(duplex=False)
        for end in (self.jobs, self.answers):
            _widen(end)
        try:
            self.process = context.Process(target=_serve, daemon=True, name="candybot-render",
                                           args=(their_jobs, their_answers, initializer))
            self.process.start()
        except BaseException:
            self.jobs.close()
            self.answers.close()
            raise
        finally:
            their_jobs.close()
            their_answers.close()
        self.sent: collections.deque[tuple[int, concurrent.futures.Future[Any]]] = \
            collections.deque()
        #: Jobs not yet sent: the urgent first, each kind in the order it came.
        self.urgent: collections.deque[tuple[bytes, concurrent.futures.Future[Any]]] = \
            collections.deque()
        self.waiting: collections.deque[tuple[bytes, concurrent.futures.Future[Any]]] = \
            collections.deque()
        self.unanswered = 0
        self.lost = False


class _Workers:
    """The now lane: a worker process per core, each sent jobs down its own pipe.

    A game's pictures go to the worker that holds its sprites (its "home", by game id),
    unless that worker has more than :data:`HOME_SLACK` jobs more waiting than the least
    busy one; jobs of no game (an AI seat's move) go to the least busy worker. With one
    shared queue, each of two workers would draw about half of a game's pictures, and
    every new card, label and sprite of the game twice.

    The thread that asks writes the job into the worker's pipe itself, and one reader
    thread takes the answers of every worker: a job is one write and one read, where an
    executor per worker passed each through two more threads of the bot's process.
    """

    def __init__(self, context: Any, count: int, initializer: Callable[[], None]) -> None:
        # Reentrant: a future settled under it runs its callbacks, which take it again.
        self._lock = threading.RLock()
        self._waiting = [0] * count
        self._closed = False
        self.workers: list[_Worker] = []
        try:
            for _ in range(count):
                self.workers.append(_Worker(context, initializer))
        except BaseException:
            self._stop_processes(wait=False)
            raise
        self._wake_read, self._wake_write = multiprocessing.Pipe(duplex=False)
        self._reader = threading.Thread(target=self._read, name="candybot-render-answers",
                                        daemon=True)
        self._reader.start()

    def submit(self, work: Any, *args: Any, key: int | None = None, urgent: bool = False,
               ) -> concurrent.futures.Future[Any]:
        """``work(*args)`` in the worker :meth:`pick` chooses for ``key``; an ``urgent``
        job goes before the jobs that wait that are not."""
        with self._lock:
            chosen = pick(self._waiting, key)
        return self.submit_to(chosen, work, *args, urgent=urgent)

    def submit_then(self, first: tuple[Any, ...], then: tuple[Any, ...], key: int | None,
                    urgent: bool = False,
                    ) -> tuple[concurrent.futures.Future[Any], concurrent.futures.Future[Any]]:
        """Two jobs (each its work and arguments) to the one worker :meth:`pick` chooses for
        ``key``, ``then`` right behind ``first`` (nothing comes between them)."""
        with self._lock:  # reentrant: held across both, so that no job comes between
            chosen = pick(self._waiting, key)
            return (self.submit_to(chosen, *first, urgent=urgent),
                    self.submit_to(chosen, *then, urgent=urgent))

    def submit_to(self, chosen: int, work: Any, *args: Any, urgent: bool = False,
                  ) -> concurrent.futures.Future[Any]:
        """``work(*args)`` in worker number ``chosen``."""
        job = pickle.dumps((work, args))
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        worker = self.workers[chosen]
        with self._lock:
            if self._closed or worker.lost:
                raise BrokenProcessPool("a render worker is gone")
            self._waiting[chosen] += 1
            future.add_done_callback(lambda _: self._done(chosen))
            (worker.urgent if urgent else worker.waiting).append((job, future))
            self._send(worker)
        return future

    def _send(self, worker: _Worker) -> None:
        """Send what waits for ``worker``, urgent jobs first, while its jobs in flight and
        unanswered bytes allow (call locked).

        A job too big for the allowance goes when nothing else is unanswered: the worker
        is then reading, so the write is never left waiting on a full pipe."""
        while worker.urgent or worker.waiting:
            if len(worker.sent) >= IN_FLIGHT:
                return
            queue = worker.urgent or worker.waiting
            job, future = queue[0]
            if worker.unanswered and worker.unanswered + len(job) > UNANSWERED_BYTES:
                return
            queue.popleft()
            if not future.set_running_or_notify_cancel():
                continue  # cancelled while it waited
            try:
                worker.jobs.send_bytes(job)
            except OSError:
                future.set_exception(BrokenProcessPool("a render worker is gone"))
                self._lose(worker)
                return
            worker.sent.append((len(job), future))
            worker.unanswered += len(job)

    def _done(self, worker: int) -> None:
        with self._lock:
            self._waiting[worker] -= 1

    def _read(self) -> None:
        """The reader thread: each answer to its job's future, until the lane shuts down."""
        by_handle: dict[Any, _Worker] = {}
        for worker in self.workers:
            by_handle[worker.answers] = by_handle[worker.process.sentinel] = worker
        while True:
            with self._lock:
                live = [w for w in self.workers if not w.lost]
            handles: list[Any] = [self._wake_read]
            handles += [h for w in live for h in (w.answers, w.process.sentinel)]
            for handle in multiprocessing.connection.wait(handles):
                if handle is self._wake_read:
                    return
                worker = by_handle[handle]
                if worker.lost:
                    continue
                if handle is worker.answers:
                    self._answer(worker)
                elif not worker.answers.poll():  # died: answers it wrote first are read first
                    with self._lock:
                        self._lose(worker)

    def _answer(self, worker: _Worker) -> None:
        try:
            data = worker.answers.recv_bytes()
        except (EOFError, OSError):
            with self._lock:
                self._lose(worker)
            return
        with self._lock:
            if worker.lost or not worker.sent:
                return  # its jobs were failed meanwhile (a write to it failed)
            size, future = worker.sent.popleft()
            worker.unanswered -= size
            self._send(worker)
        try:
            done, value = pickle.loads(data)
        except Exception as exc:
            done, value = False, exc
        if done:
            future.set_result(value)
        else:
            future.set_exception(value)

    def _lose(self, worker: _Worker) -> None:
        """``worker`` died: its jobs fail as an executor's would (call locked)."""
        worker.lost = True
        gone = [future for _, future in [*worker.sent, *worker.urgent, *worker.waiting]]
        worker.sent.clear()
        worker.urgent.clear()
        worker.waiting.clear()
        for future in gone:
            if not future.done():
                future.set_exception(BrokenProcessPool("a render worker died"))

    def pids(self) -> list[int]:
        return [w.process.pid for w in self.workers
                if w.process.pid is not None and not w.lost]

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """Stop the workers: each reads the end of its pipe once its jobs are answered
        (``cancel_futures``: jobs not yet sent are dropped; those sent still run)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if cancel_futures:
                for worker in self.workers:
                    for _, future in [*worker.urgent, *worker.waiting]:
                        future.cancel()
                    worker.urgent.clear()
                    worker.waiting.clear()
        if wait:
            with self._lock:
                left = [f for w in self.workers for _, f in [*w.sent, *w.urgent, *w.waiting]]
            concurrent.futures.wait(left, timeout=TIMEOUT_S)
        self._wake_write.send_bytes(b"")
        if self._reader is not threading.current_thread():
            self._reader.join(timeout=5)
        self._wake_read.close()
        self._wake_write.close()
        self._stop_processes(wait)

    def _stop_processes(self, wait: bool = True) -> None:
        for worker in self.workers:
            worker.jobs.close()  # the worker reads the end of its jobs and leaves
        for worker in self.workers:
            worker.process.join(timeout=5 if wait else 0.1)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(timeout=5)
        with self._lock:
            for worker in self.workers:
                self._lose(worker)
                worker.answers.close()


class _Lane(Protocol):
    """What :class:`PooledRenderer` asks of a lane's workers."""

    def submit(self, work: Any, *args: Any, key: int | None = None, urgent: bool = False,
               ) -> concurrent.futures.Future[Any]: ...

    def pids(self) -> list[int]: ...

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None: ...


class _Shared:
    """The later lane: its workers share one executor's queue, so a long replay's
    neighbours go to whichever worker is free first."""

    def __init__(self, executor: concurrent.futures.ProcessPoolExecutor) -> None:
        self.executor = executor

    def submit(self, work: Any, *args: Any, key: int | None = None, urgent: bool = False,
               ) -> concurrent.futures.Future[Any]:
        """``work(*args)`` in the first free worker (``key`` and ``urgent`` are not used)."""
        return self.executor.submit(work, *args)

    def pids(self) -> list[int]:
        return list(getattr(self.executor, "_processes", None) or {})

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        self.executor.shutdown(wait=wait, cancel_futures=cancel_futures)


#: The module the fork server imports before it forks any worker: importing it warms the
#: renderers up (:func:`warm_up`), so that every worker, now or later lane, starts as a warm
#: copy of the fork server instead of each drawing every game's palette pictures itself.
PRELOAD = "renderers.warmed"


def _context(preload: Sequence[str] = ()) -> multiprocessing.context.BaseContext:
    """``forkserver``, whose server warms up once for every worker and imports ``preload``
    (the modules of the work the workers are sent); ``spawn`` without it."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # Heard only by a fork server not yet running (one per process, started by the first
    # worker); one started without it leaves each worker to warm up alone. ``__main__``
    # first, as the fork server's own default has it.
    context.set_forkserver_preload(["__main__", PRELOAD, *preload])
    return context


class PooledRenderer:
    """A renderer (``view -> PNG bytes``) that draws in a process pool sized to the cores.

    Safe to call from many threads at once. ``workers`` defaults to the number
    of cores this process may use. ``renderer`` must be a module-level function
    (it is sent to the workers by name); the default draws any registered game.
    """

    def __init__(self, workers: int | None = None, renderer: Renderer = render,
                 preload: Sequence[str] = ()) -> None:
        if workers is None:
            workers = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                       else os.cpu_count() or 1)
        self.workers = max(1, workers)
        #: The later lane's workers (GIFs, replays).
        self.later_workers = min(self.workers, LATER_MOST)
        self.renderer = renderer
        #: The modules of the work sent to the workers besides pictures (a move worked
        #: out, an AI's choice), imported before a worker's first job: a job names its
        #: work, and a worker that met it first would import it then (250 ms for a move).
        self.preload = tuple(preload)
        self._lock = threading.Lock()
        self._lanes: dict[str, _Lane | None] = {NOW: None, LATER: None}
        #: Whether a start has begun (jobs from then on do not wait for it: until a lane
        #: is up, its work is done in-process), and whether it is over.
        self._started = False
        self._up = threading.Event()
        self._closed = False
        self._failed: set[str] = set()
        #: Pictures begun in a worker right after the move they show was worked out
        #: (:meth:`offload` with ``draws``), by the id of their view, the view kept with
        #: them; the oldest dropped past :data:`DRAWN_KEPT` (a move that lost its race).
        self._drawn: collections.OrderedDict[
            int, tuple[Any, concurrent.futures.Future[bytes | None]]] = \
            collections.OrderedDict()
        self._drawn_lock = threading.Lock()
        #: Set once work was done in the bot's own process: its warming up (which would
        #: take the interpreter lock from that work) stops at the next game.
        self.asked_here = threading.Event()

    @property
    def pooled(self) -> bool:
        """Whether pictures are being drawn in worker processes (else in-process)."""
        return self._lanes[NOW] is not None

    def worker_pids(self) -> list[int]:
        """The process ids of every running worker, of both lanes."""
        return [pid for workers in self._lanes.values() if workers is not None
                for pid in workers.pids()]

    def start(self) -> bool:
        """Start and warm up the workers (done by the first job otherwise), or wait for the
        start :meth:`warm` began.

        Returns whether a pool runs; ``False`` means pictures are drawn in-process.
        """
        self.warm()
        self._up.wait()
        return self._lanes[NOW] is not None

    def warm(self) -> None:
        """Start the workers in a thread of their own and return at once (the bot does as
        it starts): the now lane, which takes work as soon as it is up, then the later
        lane. Until a lane is up its work is done in-process, so that a player who presses
        Start meanwhile is never kept waiting for the workers."""
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._start_lanes, name="candybot-render-start",
                         daemon=True).start()
        # Meanwhile the bot's own process warms up too, for what it draws until the
        # workers are up (a cold process draws its first board seconds later on a busy
        # machine: its renderers, fonts and content loaded first).
        threading.Thread(target=openings, args=(self.renderer, self.asked_here.is_set),
                         name="candybot-render-here", daemon=True).start()

    def _start_lanes(self) -> None:
        # Launched outside the lock: a bot stopped while its workers start (soon after its
        # own start) does not wait for them; workers that come up after :meth:`close` are
        # stopped at once.
        try:
            for lane in (NOW, LATER):
                workers = None if self._closed else self._launch(lane)
                with self._lock:
                    late = self._closed
                    if not late:
                        self._lanes[lane] = workers
                if late and workers is not None:
                    workers.shutdown(wait=False, cancel_futures=True)
                if workers is None or late:
                    return
        finally:
            self._up.set()

    def _launch(self, lane: str) -> _Lane | None:
        """Start ``lane``'s workers, each warmed up; ``None`` if they cannot start.

        The now lane's workers each take their own jobs (:class:`_Workers` sends a game's
        pictures to its home); the later lane's share one executor's queue, which gives a
        long replay's neighbours to whichever worker is free first.
        """
        workers: _Lane | None = None
        try:
            if lane == NOW:
                now = _Workers(_context(self.preload), self.workers,
                               functools.partial(_warm_worker, self.preload))
                workers = now
                started = [now.submit_to(n, _pid) for n in range(self.workers)]
            else:
                executor = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.later_workers, mp_context=_context(self.preload),
                    initializer=_warm_later_worker, initargs=(self.preload,))
                workers = _Shared(executor)
                # One task per worker makes the executor start its workers now, warmed up.
                started = [executor.submit(_pid) for _ in range(self.later_workers)]
            pids = {f.result(timeout=120) for f in started}
            log.info("rendering in %d worker processes (%s)", len(pids), lane)
            return workers
        except Exception:
            log.exception("no render pool could start (%s): drawing in-process", lane)
            self._failed.add(lane)
            if workers is not None:
                workers.shutdown(wait=False, cancel_futures=True)
            return None

    def submit(self, view: dict[str, Any], key: int | None = None,
               ) -> concurrent.futures.Future[bytes]:
        """Start drawing ``view`` (of the game ``key``, if known: its worker draws it); the
        future gives the PNG bytes."""
        if not self._started:
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
        self.asked_here.set()
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
        except (BrokenProcessPool, concurrent.futures.TimeoutError,
                concurrent.futures.CancelledError):  # the lane stopped with it queued
            workers = self._lanes[NOW]
            if workers is not None:
                self._broken(NOW, workers)
            self.asked_here.set()
            return self.renderer(view)

    def run_now(self, work: Any, job: Any) -> Any:
        """``work(job)`` (a module-level function and a job it can pickle) in a now worker,
        before the pictures waiting there, waited for in this thread; in-process when the
        pool is broken."""
        return self._blocking(NOW, work, job, urgent=True)

    async def offload(self, work: Any, job: Any, key: int,
                      draws: Callable[[Any], Any] | None = None) -> Any:
        """``work(job)`` in a now worker, before the pictures waiting there (a move worked
        out holds up its board, and a slot of the moves worked on at once); ``key`` (the
        game's id) sends it to the worker that holds the game's caches. In-process when
        the pool is broken.

        With ``draws`` (a module's function), the same worker then draws the view
        ``draws`` finds in what ``work`` gave, as its very next job: a move's board is
        begun as soon as the move is worked out, not once the bot has read the move and
        sent its view back (a round trip between processes, which waits for a core on a
        busy machine). :meth:`render_async` of that view (the very object ``draws``
        gives here) is that picture."""
        workers = self._lanes[NOW] if self._started else None
        if draws is None or not isinstance(workers, _Workers):
            return await self._awaited(NOW, work, job, key=key, urgent=True)
        try:
            done, drawn = workers.submit_then((_leaving, work, job, draws),
                                              (_draw_left, self.renderer), key, urgent=True)
        except (BrokenProcessPool, RuntimeError):
            return await self._awaited(NOW, work, job, key=key, urgent=True)
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(done), TIMEOUT_S)
        except (BrokenProcessPool, RuntimeError, TimeoutError):
            drawn.cancel()
            await asyncio.to_thread(self._broken, NOW, workers)
            return await self._awaited(NOW, work, job, key=key, urgent=True)
        except asyncio.CancelledError:
            drawn.cancel()
            task = asyncio.current_task()
            if not done.cancelled() or (task and task.cancelling()):
                raise
            # The lane stopped with the job queued: worked out here instead.
            return await asyncio.to_thread(work, job)
        except BaseException:
            drawn.cancel()
            raise
        view = draws(result)
        if view is None:
            drawn.cancel()
            return result
        with self._drawn_lock:
            self._drawn[id(view)] = (view, drawn)
            while len(self._drawn) > DRAWN_KEPT:
                _id, (_view, dropped) = self._drawn.popitem(last=False)
                dropped.cancel()
        return result

    def _begun(self, view: dict[str, Any]) -> concurrent.futures.Future[bytes | None] | None:
        """The picture :meth:`offload` began of ``view`` (that very object), taken once."""
        with self._drawn_lock:
            kept = self._drawn.pop(id(view), None)
        return kept[1] if kept is not None and kept[0] is view else None

    def animate(self, view: dict[str, Any]) -> bytes | None:
        """The GIF of the latest move of ``view`` (see :func:`renderers.animate`), drawn
        by a later worker: a long animation never holds the event loop's lock."""
        gif: bytes | None = self._blocking(LATER, animate, view)
        return gif

    def _blocking(self, lane: str, work: Any, job: Any, urgent: bool = False) -> Any:
        """``work(job)`` in a worker of ``lane``, waited for in this thread; in-process
        when the lane has no workers."""
        if not self._started:
            self.start()
        workers = self._lanes[lane]
        if workers is not None:
            try:
                return workers.submit(work, job, urgent=urgent).result(timeout=TIMEOUT_S)
            except (BrokenProcessPool, RuntimeError, concurrent.futures.TimeoutError,
                    concurrent.futures.CancelledError):  # the lane stopped with it queued
                self._broken(lane, workers)
        self.asked_here.set()
        return work(job)

    async def render_async(self, view: dict[str, Any], key: int | None = None) -> bytes:
        """The PNG of ``view`` awaited on the event loop without tying up a thread; ``key``
        (the game's id) sends it to the worker that drew the game's last picture; the
        picture :meth:`offload` began of it, if it did."""
        begun = self._begun(view)
        if begun is not None:
            try:
                drawn = await asyncio.wait_for(asyncio.wrap_future(begun), TIMEOUT_S)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise
                drawn = None  # the lane stopped with it queued: drawn below
            except Exception:  # drawn again below, where a failure is told
                drawn = None
            if drawn is not None:
                return drawn
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

    async def _awaited(self, lane: str, work: Any, job: Any, timeout: float = TIMEOUT_S,
                       key: int | None = None, urgent: bool = False) -> Any:
        if not self._started:
            await asyncio.to_thread(self.start)
        workers = self._lanes[lane]
        if workers is not None:
            future: concurrent.futures.Future[Any] | None = None
            try:
                future = workers.submit(work, job, key=key, urgent=urgent)
                return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
            except (BrokenProcessPool, RuntimeError, TimeoutError):
                # A new pool takes seconds to start: not on the event loop's thread.
                await asyncio.to_thread(self._broken, lane, workers)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if future is None or not future.cancelled() or (task and task.cancelling()):
                    raise
                # Not this task's cancelling: the lane was stopped with the job still
                # queued (another of its workers died), so the job is done here instead.
        self.asked_here.set()
        return await asyncio.to_thread(work, job)

    def _broken(self, lane: str, workers: _Lane) -> None:
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
        """Stop the workers (once a start under way is over); later pictures are drawn
        in-process."""
        with self._lock:
            self._started = self._closed = True
            self._up.set()
            lanes = [w for w in self._lanes.values() if w is not None]
            self._lanes = {NOW: None, LATER: None}
        for workers in lanes:
            workers.shutdown(wait=True, cancel_futures=True)
