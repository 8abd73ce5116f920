"""The Kingdom's Candy Monsters picture in the phone frame: 800 px wide and at most 1.6 times as
tall at every seat count, true colours, drawn from the view alone, abilities as icons and counts,
this turn's cards outlined, a secret feeding only in its owner's picture and who has decided in
everybody's, and a height that follows the table, not whose turn it is."""

from __future__ import annotations

import copy
import io
from collections.abc import Callable

import pytest
from PIL import Image

from bot.games import get_game
from bot.games.candy_monsters import cards
from bot.games.candy_monsters.view import describe
from bot.games.engine import SeatInfo, State
from renderers.candy_monsters import (
    WIDTH,
    _condensed,
    _full,
    _strips,
    ability_pieces,
    render,
    title_name,
)
from renderers.common import FRAME_MAX_H, seat_colour

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


def height(view: dict) -> int:
    return sum(strip.height for strip in _strips(view))


def said(pieces: list) -> str:
    """A run of pieces as words: an icon by its name."""
    return " ".join(str(p[1]) for p in pieces)


@pytest.mark.parametrize("players", [2, 5])
def test_every_picture_of_a_whole_game_is_800_wide_and_at_most_1_6_times_as_tall(players):
    state = GAME.new([SeatInfo(f"P{i}", ai=True) for i in range(players)], 3)
    tallest = 0
    while GAME.to_act(state):
        tallest = max(tallest, height(GAME.view(state, None)))
        seat = min(GAME.to_act(state))
        tallest = max(tallest, height(GAME.view(state, seat)))
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
    end = picture(GAME.view(state, None))
    assert end.width == WIDTH == 800
    assert end.height == height(GAME.view(state, None)) <= FRAME_MAX_H
    assert tallest <= FRAME_MAX_H == 1.6 * WIDTH


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


def test_an_ability_is_drawn_as_its_window_and_icons_with_counts():
    assert said(ability_pieces(describe("haggle-3-red"))) == "buy monster: price −3"
    assert said(ability_pieces(describe("oni-baba"))) == "any time: 1 sugar → steal 3 sugar"
    assert said(ability_pieces(describe("toothbrush-3-red"))) == \
        "start: −2 black +2 sugar"
    assert said(ability_pieces(describe("licorice-lich"))) == \
        "game end: +2 candy if no black"
    assert said(ability_pieces(describe("choco-chimera"))) == \
        "start: +1 sugar per red monster"


def test_what_this_turn_touched_is_outlined_and_said_in_the_legend():
    state = ai_game_until(lambda s: bool(s["turn"] and s["turn"]["fresh"]), players=2)
    view = GAME.view(state, None)
    seat = view["turn"]["seat"]
    bought = view["turn"]["fresh"][0]
    [panel] = [s.args[0] for s in _strips(view) if s.paint is _full and s.args[0].seat == seat]
    touched = [c.name for m, tucked in panel.monsters for c in (m, *tucked) if c.touched]
    name = title_name(view["cards"][bought]["name"])
    assert name in touched
    [legend] = [s for s in _strips(view) if s.paint.__name__ == "_paint_legend"]
    assert any(key.label.startswith(f"this turn: P{seat} bought {name}")
               for key in legend.args[0])


def test_a_secret_feeding_is_written_only_in_its_owners_picture():
    state = ai_game_until(lambda s: GAME.view(s, None)["phase"] == "feeding")
    monster = GAME.view(state, 0)["feeding"]["mine"]["hunger"][0][0]
    name = GAME.view(state, 0)["cards"][monster]["key"]
    fed = GAME.apply(state, 0, f"feed {name} sugar").state
    gone = GAME.apply(state, 0, f"let {name} go").state
    assert render(GAME.view(fed, 0)) != render(GAME.view(gone, 0))
    for viewer in (None, 1):
        assert render(GAME.view(fed, viewer)) == render(GAME.view(gone, viewer))


def test_everybody_sees_who_has_decided_at_a_black_candy_but_not_what():
    state = ai_game_until(lambda s: GAME.view(s, None)["phase"] == "feeding")
    seat = min(GAME.to_act(state))
    before = GAME.view(state, None)
    while seat in GAME.to_act(state):  # seat answers in full, the others not yet
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
    after = GAME.view(state, None)

    def statuses(view: dict) -> dict[int, str]:
        panels = [p for s in _strips(view) if s.paint in (_full, _condensed)
                  for p in (s.args[0] if s.paint is _condensed else (s.args[0],))]
        return {p.seat: p.status for p in panels}

    assert statuses(before)[seat] == "deciding"
    assert statuses(after)[seat] == "decided"
    assert {s: v for s, v in statuses(after).items() if s != seat} == \
        {s: v for s, v in statuses(before).items() if s != seat}
    assert render(before) != render(after)


def test_at_five_seats_the_player_to_act_is_drawn_in_full_and_the_height_stays():
    state = ai_game_until(lambda s: s["move"] >= 200, players=5, seed=1)
    view = GAME.view(state, None)
    strips = _strips(view)
    [full] = [s.args[0].seat for s in strips if s.paint is _full]
    assert full == view["table"]["acting"][0]
    assert any(s.paint is _condensed for s in strips)
    for other in range(5):  # whoever is to act, the picture is as tall
        moved = copy.deepcopy(view)
        moved["table"]["acting"] = [other]
        assert [s.args[0].seat for s in _strips(moved) if s.paint is _full] == [other]
        assert height(moved) == height(view)
