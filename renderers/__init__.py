"""Renderers: pure functions from a game's view to PNG bytes.

A game's renderer is the module ``renderers/<package>.py`` named after its
rules package (see :mod:`bot.games`), with a ``render(view) -> bytes``.
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
    return module.render


def render(view: dict[str, Any]) -> bytes:
    """Draw ``view`` with its game's renderer."""
    return renderer_for(str(view.get("game")))(view)
