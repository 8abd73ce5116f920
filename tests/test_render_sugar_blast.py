"""The Sugar Blast picture: a valid, small PNG that shows what the view says."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image

from bot.games import get_game
from bot.games.engine import SeatInfo
from renderers import render
from renderers.gif import animate
from renderers.sugar_blast import CELL, cell_box

GAME = get_game("sugar-blast")


def view(players: int = 3, seed: int = 2) -> dict:
    state = GAME.new([SeatInfo(f"P{i}") for i in range(players)], seed)
    return GAME.view(state, None)


def image(v: dict) -> Image.Image:
    return Image.open(io.BytesIO(render(v))).convert("RGB")


def cell_pixels(img: Image.Image, col: int, row: int) -> bytes:
    x0, y0, x1, y1 = cell_box(col, row)
    return img.crop((x0 + 6, y0 + 6, x1 - 6, y1 - 6)).tobytes()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_picture_is_a_phone_sized_png_under_300_kb(players):
    data = render(view(players))
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and 1000 <= img.width <= 1400
    assert len(data) < 300 * 1024


def test_each_candy_kind_looks_different():
    v = view()
    v["board"] = [[v["types"][c] for c in range(6)] for _ in range(6)]
    img = image(v)
    cells = {cell_pixels(img, col, 2) for col in range(6)}
    assert len(cells) == 6


def test_the_last_swap_and_blast_are_highlighted():
    v = view()
    plain = image(v)
    marked = copy.deepcopy(v)
    marked["last"] = {"seat": 0, "swap": [[2, 2], [3, 2]], "replaced": None,
                      "blasted": [[0, 0]]}
    img = image(marked)
    for cell in ((2, 2), (3, 2), (0, 0)):
        x0, y0, _, _ = cell_box(*cell)
        region = (x0, y0, x0 + CELL, y0 + CELL)
        assert plain.crop(region).tobytes() != img.crop(region).tobytes(), cell
    untouched = cell_box(5, 5)
    assert plain.crop(untouched).tobytes() == img.crop(untouched).tobytes()


def test_the_side_of_the_player_to_act_is_marked():
    v = view(players=2)
    south = image(v)
    v["turn"], v["to_act"] = 1, [1]
    north = image(v)
    band_south = (100, 120 + 6 * CELL + 40, 600, 120 + 6 * CELL + 70)
    assert south.crop(band_south).tobytes() != north.crop(band_south).tobytes()


def test_a_finished_game_renders_its_result():
    v = view()
    v["phase"], v["to_act"] = "over", []
    v["result"] = {"ranking": [[1], [0, 2]], "scores": {"0": 1, "1": 4, "2": 1},
                   "summary": "P1 completed the card."}
    assert Image.open(io.BytesIO(render(v))).format == "PNG"


def test_the_gif_has_one_frame_per_picture():
    frames = [render(view(seed=s)) for s in range(3)]
    gif = Image.open(io.BytesIO(animate(frames)))
    assert gif.format == "GIF" and gif.n_frames == 3 and gif.width <= 640


def test_an_unknown_game_has_no_renderer():
    with pytest.raises(ValueError, match="No renderer"):
        render({"game": "chess"})
