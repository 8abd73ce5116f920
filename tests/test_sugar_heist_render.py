"""The Sugar Heist picture: drawn from every view, and blind to face-down cards."""

from __future__ import annotations

import io

from PIL import Image
from sugar_heist_helpers import arrange_track, dice, dress, everybody_passes, new_game, put

from bot.games.sugar_heist import GAME
from renderers.common import seat_colour
from renderers.sugar_heist import render

__all__ = ["dice"]


def picture(state: dict, viewer: int | None) -> Image.Image:
    return Image.open(io.BytesIO(render(GAME.view(state, viewer))))


def heist_under_way(hidden: str) -> dict:
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "toothpick-pit", up=True)
    put(state, 1, 3, hidden)
    dress(state, 0, "tomboy-princess")
    return everybody_passes(state)


def test_a_heist_picture_is_wide_and_shows_the_pool_large(dice):
    dice.extend([1, 1, 3, 3, 5, 6])
    image = picture(heist_under_way("venus-flytrap"), None)
    assert image.format == "PNG" and image.width == 1000 and 900 < image.height < 2800


def test_the_public_picture_is_the_same_whichever_card_lies_face_down(dice):
    dice.extend([1, 1, 3, 3, 5, 6])
    one = render(GAME.view(heist_under_way("venus-flytrap"), None))
    dice.extend([1, 1, 3, 3, 5, 6])
    other = render(GAME.view(heist_under_way("slime-bucket"), None))
    assert one == other
    dice.extend([1, 1, 3, 3, 5, 6])
    mine = render(GAME.view(heist_under_way("venus-flytrap"), 1))
    assert mine != one, "the owner sees their own face-down card"


def test_a_players_own_picture_adds_their_hand_in_the_prep_phase():
    state = new_game()
    public, own = picture(state, None), picture(state, 0)
    assert own.height > public.height


def test_every_seat_colour_is_drawn_true_on_the_fixed_palette():
    state = new_game(("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"))
    image = picture(state, None).convert("RGB")
    drawn = {c for _, c in image.getcolors(1 << 16)}
    for seat in range(6):
        assert seat_colour(seat) in drawn, seat


def test_the_picture_depends_on_the_view_alone_not_on_what_was_drawn_before(dice):
    dice.extend([1, 1, 3, 3, 5, 6])
    heist = GAME.view(heist_under_way("venus-flytrap"), 1)
    prep = GAME.view(new_game(), 0)
    first = render(heist)
    render(prep)
    assert render(heist) == first
