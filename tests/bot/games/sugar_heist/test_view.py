"""What the Sugar Heist view gives its picture: the last move, where it happened, and each
card's data (the steps and needs its words were made from), never a face-down card's."""

from __future__ import annotations

import json

from bot.games.engine import SeatInfo
from bot.games.sugar_heist import GAME, cards
from tests.support.sugar_heist_helpers import (
    act,
    arrange_track,
    dice,
    dress,
    everybody_passes,
    new_game,
    put,
)

__all__ = ["dice"]


def test_while_hideouts_are_chosen_the_last_move_is_the_board_the_seat_before_took():
    state = GAME.new([SeatInfo(n) for n in ("Ann", "Ben", "Cat")], 2)
    assert GAME.view(state, None)["moved"] is None
    state = act(state, 0, "board attic")
    assert GAME.view(state, None)["moved"] == {"seat": 0, "did": "board", "board": "attic"}
    state = act(state, 1, "board garage")
    state = act(state, 2, "board basement")
    assert GAME.view(state, None)["moved"] == {"seat": 2, "did": "board", "board": "basement"}


def test_a_purchase_and_a_pass_are_the_last_move_of_the_prep_phase():
    state = new_game()
    arrange_track(state, [0, 1, 2])
    key = cards.instances()[state["market"][0]]
    state = act(state, 0, f"buy {cards.lower_name(cards.costumes()[key])}")
    assert GAME.view(state, 2)["moved"] == {"seat": 0, "did": "buy", "card": key}
    state = act(state, 1, "pass")
    assert GAME.view(state, None)["moved"] == {"seat": 1, "did": "pass", "bonus": 2}


def test_a_built_card_is_the_last_move_by_its_room_and_slot_never_by_its_name():
    state = new_game()
    arrange_track(state, [0, 1, 2])
    card = next(c for c in state["players"][0]["hand"] if cards.design(c)["cost"] == 1)
    d = cards.design(card)
    state = act(state, 0, f"build {cards.lower_name(d)} room 2")
    for viewer in (None, 0, 1):
        moved = GAME.view(state, viewer)["moved"]
        assert moved == {"seat": 0, "did": "build", "room": 2, "slot": d["kind"], "cost": 1,
                         "discarded": False, "moved": None}
        assert card not in json.dumps(moved) and d["key"] not in json.dumps(moved)


def test_a_card_moved_to_make_room_is_part_of_the_last_move():
    state = new_game()
    arrange_track(state, [0, 1, 2])
    hand = next(c for c in state["players"][0]["hand"]
                if cards.design(c)["kind"] == "encounter" and cards.design(c)["cost"] == 1)
    put(state, 0, 1, "squeaky-floorboard")
    state = act(state, 0, f"build {cards.lower_name(cards.design(hand))} room 1 move 3")
    moved = GAME.view(state, None)["moved"]
    assert (moved["room"], moved["slot"], moved["moved"]) == (1, "encounter", 3)


def test_a_heist_answer_is_the_last_move_with_its_room_and_costume(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    dress(state, 0, "tomboy-princess")
    put(state, 1, 1, "squeaky-floorboard", up=True)  # needs a die of 5 or more
    dice.extend([1, 1, 2, 3, 3, 4])
    state = everybody_passes(state)
    assert GAME.view(state, None)["moved"]["did"] == "pass", "the phase's last move"
    state = act(state, 0, "use tomboy princess on 4")
    moved = GAME.view(state, None)["moved"]
    assert moved == {"seat": 0, "did": "use", "notation": "use tomboy princess on 4",
                     "attacker": 0, "defender": 1, "index": 0, "room": 1,
                     "costume": "tomboy-princess"}
    state = act(state, 0, "pay 5")
    moved = GAME.view(state, None)["moved"]
    assert (moved["did"], moved["room"], moved["costume"]) == ("pay", 1, None)


def test_the_last_move_is_gone_once_the_game_is_over():
    state = GAME.new([SeatInfo(n, ai=True) for n in ("Ann", "Ben", "Cat")], 3, {"rounds": 1})
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
    assert state["over"] and GAME.view(state, None)["moved"] is None


def test_every_described_card_carries_the_data_its_words_were_made_from():
    state = new_game()
    dress(state, 2, "ninja")
    put(state, 1, 1, "laser-grid", up=True)
    view = GAME.view(state, 0)
    laser = view["cards"]["laser-grid"]
    printed = cards.hideout_cards(state["rules"])["laser-grid"]
    assert laser["data"] == {"effect": [], "challenge": printed["challenge"],
                             "bad": printed["bad"]}
    assert laser["challenge"] == cards.challenge_text(laser["data"]["challenge"])
    assert view["cards"]["ninja"]["data"] == {"ability": [{"do": "dodge"}]}
    default = view["seats"][0]["board"]["default"]
    assert default["data"]["challenge"] == cards.boards()[0]["default"]["challenge"]
    for key in {c["key"] for c in view["hand"]}:
        assert view["cards"][key]["data"], key


def test_a_face_down_card_gives_others_no_data():
    state = new_game()
    held = {cards.instances()[c] for p in state["players"] for c in p["hand"]}
    # A card in nobody's hand (its holder would see it there).
    key = next(k for k, c in cards.hideout_cards().items()
               if c["kind"] == "encounter" and k not in held)
    put(state, 1, 2, key)
    for viewer in (None, 0, 2):
        view = GAME.view(state, viewer)
        assert key not in view["cards"]
        assert view["seats"][1]["rooms"][1]["encounter"] == \
            {"face": "down", "kind": "encounter", "cost": cards.hideout_cards()[key]["cost"]}
    assert GAME.view(state, 1)["cards"][key]["data"]["challenge"] == \
        cards.hideout_cards(state["rules"])[key]["challenge"]


def test_the_cards_words_say_every_card_shown_once_with_where_it_lies():
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "laser-grid", up=True)
    put(state, 2, 3, "laser-grid", up=True)
    put(state, 0, 2, "hungry-hamster")  # face down: Alice's own
    dress(state, 1, "ninja")
    texts = {t.name: t for t in GAME.rules.card_texts(GAME.view(state, 0))}
    laser = texts["Laser Grid"]
    assert laser.kind == "encounter, $3"
    assert laser.places[:2] == ("Bob, room 1", "Charlie, room 3")  # then her hand, maybe
    assert laser.text == ("Challenge: An odd die + An even die + A die of 5 or more. "
                          "Bad stuff: Lose 1 candy and end the heist.")
    assert texts["Hungry Hamster"].places[0] == "Alice, room 2 (yours, face down)"
    assert texts["Ninja"].places[0] == "Bob" and texts["Ninja"].kind == "costume, $3"
    default = cards.boards()[0]["default"]["name"]  # Alice's board: no encounter in her rooms
    assert texts[default].kind == "default room"
    assert texts[default].places == ("Alice, room 1 (default)", "Alice, room 2 (default)",
                                     "Alice, room 3 (default)")
    hand = {cards.design(c)["name"] for c in state["players"][0]["hand"]}
    assert all("your hand" in " ".join(texts[name].places) for name in hand)
    for viewer in (None, 1, 2):  # Alice's face-down mod is hers alone
        assert not any(place.startswith("Alice, room 2") and "default" not in place
                       for t in GAME.rules.card_texts(GAME.view(state, viewer))
                       for place in t.places)
    assert not any("your hand" in " ".join(t.places) for t in GAME.rules.card_texts(
        GAME.view(state, None)))


def test_the_summary_says_what_the_picture_leaves_out(dice):
    """The board's alt text and `/game status` carry the game's summary: the hands' sizes
    in the prep phase, and the room being raided in words during a heist."""
    state = new_game()
    arrange_track(state, [0, 1, 2])
    assert GAME.rules.summary(state).endswith("Cards in hand: Alice 6, Bob 6, Charlie 6.")
    put(state, 1, 1, "toothpick-pit")
    put(state, 1, 1, "lights-out")
    dice.extend([1, 1, 2, 3, 3, 4, 5])
    state = everybody_passes(state)
    said = GAME.rules.summary(state)
    assert "Alice raids Bob, room 1" in said
    assert ("Mod Lights Out: Lose your highest die. Room 1, Toothpick Pit: Effect: The "
            "defender rerolls up to two of your dice. Challenge: Sum 6 or more. Bad stuff: "
            "Either lose 2 candy, or lose 1 candy and end the heist (your choice).") in said
