"""``candybot bench``: how fast every game is on this machine, and how good its AI is.

For each registered game (or one, ``--game``):

- **render**: drawing one public picture, over pictures from real AI games;
- **/play**: what a player waits for: their ``/play`` goes through the real bot (the
  discord.py client, the command tree, the handlers, the tables service, the store,
  the pictures, the movement GIF) on an offline Discord
  (:mod:`tools.offline`), and is timed until the interaction is acknowledged,
  until the board reaches the channel, and until a movement GIF is added to it. Twice:
  as ``candybot run`` has it, pictures and AI choices in the worker processes of a
  :class:`~renderers.pool.PooledRenderer` (the time players wait), and with everything
  in the bot's process, where its CPU is split by stage (see :class:`Stages`), so the
  next bottleneck shows;
- **chess**: python-chess drawing a board as SVG and cairosvg turning it into a
  PNG of the same width, which is what a Discord chess bot pays per move, timed
  right after each /play so that both see the same machine. The figure that
  matters is the ratio of the /play p95 to the chess p95: it holds across
  machines better than milliseconds do (needs the ``bench`` extra);
- **load**: ``--channels`` channels (50) each making a move at the same moment
  through the same bot, drawing in a :class:`~renderers.pool.PooledRenderer` as
  ``candybot run`` does; answer times, moves per second, the bot process's CPU per
  move, and the longest stall of the event loop, measured by a task that asks to
  wake every 5 ms; with several games, also every game mixed;
- **AI**: how often the game's AI wins against players choosing uniformly at
  random among their legal moves.

The timed tables are what players have: two humans and one AI seat at the normal level
(:data:`HUMANS`, :data:`AI_LEVEL`), the AI acting between the humans' moves. The bench
types each human's move (chosen by the AI before the clock starts); a /play is timed until
the board that follows it, with the AI's reply when the AI acts next, reaches the channel,
and the AI's own choosing is a stage of its CPU (``AI``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import gc
import io
import json
import platform
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games import GAMES, get_game
from bot.games.engine import Engine, SeatInfo, State, View, dumps, loads, playing
from bot.games.words import plural
from bot.ops import Exit
from bot.watch import unwatched
from tools.arena import win_rate_vs_random

#: Every human seat of a timed game is a Discord user with this id plus the seat number.
USER_BASE = 10_000
#: The humans at a timed table; the seats after them are AI seats playing at ``AI_LEVEL``.
HUMANS = 2
AI_LEVEL = "normal"
LOAD_TICK_S = 0.005
TARGET_PLAY_VS_CHESS = 0.25
TARGET_LOAD_P95_MS = 500.0
TARGET_STALL_MS = 50.0
TARGET_FIRST_MS = 100.0
TARGET_MOVES_PER_S = 100.0
#: The first board after Start on a freshly started bot, p95 (issue 43: no dead air).
TARGET_FIRST_BOARD_MS = 1500.0
#: Fresh bots the whole bench times the first board on (``--first-boards``).
FIRST_BOARDS = 20

Renderer = Callable[[View], bytes]


# --------------------------------------------------------------------------- figures


def _stats(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median": statistics.median(ordered), "p95": p95, "max": ordered[-1]}


def _players(game: Engine) -> int:
    """Seats in the timed games: three where the game allows it."""
    return min(max(game.min_seats, 3), game.max_seats)


def _table(game: Engine) -> list[SeatInfo]:
    """The seats of a timed table: :data:`HUMANS` humans, then AI seats (one for a game
    of three)."""
    return [SeatInfo(f"Player {i + 1}") if i < HUMANS else SeatInfo(f"AI {i - HUMANS + 1}",
                                                                   ai=True)
            for i in range(_players(game))]


def _ai_game(game: Engine, seed: int, players: int) -> State:
    return game.new([SeatInfo(f"Seat {i + 1}", ai=True) for i in range(players)], seed)


def sample_views(game: Engine, samples: int) -> list[View]:
    """Public views from real AI games, one per move, ``samples`` of them."""
    views: list[View] = []
    seed = 0
    while len(views) < samples:
        for _seat, outcome in playing(game, _ai_game(game, seed, _players(game))):
            views.append(game.view(outcome.state, None))
            if len(views) == samples:
                break
        seed += 1
    return views


def bench_render(slug: str, samples: int) -> dict[str, Any]:
    """Render time and PNG size of public pictures of ``slug``."""
    from PIL import Image

    from renderers import render

    game = get_game(slug)
    views = sample_views(game, samples)
    render(views[0])  # fonts, palettes and caches, as a running bot has them
    times, sizes = [], []
    for view in views:
        start = time.perf_counter()
        png = render(view)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png) / 1024)
    width, height = Image.open(io.BytesIO(png)).size
    return {"render_ms": _stats(times), "png_kb": _stats(sizes), "width_px": width,
            "height_px": height}


# --------------------------------------------------------------------------- through the bot


class BenchChannel:
    """One channel of the bench's bot: its game and the move its player types next."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        self.games = 0
        self.state: State | None = None
        self.user_id = 0
        self.text = ""


@dataclass
class Answer:
    """How long one /play kept its player waiting, in milliseconds from the interaction."""

    #: Until Discord heard the interaction acknowledged (the "thinking" placeholder).
    acknowledged: float
    #: Until the board (its picture) reached the channel.
    board: float
    #: Until the movement GIF was added to the board (``None`` when the move has none).
    movement: float | None


async def _open(store: Any, game: Engine, channel: BenchChannel) -> None:
    """Start a fresh game in the channel (the previous one is over): :data:`HUMANS` humans
    and an AI seat, the AI's moves at the deal played and logged as the bot's start
    plays them."""
    from bot.store import MoveRecord, SeatRecord
    from tools.offline import GUILD_ID

    channel.games += 1
    seed = channel.channel_id * 1000 + channel.games
    seats = _table(game)
    state = game.new(seats, seed)
    record = await store.games.create_lobby(channel_id=channel.channel_id, guild_id=GUILD_ID,
                                            game=game.slug, creator_id=USER_BASE, options={},
                                            settings={}, now=time.time())
    rows = [SeatRecord(i, None, s.name, True, level=AI_LEVEL) if s.ai
            else SeatRecord(i, USER_BASE + i, s.name, False) for i, s in enumerate(seats)]
    record = await store.games.start(record.id, record.version, seed=seed, state_json=dumps(state),
                                     seats=rows, now=time.time(), next_reminder_at=None)

    def deal() -> tuple[State, list[MoveRecord]]:
        """The AI seats' moves at the deal: the bench's own work, off the event loop
        (whose stalls count against the bot)."""
        played, now = [], state
        while acting := sorted(s for s in game.to_act(now) if seats[s].ai):
            outcome = game.apply(now, acting[0], game.ai_action(now, acting[0], AI_LEVEL))
            played.append(MoveRecord(acting[0], None, outcome.action.notation,
                                     " ".join(outcome.narration(None)), False))
            now = outcome.state
        return now, played

    state, opening = await asyncio.to_thread(deal)
    if opening:
        await store.moves.commit_moves(record.id, record.version, opening, state_json=dumps(state),
                                       now=time.time(), turn_changed=True, next_reminder_at=None)
    channel.state = state


def _humans_to_act(game: Engine, state: State) -> list[int]:
    return sorted(s for s in game.to_act(state) if not state["seats"][s]["ai"])


async def prepare_move(store: Any, game: Engine, channel: BenchChannel) -> None:
    """Choose the channel's next move (untimed), opening a new game if the last one ended:
    the move of the first human to act, as the AI would choose it."""
    record = await store.games.open_game(channel.channel_id)
    channel.state = (loads(record.state_json, game) if record is not None
                     and record.state_json else None)
    if channel.state is None or not _humans_to_act(game, channel.state):
        if record is not None:
            await store.games.abort(record.id, time.time())
        await _open(store, game, channel)
    state = channel.state
    assert state is not None
    humans = _humans_to_act(game, state)
    if not humans:
        raise RuntimeError(f"a new {game.title} game waits for no human")
    seat = humans[0]
    channel.user_id = USER_BASE + seat
    # Off the event loop: an AI may think for a while, and the bot keeps working meanwhile.
    channel.text = (await asyncio.to_thread(game.ai_action, state, seat)).notation


def game_of(games: Sequence[Engine], channel: BenchChannel) -> Engine:
    """The game a channel of the load test plays: the games in turn, channel by channel."""
    return games[(channel.channel_id - 1) % len(games)]


@dataclass
class BenchBot:
    """The real bot on an offline Discord, as the bench drives it."""

    bot: Any
    gateway: Any
    recorder: Any

    @property
    def store(self) -> Any:
        return self.bot.tables.store

    async def play(self, channels: Sequence[BenchChannel], *,
                   ignore: Sequence[asyncio.Task[Any]] = ()) -> list[Answer]:
        """Each channel's player types their /play at the same moment; waits until the bot
        has done everything the moves started (movement GIFs included)."""
        from tools.offline import settle

        self.recorder.clear()
        payloads = [self.gateway.command(c.user_id, "play", options={"action": c.text},
                                         channel_id=c.channel_id) for c in channels]
        start = time.perf_counter()
        self.gateway.dispatch(*payloads)
        await settle(ignore=ignore)
        return [self._answer(payload, start) for payload in payloads]

    def _answer(self, payload: dict[str, Any], start: float) -> Answer:
        channel = int(payload["channel_id"])
        sent = [s for s in self.recorder.sent if s.channel_id == channel]
        callback = f"/interactions/{payload['id']}/"
        acks = [s.at for s in sent if s.path.startswith(callback)]
        boards = [s.at for s in sent if s.pngs and s.failed is None]
        gifs = [s.at for s in sent if s.gifs and s.failed is None]
        if not acks or not boards:
            problems = [s.content for s in sent if s.ephemeral] or ["nothing"]
            raise RuntimeError(f"/play {payload['data']['options']} in channel {channel} "
                               f"was not answered with a board: {problems[-1]!r}")
        return Answer((min(acks) - start) * 1000, (min(boards) - start) * 1000,
                      (min(gifs) - start) * 1000 if gifs else None)


async def _with_bot(folder: Path, work: Callable[[BenchBot], Any], renderer: Any,
                    db: str | None = None, stages: Stages | None = None) -> Any:
    """Run ``work`` with the real bot on an offline Discord, on a new SQLite file in
    ``folder``, or with ``db`` a PostgreSQL URL, in a new schema of that database dropped
    afterwards. With ``stages``, the offline Discord's own work is timed apart, so that
    it is not taken for the bot's."""
    from bot.app import create_bot
    from bot.config import Settings
    from bot.discord.client import freeze_heap
    from tools.offline import Recorder, connect

    async def run(settings: Any) -> Any:
        bot = create_bot(settings, renderer=renderer, clock=time.time,
                         watch=stages if stages is not None else unwatched)
        recorder = Recorder()
        if stages is not None:
            recorder.watch = stages
        gateway = await connect(bot, recorder)
        freeze_heap()  # as the live bot does once it is connected
        try:
            return await work(BenchBot(bot, gateway, recorder))
        finally:
            await bot.close()
            gc.unfreeze()  # the bench's own objects are collected as before

    if db is None:
        return await run(Settings(token=None, db_path=folder / "bench.db"))
    import psycopg

    schema = f"candybot_bench_{secrets.token_hex(4)}"
    async with await psycopg.AsyncConnection.connect(db, autocommit=True) as conn:
        await conn.execute(f"CREATE SCHEMA {schema}")
    try:
        scoped = f"{db}{'&' if '?' in db else '?'}options=-csearch_path%3D{schema}"
        return await run(Settings(token=None, db_path=folder / "state", db_url=scoped))
    finally:
        async with await psycopg.AsyncConnection.connect(db, autocommit=True) as conn:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")


class _TimedPictures:
    """The in-process renderer, its pictures and movement GIFs timed by ``stages``."""

    def __init__(self, stages: Stages) -> None:
        from renderers import animate, render

        self._render = stages.timed("pictures", render)
        self.animate = stages.timed("animation", animate)

    def __call__(self, view: View) -> bytes:
        return self._render(view)


def bench_play(slug: str, samples: int,
               between: Callable[[], Any] | None = None, db: str | None = None,
               renderer: Renderer | None = None) -> dict[str, Any]:
    """Whole /play moves one after another in one channel (two humans and an AI seat),
    through the real bot on an offline Discord: pictures drawn in-process, each stage's
    CPU measured; or with ``renderer`` (the render pool), moves worked out (the AI seat's
    replies with them) and pictures drawn in its workers, as ``candybot run`` has them,
    and no stages measured.

    ``between`` (the chess board) is timed after each move, so that both figures
    see the same machine: a busy moment slows them alike and their ratio holds.
    Besides every /play's figures, those of the /plays the AI answered before the board
    (``with_ai``: the board and the AI's CPU in that /play).
    """
    game = get_game(slug)
    stages = Stages()
    ais: list[int] = []  # the AI moves of each /play through the pool

    async def work(bot: BenchBot) -> dict[str, list[float]]:
        channel = BenchChannel(1)
        out: dict[str, list[float]] = {"board": [], "ack": [], "movement": [], "chess": [],
                                       "ai_board": [], "ai_cpu": []}
        for n in range(samples + 1):
            await prepare_move(bot.store, game, channel)
            moves = await _moves_made(bot.store, channel) if renderer is not None else 0
            stages.start()
            ai_moves, ai_cpu = stages.ai_moves, stages.spent["AI"]
            try:
                answer = (await bot.play([channel]))[0]
            finally:
                ai_moves, ai_cpu = stages.ai_moves - ai_moves, stages.spent["AI"] - ai_cpu
                stages.stop(count=n > 0)  # the first move warms the caches
            if renderer is not None:  # no stages: the AI's moves are read from the log
                ai_moves = await _moves_made(bot.store, channel) - moves - 1
            if between is not None:
                start = time.perf_counter()
                between()
                if n:
                    out["chess"].append((time.perf_counter() - start) * 1000)
            if n:
                out["board"].append(answer.board)
                out["ack"].append(answer.acknowledged)
                if answer.movement is not None:
                    out["movement"].append(answer.movement)
                ais.append(ai_moves)
                if ai_moves:
                    out["ai_board"].append(answer.board)
                    out["ai_cpu"].append(ai_cpu)
        return out

    with tempfile.TemporaryDirectory() as folder:
        if renderer is None:
            times = asyncio.run(_with_bot(Path(folder), work, _TimedPictures(stages), db,
                                          stages))
        else:
            times = asyncio.run(_with_bot(Path(folder), work, renderer, db))
    out: dict[str, Any] = {"play_ms": _stats(times["board"]), "ack_ms": _stats(times["ack"]),
                           "ai_moves_per_play": sum(ais) / max(len(ais), 1)}
    if renderer is None:
        out["play_cpu_ms"] = stages.per_move()
    if times["ai_board"]:
        out["with_ai"] = {"plays": len(times["ai_board"]), "play_ms": _stats(times["ai_board"])}
        if renderer is None:
            out["with_ai"]["ai_cpu_ms"] = _stats(times["ai_cpu"])
    if times["movement"]:
        out["movement_ms"] = _stats(times["movement"])
    if times["chess"]:
        out["chess_ms"] = _stats(times["chess"])
    return out


async def _moves_made(store: Any, channel: BenchChannel) -> int:
    """How many moves the channel's game has logged."""
    record = await store.games.open_game(channel.channel_id)
    return 0 if record is None else len(await store.moves.actions(record.id))


def bench_load(slug: str | Sequence[str], channels: int, rounds: int,
               renderer: Renderer, db: str | None = None) -> dict[str, Any]:
    """``channels`` channels move at once through the real bot, ``rounds`` times: answer
    times, moves per second, the bot process's CPU per move and event-loop stalls.

    With several games (``slug`` a sequence) the channels play them in turn: the mixed burst.
    """
    games = [get_game(s) for s in ([slug] if isinstance(slug, str) else slug)]

    async def work(bot: BenchBot) -> dict[str, Any]:
        table = [BenchChannel(n + 1) for n in range(channels)]
        answers: list[Answer] = []
        firsts: list[float] = []  # each burst's first board
        busy = cpu = 0.0  # wall and process CPU seconds of the timed rounds
        lags: list[float] = []
        measuring = False
        running = True

        async def ticker() -> None:
            while running:
                start, counts = time.perf_counter(), measuring
                await asyncio.sleep(LOAD_TICK_S)
                # Only a tick that slept and woke inside a timed round counts: the untimed
                # choosing of moves between rounds is the bench's, not the bot's.
                if counts and measuring:
                    lags.append((time.perf_counter() - start - LOAD_TICK_S) * 1000)

        tick = asyncio.create_task(ticker())
        try:
            for channel in table:  # a first move each, untimed: caches warm as in a live bot
                await prepare_move(bot.store, game_of(games, channel), channel)
            await bot.play(table, ignore=[tick])
            for _ in range(rounds):
                for channel in table:
                    await prepare_move(bot.store, game_of(games, channel), channel)
                measuring = True
                start, start_cpu = time.perf_counter(), time.process_time()
                burst = await bot.play(table, ignore=[tick])
                busy += time.perf_counter() - start
                answers += burst
                firsts.append(min(a.board for a in burst))
                cpu += time.process_time() - start_cpu
                measuring = False
        finally:
            running = False
            await tick
        movements = [a.movement for a in answers if a.movement is not None]
        out = {"latency_ms": _stats([a.board for a in answers]),
               "acknowledged_ms": _stats([a.acknowledged for a in answers]),
               "first_ms": _stats(firsts),
               "stall_ms": _stats(lags or [0.0]), "moves_per_s": len(answers) / busy,
               "bot_cpu_ms_per_move": cpu * 1000 / len(answers)}
        if movements:
            out["movement_ms"] = _stats(movements)
        return out

    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(_with_bot(Path(folder), work, renderer, db))


# --------------------------------------------------------------------------- replays

#: The game the replay measure asks for: five players of Kingdom's Candy Monsters, a long one.
REPLAY_GAME, REPLAY_PLAYERS, REPLAY_SEED = "kingdoms-candy-monsters", 5, 3
TARGET_REPLAY_MB = 600.0


def _rss_mb(pid: int | str = "self") -> float:
    """The resident memory of process ``pid`` (Linux ``/proc``), in MiB; 0 where unknown."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def _stored_ai_game(store: Any, slug: str, players: int, seed: int,
                          channel_id: int) -> int:
    """A whole AI game between ``players`` seats, stored as played (every action logged)
    in ``channel_id``; its id."""
    from bot.store import MoveRecord, SeatRecord
    from tools.offline import GUILD_ID

    game = get_game(slug)
    seats = [SeatInfo(f"Player {i + 1}") for i in range(players)]
    state = game.new(seats, seed)
    first = dumps(state)
    moves = []
    for seat, outcome in playing(game, state):
        moves.append(MoveRecord(seat, USER_BASE + seat, outcome.action.notation,
                                " ".join(outcome.narration(None)), False))
        state = outcome.state
    record = await store.games.create_lobby(channel_id=channel_id, guild_id=GUILD_ID, game=slug,
                                            creator_id=USER_BASE, options={}, settings={},
                                            now=time.time())
    rows = [SeatRecord(i, USER_BASE + i, s.name, False) for i, s in enumerate(seats)]
    record = await store.games.start(record.id, record.version, seed=seed, state_json=first,
                                     seats=rows, now=time.time(), next_reminder_at=None)
    await store.moves.commit_moves(record.id, record.version, moves, state_json=dumps(state),
                                   now=time.time(), turn_changed=True, next_reminder_at=None)
    return int(record.id)


def bench_replays(requests: int, renderer: Any) -> dict[str, Any]:
    """``requests`` people ask for the replay of one long game at once (a 5-player Candy
    Monsters game) while a player moves in another channel: the bot process's memory at its
    peak (and the render workers'), how long that move waited, and how many replays were
    drawn."""
    async def work(bot: BenchBot) -> dict[str, Any]:
        from tools.offline import settle

        replayed, moving = 1, 2
        game_id = await _stored_ai_game(bot.store, REPLAY_GAME, REPLAY_PLAYERS, REPLAY_SEED,
                                        replayed)
        moves = len(await bot.store.moves.actions(game_id))
        blast = get_game("sugar-blast")
        channel = BenchChannel(moving)
        await prepare_move(bot.store, blast, channel)
        await bot.play([channel])  # caches warm, as in a live bot
        await prepare_move(bot.store, blast, channel)
        gc.collect()
        pids = getattr(renderer, "worker_pids", None)
        workers = pids() if callable(pids) else []
        base, worker_base = _rss_mb(), sum(_rss_mb(pid) for pid in workers)
        peak, worker_peak = base, worker_base
        sampling = True

        async def sample() -> None:
            nonlocal peak, worker_peak
            while sampling:
                peak = max(peak, _rss_mb())
                worker_peak = max(worker_peak, sum(_rss_mb(pid) for pid in workers))
                await asyncio.sleep(0.02)

        sampler = asyncio.create_task(sample())
        bot.recorder.clear()
        asks = [bot.gateway.command(USER_BASE + 100 + n, "game", "replay",
                                    channel_id=replayed) for n in range(requests)]
        move = bot.gateway.command(channel.user_id, "play", options={"action": channel.text},
                                   channel_id=moving)
        start = time.perf_counter()
        bot.gateway.dispatch(*asks)
        await asyncio.sleep(0.05)  # the replays are under way when the move arrives
        moved_at = time.perf_counter()
        bot.gateway.dispatch(move)
        await settle(ignore=[sampler])
        sampling = False
        await sampler
        answer = bot._answer(move, moved_at)
        gifs = [s for s in bot.recorder.sent if s.gifs and s.channel_id == replayed]
        return {"requests": requests, "moves": moves, "answered": len(gifs),
                "drawn": bot.bot.replays.drawn, "gif_kb": max(len(s.gifs[0]) for s in gifs)
                / 1024 if gifs else 0.0, "seconds": time.perf_counter() - start,
                "bot_rss_mb": {"before": base, "peak": peak},
                "workers_rss_mb": {"before": worker_base, "peak": worker_peak},
                "move_acknowledged_ms": answer.acknowledged, "move_board_ms": answer.board}

    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(_with_bot(Path(folder), work, renderer))


def _print_replays(f: dict[str, Any]) -> None:
    ok = ("ok" if f["bot_rss_mb"]["peak"] < TARGET_REPLAY_MB
          and f["move_acknowledged_ms"] < TARGET_FIRST_MS else "OVER TARGET")
    print(f"{f['requests']} replays of a {REPLAY_PLAYERS}-player {get_game(REPLAY_GAME).title} "
          f"game ({f['moves']} moves) asked at once: {f['answered']} answered, "
          f"{f['drawn']} drawn, GIF {f['gif_kb']:.0f} KB, in {f['seconds']:.1f} s")
    print(f"  bot process memory {f['bot_rss_mb']['before']:.0f} MB before, peak "
          f"{f['bot_rss_mb']['peak']:.0f} MB (target under {TARGET_REPLAY_MB:.0f} MB); render "
          f"workers {f['workers_rss_mb']['before']:.0f} MB before, peak "
          f"{f['workers_rss_mb']['peak']:.0f} MB")
    print(f"  a move in another channel meanwhile: acknowledged in "
          f"{f['move_acknowledged_ms']:.0f} ms, its board in {f['move_board_ms']:.0f} ms "
          f"(target: acknowledged under {TARGET_FIRST_MS:.0f} ms) ({ok})")


# --------------------------------------------------------------------------- stages

#: The stages of a /play, in the order a move goes through them.
STAGES = ("engine", "AI", "state JSON", "views", "store", "pictures", "animation",
          "Discord layer")
#: The offline Discord answering the bot's requests: the bench's work, not the bot's.
OFFLINE = "offline Discord"
#: Threads that run the SQLite store's queries (aiosqlite names them after their function).
SQLITE_THREAD = "_connection_worker_thread"


def _thread_cpu(threads: Sequence[threading.Thread]) -> float:
    """CPU seconds the given live threads have used (Linux and macOS: their CPU clocks)."""
    total = 0.0
    for thread in threads:
        if thread.ident is None or not thread.is_alive():
            continue
        # OSError: gone meanwhile; AttributeError: no per-thread clocks on this system.
        with contextlib.suppress(OSError, AttributeError):
            total += time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    return total


class Stages:
    """Where a /play's CPU goes, stage by stage: the bot's own marks (:mod:`bot.watch`:
    the rules, the AI seats' choices, the state's JSON, the views, each store call) and
    the bench's renderer and offline Discord, timed by this one :class:`~bot.watch.Watch`.

    The rules (parse, apply), the AI, the state's JSON, the views, the pictures and the
    movement GIF run whole in one thread each, so their figure is that thread's CPU time
    (``time.thread_time``). The store's is the CPU of SQLite's own threads plus that of
    the event loop's thread while a store call was awaited (with PostgreSQL the server's
    work is not in it: ``store_wait`` is the time the calls were awaited). The Discord
    layer's is the event loop's thread CPU that no other stage claims: discord.py
    parsing the interaction and building the requests, the handlers, the tables service
    around the rules. The offline Discord's answers are timed apart (``offline Discord``):
    the real one answers over the network instead. A stage called from inside another
    counts once, in the outer one.
    """

    def __init__(self) -> None:
        self.spent: dict[str, float] = dict.fromkeys((*STAGES, OFFLINE), 0.0)
        self.store_wait = 0.0
        self.moves = 0
        #: The AI's choices marked so far (one per AI move; the warm-up's forgotten).
        self.ai_moves = 0
        self._on_loop = 0.0  # stage CPU that ran on the event loop's thread
        self._lock = threading.Lock()
        self._inside = threading.local()
        self._loop_thread = 0
        self._marks: tuple[float, float, float] | None = None
        self._awaiting: contextvars.ContextVar[bool] = contextvars.ContextVar(
            "awaiting_store", default=False)

    def _add(self, stage: str, seconds: float) -> None:
        with self._lock:
            self.spent[stage] += seconds * 1000
            if threading.get_ident() == self._loop_thread:
                self._on_loop += seconds * 1000

    def timed(self, stage: str, work: Callable[..., Any]) -> Callable[..., Any]:
        """``work`` (a plain function run in one thread) with its CPU time added to ``stage``."""
        def run(*args: Any, **kwargs: Any) -> Any:
            if getattr(self._inside, "stage", None):
                return work(*args, **kwargs)
            self._inside.stage = stage
            start = time.thread_time()
            try:
                return work(*args, **kwargs)
            finally:
                self._add(stage, time.thread_time() - start)
                self._inside.stage = None
        return run

    @contextlib.contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        """The bot's mark of a stage (:mod:`bot.watch`): its thread's CPU goes to ``stage``;
        a store call's wall time also goes to :attr:`store_wait`. A mark inside another
        counts once, in the outer one."""
        if stage == "store":
            if self._awaiting.get():
                yield
                return
            token = self._awaiting.set(True)
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                yield
            finally:
                with self._lock:
                    self.store_wait += (time.perf_counter() - start) * 1000
                self._add("store", time.thread_time() - cpu)
                self._awaiting.reset(token)
            return
        if stage == "AI":
            with self._lock:
                self.ai_moves += 1
        if getattr(self._inside, "stage", None):
            yield
            return
        self._inside.stage = stage
        start = time.thread_time()
        try:
            yield
        finally:
            self._add(stage, time.thread_time() - start)
            self._inside.stage = None

    @staticmethod
    def _store_threads() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if SQLITE_THREAD in t.name]

    def start(self) -> None:
        """A move begins (on the event loop's thread)."""
        self._loop_thread = threading.get_ident()
        with self._lock:
            self._marks = (time.thread_time(), _thread_cpu(self._store_threads()),
                           self._on_loop)

    def stop(self, count: bool = True) -> None:
        """The move is over: the loop thread's unclaimed CPU goes to the Discord layer.
        With ``count`` false everything so far is forgotten (the warm-up move)."""
        assert self._marks is not None
        loop_start, store_start, on_loop = self._marks
        loop_cpu = (time.thread_time() - loop_start) * 1000
        store_threads = (_thread_cpu(self._store_threads()) - store_start) * 1000
        with self._lock:
            self._marks = None
            if not count:
                self.spent = dict.fromkeys((*STAGES, OFFLINE), 0.0)
                self.store_wait = self._on_loop = 0.0
                self.moves = self.ai_moves = 0
                return
            self.spent["store"] += max(0.0, store_threads)
            self.spent["Discord layer"] += max(0.0, loop_cpu - (self._on_loop - on_loop))
            self.moves += 1

    def per_move(self) -> dict[str, float]:
        """CPU milliseconds per move by stage, then ``store wait`` (the store's wall time)
        and the offline Discord's CPU (the bench's stand-in for Discord, not the bot)."""
        moves = max(self.moves, 1)
        out = {stage: self.spent[stage] / moves for stage in STAGES}
        out["store wait"] = self.store_wait / moves
        out[OFFLINE] = self.spent[OFFLINE] / moves
        return out


# --------------------------------------------------------------------------- the first board


def bench_first_board(slugs: Sequence[str], samples: int) -> dict[str, Any]:
    """The first board after Start on a freshly started bot, ``samples`` times, the games in
    turn: each time a new process starts the bot as ``candybot run`` does (its render pool
    made, not started), connects it to an offline Discord, opens a lobby, seats AI players
    and presses Start at once (:func:`first_board_here`); the board is timed from the
    Start click until its picture reaches the channel. Nothing is warm but what the bot's
    own start-up warmed."""
    import subprocess

    times: list[float] = []
    ready: list[float] = []
    here = 0
    by_game: dict[str, list[float]] = {}
    for n in range(samples):
        slug = slugs[n % len(slugs)]
        begun = time.time()
        done = subprocess.run(
            [sys.executable, "-c", f"from tools.bench import first_board_here; "
                                   f"first_board_here({slug!r})"],
            capture_output=True, text=True, timeout=600, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"the first board of {slug} on a fresh bot failed: "
                               f"{done.stderr.strip()[-2000:]}")
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        times.append(figures["board_ms"])
        ready.append(figures["ready_at"] - begun)
        here += not figures["pooled"]
        by_game.setdefault(slug, []).append(figures["board_ms"])
    return {"board_ms": _stats(times), "ready_s": _stats(ready), "samples": samples,
            "workers_not_up": here,
            "by_game_ms": {slug: statistics.median(t) for slug, t in by_game.items()}}


def first_board_here(slug: str) -> None:
    """One sample of :func:`bench_first_board`, in a process of its own: prints its figures
    as one JSON line (the board's time from Start, when the bot was ready, and whether the
    render workers were up when Start was pressed)."""
    from bot.app import create_bot
    from bot.config import Settings
    from bot.discord.client import freeze_heap
    from bot.rules_work import WORK_MODULES
    from renderers.pool import PooledRenderer
    from tools.offline import Recorder, connect, settle

    async def run(folder: Path, pool: PooledRenderer) -> dict[str, Any]:
        bot = create_bot(Settings(token=None, db_path=folder / "bench.db"), renderer=pool)
        recorder = Recorder()
        gateway = await connect(bot, recorder)  # set up: the render pool starts warming
        freeze_heap()
        ready_at = time.time()
        try:
            gateway.dispatch(gateway.command(USER_BASE, "game", "new", {"game": slug}))
            await settle()
            lobby = recorder.last()
            if lobby.ephemeral:
                raise RuntimeError(f"no lobby opened: {lobby.content!r}")
            for _ in range(max(get_game(slug).min_seats, 2) - 1):
                gateway.dispatch(_clicked(gateway, recorder, lobby.message_id, ":ai"))
                await settle()
            start = _clicked(gateway, recorder, lobby.message_id, ":start")
            recorder.clear()
            pooled = pool.pooled  # whether the workers were up when Start was pressed
            begun = time.perf_counter()
            gateway.dispatch(start)
            await settle()
            boards = [s.at for s in recorder.sent if s.pngs and s.failed is None]
            if not boards:
                raise RuntimeError(f"Start showed no board: {recorder.sent[-1].content!r}")
            return {"board_ms": (min(boards) - begun) * 1000, "ready_at": ready_at,
                    "pooled": pooled}
        finally:
            await bot.close()

    pool = PooledRenderer(preload=WORK_MODULES)  # as `candybot run` makes it
    try:
        with tempfile.TemporaryDirectory() as folder:
            figures = asyncio.run(run(Path(folder), pool))
    finally:
        pool.close()
    print(json.dumps(figures))


def _clicked(gateway: Any, recorder: Any, message_id: int | None, ending: str,
             ) -> dict[str, Any]:
    """The click of the button whose id ends with ``ending`` on the message as it stands."""
    message = recorder.message(message_id)
    ids = [c["custom_id"] for row in message["components"] for c in row["components"]
           if "custom_id" in c]
    chosen = next(c for c in ids if c.endswith(ending))
    return gateway.click(USER_BASE, message, chosen)


# --------------------------------------------------------------------------- chess


def chess_board(width: int) -> Callable[[], bytes] | None:
    """What a chess bot does per move: python-chess SVG -> PNG through cairosvg at ``width`` px.

    ``None`` without the ``bench`` extra (python-chess and cairosvg).
    """
    try:
        import cairosvg
        import chess
        import chess.svg
    except (ImportError, OSError):  # OSError: cairosvg installed but no cairo library
        return None
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    lastmove = chess.Move.from_uci("g1f3")

    def draw() -> bytes:
        svg = chess.svg.board(board, size=width, lastmove=lastmove)
        return cairosvg.svg2png(bytestring=svg.encode(), output_width=width)

    draw()  # cairo's first picture sets up fonts and caches
    return draw


# --------------------------------------------------------------------------- the AI


def win_rate(slug: str, games: int, players: int) -> float:
    """The AI's share of wins against random players (see :mod:`tools.arena`)."""
    return win_rate_vs_random(get_game(slug), games, players)


# --------------------------------------------------------------------------- the command


def bench_game(slug: str, samples: int, channels: int, rounds: int, ai_games: int,
               pool: Any | None, db: str | None = None) -> dict[str, Any]:
    """Every figure of one game."""
    game = get_game(slug)
    figures: dict[str, Any] = {"players": _players(game), "humans": HUMANS, "ai_level": AI_LEVEL}
    figures.update(bench_render(slug, samples))
    chess = chess_board(figures["width_px"])
    figures.update(bench_play(slug, samples, chess, db))
    if pool is not None:
        # What players wait for: the bot as `candybot run` starts it, with its workers.
        figures["as_run"] = bench_play(slug, samples, chess, db, renderer=pool)
    if "chess_ms" in figures:
        chess_p95 = figures["chess_ms"]["p95"]
        figures["in_process_vs_chess_p95"] = figures["play_ms"]["p95"] / chess_p95
        figures["render_vs_chess_p95"] = figures["render_ms"]["p95"] / chess_p95
        timed = figures.get("as_run", figures)
        figures["play_vs_chess_p95"] = timed["play_ms"]["p95"] / timed["chess_ms"]["p95"]
    if channels and pool is not None:
        figures["load_pooled"] = bench_load(slug, channels, rounds, pool, db)
        figures["pool_workers"] = pool.workers if pool.pooled else 0
    if ai_games:
        players = max(2, game.min_seats)
        figures["ai"] = {"win_rate": win_rate(slug, ai_games, players), "games": ai_games,
                         "players": players}
    return figures


def alone(measure: Callable[[Any], dict[str, Any]], show: Callable[[dict[str, Any]], None],
           as_json: bool) -> int:
    """One measure of its own with a render pool of its own, its figures printed."""
    from bot.rules_work import WORK_MODULES
    from renderers.pool import PooledRenderer

    pool = PooledRenderer(preload=WORK_MODULES)
    try:
        pool.start()
        figures = measure(pool)
    finally:
        pool.close()
    if as_json:
        print(json.dumps(figures, sort_keys=True))
    else:
        show(figures)
    return Exit.OK


def bench(as_json: bool = False, samples: int = 60, games: Sequence[str] | None = None,
          channels: int = 50, rounds: int = 3, ai_games: int = 200,
          db: str | None = None, replays: int = 0,
          first_boards: int = FIRST_BOARDS) -> int:
    """Measure every game (or ``games``) and print the figures (one JSON line with
    ``as_json``); the store is a new SQLite file, or with ``db`` (a PostgreSQL URL) a new
    schema in that database. Then the first board after Start on ``first_boards`` freshly
    started bots, the games in turn (:func:`bench_first_board`; on SQLite). With
    ``replays``, measure only that many replays asked at once (:func:`bench_replays`).
    (``--burst`` is :func:`tools.burst.burst`.)"""
    from bot.rules_work import WORK_MODULES
    from renderers.pool import PooledRenderer

    if replays:
        return alone(lambda pool: bench_replays(replays, pool), _print_replays, as_json)

    slugs = list(games) if games else list(GAMES)
    unknown = [slug for slug in slugs if slug not in GAMES]
    if unknown:
        print(f"candybot bench: there is no game called {unknown[0]!r}. Games: "
              f"{', '.join(GAMES)}.", file=sys.stderr)
        return Exit.CONFIG
    out: dict[str, Any] = {"machine": f"{platform.machine()} {platform.python_version()}",
                           "samples": samples, "channels": channels, "rounds": rounds,
                           "backend": "postgresql" if db else "sqlite", "games": {}}
    pool = PooledRenderer(preload=WORK_MODULES) if channels else None
    try:
        if pool is not None:
            pool.start()
        for slug in slugs:
            out["games"][slug] = bench_game(slug, samples, channels, rounds, ai_games, pool,
                                            db)
            if not as_json:
                _print_game(slug, out["games"][slug], samples)
        if pool is not None and len(slugs) > 1:
            out["mixed_load"] = bench_load(slugs, channels, rounds, pool, db)
            if not as_json:
                _print_load("every game mixed, render pool", out["mixed_load"])
    finally:
        if pool is not None:
            pool.close()
    if first_boards:
        out["first_board"] = bench_first_board(slugs, first_boards)
        if not as_json:
            _print_first_board(out["first_board"])
    if as_json:
        print(json.dumps(out, sort_keys=True))
    elif "chess_ms" not in next(iter(out["games"].values()), {}):
        print("Chess comparison skipped: install the `bench` extra "
              "(pip install '.[bench]': python-chess and cairosvg).")
    return Exit.OK


def _ms(figure: dict[str, float]) -> str:
    return f"median {figure['median']:.1f} ms, p95 {figure['p95']:.1f} ms"


def _print_load(name: str, load: dict[str, Any]) -> None:
    missed = [what for what, met in (
        (f"moves/s under {TARGET_MOVES_PER_S:.0f}", load["moves_per_s"] >= TARGET_MOVES_PER_S),
        (f"p95 over {TARGET_LOAD_P95_MS:.0f} ms", load["latency_ms"]["p95"] < TARGET_LOAD_P95_MS),
        (f"first over {TARGET_FIRST_MS:.0f} ms", load["first_ms"]["p95"] < TARGET_FIRST_MS),
        (f"stall over {TARGET_STALL_MS:.0f} ms", load["stall_ms"]["max"] < TARGET_STALL_MS))
        if not met]
    ok = "targets met" if not missed else "OVER TARGET: " + ", ".join(missed)
    print(f"  load, {name}: {load['moves_per_s']:.0f} moves/s, "
          f"{load['bot_cpu_ms_per_move']:.1f} ms of the bot process's CPU per move; boards "
          f"{_ms(load['latency_ms'])}, each burst's first p95 {load['first_ms']['p95']:.0f} ms; "
          f"acknowledged p95 {load['acknowledged_ms']['p95']:.0f} ms; "
          f"event loop stalls at most {load['stall_ms']['max']:.0f} ms ({ok})")


def _print_first_board(f: dict[str, Any]) -> None:
    ok = "ok" if f["board_ms"]["p95"] < TARGET_FIRST_BOARD_MS else "OVER TARGET"
    print(f"The first board after Start on a freshly started bot, "
          f"{plural(f['samples'], 'bot')}: "
          f"{_ms(f['board_ms'])} (target p95 under {TARGET_FIRST_BOARD_MS:.0f} ms: {ok}); "
          f"the bot ready {f['ready_s']['median']:.1f} s after its process began (median), "
          f"its render workers not yet up at {f['workers_not_up']} of the Starts; by game, "
          "median: " + ", ".join(f"{slug} {ms:.0f} ms" for slug, ms in f["by_game_ms"].items()))


def _print_game(slug: str, f: dict[str, Any], samples: int) -> None:
    print(f"{get_game(slug).title} ({slug}), {f['players']} players ({HUMANS} humans, AI seats "
          f"at {AI_LEVEL}), {samples} samples")
    print(f"  render:        {_ms(f['render_ms'])}, {f['width_px']} x {f['height_px']} px, "
          f"PNG median {f['png_kb']['median']:.0f} KB")
    if "as_run" in f:
        run = f["as_run"]
        print(f"  whole /play, as `candybot run` has it (moves, AI and pictures in the workers): "
              f"board {_ms(run['play_ms'])}; acknowledged {_ms(run['ack_ms'])}"
              + (f"; movement GIF {_ms(run['movement_ms'])}" if "movement_ms" in run else ""))
        if "with_ai" in run:
            print(f"    answered by the AI: {run['with_ai']['plays']} of {samples} /plays, "
                  f"board {_ms(run['with_ai']['play_ms'])}")
    print(f"  whole /play, everything in the bot's process: board {_ms(f['play_ms'])}; "
          f"acknowledged {_ms(f['ack_ms'])}" + (f"; movement GIF {_ms(f['movement_ms'])}"
                                                if "movement_ms" in f else ""))
    print("  CPU per /play:  " + ", ".join(
        f"{stage} {ms:.1f}" for stage, ms in f["play_cpu_ms"].items()) + " ms")
    if "with_ai" in f:
        ai = f["with_ai"]
        print(f"    answered by the AI: {ai['plays']} of {samples} /plays "
              f"({f['ai_moves_per_play']:.2f} AI moves a /play), board {_ms(ai['play_ms'])}; "
              f"the AI's CPU in them {_ms(ai['ai_cpu_ms'])}")
    if "chess_ms" in f:
        ok = "ok" if f["play_vs_chess_p95"] <= TARGET_PLAY_VS_CHESS else "OVER TARGET"
        chess = [f["chess_ms"], *([f["as_run"]["chess_ms"]] if "as_run" in f else [])]
        print(f"  chess board:   {'; '.join(_ms(c) for c in chess)} (python-chess + cairosvg, "
              "same width, after each /play of each run)")
        print(f"  /play p95 is {f['play_vs_chess_p95']:.2f}x the chess p95 "
              f"{'as `candybot run` has it ' if 'as_run' in f else ''}"
              f"(target at most {TARGET_PLAY_VS_CHESS}x: {ok}); everything in the bot's "
              f"process {f['in_process_vs_chess_p95']:.2f}x; render alone "
              f"{f['render_vs_chess_p95']:.2f}x")
    if "load_pooled" in f:
        _print_load("render pool", f["load_pooled"])
    if "ai" in f:
        ai = f["ai"]
        print(f"  AI wins {ai['win_rate']:.0%} of {ai['games']} {ai['players']}-player games "
              "against random players")
