"""A move's GIF never delays its board: it is added to the board message afterwards, and
only while that message still shows the board the GIF was drawn for."""

from __future__ import annotations

import asyncio
import sys
import threading
import types
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord import flows


class Messages:
    """A channel whose message edits are recorded."""

    def __init__(self) -> None:
        self.edits: list[tuple[int, dict[str, Any]]] = []

    def get_partial_message(self, message_id: int) -> Any:
        edits = self.edits

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                edits.append((message_id, kwargs))

        return Partial()


@pytest.fixture
def slow_movie(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """A game whose GIFs are drawn only once the returned event is set."""
    go = threading.Event()
    module = types.ModuleType("renderers.slow_movie")

    def animate(view: dict[str, Any]) -> bytes:
        assert go.wait(10)
        return b"GIF89a" + bytes([view["move"]])

    module.animate = animate  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "renderers.slow_movie", module)
    return go


def board(move: int) -> Any:
    return SimpleNamespace(game=SimpleNamespace(slug="slow-movie"),
                           view={"game": "slow-movie", "move": move},
                           record=SimpleNamespace(id=1, channel_id=7, guild_id=None))


async def test_a_gif_for_a_board_an_edit_replaced_is_dropped_and_the_newer_one_lands(
        slow_movie: threading.Event) -> None:
    channel = Messages()
    bot = SimpleNamespace(renderer=lambda view: b"png",
                          get_partial_messageable=lambda *a, **k: channel)
    flows._show_movement(bot, board(1), 55, [])  # type: ignore[arg-type]
    flows._show_movement(bot, board(2), 55, [])  # type: ignore[arg-type]
    assert channel.edits == [], "nothing waits for the GIF"
    slow_movie.set()
    await asyncio.gather(*flows._drawing)
    ((message_id, kwargs),) = channel.edits
    (movement,) = kwargs["attachments"]
    assert message_id == 55 and movement.fp.read() == b"GIF89a\x02"
    assert flows._showing == {}, "nothing is kept once the GIF is placed"


async def test_a_game_without_animation_draws_no_gif(slow_movie: threading.Event) -> None:
    channel = Messages()
    bot = SimpleNamespace(renderer=lambda view: b"png",
                          get_partial_messageable=lambda *a, **k: channel)
    still = board(1)
    still.game.slug = "sugar-blast"
    flows._show_movement(bot, still, 56, [])  # type: ignore[arg-type]
    assert not flows._drawing and channel.edits == []
