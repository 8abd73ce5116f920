"""The Sugar Blast picture: a valid, small PNG that shows what the view says."""

from __future__ import annotations

import copy
import io
import itertools
from typing import Any

import pytest
from PIL import Image

from bot.games import get_game
from bot.games.colours import STANDARD_SEATS
from bot.games.engine import SeatInfo
from renderers import render
from renderers.common import table_of
from renderers.gif import animate
from renderers.sugar_blast import (
    BAND,
    BOARD,
    BOARD_H,
    BOARD_TOP,
    BX,
    GAP,
    ROW,
    WIDTH,
    blast_runs,
    candy_sprite,
    cell_box,
)
from renderers.sugar_blast import BY as STRIP_BY

BY = BOARD_TOP + STRIP_BY  # the board's top edge in the picture
PLAYERS_TOP = BOARD_TOP + BOARD_H

KINDS = ["marshmallow", "corn", "cane", "lollipop", "gumdrop", "truffle"]
SIDES = {2: ("south", "north"), 3: ("south", "west", "north"),
         4: ("south", "west", "north", "east")}
NAMES = ("Ana", "Bo", "Chiara", "Dmitri")


def make_view(players: int = 3, **changes: Any) -> dict[str, Any]:
    """A valid Sugar Blast view following the view schema, with ``changes`` applied, and
    the engine's envelope (``Game.table``) made from it."""
    view: dict[str, Any] = {
        "game": "sugar-blast", "move": 12, "size": 6,
        # A board with no three alike in a row or column.
        "board": [[KINDS[(col + 2 * row) % 6] for col in range(6)] for row in range(6)],
        "types": list(KINDS),
        "seats": [{"name": NAMES[i], "ai": i == 1, "side": SIDES[players][i],
                   "kept": {"corn": 2, "cane": 1} if i == 0 else {}, "progress": 2 if i == 0
                   else 0, "needed": 4} for i in range(players)],
        "objective": {"id": "four-alike", "name": "Four of a Kind",
                      "text": "Keep 4 candies of one kind.",
                      "groups": [{"count": 4, "kind": None}]},
        "bag": 31, "turn": 0, "to_act": [0], "tilt": "south", "phase": "swap", "drawn": None,
        "choices": {"blasts": [], "keep": []},
        "last": None,
        "result": None,
    }
    view.update(changes)
    return with_table(view)


def with_table(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with the envelope the engine adds to every view, made from its own fields."""
    result = view["result"]
    return {**view, "table": {
        "viewer": None, "move": view["move"], "acting": [] if result else list(view["to_act"]),
        "decision": None, "result": result,
        "seats": [{"name": seat["name"], "ai": seat["ai"], "colour": STANDARD_SEATS[i]}
                  for i, seat in enumerate(view["seats"])]}}


def image(view: dict[str, Any]) -> Image.Image:
    return Image.open(io.BytesIO(render(view))).convert("RGB")


def cell_pixels(img: Image.Image, col: int, row: int) -> bytes:
    x0, y0, x1, y1 = cell_box(col, row)
    return img.crop((x0 + 6, BOARD_TOP + y0 + 6, x1 - 6, BOARD_TOP + y1 - 6)).tobytes()


def play(players: int, seed: int, moves: int) -> list[dict[str, Any]]:
    """Public views of a real game played by the AI for up to ``moves`` actions."""
    game = get_game("sugar-blast")
    seats = [SeatInfo(NAMES[i], ai=i > 0) for i in range(players)]
    state = game.new(seats, seed=seed)
    views = [game.view(state, None)]
    for _ in range(moves):
        if game.result(state):
            break
        seat = min(game.to_act(state))
        state = game.apply(state, seat, game.ai_action(state, seat), state["move"]).state
        views.append(game.view(state, None))
    return views


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_picture_is_a_phone_sized_png_under_300_kb(players):
    # 800 px wide: a phone shows it at half size, so 24 px text is 12 px there; at most
    # 1.6 times as tall as wide, so that a phone shows it whole.
    data = render(make_view(players))
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.width == WIDTH == 800
    assert img.height <= 1.6 * img.width
    assert len(data) < 300 * 1024


def test_row_one_is_at_the_bottom_and_column_a_at_the_left():
    assert cell_box(0, 0)[1] > cell_box(0, 5)[1]
    assert cell_box(0, 0)[0] < cell_box(5, 0)[0]


def test_each_candy_kind_looks_different_on_the_board():
    view = make_view(board=[list(KINDS) for _ in range(6)])
    img = image(view)
    assert len({cell_pixels(img, col, 2) for col in range(6)}) == 6


def test_each_candy_kind_has_its_own_silhouette():
    masks = {kind: candy_sprite(kind, 33).getchannel("A").point(lambda a: 255 * (a > 128))
             for kind in KINDS}
    for a, b in itertools.combinations(KINDS, 2):
        pa, pb = masks[a].tobytes(), masks[b].tobytes()
        both = sum(1 for x, y in zip(pa, pb, strict=True) if x and y)
        either = sum(1 for x, y in zip(pa, pb, strict=True) if x or y)
        assert both / either < 0.85, (a, b)


def test_the_last_swap_and_blast_are_highlighted_and_nothing_else_changes():
    plain = image(make_view())
    marked = image(make_view(last={"seat": 0, "swap": [[2, 2], [3, 2]], "replaced": None,
                                   "blasted": [[0, 0]]}))
    for cell in ((2, 2), (3, 2), (0, 0)):
        assert cell_pixels(plain, *cell) != cell_pixels(marked, *cell), cell
    assert cell_pixels(plain, 5, 5) == cell_pixels(marked, 5, 5)


def test_the_replaced_cell_is_marked():
    plain = image(make_view())
    marked = image(make_view(last={"seat": 1, "swap": None, "replaced": [4, 5],
                                   "blasted": []}))
    assert cell_pixels(plain, 4, 5) != cell_pixels(marked, 4, 5)
    assert cell_pixels(plain, 0, 0) == cell_pixels(marked, 0, 0)


def test_pending_blast_choices_are_outlined_on_their_cells():
    options = [{"notation": "blast a1-c1", "kind": "three", "cells": [[0, 0], [1, 0], [2, 0]]},
               {"notation": "mega a1-c1 a1-a3", "kind": "mega",
                "cells": [[0, 0], [1, 0], [2, 0], [0, 1], [0, 2]]}]
    plain = image(make_view(phase="blast"))
    choosing = image(make_view(phase="blast", choices={"blasts": options, "keep": []}))
    for cell in ((0, 0), (1, 0), (2, 0), (0, 1), (0, 2)):
        assert cell_pixels(plain, *cell) != cell_pixels(choosing, *cell), cell
    assert cell_pixels(plain, 4, 4) == cell_pixels(choosing, 4, 4)


def test_a_mega_blast_is_outlined_as_its_two_runs():
    l_shape = [(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)]
    assert blast_runs(l_shape) == [((0, 0), (0, 2)), ((0, 0), (2, 0))]
    assert blast_runs([(3, 1), (3, 2), (3, 3), (3, 4)]) == [((3, 1), (3, 4))]


def test_the_player_to_act_gets_a_filled_band_on_their_own_side():
    south_band = (BX + 10, BY + BOARD + GAP + 4, BX + BOARD - 10, BY + BOARD + GAP + BAND - 4)
    north_band = (BX + 10, BY - GAP - BAND + 4, BX + BOARD - 10, BY - GAP - 4)
    anas_turn = image(make_view(2))
    bos_turn = image(make_view(2, turn=1, to_act=[1], tilt="north"))
    for band in (south_band, north_band):
        assert anas_turn.crop(band).tobytes() != bos_turn.crop(band).tobytes()


def ink_shape(img: Image.Image, box: tuple[int, int, int, int]) -> frozenset[tuple[int, int]]:
    """The near-black pixels in ``box``, moved to their own top-left corner: a mark's outline."""
    crop = img.crop(box).convert("L")
    dark = [(x, y) for y in range(crop.height) for x in range(crop.width)
            if crop.getpixel((x, y)) < 60]
    left, top = min(x for x, _ in dark), min(y for _, y in dark)
    return frozenset((x - left, y - top) for x, y in dark)


def test_each_seat_is_marked_on_its_edge_by_its_own_shape():
    # Colour aside, the bands' dark outlines (the marks: names are in the seat's colour)
    # must differ from seat to seat, so a colour-blind player can still match them.
    img = image(make_view(4))
    bands = {"south": (BX, BY + BOARD + GAP, BX + BOARD, BY + BOARD + GAP + BAND),
             "west": (BX - GAP - BAND, BY, BX - GAP, BY + BOARD),
             "north": (BX, BY - GAP - BAND, BX + BOARD, BY - GAP),
             "east": (BX + BOARD + GAP, BY, BX + BOARD + GAP + BAND, BY + BOARD)}
    shapes = [ink_shape(img, bands[side]) for side in SIDES[4]]
    assert len(set(shapes)) == 4


def test_the_upright_mark_is_the_same_shape_on_every_side():
    # Seat 1's square on the west edge (a turned band) against the same seat on the north edge.
    west = image(make_view(3))
    north = image(make_view(2))
    west_band = (BX - GAP - BAND, BY, BX - GAP, BY + BOARD)
    north_band = (BX, BY - GAP - BAND, BX + BOARD, BY - GAP)
    assert ink_shape(west, west_band) == ink_shape(north, north_band)


def test_at_the_end_the_seat_rows_follow_the_ranking():
    over = make_view(3, phase="over", to_act=[], result={
        "ranking": [[2], [0, 1]], "scores": {"0": 2, "1": 2, "2": 4}, "summary": "."})
    assert table_of(over).order() == [2, 0, 1]
    assert table_of(make_view(3)).order() == [0, 1, 2]


def test_the_drawn_candy_and_keep_choices_render():
    for changes in ({"phase": "replace", "drawn": "gumdrop"},
                    {"phase": "keep", "choices": {"blasts": [], "keep": ["corn", "truffle"]}}):
        data = render(make_view(4, **changes))
        assert Image.open(io.BytesIO(data)).format == "PNG"


def test_a_finished_game_renders_its_ranking_instead_of_a_turn():
    running = make_view()
    over = make_view(phase="over", to_act=[], result={
        "ranking": [[1], [0, 2]], "scores": {"0": 2, "1": 4, "2": 2},
        "summary": "Bo completed Four of a Kind."})
    assert image(running).tobytes() != image(over).tobytes()


def test_a_view_without_display_names_or_with_long_names_still_renders():
    view = make_view(4)
    view["seats"][0]["name"] = "Bartholomew the Magnificent of Candyland"
    view = with_table(view)
    assert "names" not in view
    assert len(render(view)) < 300 * 1024


@pytest.mark.parametrize("players", [2, 3, 4])
def test_real_views_render_throughout_a_game(players):
    for view in play(players, seed=players, moves=40)[::4]:
        data = render(view)
        picture = Image.open(io.BytesIO(data))
        assert picture.width == 800 and picture.height <= 1.6 * picture.width
        assert len(data) < 300 * 1024


def test_the_real_opening_view_renders_for_a_human_and_an_ai():
    game = get_game("sugar-blast")
    state = game.new([SeatInfo("Ana"), SeatInfo("Bo", ai=True)], seed=1)
    public = image(game.view(state, None))
    assert public.width == 800
    own = image(game.view(state, 0))
    assert own.size == public.size


def test_the_gif_has_one_frame_per_picture_and_is_scaled_down():
    frames = [render(make_view(move=m)) for m in range(3)]
    gif = Image.open(io.BytesIO(animate(frames, max_width=500)))
    assert gif.format == "GIF" and gif.n_frames == 3 and gif.width == 500


def test_the_gif_lingers_on_the_final_position():
    frames = [render(make_view(move=m)) for m in range(2)]
    gif = Image.open(io.BytesIO(animate(frames, frame_ms=400, last_frame_ms=2000)))
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations == [400, 2000]


def test_an_empty_replay_is_refused():
    with pytest.raises(ValueError, match="at least one"):
        animate([])


def test_an_unknown_game_has_no_renderer():
    with pytest.raises(ValueError, match="No renderer"):
        render({"game": "chess"})


def test_the_dispatcher_uses_the_view_and_never_changes_it():
    view = make_view(last={"seat": 0, "swap": [[0, 0], [1, 0]], "replaced": None,
                           "blasted": [[0, 0]]})
    before = copy.deepcopy(view)
    render(view)
    assert view == before


# --------------------------------------------------------------------------- power cards


def power_view(changes: dict[str, Any] | None = None, **power: Any) -> dict[str, Any]:
    """make_view with power cards (tokens by cell name, two cards in the strip) and the
    view's other ``changes``."""
    from bot.games.sugar_blast import powers

    texts = [{"id": c["id"], "name": c["name"], "type": c["type"], "place": c["place"],
              "tokens": c["tokens"], **powers.card_text(c)}
             for c in (powers.card("bomb"), powers.card("star"))]
    base = {"texts": texts, "chips": {}, "spaces": {}, "pile": {"bomb": 1}, "supply": {},
            "hands": [{}, {}, {}], "marker": None}
    base.update(power)
    return make_view(power=base, **(changes or {}))


def test_each_power_token_is_drawn_distinctly_on_the_board():
    # The same candy on every cell; each token in turn on c3 only.
    board = [["marshmallow"] * 6 for _ in range(6)]
    plain = image({**power_view(), "board": board})
    looks = set()
    for card in ("frozen", "bomb", "wild", "cage", "toffee", "star", "jelly"):
        layer = "spaces" if card in ("toffee", "star", "jelly") else "chips"
        shown = image({**power_view(**{layer: {"c3": card}}), "board": board})
        assert cell_pixels(shown, 2, 2) != cell_pixels(plain, 2, 2), card
        assert cell_pixels(shown, 4, 4) == cell_pixels(plain, 4, 4), card
        looks.add(cell_pixels(shown, 2, 2))
    assert len(looks) == 7


def test_the_power_strip_shows_under_the_picture_only_with_power_cards_in_play():
    plain, powered = image(make_view()), image(power_view())
    assert powered.width == plain.width and powered.height > plain.height + 80
    over = {"phase": "over", "to_act": [], "result": {
        "ranking": [[0], [1], [2]], "scores": {"0": 2, "1": 0, "2": 0}, "summary": "."}}
    # Once over, the cards' rules give way to their tokens' names in the legend.
    assert image(power_view(over)).height < powered.height - 40


def test_tokens_in_a_players_hand_are_drawn_beside_their_score():
    empty = image(power_view())
    held = image(power_view(hands=[{"twist": 2}, {}, {}]))
    box = (0, PLAYERS_TOP, WIDTH // 2, PLAYERS_TOP + ROW)  # the first player's card
    assert empty.crop(box).tobytes() != held.crop(box).tobytes()


def test_the_sugar_rush_choice_and_the_taken_candy_render():
    view = power_view(hands=[{"rush": 1}, {}, {}])
    view.update(phase="rush", choices={"blasts": [], "keep": [], "rush": "rush"},
                last={"seat": 0, "swap": None, "replaced": None, "blasted": [], "taken": [1, 1]})
    assert len(render(view)) < 300 * 1024
    assert cell_pixels(image(view), 1, 1) != cell_pixels(image(power_view()), 1, 1)


def test_real_power_views_render_throughout_a_game():
    game = get_game("sugar-blast")
    state = game.new([SeatInfo("Ana"), SeatInfo("Bo", ai=True), SeatInfo("Cy", ai=True)],
                     seed=4, options={"power": "random 2"})
    for _ in range(30):
        if game.result(state):
            break
        data = render(game.view(state, None))
        picture = Image.open(io.BytesIO(data))
        assert picture.width == 800 and picture.height <= 1.6 * picture.width
        assert len(data) < 300 * 1024
        seat = min(game.to_act(state))
        state = game.apply(state, seat, game.ai_action(state, seat)).state


# --------------------------------------------------------------------------- the phone frame


def texts(view: dict[str, Any]) -> list[str]:
    """Every string the picture of ``view`` draws, in drawing order."""
    from tools.pictures import draw

    return [t.text for t in draw("sugar-blast", view).texts]


def test_the_header_says_the_bag_the_move_and_what_to_do():
    drawn = texts(make_view())
    assert "bag: 31 candies · move 12" in drawn
    assert any(text.startswith("Swap two neighbouring candies") for text in drawn)


def test_the_legend_explains_every_mark_on_the_board_and_no_other():
    plain = texts(make_view())
    assert not any(text.startswith("last move") for text in plain) and "blasted" not in plain
    assert "after a Blast, candies fall toward Ana" in plain
    marked = texts(make_view(last={"seat": 1, "swap": [[2, 2], [3, 2]], "replaced": None,
                                   "blasted": [[0, 0]]}))
    assert "last move: Bo swapped c3 d3" in marked and "blasted" in marked
    options = [{"notation": "blast a1-c1", "kind": "three", "cells": [[0, 0], [1, 0], [2, 0]]}]
    choosing = texts(make_view(phase="blast", choices={"blasts": options, "keep": []}))
    assert "the Blasts to choose from, in order" in choosing
    assert "1 blast a1-c1" in " ".join(choosing)
    replaced = texts(make_view(last={"seat": 0, "swap": None, "replaced": [4, 5],
                                     "blasted": []}))
    assert "last move: Ana drew and replaced e6" in replaced


def test_the_last_move_is_outlined_in_the_frames_last_move_colour():
    from renderers.common import LAST_MOVE

    marked = image(make_view(last={"seat": 0, "swap": [[2, 2], [3, 2]], "replaced": None,
                                   "blasted": []}))
    x0, y0, x1, _ = cell_box(2, 2)
    edge = marked.crop((x0, BOARD_TOP + y0, x1, BOARD_TOP + y0 + 8))
    assert LAST_MOVE in {colour for _, colour in edge.getcolors(4096) or []}
    plain = image(make_view()).crop((x0, BOARD_TOP + y0, x1, BOARD_TOP + y0 + 8))
    assert LAST_MOVE not in {colour for _, colour in plain.getcolors(4096) or []}


def test_the_candies_key_names_every_kind_as_moves_do_and_the_objective_is_drawn():
    drawn = texts(make_view())
    assert all(kind in drawn for kind in KINDS) and "any kind" in drawn
    assert "Four of a Kind" in " ".join(drawn) and "×4" in drawn


def test_the_final_ranking_says_its_tie_breaks_in_words():
    seats = [{"name": NAMES[i], "ai": False, "side": SIDES[3][i], "kept": kept,
              "progress": 2, "needed": 4}
             for i, kept in enumerate(({"corn": 2, "cane": 1}, {"corn": 2}, {"corn": 2}))]
    over = make_view(3, seats=seats, phase="over", to_act=[], result={
        "ranking": [[0], [1, 2]], "scores": {"0": 2, "1": 2, "2": 2},
        "summary": "Nobody completed the objective."})
    drawn = texts(over)
    assert "Final ranking" in drawn
    assert "by objective candies, then candies kept" in drawn
    assert "2/4 · 3 kept" in drawn and "2/4 · 2 kept" in drawn
    flow = " ".join(drawn)
    assert ("level with Ana on objective candies; behind on candies kept, 2 to 3; tied with "
            "Chiara") in flow
    assert "1st" in drawn and "2nd" in drawn and "3rd" not in drawn  # Bo and Chiara share 2nd


def test_the_drawn_candy_and_the_rush_token_stand_at_the_end_of_the_players_band():
    south = (BX + BOARD - BAND, BY + BOARD + GAP, BX + BOARD, BY + BOARD + GAP + BAND)
    plain = image(make_view(4, phase="replace"))
    drawn = image(make_view(4, phase="replace", drawn="gumdrop"))
    assert plain.crop(south).tobytes() != drawn.crop(south).tobytes()
