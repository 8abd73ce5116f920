"""The Sugarworks picture and the candy movement animation."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.engine import SeatInfo
from bot.games.sugarworks import GAME
from bot.games.sugarworks import content as ct
from renderers.common import seat_colour
from renderers.sugarworks import CANDY, WIDTH, animate, render


def take_tile(state: dict, kind: str) -> str:
    """A conveyor tile of ``kind`` out of the stack (or out of a hand, replaced from the stack)."""
    tile = next(t for t, k in ct.tile_ids() if k == kind and t not in state["tile_discards"]
                and all(p["tile"] != t for p in state["placed"].values()))
    if tile in state["stack"]:
        state["stack"].remove(tile)
        return tile
    hand = next(h for h in state["hands"] if tile in h["tiles"])
    hand["tiles"][hand["tiles"].index(tile)] = state["stack"].pop()
    return tile


def example_state() -> dict:
    """Alex, Blake, Casey and Dallas at the rulebook's Candy Movement Example, Dallas to act."""
    state = GAME.new([SeatInfo(n) for n in ("Alex", "Blake", "Casey", "Dallas")], 2)
    for candy in state["candies"]:
        state["supply"][candy["type"]] += 1
    state["candies"] = []
    state["outputs"]["yellow"] = "c4"
    for space, kind in {"d1": "up", "d2": "up", "d3": "up", "d4": "up", "a4": "jump-right",
                        "f2": "alien-green"}.items():
        state["placed"][space] = {"tile": take_tile(state, kind), "kind": kind}
    for i, (kind, where) in enumerate([("red", "e1"), ("red", "d1"), ("yellow", "g5"),
                                       ("yellow", "f3"), ("yellow", "b4"), ("green", "e2"),
                                       ("blue", "g3"), ("blue", "c4"), ("blue", "b5"),
                                       ("purple", "a4")]):
        state["supply"][kind] -= 1
        state["candies"].append({"id": f"c{20 + i}", "type": kind, "at": where,
                                 "maker": 2 if kind == "purple" else None})
    state["active"], state["step"] = 3, "factory"
    tile = take_tile(state, "right")
    state["stack"].append(state["hands"][3]["tiles"][0])
    state["hands"][3]["tiles"][0] = tile
    return state


def picture(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 400 * 1024
    return Image.open(io.BytesIO(data))


def test_the_public_picture_fits_a_phone_and_a_hand_only_in_its_owners_picture():
    state = example_state()
    public = picture(render(GAME.view(state, None)))
    own = picture(render(GAME.view(state, 3)))
    assert public.width == own.width == WIDTH
    assert own.height > public.height  # the hand strip: orders and conveyor tiles
    assert picture(render(GAME.view(state, 0))).height == own.height


def test_the_rulebook_example_plays_out_in_the_game_and_animates_step_by_step():
    state = example_state()
    assert animate(GAME.view(state, None)) is None  # no movement yet
    outcome = GAME.apply(state, 3, "conveyor right at b1")
    view = GAME.view(outcome.state, None)
    movement = view["movement"]
    assert movement["fresh"] and movement["bonks"] == 6
    assert movement["shipped"] == 3 and movement["lost"] == 1
    lines = outcome.narration(None)
    assert ("The yellow hexagon b4: → c4, Bonk! into the blue square at c4, bounces down to "
            "c3; → d3, Bonk! into the red circle at d3, the red circle goes right to e3."
            ) in lines
    assert any(line.startswith("Casey's purple rectangle a4: → c4; → d4, Bonk!")
               for line in lines)
    gif = Image.open(io.BytesIO(animate(view)))
    assert gif.format == "GIF"
    assert gif.n_frames == len(movement["steps"]) + 2
    # Every step is drawn: frames differ from one another where a candy moved.
    gif.seek(1)
    first = gif.convert("RGB").tobytes()
    gif.seek(2)
    assert gif.convert("RGB").tobytes() != first


def test_the_animation_is_only_offered_right_after_the_movement():
    state = example_state()
    after = GAME.apply(state, 3, "conveyor right at b1").state
    seat = after["active"]
    later = GAME.apply(after, seat, "draw order").state
    assert animate(GAME.view(later, None)) is None
    assert picture(render(GAME.view(later, None))).width == WIDTH


def test_candy_and_seat_colours_are_drawn_true_on_the_fixed_palette():
    image = picture(render(GAME.view(example_state(), None))).convert("RGB")
    colours = {c for _, c in image.getcolors(1 << 16)}
    assert set(CANDY.values()) <= colours
    assert {seat_colour(seat) for seat in range(4)} <= colours


def test_the_picture_depends_on_the_view_alone_not_on_what_was_drawn_before():
    state = example_state()
    before = GAME.view(state, 3)
    after = GAME.view(GAME.apply(state, 3, "conveyor right at b1").state, None)
    first = render(before)
    render(after)
    assert render(before) == first
