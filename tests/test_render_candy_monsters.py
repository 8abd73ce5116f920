"""The Kingdom's Candy Monsters picture: as tall as what it shows, true colours, drawn from
the view alone, and a secret feeding only in its owner's picture."""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image

from bot.games import get_game
from bot.games.candy_monsters import cards
from bot.games.engine import SeatInfo, State
from renderers.candy_monsters import WIDTH, render
from renderers.common import BACKGROUND, seat_colour

GAME = get_game("kingdoms-candy-monsters")


def ai_game_until(done: Callable[[State], bool], players: int = 3, seed: int = 1) -> State:
    """An all-AI game played until ``done`` holds (or the game ends)."""
    state = GAME.new([SeatInfo(f"P{i}", ai=True) for i in range(players)], seed)
    while GAME.to_act(state) and not done(state):
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
    return state


def picture(view: dict) -> Image.Image:
    return Image.open(io.BytesIO(render(view))).convert("RGB")


def has(image: Image.Image, colour: tuple[int, int, int]) -> bool:
    return any(c == colour for _, c in image.getcolors(1 << 16))


def test_the_picture_is_as_tall_as_its_sections_with_the_key_last():
    image = picture(GAME.view(ai_game_until(lambda s: s["move"] >= 30), None))
    assert image.width == WIDTH
    bottom = image.crop((0, image.height - 5, WIDTH, image.height))
    assert bottom.getcolors() == [(WIDTH * 5, BACKGROUND)]
    key = image.crop((0, image.height - 30, WIDTH, image.height - 5))
    assert len(key.getcolors(1 << 16)) > 2, "the key line is drawn just above the bottom"


def test_candy_and_seat_colours_are_drawn_true_on_the_fixed_palette():
    image = picture(GAME.view(ai_game_until(lambda s: s["move"] >= 30, players=5), None))
    for colour in cards.colour_rgb().values():
        assert has(image, colour)
    for seat in range(5):
        assert has(image, seat_colour(seat))


def test_the_picture_depends_on_the_view_alone_not_on_what_was_drawn_before():
    early = GAME.view(ai_game_until(lambda s: s["move"] >= 2), None)
    late = GAME.view(ai_game_until(lambda s: s["move"] >= 40), 1)
    first = render(early)
    render(late)
    assert render(early) == first


def test_a_secret_feeding_is_written_only_in_its_owners_picture():
    state = ai_game_until(lambda s: GAME.view(s, None)["phase"] == "feeding")
    monster = GAME.view(state, 0)["feeding"]["mine"]["hunger"][0][0]
    name = GAME.view(state, 0)["cards"][monster]["key"]
    fed = GAME.apply(state, 0, f"feed {name} sugar").state
    gone = GAME.apply(state, 0, f"let {name} go").state
    assert render(GAME.view(fed, 0)) != render(GAME.view(gone, 0))
    for viewer in (None, 1):
        assert render(GAME.view(fed, viewer)) == render(GAME.view(gone, viewer))
