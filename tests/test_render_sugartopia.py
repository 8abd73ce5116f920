"""The Sugartopia picture: fits a phone-friendly width, shows the hand only to its owner."""

from __future__ import annotations

import io

from PIL import Image

from bot.games import get_game
from bot.games.engine import SeatInfo
from renderers import render
from renderers.sugartopia import HEIGHT

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
    return Image.open(io.BytesIO(data))


def test_the_table_stays_within_1400_px_as_it_grows():
    for moves in (0, 10, 200):
        img = picture(GAME.view(played(moves), None))
        assert img.format == "PNG" and img.width <= 1400


def test_the_public_picture_has_no_hand_strip():
    state = played(3)
    assert picture(GAME.view(state, None)).height == HEIGHT


def test_a_players_own_picture_adds_their_card_in_six_turns():
    state = played(3)
    seat = min(GAME.to_act(state))
    own = picture(GAME.view(state, seat))
    assert own.height > HEIGHT
    strip = own.crop((0, HEIGHT, own.width, own.height))
    # Six drawn hexes: the strip is far from a flat background.
    colours = strip.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 20


def test_a_new_placement_changes_the_picture():
    before = picture(GAME.view(played(4), None)).convert("RGB").tobytes()
    after = picture(GAME.view(played(5), None)).convert("RGB").tobytes()
    assert before != after
