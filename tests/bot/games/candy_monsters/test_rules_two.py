"""Kingdom's Candy Monsters rules 2: converting at any time, partial feeding, and feeding
answers that look alike to everybody else. Rules 1 games go on as they were."""

from __future__ import annotations

import pytest

from bot.games.candy_monsters import board
from bot.games.engine import IllegalActionError, NotYourTurnError, SeatInfo, dumps, loads
from tests.bot.games.candy_monsters.test_rules import (
    GAME,
    arrange,
    black_candy,
    feed_all,
    meals,
    new,
    play,
    turn_of,
)


def test_a_player_converts_four_sugar_into_a_candy_during_another_players_turn():
    state = new(3)
    arrange(state, 1, ["doro"], sugar=5, candy=0)
    turn_of(state, 0)
    waiting, token = GAME.to_act(state), GAME.token(state, 0)
    assert GAME.legal_actions(state, 1) == []
    assert [a.notation for a in GAME.standing(state, 1)] == ["convert"]
    outcome = GAME.apply(state, 1, "convert")
    after = outcome.state
    p = board.player(after, 1)
    assert (p["sugar"], p["candy"]) == (1, 1)
    assert outcome.public == "convert" and "P1 turned 4 sugar into 1 candy." in outcome.narration()
    # Not a turn: the same seats act, and the turn player's buttons stay valid.
    assert GAME.to_act(after) == waiting and GAME.token(after, 0) == token
    assert GAME.apply(after, 0, "collect", token).state["turn"]["action"] == "collect"


def test_converting_again_needs_four_sugar_and_a_second_click_is_stale():
    state = new(3)
    arrange(state, 1, ["doro"], sugar=5)
    turn_of(state, 0)
    token = GAME.token(state, 1)
    state = GAME.apply(state, 1, "convert", token).state
    assert GAME.token(state, 1) != token
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 1, "convert")


def test_sugar_left_over_by_the_feeding_draft_converts_during_black_candy():
    state = new(2)
    arrange(state, 0, ["uno", "magmot"], sugar=7, candy=0)
    arrange(state, 1, ["doro"], sugar=0)
    state = black_candy(state)
    # Uno eats 1 and Magmot 2; four of the seven sugar are not needed.
    state, _ = play(state, 0, "feed magmot sugar")
    state, _ = play(state, 0, "convert")
    assert board.player(state, 0)["candy"] == 1
    assert "convert" not in [a.notation for a in GAME.standing(state, 0)]
    state, _ = play(state, 0, "feed uno sugar")
    state, _ = feed_all(state, 1)
    assert meals(state, 0) == {"magmot": ("sugar", 2, 0, 0), "uno": ("sugar", 1, 0, 0)}
    assert board.player(state, 0)["black"] == 0


def test_an_answer_locked_in_is_not_changed_by_converting_afterwards():
    state = new(2)
    arrange(state, 0, ["uno"], sugar=9)
    arrange(state, 1, ["doro"], sugar=0)
    state = black_candy(state)
    state, _ = feed_all(state, 0)
    assert GAME.standing(state, 0) == []
    with pytest.raises(NotYourTurnError, match="already decided"):
        GAME.apply(state, 0, "convert")


def test_a_partial_feed_gives_some_sugar_and_takes_a_black_cube_for_each_sugar_not_fed():
    state = new(2)
    arrange(state, 0, ["uno", "magmot", "oni-baba"], sugar=6, black=0)
    arrange(state, 1, ["doro"], sugar=0)
    state = black_candy(state)
    assert "feed magmot 1 sugar" in [a.notation for a in GAME.legal_actions(state, 0)]
    state, _ = play(state, 0, "feed magmot 1", "feed uno sugar", "feed oni baba sugar")
    state, _ = feed_all(state, 1)
    assert meals(state, 0)["magmot"] == ("sugar", 1, 0, 1)
    assert board.player(state, 0)["black"] == 1


def test_a_partial_feed_never_gives_more_sugar_than_the_player_has():
    state = new(2)
    arrange(state, 0, ["uno", "magmot"], sugar=1)
    arrange(state, 1, ["doro"], sugar=0)
    state = black_candy(state)
    with pytest.raises(IllegalActionError, match="partial feed"):
        GAME.apply(state, 0, "feed magmot 1 sugar")


def _public_shape(state, seat: int, steps: list[str]) -> list[tuple[str, str]]:
    shape = []
    for step in steps:
        outcome = GAME.apply(state, seat, step)
        shape.append((outcome.public, " ".join(outcome.narration())))
        state = outcome.state
    return shape


def test_every_feeding_answer_takes_the_same_public_steps_however_the_monsters_are_fed():
    state = new(3)
    arrange(state, 0, ["uno", "magmot"], tucked={"magmot": ["full-belly-3-red"]}, sugar=4)
    arrange(state, 1, ["doro"], sugar=0)
    arrange(state, 2, ["blip"], sugar=0)
    state = black_candy(state)
    answers = [["use full belly", "feed uno sugar", "feed magmot sugar"],
               ["use none", "let magmot go", "feed uno black"],
               ["use none", "feed magmot 1 sugar", "feed uno black"]]
    shapes = [_public_shape(state, 0, steps) for steps in answers]
    assert shapes[0] == shapes[1] == shapes[2]
    assert [public for public, _ in shapes[0]] == ["is deciding", "is deciding", "has decided"]
    with pytest.raises(IllegalActionError, match="one monster at a time"):
        GAME.apply(state, 0, "feed all")


def test_a_game_stored_under_rules_one_goes_on_under_rules_one():
    seats = [SeatInfo("P0"), SeatInfo("P1")]
    old = GAME.new(seats, 3, rules=1)
    loaded = loads(dumps(old), GAME)
    assert loaded["rules"] == 1
    arrange(loaded, 1, ["doro"], sugar=5)
    turn_of(loaded, 0)
    # Rules 1: converting only in one's own turn, and "feed all" in one step.
    assert GAME.standing(loaded, 1) == []
    with pytest.raises(NotYourTurnError):
        GAME.apply(loaded, 1, "convert")
    fed = black_candy(loaded)
    assert "feed all" in [a.notation for a in GAME.legal_actions(fed, 0)]
    fed, _ = play(fed, 0, "feed all")
    assert 0 in GAME.top(fed).answered


def test_the_result_names_the_winner_once_and_leaves_each_total_to_the_ranking():
    from bot.games import get_game

    game = get_game("kingdoms-candy-monsters")
    from bot.games.engine import play_out

    state = play_out(game, game.new([SeatInfo(name, ai=True) for name in ("Ana", "Bo", "Cy")], 5))
    result = game.result(state)
    winners = {game.seat_name(state, s) for s in result.ranking[0]}
    losers = {game.seat_name(state, s) for s in range(3)} - winners
    assert all(name in result.summary for name in winners)
    assert not any(name in result.summary for name in losers)
    assert result.summary.count(str(result.scores[result.ranking[0][0]])) == 1
