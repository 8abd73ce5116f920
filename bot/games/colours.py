"""Seat colours and marks: the one table that message text and pictures both use.

A seat is shown by a coloured square and a shape, in text (``🟦●``) and in
pictures (a blue circle) alike. Most games give seats the colours of
:data:`STANDARD_SEATS` in seat order; a game whose own pieces are coloured by
player (Sugartopia's red, blue, yellow and purple bears) names its seat colours
in :attr:`bot.games.engine.BaseRules.seat_colours`, and both sides follow it.

Plain data only: the Discord layer reads the squares, the renderers the RGB.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Paint:
    """A colour a seat can have: its name, how a picture draws it, its square in text."""

    name: str
    rgb: RGB
    square: str


#: Every seat colour by name. The first six are the Okabe-Ito colours, told apart with
#: every common colour-vision type; each is drawn as the emoji square closest to it.
PAINTS: dict[str, Paint] = {p.name: p for p in (
    Paint("blue", (0, 114, 178), "🟦"),
    Paint("orange", (213, 94, 0), "🟧"),
    Paint("green", (0, 158, 115), "🟩"),
    Paint("purple", (204, 121, 167), "🟪"),
    Paint("yellow", (240, 228, 66), "🟨"),
    Paint("black", (0, 0, 0), "⬛"),
    Paint("red", (222, 45, 45), "🟥"),
)}

#: Seat colours in seat order for games whose pieces have no player colours of their own.
STANDARD_SEATS: tuple[str, ...] = ("blue", "orange", "green", "purple", "yellow", "black")

#: One shape per seat (its name for pictures, its glyph for text), so that a seat is
#: known by its mark even without colour.
SHAPES: tuple[tuple[str, str], ...] = (
    ("circle", "●"), ("square", "■"), ("triangle", "▲"), ("diamond", "◆"), ("star", "★"),
    ("hexagon", "⬢"),
)


def seat_paint(seat: int, colours: Sequence[str] = STANDARD_SEATS) -> Paint:
    """The paint of ``seat`` when seats have ``colours`` (they repeat past the last)."""
    return PAINTS[colours[seat % len(colours)]]


def seat_shape(seat: int) -> str:
    """The name of ``seat``'s shape (shapes repeat after the sixth seat)."""
    return SHAPES[seat % len(SHAPES)][0]


def text_mark(seat: int, colours: Sequence[str] = STANDARD_SEATS) -> str:
    """``seat``'s mark in message text: its coloured square and its shape, e.g. ``🟦●``."""
    return seat_paint(seat, colours).square + SHAPES[seat % len(SHAPES)][1]
