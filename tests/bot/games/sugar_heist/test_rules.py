"""Sugar Heist rules, one rulebook sentence at a time."""

from __future__ import annotations

import json

import pytest

from bot.games import engine
from bot.games.engine import IllegalActionError, NotationError, SeatInfo, Turn, play_out
from bot.games.rng import Rng
from bot.games.sugar_heist import GAME, cards, effects
from tests.support.sugar_heist_helpers import (
    act,
    arrange_track,
    dice,
    dress,
    everybody_passes,
    heist_table,
    new_game,
    put,
    run,
)

__all__ = ["dice"]


# --------------------------------------------------------------------------- set-up and rounds


def test_three_to_six_players_play_as_many_rounds_as_players():
    for n in range(3, 7):
        state = GAME.new([SeatInfo(f"P{i}") for i in range(n)], 1)
        assert state["rounds"] == n
    with pytest.raises(Exception, match="3 to 6"):
        GAME.new([SeatInfo("A"), SeatInfo("B")], 1)


def test_the_rounds_option_shortens_the_game():
    assert new_game(options={"rounds": 1})["rounds"] == 1


def test_each_player_starts_with_three_candy_and_chooses_a_free_board():
    state = GAME.new([SeatInfo(n) for n in ("A", "B", "C")], 1)
    assert [p["candy"] for p in state["players"]] == [3, 3, 3]
    assert GAME.to_act(state) == {0} and GAME.top(state).kind == "board"
    state = act(state, 0, "board attic")
    assert "board attic" not in [a.notation for a in GAME.legal_actions(state, 1)]
    assert state["players"][0]["board"] == "attic"


def test_the_target_track_sends_each_player_at_the_next_and_the_last_at_the_first():
    state = new_game(("A", "B", "C", "D"))
    track = state["track"]
    assert sorted(track) == [0, 1, 2, 3]
    view = GAME.view(state, None)
    assert view["targets"] == [[track[i], track[(i + 1) % 4]] for i in range(4)]
    assert GAME.to_act(state) == {track[0]}, "the first on the track buys first"


def test_prep_lays_out_six_costumes_deals_hands_of_three_two_one_and_six_dollars():
    state = new_game()
    assert len(state["market"]) == 6
    for player in state["players"]:
        costs = sorted(cards.design(c)["cost"] for c in player["hand"])
        assert costs == [1, 1, 1, 2, 2, 3]
        assert player["money"] == 6


# --------------------------------------------------------------------------- prep


def test_buying_a_costume_pays_for_it_puts_it_face_up_and_refills_the_market():
    state = new_game()
    arrange_track(state, [0, 1, 2])
    key = cards.instances()[state["market"][0]]
    cost = cards.costumes()[key]["cost"]
    top = state["decks"]["costume"][-1]
    state = act(state, 0, f"buy {cards.lower_name(cards.costumes()[key])}")
    me = state["players"][0]
    assert me["money"] == 6 - cost and me["costumes"][0]["used"] is False
    assert len(state["market"]) == 6 and top in state["market"]
    assert GAME.to_act(state) == {1}, "one card per turn, then the next player"


def test_building_puts_a_hand_card_face_down_that_only_its_owner_sees():
    state = new_game()
    arrange_track(state, [0, 1, 2])
    card = next(c for c in state["players"][0]["hand"] if cards.design(c)["cost"] == 1)
    d = cards.design(card)
    outcome = GAME.apply(state, 0, f"build {cards.lower_name(d)} room 2")
    state = outcome.state
    held = state["players"][0]["rooms"][1][d["kind"]]
    assert held == {"id": card, "up": False}
    assert card not in state["players"][0]["hand"]
    assert outcome.public == f"built a $1 {d['kind']} face down in room 2"
    for event in outcome.events:
        if event.to is None:
            assert d["name"] not in event.text
    for viewer in (None, 1, 2):
        assert card not in json.dumps(GAME.view(state, viewer))
        assert GAME.view(state, viewer)["seats"][0]["rooms"][1][d["kind"]] == \
            {"face": "down", "kind": d["kind"], "cost": 1}
    assert GAME.view(state, 0)["seats"][0]["rooms"][1][d["kind"]]["id"] == card


def test_a_taken_slot_is_freed_by_moving_its_card_or_discarding_it_under_its_deck():
    state = new_game()
    arrange_track(state, [0, 1, 2])
    old = put(state, 0, 1, "squeaky-floorboard")
    hand_encounter = next(c for c in state["players"][0]["hand"]
                          if cards.design(c)["kind"] == "encounter")
    name = cards.lower_name(cards.design(hand_encounter))
    notations = [a.notation for a in GAME.legal_actions(state, 0)]
    assert f"build {name} room 1 discard" in notations
    assert f"build {name} room 1 move 2" in notations
    assert f"build {name} room 1" not in notations
    moved = act(state, 0, f"build {name} room 1 move 3")
    assert moved["players"][0]["rooms"][2]["encounter"]["id"] == old
    dropped = act(state, 0, f"build {name} room 1 discard")
    assert dropped["decks"]["1"][0] == old, "discards go under their deck"


def test_passing_pays_two_then_one_and_a_third_dollar_only_with_five_or_more():
    for names, bonuses in ((("A", "B", "C"), [2, 1, 0]),
                           (("A", "B", "C", "D", "E"), [2, 1, 1, 0, 0])):
        state = new_game(names)
        arrange_track(state, list(range(len(names))))
        before = [p["money"] for p in state["players"]]
        for seat in range(len(names)):
            state = act(state, seat, "pass")
        gained = [state["players"][s]["money"] - before[s] for s in range(len(names))]
        assert gained == bonuses


def test_a_player_who_passed_is_skipped_for_the_rest_of_the_phase():
    state = new_game()
    arrange_track(state, [0, 1, 2])
    state = act(state, 0, "pass")
    buy = next(a for a in GAME.legal_actions(state, 1) if a.notation.startswith("buy"))
    state = act(state, 1, buy.notation)
    state = act(state, 2, "pass")
    assert GAME.to_act(state) == {1}


def test_when_all_have_passed_market_and_hands_go_back_into_their_decks():
    state = new_game()
    arrange_track(state, [0, 1, 2])
    state = everybody_passes(state)
    assert state["market"] == [] and all(p["hand"] == [] for p in state["players"])
    assert len(state["decks"]["costume"]) == 48
    assert [len(state["decks"][c]) for c in "123"] == [54, 42, 20]


# --------------------------------------------------------------------------- heists


def test_heists_follow_the_track_each_with_six_fresh_dice(dice):
    state = new_game()
    arrange_track(state, [2, 0, 1])
    dice.extend([2, 2, 2, 2, 2, 2])
    state = everybody_passes(state)
    heist = state["heist"]
    assert (heist["attacker"], heist["defender"]) == (2, 0)
    assert GAME.rules.episode(state) == "heist-1-2"


def test_an_empty_room_uses_the_boards_default_encounter(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    dice.extend([1, 1, 1, 1, 1, 1])  # Blanket Fort's Pillow Avalanche wants a die of 4+
    state = act(act(state, 0, "pass"), 1, "pass")
    outcome = GAME.apply(state, 2, "pass")
    story = " ".join(e.text for e in outcome.events)
    assert story.count("Pillow Avalanche") >= 3
    # Nothing pays and Alice has no costume: she suffers a die in each room, gets
    # through all three and steals a candy.
    record = outcome.state["heists"][0]
    assert record["passed"] and record["cleared"] == 0 and record["stolen"] == 1


def test_paying_clears_the_room_for_one_candy(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "squeaky-floorboard")
    dice.extend([1, 2, 3, 4, 5, 6])
    state = everybody_passes(state)
    legal = [a.notation for a in GAME.legal_actions(state, 0)]
    assert legal[:2] == ["pay 5", "pay 6"] and legal[-1] == "suffer"
    state = act(state, 0, "pay 6")
    assert state["players"][0]["candy"] == 4 and state["heist"]["outcomes"][0] == "cleared"


def test_one_may_suffer_instead_of_paying_and_go_on_without_candy(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "squeaky-floorboard")
    dice.extend([1, 2, 3, 4, 5, 6])
    state = everybody_passes(state)
    state = act(state, 0, "suffer")
    assert state["players"][0]["candy"] == 2
    assert state["heist"]["room"] == 1 and state["heist"]["outcomes"][0] == "suffered"


def test_bad_stuff_that_says_end_the_heist_ends_it(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "grandmas-knitting-trap")
    dice.extend([1, 2, 3, 4, 5, 6])  # no pair: lose 2 candy and end the heist
    state = everybody_passes(state)
    record = state["heists"][-1]
    assert not record["passed"] and record["lost"] == 2
    assert state["heist"]["attacker"] == 1, "Bob's heist begins"


def test_bad_stuff_that_cannot_be_suffered_completely_ends_the_heist(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "toothpick-pit")
    state["players"][0]["candy"] = 1
    state["supply"]["candy"] += 2
    dice.extend([1, 1, 1, 1, 1, 1, 1, 1])
    state = everybody_passes(state)
    state = act(state, 1, "reroll 1 1")
    state = act(state, 0, "suffer")
    state = act(state, 0, "choose 1")  # lose 2 candy: she has only 1
    record = state["heists"][-1]
    assert not record["passed"] and state["players"][0]["candy"] == 0


def test_passing_all_three_rooms_steals_one_candy_plus_one_per_sugar_tax_token(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    state["players"][1]["tax"] = 2
    state["supply"]["sugar_tax"] -= 2
    dice.extend([6, 6, 6, 6, 6, 6])  # Pillow Avalanche wants a 4 or more, three times
    state = everybody_passes(state)
    for _ in range(3):
        state = act(state, 0, "pay 6")
    record = state["heists"][0]
    assert record["passed"] and record["stolen"] == 3
    assert state["players"][0]["candy"] == 3 + 3 + 3 and state["players"][1]["candy"] == 0


def test_a_costume_is_used_once_per_heist_and_flips_back_up_when_it_ends(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "squeaky-floorboard")
    put(state, 1, 2, "squeaky-floorboard")
    dress(state, 0, "tin-robot")
    dice.extend([1, 1, 1, 1, 2, 3])
    state = everybody_passes(state)
    state = act(state, 0, "use tin robot on 3")
    assert state["heist"]["pool"] == [1, 1, 1, 1, 2, 5]
    assert not [a for a in GAME.legal_actions(state, 0) if a.notation.startswith("use")]
    state = act(state, 0, "pay 5")
    # Room 2 has no 5 left and the robot is spent: the bad stuff comes at once.
    assert state["heist"]["outcomes"][1] == "suffered"
    while state["heist"]["attacker"] == 0:
        state = act(state, 0, GAME.legal_actions(state, 0)[-1].notation)
    assert state["players"][0]["costumes"][0]["used"] is False


def test_revealed_cards_stay_face_up_and_hideout_cards_never_return_to_hand(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    card = put(state, 1, 1, "squeaky-floorboard")
    dice.extend([6, 6, 6, 6, 6, 6])
    state = everybody_passes(state)
    assert state["players"][1]["rooms"][0]["encounter"] == {"id": card, "up": True}
    assert GAME.view(state, 2)["seats"][1]["rooms"][0]["encounter"] == \
        {"face": "up", "key": "squeaky-floorboard"}
    assert all(card not in p["hand"] for p in state["players"])


def test_decisions_belong_to_whoever_the_card_names(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "hungry-hamster")  # the defender's choice of die
    put(state, 1, 1, "sticky-doormat")
    dice.extend([1, 2, 3, 4, 5, 6])
    state = everybody_passes(state)
    assert GAME.to_act(state) == {1} and GAME.top(state).kind == "lose"
    assert GAME.legal_actions(state, 0) == []
    state = act(state, 1, "lose 6")
    # Sticky Doormat lowers the highest die by itself; then Alice faces the challenge.
    assert state["heist"]["pool"] == [1, 2, 3, 4, 4]
    assert GAME.to_act(state) == {0} and GAME.top(state).kind == "challenge"


def test_the_attacker_chooses_which_candy_loss_to_take(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "toothpick-pit")
    dice.extend([1, 1, 1, 1, 1, 1, 1, 1])
    state = everybody_passes(state)
    state = act(state, 1, "reroll none")
    state = act(state, 0, "suffer")
    choices = [a.notation for a in GAME.legal_actions(state, 0)]
    assert choices == ["choose 1", "choose 2"]
    state = act(state, 0, "choose 2")  # 1 candy and the heist ends
    assert state["players"][0]["candy"] == 2 and not state["heists"][-1]["passed"]


# --------------------------------------------------------------------------- end of round


def test_every_player_tied_for_most_candy_takes_a_sugar_tax_token():
    state = new_game(options={"rounds": 2})
    state["prep"] = None
    state["flow"]["phase"] = "heist"
    for p, candy in zip(state["players"], [7, 3, 7], strict=True):
        p["candy"] = candy
    state["supply"]["candy"] -= 17 - 9
    turn = Turn(Rng(5))
    GAME.rules._end_round(state, turn)
    assert [p["tax"] for p in state["players"]] == [1, 0, 1]
    assert state["supply"]["sugar_tax"] == 14
    assert "Alice and Charlie have the most candy (7)" in turn.events[0].text
    assert engine.round_of(state) == 2 and engine.phase_of(state) == "prep"


def test_most_candy_wins_then_sugar_tax_then_money_then_the_tie_stands():
    state = new_game(options={"rounds": 1})
    state["over"] = True
    players = state["players"]
    for p, (candy, tax, money) in zip(players, [(5, 1, 3), (5, 1, 4), (5, 1, 4)], strict=True):
        p.update(candy=candy, tax=tax, money=money)
    assert GAME.result(state).ranking == ((1, 2), (0,))
    players[0]["tax"] = 2
    assert GAME.result(state).ranking == ((0,), (1, 2))
    players[1]["candy"] = 6
    assert GAME.result(state).winners == (1,)


def test_a_whole_game_ends_after_its_last_round():
    state = play_out(GAME, new_game(options={"rounds": 1}))
    assert state["over"] and engine.round_of(state) == 1 and len(state["heists"]) == 3


# --------------------------------------------------------------------------- effect verbs


def test_reroll_lets_the_defender_reroll_up_to_the_count(dice):
    _state, ctx = heist_table([2, 4, 6])
    assert run(ctx, [{"do": "reroll", "count": 2, "by": "defender"}])
    options = [n for n, _ in effects.options(ctx, "reroll", {"count": 2})]
    assert "reroll none" in options and "reroll 4 6" in options and "reroll 2 4 6" not in options
    dice.extend([1, 1])
    effects.answer(ctx, "reroll", {"count": 2, "by": "defender"}, "X", ["reroll", "4", "6"])
    assert ctx.pool == [1, 1, 2]


def test_reroll_all_rerolls_every_die_that_fits(dice):
    _state, ctx = heist_table([6, 6, 3])
    dice.extend([2, 5])
    run(ctx, [{"do": "reroll_all", "at_least": 6}])
    assert ctx.pool == [2, 3, 5]


def test_lose_asks_the_chooser_or_takes_the_highest():
    state, ctx = heist_table([1, 3, 5])
    assert run(ctx, [{"do": "lose", "count": 1, "by": "attacker"}])
    assert GAME.top(state).seats == (0,)
    state, ctx = heist_table([1, 3, 5])
    assert not run(ctx, [{"do": "lose", "count": 1, "by": "highest"}])
    assert ctx.pool == [1, 3]
    state, ctx = heist_table([1, 3, 5])
    assert not run(ctx, [{"do": "lose", "count": 1, "by": "lowest"}])
    assert ctx.pool == [3, 5]


def test_losing_more_dice_than_the_pool_holds_is_not_a_complete_suffering():
    _state, ctx = heist_table([4])
    ctx.heist["stage"] = "bad"
    run(ctx, [{"do": "lose", "count": 2, "by": "attacker"}])
    assert ctx.pool == [] and ctx.heist["complete"] is False


def test_lose_all_removes_every_die_that_fits():
    _state, ctx = heist_table([1, 2, 2, 3, 6])
    run(ctx, [{"do": "lose_all", "at_most": 2}])
    assert ctx.pool == [3, 6]


def test_add_and_set_never_take_a_die_past_one_or_six():
    _state, ctx = heist_table([6, 1])
    effects.change_dice(ctx, [6], {"do": "add", "amount": 2})
    effects.change_dice(ctx, [1], {"do": "add", "amount": -1})
    assert ctx.pool == [1, 6]
    effects.change_dice(ctx, [6], {"do": "set", "value": 9})
    assert ctx.pool == [1, 6]


def test_add_by_the_defender_asks_the_defender():
    state, ctx = heist_table([2, 5])
    assert run(ctx, [{"do": "add", "amount": -1, "count": 1, "by": "defender"}])
    assert GAME.top(state).seats == (1,) and GAME.top(state).kind == "add"
    assert [a.notation for a in GAME.legal_actions(state, 1)] == ["lower 2", "lower 5"]


def test_add_all_changes_every_die():
    _state, ctx = heist_table([1, 5, 6])
    run(ctx, [{"do": "add_all", "amount": 1}])
    assert ctx.pool == [2, 6, 6]


def test_set_by_the_defender_is_their_choice():
    _state, ctx = heist_table([3, 6])
    assert run(ctx, [{"do": "set", "value": 1, "count": 1, "by": "defender"}])
    effects.answer(ctx, "set", {"do": "set", "value": 1, "count": 1}, "X", ["set", "6"])
    assert ctx.pool == [1, 3]


def test_gain_die_rolls_into_the_pool_but_never_past_eight_dice(dice):
    _state, ctx = heist_table([1, 1, 1, 1, 1, 1, 1])
    dice.extend([4, 4])
    run(ctx, [{"do": "gain_die", "count": 2}])
    assert ctx.pool == [1] * 7 + [4]


def test_outside_roll_follows_then_or_else(dice):
    _state, ctx = heist_table([2, 3])
    dice.extend([5])
    step = {"do": "outside_roll", "at_least": 4, "then": [{"do": "lose", "by": "highest"}],
            "else": [{"do": "add_all", "amount": 1}]}
    run(ctx, [step])
    assert ctx.pool == [2] and ctx.heist["outside"] == 5
    _state, ctx = heist_table([2, 3])
    dice.extend([1])
    run(ctx, [step])
    assert ctx.pool == [3, 4]


def test_candy_and_money_verbs_move_tokens_and_fall_short_when_they_cannot():
    state, ctx = heist_table([1])
    ctx.heist["stage"] = "bad"
    a, d = state["players"][0], state["players"][1]
    supply = state["supply"]["candy"]
    run(ctx, [{"do": "lose_candy", "amount": 1}, {"do": "give_candy", "amount": 1}])
    assert (a["candy"], d["candy"], state["supply"]["candy"]) == (1, 4, supply + 1)
    a["money"], bank = 3, state["supply"]["money"]
    run(ctx, [{"do": "give_money", "amount": 2}, {"do": "pay_money", "amount": 1}])
    assert (a["money"], d["money"], state["supply"]["money"]) == (0, 8, bank + 1)
    assert ctx.heist["complete"]
    run(ctx, [{"do": "lose_candy", "amount": 5}])
    assert a["candy"] == 0 and not ctx.heist["complete"]


def test_end_heist_drops_the_rest_of_the_queue():
    _state, ctx = heist_table([1, 2])
    run(ctx, [{"do": "end_heist"}, {"do": "lose_all"}])
    assert ctx.heist["ended"] and ctx.pool == [1, 2]


def test_choice_asks_the_attacker_and_runs_the_chosen_option():
    state, ctx = heist_table([1, 2])
    step = {"do": "choice", "options": [[{"do": "lose_all"}], [{"do": "lose_candy", "amount": 1}]]}
    assert run(ctx, [step])
    assert GAME.top(state).seats == (0,)
    effects.answer(ctx, "choice", step, "X", ["choose", "1"])
    run(ctx, [])
    assert ctx.pool == []


def test_exhaust_flips_a_costume_of_the_attackers_choice():
    state, ctx = heist_table([1])
    dress(state, 0, "ninja")
    run(ctx, [{"do": "exhaust", "count": 1}])
    assert state["players"][0]["costumes"][0]["used"]
    dress(state, 0, "dinosaur")
    dress(state, 0, "superhero")
    assert run(ctx, [{"do": "exhaust", "count": 1}])
    assert [a.notation for a in GAME.legal_actions(state, 0)] == ["flip dinosaur", "flip superhero"]


def test_dodge_passes_the_room_without_paying_or_suffering(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "baby-brother")
    dress(state, 0, "ninja")
    dice.extend([2, 2, 3, 3, 5, 5])  # no unique die
    state = everybody_passes(state)
    state = act(state, 0, "use ninja")
    assert state["heist"]["outcomes"][0] == "dodged" and state["players"][0]["candy"] == 3


# --------------------------------------------------------------------------- notation


def test_typed_notation_is_forgiving_and_errors_say_why(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "venus-flytrap")
    dress(state, 0, "tomboy-princess")
    dice.extend([3, 3, 4, 5, 6, 6])
    state = everybody_passes(state)
    assert GAME.parse(state, 0, "Pay 6,3").notation == "pay 3 6"
    assert GAME.parse(state, 0, "use tomboy on 4").notation == "use tomboy princess on 4"
    with pytest.raises(NotationError):
        GAME.parse(state, 0, "steal 3")
    # A known move with an argument it cannot take says why, and what would do.
    with pytest.raises(IllegalActionError) as no_seven:
        GAME.parse(state, 0, "pay 7")
    assert str(no_seven.value) == (
        "You have no 7: your dice are 3, 3, 4, 5, 6 and 6; you can pay 3 3, 3 4, 3 5, 3 6 or "
        "4 5 (among others) for Any die + Any die.")
    assert no_seven.value.typed == "pay 7"
    with pytest.raises(IllegalActionError, match="You have no 1: your dice are"):
        GAME.parse(state, 0, "pay 1 3")
    with pytest.raises(IllegalActionError, match="does not pay"):
        GAME.parse(state, 0, "pay 3", exact=True)
    with pytest.raises(IllegalActionError, match="Say which dice pay: you can pay 3 3"):
        GAME.parse(state, 0, "pay x", exact=True)


def test_the_dice_menu_offers_each_die_of_the_pool_even_when_two_show_the_same(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "toothpick-pit")
    dice.extend([1, 1, 3, 3, 5, 6])
    state = everybody_passes(state)
    menu = GAME.rules.multi_select(state, 1)
    assert [label for _, label in menu.options] == [
        "die 1: 1", "die 2: 1", "die 3: 3", "die 4: 3", "die 5: 5", "die 6: 6"]
    assert menu.notation(["d6", "d5"]) == "reroll 5 6" and menu.max_values == 2
    assert menu.makes("reroll 1 1") and not menu.makes("reroll 1 1 3")
    assert not menu.makes("reroll none")
    # A pick is parsed like typing.
    assert GAME.parse(state, 1, menu.notation(["d3", "d4"]), exact=True).notation == "reroll 3 3"
    state = act(state, 1, "reroll none")
    # Paying needs no menu of dice: the cheapest ways are few, each offered whole.
    assert GAME.rules.multi_select(state, 0) is None


def test_paying_with_more_dice_than_the_challenge_needs_is_dominated_yet_legal(dice):
    state = new_game()
    arrange_track(state, [0, 1, 2])
    put(state, 1, 1, "toothpick-pit")
    dice.extend([1, 1, 3, 3, 5, 6])
    state = everybody_passes(state)
    state = act(state, 1, "reroll none")
    legal = GAME.legal_actions(state, 0)
    dominated = GAME.rules.dominated(state, 0, legal)
    pays = [a.notation for a in legal if a.notation.startswith("pay ")]
    # Sum 6 or more: a 6 alone, or two dice, pay it; a third die goes along for nothing.
    cheapest = sorted(set(pays) - dominated)
    assert "pay 6" in cheapest and "pay 3 3" in cheapest and "pay 3 6" not in cheapest
    assert "pay 1 1 3 3 5 6" in dominated and "suffer" not in dominated
    # Still a legal move: /play takes it.
    assert GAME.parse(state, 0, "pay 3 6").notation == "pay 3 6"
    assert len(cheapest) < len(pays) / 4


def test_card_text_is_generated_from_the_same_data_the_interpreter_runs():
    pit = cards.describe(cards.hideout_cards()["toothpick-pit"])
    assert pit["effect"] == "The defender rerolls up to two of your dice."
    assert pit["challenge"] == "Sum 6 or more"
    assert pit["bad"] == "Either lose 2 candy, or lose 1 candy and end the heist (your choice)."
    gnomes = cards.describe(cards.hideout_cards()["insidious-lawn-gnomes"])
    assert gnomes["challenge"] == "An odd die of 3 or more"
    flytrap = cards.describe(cards.hideout_cards()["venus-flytrap"])
    assert flytrap["effect"] == "Lose every die of 2 or less."
    assert flytrap["challenge"] == "Any die + Any die"
    princess = cards.describe(cards.costumes()["tomboy-princess"])
    assert princess["ability"] == "+1 to one of your dice."
