"""Animated GIFs draw every seat's mark in the seat's own colour, as the PNGs do."""

from __future__ import annotations

import importlib
import io
from pathlib import Path

import pytest
from PIL import Image

import bot.games
import renderers.common
import renderers.sugar_blast
from bot.demo import run_demo
from renderers import render
from renderers.common import seat_colour
from renderers.gif import animate
from tests.support.picture_games import StripTops, states
from tests.support.playthrough import play

SEAT_MARK = tuple[int, float, float, tuple[int, int, int]]


def _spy_marks(monkeypatch: pytest.MonkeyPatch, slug: str) -> list[SEAT_MARK]:
    """Where the renderer of ``slug`` draws seat marks in its latest picture, and their colour."""
    module = importlib.import_module(bot.games.CATALOGUE[slug].renderer_module)
    real = renderers.common.seat_mark
    drawn: list[SEAT_MARK] = []
    strips = StripTops(monkeypatch, module, on_picture=drawn.clear)

    def spy(draw, seat, cx, cy, r, colours=None):
        args = (colours,) if colours is not None else ()
        drawn.append((seat, cx, cy + strips.top, seat_colour(seat, *args)))
        real(draw, seat, cx, cy, r, *args)

    monkeypatch.setattr(module, "seat_mark", spy, raising=False)
    monkeypatch.setattr(renderers.common, "seat_mark", spy)  # badges draw their mark with it
    return drawn


def _last_frame(gif: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(gif))
    image.seek(image.n_frames - 1)
    return image.convert("RGB")


def _assert_marks_true(frame: Image.Image, marks: list[SEAT_MARK], width: int) -> None:
    scale = frame.width / width
    assert marks
    for seat, cx, cy, colour in marks:
        got = frame.getpixel((int(cx * scale), int(cy * scale)))
        assert got == colour, f"seat {seat} at {cx},{cy}: {got} instead of {colour}"


@pytest.mark.parametrize("slug", sorted(bot.games.GAMES))
def test_a_replay_gif_draws_each_seat_mark_in_its_colour(slug, monkeypatch):
    game = bot.games.GAMES[slug]
    module = importlib.import_module(bot.games.CATALOGUE[slug].renderer_module)
    pngs = [module.render(game.view(state, None)) for state in states(slug)]
    marks = _spy_marks(monkeypatch, slug)
    pngs[-1] = module.render(game.view(states(slug)[-1], None))
    frame = _last_frame(animate(pngs))
    _assert_marks_true(frame, marks, Image.open(io.BytesIO(pngs[-1])).width)


async def test_the_demo_gif_draws_the_second_seat_orange(tmp_path: Path, monkeypatch):
    marks = _spy_marks(monkeypatch, "sugar-blast")
    await run_demo("sugar-blast", 3, 7, tmp_path, say=lambda _: None)
    second = [m for m in marks if m[0] == 1]
    assert second and all(m[3] == (213, 94, 0) for m in second)
    last_png = sorted((tmp_path / "moves").glob("*.png"))[-1]
    frame = _last_frame((tmp_path / "game.gif").read_bytes())
    _assert_marks_true(frame, second, Image.open(last_png).width)


def test_on_the_second_seats_turn_its_square_is_orange_everywhere_in_the_gif(monkeypatch):
    game = bot.games.GAMES["sugar-blast"]
    seen: list[dict] = []
    play(game, 4, 3, on_step=lambda step: seen.append(step.outcome.state))
    state = next(s for s in seen if game.to_act(s) == {1})
    first = render(game.view(states("sugar-blast")[0], None))
    shapes: list[tuple[str, tuple[int, int, int]]] = []
    real_shape = renderers.common.shape_mark

    def shape_spy(draw, shape, cx, cy, r, fill, *args, **kwargs):
        shapes.append((shape, fill))
        real_shape(draw, shape, cx, cy, r, fill, *args, **kwargs)

    for module in (renderers.common, renderers.sugar_blast):
        monkeypatch.setattr(module, "shape_mark", shape_spy, raising=False)
    marks = _spy_marks(monkeypatch, "sugar-blast")
    png = render(game.view(state, None))
    squares = [fill for shape, fill in shapes if shape == "square"]
    assert len(squares) >= 2 and set(squares) == {(213, 94, 0)}  # the banner, the edge, the row
    _assert_marks_true(_last_frame(animate([first, png])), marks,
                       Image.open(io.BytesIO(png)).width)
