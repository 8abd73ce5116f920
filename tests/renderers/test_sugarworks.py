"""The Sugarworks picture and the candy movement animation."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.engine import SeatInfo
from bot.games.sugarworks import GAME
from bot.games.sugarworks import content as ct
from renderers.common import LAST_MOVE, seat_colour
from renderers.sugarworks import (
    CANDY,
    PICTURE_FLOOR_TOP,
    WIDTH,
    Floor,
    _strips,
    animate,
    render,
)
from tools.pictures import draw


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


def new_game(players: int = 3) -> dict:
    return GAME.new([SeatInfo(n) for n in ("Alex", "Blake", "Casey", "Dallas")[:players]], 3)


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


def _texts(view: dict) -> list[str]:
    return [text.text for text in draw("sugarworks", view).texts]


def test_the_public_picture_fits_a_phone_and_a_hand_only_in_its_owners_picture():
    state = example_state()
    public = picture(render(GAME.view(state, None)))
    own = picture(render(GAME.view(state, 3)))
    assert public.width == own.width == WIDTH == 800
    assert public.height <= 1.6 * WIDTH and own.height <= 1.6 * WIDTH
    assert picture(render(GAME.view(state, 0))).height == own.height
    held = state["hands"][3]["orders"]
    assert held and not set(held) & set(_texts(GAME.view(state, None)))
    assert set(held) <= set(_texts(GAME.view(state, 3)))
    assert not set(held) & set(_texts(GAME.view(state, 0)))  # another seat's hand
    # The players' cards make room for the hand: the legend names every seat's mark.
    assert {"Alex", "Blake", "Casey", "Dallas"} <= set(_texts(GAME.view(state, 3)))


def _floor_box(view: dict, cell: str) -> tuple[int, int, int, int]:
    """Where ``cell`` is in the board's picture."""
    floor = Floor(view["board"], top=PICTURE_FLOOR_TOP)
    space = next(s for s in view["board"]["spaces"] if s["cell"] == cell)
    return floor.box(space["x"], space["y"])


def _outlined(image: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """Whether the last move's amber runs down the left side of ``box``."""
    x0, y0, _, y1 = box
    return image.getpixel((x0 + 4, (y0 + y1) // 2)) == LAST_MOVE


def test_the_last_move_is_outlined_on_every_space_it_touched_and_said_in_the_legend():
    state = GAME.apply(new_game(), 0, "take order 2").state
    view = GAME.view(state, None)
    image = picture(render(view)).convert("RGB")
    assert "last move: Alex took order 2 (a new card in its place)" in _texts(view)
    assert [s.args[-1] for s in _strips(view) if s.paint.__name__ == "_market"] == [2]
    state = GAME.apply(state, 0, "adjust red to c5").state
    view = GAME.view(state, None)
    image = picture(render(view)).convert("RGB")
    assert "last move: Alex moved the red output a5 → c5" in _texts(view)
    assert _outlined(image, _floor_box(view, "a5")) and _outlined(image, _floor_box(view, "c5"))
    assert not _outlined(image, _floor_box(view, "b5"))
    # The output's name stays whole over the mark.
    x0, y0, _, _ = _floor_box(view, "c5")
    unmarked = picture(render(dict(view, last=None))).convert("RGB")
    name = (x0 + 3, y0 + 3, x0 + 40, y0 + 26)
    assert image.crop(name).tobytes() == unmarked.crop(name).tobytes()
    # An order drawn from the deck touched nothing on the table: the legend names the seat.
    view = GAME.view(GAME.apply(state, 1, "draw order").state, None)
    assert "last move: Blake drew an order" in _texts(view)
    assert [s.args[-1] for s in _strips(view) if s.paint.__name__ == "_floor"] == [()]


def test_the_legend_explains_each_mark_the_floor_shows_and_only_those():
    state = example_state()
    view = GAME.view(state, None)
    texts = _texts(view)
    for label in ("jumps 2", "eats its shape on entry", "output tile", "output space",
                  "played tile", "lost off this edge", "its maker (2★ if shipped)",
                  "candy die: plays first this round"):
        assert label in texts, label
    for label in ("springs up 2", "loses any candy", "eats its shape"):
        assert label not in texts, label
    after = GAME.view(GAME.apply(state, 3, "conveyor right at b1").state, None)
    assert "round 1: 3 shipped, 1 lost, 6 Bonk!s" in _texts(after)


def test_the_final_ranking_replaces_the_market_and_the_players():
    state = new_game(2)
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
    view = GAME.view(state, None)
    painters = [s.paint.__name__ for s in _strips(view)]
    assert "_paint_ranking" in painters
    assert not {"_market", "_blankets", "_players"} & set(painters)
    assert picture(render(view)).height <= 1.6 * WIDTH


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
