"""A seat has one colour and one shape, in message text and in every game's pictures."""

from __future__ import annotations

import importlib
import io
from typing import Any

import pytest
from PIL import Image

import bot.games
import renderers.common
from bot.discord import messages
from bot.games.colours import PAINTS, SHAPES, STANDARD_SEATS
from tests.support.picture_games import StripTops, views

SQUARES = {paint.square: paint.rgb for paint in PAINTS.values()}
GLYPHS = {glyph: shape for shape, glyph in SHAPES}


def _text_colour_and_shape(game: Any, seat: int) -> tuple[tuple[int, int, int], str]:
    """What a message shows for ``seat``: the colour of its square and the shape after it."""
    mark = messages.seat_mark(game, seat)
    return SQUARES[mark[0]], GLYPHS[mark[1:]]


def test_every_seat_colour_has_its_own_square_in_text():
    assert len(SQUARES) == len(PAINTS)
    assert len(set(SQUARES.values())) == len(PAINTS)


def test_sugartopia_seats_are_its_bear_colours_in_text_and_pictures():
    game = bot.games.GAMES["sugartopia"]
    assert game.seat_colours == ("red", "blue", "yellow", "purple")
    assert messages.seat_mark(game, 0) == "🟥●"
    sugartopia = importlib.import_module("renderers.sugartopia")
    for name in game.seat_colours:
        assert sugartopia._colour(name) == PAINTS[name].rgb


def test_games_without_colours_of_their_own_use_the_standard_seats():
    game = bot.games.GAMES["sugar-blast"]
    assert game.seat_colours == STANDARD_SEATS
    assert [messages.seat_mark(game, s) for s in range(6)] == \
        ["🟦●", "🟧■", "🟩▲", "🟪◆", "🟨★", "⬛⬢"]


@pytest.mark.parametrize("slug", sorted(bot.games.GAMES))
def test_every_seat_is_drawn_in_the_colour_and_shape_of_its_text_mark(slug, monkeypatch):
    """Each seat mark a picture draws is found by its centre pixel in the finished PNG."""
    game = bot.games.GAMES[slug]
    module = importlib.import_module(bot.games.CATALOGUE[slug].renderer_module)
    drawn: list[tuple[int, float, float, str]] = []
    real_mark, real_shape = renderers.common.seat_mark, renderers.common.shape_mark

    def spy(draw, seat, cx, cy, r, colours=STANDARD_SEATS):
        shapes: list[str] = []
        monkeypatch.setattr(renderers.common, "shape_mark",
                            lambda d, shape, *a, **k: (shapes.append(shape), real_shape(d, shape,
                                                                                       *a, **k)))
        real_mark(draw, seat, cx, cy, r, colours)
        monkeypatch.setattr(renderers.common, "shape_mark", real_shape)
        drawn.append((seat, cx, cy + strips.top, shapes[0]))

    cases = views(slug)
    module.render(cases[0][1])  # the palette, drawn from made-up tables, is made once first
    strips = StripTops(monkeypatch, module)
    monkeypatch.setattr(module, "seat_mark", spy, raising=False)
    monkeypatch.setattr(renderers.common, "seat_mark", spy)  # badges draw their mark with it
    for label, view, players in cases:
        drawn.clear()
        picture = Image.open(io.BytesIO(module.render(view))).convert("RGB")
        seats = {seat for seat, *_ in drawn}
        assert seats == set(range(players)), f"{label}: marks for {seats}"
        for seat, cx, cy, shape in drawn:
            colour, text_shape = _text_colour_and_shape(game, seat)
            assert picture.getpixel((round(cx), round(cy))) == colour, f"{label} seat {seat}"
            assert shape == text_shape, f"{label} seat {seat}"
