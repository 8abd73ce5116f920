"""Pictures made of strips: a strip is drawn from its arguments alone and kept by them, so a
picture is the same whether its strips were drawn now or copied from an earlier picture."""

from __future__ import annotations

import importlib
import io
import math
from typing import Any

import pytest
from PIL import Image, ImageDraw

import bot.games
import renderers.common
from bot.games.engine import SeatInfo, playing
from renderers.common import (
    BACKGROUND,
    INK,
    SEAT_COLOURS,
    Key,
    Strip,
    forget_strips,
    legend,
    make_palette,
    mapped_sprite,
    new_canvas,
    placed,
    stacked,
    stamp_text,
    strips_png,
    to_png,
)

WIDTH = 240
PAINTED: list[tuple[str, Any]] = []


def _label(image: Image.Image, draw: ImageDraw.ImageDraw, text: str) -> None:
    PAINTED.append(("label", text))
    stamp_text(image, (10, 8), text, 20, INK, True)


def _discs(image: Image.Image, draw: ImageDraw.ImageDraw, seats: list[int]) -> None:
    PAINTED.append(("discs", tuple(seats)))
    for i, seat in enumerate(seats):
        draw.ellipse((10 + 40 * i, 5, 40 + 40 * i, 35), fill=SEAT_COLOURS[seat], outline=INK)


def _palette() -> Image.Image:
    sample = stacked(WIDTH, [Strip(40, _label, ("Sugar Blast",)),
                             Strip(40, _discs, ([0, 1, 2, 3],))])
    return make_palette(sample)


def _decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.fixture
def palette() -> Image.Image:
    """The palette, made before anything the test paints is counted."""
    made = _palette()
    PAINTED.clear()
    return made


def test_a_picture_of_strips_has_the_rows_of_the_whole_picture_on_the_palette(palette):
    strips = [Strip(40, _label, ("Ana to play",)), Strip(40, _discs, ([2, 0],)),
              Strip(12, renderers.common.blank)]
    png = strips_png(WIDTH, strips, palette)
    assert png == to_png(stacked(WIDTH, strips), palette)
    assert _decoded(png).size == (WIDTH, 92) and _decoded(png).mode == "P"


def test_a_strip_is_drawn_once_and_copied_while_its_arguments_stay_the_same(palette):
    first = strips_png(WIDTH, [Strip(40, _label, ("move 1",)), Strip(40, _discs, ([0, 1],))],
                       palette)
    second = strips_png(WIDTH, [Strip(40, _label, ("move 2",)), Strip(40, _discs, ([0, 1],))],
                        palette)
    assert PAINTED == [("label", "move 1"), ("discs", (0, 1)), ("label", "move 2")]
    assert _decoded(first).tobytes()[WIDTH * 40:] == _decoded(second).tobytes()[WIDTH * 40:]
    forget_strips()
    assert strips_png(WIDTH, [Strip(40, _label, ("move 2",)), Strip(40, _discs, ([0, 1],))],
                      palette) == second
    assert PAINTED[-2:] == [("label", "move 2"), ("discs", (0, 1))]


def test_a_strip_not_kept_is_drawn_every_time(palette):
    for _ in range(3):
        strips_png(WIDTH, [Strip(40, _label, ("the map",), kept=False)], palette)
    assert PAINTED == [("label", "the map")] * 3


def test_a_strip_kept_for_one_palette_is_drawn_again_for_another(palette):
    strips = [Strip(40, _discs, ([3, 1],))]
    one = strips_png(WIDTH, strips, palette)
    other = make_palette(Image.new("RGB", (8, 8), (10, 200, 30)))
    two = strips_png(WIDTH, strips, other)
    assert PAINTED == [("discs", (3, 1))] * 2
    assert _decoded(two).getpalette() == other.getpalette() != _decoded(one).getpalette()


def test_the_same_painter_at_another_size_is_drawn_again(palette):
    strips_png(WIDTH, [Strip(40, _label, ("Cy",))], palette)
    strips_png(WIDTH, [Strip(44, _label, ("Cy",))], palette)
    strips_png(WIDTH + 20, [Strip(40, _label, ("Cy",))], palette)
    assert PAINTED == [("label", "Cy")] * 3


def _disc(seat: int) -> Image.Image:
    """An opaque disc on a transparent square: a sprite an indexed strip can paste."""
    sprite = Image.new("RGBA", (30, 30), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).ellipse((0, 0, 29, 29), fill=SEAT_COLOURS[seat], outline=INK)
    return sprite


def _tiles(image: Image.Image, draw: ImageDraw.ImageDraw, seats: list[int]) -> None:
    PAINTED.append(("tiles", image.mode))
    for i, seat in enumerate(seats):
        if image.mode == "P":  # on the palette: the sprite as mapped onto it
            indices, mask = mapped_sprite(_disc(seat), image)
            image.paste(indices, (10 + 20 * i, 5), mask)
        else:
            image.paste(_disc(seat), (10 + 20 * i, 5), _disc(seat))


def test_an_indexed_strip_is_drawn_on_the_palette_as_its_full_colour_drawing_maps(palette):
    """Pasting sprites already mapped onto the palette gives the same rows as drawing them
    in full colour and mapping the strip, without mapping the strip."""
    strips = [Strip(40, _label, ("Ana to play",)), Strip(40, _tiles, ([0, 1, 2, 3],),
                                                         indexed=True)]
    png = strips_png(WIDTH, strips, palette)
    assert PAINTED == [("label", "Ana to play"), ("tiles", "P")]
    assert png == to_png(stacked(WIDTH, strips), palette)
    assert PAINTED[-1] == ("tiles", "RGB")


def _key_disc(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float,
              seat: int) -> None:
    """A legend icon that says when it is drawn: a seat's disc, its edge on a half pixel."""
    PAINTED.append(("key", seat))
    draw.ellipse((cx - 12.5, cy - 12.5, cx + 12.5, cy + 12.5), fill=SEAT_COLOURS[seat],
                 outline=INK)


def test_a_legend_maps_only_the_keys_it_did_not_have_before(palette):
    """A legend is pieced together from its keys, each mapped onto the palette once: a
    legend whose last key says another move draws that key alone, and is still the rows
    its full-colour drawing maps to."""
    width = 800
    first = legend([Key("blue", _key_disc, (0,)), Key("orange", _key_disc, (1,)),
                    Key("last move: Ana swapped c3 d3", _key_disc, (2,))], width)
    strips_png(width, [first], palette)
    assert sorted(PAINTED) == [("key", 0), ("key", 1), ("key", 2)]
    PAINTED.clear()
    then = legend([Key("blue", _key_disc, (0,)), Key("orange", _key_disc, (1,)),
                   Key("last move: Bo swapped e5 e6", _key_disc, (2,))], width)
    png = strips_png(width, [then], palette)
    assert PAINTED == [("key", 2)]
    assert png == to_png(stacked(width, [then]), palette)


def _star(image: Image.Image, draw: ImageDraw.ImageDraw, cx: int, cy: int, reach: int) -> None:
    """A star whose corners are computed in floats, reaching ``reach`` from its centre."""
    points = [(cx + (reach if i % 2 else reach * 0.45) * math.cos(math.pi * i / 8),
               cy + (reach if i % 2 else reach * 0.45) * math.sin(math.pi * i / 8))
              for i in range(16)]
    draw.polygon(points, fill=SEAT_COLOURS[1], outline=INK)


def test_a_placed_piece_is_what_its_painter_draws_in_its_place():
    for cx in range(30, 700, 37):
        whole, draw = new_canvas(760, 80)
        _star(whole, draw, cx, 40, 20)
        box = (cx - 24, 14, cx + 25, 67)
        piece = placed(_star, box, BACKGROUND, cx, 40, 20)
        assert piece is not None and piece.tobytes() == whole.crop(box).tobytes()
    assert placed(_star, box, BACKGROUND, cx, 40, 20) is piece  # kept


def test_a_piece_that_draws_past_its_box_is_drawn_in_place_instead():
    assert placed(_star, (100, 10, 140, 70), BACKGROUND, 120, 40, 28) is None  # 8 px past


@pytest.mark.parametrize("slug", sorted(bot.games.GAMES))
def test_pictures_are_the_same_with_their_pieces_placed_or_drawn_in_place(slug, monkeypatch):
    """Every picture of a game is the same file whether the parts it places (a legend's keys,
    Sugar Heist's rooms) are pasted as kept pieces or drawn where they stand."""
    module = importlib.import_module(bot.games.CATALOGUE[slug].renderer_module)
    views = _ai_views(slug, seed=5, every=2)
    placed_then = [module.render(view) for view in views]
    forget_strips()
    in_place = lambda paint, box, ground, *args: None  # noqa: E731
    monkeypatch.setattr(renderers.common, "placed", in_place)
    if hasattr(module, "placed"):
        monkeypatch.setattr(module, "placed", in_place)
    assert [module.render(view) for view in views] == placed_then


def test_true_and_one_are_different_arguments():
    assert Strip(40, _label, (True,)).key(WIDTH) != Strip(40, _label, (1,)).key(WIDTH)
    assert Strip(40, _label, ("1",)).key(WIDTH) != Strip(40, _label, (1,)).key(WIDTH)


def test_a_painter_that_could_read_what_its_key_does_not_hold_is_refused():
    hidden = ["a hand"]

    def closure(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        stamp_text(image, (0, 0), hidden[0], 20)

    with pytest.raises(ValueError, match="module's function"):
        Strip(40, closure)
    with pytest.raises(ValueError, match="module's function"):
        Strip(40, lambda image, draw: None)
    with pytest.raises(ValueError, match="module's function"):
        Strip(40, Image.new("RGB", (1, 1)).paste)
    with pytest.raises(TypeError):
        Strip(40, _label, (object(),)).key(WIDTH)


def test_kept_strips_stay_within_their_budget_the_oldest_dropped_first():
    kept = renderers.common._Kept(100)
    bands = {n: bytes([n]) * 40 for n in range(4)}
    for n, band in bands.items():
        kept.put((n,), band)
        assert kept.used <= 100
    assert list(kept.bands) == [(2,), (3,)]
    assert kept.get((2,)) == bands[2]  # used lately: kept over 3
    kept.put((4,), bands[0])
    assert list(kept.bands) == [(2,), (4,)] and kept.used == 80


def _ai_views(slug: str, seed: int, every: int, moves: int = 90) -> list[dict[str, Any]]:
    """Public views and a seat's own view every ``every`` moves of an AI game (to its end
    or ``moves`` moves)."""
    game = bot.games.GAMES[slug]
    players = max(game.min_seats, min(game.max_seats, 3))
    state = game.new([SeatInfo(f"Seat {i + 1}", ai=True) for i in range(players)], seed)
    views = []
    for n, (_, outcome) in enumerate(playing(game, state)):
        if n == moves:
            break
        if n % every == 0:
            views.append(game.view(outcome.state, None))
            views.append(game.view(outcome.state, n % players))
    return views


@pytest.mark.parametrize("slug", sorted(bot.games.GAMES))
def test_a_picture_is_the_same_whatever_was_drawn_before_it(slug):
    """Every picture of a game, drawn after the pictures before it (its strips copied where
    they can be) and drawn alone from nothing, is the same PNG, public or private."""
    module = importlib.import_module(bot.games.CATALOGUE[slug].renderer_module)
    views = _ai_views(slug, seed=11, every=3)
    in_turn = [module.render(view) for view in views]
    for view, png in zip(views, in_turn, strict=True):
        forget_strips()
        assert module.render(view) == png
        assert to_png(module._draw(view), module._palette()) == png


def test_the_same_dict_in_another_order_is_another_key():
    """A painter may draw a dict's entries in their order, so the order is part of the key."""
    assert Strip(40, _label, ({"a": 1, "b": 2},)).key(WIDTH) != \
        Strip(40, _label, ({"b": 2, "a": 1},)).key(WIDTH)
