"""With the render pool, the board picture of a move is drawn while the move is
committed, and shown only for the move it was drawn for."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.discord.messages import EarlyPicture
from bot.games import GAMES
from bot.games.engine import View
from renderers import render
from tests.support.discord_harness import Session

ALICE, BOB = 300000000000000001, 300000000000000002


class Pool:
    """Draws as the render pool does, awaited on the event loop (here in a thread)."""

    def __init__(self) -> None:
        self.begun = asyncio.Event()
        self.drawn: list[View] = []

    def __call__(self, view: View) -> bytes:
        return render(view)

    async def render_async(self, view: View, key: int | None = None) -> bytes:
        if view.get("viewer") is None:
            self.drawn.append(view)
            self.begun.set()
        return await asyncio.to_thread(render, view)


async def test_the_board_picture_is_drawn_while_the_move_is_committed(tmp_path: Path) -> None:
    pool = Pool()
    begun, drawn = pool.begun, pool.drawn
    session = await Session.open(tmp_path, GAMES, renderer=pool)
    try:
        await session.start("sugar-blast", humans=[ALICE, BOB])
        store = session.bot.tables.store
        commit = store.moves.commit_moves
        order: list[str] = []

        async def committing(*args: object, **kwargs: object) -> object:
            try:
                await asyncio.wait_for(begun.wait(), 5)
                order.append("drawing")
            except TimeoutError:
                pass
            order.append("committed")
            return await commit(*args, **kwargs)  # type: ignore[arg-type]

        store.moves.commit_moves = committing  # type: ignore[method-assign]
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


class Named:
    """A pool whose picture of a view is the view's name."""

    def __call__(self, view: View) -> bytes:
        return str(view["name"]).encode()

    async def render_async(self, view: View, key: int | None = None) -> bytes:
        return self(view)


async def test_a_picture_begun_for_an_earlier_try_is_dropped() -> None:
    early = EarlyPicture(Named())
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


async def test_a_picture_drawn_in_this_process_is_not_begun_early() -> None:
    # Its thread would hold the interpreter lock the commit needs: no sooner, only slower.
    view: View = {"name": "board"}
    for renderer in (None, Named().__call__):
        early = EarlyPicture(renderer)
        early(view)
        assert early.drawing(view) is None
