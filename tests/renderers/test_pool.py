"""The render pool draws the same pictures as in-process rendering, from many threads at once."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import ThreadPoolExecutor

import pytest

import renderers.pool as pool_module
from bot.games import GAMES, get_game
from bot.games.engine import SeatInfo
from bot.rules_work import RulesWork
from renderers import render
from renderers.pool import PooledRenderer


def views() -> list[dict]:
    """Sugartopia's opening, a later public view and a seat's own view with its hand."""
    game = get_game("sugartopia")
    state = game.new([SeatInfo(f"P{i}", ai=True) for i in range(3)], 5)
    out = [game.view(state, None)]
    for _ in range(4):
        seat = min(game.to_act(state))
        state = game.apply(state, seat, game.ai_action(state, seat)).state
    return [*out, game.view(state, None), game.view(state, min(game.to_act(state)))]


@pytest.fixture(scope="module")
def pooled():
    renderer = PooledRenderer(workers=1)
    yield renderer
    renderer.close()


def test_pictures_from_the_pool_are_the_ones_drawn_in_process(pooled):
    assert pooled.start() and pooled.pooled
    for view in views():
        assert pooled(view) == render(view)


def test_many_threads_may_draw_at_once(pooled):
    wanted = views()
    with ThreadPoolExecutor(8) as threads:
        got = list(threads.map(pooled, wanted * 3))
    assert got == [render(v) for v in wanted * 3]


def test_the_event_loop_can_await_a_picture(pooled):
    view = views()[-1]

    async def both() -> list[bytes]:
        return await asyncio.gather(pooled.render_async(view), pooled.render_async(view))

    assert asyncio.run(both()) == [render(view)] * 2


def test_a_renderer_error_reaches_the_caller(pooled):
    with pytest.raises(ValueError, match="No renderer"):
        pooled({"game": "no-such-game"})


def test_without_a_pool_pictures_are_drawn_in_process(monkeypatch):
    class Refusing:
        """A system where no worker process can start."""

        def Pipe(self, *args, **kwargs):
            raise OSError("no semaphores here")

    monkeypatch.setattr(pool_module, "_context", Refusing)
    renderer = PooledRenderer(workers=2)
    assert renderer.start() is False and not renderer.pooled
    view = views()[0]
    assert renderer(view) == render(view)
    renderer.close()


def test_a_moves_gif_is_drawn_in_a_worker_and_matches_the_one_drawn_in_process(pooled):
    from renderers import animate
    from tests.support.playthrough import play

    game = get_game("sugarworks")
    moving: list[dict] = []

    def keep(step) -> None:
        view = game.view(step.outcome.state, None)
        if view["movement"] and view["movement"]["fresh"] and len(moving) < 1:
            moving.append(view)

    play(game, 6, 3, on_step=keep)
    (view,) = moving
    gif = pooled.animate(view)
    assert gif is not None and gif.startswith(b"GIF8") and gif == animate(view)
    assert pooled.animate(game.view(game.new([SeatInfo("A"), SeatInfo("B")], 1), None)) is None


def test_ai_seats_think_in_a_worker_and_choose_as_they_would_in_process(pooled, monkeypatch):
    """The workers choose AI moves too: the same move, while the bot's process is free."""
    from bot.games import GAMES

    wanted = {}
    for slug, game in GAMES.items():
        state = game.new([SeatInfo(f"P{i}", ai=True) for i in range(game.min_seats)], 11)
        seat = min(game.to_act(state))
        for level in ("easy", "normal", "strong"):
            wanted[slug, level] = (state, seat, game.ai_action(state, seat, level))

    def not_here(*_args, **_kwargs):
        raise AssertionError("chosen in the bot's own process")

    for game in GAMES.values():
        monkeypatch.setattr(game, "ai_action", not_here)  # this process's copy only
    for (slug, level), (state, seat, action) in wanted.items():
        assert RulesWork(pooled).think(GAMES[slug], state, seat, level) == action


def test_a_game_the_workers_do_not_have_thinks_in_process(pooled):
    from bot.games.engine import Action

    class Unregistered:
        slug = "sugartopia"  # the name of a registered game, but another object

        def ai_action(self, state, seat, level):
            return Action(f"here {seat} {level}")

    assert RulesWork(pooled).think(Unregistered(), {}, 2, "easy") == Action("here 2 easy")


def test_the_bot_hands_its_ai_seats_and_moves_to_the_pool_it_draws_with(tmp_path):
    from bot.app import create_bot
    from bot.config import Settings
    from tools.offline import Recorder, connect

    sent = []

    class Pool:
        def __call__(self, view):
            return b""

        def run_now(self, work, job):
            sent.append(work.__name__)
            return work(job)

        async def offload(self, work, job, key, draws=None):
            sent.append(work.__name__)
            return work(job)

    bot = create_bot(Settings(token="t", db_path=tmp_path / "db.sqlite"), renderer=Pool())

    async def set_up():
        await connect(bot, Recorder())
        try:
            game = GAMES["sugar-blast"]
            state = game.new([SeatInfo("A", ai=True), SeatInfo("B", ai=True)], 3)
            bot.tables.pipeline._think(game, state, min(game.to_act(state)), "easy")
            await bot.tables.pipeline.offload(len, "job", 1)
        finally:
            await bot.close()

    asyncio.run(set_up())
    assert sent == ["ai_choice", "len"]


def test_the_bot_starts_warming_its_render_workers_as_it_sets_up(tmp_path):
    from bot.app import create_bot
    from bot.config import Settings
    from tools.offline import Recorder, connect

    class Pool:
        warmed = 0

        def __call__(self, view):
            return b""

        def warm(self):
            self.warmed += 1

    pool = Pool()
    bot = create_bot(Settings(token="t", db_path=tmp_path / "db.sqlite"), renderer=pool)

    async def set_up():
        await connect(bot, Recorder())
        await bot.close()

    asyncio.run(set_up())
    assert pool.warmed == 1


def test_while_the_workers_start_pictures_and_ai_seats_do_not_wait_for_them(monkeypatch):
    """``warm`` starts the workers in a thread of its own and returns at once; until they
    are up, what is asked is done in the bot's process (the same picture, the same move);
    ``start`` waits for them."""
    import threading

    from bot.games import GAMES

    released = threading.Event()
    launch = PooledRenderer._launch

    def slow_launch(self, lane):
        assert released.wait(60)
        return launch(self, lane)

    monkeypatch.setattr(PooledRenderer, "_launch", slow_launch)
    renderer = PooledRenderer(workers=1)
    try:
        renderer.warm()
        view = views()[1]
        assert asyncio.run(renderer.render_async(view, key=3)) == render(view)
        assert renderer(view) == render(view)
        game = GAMES["sugartopia"]
        state = game.new([SeatInfo("A", ai=True), SeatInfo("B", ai=True)], 2)
        seat = min(game.to_act(state))
        assert RulesWork(renderer).think(game, state, seat, "normal") == \
            game.ai_action(state, seat, "normal")
        assert not renderer.pooled
        released.set()
        assert renderer.start() and renderer.pooled
        pid = renderer._lanes[pool_module.NOW].submit(os.getpid).result(timeout=60)
        assert pid != os.getpid()
    finally:
        released.set()
        renderer.close()


def test_while_the_workers_start_the_bots_own_process_warms_up(monkeypatch):
    """What the bot draws itself until its workers are up is drawn warm: as the workers
    start, its own process draws every game's opening picture."""
    import threading
    import time

    from bot.games import GAMES

    released = threading.Event()
    launch = PooledRenderer._launch

    def slow_launch(self, lane):
        assert released.wait(60)
        return launch(self, lane)

    drawn: list[str] = []

    def here(view):
        drawn.append(view["game"])
        return render(view)

    monkeypatch.setattr(PooledRenderer, "_launch", slow_launch)
    renderer = PooledRenderer(workers=1, renderer=here)
    try:
        renderer.warm()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(drawn) < len(GAMES):
            time.sleep(0.05)
        assert sorted(drawn) == sorted(GAMES) and not renderer.pooled
    finally:
        released.set()
        renderer.close()


def test_the_bots_own_warming_up_stops_once_it_draws_a_board_itself(monkeypatch):
    """A board asked for while the bot's process warms up is drawn there, and the warming
    up stops at the next game instead of taking the interpreter lock from later boards."""
    import threading

    released = threading.Event()
    launch = PooledRenderer._launch

    def slow_launch(self, lane):
        assert released.wait(60)
        return launch(self, lane)

    asked = views()[1]
    first_opening, board_drawn = threading.Event(), threading.Event()
    openings: list[str] = []

    def here(view):
        if view is asked:
            board_drawn.set()
        else:
            openings.append(view["game"])
            first_opening.set()
            assert board_drawn.wait(60)
        return render(view)

    monkeypatch.setattr(PooledRenderer, "_launch", slow_launch)
    renderer = PooledRenderer(workers=1, renderer=here)
    try:
        renderer.warm()
        assert first_opening.wait(60)
        assert renderer(asked) == render(asked)
        threads = [t for t in threading.enumerate() if t.name == "candybot-render-here"]
        for thread in threads:
            thread.join(60)
        assert len(openings) == 1
    finally:
        released.set()
        renderer.close()


def test_a_stop_while_the_workers_start_does_not_wait_for_them(monkeypatch):
    """A bot stopped soon after its start (before its workers are up) stops at once; the
    workers that come up after it are stopped, and pictures are drawn in-process."""
    import threading
    import time

    released = threading.Event()
    launched: list[object] = []
    launch = PooledRenderer._launch

    def slow_launch(self, lane):
        assert released.wait(60)
        workers = launch(self, lane)
        launched.append(workers)
        return workers

    monkeypatch.setattr(PooledRenderer, "_launch", slow_launch)
    renderer = PooledRenderer(workers=1)
    try:
        renderer.warm()
        began = time.monotonic()
        renderer.close()
        assert time.monotonic() - began < 5
        released.set()
        assert renderer.start() is False and not renderer.pooled
        view = views()[1]
        assert renderer(view) == render(view)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
                launched and not any(w.process.is_alive() for w in launched[0].workers)):
            time.sleep(0.1)
        assert launched and not any(w.process.is_alive() for w in launched[0].workers)
        time.sleep(0.5)
        assert len(launched) == 1  # the later lane is not started for a closed pool
    finally:
        released.set()
        renderer.close()


def _has_module(name: str) -> bool:
    import sys

    return name in sys.modules


def test_workers_are_forked_from_a_server_that_warmed_up_once_for_them_all(pooled):
    """The fork server imports :data:`renderers.pool.PRELOAD` (which warms every game's
    renderer up) before it forks the first worker, so a worker begins warm."""
    assert pooled.start()
    for lane in (pool_module.NOW, pool_module.LATER):
        assert pooled._lanes[lane].submit(_has_module, pool_module.PRELOAD).result(timeout=60)
    assert not _has_module(pool_module.PRELOAD)  # the bot's own process never warms up


def test_workers_hold_the_modules_of_the_rules_work_before_their_first_job():
    # A job names its work: a worker that met a move's work first would import it then,
    # inside that move (250 ms), where the bot names the modules to import beforehand.
    from bot.rules_work import WORK_MODULES, ai_choice
    from bot.tables.moves import work_out

    assert {work_out.__module__, ai_choice.__module__} <= set(WORK_MODULES)
    renderer = PooledRenderer(workers=1, preload=WORK_MODULES)
    try:
        assert renderer.start()
        for lane in (pool_module.NOW, pool_module.LATER):
            for module in WORK_MODULES:
                assert renderer._lanes[lane].submit(_has_module, module).result(timeout=60)
    finally:
        renderer.close()


def test_gifs_and_replays_go_to_workers_that_yield_the_cpu_and_never_hold_up_a_board(pooled):
    import time

    assert pooled.start()
    now = pooled._lanes[pool_module.NOW].submit(os.getpid).result()
    later = pooled._lanes[pool_module.LATER].submit(os.getpid).result()
    assert set(pooled.worker_pids()) >= {now, later}
    assert os.getpriority(os.PRIO_PROCESS, later) > os.getpriority(os.PRIO_PROCESS, now)
    view = views()[0]

    async def a_board_while_a_replay_is_drawn() -> float:
        replay = asyncio.create_task(pooled.run_async(time.sleep, 1.5))
        await asyncio.sleep(0.1)  # the later worker is busy with it
        start = time.perf_counter()
        assert await pooled.render_async(view) == render(view)
        waited = time.perf_counter() - start
        await replay
        return waited

    assert asyncio.run(a_board_while_a_replay_is_drawn()) < 1.0


def test_each_worker_leaves_what_warming_up_loaded_out_of_garbage_collections(pooled):
    import gc

    assert pooled.start()
    for lane in (pool_module.NOW, pool_module.LATER):
        assert pooled._lanes[lane].submit(gc.get_freeze_count).result() > 10_000


def test_a_games_pictures_go_to_the_worker_that_holds_its_sprites():
    renderer = PooledRenderer(workers=2)
    try:
        assert renderer.start()
        workers = renderer._lanes[pool_module.NOW]
        # One after another, as a game's moves come: always the same worker per game.
        homes = {key: {workers.submit(os.getpid, key=key).result() for _ in range(6)}
                 for key in (7, 8)}
        assert all(len(pids) == 1 for pids in homes.values())
        assert homes[7] != homes[8]  # and the games are shared out over the workers
        view = views()[1]
        assert asyncio.run(renderer.render_async(view, key=7)) == render(view)
    finally:
        renderer.close()


def test_a_busy_home_worker_leaves_the_picture_to_a_free_one():
    from renderers.pool import HOME_SLACK, pick

    assert pick([0, 0, 0], 4) == 1  # game 4's home: worker 4 % 3
    assert pick([0, 1 + HOME_SLACK, 0], 4) == 0  # too much waiting at home: the least busy
    assert pick([1, HOME_SLACK + 1, 2], 4) == 1  # a queue within the slack keeps the sprites
    assert pick([1, HOME_SLACK + 1, 2], None) == 0  # an AI seat's move: the least busy


def test_jobs_past_a_workers_pipe_allowance_wait_in_the_bot_and_are_all_answered_in_turn():
    renderer = PooledRenderer(workers=1)
    try:
        assert renderer.start()
        workers = renderer._lanes[pool_module.NOW]
        big = "x" * (2 * pool_module.UNANSWERED_BYTES)  # alone past the allowance
        futures = [workers.submit(len, big + "y" * n) for n in range(30)]
        assert [f.result(timeout=60) for f in futures] == [len(big) + n for n in range(30)]
    finally:
        renderer.close()


def test_a_worker_that_dies_fails_its_jobs_and_is_replaced_and_pictures_are_still_drawn():
    import time
    from concurrent.futures.process import BrokenProcessPool

    renderer = PooledRenderer(workers=1)
    try:
        assert renderer.start()
        # Private access: the test needs the worker's process id to kill it.
        workers = renderer._lanes[pool_module.NOW]
        pid = workers.submit(os.getpid).result()
        busy = workers.submit(time.sleep, 5)
        waiting = [workers.submit(len, "x" * pool_module.UNANSWERED_BYTES) for _ in range(3)]
        os.kill(pid, signal.SIGKILL)
        for future in [busy, *waiting]:
            with pytest.raises(BrokenProcessPool):
                future.result(timeout=10)
        view = views()[1]
        assert renderer(view) == render(view)  # drawn in-process, then by a new worker
        assert renderer.pooled and renderer._lanes[pool_module.NOW] is not workers
        assert renderer(view) == render(view)
    finally:
        renderer.close()
    assert not renderer.pooled


def test_a_ctrl_c_reaching_the_workers_leaves_them_drawing(pooled):
    """A terminal's Ctrl-C goes to the bot and its workers alike; the bot stops them."""
    assert pooled.start()
    view = views()[0]
    for lane in (pool_module.NOW, pool_module.LATER):
        pid = pooled._lanes[lane].submit(os.getpid).result()
        os.kill(pid, signal.SIGINT)
        assert pooled._lanes[lane].submit(os.getpid).result() == pid
    assert pooled(view) == render(view)


def test_pictures_queued_behind_a_dying_worker_and_its_neighbour_all_arrive():
    """One worker dies in a burst: the lane is replaced, and the pictures queued for either
    worker (sent, or still waiting in the bot) are drawn anyway, none lost or cancelled."""
    import time

    renderer = PooledRenderer(workers=2)
    try:
        assert renderer.start()
        workers = renderer._lanes[pool_module.NOW]
        pid = workers.submit_to(0, os.getpid).result()
        for worker in range(2):
            workers.submit_to(worker, time.sleep, 1.0)  # both busy: the burst queues
        view = views()[1]

        async def burst() -> list[bytes]:
            drawing = [asyncio.create_task(renderer.render_async(view, key=game))
                       for game in range(60)]
            await asyncio.sleep(0.2)
            os.kill(pid, signal.SIGKILL)
            return await asyncio.gather(*drawing)

        assert asyncio.run(burst()) == [render(view)] * 60
        assert renderer.pooled and renderer._lanes[pool_module.NOW] is not workers
    finally:
        renderer.close()


def test_an_urgent_job_goes_before_the_pictures_waiting_for_the_worker():
    """A move worked out (or an AI seat's choice) holds up its board and a slot of the moves
    worked on at once: it is sent before the jobs that wait, after those already sent."""
    import time

    renderer = PooledRenderer(workers=1)
    try:
        assert renderer.start()
        workers = renderer._lanes[pool_module.NOW]
        done: list[str] = []
        jobs = [("busy", workers.submit(time.sleep, 0.5))]
        jobs += [(f"picture {n}", workers.submit(abs, n)) for n in range(4)]
        jobs.append(("urgent", workers.submit(abs, -1, urgent=True)))
        for name, future in jobs:
            future.add_done_callback(lambda _, name=name: done.append(name))
        for _, future in jobs:
            future.result(timeout=60)
        in_flight = pool_module.IN_FLIGHT
        assert done.index("urgent") == in_flight
        assert done == ["busy", *[f"picture {n}" for n in range(in_flight - 1)], "urgent",
                        *[f"picture {n}" for n in range(in_flight - 1, 4)]]
    finally:
        renderer.close()
