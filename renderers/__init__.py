"""Renderers: pure functions from a game's view to PNG bytes.

A game's renderer is the module ``renderers/<package>.py`` named after its
rules package (see :mod:`bot.games`), with a ``render(view) -> bytes`` and,
when the latest move is worth watching, an ``animate(view) -> bytes | None``
(a GIF of it, or ``None`` when nothing moved).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

Renderer = Callable[[dict[str, Any]], bytes]


@cache
def renderer_for(slug: str) -> Renderer:
    """The ``render`` function of the game ``slug``; ``ValueError`` if it has none."""
    from bot.games import package_of

    try:
        module = importlib.import_module(f"renderers.{package_of(slug)}")
    except ModuleNotFoundError:
        raise ValueError(f"No renderer for game {slug!r}.") from None
    render: Renderer = module.render
    return render


def render(view: dict[str, Any]) -> bytes:
    """Draw ``view`` with its game's renderer."""
    return renderer_for(str(view.get("game")))(view)


def animator_for(slug: str) -> Callable[[dict[str, Any]], bytes | None] | None:
    """The ``animate`` function of the game ``slug``, or ``None`` if its moves are not
    animated."""
    from bot.games import package_of

    try:
        module = importlib.import_module(f"renderers.{package_of(slug)}")
    except (ModuleNotFoundError, ValueError):
        return None
    maker = getattr(module, "animate", None)
    return maker if callable(maker) else None


def animate(view: dict[str, Any]) -> bytes | None:
    """The GIF of the latest move of ``view``, if its game animates moves and one moved."""
    maker = animator_for(str(view.get("game")))
    return maker(view) if maker is not None else None
