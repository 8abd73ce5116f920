"""The Sugartopia picture: phone-sized, cropped to the table, meadows marked, zoom, hand."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.games import get_game
from bot.games.engine import SeatInfo
from bot.games.sugartopia import tiles
from bot.games.sugartopia.board import new_entry
from renderers import render
from renderers.sugartopia import (
    GRASS,
    HAND_H,
    LAST,
    SQRT3,
    WIDTH,
    Geometry,
    Map,
    _meadow_rows,
)

GAME = get_game("sugartopia")


def played(moves: int, players: int = 3, seed: int = 4) -> dict:
    state = GAME.new([SeatInfo(f"P{i}", ai=True) for i in range(players)], seed)
    for _ in range(moves):
        if not GAME.to_act(state):
            break
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
    return state


def picture(view: dict) -> Image.Image:
    data = render(view)
    assert len(data) < 400 * 1024
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 40) -> int:
    """How many pixels are close to ``colour``."""
    return sum(n for n, c in image.getcolors(1 << 20)
               if sum(abs(a - b) for a, b in zip(c, colour, strict=True)) <= tolerance)


def test_the_picture_is_1000_px_wide_and_not_much_taller_at_any_point_of_a_game():
    for moves in (0, 10, 200):
        img = picture(GAME.view(played(moves), None))
        assert img.width == WIDTH and img.height <= 1.9 * WIDTH


def test_an_early_table_is_drawn_larger_than_a_grown_one():
    def hex_size(state: dict) -> float:
        view = GAME.view(state, None)
        geo, _ = Geometry.fitted([(c["q"], c["r"]) for c in view["cards"]], WIDTH, 900, 130,
                                 [(s["q"], s["r"]) for s in view["spots"]])
        return geo.size

    assert hex_size(played(0)) > 1.5 * hex_size(played(20))


def test_only_a_players_own_picture_has_the_hand_strip():
    state = played(3)
    seat = min(GAME.to_act(state))
    public, own = picture(GAME.view(state, None)), picture(GAME.view(state, seat))
    assert own.height == public.height + HAND_H
    strip = own.crop((0, public.height, own.width, own.height))
    assert len(strip.getcolors(1 << 20)) > 20  # six drawn hexes, not a flat band


def test_the_card_just_placed_is_outlined_in_gold():
    state = played(5)
    view = GAME.view(state, None)
    assert view["last"] is not None
    with_last = near(picture(view), LAST)
    without = near(picture({**view, "last": None}), LAST)
    assert with_last > without + 200


def test_zoom_draws_one_spot_and_its_neighbours_large():
    state = played(12)
    view = GAME.view(state, None)
    spot = view["last"]["label"]
    assert spot in GAME.zoom_spots(state)
    whole, zoomed = picture(view), picture({**view, "zoom": spot})
    # The highlighted card fills far more of the zoomed picture.
    assert near(zoomed, LAST) > 2 * near(whole, LAST)


def test_zoom_on_a_label_that_is_not_on_the_table_shows_the_whole_table():
    view = GAME.view(played(6), None)
    assert render({**view, "zoom": "z99"}) == render(view)


def test_the_meadow_list_counts_the_bears_of_every_open_meadow_that_holds_anything():
    view = GAME.view(played(14), None)
    rows = _meadow_rows(view)
    assert rows
    for area in view["areas"]:
        listed = area in rows
        worth_listing = not area["done"] and bool(area["bears"] or area["sugar"]
                                                  or area["honey"])
        assert listed == worth_listing, area["name"]


def test_a_card_with_two_roads_keeps_the_meadow_between_them_whole():
    # L16's two bends cut off its north-east and south-west corners; its one field
    # runs from the south-east side through the middle to the north-west side.
    card = tiles.catalogue()["l16"]
    state = GAME.new([SeatInfo("A"), SeatInfo("B")], 1)
    state["table"].append(new_entry(card, (0, -1), 0))
    view = GAME.view(state, None)
    image = Image.new("RGB", (300, 300), (255, 255, 255))
    geo = Geometry(100, 150, 150 + 100 * SQRT3)  # the card at (0, -1) is centred on the image
    bare = {**view["cards"][1], "fields": []}  # roads only, no sheep or bears in the way
    Map(view, geo, image).card(ImageDraw.Draw(image), bare)
    for side in (2, 5):
        for reach in (0.0, 0.4, 0.8):
            x, y = geo.side_point(0, -1, side, reach)
            assert image.getpixel((round(x), round(y))) == GRASS, (side, reach)
    for side in (0, 1, 3, 4):
        x, y = geo.side_point(0, -1, side, 0.9)
        assert image.getpixel((round(x), round(y))) != GRASS, side


def test_a_new_placement_changes_the_picture():
    before = picture(GAME.view(played(4), None)).tobytes()
    after = picture(GAME.view(played(5), None)).tobytes()
    assert before != after


def test_each_meadow_that_holds_anything_is_named_once_on_the_map():
    view = GAME.view(played(30), None)
    geo, _ = Geometry.fitted([(c["q"], c["r"]) for c in view["cards"]], WIDTH, 900, 130)
    drawn = Map(view, geo, Image.new("RGB", (WIDTH, 900)))
    tags: list[int] = []
    for card in view["cards"]:
        for field in drawn._key(card)[2]:
            if field[-1] is not None:
                tags.append(field[-1][0])
    holding = {view["areas"][f["area"]]["number"] for c in view["cards"] for f in c["fields"]
               if f.get("area") is not None and (f["sheep"] or f["rainbow"] or f["bears"])}
    assert len(holding) > 5
    assert sorted(tags) == sorted(holding)


def test_a_cards_tags_and_tokens_stay_apart_and_inside_it():
    from renderers.sugartopia import _arrange, _field_block

    geo = Geometry(80.0, 90.0, 90.0)
    bears = (("red", True), ("blue", False))
    fields = [((0, 1), 2, 1, 2, 1, bears, (3, False, False)),
              ((1, 2), 1, 0, 1, 0, bears, (4, False, False)),
              ((2, 3), 2, 0, 0, 0, (), None)]
    blocks = [_field_block(geo, f) for f in fields]
    _arrange(geo, blocks)
    for i, a in enumerate(blocks):
        assert abs(a.x - 90) + a.width / 2 <= 80 * SQRT3 / 2 + 1
        for b in blocks[i + 1:]:
            apart_x = abs(a.x - b.x) >= (a.width + b.width) / 2
            apart_y = abs(a.y - b.y) >= (a.height + b.height) / 2
            assert apart_x or apart_y
