"""Renderers: pure functions from a game's view to PNG bytes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from renderers import sugar_blast, sugartopia

Renderer = Callable[[dict[str, Any]], bytes]

RENDERERS: dict[str, Renderer] = {
    "sugar-blast": sugar_blast.render,
    "sugartopia": sugartopia.render,
}


def render(view: dict[str, Any]) -> bytes:
    """Draw ``view`` with its game's renderer."""
    game = view.get("game")
    try:
        renderer = RENDERERS[str(game)]
    except KeyError:
        raise ValueError(f"No renderer for game {game!r}.") from None
    return renderer(view)
