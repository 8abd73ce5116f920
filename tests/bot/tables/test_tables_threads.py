"""The tables service keeps the event loop free: reading and writing states, applying
moves, views, legal lists and rankings all run in worker threads.

Every heavy call is watched: a wrapper notes whether it ran on a thread with a
running event loop. Fifty channels share one loop, so any of them on it makes
every other channel wait.
"""

from __future__ import annotations

import asyncio
import copy
import functools
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

import bot.tables.core
import bot.tables.lobby
import bot.tables.moves
import bot.tables.queries
import bot.tables.reminders
from bot.games import engine, get_game
from bot.games.engine import Engine, SeatInfo
from bot.refusals import Expired
from bot.store import Store
from bot.tables import Board, MoveRequest, Reminder, Tables
from tests.support.race_game import CandyDuel, CandyRace, CandyStroll

ALICE, BOB = 201, 202
CHANNEL, GUILD = 77, 88

#: Engine services and rules answers that cost real time on a large state.
HEAVY_METHODS = ("new", "apply", "parse", "view", "legal", "legal_actions", "rank_actions",
                 "quick_choices", "multi_select", "to_act", "result", "episode", "zoom_spots",
                 "ai_action", "scores", "summary")
TABLE_MODULES = (engine, bot.tables.core, bot.tables.lobby, bot.tables.moves,
                 bot.tables.queries, bot.tables.reminders)


def _on_loop() -> bool:
    """Whether the calling thread is running an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class LoopWatch:
    """Notes every watched call and whether it ran on the event loop's thread."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, bool]] = []

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def watched(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, _on_loop()))
            return fn(*args, **kwargs)

        return watched

    @property
    def on_loop(self) -> list[str]:
        """The watched names that were called on the loop, each once."""
        return sorted({name for name, loop in self.calls if loop})

    @property
    def seen(self) -> set[str]:
        return {name for name, _loop in self.calls}


def watch_heavy_work(monkeypatch: pytest.MonkeyPatch, games: Iterable[Engine]) -> LoopWatch:
    """Wrap state (de)serialising, deep copies and the heavy methods of ``games``."""
    watch = LoopWatch()
    for module in TABLE_MODULES:
        for name in ("loads", "dumps"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, watch.wrap(name, getattr(module, name)))
    monkeypatch.setattr(copy, "deepcopy", watch.wrap("deepcopy", copy.deepcopy))
    # Patch each method where it is defined, so that nothing is wrapped twice.
    # The engine's services, and the answers the game's rules give (its ``rank_actions``).
    classes = {cls for game in games for cls in (*type(game).__mro__, *type(game.rules).__mro__)
               if cls is not object}
    for cls in classes:
        for name in HEAVY_METHODS:
            if name in cls.__dict__:
                monkeypatch.setattr(cls, name, watch.wrap(name, cls.__dict__[name]))
    return watch


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "threads.db")
    yield opened
    await opened.close()


async def start(tables: Tables, game: str, *, humans: tuple[int, ...] = (), ai: int = 0,
                **kwargs: Any) -> Board:
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game=game,
                                            creator_id=ALICE, creator_name="Alice", **kwargs)
    for user in humans:
        await tables.lobbies.join(lobby.record.id, user, f"P{user}")
    for _ in range(ai):
        await tables.lobbies.add_ai(lobby.record.id, ALICE)
    _lobby, board = await tables.lobbies.start(lobby.record.id, ALICE)
    return board


# --------------------------------------------------------------------------- the watch itself


async def test_the_watch_tells_a_view_built_on_the_loop_from_one_built_in_a_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = Engine(CandyRace())
    watch = watch_heavy_work(monkeypatch, [game])
    state = await asyncio.to_thread(game.new, [SeatInfo("Alice"), SeatInfo("Bob")], 5)
    await asyncio.to_thread(game.view, state, None)
    assert {"new", "view"} <= watch.seen and watch.on_loop == []
    game.view(state, None)
    assert "view" in watch.on_loop


# --------------------------------------------------------------------------- moves


async def test_a_move_and_the_ai_replies_are_computed_off_the_event_loop(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    games = [Engine(CandyRace()), Engine(CandyStroll())]
    watch = watch_heavy_work(monkeypatch, games)
    tables = Tables(store, {g.slug: g for g in games})
    await start(tables, "candy-stroll", ai=2)
    board = await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    assert [s.name for s in board.steps] == ["Alice", "AI 1", "AI 2"]
    assert await tables.queries.suggest(CHANNEL, ALICE, "st") == [("step one space", "step")]
    await tables.moves.undo(CHANNEL, ALICE)
    await tables.queries.board(CHANNEL)
    await tables.queries.hand(CHANNEL, ALICE)
    await tables.queries.status(CHANNEL)
    await tables.leaving.concede(CHANNEL, ALICE)
    assert watch.on_loop == []
    assert {"new", "loads", "dumps", "deepcopy", "apply", "ai_action", "view", "legal_actions",
            "rank_actions", "to_act", "result"} <= watch.seen


async def test_an_expired_button_is_refused_without_computing_on_the_event_loop(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Engine(CandyRace())
    watch = watch_heavy_work(monkeypatch, [game])
    tables = Tables(store, {game.slug: game})
    first = await start(tables, game.slug, humans=(BOB,))
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    await tables.moves.play(channel_id=CHANNEL, user_id=BOB, text="step")
    with pytest.raises(Expired) as expired:
        await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step",
                                game_id=first.record.id, expected=first.token, offered_at=0)
    assert [(m.name, m.shown) for m in expired.value.since] == [("Alice", "step"),
                                                                 ("P202", "step")]
    with pytest.raises(Expired):
        await tables.moves.prepare(MoveRequest(user_id=ALICE, text="step", channel_id=CHANNEL,
                                               game_id=first.record.id, token=first.token,
                                               offered_at=0))
    assert watch.on_loop == []


async def test_secret_bids_menus_episodes_and_zoom_stay_off_the_event_loop(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Engine(CandyDuel())
    watch = watch_heavy_work(monkeypatch, [game])
    tables = Tables(store, {game.slug: game})
    board = await start(tables, game.slug, humans=(BOB,))
    await store.games.set_board_message(board.record.id, 999)
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="bid 3")
    board = await tables.moves.play(channel_id=CHANNEL, user_id=BOB, text="bid 1")
    assert board.edits and board.mentions == (ALICE,)  # the round's message is edited
    await tables.moves.prepare(
        MoveRequest(user_id=ALICE, channel_id=CHANNEL, game_id=board.record.id,
        token=board.token, offered_at=board.move, values=("a",)))
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, game_id=board.record.id,
                            expected=board.token, offered_at=board.move, values=["a", "e"])
    assert await tables.queries.zoom_spots(CHANNEL, "po") == ["pool"]
    assert (await tables.queries.board(CHANNEL, zoom="pool")).view["zoom"] == "pool"
    _game, job = await tables.queries.replay_job(await tables.queries.check_replay(CHANNEL))
    assert job.moves == 3
    assert watch.on_loop == []
    assert {"multi_select", "parse", "episode", "zoom_spots"} <= watch.seen


async def test_reminders_and_the_ai_take_over_stay_off_the_event_loop(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Engine(CandyRace())
    watch = watch_heavy_work(monkeypatch, [game])
    now = [1_700_000_000.0]
    tables = Tables(store, {game.slug: game}, lambda: now[0])
    await start(tables, game.slug, humans=(BOB,), reminder_hours=1, ai_takeover=True)
    sent: list[Reminder | Board] = []
    for _ in range(4):
        now[0] += 3601
        sent += await tables.reminders.due()
    assert [type(item).__name__ for item in sent] == ["Reminder"] * 3 + ["Board"]
    assert watch.on_loop == []


# --------------------------------------------------------------------------- a real game


async def test_sugartopia_moves_boards_hands_and_suggestions_stay_off_the_event_loop(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("sugartopia")
    watch = watch_heavy_work(monkeypatch, [game])
    tables = Tables(store, {game.slug: game})
    board = await start(tables, game.slug, humans=(BOB,))
    for _ in range(3):
        user = ALICE if board.to_act == (0,) else BOB
        (_label, move), *_rest = await tables.queries.suggest(CHANNEL, user, "")
        board = await tables.moves.play(channel_id=CHANNEL, user_id=user, text=move)
        await tables.queries.board(CHANNEL)
        await tables.queries.hand(CHANNEL, user)
    assert board.move == 3
    assert watch.on_loop == []
    assert {"loads", "dumps", "apply", "view", "legal_actions", "rank_actions"} <= watch.seen
