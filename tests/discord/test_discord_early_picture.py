"""The board picture of a move is drawn while the move is committed, and shown only for
the move it was drawn for."""

from __future__ import annotations

import asyncio
from pathlib import Path

from discord_harness import Session

from bot.discord.messages import EarlyPicture
from bot.games import GAMES
from bot.games.engine import View
from renderers import render

ALICE, BOB = 300000000000000001, 300000000000000002


async def test_the_board_picture_is_drawn_while_the_move_is_committed(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    begun = asyncio.Event()
    drawn: list[View] = []

    def renderer(view: View) -> bytes:
        if view.get("viewer") is None:
            drawn.append(view)
            loop.call_soon_threadsafe(begun.set)
        return render(view)

    session = await Session.open(tmp_path, GAMES, renderer=renderer)
    try:
        await session.start("sugar-blast", humans=[ALICE, BOB])
        store = session.bot.tables.store
        commit = store.commit_moves
        order: list[str] = []

        async def committing(*args: object, **kwargs: object) -> object:
            try:
                await asyncio.wait_for(begun.wait(), 5)
                order.append("drawing")
            except TimeoutError:
                pass
            order.append("committed")
            return await commit(*args, **kwargs)  # type: ignore[arg-type]

        store.commit_moves = committing  # type: ignore[method-assign]
        offered = {user: await session.suggest(user) for user in (ALICE, BOB)}
        mover = next(user for user, moves in offered.items() if moves)
        move = offered[mover][0]
        begun.clear()
        drawn.clear()
        board = await session.play(mover, move)
        assert order == ["drawing", "committed"]
        assert len(drawn) == 1  # drawn once: the picture begun early is the one posted
        assert [name for name, _png in board.files] == ["board.png"]
    finally:
        await session.close()


async def test_a_picture_begun_for_an_earlier_try_is_dropped() -> None:
    calls: list[str] = []

    def renderer(view: View) -> bytes:
        calls.append(view["name"])
        return view["name"].encode()

    early = EarlyPicture(renderer)
    first: View = {"name": "lost the race"}
    second: View = {"name": "committed"}
    early(first)
    early(second)
    assert early.drawing(first) is None
    assert early.drawing({"name": "committed"}) is None  # an equal view is not the one begun
    drawing = early.drawing(second)
    assert drawing is not None and await drawing == b"committed"
    early.cancel()
    assert early.drawing(second) is None


async def test_without_a_renderer_nothing_is_begun() -> None:
    early = EarlyPicture(None)
    view: View = {"name": "board"}
    early(view)
    assert early.drawing(view) is None
