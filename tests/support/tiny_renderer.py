"""Candy Hunch's picture, as small as a renderer can be (test-only, like the game): each
seat's candies, the viewer's own card, the stakes a player may give and the cards last
shown, one line each."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import font

WIDTH = 400
LINE = 30


def _palette() -> None:
    """Nothing to make beforehand: the picture keeps no sprites."""


def render(view: dict[str, Any]) -> bytes:
    """``view`` as a PNG."""
    lines = ["Candy Hunch", *(f"Seat {seat + 1}: {candies} candies"
                              for seat, candies in enumerate(view["candies"]))]
    if view["hand"]:
        lines.append(f"Your card: {view['hand'][1:]}")
    lines.append("Stake 1 or 2")
    if view["shown"]:
        lines.append("Shown: " + ", ".join(str(card) for card in view["shown"]["cards"]))
    image = Image.new("RGB", (WIDTH, LINE * (len(lines) + 1)), "white")
    draw = ImageDraw.Draw(image)
    for n, line in enumerate(lines):
        draw.text((20, LINE // 2 + LINE * n), line, fill="black", font=font(20))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
