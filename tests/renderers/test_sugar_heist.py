"""The Sugar Heist picture in the phone frame: 800 px wide and at most 1.6 times as tall at
every table size, cards drawn as icons from their data, the last move marked, a key for
every mark, and blind to face-down cards."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.games.engine import SeatInfo
from bot.games.sugar_heist import GAME, cards
from renderers.common import FRAME_MAX_H, LAST_MOVE, seat_colour
from renderers.sugar_heist import (
    HIDEOUT_H,
    ROOM_W,
    ROOMS_X,
    ROW_H,
    _need_tokens,
    _steps_tokens,
    _strips,
    render,
)
from tests.support.sugar_heist_helpers import (
    act,
    arrange_track,
    dice,
    dress,
    everybody_passes,
    new_game,
    put,
)
from tools.pictures import draw

__all__ = ["dice"]

SIX = ("Ann", "Bartholomew", "Cat", "Dmitri", "Eve", "Fay")


def picture(state: dict, viewer: int | None) -> Image.Image:
    return Image.open(io.BytesIO(render(GAME.view(state, viewer))))


def texts(view: dict[str, Any]) -> list[str]:
    """Every string the picture of ``view`` draws, in drawing order."""
    return [t.text for t in draw("sugar-heist", view).texts]


def heist_under_way(hidden: str, names: tuple[str, ...] = ("Alice", "Bob", "Charlie")) -> dict:
    state = new_game(names)
    arrange_track(state, list(range(len(names))))
    put(state, 1, 1, "toothpick-pit", up=True)
    put(state, 1, 3, hidden)
    dress(state, 0, "tomboy-princess")
    return everybody_passes(state)


def test_a_heist_picture_is_800_wide_and_within_the_phone_frame(dice):
    dice.extend([1, 1, 3, 3, 5, 6])
    image = picture(heist_under_way("venus-flytrap"), None)
    assert image.format == "PNG" and image.width == 800 and image.height <= FRAME_MAX_H


def test_six_seats_fit_the_frame_in_every_phase_for_everybody(dice):
    state = GAME.new([SeatInfo(n) for n in SIX], 1)
    assert picture(state, None).size[1] <= FRAME_MAX_H  # choosing hideouts
    state = new_game(SIX)
    left = {key: sum(1 for deck in state["decks"].values() for c in deck
                     if cards.instances()[c] == key) for key in cards.instances().values()}

    def widest(*keys: str) -> str:
        """The first of ``keys`` with a copy left, else any card of the same kind."""
        kind = cards.design(next(i for i, k in cards.instances().items() if k == keys[0]))
        others = [k for k, c in cards.hideout_cards().items() if c["kind"] == kind.get("kind")]
        others = others or list(cards.costumes())
        key = next(k for k in (*keys, *others) if left.get(k))
        left[key] -= 1
        return key

    for seat in range(6):  # a card in every slot, the widest there are, and four costumes
        for room in (1, 2, 3):
            put(state, seat, room, widest("laser-grid", "toothpick-pit", "venus-flytrap"),
                up=True)
            put(state, seat, room, widest("alarm-bell", "scattered-marbles", "flashlight-beam"),
                up=seat % 2 == 0)
        for key in ("superhero", "vampire-count", "pirate-captain", "lucky-leprechaun"):
            dress(state, seat, widest(key))
    arrange_track(state, list(range(6)))
    for viewer in (None, *range(6)):  # the prep phase, with each seat's hand
        image = picture(state, viewer)
        assert image.size[0] == 800 and image.size[1] <= FRAME_MAX_H, viewer
    dice.extend([1, 1, 3, 3, 5, 6])
    heist = everybody_passes(state)
    for viewer in (None, 0, 1):
        assert picture(heist, viewer).size[1] <= FRAME_MAX_H


def test_beside_a_hand_on_a_large_table_the_other_hideouts_are_drawn_in_brief():
    state = new_game(SIX)
    arrange_track(state, [3, 1, 0, 2, 5, 4])
    full = {s.args[0].seat for s in _strips(GAME.view(state, 0)) if s.paint.__name__ ==
            "_hideout"}
    brief = {s.args[0].seat for s in _strips(GAME.view(state, 0)) if s.paint.__name__ ==
             "_brief"}
    assert full == {0, 2} and brief == {1, 3, 4, 5}, "Ann and the hideout she raids"
    public = [s for s in _strips(GAME.view(state, None)) if s.paint.__name__ == "_brief"]
    assert not public, "the public board shows every hideout in full"
    small = new_game()
    assert not [s for s in _strips(GAME.view(small, 0)) if s.paint.__name__ == "_brief"]


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
    public, own = texts(GAME.view(state, None)), texts(GAME.view(state, 0))
    hand = [cards.design(c)["name"] for c in state["players"][0]["hand"]]
    assert all(name in own for name in hand)
    assert "Your hand, only you see it (build … room 1)" in own
    assert not any(name in public for name in hand if name not in public)


def test_every_seat_colour_is_drawn_true_on_the_fixed_palette():
    state = new_game(SIX)
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


# --------------------------------------------------------------------------- icons


def _labels(tokens: list[tuple[Any, ...]]) -> list[str]:
    return [str(t[1]) if len(t) > 1 else t[0] for t in tokens]


def test_challenges_are_drawn_as_the_dice_they_ask_for():
    printed = cards.hideout_cards()
    assert _labels(_need_tokens(printed["laser-grid"]["challenge"])) == ["odd", "even", "5+"]
    assert _labels(_need_tokens(printed["grandmas-knitting-trap"]["challenge"])) == \
        ["paired", "×3"]
    assert _labels(_need_tokens(printed["venus-flytrap"]["challenge"])) == ["any", "×2"]
    assert _labels(_need_tokens(printed["tripwire-alarm"]["challenge"])) == ["sum 12+"]
    assert _labels(_need_tokens(printed["big-sister"]["challenge"])) == ["≤2", "5+"]
    assert _labels(_need_tokens(printed["baby-brother"]["challenge"])) == ["odd unique"]
    assert _labels(_need_tokens(printed["slime-bucket"]["challenge"])) == ["pair"]


def test_effects_and_bad_stuff_are_drawn_as_icons_and_counts():
    printed = cards.hideout_cards()
    assert _labels(_steps_tokens(printed["toothpick-pit"]["effect"])) == ["↻", "×2", "D"]
    assert _labels(_steps_tokens(printed["toothpick-pit"]["bad"])) == \
        ["−2", "candy", "or", "−1", "candy", "end"]
    assert _labels(_steps_tokens(printed["alarm-bell"]["effect"])) == \
        ["≤4", "→", "✗", "×2", "D"]
    assert _labels(_steps_tokens(printed["venus-flytrap"]["effect"])) == ["✗", "all", "≤2"]
    assert _labels(_steps_tokens(cards.costumes()["superhero"]["ability"])) == ["+die", "×2"]


def test_every_card_of_every_rules_version_has_an_icon_for_each_step():
    """No step falls back to its verb's bare name: every card the game prints is drawn."""
    printed = [*cards.hideout_cards().values(), *cards.hideout_cards(1).values(),
               *(b["default"] for b in cards.boards()), *cards.costumes().values()]
    steps = [s for card in printed
             for s in (*card.get("effect", []), *card.get("bad", []), *card.get("ability", []))]
    nested = [s for step in steps for key in ("then", "else") for s in step.get(key, [])]
    nested += [s for step in steps for option in step.get("options", []) for s in option]
    verbs = set()
    for step in (*steps, *nested):
        tokens = _steps_tokens([step])
        assert tokens and not any(t[0] == "text" and t[1] == step["do"] for t in tokens), step
        verbs.add(step["do"])
    assert len(verbs) >= 15, verbs
    assert all(_need_tokens(card["challenge"]) for card in printed if "challenge" in card)


# --------------------------------------------------------------------------- marks and words


def _hideout_top(view: dict[str, Any], seat: int) -> int:
    """Where ``seat``'s hideout strip begins in the picture of ``view``."""
    y = 0
    for strip in _strips(view):
        if strip.paint.__name__ in ("_hideout", "_brief") and strip.args[0].seat == seat:
            return y
        y += strip.height
    raise AssertionError(seat)


def test_a_built_card_is_outlined_as_the_last_move_in_its_room():
    state = new_game()
    arrange_track(state, [0, 1, 2])
    card = next(c for c in state["players"][0]["hand"] if cards.design(c)["cost"] == 1)
    d = cards.design(card)
    before = GAME.view(state, None)
    state = act(state, 0, f"build {cards.lower_name(d)} room 2")
    view = GAME.view(state, None)
    top = _hideout_top(view, 0) + (0 if d["kind"] == "mod" else ROW_H + 1)
    x0 = ROOMS_X + ROOM_W + 6  # room 2
    edge = (x0 - 3, top, x0 + ROOM_W + 3, top + 6)

    def colours(v: dict[str, Any]) -> set[Any]:
        crop = Image.open(io.BytesIO(render(v))).convert("RGB").crop(edge)
        return {c for _, c in crop.getcolors(1 << 16) or []}

    assert LAST_MOVE in colours(view)
    assert LAST_MOVE not in colours(before)
    words = texts(view)
    assert f"last move: Alice built a $1 {d['kind']} in room 2" in words
    assert d["name"] not in " ".join(words), "a card built face down is never named"


def test_the_header_says_the_round_the_phase_and_what_to_do():
    drawn = texts(GAME.view(new_game(), None))
    assert "round 1 of 3, prep phase · move 3" in drawn
    assert " ".join(drawn).count("(build laser grid room 1)") == 1


def test_the_legend_explains_the_marks_drawn_and_no_other(dice):
    plain = texts(GAME.view(new_game(), None))
    assert "candy" in plain and "sugar tax" in plain and "default room" in plain
    assert "from outside" not in plain and "face down" not in plain
    assert "raids the one below" in plain
    dice.extend([1, 1, 3, 3, 5, 6])
    heist = texts(GAME.view(heist_under_way("alarm-bell"), None))
    for label in ("face down", "reroll", "defender picks", "Alice is here", "bad stuff"):
        assert label in heist, label
    assert "from outside" not in heist  # the alarm bell lies face down


def test_the_room_being_raided_is_drawn_large_with_its_cards_icons(dice):
    dice.extend([1, 1, 3, 3, 5, 6])
    state = heist_under_way("venus-flytrap")
    drawn = texts(GAME.view(state, None))
    assert "Room 1: Toothpick Pit" in drawn and "Alice raids" in drawn
    assert {"pay", "or suffer", "sum 6+"} <= set(drawn)
    for value in ("1", "3", "5", "6"):
        assert value in drawn, "each die's number under it"


def test_the_final_ranking_says_its_tie_breaks_in_words():
    state = GAME.new([SeatInfo(n, ai=True) for n in ("Ann", "Ben", "Cat")], 3, {"rounds": 1})
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
    for seat, (candy, tax, money) in enumerate(((4, 1, 3), (4, 1, 1), (2, 0, 9))):
        state["players"][seat].update(candy=candy, tax=tax, money=money)
    drawn = " ".join(texts(GAME.view(state, None)))
    assert "by candy, then sugar tax, then money" in drawn
    assert "4 candy · 1 tax · $3" in drawn
    assert "level with Ann on candy and sugar tax; behind on money, 1 to 3" in drawn
    assert "raids the one below" not in drawn, "no raids once the game is over"


@pytest.mark.parametrize("players", [3, 6])
def test_the_hideouts_keep_their_height_from_move_to_move(players):
    state = GAME.new([SeatInfo(SIX[i], ai=True) for i in range(players)], 5)
    heights = set()
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
        heights.update(s.height for s in _strips(GAME.view(state, None))
                       if s.paint.__name__ == "_hideout")
    assert heights == {HIDEOUT_H}
