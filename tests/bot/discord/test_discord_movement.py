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

from bot.discord import publish


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


def board(move: int, version: int = 3) -> Any:
    return SimpleNamespace(game=SimpleNamespace(slug="slow-movie", title="Slow Movie"),
                           view={"game": "slow-movie", "move": move}, steps=(),
                           record=SimpleNamespace(id=1, channel_id=7, guild_id=None,
                                                  version=version))


class Stored:
    """The games' places as another process left them: the game at ``version``, shown in
    ``message``."""

    def __init__(self, version: int, message: int) -> None:
        self.version, self.message = version, message

    async def game(self, game_id: int) -> Any:
        return SimpleNamespace(version=self.version, board_message_id=self.message)


def host(channel: Messages, stored: Stored) -> Any:
    return SimpleNamespace(renderer=lambda view: b"png", tables=SimpleNamespace(places=stored),
                           get_partial_messageable=lambda *a, **k: channel)


async def test_a_gif_for_a_board_an_edit_replaced_is_dropped_and_the_newer_one_lands(
        slow_movie: threading.Event) -> None:
    channel = Messages()
    bot = host(channel, Stored(3, 55))
    publish._show_movement(bot, board(1), 55, [])  # type: ignore[arg-type]
    publish._show_movement(bot, board(2), 55, [])  # type: ignore[arg-type]
    assert channel.edits == [], "nothing waits for the GIF"
    slow_movie.set()
    await asyncio.gather(*publish._drawing)
    ((message_id, kwargs),) = channel.edits
    (movement,) = kwargs["attachments"]
    assert message_id == 55 and movement.fp.read() == b"GIF89a\x02"
    assert publish._showing == {}, "nothing is kept once the GIF is placed"


async def test_a_game_without_animation_draws_no_gif(slow_movie: threading.Event) -> None:
    channel = Messages()
    bot = host(channel, Stored(3, 56))
    still = board(1)
    still.game.slug = "sugar-blast"
    publish._show_movement(bot, still, 56, [])  # type: ignore[arg-type]
    assert not publish._drawing and channel.edits == []


async def test_a_gif_is_dropped_when_another_process_moved_the_game_on_meanwhile(
        slow_movie: threading.Event) -> None:
    channel = Messages()
    slow_movie.set()
    publish._show_movement(host(channel, Stored(4, 57)), board(1, version=3), 57, [])  # type: ignore[arg-type]
    publish._show_movement(host(channel, Stored(3, 99)), board(1, version=3), 58, [])  # type: ignore[arg-type]
    await asyncio.gather(*publish._drawing)
    assert channel.edits == [], "a newer version, or another board on show: no GIF"
